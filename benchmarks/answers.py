"""Answer benchmark: citation precision / recall / F1 of answers and answer latency per backend.

    .venv/bin/python benchmarks/answers.py [--bench benchmarks/questions/zh_versions.jsonl]
        [--workspace benchmarks/workspace-retrieval/zh] [--models 12]

Every question is answered by the extractive composer; the first `--models` questions are
also answered by the embedded model (llamacpp, SmolLM2-135M) and by the `ollama` backend
talking to an Ollama-API endpoint served from the same GGUF (workbench serve-llm) — a
plumbing figure: a 135M model does not write usable legal answers. Citations are compared
with the gold at article level, as in `workbench eval`.
Results: benchmarks/results/answers_zh.json
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def mean(rows: list[dict]) -> dict:
    return {k: statistics.fmean(r[k] for r in rows) for k in ("citation_p", "citation_r", "citation_f1")}


def main() -> int:
    from workbench.evaluate.metrics import load_benchmark, score_question
    from workbench.dev.ollama_api import OllamaAPIServer
    from workbench.workbench import Workbench
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", default=str(ROOT / "benchmarks" / "questions" / "zh_versions.jsonl"))
    ap.add_argument("--workspace", default=str(ROOT / "benchmarks" / "workspace-retrieval" / "zh"))
    ap.add_argument("--models", type=int, default=12, help="questions also answered by the models")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "answers_zh.json"))
    args = ap.parse_args()
    wb = Workbench.open(args.workspace)
    questions = load_benchmark(args.bench)
    wb.ask(questions[0].question, backend="extractive")          # warm-up: model load, caches

    def run(backend: str, qs, llm=None) -> dict:
        rows, ms, per_cat = [], [], {}
        for q in qs:
            a = wb.ask(q.question, backend=backend, llm=llm)
            s = score_question([], a.citations, q.gold)
            s = {k: v for k, v in s.items() if k.startswith("citation")}
            rows.append(s)
            per_cat.setdefault(q.category, []).append(s)
            ms.append(a.latency_ms)
            print(f"  {backend:<10} {q.id:<10} F1 {s['citation_f1']:.2f}  {a.latency_ms:7.0f} ms  "
                  f"cited {','.join(c.split('@')[1] for c in a.citations)}", flush=True)
        return {"n": len(qs), "overall": mean(rows),
                "by_category": {c: mean(r) for c, r in per_cat.items()},
                "latency_ms": {"p50": statistics.median(ms), "mean": statistics.fmean(ms), "max": max(ms)}}

    out = {"benchmark": Path(args.bench).name, "workspace": args.workspace, "backends": {}}
    out["backends"]["extractive"] = run("extractive", questions)
    subset = questions[: args.models]
    if subset:
        out["backends"]["extractive@subset"] = run("extractive", subset)
        out["backends"]["llamacpp"] = run("llamacpp", subset)
        with OllamaAPIServer() as srv:
            cfg = replace(wb.config.llm, ollama_host=srv.url, ollama_model=srv.name)
            out["backends"]["ollama(llama.cpp endpoint)"] = run("ollama", subset, cfg)
    Path(args.out).write_text(json.dumps(out, indent=1, ensure_ascii=False), encoding="utf-8")
    print(f"\n{'backend':<28} {'n':>3} {'cit P':>6} {'cit R':>6} {'cit F1':>6} {'p50 ms':>8}")
    for name, r in out["backends"].items():
        o = r["overall"]
        print(f"{name:<28} {r['n']:>3} {o['citation_p']:6.3f} {o['citation_r']:6.3f} {o['citation_f1']:6.3f} "
              f"{r['latency_ms']['p50']:8.0f}")
    for cat, m in out["backends"]["extractive"]["by_category"].items():
        print(f"  extractive {cat:<14} F1 {m['citation_f1']:.3f}")
    print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

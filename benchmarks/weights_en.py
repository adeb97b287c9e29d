"""The English re-rank weights ([language.en] in workbench/retrieve/policies.toml): a grid of the
semantic and lexical weights on every sixth question of the ObliQA tuning part, graph mode,
hybrid alongside; then the chosen pair and the shared weights once on the validation part.

    .venv/bin/python benchmarks/weights_en.py [--stride 6] [--validation]
Needs the ObliQA workspace of benchmarks/retrieval.py. Each point is run with a policies file
whose [language.en] table holds that point (the type's own weights still apply, as in use).
Result: benchmarks/results/weights_en.json.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
WS = ROOT / "benchmarks" / "workspace-retrieval" / "obliqa"
sys.path.insert(0, str(ROOT / "benchmarks"))
from tune import language_policies  # noqa: E402
SEMANTIC, LEXICAL = (0.5, 0.35, 0.2, 0.1, 0.0), (0.2, 0.3, 0.4)
KEYS = ("recall@5", "recall@10", "mrr", "citation_f1")


def main() -> int:
    from workbench.core.config import RetrievalConfig
    from workbench.evaluate.metrics import load_benchmark, score_question
    from workbench.workbench import Workbench
    ap = argparse.ArgumentParser()
    ap.add_argument("--stride", type=int, default=6)
    ap.add_argument("--validation", action="store_true", help="also run the chosen point on the validation part")
    args = ap.parse_args()
    wb = Workbench.open(WS, create=False)
    policies = language_policies(Path(tempfile.mkdtemp()), "en")

    def run(qs, cfg) -> dict:
        rows = []
        for q in qs:
            out = wb.retrieve(q.question, cfg)
            rows.append(score_question([h.unit_id for h in out.hits], out.cited, q.gold))
        return {k: round(sum(r[k] for r in rows) / len(rows), 4) for k in KEYS}

    tuning = sorted(load_benchmark(WS / "obliqa_questions.jsonl", split="tuning"), key=lambda q: q.id)[::args.stride]
    out = {"questions": len(tuning), "hybrid": run(tuning, RetrievalConfig(mode="hybrid")), "grid": []}
    for semantic in SEMANTIC:
        for lexical in (LEXICAL if semantic in (0.35, 0.2) else LEXICAL[:1]):
            got = run(tuning, RetrievalConfig(mode="graph", policies=policies(semantic, lexical)))
            out["grid"].append({"semantic": semantic, "lexical": lexical, **got})
            print(semantic, lexical, got, flush=True)
    best = max(out["grid"], key=lambda g: g["mrr"])
    out["chosen"] = {"semantic": best["semantic"], "lexical": best["lexical"]}
    if args.validation:
        val = load_benchmark(WS / "obliqa_questions.jsonl", split="validation")
        out["validation"] = {"questions": len(val), "hybrid": run(val, RetrievalConfig(mode="hybrid")),
                             "shared": run(val, RetrievalConfig(mode="graph", policies=policies(0.5, 0.2))),
                             "chosen": run(val, RetrievalConfig(mode="graph", policies=policies(best["semantic"], best["lexical"])))}
    print(json.dumps({k: v for k, v in out.items() if k != "grid"}, indent=1))
    (ROOT / "benchmarks" / "results" / "weights_en.json").write_text(json.dumps(out, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

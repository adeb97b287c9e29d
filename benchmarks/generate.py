"""Generated multi-hop benchmark over the zh retrieval workspace: regenerate the questions,
then evaluate every system on them.

The workspace (built by benchmarks/retrieval.py) is copied to a temporary folder first,
so it is only read. Results are what `workbench eval --json` writes, plus the metrics by
reasoning type and by hop count (`by_reasoning_type`, `by_hop_count`) and the counts.

    .venv/bin/python benchmarks/generate.py [--max 300] [--seed 0] [--limit N]
Questions: benchmarks/questions/generated_zh.jsonl
Results: benchmarks/results/generated_zh.json, figures/eval_generated_zh.png
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
WS = ROOT / "benchmarks" / "workspace-retrieval" / "zh"
QUESTIONS = ROOT / "benchmarks" / "questions" / "generated_zh.jsonl"
RESULTS = ROOT / "benchmarks" / "results" / "generated_zh.json"


def main() -> int:
    from workbench.cli import main as cli
    from workbench.core.config import Config
    from workbench.evaluate.metrics import category_table, dumps, load_benchmark, mean_metrics, run_eval, table
    from workbench.ui.views import metrics_figure, save
    from workbench.workbench import Workbench
    ap = argparse.ArgumentParser()
    ap.add_argument("--workspace", default=str(WS), help="zh workspace (only read: a copy is used)")
    ap.add_argument("--max", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--systems", default="bm25,dense,hybrid,graph")
    ap.add_argument("--limit", type=int)
    args = ap.parse_args()
    if not (Path(args.workspace) / "workspace.json").exists():
        print(f"no workspace at {args.workspace}: run benchmarks/retrieval.py --only zh first", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        ws = shutil.copytree(args.workspace, Path(tmp) / "zh")
        if cli(["generate-benchmark", "--workspace", str(ws), "--max", str(args.max), "--seed", str(args.seed),
                "--out", str(QUESTIONS)]):
            return 1
        rows = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines()][:args.limit]
        questions = load_benchmark(QUESTIONS)[:args.limit]
        systems = [s.strip() for s in args.systems.split(",") if s.strip()]
        ev = run_eval(Workbench.open(ws, Config()), questions, systems, QUESTIONS.stem)
    summary = ev.summary()
    for field, name in (("reasoning_type", "by_reasoning_type"), ("hop_count", "by_hop_count")):
        groups = sorted({str(r[field]) for r in rows})
        summary[name] = {s: {g: mean_metrics([m for m, r in zip(per_q, rows) if str(r[field]) == g])
                             for g in groups} for s, per_q in ev.per_question.items()}
        summary[name + "_counts"] = {g: sum(str(r[field]) == g for r in rows) for g in groups}
    print(table(summary))
    print()
    print(category_table(summary, "recall@5"))
    for name in ("by_reasoning_type", "by_hop_count"):
        groups = list(summary[name + "_counts"])
        print("\n| recall@5 | " + " | ".join(f"{g} ({summary[name + '_counts'][g]})" for g in groups) + " |")
        print("|" + "---|" * (len(groups) + 1))
        for s in systems:
            print(f"| {s} | " + " | ".join(f"{summary[name][s][g]['recall@5']:.3f}" for g in groups) + " |")
    RESULTS.write_text(dumps(summary), encoding="utf-8")
    figure = save(metrics_figure(summary), ROOT / "figures" / "eval_generated_zh.png")
    print(f"\nfigure: {figure}\nresults: {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

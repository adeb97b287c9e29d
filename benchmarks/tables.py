"""Markdown tables from committed retrieval results (what README and docs/benchmarks.md show).

    .venv/bin/python benchmarks/tables.py benchmarks/results/retrieval_alqac.json [--full] [--splits]
"""
from __future__ import annotations

import argparse
import json
import sys

SHORT = ("recall@5", "recall@10", "mrr", "map@10", "hit@1", "ndcg@10", "citation_f1", "macro_f2")
FULL = ("recall@1",) + SHORT[:6] + ("citation_p", "citation_r", "citation_f1", "macro_f2")
NAMES = {"recall@1": "R@1", "recall@5": "R@5", "recall@10": "R@10", "mrr": "MRR", "map@10": "MAP@10",
         "hit@1": "Hit@1", "ndcg@10": "nDCG@10", "citation_p": "cit. P", "citation_r": "cit. R",
         "citation_f1": "cit. F1", "macro_f2": "macro-F2"}


def table(summary: dict, metrics, latency: bool = False) -> str:
    head = ["system"] + [NAMES[m] for m in metrics] + (["p50 ms"] if latency else [])
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, s in summary["systems"].items():
        cells = [f"{s['overall'].get(m, float('nan')):.3f}" for m in metrics]
        if latency:
            cells.append(f"{s['latency_ms_p50']:.0f}")
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def splits(summary: dict, metrics=("recall@5", "mrr", "map@10", "hit@1", "citation_f1", "macro_f2")) -> str:
    rows = ["| part | system | " + " | ".join(NAMES[m] for m in metrics) + " |", "|" + "---|" * (len(metrics) + 2)]
    for part, n in summary.get("splits", {}).items():
        for name, s in summary["systems"].items():
            got = s["by_split"][part]
            rows.append(f"| {part} ({n}) | {name} | " + " | ".join(f"{got[m]:.3f}" for m in metrics) + " |")
    return "\n".join(rows)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--full", action="store_true", help="every metric and the latency (docs/benchmarks.md)")
    ap.add_argument("--splits", action="store_true", help="the tuning / validation parts")
    args = ap.parse_args()
    summary = json.loads(open(args.results, encoding="utf-8").read())
    print(table(summary, FULL if args.full else SHORT, args.full))
    if args.splits:
        print()
        print(splits(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())

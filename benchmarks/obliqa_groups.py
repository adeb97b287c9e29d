"""Where graph mode gains or loses against hybrid, by what each question names (its plan:
nothing structural, a rule, a rulebook, a defined term, a penalty asked, the question type).
Reads the per-question results of one `workbench eval` run that holds graph and hybrid.

    .venv/bin/workbench eval WS/obliqa_questions.jsonl --workspace WS --systems hybrid,graph \\
        --split tuning --json /tmp/obliqa_tuning.json
    .venv/bin/python benchmarks/obliqa_groups.py WS WS/obliqa_questions.jsonl /tmp/obliqa_tuning.json [--split tuning]
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    from workbench.evaluate.metrics import load_benchmark
    from workbench.retrieve.plan import make_plan, structural
    from workbench.workbench import Workbench
    ap = argparse.ArgumentParser()
    ap.add_argument("workspace")
    ap.add_argument("questions")
    ap.add_argument("results")
    ap.add_argument("--split", default="tuning")
    args = ap.parse_args()
    r = Workbench.open(args.workspace, create=False).retriever
    qs = {q.id: q for q in load_benchmark(args.questions, args.split)}
    rows = json.loads(Path(args.results).read_text(encoding="utf-8"))["per_question"]
    per = {name: {x["id"]: x for x in rows[name] if x["id"] in qs} for name in ("graph", "hybrid")}
    groups: dict[tuple, list] = collections.defaultdict(list)
    for i, q in qs.items():
        p = make_plan(q.question, "en", r.catalog, r.terms)
        key = ("structural" if structural(p) else "nothing structural", "rulebook" if p.keys else "-",
               "rule" if p.route.articles else "-", "term" if p.terms else "-",
               "penalty" if p.route.sanction else "-", p.type)
        groups[key].append(i)
    print("| questions | group | MRR graph | MRR hybrid | R@10 graph | R@10 hybrid |")
    print("|---|---|---|---|---|---|")
    for key, ids in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        mean = lambda name, m: sum(per[name][i][m] for i in ids) / len(ids)  # noqa: E731
        print(f"| {len(ids)} | {' / '.join(key)} | {mean('graph', 'mrr'):.3f} | {mean('hybrid', 'mrr'):.3f} | "
              f"{mean('graph', 'recall@10'):.3f} | {mean('hybrid', 'recall@10'):.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

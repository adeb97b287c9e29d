"""The English re-rank weights ([language.en] in workbench/retrieve/policies.toml): a grid of the
semantic and lexical weights on every sixth question of the ObliQA tuning part, graph mode,
hybrid alongside; then, at the chosen pair, the `direct` bonus (1.0 shared, 0.5, 0.25, 0, in that
order: a step is taken only when MRR gains more than tune.MIN_GAIN over the value kept, and not
below DIRECT_FLOOR); then the chosen point and the shared weights once
on the validation part.

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
DIRECT = (1.0, 0.5, 0.25, 0.0)      # the shared value first
# below this, a question naming an article and asking about it ("What did Article 16 … say on …?",
# "Trace the history of Article 16 …") no longer gets that article first (tests/test_retrieval_versions.py)
DIRECT_FLOOR = 0.5
from tune import MIN_GAIN  # noqa: E402
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
    chosen = {"semantic": best["semantic"], "lexical": best["lexical"]}
    # then the bonus for a provision the question names (article number, defined term) at the chosen pair:
    # English rulebook questions name a rule as context ("For the purpose of Rule 3.8.18(b), …") more often
    # than as the answer
    out["direct_grid"] = []
    for direct in DIRECT:
        got = run(tuning, RetrievalConfig(mode="graph", policies=policies(**chosen, direct=direct)))
        out["direct_grid"].append({"direct": direct, **got})
        print("direct", direct, got, flush=True)
    top = out["direct_grid"][0]
    for g in out["direct_grid"][1:]:         # in order from the shared value: a step must gain more than MIN_GAIN
        if g["mrr"] > top["mrr"] + MIN_GAIN and g["direct"] >= DIRECT_FLOOR:
            top = g
    if top["direct"] != DIRECT[0]:
        chosen["direct"] = top["direct"]
    out["chosen"] = chosen
    if args.validation:
        val = load_benchmark(WS / "obliqa_questions.jsonl", split="validation")
        out["validation"] = {"questions": len(val), "hybrid": run(val, RetrievalConfig(mode="hybrid")),
                             "shared": run(val, RetrievalConfig(mode="graph", policies=policies(0.5, 0.2))),
                             "chosen": run(val, RetrievalConfig(mode="graph", policies=policies(**chosen)))}
    print(json.dumps({k: v for k, v in out.items() if k != "grid"}, indent=1))
    (ROOT / "benchmarks" / "results" / "weights_en.json").write_text(json.dumps(out, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

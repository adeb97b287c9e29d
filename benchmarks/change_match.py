"""The version-comparison change match (`change_match` in [version_diff] of
workbench/retrieve/policies.toml, retrieve/pairing.by_change): graph mode on the version_diff
questions of the four zh version-aware sets, tuning parts, for each value; then the chosen
value and 0 (off) once on the validation parts.

    .venv/bin/python benchmarks/change_match.py [--values 0,0.1,0.2,0.3,0.5]
Needs the zh workspaces of benchmarks/retrieval.py. The chosen value is the one with the best
mean of MRR and citation F1 over the tuning parts (tune.objective), the smallest on a tie.
Result: benchmarks/results/change_match.json.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
WS = ROOT / "benchmarks" / "workspace-retrieval"
SETS = {"zh": "zh_versions.jsonl", "zh2": "zh_versions_2.jsonl", "zh3": "zh_versions_3.jsonl",
        "zh4": "zh_versions_4.jsonl"}
KEYS = ("recall@5", "mrr", "hit@1", "citation_f1")


def policies_with(folder: Path, value: float) -> str:
    """The bundled policies file with [version_diff] change_match set to `value`."""
    from workbench.retrieve.route import POLICIES
    text = Path(POLICIES).read_text(encoding="utf-8")
    text, n = re.subn(r"(?m)^change_match = .*$", f"change_match = {value}", text)
    assert n == 1, "policies.toml: one change_match line expected"
    out = folder / f"p-{value}.toml"
    out.write_text(text, encoding="utf-8")
    return str(out)


def main() -> int:
    from workbench.core.config import RetrievalConfig
    from workbench.evaluate.metrics import load_benchmark, score_question
    from workbench.workbench import Workbench
    ap = argparse.ArgumentParser()
    ap.add_argument("--values", default="0,0.1,0.2,0.3,0.5")
    args = ap.parse_args()
    values = [float(v) for v in args.values.split(",")]
    folder = Path(tempfile.mkdtemp())
    wbs = {name: Workbench.open(WS / name, create=False) for name in SETS}

    def run(split: str, value: float) -> dict:
        out, every = {}, []
        for name, f in SETS.items():
            qs = [q for q in load_benchmark(ROOT / "benchmarks" / "questions" / f, split) if q.category == "version_diff"]
            cfg = RetrievalConfig(mode="graph", policies=policies_with(folder, value))
            rows = []
            for q in qs:
                r = wbs[name].retrieve(q.question, cfg)
                rows.append(score_question([h.unit_id for h in r.hits], r.cited, list(q.gold)))
            out[name] = {"questions": len(rows), **{k: round(sum(x[k] for x in rows) / len(rows), 4) for k in KEYS}}
            every += rows
        out["all"] = {"questions": len(every), **{k: round(sum(x[k] for x in every) / len(every), 4) for k in KEYS}}
        return out

    result = {"tuning": {}, "validation": {}}
    for v in values:
        result["tuning"][str(v)] = run("tuning", v)
        print("tuning", v, result["tuning"][str(v)]["all"], flush=True)
    objective = {v: (result["tuning"][str(v)]["all"]["mrr"] + result["tuning"][str(v)]["all"]["citation_f1"]) / 2
                 for v in values}
    chosen = min(values, key=lambda v: (-round(objective[v], 4), v))
    result["chosen"] = chosen
    for v in sorted({0.0, chosen}):
        result["validation"][str(v)] = run("validation", v)
        print("validation", v, result["validation"][str(v)]["all"], flush=True)
    (ROOT / "benchmarks" / "results" / "change_match.json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    print("chosen", chosen)
    return 0


if __name__ == "__main__":
    sys.exit(main())

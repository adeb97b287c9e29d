"""Leave one set of laws out: is the `support` weight tune.py stage 5 chose (0.2) what the other
laws would have chosen for a law held out? Each of the six zh version-aware sets covers its own
laws (zh3 … zh6 share none with the others; zh2 shares two regulations with zh). For each value of
the stage-5 grid, graph mode answers every question of every set (tuning and validation parts);
then, holding each set out in turn, the value with the best mean objective (tune.py's: (MRR +
citation F1) / 2) over the other five sets is scored on the held-out set, beside the value stage 5
chose and the one it replaced.

    .venv/bin/python benchmarks/kfold_laws.py [--values 0.2,0.35,0.5]
Needs the zh … zh6 workspaces of benchmarks/retrieval.py. Result: benchmarks/results/kfold_laws.json.
"""
from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from retrieval import QUESTIONS  # noqa: E402
from tune import WS, config_for, objective, score_questions  # noqa: E402

SETS = ("zh", "zh2", "zh3", "zh4", "zh5", "zh6")


def main() -> int:
    from workbench.evaluate.metrics import load_benchmark
    from workbench.retrieve.route import POLICIES
    from workbench.workbench import Workbench
    ap = argparse.ArgumentParser()
    ap.add_argument("--values", default="0.2,0.35,0.5")
    args = ap.parse_args()
    values = [float(v) for v in args.values.split(",")]
    folder = WS / "tune"
    folder.mkdir(parents=True, exist_ok=True)
    base_policies = tomllib.loads(POLICIES.read_text(encoding="utf-8"))
    score: dict[str, dict[float, float]] = {}
    for name in SETS:
        wb = Workbench.open(WS / name, create=False)
        questions = load_benchmark(ROOT / "benchmarks/questions" / QUESTIONS[name])
        score[name] = {}
        for v in values:
            cfg = config_for(wb.config.retrieval, {"weights.support": v}, base_policies, folder)
            rows = score_questions(wb, questions, cfg)
            score[name][v] = round(sum(objective(r) for r in rows) / len(rows), 4)
        print(name, len(questions), score[name], flush=True)
    folds = []
    for out in SETS:
        rest = [s for s in SETS if s != out]
        chosen = max(values, key=lambda v: (sum(score[s][v] for s in rest) / len(rest), -abs(v - 0.35)))
        folds.append({"held_out": out, "chosen_on_others": chosen, "held_out_score": score[out][chosen],
                      "at_0.2": score[out].get(0.2), "at_0.35": score[out].get(0.35)})
        print(folds[-1], flush=True)
    mean = lambda key: round(sum(f[key] for f in folds) / len(folds), 4)  # noqa: E731
    result = {"objective": "(MRR + citation F1) / 2 over every question of the set", "values": values,
              "per_set": {n: {str(v): s for v, s in d.items()} for n, d in score.items()}, "folds": folds,
              "mean_held_out": mean("held_out_score"), "mean_at_0.2": mean("at_0.2"), "mean_at_0.35": mean("at_0.35")}
    (ROOT / "benchmarks/results/kfold_laws.json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    print(json.dumps({k: result[k] for k in ("mean_held_out", "mean_at_0.2", "mean_at_0.35")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

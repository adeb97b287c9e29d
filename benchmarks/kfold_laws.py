"""Leave one set of laws out: is the value tune.py chose for a parameter what the other laws would
have chosen for a law held out? Each zh version-aware set covers its own laws (zh3 … zh8 share none
with the others; zh2 shares two regulations with zh, zh9 asks anew about two of zh's). For each
value, graph mode answers every question of every set (tuning and validation parts); then, holding
each set out in turn, the value with the best mean objective (tune.py's: (MRR + citation F1) / 2)
over the other sets (ties: `--baseline`, if among them) is scored on the held-out set, beside the
`--chosen` value and the `--baseline` one it replaced.

    .venv/bin/python benchmarks/kfold_laws.py [--param weights.support] [--values 0.2,0.35,0.5]
        [--chosen 0.2] [--baseline 0.35] [--sets zh,zh2,zh3,zh4,zh5,zh6] [--out kfold_laws.json]
Values take the type of the parameter's grid in tune.py (`--values off,fuse` for `unstructured`).
Needs the workspaces of benchmarks/retrieval.py. Result: benchmarks/results/<--out> (default
kfold_laws.json for `weights.support` -- stage 5's, six sets -- else kfold_laws_<name>.json).
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
from tune import GRID, WS, config_for, objective, score_questions  # noqa: E402


def main() -> int:
    from workbench.evaluate.metrics import load_benchmark
    from workbench.retrieve.route import POLICIES
    from workbench.workbench import Workbench
    ap = argparse.ArgumentParser()
    ap.add_argument("--param", default="weights.support", help="a tune.py GRID parameter")
    ap.add_argument("--values", default="0.2,0.35,0.5")
    ap.add_argument("--chosen", default="0.2", help="the value tune.py chose")
    ap.add_argument("--baseline", default="0.35", help="the value it replaced")
    ap.add_argument("--sets", default="zh,zh2,zh3,zh4,zh5,zh6")
    ap.add_argument("--out", help="file name under benchmarks/results")
    args = ap.parse_args()
    if args.param not in GRID:
        ap.error(f"--param {args.param}: not a parameter of tune.py's GRID ({', '.join(GRID)})")
    kind = type(GRID[args.param][0])
    values = [kind(v) for v in args.values.split(",")]
    args.chosen, args.baseline = kind(args.chosen), kind(args.baseline)
    if args.chosen not in values or args.baseline not in values:
        ap.error(f"--chosen {args.chosen} and --baseline {args.baseline} must be among --values {args.values}")
    args.out = args.out or ("kfold_laws.json" if args.param == "weights.support"
                            else f"kfold_laws_{args.param.rsplit('.', 1)[-1]}.json")
    sets = args.sets.split(",")
    folder = WS / "tune"
    folder.mkdir(parents=True, exist_ok=True)
    base_policies = tomllib.loads(POLICIES.read_text(encoding="utf-8"))
    score: dict[str, dict[float, float]] = {}
    for name in sets:
        wb = Workbench.open(WS / name, create=False)
        questions = load_benchmark(ROOT / "benchmarks/questions" / QUESTIONS[name])
        score[name] = {}
        for v in values:
            cfg = config_for(wb.config.retrieval, {args.param: v}, base_policies, folder)
            rows = score_questions(wb, questions, cfg)
            score[name][v] = round(sum(objective(r) for r in rows) / len(rows), 4)
        print(name, len(questions), score[name], flush=True)
    folds = []
    at_chosen, at_base = f"at_{args.chosen}", f"at_{args.baseline}"
    for out in sets:
        rest = [s for s in sets if s != out]
        chosen = max(values, key=lambda v: (sum(score[s][v] for s in rest) / len(rest), v == args.baseline))
        folds.append({"held_out": out, "chosen_on_others": chosen, "held_out_score": score[out][chosen],
                      at_chosen: score[out].get(args.chosen), at_base: score[out].get(args.baseline)})
        print(folds[-1], flush=True)
    mean = lambda key: round(sum(f[key] for f in folds) / len(folds), 4)  # noqa: E731
    result = {"objective": "(MRR + citation F1) / 2 over every question of the set", "param": args.param,
              "values": values, "per_set": {n: {str(v): s for v, s in d.items()} for n, d in score.items()},
              "folds": folds, "mean_held_out": mean("held_out_score"), f"mean_{at_chosen}": mean(at_chosen),
              f"mean_{at_base}": mean(at_base)}
    (ROOT / "benchmarks/results" / args.out).write_text(json.dumps(result, indent=1), encoding="utf-8")
    print(json.dumps({k: v for k, v in result.items() if k.startswith("mean")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

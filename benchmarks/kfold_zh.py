"""k-fold figures for the Chinese re-rank weights: the grid of benchmarks/weights_zh.py run on
every question of the three zh version-aware sets (tuning and validation parts), then 5-fold
cross-validation -- each fold's point is chosen on the other four folds (the objective of
tune.py: mean over sets of (MRR + citation F1) / 2) and scored on the fold -- beside the
shared weights on the same folds. Folds: SHA-1 of the question id, modulo 5.

    .venv/bin/python benchmarks/kfold_zh.py
Needs the zh, zh2 and zh3 workspaces of benchmarks/retrieval.py.
Result: benchmarks/results/kfold_zh.json.
"""
from __future__ import annotations

import hashlib
import json
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from tune import language_policies, objective as score_of, score_questions  # noqa: E402
from weights_zh import LEXICAL, SEMANTIC, SETS, WS, shared  # noqa: E402

FOLDS = 5


def fold(qid: str) -> int:
    return int(hashlib.sha1(qid.encode("utf-8")).hexdigest(), 16) % FOLDS


def objective(rows: list[dict], points: tuple) -> float:
    """tune.py's objective of one grid point over `rows` (each: set, per-point score)."""
    by_set: dict[str, list[float]] = {}
    for r in rows:
        by_set.setdefault(r["set"], []).append(r["score"][points])
    return statistics.fmean(statistics.fmean(v) for v in by_set.values())


def main() -> int:
    from workbench.core.config import RetrievalConfig
    from workbench.evaluate.metrics import load_benchmark
    from workbench.workbench import Workbench
    policies = language_policies(Path(tempfile.mkdtemp()), "zh")
    base = shared()
    grid = [(s, x) for s in SEMANTIC for x in LEXICAL]
    rows = []
    for name, file in SETS.items():
        wb = Workbench.open(WS / name, create=False)
        qs = load_benchmark(ROOT / "benchmarks" / "questions" / file)
        these = [{"set": name, "id": q.id, "fold": fold(q.id), "score": {}} for q in qs]
        for point in grid:
            for row, s in zip(these, score_questions(wb, qs, RetrievalConfig(mode="graph", policies=policies(*point)))):
                row["score"][point] = score_of(s)
        rows += these
        print(name, len(rows), flush=True)
    folds = []
    for k in range(FOLDS):
        train = [r for r in rows if r["fold"] != k]
        test = [r for r in rows if r["fold"] == k]
        best = max(grid, key=lambda p: (objective(train, p), p == base))
        folds.append({"fold": k, "questions": len(test), "chosen": list(best),
                      "held_out": round(objective(test, best), 4), "shared": round(objective(test, base), 4)})
        print(folds[-1], flush=True)
    out = {"folds": folds, "grid": [list(p) for p in grid],
           "mean_held_out": round(statistics.fmean(f["held_out"] for f in folds), 4),
           "mean_shared": round(statistics.fmean(f["shared"] for f in folds), 4),
           "all_questions": {f"{p[0]}/{p[1]}": round(objective(rows, p), 4) for p in grid}}
    print(json.dumps({k: v for k, v in out.items() if k != "grid"}, indent=1))
    (ROOT / "benchmarks" / "results" / "kfold_zh.json").write_text(json.dumps(out, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Statistics over evaluations: bootstrap confidence intervals per category, and the
re-rank / hop sweep."""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Sequence

import numpy as np


def format_p(p: float) -> str:
    """A p-value as reported: "p < 0.001" below 0.001, else to three decimals without trailing
    zeros ("p = 0.034", "p = 0.05", "p = 1")."""
    p = float(p)
    if math.isnan(p):
        return "p = n/a"
    if p < 0.001:
        return "p < 0.001"
    return "p = " + f"{min(p, 1.0):.3f}".rstrip("0").rstrip(".")


def bootstrap_ci(values: Sequence[float], n: int = 2000, alpha: float = 0.05, seed: int = 0) -> tuple[float, float, float]:
    """(mean, lower, upper): percentile bootstrap confidence interval of the mean."""
    x = np.asarray(list(values), dtype=float)
    if x.size == 0:
        return (0.0, 0.0, 0.0)
    rng = np.random.default_rng(seed)
    means = x[rng.integers(0, x.size, size=(n, x.size))].mean(axis=1)
    return float(x.mean()), float(np.quantile(means, alpha / 2)), float(np.quantile(means, 1 - alpha / 2))


def category_cis(evaluation, metric: str = "recall@5", n: int = 2000, seed: int = 0) -> dict[str, dict]:
    """{system: {category: (mean, lo, hi)}} from an `evaluate.Evaluation`, with 'all' for every question."""
    cats = ["all"] + sorted({q.category for q in evaluation.questions})
    out = {}
    for system, rows in evaluation.per_question.items():
        out[system] = {}
        for c in cats:
            vals = [r[metric] for r, q in zip(rows, evaluation.questions) if c == "all" or q.category == c]
            out[system][c] = bootstrap_ci(vals, n, seed=seed)
    return out


def sweep(wb, questions, hops: Sequence[int] = (0, 1, 2, 3), weight: str = "support",
          values: Sequence[float] = (0.0, 0.2, 0.35, 0.5, 0.8), metric: str = "recall@5",
          base=None, match: str = "article") -> dict:
    """Graph retrieval over a grid: every edge type may be followed `h` steps (rows) and the
    re-rank weight `weight` takes each of `values` (columns). Returns {"grid": [[mean metric]],
    "hops": [...], "values": [...], "weight", "metric", "best": (h, v, score)}. Each question
    is embedded once for the whole grid."""
    from ..core.config import Weights
    from ..core.records import EXPANDABLE
    from .metrics import score_question, twin_names
    base = replace(base or wb.config.retrieval, mode="graph")
    if weight not in Weights.__dataclass_fields__:
        raise ValueError(f"unknown weight {weight!r}: one of {', '.join(Weights.__dataclass_fields__)}")
    qvecs = wb.embedder.embed_queries([q.question for q in questions])
    names = twin_names(wb)
    from tqdm.auto import tqdm
    grid = np.zeros((len(hops), len(values)))
    bar = tqdm(total=len(hops) * len(values) * len(questions), desc="sweep", unit="retrieval")
    for i, h in enumerate(hops):
        for j, v in enumerate(values):
            cfg = replace(base, hops=tuple((t, int(h)) for t in EXPANDABLE),
                          weights=replace(base.weights, **{weight: float(v)}),
                          weights_set=base.weights_set + (weight,))    # as set, also at its default value
            scores = []
            for q, qv in zip(questions, qvecs):
                c = replace(cfg, as_of=q.as_of) if q.as_of else cfg
                r = wb.retrieve(q.question, c, qv)
                scores.append(score_question([x.unit_id for x in r.hits], r.cited, list(q.gold), match, names)[metric])
                bar.update(1)
            grid[i, j] = float(np.mean(scores)) if scores else 0.0
    bar.close()
    i, j = np.unravel_index(int(np.argmax(grid)), grid.shape)
    return {"grid": grid.tolist(), "hops": list(hops), "values": list(values), "weight": weight, "metric": metric,
            "best": (hops[i], values[j], float(grid[i, j]))}

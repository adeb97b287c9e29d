"""RELATED_TO: units whose embeddings are close, across instruments, capped per unit."""
from __future__ import annotations

import numpy as np

from ..core.records import Edge, EdgeType, Unit


def related_edges(units: list[Unit], vectors: np.ndarray, embedded: list[bool],
                  threshold: float = 0.92, cap: int = 3, min_chars: int = 40,
                  block: int = 1024) -> list[Edge]:
    """For each embedded unit, up to `cap` units of other instruments with cosine >= threshold.
    Vectors are unit-normalised, so cosine is a dot product; the edge is stored once per pair."""
    idx = [i for i, u in enumerate(units) if embedded[i] and u.kind in ("article", "passage")
           and len(u.text) >= min_chars]
    if len(idx) < 2:
        return []
    m = vectors[idx]
    keys = np.array([units[i].key for i in idx])
    pairs: dict[tuple[int, int], float] = {}
    for start in range(0, len(idx), block):
        sims = m[start:start + block] @ m.T
        rows = np.arange(start, min(start + block, len(idx)))
        sims[rows - start, rows] = -1.0                          # no self-pairs
        sims[keys[start:start + block, None] == keys[None, :]] = -1.0   # other instruments only
        top = np.argpartition(-sims, min(cap, sims.shape[1] - 1), axis=1)[:, :cap]
        for r, cols in zip(rows, top):
            for c in cols:
                s = float(sims[r - start, c])
                if s >= threshold:
                    pairs[(min(r, c), max(r, c))] = s
    return [Edge(units[idx[a]].id, units[idx[b]].id, EdgeType.RELATED_TO, evidence=f"cosine {s:.3f}",
                 confidence=round(s, 3), extractor="embedding-similarity")
            for (a, b), s in sorted(pairs.items())]

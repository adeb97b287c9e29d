"""The flat modes: BM25, dense, and hybrid (reciprocal rank fusion or a weighted sum), with
the cited set cut at the largest score gap."""
from __future__ import annotations

import datetime as dt
import zlib

import numpy as np

from ..core.config import RetrievalConfig
from ..core.records import Filter, Hit, Result, Unit
from .together import together

CUT_GAP = 0.5       # the largest gap cuts the cited set if it is at least this share of the score range
CUT_MIN = 0.05      # ... and at least this share of the best score


def flat(store, q: str, qvec: np.ndarray | None, language: str, cfg: RetrievalConfig) -> Result:
    """bm25 | dense | hybrid under `cfg` (kinds, as-of date, top_k)."""
    on = dt.date.fromisoformat(cfg.as_of) if cfg.as_of else None
    where = Filter(kinds=tuple(cfg.kinds), in_force=on)
    if cfg.mode == "bm25":
        hits = store.search_text(q, language, cfg.top_k, where)
    elif cfg.mode == "dense":
        hits = store.search_vector(qvec, cfg.top_k, where)
    else:
        lex, sem = together(lambda: store.search_text(q, language, cfg.candidates, where),   # side by side
                            lambda: store.search_vector(qvec, cfg.candidates, where))
        hits = fuse(lex, sem, cfg)[:cfg.top_k]
    return Result(hits, cited_set(hits, cfg.cut_ratio, cfg.max_cited))


def fuse(lex: list[Hit], sem: list[Hit], cfg: RetrievalConfig) -> list[Hit]:
    """Reciprocal rank fusion, or a weighted sum of max-normalised scores."""
    scores: dict[str, float] = {}
    units: dict[str, Unit] = {}
    via: dict[str, set] = {}
    for name, hits, weight in (("bm25", lex, cfg.weights.lexical or 0.5), ("dense", sem, cfg.weights.semantic or 0.5)):
        top = max((h.score for h in hits), default=1.0) or 1.0
        for rank, h in enumerate(hits):
            s = 1.0 / (cfg.rrf_k + rank + 1) if cfg.fusion == "rrf" else weight * h.score / top
            scores[h.unit_id] = scores.get(h.unit_id, 0.0) + s
            units[h.unit_id] = h.unit
            via.setdefault(h.unit_id, set()).add(name)
    ranked = sorted(scores, key=lambda u: (-scores[u], zlib.crc32(u.encode("utf-8")), u))   # ties: as in the store
    return [Hit(u, scores[u], "+".join(sorted(via[u])), units[u]) for u in ranked]


def cited_set(hits: list[Hit], ratio: float, most: int) -> list[str]:
    """Units the system would cite: within `ratio` of the best score, at most `most`,
    cut at the largest drop between consecutive scores."""
    if not hits:
        return []
    best = hits[0].score
    keep = [h for h in hits[:most] if h.score >= best * ratio] if best > 0 else hits[:1]
    if len(keep) > 2:
        gaps = [keep[i].score - keep[i + 1].score for i in range(len(keep) - 1)]
        cut = int(np.argmax(gaps))
        if gaps[cut] > CUT_GAP * (best - keep[-1].score) and gaps[cut] > CUT_MIN * best:
            keep = keep[:cut + 1]
    return [h.unit_id for h in keep]

"""Re-ranking graph candidates: a weighted sum of score parts, each kept for the evidence table.

    score = semantic·cos' + lexical·bm25' + proximity/(1+d) + edge·prior(last edge type)
          + direct + current + role + named + support·(strongest linked evidence)
          + phrase·(share of the question's topic the provision holds word for word, phrases.py)

role: a bonus for a provision whose role (parse/roles.py) is one the question asks for
(route.asked_roles: a penalty asks for a sanction, a duty for an obligation or prohibition).
named: a bonus for a unit of an instrument the question names (seeds also come from the
instruments read with it, seeds.py), times the named share (seeds.named_share: how many of the
best hits for the whole question lie in a named instrument).
citing: a share of the direct (named) bonus for a provision of another instrument citing a
named article (instrument): what is said of a rule elsewhere -- guidance on applying it, a
penalty for breaking it -- may be what a question naming the rule asks about. Citing a named
instrument is worth the named bonus, so it scales with the named share too. A provision of the
named article's own instrument citing it ("within") gets the `within` share of the direct bonus
(0 but in English, and only for a rule named without its instrument: seeds.frames).

cos' is the cosine min-max normalised over the candidates, bm25' the BM25 score over the best;
d the distance from a seed; support the best base score among the units an allowed edge links
a candidate to, over the best base score, times that edge type's prior.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..core.config import Weights
from ..core.records import Hit, Unit, Via
from ..parse.roles import role_of
from .expand import Step

# what citing a named article / instrument is worth: a share (w.citing) of naming it itself
CITING = {"article": lambda w, share: w.direct, "instrument": lambda w, share: w.named * share,
          "within": lambda w, share: w.direct * w.within}

# the provision roles that answer each asked role
ANSWERS = {"obligation": ("obligation", "prohibition")}


@dataclass(frozen=True)
class Signals:
    """What re-ranking reads, per candidate."""
    units: dict[str, Unit]
    steps: dict[str, Step]           # how expansion reached it (absent: a fused candidate only)
    lexical: dict[str, float]        # BM25 score of each lexical hit
    vectors: dict[str, np.ndarray]
    direct: frozenset[str]           # named articles and defining articles
    as_then: dict[str, str]          # direct stand-ins: id -> the named article it stands for
    asked: frozenset[str] = frozenset()   # provision roles the question asks for
    keys: frozenset[str] = frozenset()    # instruments the question names
    found: dict[str, str] = field(default_factory=dict)   # seed / candidate -> "BM25 #2, dense #5"
    citing: dict[str, str] = field(default_factory=dict)  # unit -> "article" / "instrument" / "within": it cites a named one
    named_share: float = 1.0         # seeds.named_share: how much the named bonus counts
    phrase: dict[str, float] = field(default_factory=dict)   # phrases.cover of the topic in each candidate


def answering(asks) -> frozenset[str]:
    """The provision roles that answer the roles a question asks for."""
    return frozenset(r for a in asks for r in ANSWERS.get(a, (a,)))


def rerank(candidates: set[str], s: Signals, qvec: np.ndarray, w: Weights, prior: dict[str, float],
           prefer_now: bool, hops: dict[str, int],
           neighbours: Callable[[str], list[tuple[str, str, str]]]) -> tuple[list[Hit], dict[str, dict[str, float]]]:
    """Hits best first (ties by id) and the score parts of each."""
    lex_max = max(s.lexical.values(), default=0.0) or 1.0
    cos = {uid: float(v @ qvec) for uid, v in s.vectors.items()}
    lo, hi = (min(cos.values()), max(cos.values())) if cos else (0.0, 1.0)
    span = (hi - lo) or 1.0
    parts = {}
    for uid in candidates:
        step = s.steps.get(uid)
        d = step.distance if step else 1
        parts[uid] = {
            "semantic": w.semantic * ((cos[uid] - lo) / span if uid in cos else 0.0),
            "lexical": w.lexical * (s.lexical.get(uid, 0.0) / lex_max),
            "proximity": w.proximity / (1 + d),
            "edge": w.edge * (prior.get(step.edge_type, 0.0) if step and step.edge_type else 1.0 if step else 0.0),
            "direct": w.direct if uid in s.direct else 0.0,
            "current": w.current if prefer_now and s.units[uid].effective_to is None else 0.0,
            "role": w.role if w.role and s.asked and role_of(s.units[uid]) in s.asked else 0.0,
            "named": w.named * s.named_share if s.keys and s.units[uid].key in s.keys else 0.0,
            "citing": w.citing * CITING.get(s.citing.get(uid), lambda w, share: 0.0)(w, s.named_share),
            "phrase": w.phrase * s.phrase.get(uid, 0.0)}
    base = {uid: sum(p.values()) for uid, p in parts.items()}
    top = max(base.values(), default=1.0) or 1.0
    if w.support:
        for uid in candidates:
            best = 0.0
            for nxt, etype, _ in neighbours(uid):
                if nxt in base and hops.get(etype, 0) > 0:
                    best = max(best, base[nxt] / top * prior.get(etype, 0.5))
            parts[uid]["support"] = w.support * best
    scored = [Hit(uid, sum(parts[uid].values()), provenance(uid, s), s.units[uid]) for uid in candidates]
    scored.sort(key=lambda h: (-h.score, h.unit_id))
    return scored, parts


def provenance(uid: str, s: Signals) -> Via:
    """Why `uid` is a candidate: named (directly or as it stood then), reached by a path, a seed, or fused."""
    if uid in s.as_then:
        return Via("direct", detail=s.as_then[uid])
    if uid in s.direct:
        return Via("direct")
    step = s.steps.get(uid)
    if step and step.distance:
        return Via("path", step.links)
    return Via("seed" if step else "candidate", detail=s.found.get(uid, ""))

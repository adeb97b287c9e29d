"""Typed, time-aware breadth-first expansion over an article-level view of the graph.

Citations are extracted at the deepest unit (a clause or point); retrieval works on
articles and passages. `ArticleGraph` projects every non-CONTAINS edge onto the
articles that hold its ends, keeping its type, so expansion from an article follows
the citations of all its clauses. Expansion is cycle-safe (visited set), bounded per
edge type (hop limits) and in total (cap).
"""
from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass

from ..link.resolve import is_placeholder
from ..core.records import EdgeType

_ARTICLE_PART = re.compile(r"^[ar]")


def article_of(unit_id: str) -> str:
    """The article (or passage) holding a unit: 'k@v/a34/c1/p2' -> 'k@v/a34'; others unchanged."""
    doc, sep, rest = unit_id.partition("/")
    if not sep:
        return unit_id
    parts = rest.split("/")
    for i, part in enumerate(parts):
        if _ARTICLE_PART.match(part):
            return "/".join([doc, *parts[:i + 1]])
    return unit_id


@dataclass(frozen=True)
class Step:
    unit_id: str
    distance: int
    edge_type: str          # type of the last edge on the path ("" for a seed)
    path: str               # readable path from the seed


class ArticleGraph:
    def __init__(self, edges):
        self.adj: dict[str, list[tuple[str, str, str]]] = {}
        for e in edges:
            if e.type == EdgeType.CONTAINS or is_placeholder(e.target) or not e.resolved:
                continue
            s, t = article_of(e.source), article_of(e.target)
            if s == t:
                continue
            self.adj.setdefault(s, []).append((t, e.type.value, "->"))
            self.adj.setdefault(t, []).append((s, e.type.value, "<-"))

    def expand(self, seeds: list[str], hops: dict[str, int], cap: int, keep=lambda uid: True) -> dict[str, Step]:
        """Units reachable from `seeds`, with the shortest distance and the path that reached them.
        `hops[type]` bounds how many edges of that type one path may use; `keep(uid)` filters
        (e.g. by date) without stopping the walk through filtered units."""
        found: dict[str, Step] = {s: Step(s, 0, "", s) for s in seeds}
        queue = deque((s, 0, {}, s) for s in seeds)
        seen = {(s, ()) for s in seeds}
        reached, budget_left = 0, cap * 50      # bounds the walk itself, not just what it returns
        while queue and reached < cap and budget_left > 0:
            budget_left -= 1
            uid, dist, used, path = queue.popleft()
            for nxt, etype, arrow in self.adj.get(uid, ()):
                if used.get(etype, 0) >= hops.get(etype, 0):
                    continue
                budget = dict(used)
                budget[etype] = budget.get(etype, 0) + 1
                state = (nxt, tuple(sorted(budget.items())))
                if state in seen:
                    continue
                seen.add(state)
                step_path = f"{path} {'-' if arrow == '->' else '<-'}{etype}{'->' if arrow == '->' else '-'} {nxt}"
                if nxt not in found and keep(nxt):
                    found[nxt] = Step(nxt, dist + 1, etype, step_path)
                    reached += 1
                    if reached >= cap:
                        break
                queue.append((nxt, dist + 1, budget, step_path))
        return found

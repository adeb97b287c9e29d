"""Typed, capped, time-aware expansion over an article-level projection of the graph.

Citations are extracted at the deepest unit (a clause or point); retrieval works on
articles and passages. `ArticleGraph` projects every resolved non-CONTAINS edge onto the
articles that hold its ends, keeping its type, as an igraph graph built from the edge
store's columns (no record per edge). Expansion walks igraph's incidence lists with a hop
budget per edge type (a path may use at most `hops[type]` edges of that type), is
cycle-safe (a (unit, budget used) state is visited once) and bounded in total (`cap`).
"""
from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Iterable

import numpy as np

from ..link.duties import EXTRACTOR as DUTY_EXTRACTOR
from ..link.versions import PART_EXTRACTOR
from ..core.records import EdgeColumns, EdgeType, Link
from ..link.resolve import is_placeholder

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
    """A unit reached by expansion: its distance from a seed and the edges walked (`links`,
    made from the walk's (edge, forward, from) triples when first read)."""
    unit_id: str
    distance: int
    edge_type: str                  # type of the last edge on the path ("" for a seed)
    walk: tuple = ()
    graph: "ArticleGraph | None" = field(default=None, compare=False, repr=False)

    @cached_property
    def links(self) -> tuple[Link, ...]:
        return self.graph.links(self.walk) if self.graph is not None else ()

    @property
    def path(self) -> str:
        """Readable path: 'k@v/a10 <-REFERENCES- k@v/a15' (the seed alone for a seed)."""
        if not self.links:
            return self.unit_id
        return self.links[0].frm + "".join(f" {link.arrow} {link.to}" for link in self.links)


class ArticleGraph:
    """Articles as vertices, typed edges between them (igraph), with incidence lists in edge
    order so every walk is deterministic."""

    def __init__(self, names: list[str], source: np.ndarray, target: np.ndarray, types: list[str]):
        import igraph
        self.g = igraph.Graph(n=len(names), edges=np.stack([source, target], axis=1).tolist() if len(source) else [],
                              directed=True, vertex_attrs={"name": names})
        self.names = names
        self.index = {n: i for i, n in enumerate(names)}
        self.type_names = sorted(set(types))
        code = {t: i for i, t in enumerate(self.type_names)}
        self.types = np.asarray([code[t] for t in types], dtype=np.int64)
        self.g.es["type"] = list(types)
        self.source, self.target = np.asarray(source, dtype=np.int64), np.asarray(target, dtype=np.int64)
        src, dst, codes = self.source.tolist(), self.target.tolist(), self.types.tolist()
        # per article, its edges in edge order as (other end, type code, out of it?, edge id)
        self.incidence = [[(dst[e], codes[e], True, e) if src[e] == v else (src[e], codes[e], False, e)
                           for e in sorted(inc)] for v, inc in enumerate(self.g.get_inclist(mode="all"))]

    @classmethod
    def from_columns(cls, cols: EdgeColumns) -> "ArticleGraph":
        """The projection of an edge store's columns: resolved, non-CONTAINS edges whose target
        is a unit, moved to the articles holding their ends; edges inside one article dropped,
        and a penalty's inferred link to the duty it restates (link/duties.py: it pairs the two
        when citing, it is not walked as a citation) and the link of a merged or split article
        to the article holding its text (link/versions.parts: cited with it, not walked)."""
        if not len(cols.type):
            return cls([], np.zeros(0, int), np.zeros(0, int), [])
        art = [article_of(n) for n in cols.vertices]
        placeholder = np.asarray([is_placeholder(n) for n in cols.vertices], dtype=bool)
        types = np.asarray(cols.type, dtype=object)
        names, art_index = np.unique(np.asarray(art, dtype=object), return_inverse=True)
        s, t = art_index[cols.source], art_index[cols.target]
        keep = (types != EdgeType.CONTAINS.value) & cols.resolved & ~placeholder[cols.target] & (s != t)
        if cols.extractor:
            extractor = np.asarray(cols.extractor, dtype=object)
            keep &= (extractor != DUTY_EXTRACTOR) & (extractor != PART_EXTRACTOR)
        s, t = s[keep], t[keep]
        used, ends = np.unique(np.concatenate([s, t]), return_inverse=True)     # articles with an edge
        return cls(list(names[used]), ends[:len(s)], ends[len(s):], list(types[keep]))

    @classmethod
    def from_edges(cls, edges: Iterable) -> "ArticleGraph":
        """From `Edge` records (tests, small graphs)."""
        edges = list(edges)
        names = sorted({e.source for e in edges} | {e.target for e in edges})
        index = {n: i for i, n in enumerate(names)}
        return cls.from_columns(EdgeColumns(
            tuple(names), np.asarray([index[e.source] for e in edges], dtype=np.int64),
            np.asarray([index[e.target] for e in edges], dtype=np.int64), tuple(e.type.value for e in edges),
            np.asarray([e.resolved for e in edges], dtype=bool)))

    # -- neighbourhoods -------------------------------------------------------------------
    def neighbours(self, uid: str) -> list[tuple[str, str, str]]:
        """(other article, edge type, "->" for an edge out of `uid` / "<-" for one into it), in edge order."""
        v = self.index.get(uid)
        if v is None:
            return []
        return [(self.names[n], self.type_names[code], "->" if fwd else "<-") for n, code, fwd, _ in self.incidence[v]]

    def linked(self, uid: str, among: set[str] | dict, allowed: Callable[[str, str], bool]) -> list[str]:
        """Neighbours of `uid` in `among` through an edge `allowed(type, arrow)` accepts."""
        return [n for n, t, arrow in self.neighbours(uid) if n in among and allowed(t, arrow)]

    def degree(self, uid: str) -> int:
        v = self.index.get(uid)
        return 0 if v is None else self.g.degree(v)

    # -- expansion ------------------------------------------------------------------------
    def expand(self, seeds: list[str], hops: dict[str, int], cap: int,
               keep: Callable[[str], bool] = lambda uid: True) -> dict[str, Step]:
        """Units reachable from `seeds`, with the shortest distance and the path that reached them.
        `hops[type]` bounds how many edges of that type one path may use; `keep(uid)` filters
        (e.g. by date) without stopping the walk through filtered units."""
        found: dict[str, Step] = {s: Step(s, 0, "", ()) for s in seeds}
        limit = [hops.get(t, 0) for t in self.type_names]
        if not any(limit):
            return found
        # the budget used on a path, one base-`base` digit per edge type, as one int
        base = max(limit) + 1
        place = [base ** i for i in range(len(limit))]
        queue = deque((self.index.get(s), 0, 0, ()) for s in seeds)
        seen = {(self.index.get(s), 0) for s in seeds}
        reached, budget_left = 0, cap * 50      # bounds the walk itself, not just what it returns
        while queue and reached < cap and budget_left > 0:
            budget_left -= 1
            v, dist, used, path = queue.popleft()
            if v is None:
                continue
            for nxt, code, fwd, e in self.incidence[v]:
                if used // place[code] % base >= limit[code]:
                    continue
                budget = used + place[code]
                state = (nxt, budget)
                if state in seen:
                    continue
                seen.add(state)
                step_path = path + ((e, fwd, v),)
                name = self.names[nxt]
                if name not in found and keep(name):
                    found[name] = Step(name, dist + 1, self.type_names[code], step_path, self)
                    reached += 1
                    if reached >= cap:
                        break
                queue.append((nxt, dist + 1, budget, step_path))
        return found

    def links(self, path) -> tuple[Link, ...]:
        """A walk's (edge, forward, from) triples as links."""
        out = []
        for e, fwd, frm in path:
            to = int(self.target[e] if fwd else self.source[e])
            out.append(Link(self.names[frm], self.type_names[int(self.types[e])], self.names[to], fwd))
        return tuple(out)

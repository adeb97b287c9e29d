"""An entity graph over aggregated relations, and three ways to walk it from a start entity.

bfs                  -- every entity within `max_depth` hops, nearest first (igraph's BFS tree)
shortest_path        -- the fewest hops to an end entity
confidence_weighted  -- the paths whose product of confidences is highest: Dijkstra over
                        -log(confidence) weights, so a longer chain of sure edges beats a short
                        doubtful one

Every path carries its steps (edge type, confidence, supporting instruments, and whether it was
walked along or against the edge), the product and the minimum of its confidences, and a
document diversity score: distinct instruments along the path / instrument mentions along the
path (1.0 when every hop rests on a different instrument, lower when one instrument carries it).
`mode` is igraph's: "out" follows edges, "in" walks them backwards, "all" ignores direction.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import igraph as ig

from .aggregate import AggregatedRelation

_FLOOR = 1e-6     # confidence floor, so -log stays finite


@dataclass(frozen=True)
class Step:
    subject: str
    type: str
    object: str
    confidence: float
    documents: tuple[str, ...]
    forward: bool                 # walked subject -> object


@dataclass(frozen=True)
class Path:
    nodes: tuple[str, ...]
    steps: tuple[Step, ...]
    total_confidence: float       # product over steps
    min_confidence: float
    diversity: float

    @property
    def hops(self) -> int:
        return len(self.steps)


def build_graph(aggs: list[AggregatedRelation]) -> ig.Graph:
    """Directed graph: a vertex per entity (attribute `name`), an edge per aggregated relation
    with `type`, `confidence` (the average), `max_confidence`, `occurrences`, `documents`
    (instrument keys) and `weight` = -log(confidence)."""
    names = sorted({a.subject for a in aggs} | {a.object for a in aggs})
    g = ig.Graph(directed=True)
    g.add_vertices(names)
    index = {n: i for i, n in enumerate(names)}
    g.add_edges([(index[a.subject], index[a.object]) for a in aggs])
    g.es["type"] = [a.type for a in aggs]
    g.es["confidence"] = [a.avg_confidence for a in aggs]
    g.es["max_confidence"] = [a.max_confidence for a in aggs]
    g.es["occurrences"] = [a.occurrences for a in aggs]
    g.es["documents"] = [list(a.keys) for a in aggs]
    g.es["weight"] = [-math.log(max(a.avg_confidence, _FLOOR)) for a in aggs]
    return g


def _vid(g: ig.Graph, name: str) -> int | None:
    try:
        return g.vs.find(name=name).index
    except (ValueError, KeyError):
        return None


def _path(g: ig.Graph, start: int, eids: list[int]) -> Path:
    """A Path from edge ids walked from `start` (reversed first if igraph gave them end-first)."""
    if eids and start not in (g.es[eids[0]].source, g.es[eids[0]].target):
        eids = eids[::-1]
    nodes, steps, here = [g.vs[start]["name"]], [], start
    for eid in eids:
        e = g.es[eid]
        forward = e.source == here
        here = e.target if forward else e.source
        nodes.append(g.vs[here]["name"])
        steps.append(Step(g.vs[e.source]["name"], e["type"], g.vs[e.target]["name"], e["confidence"],
                          tuple(e["documents"]), forward))
    confs = [s.confidence for s in steps]
    mentions = sum(len(s.documents) for s in steps)
    unique = len({d for s in steps for d in s.documents})
    return Path(tuple(nodes), tuple(steps), round(math.prod(confs), 6) if confs else 1.0,
                min(confs) if confs else 1.0, round(unique / mentions, 4) if mentions else 0.0)


def _best_edge(g: ig.Graph, frm: int, to: int, mode: str) -> int:
    """The most confident edge between two adjacent vertices in the walking direction."""
    eids = [e.index for e in g.es.select(_between=([frm], [to]))
            if mode == "all" or (e.source == frm) == (mode == "out")]
    return max(eids, key=lambda i: g.es[i]["confidence"])


def bfs(g: ig.Graph, start: str, max_depth: int = 2, max_nodes: int = 50, end: str | None = None,
        mode: str = "all") -> list[Path]:
    """Paths from `start` to each entity reached within `max_depth` hops, in BFS order, at most
    `max_nodes` entities counted with the start; with `end`, only the path to it (if reached)."""
    root = _vid(g, start)
    if root is None:
        return []
    vids, layers, parents = g.bfs(root, mode=mode)
    depth = {v: d for d in range(len(layers) - 1) for v in vids[layers[d]:layers[d + 1]]}
    out = []
    for v in vids[1:max_nodes]:
        if depth[v] > max_depth:
            break
        if end is not None and g.vs[v]["name"] != end:
            continue
        chain, here = [], v
        while parents[here] >= 0:
            chain.append(_best_edge(g, parents[here], here, mode))
            here = parents[here]
        out.append(_path(g, root, chain[::-1]))
    return out


def shortest_path(g: ig.Graph, start: str, end: str, mode: str = "all") -> Path | None:
    """The path of fewest hops from `start` to `end`, or None."""
    s, t = _vid(g, start), _vid(g, end)
    if s is None or t is None:
        return None
    with warnings.catch_warnings():            # igraph warns when the end is unreachable
        warnings.simplefilter("ignore", RuntimeWarning)
        eids = g.get_shortest_paths(s, to=t, mode=mode, output="epath")[0]
    return _path(g, s, eids) if eids or s == t else None


def confidence_weighted(g: ig.Graph, start: str, end: str | None = None, max_depth: int = 3,
                        min_confidence: float = 0.0, mode: str = "all") -> list[Path]:
    """The most confident paths (highest product of confidences) over edges of at least
    `min_confidence`: to `end` (one path, or none), else to every entity within `max_depth`
    hops, best first. A best path longer than `max_depth` hops is not returned."""
    s = _vid(g, start)
    if s is None:
        return []
    h = g.copy()
    h.delete_edges([e.index for e in h.es if e["confidence"] < min_confidence])
    if end is not None:
        t = _vid(h, end)
        targets = [] if t is None else [t]
    else:
        targets = [v for v in h.neighborhood(s, order=max_depth, mode=mode) if v != s]
    if not targets:
        return []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        found = h.get_shortest_paths(s, to=targets, weights="weight", mode=mode, output="epath")
    paths = [_path(h, s, eids) for eids in found if 0 < len(eids) <= max_depth]
    return sorted(paths, key=lambda p: (-p.total_confidence, p.hops, p.nodes))

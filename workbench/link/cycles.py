"""Amendment and replacement cycles (extraction errors or bad metadata): found and reported.
Traversals elsewhere keep visited sets, so a cycle can never make them loop."""
from __future__ import annotations

from ..core.records import Edge, EdgeType, Problem

ORDERING = (EdgeType.AMENDS, EdgeType.REPLACES, EdgeType.REPEALS)


def find_cycles(edges: list[Edge]) -> list[list[str]]:
    """Strongly connected groups (of 2+ units) in the amends / replaces / repeals edges."""
    import igraph
    ordering = [e for e in edges if e.type in ORDERING and e.source != e.target]
    names = sorted({e.source for e in ordering} | {e.target for e in ordering})
    if not names:
        return []
    index = {n: i for i, n in enumerate(names)}
    g = igraph.Graph(n=len(names), edges=[(index[e.source], index[e.target]) for e in ordering], directed=True)
    return [[names[i] for i in comp] for comp in g.connected_components(mode="strong") if len(comp) > 1]


def cycle_problems(edges: list[Edge]) -> list[Problem]:
    out = []
    for group in find_cycles(edges):
        evidence = [f"{e.source} -{e.type.value}-> {e.target} ({e.evidence!r})" for e in edges
                    if e.type in ORDERING and e.source in group and e.target in group]
        out.append(Problem("graph", 0, "amendment cycle (an extraction error or bad metadata): "
                           + "; ".join(evidence[:6])))
    return out

"""Amendment and replacement cycles (extraction errors or bad metadata): found and reported.
Traversals elsewhere keep visited sets, so a cycle can never make them loop."""
from __future__ import annotations

from ..core.records import EdgeType, Problem

ORDERING = (EdgeType.AMENDS, EdgeType.REPLACES, EdgeType.REPEALS)


def cycle_problems(graph) -> list[Problem]:
    """A problem per cycle of the graph store's ordering edges, with the edges making it."""
    out = []
    for group in graph.cycles(ORDERING):
        members = set(group)
        evidence = [f"{e.source} -{e.type.value}-> {e.target} ({e.evidence!r})" for v in group
                    for e in graph.edges_of(v, ORDERING) if e.target in members and e.source != e.target]
        out.append(Problem("graph", 0, "amendment cycle (an extraction error or bad metadata): "
                           + "; ".join(evidence[:6])))
    return out

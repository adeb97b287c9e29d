"""Entities of law in a notebook: polars tables of an entity's aggregated relations, its
documents and the paths each traversal strategy finds, and the entity subgraph as a pyvis page
with nodes coloured by the document that mentions them most (notebook 07)."""
from __future__ import annotations

import html as _html
import re

import polars as pl

from .graphview import EDGE_COLOURS

PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
           "#17becf")
SHAPES = {"authority": "diamond", "party": "dot", "instrument": "square", "document": "triangle", "term": "star"}
RELATION_COLOURS = {"IMPOSES_DUTY": "#d62728", "HAS_DUTY": "#ff7f0e", "SANCTIONS": "#8c564b",
                    "GRANTS_PERMISSION": "#2ca02c", "MAY": "#98df8a", "ISSUES": "#1f77b4",
                    "DEFINES": EDGE_COLOURS["DEFINES"]}
STRATEGIES = {"breadth_first": "bfs", "shortest_path": "shortest", "confidence_weighted": "confidence"}


def relations_frame(index, entity_id: str, **filters) -> pl.DataFrame:
    """One row per aggregated relation the entity takes part in (`filters`: types,
    min_confidence, min_occurrences, as for EntityIndex.relations_of)."""
    name = lambda i: index.entities[i].name if i in index.entities else i  # noqa: E731
    rows = [{"subject": name(a.subject), "relation": a.type, "object": name(a.object),
             "occurrences": a.occurrences, "instruments": a.document_count,
             "versions": sum(len(d.versions) for d in a.documents), "avg_confidence": a.avg_confidence,
             "max_confidence": a.max_confidence, "first_seen": a.first_seen,
             "supported_by": ", ".join(a.keys)} for a in index.relations_of(entity_id, **filters)]
    return pl.DataFrame(rows, schema_overrides={"first_seen": pl.Date}) if rows else pl.DataFrame()


def documents_frame(index, entity_id: str) -> pl.DataFrame:
    rows = [{"document": d["document"], "mentions": d["mentions"], "units": len(d["units"]),
             "co_occurring": ", ".join(c["id"] for c in d["co_occurring"][:5])} for d in index.documents_of(entity_id)]
    return pl.DataFrame(rows) if rows else pl.DataFrame()


def paths_frame(index, start: str, end: str | None = None, max_depth: int = 3, k: int = 5) -> pl.DataFrame:
    """The paths of each strategy side by side (shortest_path only with an end): the path,
    hops, document diversity, total and weakest confidence, instruments along it."""
    rows = []
    for label, strategy in STRATEGIES.items():
        if strategy == "shortest" and end is None:
            continue
        for rank, p in enumerate(index.traverse(start, end, strategy, max_depth)[:k], 1):
            steps = " ".join(f"-{s.type}-> {n}" if s.forward else f"<-{s.type}- {n}" for s, n in zip(p.steps, p.nodes[1:]))
            rows.append({"strategy": label, "rank": rank, "path": f"{p.nodes[0]} {steps}", "hops": p.hops,
                         "diversity": round(p.diversity, 3), "confidence": round(p.total_confidence, 3),
                         "weakest": round(p.min_confidence, 3),
                         "instruments": ", ".join(sorted({d for s in p.steps for d in s.documents}))})
    return pl.DataFrame(rows) if rows else pl.DataFrame()


def subgraph_html(sg, height: str = "560px", title: str = "") -> str:
    """The subgraph as a standalone page: shape by entity type, colour by the node's primary
    document (legend below the title), edges coloured by relation type and as wide as their
    occurrences; tooltips list mentions per document."""
    from pyvis.network import Network
    docs = sorted({n.primary_document for n in sg.nodes if n.primary_document})
    colour = {d: PALETTE[i % len(PALETTE)] for i, d in enumerate(docs)}
    net = Network(height=height, width="100%", directed=True, cdn_resources="in_line", bgcolor="#ffffff")
    for n in sg.nodes:
        tip = "\n".join([f"{n.name} ({n.type}){' — cross-document' if n.is_cross_doc else ''}"] +
                        [f"{d}: {c} mention(s)" for d, c in sorted(n.mentions_per_document.items())])
        net.add_node(n.id, label=n.name[:28], title=tip, shape=SHAPES.get(n.type, "dot"),
                     color=colour.get(n.primary_document, "#cccccc"), size=22 if n.is_center else 14,
                     borderWidth=3 if n.is_center else 1)
    for a in sg.edges:
        net.add_edge(a.subject, a.object, title=f"{a.type} ×{a.occurrences} ({', '.join(a.keys)})",
                     color=RELATION_COLOURS.get(a.type, "#333333"), width=1 + min(a.occurrences, 8) * 0.6, arrows="to")
    net.set_options('{"physics": {"solver": "forceAtlas2Based", "stabilization": {"iterations": 250}},'
                    ' "interaction": {"hover": true}}')
    page = net.generate_html(notebook=False)
    page = re.sub(r'<link[^>]*cdn\.jsdelivr\.net[^>]*/>\s*', "", page)
    page = re.sub(r'<script\s+src="https://cdn\.jsdelivr\.net[^"]*"[^>]*>\s*</script>\s*', "", page, flags=re.S)
    legend = "".join(f'<span style="display:inline-block;width:11px;height:11px;background:{c};margin:0 4px 0 10px">'
                     f'</span>{_html.escape(d)}' for d, c in colour.items())
    kinds = " · ".join(f"{t}: {s}" for t, s in SHAPES.items())
    head = f'<div style="font:12px sans-serif;padding:4px">{_html.escape(title)} {legend}<br>' \
           f'<span style="color:#777">shapes — {kinds}</span></div>'
    return page.replace("<body>", "<body>\n" + head, 1)

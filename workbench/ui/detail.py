"""What the panel shows about one unit when it is clicked (in the graph or the evidence table):
its text, instrument, version and validity, provision role, its edges in and out by type,
and the other versions of the article.

`unit_details(wb, uid)` gathers that from a Workbench as a plain dict; `detail_html` renders
it. Both are separate so the panel can be driven by any callable that returns the dict.
"""
from __future__ import annotations

import html
from collections import defaultdict

from .evidence import short_id

EDGES_SHOWN = 12          # per type and direction; the rest are counted


def unit_details(wb, uid: str) -> dict | None:
    """The unit, its document's title, its edges (out / in) and the versions of its article;
    None when the workspace has no such unit."""
    found = wb.store.get([uid])
    if not found:
        return None
    u = found[0]
    doc = f"{u.key}@{u.version}"
    title = next((d.title for d in wb.store.get([doc])), "") if doc != uid else u.title
    edges = {"out": [(e.type.value, e.target, e.resolved) for e in wb.graph.edges_of(uid, direction="out")],
             "in": [(e.type.value, e.source, True) for e in wb.graph.edges_of(uid, direction="in")]}
    try:
        versions = wb.changes(uid)
    except Exception:          # a unit outside any version chain
        versions = []
    return {"unit": u, "document": doc, "title": title, "edges": edges, "versions": versions}


def _edge_list(edges: list[tuple[str, str, bool]], arrow: str, home: str) -> str:
    by_type: dict[str, list[tuple[str, bool]]] = defaultdict(list)
    for typ, other, resolved in edges:
        by_type[typ].append((other, resolved))
    if not by_type:
        return "<i>none</i>"
    rows = []
    for typ, others in sorted(by_type.items()):
        shown = ", ".join(f"<code>{html.escape(short_id(o, home))}</code>" + ("" if ok else " (not in the workspace)")
                          for o, ok in others[:EDGES_SHOWN])
        more = f" … and {len(others) - EDGES_SHOWN} more" if len(others) > EDGES_SHOWN else ""
        rows.append(f"<div>{html.escape(arrow).replace('T', html.escape(typ))} {shown}{more}</div>")
    return "".join(rows)


def detail_html(d: dict | None, uid: str = "", rank: int | None = None, via: str = "") -> str:
    """The detail pane for one unit (the dict from `unit_details`)."""
    if d is None:
        return f"<div class='wb-detail'><i>{html.escape(uid or 'click a unit')}: not in the workspace</i></div>" \
            if uid else "<div class='wb-detail'><i>click a node of the graph or a row of the evidence</i></div>"
    u = d["unit"]
    where = f"rank {rank} in this result" + (f" — {html.escape(via)}" if via else "") if rank else "not ranked in this result"
    versions = "".join(
        f"<li><code>{html.escape(v['unit_id'])}</code> {v.get('effective_from') or '?'} – {v.get('effective_to') or 'now'}"
        f"{' · ' + html.escape(v['status']) if v.get('status') else ''}{' ◀ this one' if v['unit_id'] == u.id else ''}</li>"
        for v in d["versions"]) if len(d["versions"]) > 1 else "<li><i>only this version</i></li>"
    text = html.escape(u.text or "")
    return (f"<div class='wb-detail' data-unit='{html.escape(u.id, quote=True)}' style='font-size:12px;line-height:1.4;white-space:normal'>"
            f"<div style='font-family:monospace;font-weight:bold'>{html.escape(u.id)}</div>"
            f"<div>{html.escape(d['title'] or d['document'])} — version {html.escape(u.version)}, "
            f"in force {u.effective_from or '?'} – {u.effective_to or 'now'}</div>"
            f"<div>{html.escape(u.kind)}{(' · role: ' + html.escape(u.role)) if u.role else ''} · {where}</div>"
            f"<div style='max-height:150px;overflow:auto;white-space:pre-wrap;border:1px solid #eee;"
            f"padding:3px;margin:3px 0'>{text}</div>"
            f"<div><b>edges out</b>{_edge_list(d['edges']['out'], '-T->', d['document'])}</div>"
            f"<div><b>edges in</b>{_edge_list(d['edges']['in'], '<-T-', d['document'])}</div>"
            f"<div><b>versions of this article</b><ul style='margin:0'>{versions}</ul></div></div>")

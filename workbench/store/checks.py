"""Whether a workspace's units, edges and record fit together (`workbench info` warns of each)."""
from __future__ import annotations

from .refresh import FORM

META = "workspace.json"


def inconsistencies(store, graph, meta: dict, corpora: list[str] | None = None) -> list[str]:
    """What does not fit together: a corpus with units but none of its structure edges (or
    edges but no units), resolved edges from or to a unit the store does not hold, a corpus
    recorded in workspace.json without units or the reverse. Empty when all is well."""
    from ..link.resolve import is_placeholder
    corpora = corpora if corpora is not None else sorted({r["corpus"] for r in store.counts()})
    units_of: dict[str, int] = {}
    for row in store.counts():
        units_of[row["corpus"]] = units_of.get(row["corpus"], 0) + row["count_all"]
    out = []
    edge_corpora = graph.corpora()
    for c in corpora:
        if units_of.get(c, 0) > 1 and not graph.counts(c).get("CONTAINS"):
            out.append(f"corpus {c}: {units_of[c]} units but no CONTAINS edges (re-ingest it)")
    for c in sorted(edge_corpora - set(units_of) - {"", None}):
        out.append(f"corpus {c}: edges but no units (re-ingest it)")
    ids = store.ids()
    cols = graph.columns()
    names = cols.vertices
    missing = {names[v] for s_, t_, ok in zip(cols.source, cols.target, cols.resolved) if ok
               for v in (s_, t_) if names[v] not in ids and not is_placeholder(names[v])}
    if missing:
        out.append(f"{len(missing)} units named by resolved edges are not stored, e.g. {sorted(missing)[0]} "
                   "(re-ingest the corpus holding it, then `workbench relink`)")
    if units_of and meta.get("form", 1) < FORM:
        out.append("text and full-text tokens written before one written form (composed letters, one Vietnamese "
                   "tone placement): run `workbench relink`")
    recorded = set(meta.get("corpora", {}))
    for c in sorted(recorded - set(units_of)):
        out.append(f"corpus {c}: recorded in {META} but holds no units (re-ingest it)")
    for c in sorted(set(units_of) - recorded):
        out.append(f"corpus {c}: units stored but not recorded in {META} (re-ingest it)")
    return out

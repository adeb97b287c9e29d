"""Multi-vector search: besides the units, LanceDB vector collections of entities, aggregated
relations, document summaries and defined terms, searched together with one query vector and
fused by reciprocal rank; each hit names its collection and the units it rests on.

What each collection embeds (all extractive -- no model writes them):
- `mv_entities`: an entity's name and type, its other surface forms, the relations it takes
  part in most often (one short line each) and the titles of the instruments that mention it.
- `mv_relations`: one aggregated relation: "subject TYPE object", then its evidence sentences
  (at most two distinct), then the instruments that support it.
- `mv_summaries`: one document version: title, the headings of its chapters and articles
  (first ones), its most mentioned entities and its defined terms.
- `mv_terms`: a defined term with its definition.
Units are searched as hybrid mode does (BM25 + dense, `RetrievalConfig.candidates` deep, reciprocal
rank fusion). A unit filter (`where`) restricts the units and, for every other collection, the
units a hit stands for (a hit left with none is dropped).

Vectors come through the workspace's embedding cache (keyed by text), so a rebuild after an
ingest embeds only the texts that changed. `build` replaces the tables; it runs under the
workspace's writing lock (Workbench.build_collections).
"""
from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from dataclasses import dataclass

import numpy as np

from ..core.errors import WorkbenchError
from ..core.records import DOCUMENTS, Filter
from ..store.ingest import text_key

COLLECTIONS = ("units", "entities", "relations", "summaries", "terms")
TABLE = {c: f"mv_{c}" for c in COLLECTIONS if c != "units"}
RRF_K = 60                 # as hybrid fusion (RetrievalConfig.rrf_k); not tuned
UNITS_PER_HIT = 3          # a non-unit hit stands for at most this many of its units (design choice)
VERB = {"HAS_DUTY": "has a duty concerning", "IMPOSES_DUTY": "imposes a duty on", "SANCTIONS": "sanctions",
        "GRANTS_PERMISSION": "grants permission to", "MAY": "may act on", "ISSUES": "issues", "DEFINES": "defines"}


@dataclass(frozen=True)
class CollectionHit:
    collection: str
    id: str
    text: str
    score: float                    # fused (reciprocal rank over collections)
    rank: int                       # rank among this result's hits of its collection, from 1
    unit_ids: tuple[str, ...]       # the units it rests on (a unit hit: itself)


def documents_texts(index, documents, terms_by_unit: dict[str, list[str]]) -> list[dict]:
    """One summary row per document version."""
    by_doc: dict[str, Counter] = {}
    for m in index.mentions:
        by_doc.setdefault(m.unit_id.split("/")[0], Counter())[m.entity_id] += 1
    heads: dict[str, list[str]] = {}
    articles: dict[str, list[str]] = {}
    for u in index.units.values():
        if u.kind == "article":
            articles.setdefault(u.id.split("/")[0], []).append(u.id)
            if u.title:
                heads.setdefault(u.id.split("/")[0], []).append(u.title)
    rows = []
    for d in documents:
        names = [index.entities[e].name for e, _ in by_doc.get(d.id, Counter()).most_common(12) if e in index.entities]
        terms = sorted({t for uid, ts in terms_by_unit.items() if uid.split("/")[0] == d.id for t in ts})[:15]
        text = "\n".join(p for p in (d.title, "; ".join(heads.get(d.id, [])[:25]), ", ".join(names), ", ".join(terms)) if p)
        rows.append({"id": d.id, "text": text, "unit_ids": [d.id] + articles.get(d.id, [])[:300]})
    return rows


def entity_texts(index, titles: dict[str, str]) -> list[dict]:
    rels: dict[str, list] = {}
    for a in index.aggregated:
        for e in (a.subject, a.object):
            rels.setdefault(e, []).append(a)
    units: dict[str, list[str]] = {}
    for m in index.mentions:
        units.setdefault(m.entity_id, []).append(m.unit_id)
    rows = []
    for e in index.entities.values():
        if e.id not in units:
            continue
        name = lambda i: index.entities[i].name if i in index.entities else i  # noqa: E731
        lines = [f"{name(a.subject)} {VERB.get(a.type, a.type)} {name(a.object)}"
                 for a in sorted(rels.get(e.id, []), key=lambda a: -a.occurrences)[:4]]
        keys = Counter(u.split("@")[0] for u in units[e.id])
        docs = [titles.get(k) or k for k, _ in keys.most_common(3)]
        forms = [s for s in e.surfaces if s != e.name][:4]
        text = "\n".join(p for p in (f"{e.name} ({e.type})", ", ".join(forms), "; ".join(lines), ", ".join(docs)) if p)
        ordered = [u for u, _ in Counter(units[e.id]).most_common()]
        rows.append({"id": e.id, "text": text, "unit_ids": ordered[:20]})
    return rows


def relation_texts(index) -> list[dict]:
    ev: dict[tuple, list[str]] = {}
    for r in index.relations:
        ev.setdefault((r.subject, r.type, r.object), []).append(r.evidence)
    rows = []
    for a in index.aggregated:
        name = lambda i: index.entities[i].name if i in index.entities else i  # noqa: E731
        sentences = list(dict.fromkeys(ev.get((a.subject, a.type, a.object), [])))[:2]
        text = "\n".join([f"{name(a.subject)} {VERB.get(a.type, a.type)} {name(a.object)}"] + sentences +
                         [", ".join(a.keys)])
        rows.append({"id": f"{a.subject}|{a.type}|{a.object}", "text": text, "unit_ids": list(a.unit_ids[:20])})
    return rows


def term_texts(store, terms_table) -> list[dict]:
    n = max(terms_table.count_rows(), 1)
    rows = {}
    for r in terms_table.search().select(["term", "unit_id", "definition"]).limit(n).to_list():
        rows.setdefault(r["unit_id"] + "|" + r["term"], {"id": r["unit_id"] + "|" + r["term"],
                                                          "text": f"{r['term']}: {r['definition'] or ''}"[:600],
                                                          "unit_ids": [r["unit_id"]]})
    return list(rows.values())


def build(wb, batch: int = 64) -> dict[str, int]:
    """(Re)build every collection from the workspace; returns rows and freshly embedded texts."""
    import pyarrow as pa
    index = wb.entities
    documents = wb.store.where(DOCUMENTS)
    terms_by_unit: dict[str, list[str]] = {}
    for norm, uids in wb.terms.all().items():
        for uid in uids:
            terms_by_unit.setdefault(uid, []).append(norm)
    titles = {d.key: d.title for d in documents if d.title}
    rows = {"entities": entity_texts(index, titles), "relations": relation_texts(index),
            "summaries": documents_texts(index, documents, terms_by_unit), "terms": term_texts(wb.store, wb.terms.table)}
    out = {}
    emb = wb.embedder
    for name, items in rows.items():
        keys = [text_key(emb.name, r["text"]) for r in items]
        cached = wb.cache.lookup(keys)
        todo = sorted({k: r["text"] for k, r in zip(keys, items) if k not in cached}.items())
        fresh = {}
        for i in range(0, len(todo), batch):
            part = todo[i:i + batch]
            fresh.update(zip([k for k, _ in part], emb.embed_passages([t for _, t in part])))
        wb.cache.add(fresh)
        vecs = np.stack([fresh.get(k, cached.get(k)) for k in keys]).astype(np.float32) if items else \
            np.zeros((0, emb.dim), np.float32)
        schema = pa.schema([("id", pa.string()), ("text", pa.string()), ("unit_ids", pa.string()),
                            ("vector", pa.list_(pa.float32(), emb.dim))])
        table = pa.table({"id": [r["id"] for r in items], "text": [r["text"] for r in items],
                          "unit_ids": [json.dumps(r["unit_ids"], ensure_ascii=False) for r in items],
                          "vector": pa.FixedSizeListArray.from_arrays(pa.array(vecs.reshape(-1)), emb.dim)},
                         schema=schema)
        written = wb.store.db.create_table(TABLE[name], data=table, mode="overwrite")
        try:                            # each rebuild is a new table version: drop those over an hour old
            written.optimize(cleanup_older_than=dt.timedelta(hours=1))
        except Exception:               # noqa: BLE001 -- clean-up is housekeeping, never a failure
            pass
        out[name] = {"rows": len(items), "embedded": len(fresh)}
    return out


def available(db) -> set[str]:
    names = db.list_tables()
    names = set(names.tables if hasattr(names, "tables") else names)
    return {c for c, t in TABLE.items() if t in names}


def search(wb, query: str, k: int = 10, collections=COLLECTIONS, where: Filter | None = None,
           language: str = "") -> list[CollectionHit]:
    """The top `k` of each collection for the query, fused by reciprocal rank (best first)."""
    from ..parse.languages import guess_language
    collections = tuple(dict.fromkeys(collections))
    unknown = set(collections) - set(COLLECTIONS)
    if unknown:
        raise ValueError(f"unknown collections {sorted(unknown)}: {', '.join(COLLECTIONS)}")
    missing = (set(collections) - {"units"}) - available(wb.store.db)
    if missing:
        raise WorkbenchError(f"collections not built: {', '.join(sorted(missing))} "
                          "(run `workbench entities --build-collections` on this workspace)")
    qvec = wb.embedder.embed_queries([query])[0]
    depth = max(k, wb.config.retrieval.candidates)      # each list as deep as hybrid mode reads it
    allowed = wb.store.ids_matching(where) if where is not None else None
    # one dense list over every collection (one vector space: cosine similarities compare),
    # fused with BM25 over the units by reciprocal rank
    dense: list[tuple[float, str, str, str, tuple]] = []
    lexical: list[tuple[str, str, str, tuple]] = []
    if "units" in collections:
        for h in wb.store.search_vector(qvec, depth, where):
            dense.append((h.score, "units", h.unit_id, h.unit.text if h.unit else "", (h.unit_id,)))
        for h in wb.store.search_text(query, language or guess_language(query), depth, where):
            lexical.append(("units", h.unit_id, h.unit.text if h.unit else "", (h.unit_id,)))
    for name in collections:
        if name != "units":
            rows = wb.store.db.open_table(TABLE[name]).search(np.asarray(qvec, np.float32)).metric("cosine") \
                .select(["id", "text", "unit_ids", "_distance"]).limit(depth).to_list()
            for r in rows:          # under a filter, a hit stands only for the units it lets through
                units = tuple(u for u in json.loads(r["unit_ids"]) if allowed is None or u in allowed)
                if units:
                    dense.append((1.0 - float(r["_distance"]), name, r["id"], r["text"], units))
    dense.sort(key=lambda d: (-d[0], COLLECTIONS.index(d[1]), d[2]))
    fused: dict[tuple[str, str], float] = {}
    info: dict[tuple[str, str], tuple] = {}
    for items in ([d[1:] for d in dense], lexical):
        for rank, (name, id_, text, units) in enumerate(items, 1):
            fused[(name, id_)] = fused.get((name, id_), 0.0) + 1.0 / (RRF_K + rank)
            info.setdefault((name, id_), (text, units))
    within: dict[str, int] = Counter()
    order = sorted(fused, key=lambda c: (-fused[c], COLLECTIONS.index(c[0]), c[1]))
    out = []
    for c in order[:k]:
        within[c[0]] += 1
        out.append(CollectionHit(c[0], c[1], info[c][0], round(fused[c], 6), within[c[0]], info[c][1]))
    return out


def units_of(hits: list[CollectionHit], prefer: list[str] = ()) -> list[str]:
    """The ranked units a multi-vector result stands for: each hit in turn adds its units not
    listed yet (at most UNITS_PER_HIT; those also in `prefer` -- a unit ranking -- first, in its
    order, then in the hit's own order)."""
    pos = {u: i for i, u in enumerate(prefer)}
    out: list[str] = []
    seen: set[str] = set()
    for h in hits:
        units = sorted((u for u in dict.fromkeys(h.unit_ids) if u not in seen),
                       key=lambda u: (pos.get(u, len(pos)), h.unit_ids.index(u)))
        out += units[:UNITS_PER_HIT]
        seen.update(units[:UNITS_PER_HIT])
    return out

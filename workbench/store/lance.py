"""Units in LanceDB: one table per collection, vectors, metadata and a full-text index.

The full-text index is built over `search_text`, a column of tokens made by
`workbench.store.tokenize` (jieba for Chinese), with LanceDB's whitespace tokenizer, so
every language is searched the same way. Filters are applied before the vector
search (`prefilter=True`), otherwise LanceDB drops filtered rows after ranking.
"""
from __future__ import annotations

import datetime as dt
import json
import os
import zlib
from pathlib import Path
from types import SimpleNamespace
from typing import Iterable, Sequence

import numpy as np

from ..core.errors import BackendUnavailable
from ..core.records import Filter, Hit, Unit
from ..link.resolve import stored_names
from ..parse.roles import enclosing_parts, provision_role, with_roles
from .filters import in_list, quote, sql  # quote: also imported from here (terms.py, cache.py, notebooks)
from .tokenize import query_text, search_text

UNITS = "units"
_DATE_FIELDS = ("effective_from", "effective_to")


def _lancedb():
    os.environ.setdefault("LANCE_LOG", "error")
    try:
        import lancedb
    except ImportError:
        raise BackendUnavailable("LanceDB", "install the project: `make setup` "
                                 "(or `pip install lancedb==0.40.0`)") from None
    return lancedb


def _schema(dim: int):
    import pyarrow as pa
    return pa.schema([
        ("id", pa.string()), ("corpus", pa.string()), ("key", pa.string()),
        ("version", pa.string()), ("kind", pa.string()), ("label", pa.string()),
        ("article_no", pa.int32()), ("title", pa.string()), ("text", pa.string()),
        ("language", pa.string()), ("effective_from", pa.date32()), ("effective_to", pa.date32()),
        ("source_file", pa.string()), ("line_start", pa.int32()), ("line_end", pa.int32()),
        ("parent_id", pa.string()), ("ordinal", pa.int32()), ("attrs", pa.string()),
        ("search_text", pa.string()), ("embedded", pa.bool_()), ("role", pa.string()),
        ("vector", pa.list_(pa.float32(), dim)),
        ("names", pa.list_(pa.string())), ("read_with", pa.list_(pa.string())),
    ])


ANN_MIN = 5000      # embedded rows from which vector search goes through an ANN index
REFINE = 5          # indexed searches re-score REFINE x k candidates on the full vectors
# Rows added since the indexes were built, as a share of those indexed, up to which they are
# folded in rather than rebuilt. Chosen, not tuned: past a quarter, the IVF partition count
# fixed at build time (rows / 2000) is a quarter behind the table and the centroids were
# trained on under 80 % of the rows, so a rebuild is due.
REBUILD_SHARE = 0.25
# Equal scores are common (the same article unchanged across versions has the same text and
# vector), and the order LanceDB returns them in varies between runs. Searches read TIES more
# rows than asked (more again while the last row read still ties with the k-th) and order equal
# scores by a checksum of the unit id: the same on every run, and unrelated to version or
# instrument (id order would put the oldest version, or whichever copy of a law held twice
# sorts first, ahead of the rest every time).
TIES = 16
TIES_MAX = 4096     # a tie wider than this many rows is cut where LanceDB's order leaves it


def _settled(fetch, score, k: int) -> list[dict]:
    """The first k rows by score, equal scores in a fixed order (crc32 of the unit id, then the
    id); `fetch(n)` reads the first n rows of the search."""
    n = k + TIES
    rows = fetch(n)
    while len(rows) == n and n < TIES_MAX and k and score(min(rows, key=score)) == \
            sorted(map(score, rows), reverse=True)[k - 1]:
        n *= 4
        rows = fetch(n)
    return sorted(rows, key=lambda r: (-score(r), zlib.crc32(r["id"].encode("utf-8")), r["id"]))[:k]


# Rows outside the full-text and scalar indexes up to which they are left there: LanceDB
# searches them by a flat scan beside the index (BM25 over the unindexed rows, filters by
# scanning them), so an ingest into a large workspace does not pay for folding its rows in;
# the next ingest past the bound folds the whole backlog. Two bounds, chosen, not tuned:
# FOLD_SHARE bounds how far BM25 scores drift from what a folded index gives (the flat scan
# scores with statistics of its own: benchmarks/fts_backlog.py, 1,200 texts, a 1 % backlog
# moved scores by up to 1.1 % and gave 2 of 50 queries another top-10 set, 5 % by 2.9 % and
# 7 of 50; folded, 0 %), FOLD_ROWS bounds what the scan adds to a query.
FOLD_SHARE = 0.01
FOLD_ROWS = 20_000
FRAGMENTS_MAX = 32      # fragments (about one per ingest) past which the table is compacted
# scalar indexes on the columns queries filter: ids, instruments, kinds, versions, dates
SCALAR = (("id", "BTREE"), ("key", "BTREE"), ("kind", "BITMAP"), ("version", "BTREE"),
          ("effective_from", "BTREE"), ("effective_to", "BTREE"), ("embedded", "BITMAP"), ("corpus", "BTREE"),
          ("names", "LABEL_LIST"), ("read_with", "LABEL_LIST"))


def scalar_index(kind: str):
    """LanceDB's index config for a SCALAR kind."""
    from lancedb.index import BTree, Bitmap, LabelList
    return {"BTREE": BTree, "BITMAP": Bitmap, "LABEL_LIST": LabelList}[kind]()


from .cache import EmbeddingCache  # noqa: E402,F401  (re-exported: the workspace's embedding cache)


def cleanup(table, older_than: dt.timedelta) -> None:
    """Delete the table versions older than `older_than` (pylance); no index work at commit
    time. A table of more than FRAGMENTS_MAX fragments (the terms table, which nothing else
    compacts) is compacted by LanceDB's optimize instead, which cleans up as well."""
    ds = table.to_lance()
    if len(ds.get_fragments()) > FRAGMENTS_MAX:
        table.optimize(cleanup_older_than=older_than)
        return
    ds.cleanup_old_versions(older_than=older_than)
    table.checkout_latest()


class LanceUnitStore:
    def __init__(self, path: str | Path, dim: int):
        self.path, self.dim = (path if "://" in str(path) else Path(path)), dim    # a folder or a URI
        self.db = _lancedb().connect(str(self.path))
        names = set(self.db.list_tables().tables if hasattr(self.db.list_tables(), "tables")
                    else self.db.list_tables())
        self.table = (self.db.open_table(UNITS) if UNITS in names
                      else self.db.create_table(UNITS, schema=_schema(dim)))
        self._fts_ready = UNITS in names and self.table.count_rows() > 0
        # workspaces made before provision roles have no role column: read without it (roles are
        # computed from the text), and add it before the next write
        self.columns = _COLUMNS + (["role"] if "role" in self.table.schema.names else [])
        # the names each document row is known by and those it is read with (lists, label-list
        # indexed): relinking after an ingest looks documents up by name instead of reading them
        # all (link/relink.py). Workspaces made before have neither: they read them all.
        self.catalogued = "names" in self.table.schema.names
        self._vectors: dict[str, np.ndarray] = {}     # id -> vector, from recent searches

    def _ensure_role(self) -> None:
        if "role" not in self.table.schema.names:
            self.table.add_columns({"role": "CAST('' AS string)"})
            self.columns = _COLUMNS + ["role"]

    def replace_corpus(self, corpus: str, units: Sequence[Unit], vectors: np.ndarray,
                       embedded: Sequence[bool]) -> None:
        """Make the corpus's rows exactly `units` (re-ingesting is idempotent)."""
        import pyarrow as pa
        self._vectors.clear()
        self._ensure_role()
        self.table.delete(f"corpus = {quote(corpus)}")
        if units:
            units, leads = with_roles(units), lead_ins(units)      # roles read with the chapter (ingest sets them)
            rows = [_row(u, leads.get(u.id, "")) for u in units]
            cols = {name: [r[name] for r in rows] for name in rows[0]}
            cols["embedded"] = list(embedded)
            cols["vector"] = pa.FixedSizeListArray.from_arrays(
                pa.array(np.asarray(vectors, dtype=np.float32).reshape(-1)), self.dim)
            schema = _schema(self.dim)
            have = set(self.table.schema.names)     # a workspace made before the names columns
            schema = pa.schema([f for f in schema if f.name in have])
            self.table.add(pa.table({f.name: cols[f.name] for f in schema}, schema=schema))
        self.reindex()

    def delete_under(self, corpus: str, documents: Sequence[str]) -> None:
        """Delete the units of these document versions (and everything below them) of a corpus."""
        if documents:
            self._vectors.clear()
            inside = sql(Filter(any_of=(Filter(ids=tuple(documents)), Filter(under=tuple(documents)))))
            self.table.delete(f"corpus = {quote(corpus)} AND ({inside})")

    def reindex(self) -> None:
        """Bring the indexes up to date. While the rows added since they were built stay under
        REBUILD_SHARE of those indexed, new rows stay out of the vector index (an exact scan of them
        joins the search) and, while few (FOLD_SHARE, FOLD_ROWS; a flat scan joins), out of the
        full-text and scalar ones, past which they are folded in (`_fold`): an added corpus costs
        time in the corpus, not the workspace. Past that share, or with an index missing, all is
        rebuilt. (A table of too many fragments is compacted at commit, `cleanup`.)"""
        from lancedb.index import FTS
        if self.table.count_rows() == 0:
            return
        kinds = {i.index_type: i.name for i in self.table.list_indices()}
        if "FTS" in kinds and ("IvfHnswSq" in kinds or self.table.count_rows("embedded = true") < ANN_MIN):
            # the backlog that decides: rows outside the vector index (the full-text index's own
            # backlog is kept under FOLD_SHARE of it, far below REBUILD_SHARE)
            fts = self.table.index_stats(kinds["FTS"])
            stats = self.table.index_stats(kinds["IvfHnswSq"]) if "IvfHnswSq" in kinds else fts
            if stats.num_unindexed_rows <= REBUILD_SHARE * max(stats.num_indexed_rows, 1):
                if fts.num_unindexed_rows > min(FOLD_ROWS, FOLD_SHARE * fts.num_indexed_rows):
                    self._fold()
                else:                       # a small backlog: searched by a flat scan beside the index
                    self.index_columns()
                self._fts_ready = True
                if "IvfHnswSq" not in kinds:
                    self.index_vectors()
                return
        self.table.create_index("search_text", config=FTS(
            base_tokenizer="whitespace", lower_case=False, stem=False, remove_stop_words=False,
            ascii_folding=False, max_token_length=None, with_position=False), replace=True)
        self.table.optimize(cleanup_older_than=dt.timedelta(days=36500))   # no cleanup mid-write: the
        # journal's recorded version must survive until commit (Workbench._transaction cleans up)
        self._fts_ready = True
        self.index_vectors()
        self.index_columns(replace=True)

    def _fold(self) -> None:
        """New rows into the full-text and scalar indexes only (pylance's optimize_indices; the
        vector index is left as it is); a table of more than FRAGMENTS_MAX fragments is
        compacted first, which folds every index (LanceDB's optimize)."""
        self.index_columns()
        ds = self.table.to_lance()
        if len(ds.get_fragments()) > FRAGMENTS_MAX:
            self.table.optimize(cleanup_older_than=dt.timedelta(days=36500))
            return
        names = [i.name for i in self.table.list_indices() if i.index_type != "IvfHnswSq"]
        ds.optimize.optimize_indices(index_names=names)
        self.table.checkout_latest()

    def index_columns(self, replace: bool = False) -> None:
        """Scalar indexes on the columns every query filters (SCALAR): missing ones are made."""
        have = {c for i in self.table.list_indices() for c in i.columns}
        for col, kind in SCALAR:
            if (replace or col not in have) and col in self.table.schema.names:
                self.table.create_index(col, config=scalar_index(kind), replace=True)

    def has_vector_index(self) -> bool:
        return any(i.index_type == "IvfHnswSq" for i in self.table.list_indices())

    def index_vectors(self) -> bool:
        """An ANN index (IVF-HNSW, scalar-quantised, cosine) once there are enough vectors for
        an exact scan to cost more than the index: below ANN_MIN rows the scan is a few ms."""
        from lancedb.index import IvfHnswSq
        n = self.table.count_rows("embedded = true")
        if n < ANN_MIN:
            return False
        self.table.create_index("vector", config=IvfHnswSq(distance_type="cosine", num_partitions=max(1, n // 2000)),
                                replace=True)
        return True

    def get(self, ids: Iterable[str], vectors: bool = False) -> list[Unit]:
        """Units by id; with `vectors`, their vectors are read too and kept for `vectors()`."""
        ids = list(dict.fromkeys(ids))
        if not ids:
            return []
        found = {}
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            where = "id IN (" + ",".join(quote(x) for x in chunk) + ")"
            cols = self.columns + (["embedded", "vector"] if vectors else [])
            rows = self.table.search().where(where).select(cols).limit(len(chunk)).to_list()
            if vectors:
                self._remember(rows)
            found.update((r["id"], _unit(r)) for r in rows)
        return [found[i] for i in ids if i in found]

    def where(self, where: Filter | str, limit: int | None = None) -> list[Unit]:
        """Units matching a filter (in storage order), at most `limit`."""
        return [_unit(r) for r in self._query(sql(where), limit)]

    def frame(self, where: Filter | str | None = None, columns: Sequence[str] | None = None):
        """The units matching a filter as a polars DataFrame (every column but vectors and tokens,
        or `columns`)."""
        q = self.table.search()
        where = sql(where)
        if where:
            q = q.where(where)
        return q.select(list(columns or self.columns)).limit(self.count() or 1).to_polars()

    def search_text(self, query: str, language: str, k: int, where: Filter | str | None = None) -> list[Hit]:
        """Full-text (BM25) search over the tokenised text, filtered before ranking."""
        where = sql(where)
        q = query_text(query, language)
        if not q.strip() or not self._fts_ready:
            return []
        s = self.table.search(q, query_type="fts", fts_columns="search_text")
        if where:
            s = s.where(where, prefilter=True)
        s = s.select(self.columns + ["embedded", "vector", "_score"])
        rows = _settled(lambda n: s.limit(n).to_list(), lambda r: float(r["_score"]), k)
        self._remember(rows)
        return [Hit(r["id"], float(r["_score"]), "bm25", _unit(r)) for r in rows]

    def search_vector(self, vector: np.ndarray, k: int, where: Filter | str | None = None,
                      exact: bool = False) -> list[Hit]:
        """Nearest units by cosine. With an index, candidates are re-scored on the full vectors
        (refine factor REFINE), which brings recall against exact search to ~1.0;
        `exact=True` scans every row instead."""
        where = sql(where)
        cond = "embedded = true" + (f" AND ({where})" if where else "")
        q = (self.table.search(np.asarray(vector, dtype=np.float32), vector_column_name="vector")
             .metric("cosine").where(cond, prefilter=True))
        q = q.bypass_vector_index() if exact else q.refine_factor(REFINE)
        q = q.select(self.columns + ["embedded", "vector", "_distance"])
        rows = _settled(lambda n: q.limit(n).to_list(), lambda r: -float(r["_distance"]), k)
        self._remember(rows)
        return [Hit(r["id"], 1.0 - float(r["_distance"]), "dense", _unit(r)) for r in rows]

    def _remember(self, rows: list[dict]) -> None:
        """Keep the vectors that searches return, so re-ranking does not read them again."""
        if len(self._vectors) > 200_000:
            self._vectors.clear()
        for r in rows:
            if r.get("embedded"):
                self._vectors[r["id"]] = np.asarray(r["vector"], dtype=np.float32)

    def counts(self) -> list[dict]:
        """Rows grouped by corpus, key, version and kind: [{corpus, key, version, kind, count_all}]."""
        cols = ["corpus", "key", "version", "kind"]
        t = self.table.search().select(cols).limit(max(self.count(), 1)).to_arrow().select(cols)
        return t.group_by(cols).aggregate([([], "count_all")]).to_pylist()

    def count(self, where: Filter | str | None = None) -> int:
        where = sql(where)
        return self.table.count_rows(where) if where else self.table.count_rows()

    def vectors(self, ids: Iterable[str]) -> dict[str, np.ndarray]:
        """Stored vectors of the embedded units among `ids`."""
        ids = list(dict.fromkeys(ids))
        kept = self._vectors            # a search thread may clear it meanwhile (together.py)
        out = {i: v for i in ids if (v := kept.get(i)) is not None}
        ids = [i for i in ids if i not in out]
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            where = "embedded = true AND id IN (" + ",".join(quote(x) for x in chunk) + ")"
            t = self.table.search().where(where).select(["id", "vector"]).limit(len(chunk)).to_arrow()
            if t.num_rows:
                vecs = t["vector"].combine_chunks().flatten().to_numpy().reshape(-1, self.dim)
                out.update(zip(t["id"].to_pylist(), vecs))
        return out

    def ids_matching(self, where: Filter | str | None) -> set[str]:
        """Ids of the units a filter lets through (all of them for None)."""
        cond = sql(where)
        q = self.table.search().select(["id"]).limit(max(self.count(), 1))
        return set((q.where(cond) if cond else q).to_arrow().column("id").to_pylist())

    def ids(self) -> set[str]:
        n = max(self.count(), 1)
        return set(self.table.search().select(["id"]).limit(n).to_arrow().column("id").to_pylist())

    def refresh_names(self) -> int:
        """Compute the document rows' `names` and `read_with` again (after the naming rules in
        link/resolve.py changed), adding the columns to a workspace made before them; only
        changed rows are written. Returns how many changed."""
        import pyarrow as pa
        lists = pa.list_(pa.string())
        if not self.catalogued:
            self.table.add_columns(pa.schema([pa.field("names", lists), pa.field("read_with", lists)]))
            self.catalogued = True
            self.index_columns()
        rows = self.table.search().where("kind = 'document'").select(self.columns + ["names", "read_with"]) \
            .limit(max(self.count(), 1)).to_list()
        changed = {"id": [], "names": [], "read_with": []}
        for r in rows:
            u = _unit(r)
            names, read_with = stored_names(u)
            if (r["names"], r["read_with"]) != (names, read_with):
                for col, value in (("id", u.id), ("names", names), ("read_with", read_with)):
                    changed[col].append(value)
        if changed["id"]:
            self.table.merge_insert("id").when_matched_update_all().execute(pa.table(
                {"id": pa.array(changed["id"], pa.string()), "names": pa.array(changed["names"], lists),
                 "read_with": pa.array(changed["read_with"], lists)}))
        return len(changed["id"])

    def refresh_roles(self, batch: int = 500) -> int:
        """Classify every stored unit's role again (after parse/roles.py changed); only changed
        rows are written, one update per role and batch. Returns how many changed."""
        self._ensure_role()
        rows = self.table.search().select(["id", "text", "title", "language", "kind", "role", "parent_id"]) \
            .limit(max(self.count(), 1)).to_list()
        parts = enclosing_parts([SimpleNamespace(**r) for r in rows])
        changed: dict[str, list[str]] = {}
        for r in rows:
            role = provision_role(r["text"] or "", r["title"] or "", r["language"] or "", r["kind"], parts.get(r["id"], ""))
            if role != (r["role"] or ""):
                changed.setdefault(role, []).append(r["id"])
        for role, ids in changed.items():
            for i in range(0, len(ids), batch):
                self.table.update(where=in_list("id", ids[i:i + batch]), values={"role": role})
        return sum(map(len, changed.values()))

    def _query(self, where: str, limit: int | None):
        return self.table.search().where(where).select(self.columns).limit(limit or self.count() or 1).to_list()


_COLUMNS = ["id", "corpus", "key", "version", "kind", "label", "article_no", "title", "text", "language",
            "effective_from", "effective_to", "source_file", "line_start", "line_end", "parent_id",
            "ordinal", "attrs"]     # everything but the vector and the token column


def lead_ins(units: Sequence[Unit]) -> dict[str, str]:
    """For each point (a list item), the words introducing its list in the clause or article
    above it ("禁止生产经营下列食品：", "The Regulator may:"): a point is indexed with them,
    since "（九）超过保质期限的；" alone does not say what is forbidden."""
    by_id = {u.id: u for u in units}
    items: dict[str, list[Unit]] = {}
    for u in units:
        if u.kind == "point" and u.parent_id in by_id:
            items.setdefault(u.parent_id, []).append(u)
    out = {}
    for parent_id, points in items.items():
        head = min(points, key=lambda u: u.ordinal)
        at = by_id[parent_id].text.find(head.text[:40])
        lead = by_id[parent_id].text[:at].strip()[-LEAD_MAX:] if at > 0 else ""
        out.update({u.id: lead for u in points if lead})
    return out


LEAD_MAX = 300      # characters of a list's introduction kept with each of its items


def _row(u: Unit, lead: str = "") -> dict:
    names, read_with = stored_names(u)
    return {
        "id": u.id, "corpus": u.corpus, "key": u.key, "version": u.version, "kind": u.kind,
        "label": u.label, "article_no": u.article_no, "title": u.title, "text": u.text,
        "language": u.language, "effective_from": u.effective_from, "effective_to": u.effective_to,
        "source_file": u.source_file, "line_start": u.line_start, "line_end": u.line_end,
        "parent_id": u.parent_id, "ordinal": u.ordinal, "attrs": json.dumps(dict(u.attrs), ensure_ascii=False),
        "search_text": search_text(f"{u.title}\n{lead}\n{u.text}", u.language),
        "role": u.role or provision_role(u.text, u.title, u.language, u.kind),
        "names": names, "read_with": read_with,
    }


def _unit(r: dict) -> Unit:
    attrs = tuple(json.loads(r.get("attrs") or "{}").items())
    dates = {f: (r[f] if isinstance(r.get(f), dt.date) or r.get(f) is None else dt.date.fromisoformat(str(r[f])))
             for f in _DATE_FIELDS}
    return Unit(id=r["id"], key=r["key"], version=r["version"], kind=r["kind"], label=r["label"] or "",
                title=r["title"] or "", text=r["text"] or "", language=r["language"] or "",
                article_no=r["article_no"], source_file=r["source_file"] or "",
                line_start=r["line_start"] or 0, line_end=r["line_end"] or 0, parent_id=r["parent_id"],
                ordinal=r["ordinal"] or 0, corpus=r["corpus"] or "", attrs=attrs, **dates,
                role=r.get("role") or provision_role(r["text"] or "", r["title"] or "", r["language"] or "", r["kind"]))

"""The graph on disk: Parquet tables beside the units, read into igraph whole on open.

- `graph_nodes.parquet`: one row per vertex, in vertex order; a column per vertex attribute
  (`name`, the unit id or placeholder).
- `graph_edges.parquet`: one row per edge, in edge order; `source` and `target` (int32 row
  numbers in the node table), then a column per edge attribute as the edges carry it in
  igraph (store/graph.py): type, evidence, confidence, extractor, resolved, attrs (the
  edge's extra pairs as a JSON object), corpus, layer. Text columns with many repeats are
  dictionary-encoded (on load their values become shared Python objects, as in the pickle).

These two are the *base*. The edits of the saves since the base was written are three more
files, the *delta*, so that a save after one small ingest writes what the ingest changed and
not the whole graph (at a million units, rewriting the base takes seconds):

- `graph_nodes_new.parquet`: the vertices added since (vertices are never deleted);
- `graph_edges_new.parquet`: the edges added since, `source` / `target` numbering all vertices;
- `graph_edges_dropped.parquet`: the base rows of the edges deleted since (column `row`).

The graph read is: base vertices then new ones; base edges less the dropped rows, in base
order, then the new edges. A save rewrites the delta whole (it holds every edit since the
base), and writes a new base instead (deleting the delta) when the delta would exceed
FOLD_SHARE of the base's rows (vertices + edges). 5 %: a load reads at most 5 % more rows
than the graph has, and the cost of rewriting the base is spread over at least 5 % of the
graph's size in edits; a graph smaller than FOLD_MIN rows is always written whole (a
fraction of a second at that size, and one file pair to look at).

Every file carries, in its Parquet key-value metadata under `workbench.graph`, the format
number, its row counts and a token drawn anew on every save (the delta files also the token
of the base they extend): files of different saves are refused (GraphFileError) instead of
being read as one graph.
Loading is columnar: `Graph(n, edges)` from the index columns, then one assignment per
attribute (`g.es[name] = column`), no Python loop per edge.

Why Parquet files and not LanceDB tables: igraph holds the graph in memory and nothing
queries it in place; files replaced by rename keep the guarantees of the transaction as they
are (store/journal.py): the names in FILES are files the journal hard-links before the write
and puts back (or removes, for ones created) on roll-back, and readers of an unfinished write
read the kept links. The files are plain Parquet, readable by polars / DuckDB / pyarrow from
the workspace folder (`pl.read_parquet`). On object storage (store/remote.py) they travel
with each committed state.

Older workspaces have `graph.pickle` (igraph's pickle): it is read when the Parquet base is
absent, and the next save writes the base and deletes the pickle (inside a transaction the
journal keeps it, so a roll-back brings it back).
"""
from __future__ import annotations

import gc
import json
import os
import uuid
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import Mapping

from ..core.errors import WorkbenchError
from .journal import fsync_path

NODES = "graph_nodes.parquet"
EDGES = "graph_edges.parquet"
NODES_NEW = "graph_nodes_new.parquet"
EDGES_NEW = "graph_edges_new.parquet"
DROPPED = "graph_edges_dropped.parquet"
DELTA = (NODES_NEW, EDGES_NEW, DROPPED)
LEGACY = "graph.pickle"
FILES = (NODES, EDGES, *DELTA, LEGACY)      # what a save may replace, create or delete (for the journal)
FORMAT = 2          # 2: a base may be followed by delta files (a reader of format 1 would not see them)
KEY = b"workbench.graph"
ENDS = ("source", "target")
FOLD_SHARE = 0.05
FOLD_MIN = 50_000


@dataclass(frozen=True)
class Base:
    """The base files as read or written: their token and row counts. With it, `origin`: per
    edge of the graph in memory, its base row, or -1 for an edge added since (kept in step
    with the edits by store/graph.py)."""
    token: str
    vertices: int
    edges: int


@dataclass
class Loaded:
    g: object
    ends: object = None          # the edge list as an (edges, 2) array (None for a pickle / no graph)
    base: Base | None = None
    origin: object = None
    names: object = None         # the vertex names as an Arrow array
    tables: tuple = ()           # the edge tables read (base rows kept, then the new edges), for columns


class GraphFileError(WorkbenchError, ValueError):
    """A graph file that cannot be read as (one part of) a saved graph. A ValueError too, so
    that Workbench.open retries first, in case a writer replaced the files while it read."""

    def __init__(self, file: Path, reason: str, fix: str = "restore the workspace's graph files from a backup, "
                 "or ingest the corpora into a new --workspace"):
        super().__init__(f"{file}: {reason}; {fix}")


def read(ig, files: Mapping[str, Path]):
    """The graph in `files` (name in FILES -> the path to read it from): the Parquet base and
    delta, else the legacy pickle, else an empty graph (a workspace with no graph yet)."""
    return load(ig, files).g


def load(ig, files: Mapping[str, Path]) -> Loaded:
    """`read`, with the edge list, the base and each edge's origin when Parquet files held it."""
    paths = {name: Path(files[name]) for name in FILES}
    _all_or_none(paths, (NODES, EDGES), "a save cut short outside a transaction, or a file deleted by hand")
    have_base = paths[NODES].exists()
    if not have_base and any(paths[n].exists() for n in DELTA):
        raise GraphFileError(paths[NODES], "missing, while the graph's delta files are there (a file deleted by hand)")
    paused = gc.isenabled()
    gc.disable()            # loading creates objects per edge; collecting between them is wasted time
    try:
        if have_base:
            try:
                return _read_parquet(ig, paths)
            except GraphFileError:
                raise
            except Exception as e:    # columns of the wrong type, edges igraph refuses ...
                raise GraphFileError(paths[EDGES], f"cannot be read as a graph ({type(e).__name__}: {e})") from None
        if paths[LEGACY].exists():
            return Loaded(_read_pickle(ig, paths[LEGACY]))
        return Loaded(ig.Graph(directed=True))
    finally:
        if paused:
            gc.enable()


def _all_or_none(paths: dict, names: tuple, why: str) -> None:
    there = [n for n in names if paths[n].exists()]
    if there and len(there) < len(names):
        missing = next(n for n in names if n not in there)
        raise GraphFileError(paths[missing], f"missing, while {there[0]} is there ({why})")


def write(g, folder: Path, ends=None, base: Base | None = None, origin=None):
    """Save `g` in `folder`: the delta since `base` when `origin` (see Base) says what it is and
    it is small (FOLD_SHARE), else a new base. Files are written to temporary names and synced,
    then each put in place by rename (a reader sees an old file or a new one, never half of
    one). `ends`: the edge list as an (edges, 2) integer array when the caller keeps one
    (reading it out of igraph takes a second at a million edges). Returns (base, origin) of
    the files now on disk, to pass to the next write."""
    import numpy as np
    folder.mkdir(parents=True, exist_ok=True)
    if ends is None:
        ends = np.fromiter(chain.from_iterable(g.get_edgelist()), np.int32, 2 * g.ecount()).reshape(-1, 2)
    ends = np.asarray(ends, dtype=np.int32)
    delta = _delta(g, base, origin)
    if delta is None:
        token = uuid.uuid4().hex
        meta = _stamp(g, token, vertices=g.vcount(), edges=g.ecount())
        nodes = _table({a: g.vs[a] for a in g.vs.attributes()}, "vertex", meta)
        edges = _table(_edge_columns(g, ends), "edge", meta)
        _put(folder, {NODES: nodes, EDGES: edges}, order=(EDGES, NODES), remove=(*DELTA, LEGACY))
        return Base(token, g.vcount(), g.ecount()), np.arange(g.ecount())
    start, dropped = delta
    if start == g.ecount() and not len(dropped) and g.vcount() == base.vertices:
        _put(folder, {}, (), remove=DELTA)                         # nothing changed since the base
        return base, origin
    meta = _stamp(g, uuid.uuid4().hex, base=base.token, vertices=g.vcount() - base.vertices,
                  edges=g.ecount() - start, dropped=len(dropped))
    tables = {NODES_NEW: _table({a: g.vs[base.vertices:][a] for a in g.vs.attributes()}, "vertex", meta),
              EDGES_NEW: _table(_edge_columns(g, ends, start), "edge", meta),
              DROPPED: _table({"row": np.asarray(dropped, dtype=np.int64)}, "row", meta)}
    _put(folder, tables, order=DELTA, remove=(LEGACY,))
    return base, origin


def _delta(g, base: Base | None, origin):
    """(index of the first edge added since the base, dropped base rows) when a delta save can
    stand for `g`, else None."""
    import numpy as np
    if base is None or origin is None or len(origin) != g.ecount() or g.vcount() < base.vertices \
            or base.vertices + base.edges < FOLD_MIN or g.attributes():
        return None
    kept = int(np.count_nonzero(origin >= 0))
    head, tail = origin[:kept], origin[kept:]
    if (tail >= 0).any() or (len(head) and (head.max() >= base.edges or (np.diff(head) <= 0).any())):
        return None           # not base rows in base order then new edges: write a new base
    gone = np.ones(base.edges, dtype=bool)
    gone[head] = False
    dropped = np.flatnonzero(gone)
    if len(tail) + len(dropped) + g.vcount() - base.vertices > FOLD_SHARE * (base.vertices + base.edges):
        return None
    return kept, dropped


def _put(folder: Path, tables: dict, order: tuple, remove: tuple) -> None:
    import pyarrow.parquet as pq
    for name, table in tables.items():
        tmp = folder / (name + ".tmp")
        pq.write_table(table, tmp, compression="zstd")
        fsync_path(tmp)
    for name in order:
        _replace(folder / (name + ".tmp"), folder / name)
    for name in remove:
        (folder / name).unlink(missing_ok=True)
    fsync_path(folder)


def _replace(tmp: Path, dst: Path) -> None:
    os.replace(tmp, dst)


def _stamp(g, token: str, **counts) -> dict:
    meta = {"format": FORMAT, "token": token, **counts, "directed": g.is_directed(),
            "graph": {a: g[a] for a in g.attributes()}}
    return {KEY: json.dumps(meta, ensure_ascii=False).encode()}


def _edge_columns(g, ends, start: int = 0) -> dict:
    """The edges from `start` on as columns: their ends, then one per attribute."""
    for name in ENDS:
        if name in g.es.attributes():
            raise ValueError(f"an edge attribute may not be called {name!r}: the edge table uses it")
    seq = g.es[start:] if start < g.ecount() else None
    cols = {"source": ends[start:, 0], "target": ends[start:, 1]}
    cols.update({a: (seq[a] if seq is not None else []) for a in g.es.attributes()})
    return cols


def _table(columns: dict, what: str, stamp: dict):
    import pyarrow as pa
    return pa.table({k: _column(f"{what} attribute {k!r}", v) for k, v in columns.items()}).replace_schema_metadata(stamp)


def _column(what: str, values):
    """One attribute as an Arrow array; text with many repeats dictionary-encoded."""
    import pyarrow as pa
    try:
        array = pa.array(values)
    except (pa.ArrowInvalid, pa.ArrowTypeError) as e:
        raise ValueError(f"the graph's {what} holds values a Parquet column cannot store: {e}") from None
    if pa.types.is_string(array.type) or pa.types.is_large_string(array.type):
        encoded = array.dictionary_encode()           # one hash pass decides and encodes
        if len(encoded.dictionary) * 2 <= len(array):
            return encoded
    return array


def _values(column) -> list:
    """A Parquet column as the list of Python values igraph stores, converted in bulk."""
    import numpy as np
    import pyarrow as pa
    array = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    if pa.types.is_dictionary(array.type):
        shared = np.empty(len(array.dictionary) + 1, dtype=object)     # one object per distinct value
        shared[:-1] = array.dictionary.to_pylist()
        return shared[array.indices.fill_null(len(array.dictionary)).to_numpy()].tolist()
    if array.null_count or not (pa.types.is_string(array.type) or pa.types.is_large_string(array.type)
                                or pa.types.is_integer(array.type) or pa.types.is_floating(array.type)
                                or pa.types.is_boolean(array.type)):
        return array.to_pylist()
    return array.to_numpy(zero_copy_only=False).tolist()


def _meta(path: Path, schema) -> dict:
    try:
        meta = json.loads((schema.metadata or {})[KEY])
    except (KeyError, ValueError):
        raise GraphFileError(path, "not a graph file of this workbench (no `workbench.graph` metadata)") from None
    if meta.get("format", 0) > FORMAT:
        raise GraphFileError(path, f"written in graph format {meta.get('format')} by a newer workbench "
                                   f"(this one reads up to {FORMAT})", "upgrade the workbench")
    return meta


def _open(path: Path):
    import pyarrow.parquet as pq
    try:
        table = pq.read_table(path)
    except Exception as e:        # truncated, overwritten, not Parquet at all ...
        raise GraphFileError(path, f"cannot be read as Parquet ({type(e).__name__}: {e})") from None
    return table, _meta(path, table.schema)


def _read_parquet(ig, paths: dict) -> Loaded:
    import numpy as np
    import pyarrow as pa
    (n_table, n_meta), (e_table, e_meta) = _open(paths[NODES]), _open(paths[EDGES])
    if n_meta["token"] != e_meta["token"]:
        raise GraphFileError(paths[EDGES], f"not saved together with {NODES} (a save cut short outside a "
                                           "transaction, or files copied from different states)")
    _counts(paths[EDGES], n_table, n_meta["vertices"], e_table, e_meta["edges"])
    base = Base(n_meta["token"], n_meta["vertices"], e_meta["edges"])
    ends = np.column_stack([e_table.column(c).to_numpy() for c in ENDS]).astype(np.int64, copy=False)
    origin, meta, n = np.arange(base.edges), n_meta, base.vertices
    parts_n, parts_e = [n_table], [e_table]
    _all_or_none(paths, DELTA, "a file deleted by hand")
    if paths[EDGES_NEW].exists():
        (dn, meta), (de, de_meta), (dd, dd_meta) = (_open(paths[n]) for n in DELTA)
        if {meta["token"], de_meta["token"]} != {dd_meta["token"]} or meta.get("base") != base.token:
            raise GraphFileError(paths[EDGES_NEW], f"not saved together with {NODES} and the other delta "
                                                   "files (files copied from different states)")
        _counts(paths[EDGES_NEW], dn, meta["vertices"], de, meta["edges"])
        rows = dd.column("row").to_numpy() if "row" in dd.column_names else np.zeros(0, np.int64)
        if len(rows) != meta["dropped"] or (len(rows) and (rows.min() < 0 or rows.max() >= base.edges)):
            raise GraphFileError(paths[DROPPED], "rows outside the base's edges, or not as many as the save recorded")
        keep = np.ones(base.edges, dtype=bool)
        keep[rows] = False
        origin = np.concatenate([np.flatnonzero(keep), np.full(de.num_rows, -1)])
        new = np.column_stack([de.column(c).to_numpy() for c in ENDS]).astype(np.int64, copy=False)
        ends = np.concatenate([ends[keep], new.reshape(-1, 2)])
        parts_n, parts_e = [n_table, dn], [e_table.filter(pa.array(keep)), de]
        n += meta["vertices"]
    if len(ends) and (ends.min() < 0 or ends.max() >= n):
        raise GraphFileError(paths[EDGES], f"an edge names a vertex outside the {n} of the node tables")
    g = ig.Graph(n=n, edges=ends, directed=n_meta.get("directed", True))
    for seq, parts in ((g.vs, parts_n), (g.es, parts_e)):
        for name in dict.fromkeys(c for t in parts for c in t.column_names if c not in ENDS):
            values = [_values(t.column(name)) if name in t.column_names else [None] * t.num_rows for t in parts]
            seq[name] = values[0] if len(values) == 1 else list(chain.from_iterable(values))
    for name, value in meta.get("graph", {}).items():
        g[name] = value
    names = None
    if all("name" in t.column_names for t in parts_n):
        names = column(parts_n, "name")
    return Loaded(g, ends, base, origin, names, tuple(parts_e))


def column(tables, name: str):
    """One column of several tables (of `Loaded.tables`) as one Arrow array, text decoded."""
    import pyarrow as pa
    chunks = [_plain(c) if name in t.column_names else pa.nulls(t.num_rows)
              for t in tables for c in (t.column(name).chunks if name in t.column_names else [None])]
    kind = next((c.type for c in chunks if not pa.types.is_null(c.type)), pa.string())
    return pa.concat_arrays([c.cast(kind) for c in chunks]) if chunks else pa.array([], kind)


def _plain(column):
    """A text column with its dictionary encoding undone (Arrow, no Python objects)."""
    import pyarrow as pa
    return column.cast(column.type.value_type) if pa.types.is_dictionary(column.type) else column


def _counts(path: Path, nodes, vertices: int, edges, n_edges: int) -> None:
    if (nodes.num_columns and nodes.num_rows != vertices) or edges.num_rows != n_edges \
            or set(ENDS) - set(edges.column_names):
        raise GraphFileError(path, "row counts or columns differ from what the save recorded")


def _read_pickle(ig, path: Path):
    try:
        return ig.Graph.Read_Pickle(str(path))
    except Exception as e:            # truncated, overwritten, not a pickle of a graph ...
        raise GraphFileError(path, f"cannot be read as a pickled graph ({type(e).__name__}: {e})") from None

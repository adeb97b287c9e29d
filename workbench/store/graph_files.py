"""The graph on disk: two Parquet tables beside the units, read into igraph whole on open.

- `graph_nodes.parquet`: one row per vertex, in vertex order; a column per vertex attribute
  (`name`, the unit id or placeholder).
- `graph_edges.parquet`: one row per edge, in edge order; `source` and `target` (int32 row
  numbers in the node table), then a column per edge attribute as the edges carry it in
  igraph (store/graph.py): type, evidence, confidence, extractor, resolved, attrs (the
  edge's extra pairs as a JSON object), corpus, layer. Text columns with many repeats are
  dictionary-encoded (on load their values become shared Python objects, as in the pickle).

Both files carry, in their Parquet key-value metadata under `workbench.graph`, the format
number, the vertex and edge counts and a token drawn anew on every save: a node file and an
edge file of different saves are refused (GraphFileError) instead of being read as one graph.
Loading is columnar: `Graph(n, edges)` from the two index columns, then one assignment per
attribute (`g.es[name] = column`), no Python loop per edge.

Why Parquet files and not LanceDB tables. The graph is rewritten whole on every save (igraph
holds it in memory; there are no partial updates), which is what a file replaced by rename
does, and it keeps the guarantees of the transaction as they are (store/journal.py): the
three names in FILES are files the journal hard-links before the write and puts back (or
removes, for ones created) on roll-back, and readers of an unfinished write read the kept
links — no second kind of versioning beside it. As LanceDB tables each save would add a
table version (overwrite) to be recorded, pinned by readers (`checkout`), restored on
roll-back and cleaned up, in three more places (open, `_begin`, the server's reload stamp),
for no gain: nothing queries the graph in place. The files are plain Parquet, readable by
polars / DuckDB / pyarrow from the workspace folder as they are (`pl.read_parquet`). The
choice rests on a local folder, where rename is atomic and hard links exist; a workspace at
an object-store URI (s3://) would have neither, and there LanceDB tables, whose commits are
atomic, would be the fit (the same columns, written with `mode="overwrite"`).

Older workspaces have `graph.pickle` (igraph's pickle): it is read when the Parquet pair is
absent, and the next save writes the pair and deletes the pickle (inside a transaction the
journal keeps it, so a roll-back brings it back).
"""
from __future__ import annotations

import gc
import json
import os
import uuid
from itertools import chain
from pathlib import Path
from typing import Mapping

from ..core.errors import WorkbenchError
from .journal import fsync_path

NODES = "graph_nodes.parquet"
EDGES = "graph_edges.parquet"
LEGACY = "graph.pickle"
FILES = (NODES, EDGES, LEGACY)      # what a save may replace, create or delete (for the journal)
FORMAT = 1
KEY = b"workbench.graph"
ENDS = ("source", "target")


class GraphFileError(WorkbenchError, ValueError):
    """A graph file that cannot be read as (one half of) a saved graph. A ValueError too, so
    that Workbench.open retries first, in case a writer replaced the files while it read."""

    def __init__(self, file: Path, reason: str, fix: str = "restore the workspace's graph files from a backup, "
                 "or ingest the corpora into a new --workspace"):
        super().__init__(f"{file}: {reason}; {fix}")


def read(ig, files: Mapping[str, Path]):
    """The graph in `files` (name in FILES -> the path to read it from): the Parquet pair,
    else the legacy pickle, else an empty graph (a workspace with no graph yet)."""
    return load(ig, files)[0]


def load(ig, files: Mapping[str, Path]):
    """`read`, and the edge list as an (edges, 2) array when the Parquet pair held it (else None)."""
    nodes, edges, legacy = Path(files[NODES]), Path(files[EDGES]), Path(files[LEGACY])
    have_nodes, have_edges = nodes.exists(), edges.exists()
    if have_nodes != have_edges:
        missing, there = (edges, nodes) if have_nodes else (nodes, edges)
        raise GraphFileError(missing, f"missing, while {there.name} is there (a save cut short outside a "
                                      "transaction, or a file deleted by hand)")
    paused = gc.isenabled()
    gc.disable()            # loading creates objects per edge; collecting between them is wasted time
    try:
        if have_nodes:
            try:
                return _read_parquet(ig, nodes, edges)
            except GraphFileError:
                raise
            except Exception as e:    # columns of the wrong type, edges igraph refuses ...
                raise GraphFileError(edges, f"cannot be read as a graph ({type(e).__name__}: {e})") from None
        if legacy.exists():
            return _read_pickle(ig, legacy), None
        return ig.Graph(directed=True), None
    finally:
        if paused:
            gc.enable()


def write(g, folder: Path, ends=None) -> None:
    """Save `g` as the Parquet pair in `folder`: both written to temporary files and synced,
    then each put in place by rename (a reader sees an old file or a new one, never half of
    one), then the legacy pickle deleted. `ends`: the edge list as an (edges, 2) integer array
    when the caller keeps one (reading it out of igraph takes a second at a million edges)."""
    import pyarrow.parquet as pq
    folder.mkdir(parents=True, exist_ok=True)
    nodes, edges = _tables(g, ends)
    for name, table in ((NODES, nodes), (EDGES, edges)):
        tmp = folder / (name + ".tmp")
        pq.write_table(table, tmp, compression="zstd")
        fsync_path(tmp)
    for name in (EDGES, NODES):
        _replace(folder / (name + ".tmp"), folder / name)
    (folder / LEGACY).unlink(missing_ok=True)
    fsync_path(folder)


def _replace(tmp: Path, dst: Path) -> None:
    os.replace(tmp, dst)


def _tables(g, ends=None):
    import numpy as np
    import pyarrow as pa
    for name in ENDS:
        if name in g.es.attributes():
            raise ValueError(f"an edge attribute may not be called {name!r}: the edge table uses it")
    meta = {"format": FORMAT, "token": uuid.uuid4().hex, "vertices": g.vcount(), "edges": g.ecount(),
            "directed": g.is_directed(), "graph": {a: g[a] for a in g.attributes()}}
    stamp = {KEY: json.dumps(meta, ensure_ascii=False).encode()}
    node_cols = {a: _column(f"vertex attribute {a!r}", g.vs[a]) for a in g.vs.attributes()}
    if ends is None:
        ends = np.fromiter(chain.from_iterable(g.get_edgelist()), np.int32, 2 * g.ecount()).reshape(-1, 2)
    ends = np.asarray(ends, dtype=np.int32)
    edge_cols = {"source": pa.array(ends[:, 0]), "target": pa.array(ends[:, 1])}
    edge_cols.update({a: _column(f"edge attribute {a!r}", g.es[a]) for a in g.es.attributes()})
    return (pa.table(node_cols).replace_schema_metadata(stamp),
            pa.table(edge_cols).replace_schema_metadata(stamp))


def _column(what: str, values: list):
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


def _read_parquet(ig, nodes: Path, edges: Path):
    import numpy as np
    import pyarrow.parquet as pq
    tables = {}
    for path in (nodes, edges):
        try:
            tables[path] = pq.read_table(path)
        except Exception as e:        # truncated, overwritten, not Parquet at all ...
            raise GraphFileError(path, f"cannot be read as Parquet ({type(e).__name__}: {e})") from None
    n_table, e_table = tables[nodes], tables[edges]
    n_meta, e_meta = _meta(nodes, n_table.schema), _meta(edges, e_table.schema)
    if n_meta["token"] != e_meta["token"]:
        raise GraphFileError(edges, f"not saved together with {nodes.name} (a save cut short outside a "
                                    "transaction, or files copied from different states)")
    n = n_meta["vertices"]
    if (n_table.num_columns and n_table.num_rows != n) or e_table.num_rows != e_meta["edges"] \
            or set(ENDS) - set(e_table.column_names):
        raise GraphFileError(edges, "row counts or columns differ from what the save recorded")
    ends = np.column_stack([e_table.column(c).to_numpy() for c in ENDS]).astype(np.int64, copy=False)
    if len(ends) and (ends.min() < 0 or ends.max() >= n):
        raise GraphFileError(edges, f"an edge names a vertex outside the {n} of {nodes.name}")
    g = ig.Graph(n=n, edges=ends, directed=n_meta.get("directed", True))
    for name in n_table.column_names:
        g.vs[name] = _values(n_table.column(name))
    for name in e_table.column_names:
        if name not in ENDS:
            g.es[name] = _values(e_table.column(name))
    for name, value in n_meta.get("graph", {}).items():
        g[name] = value
    return g, ends


def _read_pickle(ig, path: Path):
    try:
        return ig.Graph.Read_Pickle(str(path))
    except Exception as e:            # truncated, overwritten, not a pickle of a graph ...
        raise GraphFileError(path, f"cannot be read as a pickled graph ({type(e).__name__}: {e})") from None

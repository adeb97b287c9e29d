"""Edges in an igraph directed multigraph, persisted beside the unit store.

Vertices are unit ids (the `name` attribute); a target that is not (yet) a unit is a
vertex all the same, and its edges carry resolved=False. Edges remember the corpus
that produced them, so re-ingesting a corpus replaces exactly its own edges. On disk the
graph is Parquet tables of nodes and edges, and of the edits since they were written
(store/graph_files.py; formerly a pickle). Edits are deferred: replacing a corpus's edges marks
and queues, and igraph gets them in one deletion and one addition when it is next read or
saved (`g`, _flush); the store's own filters read kept numpy columns, not igraph.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from ..core.errors import BackendUnavailable
from ..core.records import Edge, EdgeColumns, EdgeType
from ..link.versions import ALIGN_EXTRACTOR, VERSION_EXTRACTORS
from . import graph_files
from .graph_files import FILES, GraphFileError  # noqa: F401  (the workspace's graph files; what a bad one raises)


def _igraph():
    try:
        import igraph
    except ImportError:
        raise BackendUnavailable("igraph", "install the project: `make setup` (or `pip install igraph`)") from None
    return igraph


CODED = ("corpus", "layer", "type")      # edge attributes kept as integer codes from load on (_col)


def _encode(values):
    """(codes, values, lookup) of an attribute given as a list or an Arrow array (see _col)."""
    import numpy as np
    import pyarrow as pa
    array = values if isinstance(values, (pa.Array, pa.ChunkedArray)) else pa.array(values)
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    if pa.types.is_null(array.type):          # all None: as text, so None keeps its own code
        array = array.cast(pa.string())
    if pa.types.is_dictionary(array.type):
        array = array.cast(array.type.value_type)
    encoded = array.dictionary_encode()
    distinct = encoded.dictionary.to_pylist()
    codes = encoded.indices.fill_null(len(distinct)).to_numpy().astype(np.int32)
    if encoded.null_count:
        distinct.append(None)
    return codes, distinct, {v: i for i, v in enumerate(distinct)}


def stamp(files) -> tuple:
    """Which files these are: inode, modification time and size of each (None when missing)."""
    out = []
    for f in files:
        try:
            st = Path(f).stat()
            out.append((st.st_ino, st.st_mtime_ns, st.st_size))
        except OSError:
            out.append(None)
    return tuple(out)


class IGraphStore:
    def __init__(self, folder: str | Path, read_from: Mapping[str, Path] | None = None):
        """`read_from`: name in FILES -> the file to load instead of the folder's own (the last
        committed graph while a write is unfinished, journal.committed_files); saving always
        writes the folder's."""
        self.folder = Path(folder)
        files = read_from or {name: self.folder / name for name in FILES}
        self.stamp = stamp(files.values())          # taken before reading: a newer file reads as changed
        loaded = graph_files.load(_igraph(), files)
        self._g, self._ends = loaded.g, loaded.ends     # the edge list as read (see _edge_list)
        self._gone, self._added = None, []      # edits not yet applied to igraph (see _flush)
        self._base, self._origin = loaded.base, loaded.origin   # what a save extends (graph_files.Base)
        self._names = loaded.names           # vertex names as an Arrow array (see _names_array)
        self.dirty = False
        self._cols: dict = {a: _encode(graph_files.column(loaded.tables, a))        # see _col
                            for a in CODED if any(a in t.column_names for t in loaded.tables)}
        if self._g.ecount() and "layer" not in self._g.es.attributes():
            self._g.es["layer"] = ["structure"] * self._g.ecount()    # graphs saved before edge layers
            self._origin = None                                       # (every edge changed: a new base)
        self._index = {name: i for i, name in enumerate(self._g.vs["name"])} if self._g.vcount() else {}

    @property
    def g(self):
        """The igraph graph, with every edit applied (see _flush)."""
        self._flush()
        return self._g

    def _count(self) -> int:
        """Edges, counting the edits not yet applied to igraph."""
        return self._kept() + len(self._added)

    def _kept(self) -> int:
        """igraph's edges not marked for deletion."""
        return self._g.ecount() - (int(self._gone.sum()) if self._gone is not None else 0)

    def _flush(self) -> None:
        """Apply the deferred edits to igraph: one deletion and one addition, however many
        corpora were replaced since (igraph rebuilds its edge index on each: a few tenths of a
        second at a million edges, per call). The kept edge list, columns and origins are the
        edges as edited all along; igraph keeps the order of the edges it keeps and appends."""
        import numpy as np
        gone, added = self._gone, self._added
        self._gone, self._added = None, []
        if gone is not None and gone.any():
            self._g.delete_edges(np.flatnonzero(gone).tolist())
        if added:
            start = self._g.ecount()
            self._g.add_edges([pair for pair, _ in added])
            seq = self._g.es[start:]
            for attr in added[0][1]:
                seq[attr] = [values[attr] for _, values in added]

    def _where(self, **equal) -> list[int]:
        """Indices of the edges whose attributes equal these values, compared in numpy (igraph's
        `select` compares edge by edge in Python: seconds at a million edges)."""
        import numpy as np
        if not self._count():
            return []
        keep = np.ones(self._count(), dtype=bool)
        for attr, value in equal.items():
            codes, _, lookup = self._col(attr)
            keep &= codes == lookup.get(value, -1)
        return np.flatnonzero(keep).tolist()

    def _col(self, attr: str):
        """An edge attribute as (codes, values, lookup): an integer code per edge in edge order,
        the value of each code, and value -> code. Kept from call to call and updated by this
        store's own edits; made from the Parquet columns on load (a filter on 1.5M edges: ~60 ms
        comparing Python strings, ~15 ms comparing codes, by hand with cProfile)."""
        col = self._cols.get(attr)
        if col is None or len(col[0]) != self._count():
            col = self._cols[attr] = _encode(self.g.es[attr])
        return col

    def _names_array(self):
        """The vertex names as an Arrow string array (kept; extended by _ensure_vertices)."""
        import pyarrow as pa
        if self._names is None or len(self._names) != self._g.vcount():
            self._names = pa.array(self._g.vs["name"] if self._g.vcount() else [], pa.string())
        return self._names

    def _edge_list(self):
        """The edges as an (edges, 2) array of vertex indices, in edge order: kept from load and
        updated by this store's own edits; read out of igraph (a second at a million edges) only
        when none is kept."""
        import numpy as np
        self._sync()
        if self._ends is None:
            self._ends = np.asarray(self.g.get_edgelist(), dtype=np.int64).reshape(-1, 2)
        return self._ends

    def _sync(self) -> None:
        """Drop a kept column, edge list or edge origin whose length no longer matches igraph's
        (the graph edited from outside; the store's own methods keep them in step, and `g` is to
        be edited only through them: an edit from outside that keeps the number of edges is not
        seen by a save that writes only the delta, graph_files.write)."""
        n = self._count()
        if self._ends is not None and len(self._ends) != n:
            self._ends = None
        if self._origin is not None and len(self._origin) != n:
            self._origin = None
        self._cols = {a: c for a, c in self._cols.items() if len(c[0]) == n}

    def _delete(self, ids: list[int]) -> None:
        """Delete edges by index: marked, applied to igraph by _flush."""
        import numpy as np
        self._sync()
        if ids:
            self._keep_columns()
            kept = self._kept()
            ids_ = np.asarray(ids)
            if self._gone is None:
                self._gone = np.zeros(self._g.ecount(), dtype=bool)
            self._gone[np.flatnonzero(~self._gone)[ids_[ids_ < kept]]] = True
            if (ids_ >= kept).any():
                drop = set((ids_[ids_ >= kept] - kept).tolist())
                self._added = [a for i, a in enumerate(self._added) if i not in drop]
            self._cols = {a: (np.delete(c, ids), v, k) for a, (c, v, k) in self._cols.items()}
            if self._ends is not None:
                self._ends = np.delete(self._ends, ids, axis=0)
            if self._origin is not None:
                self._origin = np.delete(self._origin, ids)

    def _keep_columns(self) -> None:
        """Before an edit is deferred: the edge list and the coded columns read from igraph
        while it still holds every edge (afterwards they are kept in step by the edits)."""
        self._edge_list()
        for attr in CODED:
            if self._count() and attr in self._g.es.attributes():
                self._col(attr)

    def current(self) -> bool:
        """Unchanged in memory and on disk since it was read or saved (a writer may keep it)."""
        return not self.dirty and self.stamp == stamp(self.folder / name for name in FILES)

    def replace_corpus(self, corpus: str, edges: Sequence[Edge], layer: str = "structure") -> None:
        """Make the corpus's edges of one layer (structure, links, versions, semantic) exactly `edges`."""
        import numpy as np
        self.dirty = True
        self._delete(self._where(corpus=corpus, layer=layer))      # (which drops copies out of step)
        unique = list({e.key: e for e in edges}.values())
        if not unique:
            return
        self._ensure_vertices({e.source for e in unique} | {e.target for e in unique})
        self._keep_columns()
        pairs = [(self._index[e.source], self._index[e.target]) for e in unique]
        values = [{"type": e.type.value, "evidence": e.evidence, "confidence": e.confidence,
                   "extractor": e.extractor, "resolved": e.resolved,
                   "attrs": json.dumps(dict(e.attrs), ensure_ascii=False), "corpus": corpus, "layer": layer}
                  for e in unique]
        self._added += list(zip(pairs, values))
        if self._ends is not None:
            self._ends = np.concatenate([self._ends, np.asarray(pairs, dtype=self._ends.dtype).reshape(-1, 2)])
        if self._origin is not None:
            self._origin = np.concatenate([self._origin, np.full(len(pairs), -1)])
        for attr, (codes, known, lookup) in list(self._cols.items()):
            new = [lookup.setdefault(v[attr], len(lookup)) for v in values]
            known.extend(list(lookup)[len(known):])
            self._cols[attr] = (np.concatenate([codes, np.asarray(new, dtype=codes.dtype)]), known, lookup)

    def edges_of(self, unit_id: str, types: Iterable[EdgeType] | None = None,
                 direction: str = "out") -> list[Edge]:
        v = self._index.get(unit_id)
        if v is None:
            return []
        mode = {"out": "out", "in": "in", "both": "all"}[direction]
        wanted = {t.value for t in types} if types else None
        out = []
        for eid in self.g.incident(v, mode=mode):
            e = self.g.es[eid]
            if wanted is None or e["type"] in wanted:
                out.append(self._edge(e))
        return out

    def cycles(self, types: Iterable[EdgeType]) -> list[list[str]]:
        """Strongly connected groups (2+ units) of the edges of these types (igraph, no records)."""
        if not self._count():
            return []
        import numpy as np
        codes, _, lookup = self._col("type")
        ids = np.flatnonzero(np.isin(codes, [lookup[t.value] for t in types if t.value in lookup]))
        if not len(ids):
            return []
        touched, ends = np.unique(self._edge_list()[ids], return_inverse=True)   # only their vertices
        ends = ends.reshape(-1, 2)
        ends = ends[ends[:, 0] != ends[:, 1]]
        while len(ends):     # peel edges leaving a vertex nothing enters, or entering one nothing leaves
            into = np.bincount(ends[:, 1], minlength=len(touched))
            out = np.bincount(ends[:, 0], minlength=len(touched))
            kept = ends[(into[ends[:, 0]] > 0) & (out[ends[:, 1]] > 0)]
            if len(kept) == len(ends):
                break
            ends = kept
        if not len(ends):       # the usual case: no cycle (numpy; igraph builds a graph from an
            return []           # edge array in Python, a third of a second at 80,000 edges)
        sub = _igraph().Graph(n=len(touched), edges=ends.tolist(), directed=True)   # what is left: cycles
        names = self._g.vs["name"]
        return [[names[touched[i]] for i in group] for group in sub.connected_components(mode="strong")
                if len(group) > 1]

    def all_edges(self, types: Iterable[EdgeType] | None = None) -> list[Edge]:
        if not self.g.ecount():
            return []
        seq = self.g.es.select(type_in=[t.value for t in types]) if types else self.g.es   # selected in C
        return [self._edge(e) for e in seq]

    def unresolved(self) -> list[Edge]:
        if not self.g.ecount():
            return []
        return [self._edge(e) for e in self.g.es.select(resolved_eq=False)]

    def older_version(self, unit_id: str) -> str | None:
        """The previous version of a unit, through the version-alignment edges."""
        return self._aligned(unit_id, "out")

    def newer_version(self, unit_id: str) -> str | None:
        """The next version of a unit, through the version-alignment edges."""
        return self._aligned(unit_id, "in")

    def version_edge(self, a: str, b: str) -> Edge | None:
        """The version edge between units `a` and `b` (either way): the one-to-one alignment,
        else a merge or split part; None when the two are not aligned."""
        found = [e for e in self.edges_of(a, (EdgeType.INHERITS, EdgeType.AMENDS), "both")
                 if b in (e.source, e.target) and e.extractor in VERSION_EXTRACTORS]
        return min(found, key=lambda e: e.extractor != ALIGN_EXTRACTOR, default=None)

    def _aligned(self, unit_id: str, mode: str) -> str | None:
        v = self._index.get(unit_id)
        if v is None:
            return None
        es = self.g.es
        part = None             # a merge or split stands in when there is no one-to-one counterpart
        for eid in self.g.incident(v, mode=mode):
            e = es[eid]
            if e["extractor"] in VERSION_EXTRACTORS and e["type"] in ("INHERITS", "AMENDS"):
                name = self.g.vs[e.target if mode == "out" else e.source]["name"]
                if e["extractor"] == ALIGN_EXTRACTOR:
                    return name
                part = part or name
        return part

    def columns(self) -> EdgeColumns:
        """Every edge as columns (no per-edge records): vertex names, and per edge its source
        and target (indices into the names), type and resolved flag, in edge order."""
        import numpy as np
        if not self.g.ecount():
            return EdgeColumns((), np.zeros(0, int), np.zeros(0, int), (), np.zeros(0, bool))
        ends = self._edge_list()
        return EdgeColumns(tuple(self.g.vs["name"]), ends[:, 0], ends[:, 1], tuple(self.g.es["type"]),
                           np.asarray(self.g.es["resolved"], dtype=bool), tuple(self.g.es["extractor"]))

    def frame(self, types: Iterable[EdgeType | str] | None = None):
        """Every edge (of these types) as a polars DataFrame: source, target, type, resolved --
        from the columns above, without a record per edge."""
        import polars as pl
        c = self.columns()
        names = pl.Series("name", list(c.vertices), dtype=pl.String)
        df = pl.DataFrame({"source": names.gather(c.source) if len(c.source) else pl.Series([], dtype=pl.String),
                           "target": names.gather(c.target) if len(c.target) else pl.Series([], dtype=pl.String),
                           "type": pl.Series(list(c.type), dtype=pl.String),
                           "resolved": pl.Series(c.resolved, dtype=pl.Boolean)})
        if types:
            df = df.filter(pl.col("type").is_in([getattr(t, "value", t) for t in types]))
        return df

    def corpora(self) -> set[str]:
        """The corpora that have edges here."""
        import numpy as np
        if not self._count():
            return set()
        codes, values, _ = self._col("corpus")
        return {values[c] for c in np.unique(codes).tolist()}

    def degrees(self, types: Iterable[str] | None = None, resolved_only: bool = True) -> dict[str, list[int]]:
        """Per edge type, the degree (in + out) of every unit with at least one edge of that
        type, largest first (igraph's degree on the edges of that type)."""
        if not self.g.ecount():
            return {}
        out = {}
        for t in sorted(set(types or self.g.es["type"])):
            es = self.g.es.select(type_eq=t, resolved_eq=True) if resolved_only else self.g.es.select(type_eq=t)
            if len(es):
                sub = self.g.subgraph_edges(es, delete_vertices=True)
                out[t] = sorted(sub.degree(), reverse=True)
        return out

    def corpora_linking(self, prefixes: tuple[str, ...], marker: str = "", names: Iterable[str] = ()) -> set[str]:
        """Corpora with a citation edge (layer "links") into a unit whose id starts with one of
        `prefixes` ("key@"), or into a placeholder (an id starting with `marker`) whose name
        contains one of `names`."""
        names = tuple(n for n in names if n)
        if not self._count() or not (prefixes or (marker and names)):
            return set()
        from functools import reduce
        import numpy as np
        import pyarrow.compute as pc
        vertices = self._names_array()              # compared in Arrow, not name by name
        hit = [np.flatnonzero(reduce(pc.or_, [pc.starts_with(vertices, p) for p in prefixes])
                              .to_numpy(zero_copy_only=False))] if prefixes else []
        if marker and names:                        # the names only in placeholders (few)
            held = np.flatnonzero(pc.starts_with(vertices, marker).to_numpy(zero_copy_only=False))
            named = reduce(pc.or_, [pc.match_substring(vertices.take(held), x) for x in names])
            hit.append(held[named.to_numpy(zero_copy_only=False)])
        hit = np.concatenate(hit) if hit else np.zeros(0, int)
        into = np.isin(self._edge_list()[:, 1], hit)                       # edges into them
        (corpus, corpora, _), (layer, _, layers) = self._col("corpus"), self._col("layer")
        return {corpora[c] for c in np.unique(corpus[into & (layer == layers.get("links", -1))]).tolist()}

    def counts(self, corpus: str | None = None) -> dict[str, int]:
        """Edges per type (of one corpus, or all)."""
        if not self._count():
            return {}
        codes, types, _ = self._col("type")
        picked = codes[self._where(corpus=corpus)] if corpus else codes
        return dict(sorted(Counter(types[c] for c in picked.tolist()).items()))

    def delete_touching(self, corpus: str, documents: Sequence[str]) -> None:
        """Delete a corpus's edges from or to units of these document versions."""
        if not self.g.ecount() or not documents:
            return
        self.dirty = True
        inside = lambda uid: any(uid == d or uid.startswith(d + "/") for d in documents)  # noqa: E731
        names = self.g.vs["name"]
        self._delete([e.index for e in self.g.es[self._where(corpus=corpus)]
                      if inside(names[e.source]) or inside(names[e.target])])

    def save(self) -> None:
        """Write the graph's Parquet files, the edits since the base or a new base (replacing a
        legacy pickle): crash-safe inside a journal transaction over FILES, and files of
        different saves are refused on load."""
        ends = self._edge_list()                         # (syncs the origin too)
        self._base, self._origin = graph_files.write(self.g, self.folder, ends, self._base, self._origin)
        self.stamp, self.dirty = stamp(self.folder / name for name in FILES), False

    def _ensure_vertices(self, names: set[str]) -> None:
        new = sorted(n for n in names if n not in self._index)
        if new:
            import pyarrow as pa
            start = self._g.vcount()
            if self._names is not None and len(self._names) == start:
                self._names = pa.concat_arrays([self._names, pa.array(new, pa.string())])
            self._g.add_vertices(len(new), attributes={"name": new})
            self._index.update({n: start + i for i, n in enumerate(new)})

    def _edge(self, e) -> Edge:
        names = self.g.vs
        return Edge(names[e.source]["name"], names[e.target]["name"], EdgeType(e["type"]),
                    evidence=e["evidence"], confidence=e["confidence"], extractor=e["extractor"],
                    resolved=e["resolved"], attrs=tuple(json.loads(e["attrs"] or "{}").items()))

"""Building the workspaces of benchmarks/scale.py: replicas of the base workspace (the three zh
corpora) under new instrument keys, without parsing or embedding again (see scale.py's
docstring for what is rewritten and why), and the scalar indexes the benchmark adds."""
from __future__ import annotations

import json
import re
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASE = ROOT / "benchmarks" / "workspace-scale" / "base"
sys.path.insert(0, str(ROOT))
# the store's scalar indexes (store/lance.py SCALAR), on the columns its filters use: id IN /
# starts_with, key IN, kind IN, version =, effective_from / effective_to ranges (in_force),
# embedded = true (every vector search), corpus = (ingest's delete)
from workbench.store.lance import SCALAR  # noqa: E402


# -- replication ---------------------------------------------------------------------------
def build(size: int, ws: Path, sigma: float, seed: int = 0, distinct: bool = False) -> dict:
    """Workspace `ws` of ~size units: replicas of the base. Returns the timings. `distinct`: replica
    i > 0 also gets its titles suffixed "（副本i）" and its texts (and tokens) prefixed "〔副本i〕", so
    that a question naming an instrument names the base's only and replicas are not taken for one
    law imported twice (Catalog.same_content compares the openings of articles)."""
    import igraph as ig
    import lancedb
    import numpy as np
    import pyarrow as pa
    from workbench.store import graph_files
    from workbench.store.lance import LanceUnitStore

    if ws.exists():
        shutil.rmtree(ws)
    ws.mkdir(parents=True)
    t0 = time.perf_counter()
    bdb = lancedb.connect(str(BASE / "lance"))
    units = bdb.open_table("units").to_arrow()
    terms = bdb.open_table("terms").to_arrow()
    nb = units.num_rows
    reps = max(1, round(size / nb))
    keyset = set(units["key"].to_pylist())
    corpora = set(units["corpus"].to_pylist())
    key_re = re.compile(r'(?<![\w-])(' + "|".join(re.escape(k) for k in sorted(keyset, key=len, reverse=True))
                        + r')(?=[@"/]|$)')

    def map_id(s, suf):
        if s is None:
            return None
        k = s.split("@", 1)[0]
        return k + suf + s[len(k):] if k in keyset else s

    def map_attrs(s, suf):
        return key_re.sub(lambda m: m.group(1) + suf, s) if s and s != "{}" else s

    def map_names(names, suf):      # a document's names (store/lance.py): its key is one of them
        return [n + suf if n in keyset else n for n in names] if names else names

    def map_corpus(c, suf):
        return c + suf if c in corpora else c

    rng = np.random.default_rng(seed)
    dim = units.schema.field("vector").type.list_size
    base_vecs = units["vector"].combine_chunks().flatten().to_numpy().reshape(-1, dim)
    emb = np.asarray(units["embedded"].to_pylist(), dtype=bool)
    cols = {c: units[c].to_pylist() for c in ("id", "parent_id", "key", "corpus", "attrs", "title", "text", "search_text",
                                              "names", "read_with") if c in units.schema.names}
    db = lancedb.connect(str(ws / "lance"))

    def replicas():
        for i in range(reps):
            yield from replica(i).to_batches(max_chunksize=8192)

    def replica(i):
        if i == 0:
            return units
        else:
            suf = f"-r{i}"
            t = units
            for c, f in (("id", map_id), ("parent_id", map_id), ("attrs", map_attrs)):
                t = t.set_column(t.schema.get_field_index(c), c, pa.array([f(x, suf) for x in cols[c]], pa.string()))
            if distinct:
                for c, f in (("title", lambda x: x + f"（副本{i}）" if x else x),
                             ("text", lambda x: f"〔副本{i}〕" + x if x else x),
                             ("search_text", lambda x: f"副本{i} " + (x or ""))):
                    t = t.set_column(t.schema.get_field_index(c), c, pa.array([f(x) for x in cols[c]], pa.string()))
            for c in ("names", "read_with"):
                if c in cols:
                    t = t.set_column(t.schema.get_field_index(c), units.schema.field(c),
                                     pa.array([map_names(x, suf) for x in cols[c]], units.schema.field(c).type))
            t = t.set_column(t.schema.get_field_index("key"), "key", pa.array([k + suf for k in cols["key"]], pa.string()))
            t = t.set_column(t.schema.get_field_index("corpus"), "corpus",
                             pa.array([map_corpus(c, suf) for c in cols["corpus"]], pa.string()))
            v = base_vecs.copy()
            v[emb] += rng.normal(0.0, sigma, size=(int(emb.sum()), dim)).astype(np.float32)
            v[emb] /= np.linalg.norm(v[emb], axis=1, keepdims=True)
            t = t.set_column(t.schema.get_field_index("vector"), units.schema.field("vector"),
                             pa.FixedSizeListArray.from_arrays(pa.array(v.reshape(-1)), dim))
            return t
    # one write of every replica, streamed: fragments of up to ~1M rows, as a workspace whose
    # ingests each ran optimize (compaction) would have; an optimize after it is timed apart
    table = db.create_table("units", data=pa.RecordBatchReader.from_batches(units.schema, replicas()),
                            schema=units.schema)
    t_units = time.perf_counter() - t0
    t = time.perf_counter()
    table.optimize()
    t_compact = time.perf_counter() - t
    fragments = table.stats()["fragment_stats"]["num_fragments"]

    # terms
    tcols = {c: terms[c].to_pylist() for c in ("unit_id", "corpus")}
    parts = [terms]
    for i in range(1, reps):
        suf = f"-r{i}"
        t = terms.set_column(terms.schema.get_field_index("unit_id"), "unit_id",
                             pa.array([map_id(x, suf) for x in tcols["unit_id"]], pa.string()))
        parts.append(t.set_column(t.schema.get_field_index("corpus"), "corpus",
                                  pa.array([map_corpus(c, suf) for c in tcols["corpus"]], pa.string())))
    db.create_table("terms", data=pa.concat_tables(parts), schema=terms.schema)
    t_terms = time.perf_counter() - t0 - t_units - t_compact

    # graph
    g = graph_files.read(ig, {n: BASE / n for n in graph_files.FILES})
    names = g.vs["name"]
    nv = len(names)
    keyed = np.array([n.split("@", 1)[0] in keyset for n in names])
    kidx = np.flatnonzero(keyed)
    rank = np.full(nv, -1, dtype=np.int64)
    rank[kidx] = np.arange(len(kidx))
    ends = np.asarray(g.get_edgelist(), dtype=np.int64).reshape(-1, 2)
    all_names = list(names)
    srcs, tgts = [ends[:, 0]], [ends[:, 1]]
    eattrs = {a: g.es[a] for a in g.es.attributes()}
    new_attrs = {a: list(v) for a, v in eattrs.items()}
    for i in range(1, reps):
        suf = f"-r{i}"
        newidx = np.where(keyed, nv + (i - 1) * len(kidx) + rank, np.arange(nv))
        srcs.append(newidx[ends[:, 0]])
        tgts.append(newidx[ends[:, 1]])
        all_names += [map_id(names[j], suf) for j in kidx]
        for a, vals in eattrs.items():
            if a == "corpus":
                new_attrs[a] += [map_corpus(c, suf) for c in vals]
            elif a == "attrs":
                new_attrs[a] += [map_attrs(x, suf) for x in vals]
            else:
                new_attrs[a] += vals
    g2 = ig.Graph(n=len(all_names), edges=np.column_stack([np.concatenate(srcs), np.concatenate(tgts)]),
                  directed=True)
    g2.vs["name"] = all_names
    for a, vals in new_attrs.items():
        g2.es[a] = vals
    graph_files.write(g2, ws)
    edges, vertices = g2.ecount(), g2.vcount()
    del g2, new_attrs
    t_graph = time.perf_counter() - t0 - t_units - t_terms - t_compact

    # citations, workspace.json
    (ws / "citations").mkdir()
    for f in sorted((BASE / "citations").glob("*.jsonl")):
        rows = [json.loads(line) for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]
        shutil.copy(f, ws / "citations" / f.name)
        for i in range(1, reps):
            suf = f"-r{i}"
            out = [json.dumps({**r, "source": map_id(r["source"], suf)}, ensure_ascii=False) for r in rows]
            (ws / "citations" / f"{f.stem}{suf}.jsonl").write_text("\n".join(out) + "\n", encoding="utf-8")
    meta = json.loads((BASE / "workspace.json").read_text(encoding="utf-8"))
    meta["corpora"] = {**meta["corpora"], **{f"{c}-r{i}": p for i in range(1, reps) for c, p in meta["corpora"].items()}}
    (ws / "workspace.json").write_text(json.dumps(meta, ensure_ascii=False, indent=1), encoding="utf-8")
    load_s = time.perf_counter() - t0 - t_compact

    # indexes: FTS (reindex without its vector step), then the vector index
    store = LanceUnitStore(ws / "lance", dim)
    rows = store.count()
    t = time.perf_counter()
    store.index_vectors = lambda: False          # the instance attributes hide the methods for reindex:
    store.index_columns = lambda replace=False: None     # scalar indexes are made (and timed) apart
    store.reindex()
    fts_s = time.perf_counter() - t
    del store.index_vectors, store.index_columns
    t = time.perf_counter()
    built = store.index_vectors()
    vec_s = time.perf_counter() - t
    return {"replicas": reps, "units": rows, "embedded": int(emb.sum()) * reps, "vertices": vertices,
            "edges": edges, "corpora": len(meta["corpora"]),
            "bulk_load_s": round(load_s, 2), "bulk_load_parts_s": {"units": round(t_units, 2), "terms": round(t_terms, 2),
                                                                 "graph": round(t_graph, 2)},
            "compaction_s_after_load": round(t_compact, 2), "fragments": fragments,
            "fts_index_s": round(fts_s, 2), "vector_index_s": round(vec_s, 2), "vector_index_built": built,
            "disk_mb_before_scalar": round(du(ws) / 2**20, 1)}


def du(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def scalar_indexes(ws: Path) -> dict:
    from workbench.store.lance import LanceUnitStore, scalar_index
    store = LanceUnitStore(ws / "lance", json.loads((ws / "workspace.json").read_text())["dim"])
    out = {}
    for col, kind in SCALAR:
        t = time.perf_counter()
        store.table.create_index(col, config=scalar_index(kind), replace=True)
        out[col] = round(time.perf_counter() - t, 2)
    return {"scalar_index_s": out, "scalar_index_total_s": round(sum(out.values()), 2)}

"""The graph on disk before and after: igraph pickle vs the Parquet node and edge tables.

Copies a workspace's graph into a temporary folder (the workspace itself is only read), writes
it in both formats there, then loads each format ROUNDS times, alternating (median reported):
the raw read (store/graph_files.read, the garbage collector paused for both, as before) and the
graph's part of opening a workspace (IGraphStore: the read, the edge-layer check and the
name -> vertex index). Also the save time of each format, the file sizes, and a check that
both loads give the same graph (vertices, edge list, every attribute). The two formats
alternate within each round (each first in every other round), after a full collection.

    .venv/bin/python benchmarks/graph_storage.py [--workspace DIR] [--rounds 5] [--note TEXT]

Without --workspace: the benchmarks/workspace-* folder with the largest graph. Writes
benchmarks/results/graph_storage.json.
"""
from __future__ import annotations

import argparse
import datetime as dt
import gc
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
RESULTS = ROOT / "benchmarks" / "results" / "graph_storage.json"


def graph_bytes(ws: Path) -> int:
    from workbench.store.graph_files import FILES
    return sum((ws / name).stat().st_size for name in FILES if (ws / name).is_file())


def largest() -> Path:
    found = [p for p in (ROOT / "benchmarks").glob("workspace-*/**/workspace.json")]
    if not found:
        raise SystemExit("no benchmarks/workspace-*/ holds a workspace: give --workspace DIR")
    return max((p.parent for p in found), key=graph_bytes)


def same(a, b) -> bool:
    return (a.vcount() == b.vcount() and a.get_edgelist() == b.get_edgelist()
            and a.vs.attributes() == b.vs.attributes() and a.es.attributes() == b.es.attributes()
            and all(a.vs[x] == b.vs[x] for x in a.vs.attributes())
            and all(a.es[x] == b.es[x] for x in a.es.attributes()))


def timed(f):
    t = time.perf_counter()
    out = f()
    return (time.perf_counter() - t) * 1000, out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workspace", type=Path, help="default: the benchmarks/workspace-* with the largest graph")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--note", help="how the workspace was made, kept in the result")
    args = ap.parse_args()
    import igraph as ig
    import pyarrow.parquet  # noqa: F401  (library import time is not the graph's)
    from workbench.store import graph_files as gf
    from workbench.store.graph import IGraphStore
    ws = args.workspace or largest()
    load_start = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="graph-storage-") as tmp:
        old, new = Path(tmp) / "pickle", Path(tmp) / "parquet"
        old.mkdir(), new.mkdir()
        for name in gf.FILES:                           # the workspace's graph as it is, copied
            if (ws / name).is_file():
                shutil.copy2(ws / name, old / name)
        g = IGraphStore(old).g
        for name in (gf.NODES, gf.EDGES):               # the "before" folder: the pickle alone
            (old / name).unlink(missing_ok=True)
        saves = {"pickle": [], "parquet": []}
        for _ in range(args.rounds):
            saves["pickle"].append(timed(lambda: g.write_pickle(str(old / gf.LEGACY)))[0])
            saves["parquet"].append(timed(lambda: gf.write(g, new))[0])
        files = {"pickle": {f: (old / f).stat().st_size for f in (gf.LEGACY,)},
                 "parquet": {f: (new / f).stat().st_size for f in (gf.NODES, gf.EDGES)}}
        loads = {k: [] for k in ("pickle_read", "parquet_read", "pickle_open", "parquet_open")}
        graphs = {}
        for i in range(args.rounds):             # the two alternate, each first in every other round
            for fmt, folder in (("pickle", old), ("parquet", new))[::1 if i % 2 == 0 else -1]:
                paths = {name: folder / name for name in gf.FILES}
                graphs.pop(fmt, None)
                gc.collect()
                ms, graphs[fmt] = timed(lambda: gf.read(ig, paths))
                loads[f"{fmt}_read"].append(ms)
                gc.collect()
                loads[f"{fmt}_open"].append(timed(lambda: IGraphStore(folder))[0])
        equal = same(graphs["pickle"], graphs["parquet"]) and same(g, graphs["parquet"])
    med = {k: round(statistics.median(v), 1) for k, v in loads.items()}
    result = {
        "workspace": str(ws.relative_to(ROOT) if ws.is_relative_to(ROOT) else ws),
        **({"note": args.note} if args.note else {}),
        "vertices": g.vcount(), "edges": g.ecount(), "edge_attributes": g.es.attributes(),
        "rounds": args.rounds, "equal_after_round_trip": equal,
        "bytes": {"pickle": sum(files["pickle"].values()), "parquet": sum(files["parquet"].values()),
                  "files": files},
        "load_median_ms": med,
        "load_ms": {k: [round(x, 1) for x in v] for k, v in loads.items()},
        "save_median_ms": {k: round(statistics.median(v), 1) for k, v in saves.items()},
        "parquet_vs_pickle": {"size": round(sum(files["parquet"].values()) / sum(files["pickle"].values()), 3),
                              "read": round(med["parquet_read"] / med["pickle_read"], 3),
                              "open": round(med["parquet_open"] / med["pickle_open"], 3)},
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "igraph": ig.__version__,
                    "pyarrow": __import__("pyarrow").__version__,
                    "load_avg_1min_at_start": round(load_start, 2),
                    "load_avg_1min_at_end": round(os.getloadavg()[0], 2)},
        "date": dt.date.today().isoformat(),
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: result[k] for k in ("workspace", "vertices", "edges", "equal_after_round_trip",
                                             "bytes", "load_median_ms", "save_median_ms", "parquet_vs_pickle")},
                     indent=1))
    return 0 if equal else 1


if __name__ == "__main__":
    sys.exit(main())

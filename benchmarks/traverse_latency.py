"""Latency of the three traversal strategies (workbench/entities/traverse.py) and of building
the entity index, on the benchmark workspaces (zh, alqac, obliqa) and on any other workspace
given with --workspace (the committed results hold `allcorpora`: every corpus of ../shared in
one workspace).

For each workspace, 50 random pairs (seed 5) of entities that take part in some relation:
breadth_first (depth 3, 50 nodes) from the first, shortest_path and confidence_weighted
(depth 3) between them. Wall time per call, p50 / p95 in ms.

    .venv/bin/python benchmarks/traverse_latency.py [--only zh,alqac,obliqa] [--workspace NAME=PATH]
Result: benchmarks/results/traverse_latency.json (merged by workspace name)
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
WS = ROOT / "benchmarks" / "workspace-retrieval"


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * len(values)))], 2)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="zh,alqac,obliqa")
    ap.add_argument("--workspace", action="append", default=[], metavar="NAME=PATH",
                    help="another workspace (e.g. allcorpora=benchmarks/workspace-allcorpora); with it, --only is ignored")
    args = ap.parse_args()
    from workbench.workbench import Workbench
    result = ROOT / "benchmarks" / "results" / "traverse_latency.json"
    out = json.loads(result.read_text()) if result.exists() else {}
    spaces = dict(w.split("=", 1) for w in args.workspace) or {ws: WS / ws for ws in args.only.split(",")}
    for ws, path in spaces.items():
        wb = Workbench.open(path, create=False)
        t = time.perf_counter()
        index = wb.entities
        build = time.perf_counter() - t
        linked = sorted({e for a in index.aggregated for e in (a.subject, a.object)})
        rng = random.Random(5)
        pairs = [tuple(rng.sample(linked, 2)) for _ in range(50)]
        times = {"breadth_first": [], "shortest_path": [], "confidence_weighted": []}
        found = {k: 0 for k in times}
        for a, b in pairs:
            for name, call in (("breadth_first", lambda: index.traverse(a, None, "bfs", 3, 50)),
                               ("shortest_path", lambda: index.traverse(a, b, "shortest")),
                               ("confidence_weighted", lambda: index.traverse(a, b, "confidence", 3))):
                t0 = time.perf_counter()
                paths = call()
                times[name].append((time.perf_counter() - t0) * 1000)
                found[name] += bool(paths)
        out[ws] = {"units": len(index.units), "entities": len(index.entities), "aggregated_relations": len(index.aggregated),
                   "index_build_s": round(build, 2),
                   "strategies": {k: {"p50_ms": pct(v, 0.5), "p95_ms": pct(v, 0.95), "calls_with_a_path": found[k],
                                      "mean_ms": round(statistics.fmean(v), 2)} for k, v in times.items()}}
        print(ws, json.dumps(out[ws]))
    result.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Query latency per retrieval mode, p50 / p95, query embedding reported separately.

Runs on a workspace holding the shared corpora (default: the one benchmarks/ingest.py
builds, which holds all of them), with questions drawn from the development benchmarks.

    .venv/bin/python benchmarks/query.py [--workspace DIR] [--n 60]
Writes benchmarks/results/query.json.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared" / "corpora"


def questions(n: int) -> list[str]:
    from workbench.evaluate.bench_import import alqac_questions, obliqa_questions
    from workbench.evaluate.metrics import load_benchmark
    pool = [q.question for q in load_benchmark(ROOT / "benchmarks" / "questions" / "zh_versions.jsonl")]
    pool += [r["question"] for r in alqac_questions(SHARED / "vi-alqac").rows]
    pool += [r["question"] for r in obliqa_questions(SHARED / "en-adgm").rows]
    return random.Random(11).sample(pool, n)


def main() -> int:
    from workbench.core.config import RetrievalConfig
    from workbench.workbench import Workbench
    ap = argparse.ArgumentParser()
    ap.add_argument("--workspace", default=str(ROOT / "benchmarks" / "workspace-ingest"))
    ap.add_argument("--n", type=int, default=60)
    args = ap.parse_args()
    wb = Workbench.open(args.workspace)
    qs = questions(args.n)
    units = wb.store.count()
    t = time.perf_counter()
    vecs = [wb.embedder.embed_queries([q])[0] for q in qs]
    embed_ms = [(time.perf_counter() - t) * 1000 / len(qs)]
    wb.retrieve(qs[0], RetrievalConfig(mode="graph"), vecs[0])      # warm-up: graph projection, caches
    out = {"workspace": args.workspace, "units": units, "questions": len(qs),
           "query_embedding_ms_mean": embed_ms[0], "modes": {}}
    for mode in ("bm25", "dense", "hybrid", "graph"):
        times = []
        for q, v in zip(qs, vecs):
            t = time.perf_counter()
            result = wb.retrieve(q, RetrievalConfig(mode=mode), v)
            times.append((time.perf_counter() - t) * 1000 - result.embed_ms)   # graph embeds its topic
        out["modes"][mode] = {"p50_ms": float(np.percentile(times, 50)), "p95_ms": float(np.percentile(times, 95))}
        print(f"{mode:7s} p50 {out['modes'][mode]['p50_ms']:7.1f} ms   p95 {out['modes'][mode]['p95_ms']:7.1f} ms",
              flush=True)
    print(f"query embedding (e5, mean): {embed_ms[0]:.1f} ms, not included above (graph mode embeds the "
          f"question's topic as well); workspace units: {units}")
    path = ROOT / "benchmarks" / "results" / "query.json"
    path.write_text(json.dumps(out, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`workbench ingest --engine ray` against the local engine, on real corpora from ../shared/corpora.

1. Throughput: units embedded per second (report.embedded_new / report.seconds["embed"]) of
   the local engine and of Ray with 1 and 2 local workers on one corpus, `--repeats` times
   each, interleaved (local, ray-1, ray-2, local, ...). Every run is its own process with a
   fresh workspace and so a fresh embedding cache: every text is embedded in every run. The
   embedder is loaded before the clock starts in both engines (the local engine's model in the
   driver, each actor's in its constructor), so both measure embedding, not model loading;
   the Ray start-up and the whole ingest are reported beside it.
2. Equality: on two corpora, the workspace built by Ray (2 workers) and by the local engine
   have the same unit ids, texts and unit records, the same edges of every type with all their
   attributes, the same terms, and vectors within 1e-5 (np.allclose).

Writes benchmarks/results/ray_ingest.json.

    .venv/bin/python benchmarks/ray_ingest.py [--corpus zh-planning] [--check zh-planning,zh-food-safety]
                                              [--repeats 2]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "corpora"
RESULTS = ROOT / "benchmarks" / "results" / "ray_ingest.json"
sys.path.insert(0, str(ROOT))   # run from a checkout without installing


def one(corpus: str, workspace: str, workers: int) -> dict:
    """One ingest into a fresh workspace: the local engine (workers 0) or Ray with `workers`."""
    from contextlib import nullcontext
    from workbench.core.config import Config, IngestConfig
    from workbench.workbench import Workbench
    config = Config(IngestConfig(progress=False))
    t = time.perf_counter()
    if workers:
        from workbench.store.ray_engine import ray_engine
        engine = ray_engine(config.ingest.embedder, None, workers)
    else:
        engine = nullcontext()
    with engine:
        started = time.perf_counter() - t
        wb = Workbench.open(workspace, config)
        if not workers:
            getattr(wb.embedder, "model", None)          # loaded before the clock, as the actors' are
        t = time.perf_counter()
        report = wb.ingest(SHARED / corpus)
        total = time.perf_counter() - t
    s = report.seconds
    return {"corpus": corpus, "engine": f"ray-{workers}" if workers else "local", "units": report.units,
            "embedded": report.embedded, "embedded_new": report.embedded_new,
            "embed_units_per_s": report.embedded_new / s["embed"] if s["embed"] else None,
            "seconds": {"engine_start": started, **s, "ingest_total": total},
            "load_average": os.getloadavg()}


def snapshot(path: Path) -> dict:
    from workbench.workbench import Workbench
    wb = Workbench.open(path, create=False)
    ids = sorted(wb.store.ids())
    edges = sorted((e.source, e.target, e.type.value, e.evidence, e.extractor, e.resolved, e.attrs, e.confidence)
                   for e in wb.graph.all_edges())
    return {"units": wb.store.get(ids), "vectors": wb.store.vectors(ids), "edges": edges,
            "terms": sorted((t, sorted(u)) for t, u in wb.terms.all().items())}


def compare(local: Path, ray: Path) -> dict:
    """What the Ray workspace shares with the local one."""
    import numpy as np
    a, b = snapshot(local), snapshot(ray)
    common = sorted(set(a["vectors"]) & set(b["vectors"]))
    diff = max((float(np.abs(a["vectors"][k] - b["vectors"][k]).max()) for k in common), default=0.0)
    types: dict[str, int] = {}
    for e in a["edges"]:
        types[e[2]] = types.get(e[2], 0) + 1
    checks = {
        "same_unit_ids": [u.id for u in a["units"]] == [u.id for u in b["units"]],
        "same_texts": [u.text for u in a["units"]] == [u.text for u in b["units"]],
        "same_unit_records": a["units"] == b["units"],
        "same_edges_with_attributes": [e[:7] for e in a["edges"]] == [e[:7] for e in b["edges"]]
        and bool(np.allclose([e[7] for e in a["edges"]], [e[7] for e in b["edges"]], atol=1e-5)),
        "same_terms": a["terms"] == b["terms"],
        "same_embedded_ids": sorted(a["vectors"]) == sorted(b["vectors"]),
        "vectors_allclose_1e-5": len(common) == len(a["vectors"]) and all(
            np.allclose(a["vectors"][k], b["vectors"][k], atol=1e-5) for k in common),
    }
    return {**checks, "equal": all(checks.values()), "units": len(a["units"]), "vectors": len(a["vectors"]),
            "edges": len(a["edges"]), "edges_by_type": dict(sorted(types.items())), "max_abs_vector_diff": diff}


def run(corpus: str, workspace: Path, workers: int) -> dict:
    out = subprocess.run([sys.executable, __file__, "--one", corpus, "--workspace", str(workspace),
                          "--workers", str(workers)], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{corpus} with {workers or 'local'}: FAILED\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default="zh-planning", help="throughput corpus (default zh-planning, 1,295 units)")
    ap.add_argument("--check", default="zh-planning,zh-food-safety", help="corpora of the equality check")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--workspace", help=argparse.SUPPRESS)
    ap.add_argument("--workers", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(args.one, args.workspace, args.workers)))
        return 0
    if not SHARED.exists():
        print(f"needs {SHARED}", file=sys.stderr)
        return 2
    base = Path(tempfile.mkdtemp(prefix="ray-ingest-"))
    result = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                          "load_average_at_start": os.getloadavg()},
              "date": time.strftime("%Y-%m-%d"), "throughput_corpus": args.corpus, "runs": [], "equality": {}}
    try:
        kept: dict[tuple[str, int], Path] = {}
        for r in range(args.repeats):
            for workers in (0, 1, 2):
                ws = base / f"{args.corpus}-{workers}-{r}"
                row = run(args.corpus, ws, workers)
                result["runs"].append(row)
                kept.setdefault((args.corpus, workers), ws)
                print(f"{row['engine']:>6} run {r}: {row['embedded_new']} embedded in {row['seconds']['embed']:.1f}s "
                      f"= {row['embed_units_per_s']:.2f} units/s (ingest {row['seconds']['ingest_total']:.1f}s, "
                      f"engine start {row['seconds']['engine_start']:.1f}s, load {row['load_average'][0]:.1f})",
                      flush=True)
        result["throughput"] = summary(result["runs"])
        for corpus in args.check.split(","):
            local = kept.get((corpus, 0)) or _fresh(base, corpus, 0, result)
            ray = kept.get((corpus, 2)) or _fresh(base, corpus, 2, result)
            result["equality"][corpus] = compare(local, ray)
            print(f"equality on {corpus}: {json.dumps(result['equality'][corpus])}", flush=True)
        result["machine"]["load_average_at_end"] = os.getloadavg()
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
        print(json.dumps(result["throughput"], indent=1))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0 if all(e["equal"] for e in result["equality"].values()) else 1


def _fresh(base: Path, corpus: str, workers: int, result: dict) -> Path:
    ws = base / f"{corpus}-{workers}-check"
    result["runs"].append({**run(corpus, ws, workers), "for": "equality"})
    return ws


def summary(runs: list[dict]) -> dict:
    """Median units/s per engine, and the ratios the issue asks for."""
    from statistics import median
    per = {}
    for row in runs:
        if row.get("for") != "equality":
            per.setdefault(row["engine"], []).append(row["embed_units_per_s"])
    med = {k: median(v) for k, v in per.items()}
    out = {"median_embed_units_per_s": med, "all_embed_units_per_s": per}
    if {"ray-1", "ray-2"} <= set(med):
        out["ratio_ray2_over_ray1"] = med["ray-2"] / med["ray-1"]
    if {"local", "ray-2"} <= set(med):
        out["ratio_ray2_over_local"] = med["ray-2"] / med["local"]
        out["ratio_ray1_over_local"] = med["ray-1"] / med["local"]
    return out


if __name__ == "__main__":
    sys.exit(main())

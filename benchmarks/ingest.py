"""Ingest benchmark: every corpus under ../shared/corpora into one fresh workspace.

Reports, per corpus, parse / embed / store throughput (units per second) measured
separately, peak memory (each corpus runs in its own process), and how much parsing
plus storing adds to the embedding time. Writes benchmarks/results/ingest.json.

    .venv/bin/python benchmarks/ingest.py [--corpora zh-food-safety,en-adgm] [--workspace DIR]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "corpora"
RESULTS = ROOT / "benchmarks" / "results" / "ingest.json"
sys.path.insert(0, str(ROOT))   # run from a checkout without installing


def one(corpus: str, workspace: str, cache: str | None) -> dict:
    from workbench.core.config import Config, IngestConfig
    from workbench.workbench import Workbench
    wb = Workbench.open(workspace, Config(IngestConfig(progress=False, cache_dir=cache)))
    t = time.perf_counter()
    report = wb.ingest(SHARED / corpus)
    total = time.perf_counter() - t
    s = report.seconds
    return {
        "corpus": corpus, "documents": report.documents, "units": report.units,
        "edges": report.edges, "units_by_kind": report.units_by_kind,
        "embedded": report.embedded, "embedded_new": report.embedded_new,
        "seconds": {**s, "total": total},
        "parse_units_per_s": report.units / s["parse"] if s["parse"] else None,
        "embed_units_per_s": report.embedded_new / s["embed"] if s["embed"] and report.embedded_new else None,
        "store_units_per_s": report.units / s["store"] if s["store"] else None,
        "overhead_vs_embed": (s["parse"] + s["store"]) / s["embed"] if s["embed"] > 1 else None,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "problems": len(report.problems),
        "errors": sum(p.severity == "error" for p in report.problems),
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpora", help="comma-separated folder names (default: all)")
    ap.add_argument("--workspace", default=str(ROOT / "benchmarks" / "workspace-ingest"))
    ap.add_argument("--keep", action="store_true",
                    help="add to the existing workspace and results instead of starting afresh "
                         "(with --cache: a fresh embedding cache, so embedding is still measured)")
    ap.add_argument("--cache", help="embedding cache folder (default: inside the workspace)")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(args.one, args.workspace, args.cache)))
        return 0
    if not SHARED.exists():
        print(f"needs {SHARED}", file=sys.stderr)
        return 2
    names = args.corpora.split(",") if args.corpora else sorted(p.name for p in SHARED.iterdir() if p.is_dir())
    rows = []
    if not args.keep:
        shutil.rmtree(args.workspace, ignore_errors=True)
    elif RESULTS.exists():
        rows = [r for r in json.loads(RESULTS.read_text(encoding="utf-8"))["corpora"]
                if r["corpus"] not in names and "failed" not in r]
    for name in names:
        extra = ["--cache", args.cache] if args.cache else []
        out = subprocess.run([sys.executable, __file__, "--one", name, "--workspace", args.workspace, *extra],
                             capture_output=True, text=True)
        if out.returncode != 0:
            print(f"{name}: FAILED\n{out.stderr[-2000:]}", file=sys.stderr)
            rows.append({"corpus": name, "failed": out.stderr[-500:]})
            continue
        row = json.loads(out.stdout.strip().splitlines()[-1])
        rows.append(row)
        print(table_row(row), flush=True)
        _write(rows)
    _write(rows)
    print("\n" + markdown(rows))
    return 0 if all("failed" not in r for r in rows) else 1


def _write(rows: list[dict]) -> None:
    result = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
              "date": time.strftime("%Y-%m-%d"), "corpora": rows}
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")


def _f(x, fmt="{:.0f}"):
    return "–" if x is None else fmt.format(x)


def table_row(r: dict) -> str:
    kinds = r["units_by_kind"]
    cells = [r["corpus"], r["documents"], r["units"], kinds.get("article", 0) + kinds.get("passage", 0),
             r["edges"], r["embedded_new"], _f(r["parse_units_per_s"]),
             _f(r["embed_units_per_s"], "{:.1f}"), _f(r["store_units_per_s"]),
             _f(r["overhead_vs_embed"], "{:.1%}"), _f(r["peak_rss_mb"]),
             f"{r['seconds']['total']:.0f}", f"{r['errors']}/{r['problems']}"]
    return "| " + " | ".join(str(c) for c in cells) + " |"


def markdown(rows: list[dict]) -> str:
    head = ("| corpus | docs | units | articles+passages | edges | embedded | parse u/s | embed u/s | "
            "store u/s | parse+store vs embed | peak MB | total s | errors/problems |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    return "\n".join([head] + [table_row(r) for r in rows if "failed" not in r])


if __name__ == "__main__":
    sys.exit(main())

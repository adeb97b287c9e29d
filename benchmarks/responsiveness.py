"""Responsiveness of the panel (02_ask_and_tune): how long one widget change takes to show.

One update = what the panel does when a widget moves: read the widgets into a
RetrievalConfig, retrieve (the question's embedding is cached per question, as in the
panel; graph mode still embeds its topic), build the evidence table and the pyvis page
(vis-network in line) and put them in the widgets. Timed on the largest shared workspace,
`benchmarks/workspace-ingest` (all the zh and vi corpora), opened READ-ONLY: nothing is
written to it, not even workspace.json.

For each question: one warm-up update (the question is new: embedding, first reads), then
a fixed script of widget changes (untick / tick an edge type, hops policy -> 1 -> 2 ->
policy, top-k, a weight, the question type, an as-of date). p50 / p95 over the scripted
changes; also with the extractive answer the panel adds by default.

    .venv/bin/python benchmarks/responsiveness.py [--workspace DIR] [--n 12]
Writes benchmarks/results/responsiveness.json.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared" / "corpora"
TARGET_P50_MS = 300


def open_read_only(path: Path):
    """A Workbench on an existing workspace without Workbench.open's metadata write."""
    from workbench.core.config import Config, IngestConfig
    from workbench.store.embedders import make_embedder
    from workbench.store.graph import IGraphStore
    from workbench.store.lance import EmbeddingCache, LanceUnitStore
    from workbench.store.terms import TermStore
    from workbench.workbench import Workbench
    meta = json.loads((path / "workspace.json").read_text(encoding="utf-8"))
    config = Config(IngestConfig(embedder=meta.get("embedder_spec", "e5"), progress=False))
    embedder = make_embedder(config.ingest.embedder)
    dim = meta.get("dim") or embedder.dim
    return Workbench(path, config, embedder, LanceUnitStore(path / "lance", dim), IGraphStore(path),
                     EmbeddingCache(path / "lance", dim), TermStore(path / "lance"))


def questions(n: int, seed: int = 7) -> list[str]:
    from workbench.evaluate.metrics import load_benchmark
    pool = [q.question for q in load_benchmark(ROOT / "benchmarks" / "questions" / "zh_versions.jsonl")]
    if (SHARED / "vi-alqac").exists():
        from workbench.evaluate.bench_import import alqac_questions
        pool += [r["question"] for r in alqac_questions(SHARED / "vi-alqac").rows]
    return random.Random(seed).sample(pool, min(n, len(pool)))


def script(panel):
    """The widget changes, each a (name, function that makes it)."""
    def setter(widget, value):
        return lambda: setattr(widget, "value", value)
    return [
        ("untick REFERENCES", setter(panel.edge_boxes["REFERENCES"], False)),
        ("tick REFERENCES", setter(panel.edge_boxes["REFERENCES"], True)),
        ("hops 1", setter(panel.hops, "1")),
        ("hops 2", setter(panel.hops, "2")),
        ("hops policy", setter(panel.hops, "policy")),
        ("top-k 15", setter(panel.top_k, 15)),
        ("semantic 0.6", setter(panel.weight_sliders["semantic"], 0.6)),
        ("semantic 0.5", setter(panel.weight_sliders["semantic"], 0.5)),
        ("question type reasoning", setter(panel.qtype, "reasoning")),
        ("question type auto", setter(panel.qtype, "auto")),
        ("as of 2016-01-01", setter(panel.as_of, "2016-01-01")),
        ("as of none", setter(panel.as_of, "")),
        ("top-k 10", setter(panel.top_k, 10)),
    ]


def run(wb, qs: list[str], answer: bool) -> dict:
    from workbench.ui.panel import Panel
    panel = Panel.for_workbench(wb, "", auto_answer=answer)
    total, retrieve, render, by_change = [], [], [], {}
    warm = []
    for q in qs:
        t = time.perf_counter()
        panel.question.value = q                       # a new question: the warm-up update
        warm.append((time.perf_counter() - t) * 1000)
        for name, change in script(panel):
            before = panel.updates
            t = time.perf_counter()
            change()
            ms = (time.perf_counter() - t) * 1000
            if panel.updates != before + 1:
                raise RuntimeError(f"{name!r} did not update the panel once (errors: {panel.errors[-1:]})")
            total.append(ms)
            retrieve.append(panel.view.ms["retrieve"])
            render.append(panel.view.ms["render"])
            by_change.setdefault(name, []).append(ms)
    if panel.errors:
        raise RuntimeError(f"the panel reported errors: {panel.errors[:3]}")

    def pct(xs, p):
        return round(float(np.percentile(xs, p)), 1) if xs else 0.0
    return {"updates": len(total), "p50_ms": pct(total, 50), "p95_ms": pct(total, 95), "max_ms": pct(total, 100),
            "retrieve_p50_ms": pct(retrieve, 50), "retrieve_p95_ms": pct(retrieve, 95),
            "render_p50_ms": pct(render, 50), "render_p95_ms": pct(render, 95),
            "warmup_p50_ms": pct(warm, 50),
            "by_change_p50_ms": {k: pct(v, 50) for k, v in by_change.items()}}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workspace", default=str(ROOT / "benchmarks" / "workspace-ingest"))
    ap.add_argument("--n", type=int, default=12, help="questions (each gets the whole script of changes)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "responsiveness.json"))
    args = ap.parse_args()
    path = Path(args.workspace)
    if not (path / "workspace.json").exists():
        print(f"error: no workspace at {path}: build it with benchmarks/ingest.py", file=sys.stderr)
        return 2
    t = time.perf_counter()
    wb = open_read_only(path)
    units = wb.store.count()
    _ = wb.retriever.agraph              # the article graph is built once, when the panel opens
    open_s = time.perf_counter() - t
    qs = questions(args.n)
    print(f"workspace {path}: {units} units, opened in {open_s:.1f} s; {len(qs)} questions")
    results = {"workspace": str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path), "units": units,
               "edges": int(wb.graph.g.ecount()), "questions": len(qs), "open_s": round(open_s, 1),
               "target_p50_ms": TARGET_P50_MS,
               "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                           "load_avg_1min_at_start": round(os.getloadavg()[0], 2)},
               "date": dt.date.today().isoformat()}
    for label, answer in (("retrieve_and_render", False), ("with_extractive_answer", True)):
        r = run(wb, qs, answer)
        results[label] = r
        print(f"{label}: {r['updates']} updates, p50 {r['p50_ms']} ms, p95 {r['p95_ms']} ms "
              f"(retrieval p50 {r['retrieve_p50_ms']} ms, render p50 {r['render_p50_ms']} ms; "
              f"first update of a question p50 {r['warmup_p50_ms']} ms)")
    results["machine"]["load_avg_1min_at_end"] = round(os.getloadavg()[0], 2)
    results["target_met"] = results["retrieve_and_render"]["p50_ms"] <= TARGET_P50_MS
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"p50 target {TARGET_P50_MS} ms: {'met' if results['target_met'] else 'NOT met'}; results: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Graph operations of two code trees side by side, in one run: workspace open, article-graph
build, expansion (each question's seeds under its routed policy's hop limits, and again with
every edge type allowed 2 hops: "wide"; and once from all questions' seeds together, every
edge type 1 hop (paths of up to 6 edges, one of each type): "bulk"), graph-mode query (query embedding excluded). p50 /
p95 in ms; open (LanceDB and igraph already imported): the first of a process and the median
of OPENS; article graph: once per round.

    .venv/bin/python benchmarks/graph_ops.py --workspace DIR [--baseline GITREF] [--n 60] [--rounds 3]

Each code tree is measured in its own subprocess (this checkout, and with --baseline a
temporary git worktree of that ref), the two alternating round by round, so both see the
same machine state. The workspace is only read. Writes benchmarks/results/graph_ops.json.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "corpora"
OPENS = 5           # workspace opens per round (the first, and the median of all)
BULK_CAP = 20_000   # the long walk's cap


def _imports():
    """What both layouts offer (stage folders, or the flat one before them)."""
    try:
        from workbench.core.config import Config, RetrievalConfig
        from workbench.retrieve.route import load_policies
    except ImportError:
        from workbench.config import Config, RetrievalConfig
        from workbench.route import load_policies
    from workbench.workbench import Workbench
    import igraph, lancedb  # noqa: F401,E401  (library import time is not the workspace's)
    return Config, RetrievalConfig, load_policies, Workbench


def _questions(n: int) -> list[str]:
    pool = [json.loads(line)["question"] for line in
            (ROOT / "benchmarks" / "questions" / "zh_versions.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    for name, rel in (("vi-alqac", "alqac2023/train.json"), ("en-adgm", "ObliQA_dev.json")):
        f = SHARED / name / rel
        if f.exists():
            rows = json.loads(f.read_text(encoding="utf-8"))
            pool += [r.get("statement") or r.get("Question") or r.get("question") for r in rows][:n]
    pool = [q for q in pool if q]
    step = max(1, len(pool) // n)
    return pool[::step][:n]


def measure(workspace: str, questions: list[str]) -> dict:
    """One round in this process: open, build the article graph, expand, query."""
    import numpy as np
    Config, RetrievalConfig, load_policies, Workbench = _imports()
    opens = []
    for _ in range(OPENS):
        t = time.perf_counter()
        wb = Workbench.open(workspace, Config())
        _ = wb.store.count()
        opens.append((time.perf_counter() - t) * 1000)
    t = time.perf_counter()
    agraph = wb.retriever.agraph
    build_ms = (time.perf_counter() - t) * 1000
    cfg = RetrievalConfig(mode="graph")
    policies = load_policies()
    qvecs = wb.embedder.embed_queries(questions)
    wide = {t: 2 for t in ("REFERENCES", "AMENDS", "INHERITS", "REPLACES", "REPEALS", "RELATED_TO")}
    query_ms, expand_ms, reached, wide_ms, wide_reached, all_seeds = [], [], [], [], [], []
    for q, v in zip(questions, qvecs):
        t = time.perf_counter()
        r = wb.retrieve(q, cfg, v)
        query_ms.append((time.perf_counter() - t) * 1000 - r.embed_ms)
        hops = dict(policies[r.route.type].hops)
        t = time.perf_counter()
        steps = agraph.expand(list(r.seeds), hops, cfg.cap)
        expand_ms.append((time.perf_counter() - t) * 1000)
        reached.append(len(steps))
        t = time.perf_counter()
        steps = agraph.expand(list(r.seeds), wide, cfg.cap)       # every edge type, 2 hops each
        wide_ms.append((time.perf_counter() - t) * 1000)
        wide_reached.append(len(steps))
        all_seeds += [s for s in r.seeds if s not in all_seeds]
    t = time.perf_counter()                  # one long walk: every question's seeds at once, 1 hop each type
    bulk = agraph.expand(all_seeds, {k: 1 for k in wide}, BULK_CAP)
    bulk_ms = (time.perf_counter() - t) * 1000
    pct = lambda xs, p: float(np.percentile(xs, p))  # noqa: E731
    return {"open_first_ms": opens[0], "open_p50_ms": pct(opens, 50), "article_graph_ms": build_ms,
            "query_p50_ms": pct(query_ms, 50), "query_p95_ms": pct(query_ms, 95),
            "expand_p50_ms": pct(expand_ms, 50), "expand_p95_ms": pct(expand_ms, 95),
            "reached_mean": float(np.mean(reached)), "expand_wide_p50_ms": pct(wide_ms, 50),
            "expand_wide_p95_ms": pct(wide_ms, 95), "wide_reached_mean": float(np.mean(wide_reached)),
            "expand_bulk_ms": bulk_ms, "bulk_reached": len(bulk), "units": wb.store.count(),
            "edges": sum(wb.graph.counts().values())}


def _run(tree: Path, workspace: str, questions: list[str]) -> dict:
    code = (f"import json, sys; sys.path.insert(0, {str(tree)!r}); sys.path.insert(1, {str(ROOT / 'benchmarks')!r});"
            f"from graph_ops import measure; print(json.dumps(measure({workspace!r}, {questions!r})))")
    out = subprocess.run([sys.executable, "-c", code], cwd=tree, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workspace", required=True)
    ap.add_argument("--baseline", help="git ref to measure beside this checkout (e.g. a commit before a change)")
    ap.add_argument("--n", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "graph_ops.json"))
    args = ap.parse_args()
    questions = _questions(args.n)
    trees = {"current": ROOT}
    tmp = None
    if args.baseline:
        tmp = Path(tempfile.mkdtemp(prefix="wb-baseline-")) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", str(tmp), args.baseline], cwd=ROOT, check=True,
                       capture_output=True)
        trees = {f"baseline {args.baseline}": tmp, "current": ROOT}
    rounds: dict[str, list[dict]] = {name: [] for name in trees}
    try:
        for i in range(args.rounds):
            for name, tree in trees.items():
                rounds[name].append(_run(tree, args.workspace, questions))
                print(f"round {i + 1} {name}: " + ", ".join(f"{k} {v:.1f}" for k, v in rounds[name][-1].items()),
                      flush=True)
    finally:
        if tmp is not None:
            subprocess.run(["git", "worktree", "remove", "--force", str(tmp)], cwd=ROOT, capture_output=True)
    import statistics
    summary = {name: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for name, rs in rounds.items()}
    result = {"workspace": args.workspace, "questions": len(questions), "rounds": args.rounds,
              "median_of_rounds": summary, "rounds_detail": rounds}
    Path(args.out).write_text(json.dumps(result, indent=1), encoding="utf-8")
    keys = list(next(iter(summary.values())))
    print("| code | " + " | ".join(keys) + " |\n|---|" + "---|" * len(keys))
    for name, s in summary.items():
        print(f"| {name} | " + " | ".join(f"{s[k]:.1f}" for k in keys) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Crash safety: kill -9 an ingest at random moments; the workspace must come back whole.

Reference: a clean ingest of the two sample corpora (corpora/sample, corpora/sample/zh) into
one workspace. Each run starts either from an empty workspace (the first ingest is killed)
or from a copy of the reference (a re-ingest is killed), starts `workbench ingest` as a
subprocess and sends SIGKILL: in half the runs after a delay drawn uniformly over the
measured length of an ingest; in the other half while it writes (after its journal appears,
a delay drawn over the measured length of the writing: store, index, terms, graph, link,
report). Then, as a user
would: open the workspace and read it (it must be all or nothing: the state before the killed
ingest or after it, never between), `workbench info` (must exit 0 and, if the kill left a
journal, say so; exit 2 "no workspace" when the kill came before one existed), then the killed ingest again (and, from empty, the other corpus) — after which the workspace must
equal the reference: same unit ids and texts, same edges (source, target, type, resolved),
same terms, same corpora in workspace.json.

    .venv/bin/python benchmarks/crash.py [--runs 32] [--seed 7]
Result: benchmarks/results/crash.json (each run: start state, delay, where the kill landed,
what info said, equal or not; `landed`: the last stage written before the kill, read from the
journal against the disk — units, terms, citations, graph, workspace.json, report).
"""
from __future__ import annotations

import argparse
from collections import Counter
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
WORK = ROOT / "benchmarks" / "workspace-crash"
CORPORA = [ROOT / "corpora" / "sample", ROOT / "corpora" / "sample" / "zh"]
CLI = [sys.executable, "-m", "workbench.cli"]


def ingest(ws: Path, corpus: Path, cache: Path) -> subprocess.Popen:
    return subprocess.Popen(CLI + ["ingest", str(corpus), "--workspace", str(ws), "--cache", str(cache)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})


def fingerprint(ws: Path) -> dict:
    """What must match the reference (read in a fresh process: nothing cached)."""
    code = f"""
import hashlib, json
from workbench.workbench import Workbench
wb = Workbench.open({str(ws)!r}, create=False)
f = wb.units()
rows = sorted(zip(f["id"].to_list(), f["text"].to_list(), f["corpus"].to_list()))
e = wb.edges()
cols = [c for c in ("source", "target", "type", "resolved") if c in e.columns]
edges = sorted(map(tuple, e.select(cols).rows()))
h = lambda x: hashlib.sha1(json.dumps(x, ensure_ascii=False, default=str).encode()).hexdigest()
meta = json.load(open({str(ws / "workspace.json")!r}))
print(json.dumps({{"units": len(rows), "units_hash": h(rows), "edges": len(edges), "edges_hash": h(edges),
                  "terms": wb.terms.count(), "corpora": sorted(meta.get("corpora", {{}}))}}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    if out.returncode:
        return {"error": out.stderr.strip().splitlines()[-1:]}
    return json.loads(out.stdout.strip().splitlines()[-1])


ORDER = ("units", "terms", "citations", "graph", "workspace.json", "report")   # the order an ingest writes in


def landed(ws: Path) -> str:
    """Where a kill landed, read from what the journal recorded against what is on disk now:
    the last of ORDER written before the kill ("journal, nothing written yet" when the journal
    is there and nothing has changed; "no journal" when there is none: before the first write
    or after the commit)."""
    try:
        journal = json.loads((ws / "journal.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "no journal"
    import lancedb
    wrote = set()
    db = lancedb.connect(str(ws / "lance"))
    for name, version in journal["tables"].items():
        try:
            now = db.open_table(name).version
        except Exception:       # not created yet
            now = None
        if now != version:
            wrote.add(name)
    for name in journal["files"]:
        kept, now = ws / ".journal" / name.replace("/", "__"), ws / name
        if not now.exists() or now.stat().st_ino != kept.stat().st_ino:
            wrote.add(name)
    wrote |= {name for name in journal["created"] if (ws / name).exists()}
    stage = lambda n: ("citations" if n.startswith("citations/") else "report" if n.startswith("reports/")  # noqa: E731
                       else "graph" if n.startswith("graph_") else n)
    got = {stage(n) for n in wrote}
    last = [s for s in ORDER if s in got]
    return f"journal, {last[-1]} written" if last else "journal, nothing written yet"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=32)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    cache = WORK / "cache"
    ref = WORK / "reference"
    lengths = []
    for corpus in CORPORA:
        t = time.perf_counter()
        p = ingest(ref, corpus, cache)
        if p.wait():
            print(p.stderr.read().decode(), file=sys.stderr)
            return 1
        lengths.append(time.perf_counter() - t)
    t = time.perf_counter()                     # a re-ingest, vectors cached: the length killed into
    p, window = ingest(ref, CORPORA[0], cache), []
    while p.poll() is None:                     # when it writes: from its journal's appearance to its removal
        if (ref / "journal.json").exists():
            window = window[:1] + [time.perf_counter() - t] if window else [time.perf_counter() - t]
        time.sleep(0.005)
    if p.returncode:
        return 1
    span = time.perf_counter() - t
    window = (window + window)[:2] if window else [0.0, span]
    expected = fingerprint(ref)
    one = WORK / "one"                          # the first corpus alone: a killed first ingest's "after"
    if ingest(one, CORPORA[0], cache).wait():
        return 1
    after_first = fingerprint(one)
    print(f"reference: {expected}; ingest {lengths[0]:.1f}s / {lengths[1]:.1f}s, re-ingest {span:.1f}s, "
          f"writing from {window[0]:.2f}s to {window[1]:.2f}s", flush=True)
    runs = []
    for i in range(args.runs):
        ws = WORK / f"run{i}"
        fresh = i % 2 == 0
        if not fresh:
            shutil.copytree(ref, ws)
        # half the kills anywhere in the ingest; half while it writes: after its journal appears
        writing = i % 4 >= 2
        delay = rng.uniform(0.0, window[1] - window[0]) if writing else rng.uniform(0.05, span)
        p = ingest(ws, CORPORA[0], cache)
        t = time.perf_counter()
        while writing and p.poll() is None and not (ws / "journal.json").exists() and time.perf_counter() - t < 60:
            time.sleep(0.002)
        time.sleep(delay)
        finished = p.poll() is not None
        if not finished:
            p.send_signal(signal.SIGKILL)
        p.wait()
        journal = (ws / "journal.json").exists()
        where = landed(ws) if not finished else "finished first"
        seen = fingerprint(ws) if (ws / "workspace.json").exists() else {"units": 0}
        # all or nothing: a reader sees the state before the killed ingest or after it
        atomic = seen in ((expected,) if not fresh else ({"units": 0}, after_first)) or \
            fresh and seen.get("units") == 0 and seen.get("edges", 0) == 0
        info = subprocess.run(CLI + ["info", "--workspace", str(ws)], capture_output=True, text=True, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
        # killed before it made the workspace: info rightly says there is none (exit 2)
        info_ok = info.returncode == 0 or info.returncode == 2 and not (ws / "workspace.json").exists()
        said = [line for line in (info.stdout + info.stderr).splitlines() if "unfinished" in line or "warning" in line]
        redo = [ingest(ws, CORPORA[0], cache).wait()]
        if fresh:
            redo.append(ingest(ws, CORPORA[1], cache).wait())
        got = fingerprint(ws)
        same = got == expected and atomic
        runs.append({"run": i, "start": "empty" if fresh else "reference copy",
                     "kill": "after the journal appeared" if writing else "after the start", "delay_s": round(delay, 2),
                     "landed": where,
                     "killed": not finished, "journal_left": journal, "info_exit": info.returncode, "info_ok": info_ok, "all_or_nothing": atomic,
                     "info_said": said[:2], "reingest_exit": redo, "equal": same,
                     **({} if same else {"got": got})})
        print(f"run {i}: {'empty' if fresh else 'copy '} kill {'writing +' if writing else 'start +'}{delay:5.2f}s "
              f"{where} info={info.returncode} atomic={atomic} "
              f"equal={same}", flush=True)
        shutil.rmtree(ws, ignore_errors=True)
    failures = sum(not r["equal"] or not r["info_ok"] for r in runs)
    result = {"runs": len(runs), "killed": sum(r["killed"] for r in runs),
              "journal_left": sum(r["journal_left"] for r in runs), "failures": failures,
              "landed": dict(sorted(Counter(r["landed"] for r in runs).items())),
              "reference": expected, "reingest_seconds": round(span, 2),
              "writing_window_s": [round(w, 2) for w in window], "details": runs}
    (ROOT / "benchmarks" / "results" / "crash.json").write_text(json.dumps(result, indent=1, ensure_ascii=False),
                                                                encoding="utf-8")
    print(f"{len(runs)} runs, {result['killed']} killed mid-ingest, {result['journal_left']} left a journal, "
          f"{failures} failures; landed: {result['landed']}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

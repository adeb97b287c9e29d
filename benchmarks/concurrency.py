"""Two writers and four readers on one workspace: the writers take turns, the readers never fail.

Two writer processes re-ingest different corpora (corpora/sample and corpora/sample/zh), each
`--rounds` times (`workbench ingest … --wait`), while four reader processes open the workspace
and query it in a loop (`Workbench.open`, a BM25 search, `info()`'s inconsistency check). The
final workspace must equal a sequential ingest of the two corpora (unit ids and texts, edges,
terms), and no reader may get an error or see an inconsistent state.

    .venv/bin/python benchmarks/concurrency.py [--rounds 10] [--readers 4]
Result: benchmarks/results/concurrency.json. tests/test_workspace.py runs a short version.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CORPORA = [ROOT / "corpora" / "sample", ROOT / "corpora" / "sample" / "zh"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}

READER = r"""
import json, sys, time
from pathlib import Path
from workbench.workbench import Workbench
ws, stop, out = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
got = {"queries": 0, "errors": [], "inconsistent": []}
while not stop.exists():
    if not (ws / "workspace.json").exists():
        time.sleep(0.1)
        continue
    try:
        wb = Workbench.open(ws, create=False)
        wb.search("food safety licence", "bm25", 5)
        bad = wb.inconsistencies()
        if bad:
            got["inconsistent"].append(bad[:2])
        got["queries"] += 1
    except Exception as e:
        got["errors"].append(f"{type(e).__name__}: {e}"[:300])
Path(out).write_text(json.dumps(got))
"""

WRITER = r"""
import subprocess, sys
ws, corpus, cache, rounds = sys.argv[1:5]
codes = []
for _ in range(int(rounds)):
    codes.append(subprocess.run([sys.executable, "-m", "workbench.cli", "ingest", corpus, "--workspace", ws,
                                 "--cache", cache, "--wait"], capture_output=True).returncode)
print(",".join(map(str, codes)))
"""


def fingerprint(ws: Path) -> dict:
    from benchmarks.crash import fingerprint as fp
    return fp(ws)


def run(work: Path, rounds: int, readers: int) -> dict:
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    cache, ref, ws = work / "cache", work / "sequential", work / "shared"
    for corpus in CORPORA:                      # the sequential result (and warm vectors)
        subprocess.run([sys.executable, "-m", "workbench.cli", "ingest", str(corpus), "--workspace", str(ref),
                        "--cache", str(cache)], check=True, capture_output=True, cwd=ROOT, env=ENV)
    stop = work / "stop"
    t0 = time.perf_counter()
    rs = [subprocess.Popen([sys.executable, "-c", READER, str(ws), str(stop), str(work / f"reader{i}.json")],
                           cwd=ROOT, env=ENV) for i in range(readers)]
    ws_ = [subprocess.Popen([sys.executable, "-c", WRITER, str(ws), str(c), str(cache), str(rounds)],
                            cwd=ROOT, env=ENV, stdout=subprocess.PIPE, text=True) for c in CORPORA]
    codes = [w.communicate()[0].strip() for w in ws_]
    stop.touch()
    for r in rs:
        r.wait()
    seconds = time.perf_counter() - t0
    seen = [json.loads((work / f"reader{i}.json").read_text()) for i in range(readers)]
    expected, got = fingerprint(ref), fingerprint(ws)
    return {"rounds": rounds, "readers": readers, "seconds": round(seconds, 1),
            "writer_exit_codes": codes, "queries": sum(s["queries"] for s in seen),
            "reader_errors": [e for s in seen for e in s["errors"]],
            "inconsistent_reads": [e for s in seen for e in s["inconsistent"]],
            "equal_to_sequential": got == expected, "final": got, "sequential": expected}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--readers", type=int, default=4)
    args = ap.parse_args()
    result = run(ROOT / "benchmarks" / "workspace-concurrency", args.rounds, args.readers)
    (ROOT / "benchmarks" / "results" / "concurrency.json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    print(json.dumps({k: v for k, v in result.items() if k not in ("final", "sequential")}, indent=1))
    ok = result["equal_to_sequential"] and not result["reader_errors"] and not result["inconsistent_reads"] \
        and all(set(c.split(",")) == {"0"} for c in result["writer_exit_codes"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

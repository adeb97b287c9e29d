"""The searches of one question run side by side (retrieve/together.py)."""
import threading

import pytest

from workbench.retrieve.together import WORKERS, start, together


def test_results_come_in_the_order_given():
    assert together(lambda: 1, lambda: "two", lambda: [3]) == [1, "two", [3]]


def test_calls_run_at_the_same_time():
    # each call waits for the other: run one after the other, the barrier would time out
    barrier = threading.Barrier(2, timeout=5)
    assert together(barrier.wait, barrier.wait) in ([0, 1], [1, 0])


def test_an_error_reaches_the_caller():
    def fail():
        raise ValueError("bad filter")
    with pytest.raises(ValueError, match="bad filter"):
        together(lambda: 1, fail)


def test_a_call_from_a_search_thread_runs_at_once():
    # every search thread busy with a call that itself starts calls: run inline, no wait for ever
    inner = lambda: together(lambda: threading.current_thread().name)   # noqa: E731
    names = together(*[inner] * (WORKERS + 2))
    assert all(n[0].startswith("search") for n in names)
    assert start(lambda: 5).result() == 5

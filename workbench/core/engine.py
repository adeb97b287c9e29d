"""Where ingest's separable work runs: per-document parsing and batch embedding.

The default engine runs both here, one after the other. `workbench ingest --engine ray`
(store/ray_engine.py) installs another for the length of the command (`using`); the importers
(`parse_each`) and `store.ingest.embed_units` ask `current()` and never know which one runs.
Everything else -- reading the corpus, the embedding cache, writing the workspace -- stays in
the calling process whatever the engine.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Callable, Iterable, Iterator, Sequence

from .errors import CorpusError

# fn(*args) -> a parse result. The job gets the text already read: it reads no files, so it
# can run in another process or on another machine.
ParseJob = tuple[Callable[..., Any], tuple]


def run_job(job: ParseJob):
    """The job's result, or the CorpusError it raised (returned, so one bad document does not
    lose the others' results, and the importer reports it as before)."""
    fn, args = job
    try:
        return fn(*args)
    except CorpusError as e:
        return e


class LocalEngine:
    """In this process, in order."""
    name = "local"

    def parse(self, jobs: Sequence[ParseJob]) -> list:
        return [run_job(j) for j in jobs]

    def embed(self, embedder, batches: Sequence[list[str]]) -> Iterator:
        """Each batch's vectors, in order, as they are computed (a progress bar follows them)."""
        for texts in batches:
            yield embedder.embed_passages(texts)


_ENGINE: ContextVar = ContextVar("ingest_engine", default=LocalEngine())


def current():
    return _ENGINE.get()


@contextmanager
def using(engine):
    """Ingest inside the block runs its parsing and embedding on `engine`."""
    token = _ENGINE.set(engine)
    try:
        yield engine
    finally:
        _ENGINE.reset(token)


def parse_each(jobs: Iterable[ParseJob]) -> list:
    """Run the parse jobs on the current engine: one result (or CorpusError) per job, in order."""
    jobs = list(jobs)
    return current().parse(jobs) if jobs else []

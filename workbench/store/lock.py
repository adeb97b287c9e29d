"""One writer per workspace: an exclusive lock (`flock`) on `writing.lock` in the workspace.

`ingest` and `relink` hold it for their whole run; a second writer is refused with the first
one's pid and command line (written into the file: the pid on the first line, the command on the
second) instead of both running and one corpus losing its edges, and readers (the REST server)
can tell a workspace being written from a settled one. The kernel releases the lock when its
process ends, killed or not, so a crash never leaves a workspace locked. Within one process the
lock is re-entrant (ingest -> relink).
"""
from __future__ import annotations

import fcntl
import os
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from ..core.errors import WorkbenchError
from .remote import Remote, is_remote

LOCK = "writing.lock"
WAIT = 3.0                     # seconds a writer retries: a reader's probe holds the lock for a moment
_held: dict[str, int] = {}     # workspace -> depth, for the writers of this process
_guard = threading.Lock()


def _key(path) -> str:
    return str(Path(path).resolve())


def _pid(f: Path) -> int:
    """The holder's pid: the first line of the lock file (0 when it cannot be told)."""
    try:
        return int((f.read_text(encoding="utf-8", errors="replace").splitlines() or ["0"])[0].strip() or 0)
    except (OSError, ValueError):
        return 0


def _command(f: Path) -> str:
    """The holder's command line: the second line of the lock file ('' when not written)."""
    try:
        lines = f.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    return lines[1].strip() if len(lines) > 1 else ""


def _who(f: Path) -> str:
    """'pid 123 (`workbench ingest ...`)' for the messages; '?' for what cannot be told."""
    command = _command(f)
    return f"pid {_pid(f) or '?'}" + (f" (`{command}`)" if command else "")


def _stamp() -> bytes:
    """What a writer writes into the lock file: its pid, then its command line."""
    command = " ".join(" ".join(sys.argv).split()) or "?"      # one line, whatever the arguments hold
    return f"{os.getpid()}\n{command}\n".encode("utf-8", errors="replace")


def holder(path: str | Path) -> int | None:
    """The pid of the process writing the workspace at `path` (0 when it cannot be told), else None
    (always None for an s3:// workspace: its readers keep the committed state they opened)."""
    if is_remote(path):
        return None
    if _key(path) in _held:
        return os.getpid()
    f = Path(path) / LOCK
    try:
        fd = os.open(f, os.O_RDONLY)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _pid(f)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def writing(path: str | Path, wait: float | None = None):
    """The writer lock of a local workspace, the writer lease (store/remote.py) of an s3:// one."""
    return Remote(str(path)).lease(wait) if is_remote(path) else _writing(path, wait)


@contextmanager
def _writing(path: str | Path, wait: float | None = None):
    """Hold the workspace's writer lock for the block. When another process holds it: wait up
    to `wait` seconds (None: a few seconds, for a reader's probe; inf: until it is free), saying
    once on stderr whom we wait for, then WorkbenchError."""
    key = _key(path)
    with _guard:
        if key in _held:
            _held[key] += 1
            mine = False
        else:
            mine = True
    if not mine:
        try:
            yield
        finally:
            with _guard:
                _held[key] -= 1
        return
    Path(path).mkdir(parents=True, exist_ok=True)
    f = Path(path) / LOCK
    fd = os.open(f, os.O_RDWR | os.O_CREAT, 0o644)
    started = time.monotonic()
    deadline = started + (WAIT if wait is None else wait)
    told = False
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if wait and not told and time.monotonic() > started + WAIT:
                print(f"waiting for {_who(f)} to finish writing {path} ...", file=sys.stderr, flush=True)
                told = True
            if time.monotonic() > deadline:
                os.close(fd)
                raise WorkbenchError(f"{path}: another process, {_who(f)}, is writing this workspace; "
                                     "wait for it to finish (--wait), or use another --workspace") from None
            time.sleep(0.05)
    os.ftruncate(fd, 0)
    os.pwrite(fd, _stamp(), 0)
    with _guard:
        _held[key] = 1
    try:
        yield
    finally:
        with _guard:
            _held.pop(key, None)
        os.ftruncate(fd, 0)
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)

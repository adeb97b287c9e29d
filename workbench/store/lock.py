"""One writer per workspace: a lock file holding the writer's process id.

`ingest` and `relink` take it for their whole run; a second writer is refused with the pid of
the first (instead of both running and one corpus losing its edges), and readers (the REST
server) can tell a workspace that is being written from one that is settled. A lock left by a
process that no longer runs (killed) is taken over.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

from ..core.errors import WorkbenchError

LOCK = "writing.lock"


def holder(path: str | Path) -> int | None:
    """The pid of the live process writing the workspace at `path`, else None."""
    try:
        pid = int((Path(path) / LOCK).read_text().strip() or 0)
    except (OSError, ValueError):
        return None
    if pid <= 0:
        return None
    if pid == os.getpid():
        return pid
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:          # alive, owned by someone else
        return pid
    return pid


@contextmanager
def writing(path: str | Path):
    """Hold the workspace's writer lock for the block (re-entrant within one process)."""
    f = Path(path) / LOCK
    f.parent.mkdir(parents=True, exist_ok=True)
    mine = False
    while not mine:
        try:
            fd = os.open(f, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            pid = holder(path)
            if pid == os.getpid():       # this process already writes (ingest -> relink)
                yield
                return
            if pid is not None:
                raise WorkbenchError(f"{path}: another process (pid {pid}) is writing this workspace; "
                                     "wait for it to finish, or use another --workspace") from None
            f.unlink(missing_ok=True)    # left by a process that is gone
            continue
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        mine = True
    try:
        yield
    finally:
        f.unlink(missing_ok=True)

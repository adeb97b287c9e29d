"""All or nothing: a writing command changes units, terms, graph and the workspace record
together, or a crash leaves a journal from which the workspace goes back to where it was.

Before the first write, `transaction` records in `journal.json` the version of every LanceDB
table (LanceDB keeps each version) and keeps a hard link to every file the command may
replace, create or delete (the graph's Parquet files, base and delta, and a
legacy graph.pickle the first save deletes: store/graph_files.py; workspace.json; a corpus's
citation file and report). Files are replaced by rename, so the links keep the old contents.
Committing deletes the journal (one unlink), then the links. If the process dies in between:

- the next writer (which holds the writer lock, so the dead one is gone) rolls back: each
  table is restored to its recorded version (a table created since is emptied), each file
  put back, each new file removed, and the journal deleted — and it says so;
- a reader never writes: while a journal is there it reads the recorded table versions and
  the kept files, the last committed state (`pending`, `committed_files`).
"""
from __future__ import annotations

import json
import os
import time
from contextlib import contextmanager
from pathlib import Path

from ..core.files import write_file  # noqa: F401  (files are replaced by rename: core/files.py)

JOURNAL = "journal.json"
KEPT = ".journal"              # hard links to the files as they were


def pending(path: str | Path) -> dict | None:
    """The journal of an unfinished write at `path`, if any (None when it cannot be read:
    a journal is written by rename, so a torn one does not exist)."""
    f = Path(path) / JOURNAL
    try:
        return json.loads(f.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def committed_file(path: str | Path, name: str) -> Path:
    """Where the last committed contents of workspace file `name` are: the kept copy while a
    write is unfinished, else the file itself."""
    return _committed(path, name, pending(path))


def committed_files(path: str | Path, names) -> dict[str, Path]:
    """committed_file of several files from one reading of the journal, so that they belong
    to the same committed state (the graph's node and edge tables)."""
    journal = pending(path)
    return {name: _committed(path, name, journal) for name in names}


def _committed(path: str | Path, name: str, journal: dict | None) -> Path:
    if journal and name in journal["files"]:
        return Path(path) / KEPT / name.replace("/", "__")
    if journal and name in journal.get("created", ()):     # did not exist before: nothing committed yet
        return Path(path) / KEPT / (name.replace("/", "__") + ".absent")
    return Path(path) / name


def _write(path: Path, data: dict) -> None:
    tmp = path / (JOURNAL + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(json.dumps(data, ensure_ascii=False, indent=1))
        f.flush()
        os.fsync(f.fileno())
    tmp.replace(path / JOURNAL)
    fsync_path(path)


def fsync_path(path: Path) -> None:
    """fsync a file or a folder (a folder: so a rename in it is durable)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextmanager
def transaction(path: str | Path, tables: dict, files: list[str], what: str):
    """`tables`: name -> LanceDB table (or None when it does not exist yet, with a callable
    under name + "?" that opens it later); `files`: workspace-relative files the block may
    replace or create. Call inside the writer lock."""
    path = Path(path)
    kept = path / KEPT
    kept.mkdir(parents=True, exist_ok=True)
    saved, created = [], []
    for name in files:
        src = path / name
        if src.exists():
            dst = kept / name.replace("/", "__")
            dst.unlink(missing_ok=True)
            os.link(src, dst)
            saved.append(name)
        else:
            created.append(name)
    versions = {name: (t.version if t is not None else None) for name, t in tables.items()}
    _write(path, {"what": what, "pid": os.getpid(), "started": time.time(), "tables": versions,
                  "files": saved, "created": created})
    yield
    (path / JOURNAL).unlink()
    fsync_path(path)
    for name in saved:
        (kept / name.replace("/", "__")).unlink(missing_ok=True)


def roll_back(path: str | Path, open_table) -> str | None:
    """Undo an unfinished write (call inside the writer lock); `open_table(name)` opens a
    LanceDB table or returns None. Returns a one-line account, or None if nothing was pending."""
    path = Path(path)
    journal = pending(path)
    if journal is None:
        (path / JOURNAL).unlink(missing_ok=True)      # unreadable: never completed its rename
        return None
    for name, version in journal["tables"].items():
        table = open_table(name)
        if table is None:
            continue
        if version is None:
            table.delete("true")
        elif table.version != version:
            table.restore(version)
    for name in journal["files"]:       # a rollback cut short already put some back: skip those
        kept = path / KEPT / name.replace("/", "__")
        if kept.exists():
            os.replace(kept, path / name)
    for name in journal["created"]:
        (path / name).unlink(missing_ok=True)
    (path / JOURNAL).unlink()
    fsync_path(path)
    return (f"rolled back an unfinished {journal['what']} (pid {journal['pid']}, started "
            f"{time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(journal['started']))})")

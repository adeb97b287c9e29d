"""One committed state of a workspace folder, as `Workbench.open` reads it: the workspace
record (workspace.json), the units and terms tables at their committed versions and the
graph, read again while a writer moves on meanwhile; and reading and writing the record."""
from __future__ import annotations

import json
import time
from pathlib import Path

from ..core.errors import WorkbenchError
from .checks import META
from .graph import FILES as GRAPH, IGraphStore
from .journal import committed_file, committed_files, pending, write_file
from .lance import LanceUnitStore
from .terms import TermStore

OPEN_TRIES = 20


def read_committed(path: Path, lance, dim: int, tables: dict | None = None) -> tuple:
    """(journal, record, unit store, term store, graph) of the last committed state: the tables
    pinned to the versions a journal (a write under way or dead) or `tables` (a remote HEAD) names."""
    for attempt in range(OPEN_TRIES):   # one committed state: again if a writer moved on meanwhile
        stamp = _stamp(path)
        try:
            journal = pending(path)
            snapshot = read_meta(path, committed=True)
            store, terms = LanceUnitStore(lance, dim), TermStore(lance)
            pinned = journal["tables"] if journal else tables   # a write under way or dead; a remote HEAD
            for table, name in ((store.table, "units"), (terms.table, "terms")):
                version = (pinned or {}).get(name)
                if version is not None and table.version != version:
                    table.checkout(version)
            graph = IGraphStore(path, committed_files(path, GRAPH))
        except (OSError, ValueError, RuntimeError):     # a file replaced while we read it
            if attempt == OPEN_TRIES - 1:
                raise
            time.sleep(0.05)
            continue
        if _stamp(path) == stamp:
            return journal, snapshot, store, terms, graph
        time.sleep(0.05)
    raise WorkbenchError(f"{path}: the workspace kept changing while it was opened (a writer is busy); "
                         "try again, or wait for the writer (`workbench ingest … --wait`)")


def _stamp(path: Path) -> tuple:
    """Changes whenever a writer starts, saves or commits."""
    out = []
    for name in ("journal.json", *GRAPH, META):
        try:
            st = (path / name).stat()
            out.append((st.st_ino, st.st_mtime_ns))
        except OSError:
            out.append(None)
    return tuple(out)


def pending_note(journal: dict | None) -> str | None:
    if not journal:
        return None
    return (f"an unfinished {journal['what']} (pid {journal['pid']}) left a journal: showing the last committed "
            "state; the next ingest or relink rolls it back")


def read_meta(path: Path, committed: bool = False) -> dict:
    """The workspace record ({} for a new one); WorkbenchError naming the file when it is no JSON object."""
    f = committed_file(path, META) if committed else path / META
    try:
        meta = json.loads(f.read_text(encoding="utf-8")) if f.exists() else {}
        why = "" if isinstance(meta, dict) else f"holds a JSON {type(meta).__name__}, not an object"
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        why = f"not valid JSON ({e})"
    if not why:
        return meta
    raise WorkbenchError(f"{f}: {why}; the workspace record is damaged: restore it from a backup, or delete "
                         "the workspace folder and ingest the corpora again")


def write_meta(path: Path, meta: dict) -> None:
    write_file(path / META, json.dumps(meta, ensure_ascii=False, indent=1))

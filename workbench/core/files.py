"""Writing a workspace file safely: by rename, never in place (store/journal.py keeps the old
contents through a hard link; link/store.py writes the citation files this way)."""
from __future__ import annotations

from pathlib import Path


def write_file(path: str | Path, text: str) -> None:
    """Replace a file by rename (never in place): a kept hard link keeps the old contents, and
    a reader sees the old file or the new one, never half of one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)

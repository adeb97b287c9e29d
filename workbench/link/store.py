"""Extracted citations kept per corpus in the workspace (JSON lines), so they can be
re-resolved whenever the workspace changes without extracting them again."""
from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from ..core.files import write_file
from ..core.records import EdgeType
from . import Citation

CITATIONS = "citations"


def save_citations(path: Path, citations: list[Citation]) -> None:
    lines = []
    for c in citations:
        row = asdict(c)
        row["type"] = c.type.value
        lines.append(json.dumps(row, ensure_ascii=False) + "\n")
    write_file(path, "".join(lines))


def load_citations(path: Path) -> list[Citation]:
    out = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            row["type"] = EdgeType(row["type"])
            out.append(Citation(**row))
    return out

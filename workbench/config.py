"""Frozen configuration records, one per concern, loadable from TOML."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from pathlib import Path


@dataclass(frozen=True)
class IngestConfig:
    embedder: str = "e5"                                  # see workbench.embedders.make_embedder
    embed_kinds: tuple[str, ...] = ("document", "article", "passage")  # units that get vectors
    batch_size: int = 64
    progress: bool = True


@dataclass(frozen=True)
class GraphConfig:
    related_threshold: float = 0.92     # RELATED_TO: cosine at least this (e5 scores run high)
    related_cap: int = 3                # ... to at most this many units per unit
    related_min_chars: int = 40         # headings and stubs get no RELATED_TO edges
    extract_citations: bool = True


@dataclass(frozen=True)
class Config:
    ingest: IngestConfig = IngestConfig()
    graph: GraphConfig = GraphConfig()

    @classmethod
    def load(cls, path: str | Path | None) -> "Config":
        if path is None:
            return cls()
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        ingest = _section(data, "ingest", IngestConfig, path)
        if "embed_kinds" in ingest:
            ingest["embed_kinds"] = tuple(ingest["embed_kinds"])
        return cls(ingest=IngestConfig(**ingest), graph=GraphConfig(**_section(data, "graph", GraphConfig, path)))


def _section(data: dict, name: str, kind, path) -> dict:
    section = dict(data.get(name, {}))
    known = {f.name for f in fields(kind)}
    unknown = set(section) - known
    if unknown:
        raise ValueError(f"{path}: unknown [{name}] settings {sorted(unknown)}; known: {sorted(known)}")
    return section

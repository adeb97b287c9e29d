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
class Config:
    ingest: IngestConfig = IngestConfig()

    @classmethod
    def load(cls, path: str | Path | None) -> "Config":
        if path is None:
            return cls()
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        ingest = data.get("ingest", {})
        known = {f.name for f in fields(IngestConfig)}
        unknown = set(ingest) - known
        if unknown:
            raise ValueError(f"{path}: unknown [ingest] settings {sorted(unknown)}; known: {sorted(known)}")
        if "embed_kinds" in ingest:
            ingest["embed_kinds"] = tuple(ingest["embed_kinds"])
        return cls(ingest=IngestConfig(**ingest))

"""The small interfaces through which logic reaches stores and models.

Batch-first, id-based, returning records (never a LanceDB table or an igraph.Graph),
so a backend can be swapped by writing one adapter file.
"""
from __future__ import annotations

from typing import Iterable, Protocol, Sequence

import numpy as np

from .records import Edge, EdgeType, Hit, Unit


class Embedder(Protocol):
    name: str          # identifies the model in caches and workspace metadata
    dim: int

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray: ...
    def embed_queries(self, texts: Sequence[str]) -> np.ndarray: ...


class UnitStore(Protocol):
    def replace_corpus(self, corpus: str, units: Sequence[Unit], vectors: np.ndarray,
                       embedded: Sequence[bool]) -> None: ...
    def get(self, ids: Iterable[str]) -> list[Unit]: ...
    def search_text(self, query: str, language: str, k: int, where: str | None = None) -> list[Hit]: ...
    def search_vector(self, vector: np.ndarray, k: int, where: str | None = None) -> list[Hit]: ...
    def counts(self) -> list[dict]: ...


class GraphStore(Protocol):
    def replace_corpus(self, corpus: str, edges: Sequence[Edge]) -> None: ...
    def edges_of(self, unit_id: str, types: Iterable[EdgeType] | None = None,
                 direction: str = "out") -> list[Edge]: ...
    def counts(self) -> dict[str, int]: ...
    def save(self) -> None: ...

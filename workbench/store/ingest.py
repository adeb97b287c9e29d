"""Ingest: parse a corpus, embed what needs vectors (through the cache), store units and edges."""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field

import numpy as np

from ..core.config import IngestConfig
from ..core.engine import current as current_engine
from ..parse import CorpusParse
from ..core.records import Problem, Unit
from ..parse.roles import with_roles


@dataclass
class IngestReport:
    corpus: str
    source: str
    documents: int
    units: int
    edges: int
    units_by_kind: dict[str, int]
    embedded: int                 # units that have a vector
    embedded_new: int             # of which computed now (the rest came from the cache)
    seconds: dict[str, float] = field(default_factory=dict)   # parse, embed, store, graph, link
    problems: list[Problem] = field(default_factory=list)
    versions: dict[str, dict[str, int]] = field(default_factory=dict)   # alignment counts per step
    edges_by_type: dict[str, int] = field(default_factory=dict)         # after linking

    def summary(self) -> str:
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(self.units_by_kind.items()))
        errors = sum(p.severity == "error" for p in self.problems)
        edges = ", ".join(f"{t} {n}" for t, n in self.edges_by_type.items()) or f"{self.edges}"
        return (f"{self.corpus}: {self.documents} documents, {self.units} units ({kinds}); "
                f"edges {edges}; {self.embedded_new} embedded now, "
                f"{self.embedded - self.embedded_new} from cache; {len(self.problems)} problems "
                f"({errors} errors)")


def embedding_text(u: Unit) -> str:
    return f"{u.title}\n{u.text}".strip() if u.title and u.title not in u.text else u.text


def text_key(model: str, text: str) -> str:
    return f"{model}:{hashlib.sha1(text.encode('utf-8')).hexdigest()}"


def embed_units(units: list[Unit], embedder, cache, cfg: IngestConfig) -> tuple[np.ndarray, list[bool], int]:
    """Vectors for the units whose kind is in cfg.embed_kinds (zeros elsewhere), reusing cached ones."""
    wanted = [i for i, u in enumerate(units) if u.kind in cfg.embed_kinds and u.text.strip()]
    texts = [embedding_text(units[i]) for i in wanted]
    keys = [text_key(embedder.name, t) for t in texts]
    cached = cache.lookup(keys)
    todo = sorted({k: t for k, t in zip(keys, texts) if k not in cached}.items())
    fresh: dict[str, np.ndarray] = {}
    bar = _progress(len(todo), cfg.progress)
    batches = [todo[start:start + cfg.batch_size] for start in range(0, len(todo), cfg.batch_size)]
    if batches:                 # on the ingest engine (core/engine.py): here, or Ray actors
        for batch, vecs in zip(batches, current_engine().embed(embedder, [[t for _, t in b] for b in batches])):
            fresh.update({k: v for (k, _), v in zip(batch, vecs)})
            bar.update(len(batch))
    bar.close()
    cache.add(fresh)
    vectors = np.zeros((len(units), embedder.dim), dtype=np.float32)
    embedded = [False] * len(units)
    for i, k in zip(wanted, keys):
        vectors[i] = fresh[k] if k in fresh else cached[k]
        embedded[i] = True
    return vectors, embedded, len(fresh)


def _progress(total: int, enabled: bool):
    from tqdm.auto import tqdm
    return tqdm(total=total, desc="embedding", unit="unit", disable=not enabled or total < 64)   # a bar for more than a couple of batches


def run_ingest(parsed: CorpusParse, wb, parse_seconds: float) -> IngestReport:
    """Embed and store a parsed corpus, and build its own edge layers (structure, versions,
    semantic) and terms. Citations are resolved afterwards, workspace-wide (Workbench.relink)."""
    from ..link.duties import implicit_duties
    from ..link.semantic import related_edges
    from ..link.terms import extract_terms
    from ..link.versions import align_corpus
    cfg, gcfg = wb.config.ingest, wb.config.graph
    units = sorted(parsed.result.units, key=lambda u: (u.key, u.version, u.ordinal))
    units = with_roles([u if u.corpus else _with_corpus(u, parsed.name) for u in units])   # duties read them too
    t0 = time.perf_counter()
    vectors, embedded, new = embed_units(units, wb.embedder, wb.cache, cfg)
    t1 = time.perf_counter()
    wb.store.replace_corpus(parsed.name, units, vectors, embedded)
    wb.graph.replace_corpus(parsed.name, parsed.result.edges, "structure")
    wb.graph.replace_corpus(parsed.name, implicit_duties(units), "duties")     # penalties -> unnumbered duties
    t2 = time.perf_counter()
    article_vectors = {u.id: vectors[i] for i, u in enumerate(units) if embedded[i] and u.kind in ("article", "passage")}
    version_edges, version_counts = align_corpus(units, article_vectors, wb.body_names)
    wb.graph.replace_corpus(parsed.name, version_edges, "versions")
    wb.graph.replace_corpus(parsed.name, related_edges(
        units, vectors, embedded, gcfg.related_threshold, gcfg.related_cap, gcfg.related_min_chars), "semantic")
    wb.terms.replace_corpus(parsed.name, [t for u in units for t in extract_terms(u)])
    t3 = time.perf_counter()
    kinds: dict[str, int] = {}
    for u in units:
        kinds[u.kind] = kinds.get(u.kind, 0) + 1
    report = IngestReport(parsed.name, parsed.source, len(parsed.documents), len(units),
                          len({e.key for e in parsed.result.edges}), kinds, sum(embedded), new,
                          {"parse": parse_seconds, "embed": t1 - t0, "store": t2 - t1, "graph": t3 - t2},
                          list(parsed.result.problems))
    report.versions = version_counts
    return report


def _with_corpus(u: Unit, corpus: str) -> Unit:
    from dataclasses import replace
    return replace(u, corpus=corpus)

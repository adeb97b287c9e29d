"""Retrieval modes behind one API: bm25, dense, hybrid (RRF or weighted fusion), graph.

Every mode returns a `Result`: ranked `Hit`s, each with its provenance (`Hit.via`: direct
lookup, BM25, dense, fused, or the edge path from a seed), and the cited set. Graph mode
(`graph.py`) plans the question, scopes it, takes seeds, expands them through typed edges
under the routed policy, re-ranks, and cites. The Retriever holds what those stages share
and reads once per workspace: the catalog of instruments, the article graph, the
reference index.
"""
from __future__ import annotations

import numpy as np

from ..core.config import RetrievalConfig
from ..core.errors import QuestionError
from ..core.orthography import one_form
from ..core.records import EdgeType, Filter, Result, Unit
from ..link.versions import ALIGN_EXTRACTOR, grams
from .catalog import Catalog
from .expand import ArticleGraph
from ..parse.languages import guess_language, has_words  # noqa: F401  (guess_language re-exported: callers import it from here)

QUERY_CACHE = 512          # query vectors kept (a few MB); far more than one session asks


class Retriever:
    def __init__(self, store, graph, embedder, documents: list[Unit], terms: dict[str, list[str]] | None = None):
        """`terms`: defined term (normalised) -> ids of the units defining it."""
        self.store, self.graph, self.embedder, self.terms = store, graph, embedder, terms
        self.documents = documents
        self.catalog = Catalog(store, documents)
        self._agraph: ArticleGraph | None = None
        self._refs: dict[str, list[tuple[str, str]]] | None = None
        self._ref_units: dict[str, list[tuple[str, str]]] | None = None
        self._grams: dict[str, dict[str, set[str]]] = {}
        self._articles: dict[str, list[Unit]] = {}
        self._duties: dict[str, list[tuple[str, str]]] | None = None
        self._cited_by: dict[str, list[str]] | None = None
        self._has_parts: bool | None = None
        self._qvecs: dict[str, np.ndarray] = {}     # recent query / topic vectors, oldest first

    def query_vector(self, text: str) -> np.ndarray:
        """The query embedding of `text`, kept for the QUERY_CACHE most recent texts: the same
        question asked again with other settings (the panel, an evaluation of several
        systems) is not embedded again."""
        v = self._qvecs.get(text)
        if v is None:
            v = self.embedder.embed_queries([text])[0]
            self._qvecs[text] = v
            while len(self._qvecs) > QUERY_CACHE:
                self._qvecs.pop(next(iter(self._qvecs)), None)
        return v

    @property
    def agraph(self) -> ArticleGraph:
        """The article-level graph (built on first use, from the edge store's columns)."""
        if self._agraph is None:
            self._agraph = ArticleGraph.from_columns(self.graph.columns())
        return self._agraph

    @property
    def has_parts(self) -> bool:
        if self._has_parts is None:
            self._has_parts = self.catalog.has_parts()
        return self._has_parts

    def ref_index(self) -> dict[str, list[tuple[str, str]]]:
        """article -> (citing unit inside it, cited article), for resolved REFERENCES."""
        if self._refs is None:
            from .citing import reference_index
            self._refs = reference_index(self.graph)
        return self._refs

    def articles(self, doc: str) -> list[Unit]:
        """Every article of one version ('key@version'), kept for the next question reading it
        (cite.moved_focus's grams, sanctions.stated_sanction); the last 16 versions read."""
        return _recent(self._articles, doc, lambda: self.store.where(Filter(documents=(doc,), kinds=("article",))))

    def article_grams(self, doc: str) -> dict[str, set[str]]:
        """The grams (link/versions.grams) of every article of one version, kept as `articles` are."""
        return _recent(self._grams, doc, lambda: {u.id: grams(u.text or "") for u in self.articles(doc)})

    def ref_units(self) -> dict[str, list[tuple[str, str]]]:
        """article -> (citing unit inside it, cited unit as numbered: article or clause)."""
        if self._ref_units is None:
            from .citing import reference_index
            self._ref_units = reference_index(self.graph, units=True)
        return self._ref_units

    def cited_by(self) -> dict[str, list[str]]:
        """article -> the articles citing it (REFERENCES the text states), in index order."""
        if self._cited_by is None:
            out: dict[str, list[str]] = {}
            for art, pairs in self.ref_index().items():
                for _, target in pairs:
                    if not out.get(target) or out[target][-1] != art:
                        out.setdefault(target, []).append(art)
            self._cited_by = out
        return self._cited_by

    def duty_index(self) -> dict[str, list[tuple[str, str]]]:
        """article -> (sanctioning unit inside it, the duty article it restates), link/duties.py."""
        if self._duties is None:
            from .citing import reference_index
            self._duties = reference_index(self.graph, implicit=True)
        return self._duties

    def amended(self, a: str, b: str) -> bool:
        """Whether the version step between aligned articles `a` and `b` changed the text (an
        AMENDS alignment edge; a change of form only is INHERITS). A step that only made the
        revision's renaming (`substance` 0, link/substance.py) counts: a question may ask about
        the renaming itself (which authority a revision put in charge)."""
        return _amends(self.graph.version_edge(a, b))

    def amended_in_substance(self, a: str, b: str) -> bool:
        """`amended`, leaving out a step that only made the revision's renaming (`substance` 0)."""
        e = self.graph.version_edge(a, b)
        return _amends(e) and (e is None or dict(e.attrs).get("substance") != "0")

    def neighbours(self, uid: str) -> list[tuple[str, str, str]]:
        """(article, edge type, arrow) linked to article `uid`."""
        return self.agraph.neighbours(uid)

    def retrieve(self, q: str, cfg: RetrievalConfig, qvec: np.ndarray | None = None,
                 language: str = "") -> Result:
        check_question(q)
        q = one_form(q)         # composed letters, one Vietnamese tone placement (core/orthography.py): the
        # instrument names and defined terms it is compared with are read in that form too
        language = language or guess_language(q)
        if cfg.mode not in ("bm25", "dense", "hybrid", "graph"):
            raise ValueError(f"unknown retrieval mode {cfg.mode!r}: bm25, dense, hybrid or graph")
        if qvec is None and cfg.mode != "bm25":
            qvec = self.query_vector(q)
        if cfg.mode != "graph":
            from .flat import flat
            return flat(self.store, q, qvec, language, cfg)
        from .graph import graph_retrieve
        return graph_retrieve(self, q, qvec, language, cfg)


def _recent(cache: dict, key, make, size: int = 16):
    """cache[key], made when missing; the oldest entry dropped beyond `size`."""
    if key not in cache:
        if len(cache) >= size:
            cache.pop(next(iter(cache)))
        cache[key] = make()
    return cache[key]


def check_question(q: str) -> None:
    """A question must hold a word (letters or digits, in any script) to be searched for."""
    if not has_words(q):
        raise QuestionError(f"question {q!r}: nothing to search for; ask it in words "
                            "(e.g. \"What is the penalty for operating without a licence?\")")


def _amends(e) -> bool:
    """Whether a version step (its alignment edge, None when there is none) changed the text."""
    return e is None or e.extractor != ALIGN_EXTRACTOR or e.type == EdgeType.AMENDS

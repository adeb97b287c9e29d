"""The entities of a workspace, built once per process from its stored units: search, an
entity's aggregated relations, its documents with co-occurring entities, traversal, subgraphs
and LOCAL context for a query. `Workbench.entities` builds it on first use."""
from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from ..core.records import Filter
from .aggregate import AggregatedRelation, aggregate, filter_relations
from .extract import Entity, Mention, extract_all, normalise
from .relations import Relation, relations_all
from .subgraph import Snippet, Subgraph, local_context, source_relevance, subgraph, tokens_of
from .traverse import Path, bfs, build_graph, confidence_weighted, shortest_path

KINDS = ("article", "clause", "point", "passage")      # units whose text is read for entities
STRATEGIES = ("bfs", "shortest", "confidence")


@dataclass
class EntityIndex:
    entities: dict[str, Entity]
    mentions: list[Mention]
    relations: list[Relation]
    aggregated: list[AggregatedRelation]
    units: dict[str, object]              # unit id -> Unit (for documents, lines, snippets)
    seconds: float = 0.0
    _confidence: dict[str, float] | None = field(default=None, init=False, repr=False)   # confidence(), read once
    _counts: Counter | None = field(default=None, init=False, repr=False)        # counts(), read once
    _forms: dict[str, tuple[str, ...]] | None = field(default=None, init=False, repr=False)   # forms(), read once
    _docs: dict[str, set[str]] | None = field(default=None, init=False, repr=False)          # _documents_of()
    _by_unit: dict[str, set[str]] | None = field(default=None, init=False, repr=False)       # entities per unit

    @classmethod
    def build(cls, store, documents) -> "EntityIndex":
        """From every article, clause, point and passage of a unit store; `documents` are the
        document units (their titles name each instrument)."""
        t = time.perf_counter()
        units = store.where(Filter(kinds=KINDS))
        titles = {d.key: d.title for d in documents if d.title}
        entities, mentions = extract_all(units, titles)
        rels = relations_all(units, mentions, titles)
        index = cls({e.id: e for e in entities}, mentions, rels, aggregate(rels), {u.id: u for u in units})
        index._graph = build_graph(index.aggregated)
        index.seconds = time.perf_counter() - t
        return index

    @property
    def graph(self):
        return self._graph

    def search(self, query: str = "", types=(), limit: int = 20, min_confidence: float = 0.0) -> list[dict]:
        """Entities whose name or a surface form contains `query` (normalised), most mentioned first;
        `min_confidence`: only those with a mention at least that confident (its pattern's strength,
        entities/extract.py: 0.85 and over, a name in a closed form -- a title, a level prefix, a fixed
        head -- rather than one whose end was found by scanning)."""
        q = normalise(query) if query else ""
        count, best, docs, forms = self.counts(), self.confidence(), self._documents_of(), self.forms()
        found = [e for e in self.entities.values() if (not types or e.type in types)
                 and best.get(e.id, 0.0) >= min_confidence and (not q or any(q in f for f in forms[e.id]))]
        found.sort(key=lambda e: (-count[e.id], e.id))
        return [{"id": e.id, "type": e.type, "name": e.name, "surfaces": list(e.surfaces), "language": e.language,
                 "mentions": count[e.id], "documents": len(docs.get(e.id, ())), "confidence": best.get(e.id, 0.0)}
                for e in found[:limit]]

    def counts(self) -> Mapping[str, int]:
        """Entity id -> its number of mentions (read once; a read-only view of the cache, 0 for an id
        without mentions)."""
        if self._counts is None:
            self._counts = Counter(m.entity_id for m in self.mentions)
        return MappingProxyType(self._counts)

    def forms(self) -> Mapping[str, tuple[str, ...]]:
        """Entity id -> its name and surface forms, normalised (read once; a read-only view)."""
        if self._forms is None:
            self._forms = {e.id: tuple(dict.fromkeys(normalise(x) for x in (e.name, *e.surfaces)))
                           for e in self.entities.values()}
        return MappingProxyType(self._forms)

    def confidence(self) -> Mapping[str, float]:
        """Entity id -> the confidence of its most confident mention (read once; a read-only view)."""
        if self._confidence is None:
            best: dict[str, float] = {}
            for m in self.mentions:
                best[m.entity_id] = max(best.get(m.entity_id, 0.0), m.confidence)
            self._confidence = best
        return MappingProxyType(self._confidence)

    def relations_of(self, entity_id: str, types=None, min_confidence: float = 0.0,
                     min_occurrences: int = 1) -> list[AggregatedRelation]:
        """The aggregated relations an entity takes part in (as subject or object)."""
        mine = [a for a in self.aggregated if entity_id in (a.subject, a.object)]
        return filter_relations(mine, types, min_confidence, min_occurrences)

    def documents_of(self, entity_id: str, co_limit: int = 10) -> list[dict]:
        """The documents (key@version) mentioning an entity, with its mention count there and
        the entities mentioned most often in the same units."""
        if self._by_unit is None:               # built whole, then published: requests run in threads
            by_unit: dict[str, set[str]] = {}
            for m in self.mentions:
                by_unit.setdefault(m.unit_id, set()).add(m.entity_id)
            self._by_unit = by_unit
        by_unit = self._by_unit
        out: dict[str, dict] = {}
        for m in self.mentions:
            if m.entity_id != entity_id:
                continue
            doc = m.unit_id.split("/")[0]
            row = out.setdefault(doc, {"document": doc, "mentions": 0, "units": set(), "with": Counter()})
            row["mentions"] += 1
            row["units"].add(m.unit_id)
            row["with"].update(e for e in by_unit[m.unit_id] if e != entity_id)
        return [{"document": r["document"], "mentions": r["mentions"], "units": sorted(r["units"]),
                 "co_occurring": [{"id": e, "count": n} for e, n in r["with"].most_common(co_limit)]}
                for r in sorted(out.values(), key=lambda r: -r["mentions"])]

    def traverse(self, start: str, end: str | None = None, strategy: str = "bfs", max_depth: int = 2,
                 max_nodes: int = 50, min_confidence: float = 0.0) -> list[Path]:
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r}: {', '.join(STRATEGIES)}")
        for e in (start, end):
            if e is not None and e not in self.entities:
                raise KeyError(e)
        if strategy == "shortest":
            if end is None:
                raise ValueError("strategy 'shortest' needs an end entity")
            found = shortest_path(self.graph, start, end)
            return [found] if found else []
        if strategy == "confidence":
            return confidence_weighted(self.graph, start, end, max_depth, min_confidence)
        return bfs(self.graph, start, max_depth, max_nodes, end)

    def subgraph(self, ids, depth: int = 1) -> Subgraph:
        missing = [i for i in ids if i not in self.entities]
        if missing:
            raise KeyError(missing[0])
        return subgraph(list(self.entities.values()), self.mentions, self.relations, list(ids), depth,
                        self.units.values())

    def local_context(self, query: str, ids=(), max_chars: int = 4000, depth: int = 1) -> tuple[list[str], str]:
        """LOCAL context for a query: around the given entities, else the entities the query names."""
        centers = list(ids) or [e["id"] for e in self._named_in(query)][:5]
        if not centers:
            return [], ""
        return centers, local_context(self.subgraph(centers, depth), query, max_chars)

    def sources(self, centers, query: str, depth: int = 1) -> list[Snippet]:
        """The sentences supporting the subgraph around `centers`, in the order LOCAL ranks them
        (share of the query's words plus confidence, then unit id): what an answer cites."""
        q = tokens_of(query)
        return sorted(self.subgraph(centers, depth).snippets, key=lambda s: (-source_relevance(q, s), s.unit_id))

    def _named_in(self, query: str) -> list[dict]:
        """Entities the query names: one of their forms is in it, else an entity-like phrase of
        the query (read by the same rules as a provision) is part of their name."""
        from ..core.records import Unit
        from ..parse.languages import guess_language
        from .extract import extract
        q, forms = normalise(query), self.forms()
        hits = [e for e in self.entities.values() if len(forms[e.id][0]) >= 2 and
                any(len(f) >= 2 and f in q for f in forms[e.id])]
        if not hits:
            phrases = {normalise(m.surface) for m in extract(Unit("query", "query", "", "article", text=query,
                                                                  language=guess_language(query)))}
            hits = [e for e in self.entities.values() if any(len(p) >= 2 and p in forms[e.id][0] for p in phrases)]
        count = self.counts()
        hits.sort(key=lambda e: (-len(e.name), -count[e.id]))
        return [{"id": e.id} for e in hits]

    def _documents_of(self) -> dict[str, set[str]]:
        """Entity id -> the instruments (keys) mentioning it (read once)."""
        if self._docs is None:
            docs: dict[str, set[str]] = {}
            for m in self.mentions:
                docs.setdefault(m.entity_id, set()).add(m.unit_id.split("@")[0])
            self._docs = docs
        return self._docs

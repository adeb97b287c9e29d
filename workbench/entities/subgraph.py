"""Entity-centred subgraphs and a query-focused LOCAL context built from one.

`subgraph` takes one or several centre entities and everything within `depth` hops of any of
them (in either direction) in the aggregated relation graph, once each: nodes with where they
are mentioned (per document, `primary_document`, `is_cross_doc` when more than one instrument
names them), the aggregated edges among them, and the sentences that support those edges (and,
when units are given, that mention the nodes), each with its unit id, document and lines.

`local_context` turns a subgraph into text for an LLM prompt: "Entities", "Relations" and
"Sources" sections, each listing its items by relevance to the query (shared words, or shared
characters and character pairs for Chinese) plus confidence, within a character budget; every
source cites its unit id in square brackets so an answer can cite it back.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ..parse.languages import han_pairs
from .aggregate import AggregatedRelation, aggregate
from .extract import Entity, Mention
from .relations import Relation
from .traverse import build_graph


@dataclass
class Node:
    id: str
    type: str
    name: str
    surfaces: tuple[str, ...]
    is_center: bool
    document_count: int                        # distinct instruments naming it
    is_cross_doc: bool
    primary_document: str | None               # the key@version with most mentions
    mentions_per_document: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Snippet:
    unit_id: str
    document: str
    text: str
    entity_ids: tuple[str, ...]
    confidence: float
    line_start: int = 0                        # 0: not known
    line_end: int = 0


@dataclass
class Subgraph:
    centers: tuple[str, ...]
    nodes: list[Node]
    edges: list[AggregatedRelation]
    snippets: list[Snippet]

    def node(self, id_: str) -> Node | None:
        return next((n for n in self.nodes if n.id == id_), None)


def _document(unit_id: str, units: dict) -> str:
    u = units.get(unit_id)
    return f"{u.key}@{u.version}" if u is not None else unit_id.split("/", 1)[0]


def _key(document: str) -> str:
    return document.rsplit("@", 1)[0]


def subgraph(entities: list[Entity], mentions: list[Mention], relations: list[Relation], center_ids,
             depth: int = 1, units=None) -> Subgraph:
    """The subgraph around `center_ids` (one id or several) out to `depth` hops; `units` (optional)
    give line numbers and mention sentences for the sources."""
    centers = (center_ids,) if isinstance(center_ids, str) else tuple(dict.fromkeys(center_ids))
    units = {u.id: u for u in units or ()}
    aggs = aggregate(relations)
    g = build_graph(aggs)
    names = set(g.vs["name"]) if g.vcount() else set()
    ids = set(centers)
    for c in centers:
        if c in names:
            ids.update(g.vs[v]["name"] for v in g.neighborhood(g.vs.find(name=c).index, order=depth, mode="all"))
    edges = [a for a in aggs if a.subject in ids and a.object in ids]
    by_id = {e.id: e for e in entities}
    per_doc: dict[str, Counter] = {i: Counter() for i in ids}
    for m in mentions:
        if m.entity_id in per_doc:
            per_doc[m.entity_id][_document(m.unit_id, units)] += 1
    mentioned = {m.entity_id for m in mentions}
    for r in relations:                         # entities never mentioned (an instrument's own id)
        for end in (r.subject, r.object):
            if end in per_doc and end not in mentioned:
                per_doc[end][r.document] += 1
    nodes = []
    for i in sorted(ids, key=lambda x: (x not in centers, x)):
        e, counts = by_id.get(i), per_doc[i]
        keys = {_key(d) for d in counts}
        nodes.append(Node(i, e.type if e else i.partition(":")[0], e.name if e else i.partition(":")[2],
                          e.surfaces if e else (), i in centers, len(keys), len(keys) > 1,
                          max(sorted(counts), key=counts.__getitem__) if counts else None, dict(counts)))
    return Subgraph(centers, nodes, edges, _snippets(ids, edges, mentions, relations, units))


def _snippets(ids, edges, mentions, relations, units) -> list[Snippet]:
    wanted = {(a.subject, a.type, a.object) for a in edges}
    found: dict[tuple[str, str], dict] = {}
    for r in relations:
        if (r.subject, r.type, r.object) in wanted:
            s = found.setdefault((r.unit_id, r.evidence), {"doc": r.document, "ids": set(), "conf": 0.0})
            s["ids"].update((r.subject, r.object))
            s["conf"] = max(s["conf"], r.confidence)
    per_entity: Counter = Counter()
    for m in mentions:                          # up to 3 sentences per node, when the text is at hand
        u = units.get(m.unit_id)
        if m.entity_id in ids and u is not None and per_entity[m.entity_id] < 3:
            per_entity[m.entity_id] += 1
            text = u.text or ""
            start = max(text.rfind(c, 0, m.start) for c in "。；;.\n") + 1
            stops = [p for p in (text.find(c, m.end) for c in "。；;.\n") if p >= 0]
            sentence = text[start:min(stops) + 1 if stops else len(text)].strip()
            s = found.setdefault((m.unit_id, sentence), {"doc": _document(m.unit_id, units), "ids": set(), "conf": 0.0})
            s["ids"].add(m.entity_id)
            s["conf"] = max(s["conf"], m.confidence)
    out = []
    for (unit_id, text), s in found.items():
        u = units.get(unit_id)
        out.append(Snippet(unit_id, s["doc"], text, tuple(sorted(s["ids"])), round(s["conf"], 3),
                           u.line_start if u else 0, u.line_end if u else 0))
    return sorted(out, key=lambda s: (-s.confidence, s.unit_id, s.text))


# -- local context -----------------------------------------------------------------------------
_STOP = set("the a an of and or to in on for by is are be what which who whom how does do with under "
            "must may shall".split())


def tokens_of(text: str) -> set[str]:
    """Words (case-folded, not function words) and, for Chinese, characters and character pairs."""
    text = text.casefold()
    out = {w for w in re.findall(r"[^\W\d_]{2,}", re.sub(r"[\u4e00-\u9fff]", " ", text)) if w not in _STOP}
    for run in re.findall(r"[\u4e00-\u9fff]+", text):
        out.update(run)
    return out | han_pairs(text)


def overlap(query: set[str], text: str) -> float:
    return len(query & tokens_of(text)) / len(query) if query else 0.0


def source_relevance(query: set[str], s: Snippet) -> float:
    """How LOCAL ranks a source: its share of the query's words, plus its confidence."""
    return overlap(query, s.text) + s.confidence


def local_context(sg: Subgraph, query: str, max_chars: int = 4000) -> str:
    """A query-focused context of at most `max_chars` characters (see the module doc)."""
    q = tokens_of(query)
    names = {n.id: n.name for n in sg.nodes}
    entity_lines = [(overlap(q, " ".join((n.name,) + tuple(n.surfaces))) + 0.5 * n.is_center + 0.05 * n.document_count,
                     f"- {n.name} ({n.type}; {n.document_count} instrument(s)"
                     f"{', cross-document' if n.is_cross_doc else ''}"
                     f"{'; mostly ' + n.primary_document if n.primary_document else ''})") for n in sg.nodes]
    relation_lines = [(overlap(q, f"{names.get(a.subject, a.subject)} {a.type} {names.get(a.object, a.object)}")
                       + a.avg_confidence,
                       f"- {names.get(a.subject, a.subject)} -{a.type}-> {names.get(a.object, a.object)} "
                       f"(confidence {a.avg_confidence:.2f}, {a.occurrences}x, in {', '.join(a.keys)})") for a in sg.edges]
    source_lines = []
    for s in sg.snippets:
        text = s.text if len(s.text) <= 300 else s.text[:299] + "…"
        line = f" line {s.line_start}" if s.line_start else ""
        source_lines.append((source_relevance(q, s), f"- [{s.unit_id}] {s.document}{line}: {text}"))
    sections = {"Entities": entity_lines, "Relations": relation_lines, "Sources": source_lines}
    budget = max_chars - sum(len(h) + 1 for h in sections) - 2
    shares = {"Entities": 0.25, "Relations": 0.3, "Sources": 0.45}
    chosen: dict[str, list[tuple[float, str]]] = {h: [] for h in sections}
    used = 0
    for sweep in ("share", "rest"):             # first each section's share, then whatever room is left
        for head, lines in sections.items():
            room = shares[head] * budget if sweep == "share" else budget
            taken = sum(len(t) + 1 for _, t in chosen[head])
            for item in sorted(lines, key=lambda x: -x[0]):
                cost = len(item[1]) + 1
                if item not in chosen[head] and taken + cost <= room and used + cost <= budget:
                    chosen[head].append(item)
                    taken, used = taken + cost, used + cost
    text = "\n\n".join("\n".join([head] + [t for _, t in chosen[head]]) for head in sections)
    return text[:max_chars]

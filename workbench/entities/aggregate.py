"""Cross-document aggregation: one record per (subject, type, object) over every unit, version
and instrument that lays the relation down, so that "the same duty in two laws" is one fact
with two supporting documents rather than two unrelated edges.

A relation found twice in the same unit with the same evidence (an article and its clause
repeating one sentence) counts once.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from .relations import Relation


@dataclass(frozen=True)
class DocumentSupport:
    """One instrument supporting an aggregated relation."""
    key: str                          # the instrument
    versions: tuple[str, ...]         # its key@version documents that carry the relation
    first_seen: dt.date | None        # earliest effective_from among the supporting units
    unit_ids: tuple[str, ...]


@dataclass(frozen=True)
class AggregatedRelation:
    subject: str
    type: str
    object: str
    occurrences: int                  # supporting relation records (distinct unit + evidence)
    document_count: int               # distinct instruments (keys)
    documents: tuple[DocumentSupport, ...]   # earliest first (unknown dates last)
    avg_confidence: float
    max_confidence: float
    unit_ids: tuple[str, ...]

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(d.key for d in self.documents)

    @property
    def first_seen(self) -> dt.date | None:
        dates = [d.first_seen for d in self.documents if d.first_seen]
        return min(dates) if dates else None


def _earliest(dates) -> dt.date | None:
    known = [d for d in dates if d is not None]
    return min(known) if known else None


def aggregate(relations: list[Relation]) -> list[AggregatedRelation]:
    """Group relations by (subject, type, object); most widely supported first."""
    groups: dict[tuple[str, str, str], dict[tuple[str, str], Relation]] = {}
    for r in relations:
        groups.setdefault((r.subject, r.type, r.object), {})[(r.unit_id, r.evidence)] = r
    out = []
    for (subj, type_, obj), found in groups.items():
        rels = list(found.values())
        by_key: dict[str, list[Relation]] = {}
        for r in rels:
            by_key.setdefault(r.key, []).append(r)
        docs = [DocumentSupport(key, tuple(sorted({r.document for r in rs})), _earliest(r.effective_from for r in rs),
                                tuple(sorted({r.unit_id for r in rs})))
                for key, rs in by_key.items()]
        docs.sort(key=lambda d: (d.first_seen is None, d.first_seen or dt.date.min, d.key))
        confs = [r.confidence for r in rels]
        out.append(AggregatedRelation(subj, type_, obj, len(rels), len(docs), tuple(docs),
                                      round(sum(confs) / len(confs), 4), max(confs),
                                      tuple(sorted({r.unit_id for r in rels}))))
    out.sort(key=lambda a: (-a.document_count, -a.occurrences, -a.avg_confidence, a.subject, a.type, a.object))
    return out


def filter_relations(aggs: list[AggregatedRelation], types=None, min_confidence: float = 0.0,
                     min_occurrences: int = 1) -> list[AggregatedRelation]:
    """Keep relations of the given types (None: all) whose average confidence and number of
    occurrences reach the thresholds; order is kept."""
    wanted = set(types) if types else None
    return [a for a in aggs if (wanted is None or a.type in wanted)
            and a.avg_confidence >= min_confidence and a.occurrences >= min_occurrences]

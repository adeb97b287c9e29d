"""Edges stated by a corpus's metadata rather than its text: `replaces` and `amends`."""
from __future__ import annotations

from ..core.records import EdgeType, Unit
from . import Citation


def manifest_citations(unit: Unit) -> list[Citation]:
    if unit.kind != "document":
        return []
    out = []
    for field, etype in (("replaces", EdgeType.REPLACES), ("amends", EdgeType.AMENDS)):
        for target in filter(None, unit.attr(field).split(";")):
            key, _, version = target.partition("@")
            out.append(Citation(unit.id, f"{field} = {target}", etype, instrument=key,
                                version=version or None, confidence=1.0, extractor="manifest"))
    return out

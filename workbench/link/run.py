"""Extract citations from units with the extractor of their language, and resolve them."""
from __future__ import annotations

import importlib
import inspect
from typing import Iterable

from ..core.records import Edge, Problem, Unit
from . import Citation
from .resolve import Resolver

EXTRACTORS = {"zh": "workbench.link.zh", "vi": "workbench.link.vi", "en": "workbench.link.en"}


def extractor_for(language: str):
    name = EXTRACTORS.get((language or "").split("-")[0].lower())
    if name is None:
        return None
    try:
        return importlib.import_module(name).extract
    except ModuleNotFoundError:
        return None


def extract_citations(units: Iterable[Unit]) -> list[Citation]:
    """Citations of every unit. An article's text includes its clauses' text, so the same
    citation is found at several depths: only the deepest citing unit keeps it."""
    from .manifest import manifest_citations
    units = list(units)
    # what each document amends: an amendment act's items ("将第五条修改为") need it
    amends = {u.id: tuple(filter(None, u.attr("amends").split(";"))) for u in units if u.kind == "document"}
    out: list[Citation] = []
    for u in units:
        out.extend(manifest_citations(u))
        extract = extractor_for(u.language)
        if extract is not None:
            doc_amends = amends.get(f"{u.key}@{u.version}")
            takes_amends = "amends" in inspect.signature(extract).parameters
            out.extend(extract(u, amends=doc_amends) if doc_amends and takes_amends else extract(u))
    return deepest(out)


def deepest(citations: list[Citation]) -> list[Citation]:
    groups: dict[tuple, list[Citation]] = {}
    for c in citations:
        groups.setdefault((c.text, c.instrument, c.path(), c.type, c.op), []).append(c)
    kept = []
    for group in groups.values():
        sources = {c.source for c in group}
        for c in group:
            if not any(s != c.source and s.startswith(c.source + "/") for s in sources):
                kept.append(c)
    return list({(c.source, c.text, c.path(), c.type): c for c in kept}.values())


def resolve_citations(citations: list[Citation], units_by_id: dict[str, Unit],
                      resolver: Resolver) -> tuple[list[Edge], list[Problem]]:
    edges, problems = [], []
    for c in citations:
        source = units_by_id.get(c.source)
        if source is None:
            continue
        e = resolver.resolve(c, source)
        if e.source == e.target:
            problems.append(Problem(source.source_file, source.line_start,
                                    f"{c.source} cites itself ({c.text!r}); edge dropped"))
            continue
        edges.append(e)
    return edges, problems


def link_units(units: list[Unit]) -> tuple[list[Edge], list[Problem]]:
    """Extract and resolve within one set of units (a corpus or a test snippet)."""
    by_id = {u.id: u for u in units}
    resolver = Resolver([u for u in units if u.kind == "document"], set(by_id), units)
    return resolve_citations(extract_citations(units), by_id, resolver)

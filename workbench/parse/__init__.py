"""Parsers (one per grammar) and importers (one per source format).

Every importer is a function `import_<format>(path) -> CorpusParse`; `load_corpus`
picks the importer from what it finds at the path.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..core.records import DocumentMeta, ParseResult


@dataclass
class CorpusParse:
    name: str
    language: str
    documents: list[DocumentMeta] = field(default_factory=list)
    result: ParseResult = field(default_factory=ParseResult)
    source: str = ""              # the path the corpus was read from

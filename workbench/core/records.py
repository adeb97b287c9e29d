"""Plain records shared by every layer. No backend imports here."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from enum import Enum

UNIT_KINDS = ("document", "part", "chapter", "section", "subsection",
              "article", "clause", "point", "subpoint", "passage")


class EdgeType(str, Enum):
    CONTAINS = "CONTAINS"
    REFERENCES = "REFERENCES"
    AMENDS = "AMENDS"
    REPLACES = "REPLACES"
    REPEALS = "REPEALS"
    INHERITS = "INHERITS"
    RELATED_TO = "RELATED_TO"
    DEFINES = "DEFINES"


# edge types retrieval may follow from a seed (CONTAINS and DEFINES are structure, not hops)
EXPANDABLE = ("REFERENCES", "AMENDS", "INHERITS", "REPLACES", "REPEALS", "RELATED_TO")


@dataclass(frozen=True)
class Unit:
    """One legal unit: a document version, a chapter, an article, a clause, a point ..."""
    id: str
    key: str                      # instrument key shared by all its versions
    version: str                  # version label, unique within key
    kind: str                     # one of UNIT_KINDS
    label: str = ""               # number as printed in arabic form: "34", "10-1", "3.2.1", "a"
    title: str = ""
    text: str = ""
    language: str = ""
    article_no: int | None = None  # integer article number (10 for 第十条之一), for direct lookup
    effective_from: dt.date | None = None
    effective_to: dt.date | None = None   # first day it no longer applies
    source_file: str = ""
    line_start: int = 0
    line_end: int = 0
    parent_id: str | None = None
    ordinal: int = 0              # position in reading order within its document
    corpus: str = ""
    attrs: tuple[tuple[str, str], ...] = ()   # source-specific metadata kept as (name, value)

    def attr(self, name: str, default: str = "") -> str:
        return dict(self.attrs).get(name, default)


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    type: EdgeType
    evidence: str = ""            # the text span that justifies the edge
    confidence: float = 1.0
    extractor: str = ""
    resolved: bool = True         # False when the target is a placeholder not (yet) in the workspace
    attrs: tuple[tuple[str, str], ...] = ()   # extra (name, value) pairs, e.g. ("op", "modify")

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.source, self.target, self.type.value, self.evidence)


@dataclass(frozen=True)
class Problem:
    """A piece of input that was not understood, with where it is and what to do."""
    file: str
    line: int
    reason: str
    severity: str = "warning"     # "warning": kept going; "error": the document was skipped

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.severity}: {self.reason}"


@dataclass(frozen=True)
class DocumentMeta:
    """What an importer knows about one version of one instrument before parsing it."""
    key: str
    version: str
    title: str
    language: str
    kind: str = "law"
    source_file: str = ""
    corpus: str = ""
    adopted: dt.date | None = None
    effective_from: dt.date | None = None
    effective_to: dt.date | None = None
    replaces: tuple[str, ...] = ()
    amends: tuple[str, ...] = ()
    issuer: str = ""

    @property
    def doc_id(self) -> str:
        return f"{self.key}@{self.version}"


@dataclass
class ParseResult:
    units: list[Unit] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def extend(self, other: "ParseResult") -> None:
        self.units.extend(other.units)
        self.edges.extend(other.edges)
        self.problems.extend(other.problems)


@dataclass(frozen=True)
class Hit:
    unit_id: str
    score: float
    via: str = ""                 # "direct", "bm25", "dense", or an edge path "seed -AMENDS-> id"
    unit: Unit | None = None

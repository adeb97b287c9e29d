"""Plain records shared by every layer. No backend imports here."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace
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
    role: str = ""                # provision role (parse/roles.py): obligation, sanction, ...; "" = structural

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
class EdgeColumns:
    """The edge list as columns, for graph work without a record per edge: `vertices` names
    the units; `source` / `target` index into it; `type` and `resolved` per edge."""
    vertices: tuple[str, ...]
    source: "object"          # numpy int array
    target: "object"          # numpy int array
    type: tuple[str, ...]
    resolved: "object"        # numpy bool array
    extractor: tuple[str, ...] = ()   # what made each edge (empty: not read)


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
class Link:
    """One edge walked on a provenance path, from `frm` to `to`; `forward` when walked in the
    edge's own direction (frm -TYPE-> to), else against it (frm <-TYPE- to)."""
    frm: str
    type: str
    to: str
    forward: bool = True

    @property
    def edge(self) -> tuple[str, str, str]:
        """(source, target, type) of the stored edge."""
        return (self.frm, self.to, self.type) if self.forward else (self.to, self.frm, self.type)

    @property
    def arrow(self) -> str:
        return f"-{self.type}->" if self.forward else f"<-{self.type}-"


@dataclass(frozen=True)
class Via:
    """Why a unit is among the hits: how it was found (`kind`: "direct", "bm25", "dense",
    "bm25+dense", "seed", "candidate", "path", "cited"), the edges walked from a seed or a cited
    unit (`path`), for a direct hit standing for a named article what it stands for (`detail`:
    "k@v/a3 as in force on 2016-03-01"), and notes ("other version", "version pair").
    `str()` gives the readable form ("k@v/a10 <-REFERENCES- k@v/a15 (version pair)")."""
    kind: str = ""
    path: tuple[Link, ...] = ()
    notes: tuple[str, ...] = ()
    detail: str = ""

    def noted(self, note: str) -> "Via":
        return replace(self, notes=self.notes + (note,))

    @property
    def start(self) -> str:
        return self.path[0].frm if self.path else ""

    @property
    def last(self) -> Link | None:
        return self.path[-1] if self.path else None

    def __str__(self) -> str:
        if self.path:
            base = self.path[0].frm + "".join(f" {link.arrow} {link.to}" for link in self.path)
        else:
            base = f"{self.kind}: {self.detail}" if self.detail else self.kind
        return base + "".join(f" ({n})" for n in self.notes)


@dataclass(frozen=True)
class Hit:
    unit_id: str
    score: float
    via: Via = Via()              # how it was found (a plain string is read as Via(kind=string))
    unit: Unit | None = None

    def __post_init__(self):
        if isinstance(self.via, str):
            object.__setattr__(self, "via", Via(self.via))


@dataclass(frozen=True)
class Filter:
    """Which units a store query may return. Every field that is set narrows the query (AND);
    `any_of` adds an OR of sub-filters. Retrieval builds these; only the store compiles them."""
    kinds: tuple[str, ...] = ()
    ids: tuple[str, ...] = ()
    under: tuple[str, ...] = ()          # units below any of these ids ('k@v/a3' -> 'k@v/a3/...')
    keys: tuple[str, ...] = ()           # instrument keys
    documents: tuple[str, ...] = ()      # only these versions, 'key@version'
    versions: tuple[str, ...] = ()       # the instruments of these 'key@version' in these versions only;
                                         # other instruments unrestricted
    in_force: dt.date | None = None      # in force on this date
    article_no: int | None = None
    label: str | None = None
    label_contains: str | None = None
    has_attr: str | None = None          # the unit carries this source attribute
    corpus: str | None = None
    embedded: bool | None = None         # has a vector
    roles: tuple[str, ...] = ()          # provision roles (parse/roles.py)
    names: tuple[str, ...] = ()          # documents known by any of these normalised names (link/resolve.py)
    reads_with: tuple[str, ...] = ()     # documents read with an instrument known by any of these names
    any_of: tuple["Filter", ...] = ()

    def with_(self, **changes) -> "Filter":
        return replace(self, **changes)


DOCUMENTS = Filter(kinds=("document",))     # the document units: one per instrument version


# the unit fields a hit's row carries (Result.to_polars)
_FRAME_UNIT = ("key", "version", "kind", "role", "label", "title", "effective_from", "effective_to")


@dataclass(frozen=True)
class Result:
    """Ranked hits plus what the system would cite and how it decided (graph mode: the plan,
    the score parts per unit, the seeds, the topic searched, the answering clause per article)."""
    hits: list[Hit]
    cited: list[str]
    plan: "object | None" = None    # retrieve.plan.Plan (graph mode)
    components: dict[str, dict[str, float]] = field(default_factory=dict)   # per unit: score parts
    seeds: list[str] = field(default_factory=list)
    topic: str = ""                 # the question as searched (graph mode)
    embed_ms: float = 0.0           # time spent embedding inside retrieval (the topic)
    focus: dict[str, str] = field(default_factory=dict)   # article -> the clause / point that matched best
    hops: dict[str, int] = field(default_factory=dict)    # hop limit per edge type the expansion used
    weights: "object | None" = None  # core.config.Weights the re-rank used (graph mode: the caller's, with the
                                     # language's and the type's own where the caller left the default)

    @property
    def route(self):
        """The routing of the question (type, date, named articles ...), graph mode only."""
        return self.plan.route if self.plan is not None else None

    def to_polars(self):
        """The hits as a polars DataFrame, one row per hit in rank order: why it is there
        (`via`: how it was found and the path walked), whether it is cited, the unit's
        instrument / version / validity and, in graph mode, the score parts of the re-rank
        (one column each). Also `workbench.ui.frames.hits`."""
        import polars as pl            # only when a frame is asked for
        cited = set(self.cited)
        parts = sorted({p for comp in self.components.values() for p in comp})
        rows = []
        for rank, h in enumerate(self.hits, 1):
            u = h.unit
            row = {"rank": rank, "unit_id": h.unit_id, "score": float(h.score), "cited": h.unit_id in cited,
                   "found_by": h.via.kind, "via": str(h.via), "hops": len(h.via.path)}
            row.update({f: (getattr(u, f) if u is not None else None) for f in _FRAME_UNIT})
            comp = self.components.get(h.unit_id, {})
            row.update({p: comp.get(p) for p in parts})
            rows.append(row)
        schema = {"rank": pl.Int64, "unit_id": pl.String, "score": pl.Float64, "cited": pl.Boolean,
                  "found_by": pl.String, "via": pl.String, "hops": pl.Int64, "key": pl.String, "version": pl.String,
                  "kind": pl.String, "role": pl.String, "label": pl.String, "title": pl.String,
                  "effective_from": pl.Date, "effective_to": pl.Date, **{p: pl.Float64 for p in parts}}
        return pl.DataFrame(rows, schema=schema, orient="row") if rows else pl.DataFrame(schema=schema)


# -- answers and evaluation ------------------------------------------------------------------
@dataclass
class Block:
    unit_id: str
    tag: str                 # EVIDENCE | ORIGINAL | AMENDED <date> | AMENDED BY | REFERENCED | CITES
    heading: str
    text: str
    unit: Unit | None = None
    truncated: bool = False
    via: str = ""


@dataclass
class Evidence:
    blocks: list[Block]
    as_of: dt.date | None = None
    dropped: list[str] = field(default_factory=list)
    budget: int = 0
    used: int = 0
    context: str = ""        # text read before the blocks (LOCAL mode: entities and relations)

    @property
    def ids(self) -> list[str]:
        return [b.unit_id for b in self.blocks]


@dataclass
class Answer:
    question: str
    text: str
    citations: list[str]
    chain: list[str]
    backend: str
    model: str = ""
    prompt_id: str = ""
    latency_ms: float = 0.0
    retrieval_ms: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    flagged: list[str] = field(default_factory=list)      # cited ids not in the evidence, removed
    evidence: Evidence | None = None
    extractive: str = ""                                  # the extractive answer, always composed
    extractive_citations: list[str] = field(default_factory=list)
    extractive_chain: list[str] = field(default_factory=list)
    capable: bool = False                                 # False for extractive and tiny models
    tried: list[str] = field(default_factory=list)        # "ollama: <why it did not answer>", ...
    route: str = ""


@dataclass(frozen=True)
class Question:
    id: str
    question: str
    category: str
    gold: tuple[str, ...]
    as_of: str | None = None
    answer: str | None = None
    split: str = ""              # "tuning" or "validation" (see evaluate.metrics.split_of)

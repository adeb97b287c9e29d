"""Request and response models of the REST API.

Requests are pydantic models with bounds, so a bad field is a 422 naming it. Responses reuse
the package's own records (Unit, Edge, Hit, Answer are dataclasses pydantic validates and
documents as they are); only what has no record of its own (a retrieval's route, a history
step, an evaluation) is declared here.
"""
from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..core.records import EXPANDABLE, UNIT_KINDS, Answer, Edge, Hit, Unit
from ..retrieve.route import TYPES

EdgeName = Literal[EXPANDABLE]                 # edge types retrieval may follow
Kind = Literal[UNIT_KINDS]
QuestionType = Literal[TYPES]
Text = Field(min_length=1, max_length=2000)    # a question or query; longer text is not a question
Name = Field(min_length=1, max_length=300)     # an id, key, term


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")   # a misspelt field is an error, not ignored


class Filters(Strict):
    """Which units a search may return (every field set narrows it)."""
    kinds: list[Kind] = Field(default_factory=list, max_length=len(UNIT_KINDS))
    keys: list[str] = Field(default_factory=list, max_length=50)
    documents: list[Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+$", max_length=300)]] = Field(
        default_factory=list, max_length=50, description="'key@version'")
    corpus: str | None = Field(None, max_length=200)
    in_force: dt.date | None = None


class SearchRequest(Strict):
    query: str = Text
    mode: Literal["bm25", "dense"] = "bm25"
    k: int = Field(10, ge=1, le=100)
    language: Literal["", "zh", "vi", "en"] = Field("", description="'' guesses it from the query")
    filters: Filters = Field(default_factory=Filters)


class WeightsIn(Strict):
    """Re-rank weights to set: each holds in every question type and language as given; the
    others keep the workspace's values, where left at their default the language's and the type's own."""
    semantic: float | None = Field(None, ge=-10, le=10)
    lexical: float | None = Field(None, ge=-10, le=10)
    proximity: float | None = Field(None, ge=-10, le=10)
    edge: float | None = Field(None, ge=-10, le=10)
    support: float | None = Field(None, ge=-10, le=10)
    direct: float | None = Field(None, ge=-10, le=10)
    current: float | None = Field(None, ge=-10, le=10)
    role: float | None = Field(None, ge=-10, le=10)
    named: float | None = Field(None, ge=-10, le=10)
    citing: float | None = Field(None, ge=-10, le=10)
    within: float | None = Field(None, ge=-10, le=10)
    phrase: float | None = Field(None, ge=-10, le=10)


class Settings(Strict):
    """The panel's knobs; what is left out keeps the workspace's configuration."""
    mode: Literal["graph", "bm25", "dense", "hybrid"] = "graph"
    top_k: int | None = Field(None, ge=1, le=100)
    candidates: int | None = Field(None, ge=1, le=500)
    seed_k: int | None = Field(None, ge=1, le=100)
    hops: dict[EdgeName, Annotated[int, Field(ge=0, le=5)]] | None = Field(None, description="hops per edge type (0-5); default: the routed policy's")
    edge_types: list[EdgeName] | None = Field(None, description="edge types expansion may follow; default: the policy's")
    weights: WeightsIn = Field(default_factory=WeightsIn)
    cap: int | None = Field(None, ge=1, le=5000)
    as_of: dt.date | None = None
    question_type: QuestionType | None = None
    unstructured: Literal["off", "fuse", "flat"] | None = None


class RetrieveRequest(Settings):
    question: str = Text


class Route(BaseModel):
    type: str
    as_of: dt.date | None = None
    articles: list[tuple[int, str]] = []
    years: list[int] = []
    sanction: bool = False
    asks: list[str] = Field([], description="provision roles the question asks for (sanction, obligation, ...)")
    instruments: list[str] = []


class RetrieveResponse(BaseModel):
    hits: list[Hit]
    cited: list[str]
    seeds: list[str] = []
    topic: str = ""
    route: Route | None = None
    components: dict[str, dict[str, float]] = {}
    focus: dict[str, str] = {}
    weights: dict[str, float] = Field({}, description="the re-rank weights used (graph mode)")
    ms: float


class AskRequest(Strict):
    question: str = Text
    backend: Literal["extractive", "llamacpp", "ollama"] | None = Field(
        None, description="one backend; default: the configured order (ollama, llamacpp, extractive)")
    settings: Settings = Field(default_factory=Settings)
    evidence: bool = Field(False, description="include the evidence blocks the answer was composed from")
    evidence_mode: Literal["compose", "local"] = Field(
        "compose", description="compose: the retrieved provisions; local: the LOCAL context of the entities named")
    stream: bool = Field(False, description="server-sent events: 'token' events while a model writes, then 'answer'")


class UnitResponse(BaseModel):
    unit: Unit
    out_edges: list[Edge]
    in_edges: list[Edge]


class Step(BaseModel):
    """One version of an article, oldest first, with how it differs from the one before."""
    unit_id: str
    effective_from: dt.date | None = None
    effective_to: dt.date | None = None
    status: str = ""
    inserted: str = ""
    deleted: str = ""
    form_only: bool = False              # punctuation width, quotes or spacing changed only
    substance: int | None = None         # changed beyond the revision's renamings (0: a renaming only)


class Term(BaseModel):
    unit_id: str
    term: str
    definition: str


class Instrument(BaseModel):
    corpus: str
    key: str
    version: str
    units_by_kind: dict[str, int]


class Info(BaseModel):
    embedder: str
    corpora: list[str]
    instruments: list[Instrument]
    edges_by_type: dict[str, int]
    terms: int
    unresolved: int
    version: str = Field(description="changes whenever a writer commits to the workspace")
    pending: str | None = Field(None, description="an unfinished write (its journal): the last committed state is served")
    inconsistencies: list[str] = Field([], description="what does not fit together (empty when all is well)")


class BenchQuestion(Strict):
    id: str = Name
    question: str = Text
    category: str = Field("", max_length=100)
    gold: list[str] = Field(min_length=1, max_length=50)
    as_of: dt.date | None = None


class EvalRequest(Strict):
    questions: list[BenchQuestion] = Field(min_length=1, max_length=20)
    systems: list[Literal["bm25", "dense", "hybrid", "graph", "graph-vihermes", "graph-fuse", "graph-flat"]] = Field(
        default_factory=lambda: ["bm25", "graph"], min_length=1, max_length=7)
    match: Literal["article", "exact"] = "article"


class EvalResponse(BaseModel):
    questions: int
    systems: dict[str, dict[str, float]] = Field(description="per system: each metric over all questions")
    per_question: dict[str, list[dict[str, float | str | list[str] | None]]]


class Problem(BaseModel):
    detail: str


__all__ = ["Answer", "AskRequest", "EvalRequest", "EvalResponse", "Filters", "Hit", "Info", "RetrieveRequest",
           "RetrieveResponse", "SearchRequest", "Settings", "Step", "Term", "UnitResponse"]

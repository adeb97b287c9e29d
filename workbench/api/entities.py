"""Cross-document endpoints: entities of law, their aggregated relations and documents,
traversal, subgraphs and LOCAL context (workbench/entities/). Entity ids look like
"authority:县级以上人民政府兽医主管部门", so they travel in the query string or the body."""
from __future__ import annotations

from typing import Literal

from fastapi import FastAPI, HTTPException, Query
from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..entities.aggregate import AggregatedRelation
from ..entities.extract import TYPES
from ..entities.subgraph import Subgraph
from ..entities.traverse import Path

EntityId = Field(min_length=3, max_length=400, description='an entity id, e.g. "authority:the regulator"')
RELATIONS = ("IMPOSES_DUTY", "HAS_DUTY", "SANCTIONS", "GRANTS_PERMISSION", "MAY", "ISSUES", "DEFINES")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EntityOut(BaseModel):
    id: str
    type: str
    name: str
    surfaces: list[str]
    language: str
    mentions: int
    documents: int = Field(description="distinct instruments mentioning it")
    confidence: float = Field(description="its most confident mention's (pattern strength; 0.85 and over: a name "
                                          "in a closed form)")


class CoOccurring(BaseModel):
    id: str
    count: int


class DocumentOut(BaseModel):
    document: str
    mentions: int
    units: list[str]
    co_occurring: list[CoOccurring]


class TraverseRequest(Strict):
    start: str = EntityId
    strategy: Literal["bfs", "shortest", "confidence"] = "bfs"
    end: str | None = Field(None, min_length=3, max_length=400, validate_default=True,
                            description="the entity to reach; needed by strategy 'shortest'")
    max_depth: int = Field(2, ge=1, le=6)
    max_nodes: int = Field(50, ge=1, le=500)
    min_confidence: float = Field(0.0, ge=0.0, le=1.0)

    @field_validator("end")
    @classmethod
    def _shortest_needs_end(cls, end, info):
        if info.data.get("strategy") == "shortest" and not end:
            raise ValueError("strategy 'shortest' needs an end entity: set `end`")
        return end


class SubgraphRequest(Strict):
    entities: list[str] = Field(min_length=1, max_length=20, description="one entity id or several")
    depth: int = Field(1, ge=0, le=3)


class ContextRequest(Strict):
    query: str = Field(min_length=1, max_length=2000)
    entities: list[str] = Field([], max_length=20, description="centre on these; default: entities the query names")
    depth: int = Field(1, ge=0, le=3)
    max_chars: int = Field(4000, ge=200, le=20000)


class MultiSearchRequest(Strict):
    query: str = Field(min_length=1, max_length=2000)
    k: int = Field(10, ge=1, le=200)
    collections: list[Literal["units", "entities", "relations", "summaries", "terms"]] = Field(
        [], description="default: units and every collection built")


class CollectionHitOut(BaseModel):
    collection: str
    id: str
    text: str
    score: float
    rank: int
    unit_ids: list[str]


class ContextOut(BaseModel):
    entities: list[str]
    context: str


def add_entity_routes(app: FastAPI, shared, busy: dict, not_found: dict) -> None:
    """`busy`: the 409 (and 400) responses every route shares; `not_found`: the 404 response."""
    absent = {**busy, **not_found}
    def index():
        return shared.current().entities

    def known(idx, ids):
        """The index, once per request (a reload between two calls cannot split it), after
        checking the ids are in it."""
        for i in ids:
            if i not in idx.entities:
                raise HTTPException(404, f"no entity {i!r} in this workspace; find ids with GET /entities?q=")
        return idx

    @app.get("/entities", response_model=list[EntityOut], responses=busy,
             summary="Entities of law (authorities, parties, instruments, documents, terms) by name")
    def search(q: str = Query("", max_length=300), type: list[Literal[TYPES]] = Query([]),  # noqa: A002
               limit: int = Query(20, ge=1, le=500), min_confidence: float = Query(0.0, ge=0.0, le=1.0)):
        return index().search(q, tuple(type), limit, min_confidence)

    @app.get("/entities/relations", response_model=list[AggregatedRelation], responses=absent,
             summary="An entity's relations aggregated across documents")
    def relations(id: str = Query(min_length=3, max_length=400), types: list[Literal[RELATIONS]] = Query([]),  # noqa: A002
                  min_confidence: float = Query(0.0, ge=0.0, le=1.0), min_occurrences: int = Query(1, ge=1, le=10000)):
        return known(index(), [id]).relations_of(id, tuple(types) or None, min_confidence, min_occurrences)

    @app.get("/entities/documents", response_model=list[DocumentOut], responses=absent,
             summary="The documents mentioning an entity, with the entities co-occurring there")
    def documents(id: str = Query(min_length=3, max_length=400)):  # noqa: A002
        return known(index(), [id]).documents_of(id)

    @app.post("/entities/traverse", response_model=list[Path], responses=absent,
              summary="Paths from an entity: breadth-first, shortest or most confident, with document diversity")
    def traverse(req: TraverseRequest):
        idx = known(index(), [req.start] + ([req.end] if req.end else []))
        return idx.traverse(req.start, req.end, req.strategy, req.max_depth, req.max_nodes, req.min_confidence)

    @app.post("/entities/subgraph", response_model=Subgraph, responses=absent,
              summary="The subgraph around one entity or several, with supporting text")
    def subgraph(req: SubgraphRequest):
        return known(index(), req.entities).subgraph(req.entities, req.depth)

    @app.post("/search/multi", response_model=list[CollectionHitOut], responses=absent,
              summary="Multi-vector search: units, entities, relations, document summaries and terms, fused")
    def multi(req: MultiSearchRequest):
        wb = shared.current()
        built = {"units"} | wb.collections_built()
        wanted = req.collections or [c for c in ("units", "entities", "relations", "summaries", "terms") if c in built]
        missing = [c for c in wanted if c not in built]
        if missing:
            raise HTTPException(404, f"collections not built in this workspace: {', '.join(missing)} "
                                "(run `workbench entities --build-collections`)")
        with shared.model_lock:
            hits = wb.search_all(req.query, req.k, wanted)
        return [CollectionHitOut(**{**h.__dict__, "unit_ids": list(h.unit_ids)}) for h in hits]

    @app.post("/entities/context", response_model=ContextOut, responses=absent,
              summary="LOCAL context for a query: entities, relations and sources, within a budget")
    def context(req: ContextRequest):
        ids, text = known(index(), req.entities).local_context(req.query, req.entities, req.max_chars, req.depth)
        return ContextOut(entities=ids, context=text)

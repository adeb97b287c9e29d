"""The REST API: FastAPI routes over one shared, read-only workspace (state.py).

    workbench serve --workspace DIR [--host 127.0.0.1] [--port 8000]

OpenAPI at /openapi.json, interactive docs at /docs. Errors: 422 names the field, 404 an
unknown unit / instrument / term, 409 while a writer builds a workspace with nothing committed.
"""
from __future__ import annotations

import datetime as dt
import json
import math
import queue
import threading
import time
from dataclasses import asdict, replace
from pathlib import Path

from fastapi import FastAPI, HTTPException, Query
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response, StreamingResponse

from ..core.config import Config, RetrievalConfig
from ..core.errors import BackendUnavailable, WorkbenchError
from ..core.records import Filter, Question
from . import models as m
from .state import NotReady, Shared

NOT_FOUND = {404: {"model": m.Problem, "description": "no such unit, instrument, term, entity or collection"}}
# one server-sent event (schemathesis and OpenAPI 3.1 read the schema per event)
EVENT = {"type": "object", "required": ["event", "data"],
         "properties": {"event": {"type": "string", "enum": ["token", "answer", "error"]},
                        "data": {"type": "string", "description": "token: the text as a JSON string; answer: the "
                                 "Answer as JSON; error: the message as a JSON string"}}}
STREAM = {200: {"content": {"text/event-stream": {"schema": EVENT}},
                 "description": "the Answer, or with stream=true server-sent events: token ..., answer"}}
BUSY = {409: {"model": m.Problem, "description": "a writer is building the workspace; nothing committed yet"},
        400: {"model": m.Problem, "description": "the workspace refuses the request (the message says why and the fix)"}}


def settings_config(base: RetrievalConfig, s: m.Settings) -> RetrievalConfig:
    """The workspace's retrieval configuration with what the request sets."""
    changes = {k: getattr(s, k) for k in ("top_k", "candidates", "seed_k", "cap", "question_type", "unstructured")
               if getattr(s, k) is not None}
    changes["mode"] = s.mode
    if s.hops is not None:
        changes["hops"] = tuple(s.hops.items())
    if s.edge_types is not None:
        changes["edge_types"] = tuple(s.edge_types)
    if s.as_of is not None:
        changes["as_of"] = s.as_of.isoformat()
    weights = {k: v for k, v in s.weights.model_dump().items() if v is not None}
    if weights:         # set by the caller: they hold in every question type and language
        changes["weights"] = replace(base.weights, **weights)
        changes["weights_set"] = tuple(sorted(set(base.weights_set) | set(weights)))
    return replace(base, **changes)


def _filter(f: m.Filters) -> Filter | None:
    out = Filter(kinds=tuple(f.kinds), keys=tuple(f.keys), documents=tuple(f.documents), corpus=f.corpus,
                 in_force=f.in_force)
    return None if out == Filter() else out


def _route(result) -> m.Route | None:
    plan = result.plan
    if plan is None:
        return None
    r = plan.route
    return m.Route(type=r.type, as_of=r.as_of, articles=list(r.articles), years=list(r.years),
                   sanction=r.sanction, asks=list(r.asks), instruments=sorted(plan.keys))


def _finite(x):
    """JSON has no NaN: a statistic that is undefined (a test on identical lists) is null."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_finite(v) for v in x]
    return x


def create_app(workspace: str | Path, config: Config | None = None) -> FastAPI:
    shared = Shared(workspace, config)
    app = FastAPI(title="workbench", version="0.1.0",
                  description="Graph-grounded retrieval and answers over one workspace of legislation.")
    app.state.shared = shared

    @app.exception_handler(NotReady)
    def _busy(_, e: NotReady):
        return JSONResponse({"detail": str(e)}, status_code=409)

    @app.exception_handler(BackendUnavailable)
    def _no_model(_, e: BackendUnavailable):
        return JSONResponse({"detail": str(e)}, status_code=503)

    @app.exception_handler(WorkbenchError)
    def _refused(_, e: WorkbenchError):
        return JSONResponse({"detail": str(e)}, status_code=400)

    @app.exception_handler(RequestValidationError)
    def _invalid(_, e: RequestValidationError):
        """422 naming the field; text a client sent that is not valid Unicode (a lone surrogate)
        is escaped, never a 500."""
        body = json.dumps({"detail": jsonable_encoder(e.errors())}, ensure_ascii=True, default=str)
        return Response(body, status_code=422, media_type="application/json")

    @app.get("/info", response_model=m.Info, responses=BUSY, summary="What the workspace holds")
    def info():
        wb = shared.current()
        i = wb.info()
        return m.Info(embedder=i["embedder"], corpora=i["corpora"], instruments=i["instruments"],
                      edges_by_type=i["edges_by_type"], terms=i["terms"], unresolved=len(i["unresolved"]),
                      version=shared.version, pending=i["pending"], inconsistencies=i["inconsistencies"])

    @app.post("/search", response_model=list[m.Hit], responses=BUSY, summary="BM25 or dense search with filters")
    def search(req: m.SearchRequest):
        wb = shared.current()
        if req.mode == "bm25":                 # the full-text index only: no model involved
            return wb.search(req.query, req.mode, req.k, req.language, _filter(req.filters))
        with shared.model_lock:
            return wb.search(req.query, req.mode, req.k, req.language, _filter(req.filters))

    @app.post("/retrieve", response_model=m.RetrieveResponse, responses=BUSY,
              summary="Ranked evidence with provenance (graph mode and every panel knob)")
    def retrieve(req: m.RetrieveRequest):
        wb = shared.current()
        cfg = settings_config(wb.config.retrieval, req)
        t = time.perf_counter()
        with shared.model_lock:
            r = wb.retrieve(req.question, cfg)
        return m.RetrieveResponse(hits=r.hits, cited=r.cited, seeds=r.seeds, topic=r.topic, route=_route(r),
                                  components=r.components, focus=r.focus, ms=(time.perf_counter() - t) * 1000,
                                  weights=asdict(r.weights) if r.weights is not None else {})

    @app.post("/ask", response_model=m.Answer, responses={**BUSY, **STREAM, 503: {"model": m.Problem, "description":
              "the backend asked for cannot answer (no Ollama server, no model file)"}},
              summary="An answer with citations and its reasoning chain (stream: server-sent events)")
    def ask(req: m.AskRequest):
        wb = shared.current()
        cfg = settings_config(wb.config.retrieval, req.settings)
        if not req.stream:
            with shared.model_lock:
                answer = wb.ask(req.question, cfg, req.backend, evidence=req.evidence_mode)
            return answer if req.evidence else replace(answer, evidence=None)
        return StreamingResponse(_stream(shared, wb, req, cfg), media_type="text/event-stream")

    @app.get("/units/{unit_id:path}", response_model=m.UnitResponse, responses={**NOT_FOUND, **BUSY},
             summary="One unit with its edges")
    def unit(unit_id: str):
        wb = shared.current()
        found = wb.store.get([unit_id])
        if not found:
            raise HTTPException(404, f"no unit {unit_id!r} in this workspace; search for it with POST /search")
        return m.UnitResponse(unit=found[0], out_edges=wb.graph.edges_of(unit_id, direction="out"),
                              in_edges=wb.graph.edges_of(unit_id, direction="in"))

    @app.get("/history/{unit_id:path}", response_model=list[m.Step], responses={**NOT_FOUND, **BUSY},
             summary="The versions of one article, oldest first, with what changed")
    def history(unit_id: str):
        wb = shared.current()
        if not wb.store.get([unit_id]):
            raise HTTPException(404, f"no unit {unit_id!r} in this workspace")
        return _history(wb, unit_id)

    @app.get("/in-force", response_model=m.Unit, responses={**NOT_FOUND, **BUSY},
             summary="The version of an instrument in force on a date")
    def in_force(key: str = Query(min_length=1, max_length=300), on: dt.date = Query(description="YYYY-MM-DD")):
        wb = shared.current()
        doc = wb.version_in_force(key, on)
        if doc is None:
            raise HTTPException(404, f"no version of {key!r} was in force on {on} in this workspace")
        return doc

    @app.get("/define", response_model=list[m.Term], responses=BUSY, summary="Units that define a term")
    def define(term: str = Query(min_length=1, max_length=300)):
        return [m.Term(unit_id=r["unit_id"], term=r["term"], definition=r["definition"])
                for r in shared.current().define(term)]

    @app.post("/eval", response_model=m.EvalResponse, responses=BUSY,
              summary="Retrieval systems side by side on a small uploaded benchmark")
    def evaluate(req: m.EvalRequest):
        from ..evaluate.metrics import run_eval
        wb = shared.current()
        questions = [Question(q.id, q.question, q.category, tuple(q.gold), q.as_of.isoformat() if q.as_of else None)
                     for q in req.questions]
        with shared.model_lock:
            summary = run_eval(wb, questions, list(dict.fromkeys(req.systems)), "upload", req.match,
                               progress=False).summary()
        return _finite({"questions": summary["questions"],
                        "systems": {s: v["overall"] for s, v in summary["systems"].items()},
                        "per_question": {s: [{k: v for k, v in row.items() if k != "ranked"} for row in rows]
                                         for s, rows in summary["per_question"].items()}})

    from .entities import add_entity_routes
    add_entity_routes(app, shared, BUSY, NOT_FOUND)
    return app


def _history(wb, unit_id: str) -> list[m.Step]:
    return [m.Step(**step) for step in wb.changes(unit_id)]


def _stream(shared: Shared, wb, req: m.AskRequest, cfg):
    """Server-sent events: `token` (data: the text) while a model writes, then `answer` (the
    Answer as JSON), or `error`."""
    tokens: queue.Queue = queue.Queue()
    done = object()

    def work():
        try:
            with shared.model_lock:
                answer = wb.ask(req.question, cfg, req.backend, on_token=lambda t: tokens.put(("token", t)),
                                evidence=req.evidence_mode)
            if not req.evidence:
                answer = replace(answer, evidence=None)
            tokens.put(("answer", jsonable_encoder(asdict(answer))))
        except Exception as e:             # the stream has started: report in-band, never hang
            tokens.put(("error", f"{type(e).__name__}: {e}"))
        tokens.put(done)

    threading.Thread(target=work, daemon=True).start()
    while (item := tokens.get()) is not done:
        event, data = item
        yield f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"

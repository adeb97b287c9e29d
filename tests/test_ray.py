"""`workbench ingest --engine ray`: the same workspace as the local engine -- unit ids and
records, texts, every edge with its attributes, vectors within 1e-5 -- on the sample corpus.
Ray really runs: the command starts a local Ray with 2 workers and shuts it down; each
workspace keeps its own embedding cache, so the Ray actors embed every text themselves."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from contextlib import redirect_stdout

import numpy as np
import pytest

from conftest import ROOT, SAMPLE
from workbench.cli import main


def snapshot(path) -> dict:
    """What an engine must reproduce: units (all fields), vectors, edges (all fields), report counts."""
    from workbench.workbench import Workbench
    wb = Workbench.open(path, create=False)
    ids = sorted(wb.store.ids())
    edges = sorted((e.source, e.target, e.type.value, e.evidence, e.extractor, e.resolved, e.attrs, e.confidence)
                   for e in wb.graph.all_edges())
    report = json.loads((path / "reports" / "sample.json").read_text(encoding="utf-8"))
    return {"units": wb.store.get(ids), "vectors": wb.store.vectors(ids), "edges": edges, "report": report,
            "terms": sorted((term, sorted(ids)) for term, ids in wb.terms.all().items())}


@pytest.fixture(scope="module")
def engines(tmp_path_factory):
    base = tmp_path_factory.mktemp("engines")
    out = {}
    for engine, extra in (("local", []), ("ray", ["--engine", "ray", "--workers", "2"])):
        ws, said = base / engine, io.StringIO()
        with redirect_stdout(said):
            assert main(["ingest", str(SAMPLE), "--workspace", str(ws), "--problems", "0", *extra]) == 0
        out[engine] = {**snapshot(ws), "said": said.getvalue()}
    return out


@pytest.mark.slow
def test_ray_engine_builds_the_local_engines_workspace(engines):
    local, ray = engines["local"], engines["ray"]
    assert [u.id for u in ray["units"]] == [u.id for u in local["units"]] and len(local["units"]) > 300
    assert [u.text for u in ray["units"]] == [u.text for u in local["units"]]
    assert ray["units"] == local["units"]                        # every field: kinds, dates, spans, attrs
    assert sorted(ray["vectors"]) == sorted(local["vectors"]) and len(local["vectors"]) > 50
    for uid, v in local["vectors"].items():
        assert np.allclose(ray["vectors"][uid], v, atol=1e-5), uid
    assert [e[:7] for e in ray["edges"]] == [e[:7] for e in local["edges"]]
    assert np.allclose([e[7] for e in ray["edges"]], [e[7] for e in local["edges"]], atol=1e-5)
    assert {e[2] for e in local["edges"]} >= {"CONTAINS", "REFERENCES", "AMENDS", "INHERITS", "RELATED_TO"}
    assert ray["terms"] == local["terms"]
    for key in ("units", "edges", "units_by_kind", "embedded", "embedded_new", "edges_by_type", "problems"):
        assert ray["report"][key] == local["report"][key], key
    assert ray["report"]["embedded_new"] > 50                   # embedded by the actors, not read from a cache
    assert "engine ray: 2 worker(s)" in ray["said"] and "a local Ray started for this command" in ray["said"]
    assert "engine ray" not in local["said"]


def test_engine_errors_are_one_line_and_write_nothing(tmp_path, capsys):
    ws = tmp_path / "ws"
    assert main(["ingest", str(SAMPLE), "--workspace", str(ws), "--engine", "ray", "--address", "127.0.0.1:1"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "--address 127.0.0.1:1: cannot connect to a Ray cluster there" in err
    assert main(["ingest", str(SAMPLE), "--workspace", str(ws), "--workers", "2"]) == 2
    assert "--address and --workers go with --engine ray" in capsys.readouterr().err
    assert not ws.exists()


def run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_without_ray_installed_the_error_says_how_to_install_it(tmp_path):
    ws = tmp_path / "ws"
    got = run("import sys; sys.modules['ray'] = None\n"          # `import ray` fails as when not installed
              "from workbench.cli import main\n"
              f"sys.exit(main(['ingest', {str(SAMPLE)!r}, '--workspace', {str(ws)!r}, '--engine', 'ray']))")
    assert got.returncode == 2, got.stderr
    assert got.stderr.strip().count("\n") == 0 and "Ray (for --engine ray) is not available" in got.stderr
    assert "pip install" in got.stderr and not ws.exists()


def test_the_local_engine_never_imports_ray(tmp_path):
    corpus = tmp_path / "tiny"
    corpus.mkdir()
    (corpus / "corpus.toml").write_text('name = "tiny"\nlanguage = "en"\n[[documents]]\nkey = "tiny-act"\n'
                                        'version = "2020"\nfile = "act.txt"\neffective = "2020-01-01"\n')
    (corpus / "act.txt").write_text("Tiny Act\n\nSection 1 Licences\n\n1. A clinic must hold a licence.\n")
    got = run("import sys\nfrom workbench.cli import main\n"
              f"code = main(['ingest', {str(corpus)!r}, '--workspace', {str(tmp_path / 'ws')!r}])\n"
              "assert 'ray' not in sys.modules, 'ray imported'\nsys.exit(code)")
    assert got.returncode == 0, got.stderr
    assert "tiny: 1 documents" in got.stdout

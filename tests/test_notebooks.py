"""Every notebook in notebooks/ runs top to bottom (nbclient) on the sample corpus.

The sample corpus (English + Chinese) is ingested once per test session into a temporary
workspace; the notebooks open it through WORKBENCH_WORKSPACE (their parameters cell reads
WORKBENCH_* environment variables) and write their figures to a temporary folder.
"""
from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
SAMPLE = ROOT / "corpora" / "sample"
ALL = sorted(NOTEBOOKS.glob("*.ipynb"))


def sample_workspace(tmp_path_factory) -> Path:
    """The sample corpus ingested once per session (shared with tests/test_browser.py:
    same folder, and open_workspace skips corpora the workspace already holds)."""
    from workbench.ui.notebook import open_workspace
    ws = tmp_path_factory.getbasetemp() / "notebook-workspace"
    open_workspace([SAMPLE, SAMPLE / "zh"], ws)
    return ws


@pytest.fixture(scope="session")
def workspace(tmp_path_factory) -> Path:
    return sample_workspace(tmp_path_factory)


def test_there_are_notebooks():
    assert ALL, f"no notebook found in {NOTEBOOKS}"
    names = {p.stem for p in ALL}
    for expected in ("01_ingest_and_explore", "02_ask_and_tune", "03_versions_and_time", "04_evaluate",
                     "06_teaching_tour"):
        assert expected in names


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_notebook_is_committed_clean(path):
    """Committed without outputs, with a parameters cell (tagged for papermill)."""
    import nbformat
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(not c.outputs and c.execution_count is None for c in code), f"{path.name} has outputs"
    assert "parameters" in code[0].metadata.get("tags", []), f"{path.name}: first code cell is not the parameters cell"
    assert "WORKSPACE" in code[0].source


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_notebook_runs(path, workspace, tmp_path, monkeypatch):
    import nbformat
    from nbclient import NotebookClient
    figures = tmp_path / "figures"
    monkeypatch.setenv("WORKBENCH_WORKSPACE", str(workspace))
    monkeypatch.setenv("WORKBENCH_FIGURES", str(figures))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(path, as_version=4)
    t = time.perf_counter()
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    seconds = time.perf_counter() - t
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert str(workspace.resolve()) in text, "the notebook did not open the shared workspace"
    assert "Traceback" not in text
    if path.stem == "02_ask_and_tune":
        assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs)
        cited = next(line for line in text.splitlines() if "cited: [" in line)
        assert "errors: none" in text and all(f"clinic-licensing-act@2018/{a}'" in cited for a in ("a10", "a16"))
        assert (figures / "panel_subgraph.html").stat().st_size > 100_000
    if path.stem in ("01_ingest_and_explore", "03_versions_and_time", "04_evaluate"):
        pngs = list(figures.glob("*.png"))
        assert pngs and all(p.stat().st_size > 10_000 for p in pngs)
        shown = [o for o in outputs if "image/png" in o.get("data", {})]   # display(fig) renders inline
        assert len(shown) >= len(pngs), f"{len(shown)} figures shown, {len(pngs)} written"
    print(f"{path.name}: {seconds:.1f} s")


# -- the pieces the notebooks and the panel are made of (no workspace needed) ----------------
def test_path_edges_read_provenance():
    from workbench.core.records import Link, Via
    from workbench.ui.graphview import path_edges
    assert path_edges(Via("seed")) == [] and path_edges(Via("bm25+dense")) == []
    via = Via("path", (Link("k@1/a10", "REFERENCES", "k@1/a15", False), Link("k@1/a15", "AMENDS", "k@0/a15"))).noted("version pair")
    assert str(via) == "k@1/a10 <-REFERENCES- k@1/a15 -AMENDS-> k@0/a15 (version pair)"
    assert path_edges(via) == [("k@1/a15", "k@1/a10", "REFERENCES"), ("k@1/a15", "k@0/a15", "AMENDS")]


def test_subgraph_html_is_offline_and_typed():
    from workbench.ui.graphview import evidence_subgraph, to_html
    from workbench.core.records import Hit, Link, Unit, Via
    hits = [Hit("k@1/a10", 1.0, "seed", Unit("k@1/a10", "k", "1", "article", text="duty")),
            Hit("k@1/a15", 0.8, Via("path", (Link("k@1/a10", "REFERENCES", "k@1/a15", False),)), Unit("k@1/a15", "k", "1", "article", text="fine"))]
    adj = {"k@1/a15": [("k@1/a10", "REFERENCES", "->"), ("k@1/a10", "RELATED_TO", "->")]}
    sub = evidence_subgraph(hits, ["k@1/a10"], ["k@1/a10"], lambda u: adj.get(u, ()), ["REFERENCES"])
    assert [n.role for n in sub.nodes] == ["seed", "hit"]
    assert sub.edges == [("k@1/a15", "k@1/a10", "REFERENCES", True)]        # RELATED_TO not allowed
    page = to_html(sub)
    assert "vis-network" in page and not re.search(r'(src|href)="https?:', page)   # script in line, no CDN
    assert re.search(r'content="nodes=2 edges=1 REFERENCES:1 #[0-9a-f]{8}"', page) and "REFERENCES (1)" in page
    # the signature tells two drawings with the same counts apart
    other = evidence_subgraph(hits[::-1], ["k@1/a15"], ["k@1/a15"], lambda u: adj.get(u, ()), ["REFERENCES"])
    assert len(other.nodes) == len(sub.nodes) and other.edge_counts() == sub.edge_counts()
    assert other.signature() != sub.signature()


def test_unit_text_cannot_inject_markup_into_the_graph_page():
    from workbench.ui.graphview import evidence_subgraph, iframe, to_html
    from workbench.core.records import Hit, Unit
    evil = 'duty <a href=#>x</a><img src=x onerror="alert(1)">'
    hits = [Hit("k@1/a10", 1.0, "seed", Unit("k@1/a10", "k", "1", "article", text=evil))]
    page = to_html(evidence_subgraph(hits, ["k@1/a10"], ["k@1/a10"], lambda u: (), ["REFERENCES"]))
    assert "<img src=x" not in page and "<a href=#>" not in page
    assert "\\u2039img src=x" in page                  # shown as text, with look-alike brackets
    assert 'sandbox="allow-scripts"' in iframe(page) and "allow-same-origin" not in iframe(page)


def test_widget_config():
    from workbench.core.config import RetrievalConfig, Weights
    from workbench.ui.panel import EDGE_TYPES, widget_config
    w = {f: getattr(Weights(), f) for f in Weights.__dataclass_fields__}
    cfg = widget_config(RetrievalConfig(), "graph", 7, "policy", EDGE_TYPES, w, None, "auto")
    assert (cfg.top_k, cfg.hops, cfg.edge_types, cfg.as_of, cfg.question_type) == (7, None, None, None, None)
    cfg = widget_config(RetrievalConfig(), "bm25", 5, "2", ["AMENDS"], {**w, "support": 0.0}, "2019-01-01", "temporal")
    assert cfg.mode == "bm25" and dict(cfg.hops)["REFERENCES"] == 2 and cfg.edge_types == ("AMENDS",)
    assert cfg.weights.support == 0.0 and cfg.as_of == "2019-01-01" and cfg.question_type == "temporal"


def test_panel_shows_errors_and_missing_answers():
    from workbench.ui.panel import Panel

    def broken(question, config):
        raise RuntimeError("the store is gone")
    panel = Panel(broken, question="anything")
    assert "the store is gone" in panel.error.value and panel.errors and panel.view is None
    panel.top_k.value = 3                                  # another change: still no exception
    assert len(panel.errors) == 2
    panel.ask = None
    panel._answer()
    assert "answers not available" in panel.answer.value


def test_bootstrap_ci():
    from workbench.evaluate.stats import bootstrap_ci
    mean, lo, hi = bootstrap_ci([0, 1] * 20)
    assert mean == 0.5 and lo < 0.5 < hi and hi - lo < 0.4
    assert bootstrap_ci([1.0, 1.0]) == (1.0, 1.0, 1.0)


def test_answer_pane_puts_the_extractive_answer_before_a_tiny_models_draft():
    from workbench.answer.ask import Answer
    from workbench.ui.panel import answer_html
    a = Answer("q", "draft <b>bold</b>", [], [], "llamacpp", "SmolLM2-135M", extractive="the quoted rule",
               extractive_citations=["k@1/a1"], extractive_chain=["k@1/a1 -REFERENCES-> k@1/a2"], capable=False)
    page = answer_html(a)
    assert page.index("the quoted rule") < page.index("draft by") < page.index("draft &lt;b&gt;")
    assert "k@1/a1 -REFERENCES-&gt; k@1/a2" in page
    capable = answer_html(Answer("q", "a real answer [k@1/a1]", ["k@1/a1"], [], "ollama", "qwen2.5:7b", capable=True))
    assert "draft by" not in capable and "a real answer" in capable


def test_a_retrieval_setting_saved_as_toml_loads_back_the_same(tmp_path):
    from dataclasses import replace
    from workbench.core.config import Config, RetrievalConfig, Weights, retrieval_toml
    from workbench.ui.panel import Panel
    cfg = RetrievalConfig(mode="graph", top_k=7, hops=tuple((t, 2) for t in ("REFERENCES", "AMENDS")),
                          edge_types=("REFERENCES",), weights=replace(Weights(), support=0.1, named=0.25),
                          as_of="2019-01-01", question_type="temporal", policies='my "odd" policies.toml')
    f = tmp_path / "setting.toml"
    f.write_text(retrieval_toml(cfg), encoding="utf-8")
    assert Config.load(f).retrieval == cfg
    seen = []
    panel = Panel(lambda q, c: seen.append(c) or (_ for _ in ()).throw(RuntimeError("no store")), question="q")
    loaded = panel.load_config(f)
    assert (loaded.top_k, loaded.weights, loaded.as_of, loaded.question_type) == (7, cfg.weights, "2019-01-01", "temporal")
    assert loaded.edge_types == ("REFERENCES",) and dict(loaded.hops)["REFERENCES"] == 2
    again = tmp_path / "again.toml"
    panel.save_config(again)
    assert Config.load(again).retrieval == loaded

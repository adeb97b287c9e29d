"""polars DataFrames of hits, evaluations, units, edges and history, on a real workspace."""
from __future__ import annotations

import polars as pl
import pytest

from workbench.core.config import Config, IngestConfig
from workbench.core.records import Filter
from workbench.evaluate.metrics import load_benchmark, run_eval
from workbench.ui import frames
from workbench.workbench import Workbench

from conftest import SAMPLE


@pytest.fixture(scope="module")
def wb(sample_workspace):
    return Workbench.open(sample_workspace, Config(IngestConfig(progress=False)), create=False)


def test_hits_frame_keeps_rank_provenance_and_score_parts(wb, tmp_path):
    r = wb.retrieve("What is the penalty for operating a clinic without a licence?")
    df = r.to_polars()
    assert df.height == len(r.hits) and df["rank"].to_list() == list(range(1, df.height + 1))
    assert df["unit_id"].to_list() == [h.unit_id for h in r.hits]
    assert set(df.filter(pl.col("cited"))["unit_id"]) == set(r.cited)
    assert {"semantic", "lexical"} <= set(df.columns) and df.schema["effective_from"] == pl.Date
    out = tmp_path / "hits.parquet"
    df.write_parquet(out)
    assert pl.read_parquet(out).equals(df)                 # export reads back the same rows


def test_evaluation_frames_match_the_summary(wb):
    qs = load_benchmark(SAMPLE / "benchmark.jsonl")[:6]
    summary = run_eval(wb, qs, ["bm25", "graph"], "sample", progress=False).summary()
    t = frames.evaluation(summary)
    overall = t["overall"].filter(pl.col("system") == "graph").row(0, named=True)
    assert overall["mrr"] == pytest.approx(summary["systems"]["graph"]["overall"]["mrr"])
    per = t["per_question"]
    assert per.height == 12 and per.group_by("system").agg(pl.col("mrr").mean()).filter(
        pl.col("system") == "bm25")["mrr"][0] == pytest.approx(summary["systems"]["bm25"]["overall"]["mrr"])
    assert set(t["by_category"]["group"]) == {q.category for q in qs}
    wide = frames.by_category(summary, "mrr")
    assert wide.height == 2 and all(any(c.startswith(f"{q.category} (") for c in wide.columns) for q in qs)
    assert frames.overall(summary)["system"].to_list() == ["bm25", "graph"]
    tests = frames.tests(summary, "graph")
    assert set(tests["comparison"]) == {"bm25 vs graph"} and tests.height == 4
    assert all(r.startswith(("p ", "no difference")) for r in tests["reads"])


def test_evaluation_tables_written_as_csv_and_parquet_read_back_the_same(wb, tmp_path):
    qs = load_benchmark(SAMPLE / "benchmark.jsonl")[:4]
    t = frames.evaluation(run_eval(wb, qs, ["bm25"], "sample", progress=False).summary())
    paths = frames.write(t, tmp_path / "out", "ev")
    assert len(paths) == 2 * len(t)
    per = pl.read_parquet(tmp_path / "out" / "ev_per_question.parquet")
    assert per.equals(t["per_question"])
    csv = pl.read_csv(tmp_path / "out" / "ev_per_question.csv")
    assert csv["id"].to_list() == t["per_question"]["id"].to_list()
    assert csv["gold"][0] == "; ".join(t["per_question"]["gold"][0])          # lists joined for CSV


def test_units_and_edges_frames_agree_with_the_stores(wb):
    arts = wb.units(Filter(kinds=("article",), keys=("clinic-licensing-act",)))
    assert arts.height == len(wb.store.where(Filter(kinds=("article",), keys=("clinic-licensing-act",))))
    assert set(arts["version"]) == {"2012", "2018"} and "vector" not in arts.columns
    refs = wb.edges(("REFERENCES",))
    assert refs.height == len(wb.graph.all_edges()) - wb.edges().filter(pl.col("type") != "REFERENCES").height
    assert set(refs["type"]) == {"REFERENCES"}
    hist = frames.history(wb, "clinic-licensing-act@2018/a16")
    assert hist["unit_id"].to_list()[-1] == "clinic-licensing-act@2018/a16" and hist.height >= 2
    assert hist["substance"].to_list()[-1] > 0 and hist["form_only"].to_list() == [False] * hist.height
    from workbench.ui.notebook import in_force_table
    held = in_force_table(wb, "clinic-licensing-act", ["2015-01-01", "2020-01-01", "1900-01-01"])
    assert held["version in force"].to_list() == ["clinic-licensing-act@2012", "clinic-licensing-act@2018", "(none)"]


def test_a_sweep_grid_reads_as_a_long_table_best_first():
    grid = {"grid": [[0.5, 0.7], [0.9, 0.6]], "hops": [0, 1], "values": [0.1, 0.3], "weight": "support",
            "metric": "mrr"}
    t = frames.sweep(grid)
    assert t.columns == ["hops", "support", "mrr"] and t.row(0) == (1, 0.1, 0.9) and t.height == 4


def test_a_question_asked_again_is_not_embedded_again(wb):
    calls = []
    embed = wb.embedder.embed_queries
    wb.retriever.embedder = type("Counting", (), {"embed_queries": lambda self, t: calls.append(t) or embed(t)})()
    try:
        from dataclasses import replace
        q = "What is the penalty for breaching the duty to keep patient records?"
        first = wb.retrieve(q)
        n = len(calls)
        again = wb.retrieve(q)
        flat = wb.retrieve(q, replace(wb.config.retrieval, mode="hybrid"))
        assert n >= 1 and len(calls) == n                      # same question, other settings: no new embedding
        assert [h.unit_id for h in again.hits] == [h.unit_id for h in first.hits] and flat.hits
    finally:
        wb.retriever.embedder = wb.embedder

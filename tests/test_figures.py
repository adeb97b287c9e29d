"""The figures of workbench/ui/views.py: each returns a labelled, titled Figure that shows itself
in Jupyter, legends sit outside the data, heat maps state an honest colour range, and `save`
writes a PNG. Small hand-made inputs, no workspace."""
from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

import pytest
from matplotlib.figure import Figure

from workbench.core.records import Hit, Question
from workbench.evaluate import metrics
from workbench.evaluate.metrics import Evaluation, score_question
from workbench.ui import views
from workbench.ui.views import (ci_figure, degree_figure, evidence_figure, format_p, heatmap_figure, metrics_figure,
                                save, shorten, timeline_figure, workspace_figure)

QUESTIONS = [Question(f"q{i}", f"question {i}", cat, (f"k@1/a{i}",)) for i, cat in
             enumerate(["penalty", "penalty", "temporal", "temporal", "temporal"])]
RANKED = {"bm25": [["k@1/a0", "k@1/a9"], ["k@1/a7"], ["k@1/a2"], ["k@1/a8"], ["k@1/a9", "k@1/a4"]],
          "graph": [["k@1/a0"], ["k@1/a1"], ["k@1/a2"], ["k@1/a3", "k@1/a8"], ["k@1/a4"]]}


def summary() -> dict:
    ev = Evaluation("hand-made", QUESTIONS)
    for system, ranked in RANKED.items():
        ev.per_question[system] = [score_question(r, r[:1], list(q.gold)) for r, q in zip(ranked, QUESTIONS)]
        ev.latency_ms[system] = [1.0] * len(QUESTIONS)
    return ev.summary()


def figures() -> dict[str, Figure]:
    info = {"instruments": [{"key": "clinic-act", "version": "2012", "units_by_kind": {"article": 12, "clause": 30}},
                            {"key": "clinic-act", "version": "2018", "units_by_kind": {"article": 14, "point": 5}}],
            "edges_by_type": {"REFERENCES": 40, "AMENDS": 9, "INHERITS": 11}}
    hits = {"bm25": [Hit("clinic-act@2018/a10", 7.2), Hit("clinic-act@2018/a15", 5.1)],
            "graph": [Hit("clinic-act@2018/a15", 0.93), Hit("clinic-act@2012/a10", 0.41)]}
    versions = [SimpleNamespace(id="clinic-act@2012/a8", effective_from=dt.date(2012, 3, 1),
                                effective_to=dt.date(2018, 11, 1)),
                SimpleNamespace(id="clinic-act@2018/a8", effective_from=dt.date(2018, 11, 1), effective_to=None)]
    cis = {"bm25": {"all": (0.4, 0.2, 0.6), "penalty": (0.5, 0.0, 1.0)},
           "graph": {"all": (0.9, 0.8, 1.0), "penalty": (1.0, 1.0, 1.0)}}
    return {"workspace": workspace_figure(info),
            "evidence": evidence_figure("What is the penalty for breaching the duty to keep records? " * 3, hits),
            "metrics": metrics_figure(summary()),
            "degree": degree_figure({"REFERENCES": [1, 1, 2, 5, 30], "AMENDS": [1, 1], "RELATED_TO": []}),
            "timeline": timeline_figure(versions, {"2019-01-01": "2019-01-01"}, "Article 8"),
            "ci": ci_figure(cis, "recall@5"),
            "heatmap": heatmap_figure([[0.41, 0.52], [0.60, 0.66], [0.58, 0.71]], [0, 1, 2], [0.0, 0.35],
                                      metric="recall@5")}


@pytest.fixture(scope="module")
def figs() -> dict[str, Figure]:
    return figures()


def data_axes(fig: Figure):
    return [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]


def test_every_figure_function_is_covered():
    names = {n for n in dir(views) if n.endswith("_figure") and not n.startswith("_")}
    assert names == {f"{k}_figure" for k in figures()}


def test_each_function_returns_a_titled_figure_with_labelled_axes(figs):
    for name, fig in figs.items():
        assert isinstance(fig, Figure), name
        title = fig._suptitle.get_text() if fig._suptitle else ""
        assert title or all(ax.get_title() for ax in data_axes(fig)), f"{name}: no title"
        for ax in data_axes(fig):
            assert ax.get_xlabel().strip() and ax.get_ylabel().strip(), f"{name}: an axis without a label"


def test_figures_are_not_left_in_pyplot(figs):
    import matplotlib._pylab_helpers as helpers
    assert not helpers.Gcf.get_all_fig_managers()


def test_legends_sit_outside_the_axes(figs):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    seen = 0
    for name, fig in figs.items():
        FigureCanvasAgg(fig).draw()
        for ax in data_axes(fig):
            legend = ax.get_legend()
            if legend is None:
                continue
            seen += 1
            inside = legend.get_window_extent().padded(-1).overlaps(ax.get_window_extent())
            assert not inside, f"{name}: the legend covers the data area"
    assert seen >= 5


def test_heat_map_uses_the_metric_range_and_labels_its_colour_bar(figs):
    fig = figs["heatmap"]
    image = data_axes(fig)[0].images[0]
    assert image.get_clim() == (0.0, 1.0)                           # not the data's 0.41..0.71
    cbar = [ax for ax in fig.axes if ax.get_label() == "<colorbar>"]
    assert len(cbar) == 1 and "recall@5" in cbar[0].get_ylabel() and "0–1" in cbar[0].get_ylabel()
    texts = {t.get_text() for t in data_axes(fig)[0].texts}
    assert {"0.410", "0.710"} <= texts                              # every cell annotated
    other = heatmap_figure([[2.0, 4.0]], [0], [1, 2], metric="latency (ms)", vmin=0, vmax=5)
    assert data_axes(other)[0].images[0].get_clim() == (0.0, 5.0)


def test_p_values_are_formatted():
    assert format_p(0.0000001) == "p < 0.001"
    assert format_p(0.0342) == "p = 0.034"
    assert format_p(1.0) == "p = 1"
    assert format_p(0.05) == "p = 0.05"
    assert format_p(0.001) == "p = 0.001"
    table = metrics.tests_table(summary(), "graph")
    assert "p = " in table or "p < " in table or "no difference" in table
    assert "(0.00)" not in table and " 1 (" not in table


def test_cut_text_ends_with_an_ellipsis(figs):
    assert shorten("short question?", 80) == "short question?"
    cut = shorten("word " * 40, 30)
    assert len(cut) <= 30 and cut.endswith("…")
    title = figs["evidence"]._suptitle.get_text()
    assert title.endswith("…") and len(title) < 140
    zh = evidence_figure("2018年诊所许可法与2012年相比，许可证有效期有什么变化？", {"bm25": [Hit("k@1/a1", 1.0)]})
    font = zh._suptitle.get_fontproperties().get_file() or ""
    assert "LastResort" not in font                                  # a font that draws boxes is no font


def test_figures_display_inline_as_png(figs):
    from IPython.core.formatters import DisplayFormatter
    data, _ = DisplayFormatter().format(figs["metrics"])
    assert data["image/png"][:8] == b"\x89PNG\r\n\x1a\n"


def test_save_writes_a_readable_png(figs, tmp_path):
    from PIL import Image
    path = save(figs["ci"], tmp_path / "deep" / "ci.png")
    assert path == tmp_path / "deep" / "ci.png"
    with Image.open(path) as im:
        assert im.format == "PNG" and im.size[0] > 500 and im.size[1] > 300
    assert figs["ci"]._repr_png_()                                   # still displayable after saving


def test_the_metrics_figure_shows_macro_f2_by_category(figs):
    titles = [ax.get_title() for ax in data_axes(figs["metrics"])]
    assert titles == ["Overall", "recall@5 by category", "macro_f2 by category"]
    s = summary()
    bars = [p.get_height() for p in data_axes(figs["metrics"])[2].patches]
    want = [s["systems"][name]["by_category"][c]["macro_f2"] for name in s["systems"] for c in s["categories"]]
    assert bars == pytest.approx(want)

"""The panel's pieces on hand-made results (no workspace): provenance in words, the evidence
table, unit details, A / B comparison, export, the as-of box, hop limits and the no-change
hint, graph labels and the selection link of the subgraph page."""
from __future__ import annotations

import datetime as dt
from dataclasses import replace

import polars as pl
import pytest

from workbench.core.config import RetrievalConfig
from workbench.core.records import Hit, Link, Result, Unit, Via
from workbench.ui import compare, detail, evidence
from workbench.ui.graphview import _label, evidence_subgraph, to_html


def unit(uid, kind="article", role="", label="", text="text", frm=dt.date(2019, 1, 1), to=None):
    doc, _, rest = uid.partition("/")
    key, _, version = doc.partition("@")
    return Unit(uid, key, version, kind, label=label or rest.lstrip("a"), text=text, role=role,
                effective_from=frm, effective_to=to)


def result(ids, cited=(), parts=None, vias=None):
    vias = vias or {}
    hits = [Hit(i, 1.0 - n / 10, vias.get(i, Via("seed", detail=f"BM25 #{n + 1}, dense #{n + 2}")), unit(i))
            for n, i in enumerate(ids)]
    return Result(hits, list(cited), components=parts or {})


def test_provenance_says_where_a_unit_came_from_in_words():
    path = Via("path", (Link("k@2018/a10", "REFERENCES", "k@2018/a16", False),))
    assert evidence.provenance(Hit("k@2018/a16", 1, path, unit("k@2018/a16")), 3) == "reached: a10 <-REFERENCES- a16"
    other = Via("path", (Link("k@2018/a10", "INHERITS", "k@2012/a10"),))
    assert evidence.provenance(Hit("k@2012/a10", 1, other, None), 1) == "reached: a10 -INHERITS-> k@2012/a10"
    seed = Hit("k@2018/a10", 1, Via("seed", detail="BM25 #2, dense #5"), unit("k@2018/a10"))
    assert evidence.provenance(seed, 1) == "seed: BM25 #2, dense #5"
    direct = Hit("k@2012/a8", 1, Via("direct", detail="k@2018/a8 as in force on 2015-01-01"),
                 unit("k@2012/a8", label="第八条"))
    assert evidence.provenance(direct, 1) == ("seed: direct lookup of 第八条 in the 2012 version, "
                                              "standing for k@2018/a8 as in force on 2015-01-01")
    assert evidence.provenance(Hit("k@1/a1", 1, "bm25", unit("k@1/a1")), 4) == "BM25 rank 4"
    assert evidence.provenance(Hit("k@1/a1", 1, Via("seed").noted("other version"), unit("k@1/a1")), 1) == \
        "seed: the fused BM25 + dense search (other version)"


def test_evidence_table_has_four_columns_and_a_parts_line_per_unit():
    r = result(["k@1/a1", "k@1/a2"], cited=["k@1/a2"],
               parts={"k@1/a1": {"semantic": 0.5, "lexical": 0.25, "support": 0.0}, "k@1/a2": {"proximity": 0.1}})
    page = evidence.evidence_table(r, selected="k@1/a1")
    assert page.count("<th>") == 4 and "why it is here" in page
    assert page.count("class='parts") == 2
    assert "semantic 0.5" in page and "lexical 0.25" in page and "support" not in page.split("<table>")[1]
    assert evidence.FORMULA["semantic"].replace("×", "&#x27;") not in page and "cosine with the topic" in page
    assert "class='hit selected'" in page and "class='hit cited'" in page
    assert "seed: BM25 #1, dense #2" in page and "flat retrieval" in page


def test_detail_pane_lists_edges_by_type_and_the_versions():
    u = unit("k@2018/a10", role="obligation", text="Every licensee shall <keep> records.")
    d = {"unit": u, "document": "k@2018", "title": "Clinic Act",
         "edges": {"out": [("INHERITS", "k@2012/a10", True)] + [("REFERENCES", f"k@2018/a{i}", True) for i in range(14)],
                   "in": [("REFERENCES", "k@2018/a16/c2", True)]},
         "versions": [{"unit_id": "k@2012/a10", "effective_from": dt.date(2012, 7, 1), "effective_to": dt.date(2019, 1, 1)},
                      {"unit_id": "k@2018/a10", "effective_from": dt.date(2019, 1, 1), "effective_to": None,
                       "status": "amended"}]}
    page = detail.detail_html(d, u.id, 2, "seed: BM25 #1")
    assert "Clinic Act — version 2018, in force 2019-01-01 – now" in page and "role: obligation" in page
    assert "&lt;keep&gt;" in page and "<keep>" not in page
    assert "-INHERITS-&gt; <code>k@2012/a10</code>" in page and "&lt;-REFERENCES- <code>a16/c2</code>" in page
    assert "… and 2 more" in page                          # 14 REFERENCES, 12 shown
    assert "k@2018/a10</code> 2019-01-01 – now · amended ◀ this one" in page
    assert "not in the workspace" in detail.detail_html(None, "k@1/a99")


def test_compare_reports_moves_settings_and_metric_deltas():
    a = result(["k@1/a1", "k@1/a2", "k@1/a3"], cited=["k@1/a1"])
    b = result(["k@1/a2", "k@1/a1", "k@1/a4"], cited=["k@1/a2"])
    m = compare.moves(a, b)
    assert dict(zip(m["unit_id"], m["move"])) == {"k@1/a2": "↑1", "k@1/a1": "↓1", "k@1/a4": "new", "k@1/a3": "dropped"}
    d = {r["metric"]: r for r in compare.metric_deltas(a, b, ["k@1/a2"]).iter_rows(named=True)}
    assert d["mrr"]["a"] == 0.5 and d["mrr"]["b"] == 1.0 and d["mrr"]["delta"] == 0.5
    assert d["citation_f1"]["delta"] == 1.0
    ca, cb = RetrievalConfig(), replace(RetrievalConfig(), top_k=5, hops=(("REFERENCES", 0),),
                                        weights=replace(RetrievalConfig().weights, semantic=0.9))
    changed = compare.settings_diff(ca, cb)
    assert "top_k: 10 → 5" in changed and "hops: policy → REFERENCES 0" in changed
    assert any(c.startswith("weight semantic:") for c in changed)
    page = compare.compare_html(a, b, "q", "q", ca, cb, ["k@1/a2"])
    assert "↑1" in page and "dropped" in page and "+0.500" in page


def _panel(tmp_path, **kw):
    from workbench.ui.panel import Panel
    calls = []

    def retrieve(q, cfg):
        calls.append(cfg)
        ids = ["k@1/a1", "k@1/a2", "k@1/a3"][: 2 if cfg.hops else 3]
        return result(ids, cited=ids[:1])
    adj = {"k@1/a2": [("k@1/a7", "REFERENCES", "->"), ("k@1/a8", "AMENDS", "<-")]}
    details = {"k@1/a2": {"unit": unit("k@1/a2"), "document": "k@1", "title": "Act", "versions": [],
                          "edges": {"out": [("REFERENCES", "k@1/a7", True)], "in": []}}}
    return Panel(retrieve, lambda u: adj.get(u, ()), None, None, "a question", exports=tmp_path / "exports",
                 details=details.get, **kw), calls


def test_panel_selects_expands_compares_and_exports(tmp_path):
    panel, calls = _panel(tmp_path)
    assert not panel.errors and panel.view is not None
    panel.selection.value = "k@1/a2"                      # what a click on a node or a row does
    assert panel.selected == "k@1/a2" and "rank 2 in this result" in panel.detail.value
    assert "class='hit selected' data-unit='k@1/a2'" in panel.table.value
    assert not panel.expand_button.disabled
    before = len(panel.view.subgraph.nodes)
    assert panel.expand() == 2 and len(panel.view.subgraph.nodes) == before + 2
    assert "neighbour" in panel.view.graph_html
    panel.pin()
    panel.hops.value = "0"
    assert panel.tabs.selected_index == 1 and "dropped" in panel.compare.value and "hops: policy →" in panel.compare.value
    out = panel.export()
    back = pl.read_csv(out["csv"])
    assert back["unit_id"].to_list() == [h.unit_id for h in panel.view.result.hits]
    assert pl.read_parquet(out["parquet"]).height == back.height and out["compare"].exists()
    assert panel.export()["csv"].name == "evidence_002.csv"          # numbered, never overwritten
    assert all(p.parent == tmp_path / "exports" for p in out.values())


def test_panel_refuses_a_date_that_is_not_iso(tmp_path):
    panel, calls = _panel(tmp_path)
    n = len(calls)
    panel.as_of.value = "01/02/2019"
    assert "write it as YYYY-MM-DD" in panel.error.value and len(calls) == n
    panel.as_of.value = "2019-02-01"
    assert calls[-1].as_of == "2019-02-01" and not panel.error.value


def test_hops_line_and_the_no_change_hint(tmp_path):
    from workbench.ui.panel import hops_line
    r = replace(result(["k@1/a1"]), hops={"REFERENCES": 2, "AMENDS": 0})
    assert "from the routed policy" in hops_line(r, RetrievalConfig())
    assert "from the hops slider" in hops_line(r, replace(RetrievalConfig(), hops=(("REFERENCES", 2),)))
    assert "REFERENCES 2" in hops_line(r, RetrievalConfig()) and "AMENDS" not in hops_line(r, RetrievalConfig())
    assert "no graph expansion in bm25 mode" in hops_line(r, replace(RetrievalConfig(), mode="bm25"))
    panel, _ = _panel(tmp_path)
    panel.hops.value = "2"
    panel.hops.value = "3"                                   # same units, same drawing
    assert "no change" in panel.status.value and "longest path used has 0 step(s)" in panel.status.value


def test_graph_labels_name_the_instrument_only_when_ambiguous():
    assert _label("k@2018/a10", 3, {"k@2018"}) == "3. a10"
    assert _label("k@2018/a10", None, {"k@2018", "k@2012"}) == "a10\n@2018"
    assert _label("k@2018/a10", 1, {"k@2018", "j@2020"}) == "1. a10\nk@2018"


def test_the_graph_page_posts_clicks_and_takes_focus():
    r = result(["k@1/a1", "k@1/a2"])
    sub = evidence_subgraph(r.hits, ["k@1/a1"], [])
    page = to_html(sub, selected="k@1/a2</script>")
    assert 'parent.postMessage({wb: "select"' in page and "wbFocus" in page
    assert "k@1/a2\\u003c/script>" in page and "k@1/a2</script>" not in page


def test_select_script_ships_with_the_package():
    from workbench.ui.panel import SELECT_JS
    assert "wb-select" in SELECT_JS and "postMessage" in SELECT_JS


@pytest.mark.parametrize("text,iso", [("", None), (" 2019-01-02 ", "2019-01-02"), (dt.date(2020, 5, 1), "2020-05-01")])
def test_parse_date(text, iso):
    from workbench.ui.panel import parse_date
    assert parse_date(text) == iso


def test_entities_tab_lists_the_entities_of_the_shown_units_and_their_relations(tmp_path):
    from types import SimpleNamespace as NS
    from workbench.entities.extract import Mention
    built = []

    class Index:
        entities = {"e1": NS(name="licensing authority", type="authority"), "e2": NS(name="licensee", type="party")}
        mentions = [Mention("e1", "authority", "licensing authority", "k@1/a1/c2", 0, 5, 1.0),
                    Mention("e2", "party", "licensee", "k@1/a2", 0, 5, 1.0),
                    Mention("e2", "party", "licensee", "k@1/a3", 0, 5, 1.0)]

        def relations_of(self, eid, **kw):
            return []

        def documents_of(self, eid):
            return [{"document": "k@1", "mentions": 2, "units": ["k@1/a2", "k@1/a3"], "co_occurring": []}]

        def search(self, q, limit=30):
            return [{"id": "e1", "mentions": 1}] if "auth" in q else []
    panel, _ = _panel(tmp_path, entities=lambda: built.append(1) or Index())
    assert not built                                       # not built until the tab is opened
    panel.tabs.selected_index = 2
    assert built == [1] and panel.entity_tab.choice.value == "e2"       # most mentioned among the shown units
    assert "documents mentioning it" in panel.entity_tab.out.value and "k@1" in panel.entity_tab.out.value
    panel.selection.value = "k@1/a1"                       # a selected unit: the entities in it and below it
    assert [v for _, v in panel.entity_tab.choice.options] == ["e1"]
    panel.entity_tab.search.value = "auth"
    assert panel.entity_tab.choice.value == "e1" and built == [1]


def test_the_detail_pane_follows_the_result_after_a_change_of_setting(tmp_path):
    panel, _ = _panel(tmp_path)
    panel.details = lambda uid: {"unit": unit(uid), "document": "k@1", "title": "Act", "versions": [],
                                 "edges": {"out": [], "in": []}}
    panel.selection.value = "k@1/a3"
    assert "rank 3 in this result" in panel.detail.value
    panel.hops.value = "1"                                   # the fake retrieval now returns two units
    assert "not ranked in this result" in panel.detail.value and panel.selected == "k@1/a3"


def test_every_re_rank_weight_says_what_it_measures():
    """Each weight slider and evidence-table column has its hover text (a new weight too)."""
    from dataclasses import fields
    from workbench.core.config import Weights
    from workbench.ui.evidence import FORMULA
    assert {f.name for f in fields(Weights)} - set(FORMULA) == set()


def test_a_weight_slider_the_user_sets_holds_in_every_question_type_and_language(tmp_path):
    """A slider the user moved is sent as set (`weights_set`), even back at its default, where an
    untouched one takes the language's and the type's own; "reset weights" lets them apply again,
    the ViHERMES weighting holds whole, a loaded setting keeps what its file set."""
    from workbench.core.config import Weights
    from workbench.ui.panel import weights_line
    panel, calls = _panel(tmp_path)
    assert calls[-1].weights_set == ()
    panel.weight_sliders["role"].value = 0.4
    panel.weight_sliders["role"].value = Weights().role               # back at the default: still the user's
    assert calls[-1].weights_set == ("role",) and calls[-1].weights.role == Weights().role
    panel.reset.click()
    assert calls[-1].weights_set == () and calls[-1].weights == Weights()
    panel.vihermes.click()
    assert calls[-1].weights == Weights.vihermes() and set(calls[-1].weights_set) == set(panel.weight_sliders)
    path = panel.save_config(tmp_path / "setting.toml")
    panel.reset.click()
    assert panel.load_config(path).weights_set == calls[-1].weights_set and set(calls[-1].weights_set) == \
        set(panel.weight_sliders)
    # what the language and the type changed is said beside the sliders
    from types import SimpleNamespace
    from workbench.retrieve.route import classify
    plan = SimpleNamespace(language="en", route=classify("What must a clinic keep?"))     # a precise question
    used = replace(result(["k@1/a1"]), weights=replace(Weights(), lexical=0.4, support=0.0), plan=plan)
    line = weights_line(used, RetrievalConfig())
    assert "lexical 0.4" in line and "support 0" in line and "semantic" not in line
    assert "the weights for en questions and the policy for precise questions" in line
    plan.language = "zh"                                      # no [language.zh] table: the type's policy alone
    line = weights_line(replace(used, weights=replace(Weights(), support=0.0)), RetrievalConfig())
    assert "from the policy for precise questions" in line and "zh" not in line
    assert weights_line(replace(used, weights=Weights()), RetrievalConfig()) == ""
    assert weights_line(used, replace(RetrievalConfig(), mode="bm25")) == ""

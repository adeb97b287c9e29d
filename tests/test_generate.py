"""Benchmark generation: path enumeration and hop counting (logic), and a generated set
from the three real zh corpora whose every path is made of edges that are in the graph."""
import datetime as dt
import json
import time

import pytest

from workbench.core.config import Config, IngestConfig
from workbench.evaluate.metrics import load_benchmark
from workbench.retrieve.expand import article_of
from workbench.evaluate.generate import (CATEGORY, articles, build, enumerate_paths, generate, load_templates,
                                reasoning_types, rewrite, to_cn, write_jsonl)
from workbench.parse.numerals import cn_to_int
from workbench.core.records import Edge, EdgeType, Unit
from workbench.workbench import Workbench

from conftest import shared_corpus

R, A, I = EdgeType.REFERENCES, EdgeType.AMENDS, EdgeType.INHERITS
EDGES = [
    Edge("d@3/a1", "d@2/a1", A),
    Edge("d@2/a1", "d@1/a1", I),
    Edge("d@3/a2/c1", "d@3/a1/c2/p1", R),     # a clause cites a point: article a2 -> article a1
    Edge("d@3/a2/c2", "d@3/a1", R),           # the same article pair again: one hop, not two
    Edge("d@3/a3/c2", "d@3/a3/c1", R),        # inside one article: no hop
    Edge("d@3/a4", "d@3/a2", R),
    Edge("d@3/a1/c1", "d@3/a4", R),           # closes the cycle a1 -> a4 -> a2 -> a1
    Edge("x@1/a1", "ref:gone/a1", R, resolved=False),
    Edge("d@2", "c@1", EdgeType.REPLACES),    # whole documents: no article to ask about
    Edge("d@3/a1", "d@3/a1/c2", EdgeType.CONTAINS),
    Edge("d@3/a5", "d@3/a6", EdgeType.RELATED_TO),
    Edge("amending-act@2020/a1", "d@3/a1", A),   # an amendment act's edge: not a version step
]


def shape(path):
    return [(article_of(e.source), e.type.value, article_of(e.target)) for e in path]


def test_paths_hops_and_types_on_a_hand_built_graph():
    paths = enumerate_paths(EDGES)
    assert sorted(shape(p) for p in paths) == sorted([
        [("d@3/a1", "AMENDS", "d@2/a1"), ("d@2/a1", "INHERITS", "d@1/a1")],
        [("d@3/a2", "REFERENCES", "d@3/a1"), ("d@3/a1", "AMENDS", "d@2/a1")],
        [("d@3/a2", "REFERENCES", "d@3/a1"), ("d@3/a1", "AMENDS", "d@2/a1"), ("d@2/a1", "INHERITS", "d@1/a1")],
        [("d@3/a4", "REFERENCES", "d@3/a2"), ("d@3/a2", "REFERENCES", "d@3/a1"), ("d@3/a1", "AMENDS", "d@2/a1")],
        [("d@3/a4", "REFERENCES", "d@3/a2"), ("d@3/a2", "REFERENCES", "d@3/a1"), ("d@3/a1", "AMENDS", "d@2/a1"),
         ("d@2/a1", "INHERITS", "d@1/a1")],
    ])      # a1 -> a4 -> a2 stays in one document; the cycle back to a1 is never taken
    ref = next(p for p in paths if len(p) == 2 and p[0].type == R)
    assert ref[0].source == "d@3/a2/c1" and ref[0].target == "d@3/a1/c2/p1"     # real edges, not lifted ones
    assert articles(ref) == ["d@3/a2", "d@3/a1", "d@2/a1"]
    assert len(enumerate_paths(EDGES, max_hops=3)) == 4
    assert len(enumerate_paths(EDGES, min_hops=3)) == 3
    assert len(enumerate_paths(EDGES, per_start=1)) == 3          # one path from each of a1, a2, a4
    chain = next(p for p in paths if {e.type for e in p} == {A, I})
    assert reasoning_types(chain, {"d@3/a1": "new text", "d@1/a1": "old text"}) == \
        ["version_difference", "temporal_applicability"]
    assert reasoning_types(chain, {"d@3/a1": "same", "d@1/a1": "same"}) == ["temporal_applicability"]
    assert reasoning_types(ref, {}) == ["cross_reference"]


def test_chinese_numerals_round_trip():
    assert [to_cn(n) for n in (1, 10, 11, 20, 34, 101, 110, 154, 1000)] == \
        ["一", "十", "十一", "二十", "三十四", "一百零一", "一百一十", "一百五十四", "一千"]
    assert all(cn_to_int(to_cn(n)) == n for n in range(1, 2000))


def _unit(uid, text, start, end, label=None, kind="article"):
    key, version = uid.split("/")[0].split("@")
    return Unit(uid, key, version, kind, label or "", "中华人民共和国测试法" if kind == "document" else "",
                text, "zh", effective_from=start, effective_to=end)


def test_questions_from_hand_built_paths():
    periods = {"1": (dt.date(2001, 1, 1), dt.date(2005, 1, 1)), "2": (dt.date(2005, 1, 1), dt.date(2010, 1, 1)),
               "3": (dt.date(2010, 1, 1), None)}
    docs = {f"d@{v}": _unit(f"d@{v}", "", *p, kind="document") for v, p in periods.items()}
    units = {"d@3/a1": _unit("d@3/a1", "新的规定", *periods["3"], "1"),
             "d@2/a1": _unit("d@2/a1", "旧的规定", *periods["2"], "1"),
             "d@1/a1": _unit("d@1/a1", "旧的规定", *periods["1"], "1"),
             "d@3/a2": _unit("d@3/a2", "依照本法第一条", *periods["3"], "2"),
             "d@3/a4": _unit("d@3/a4", "依照本法第二条", *periods["3"], "4")}
    rows = build(enumerate_paths(EDGES), units, docs, max_questions=100, seed=3)
    again = build(enumerate_paths(list(reversed(EDGES))), units, docs, max_questions=100, seed=3)
    assert rows == again                                             # deterministic, input order aside
    by_type = {}
    for r in rows:
        by_type.setdefault(r["reasoning_type"], []).append(r)
        assert r["hop_count"] == len(r["path"]) and r["category"] == CATEGORY[r["reasoning_type"]]
    assert set(by_type) == {"version_difference", "temporal_applicability", "cross_reference"}
    temporal = by_type["temporal_applicability"][0]
    assert temporal["gold"] == ["d@1/a1"] and "2001-01-01" <= temporal["as_of"] < "2005-01-01"
    assert by_type["version_difference"][0]["gold"] == ["d@3/a1", "d@2/a1", "d@1/a1"]
    rv = [r for r in by_type["cross_reference"] if r["path"][0][0] == "d@3/a2/c1" and r["hop_count"] == 2]
    assert rv[0]["question"] == "2010年《测试法》第二条援引的第一条，在2005年《测试法》中对应哪一条？是如何规定的？"
    chained = [r for r in by_type["cross_reference"] if r["hop_count"] == 4][0]
    assert "第四条援引的第二条所援引的第一条" in chained["question"]
    assert len(build(enumerate_paths(EDGES), units, docs, max_questions=2)) == 2


def test_llm_rewrite_is_kept_only_when_every_unit_is_needed():
    units = {u: _unit(u, "规定", dt.date(2001, 1, 1), dt.date(2005, 1, 1), "1") for u in ("d@3/a1", "d@2/a1")}
    row = {"question": "模板问题", "language": "zh", "gold": ["d@3/a1", "d@2/a1"]}
    prompts = load_templates()["llm"]
    yes = rewrite(row, units, lambda p: "yes" if "Evidence" in p else "改写的问题", prompts)
    assert yes["question"] == "改写的问题" and yes["template_question"] == "模板问题"
    no = rewrite(row, units, lambda p: ("no" if "evidence [2]" in p else "yes") if "Evidence" in p
                 else "改写的问题", prompts)
    assert no == row


@pytest.mark.shared
def test_generated_benchmark_from_the_real_zh_corpora(tmp_path):
    t0 = time.perf_counter()
    wb = Workbench.open(tmp_path / "ws", Config(IngestConfig(embed_kinds=("document",), progress=False)))
    for name in ("zh-food-safety", "zh-pig-slaughter", "zh-animal-quarantine"):
        wb.ingest(shared_corpus(name))
    rows = generate(wb, max_questions=400, seed=7)
    assert len(rows) >= 100
    assert {r["reasoning_type"] for r in rows} == set(CATEGORY)
    assert {r["hop_count"] for r in rows} == {2, 3, 4}
    ids = wb.store.ids()
    edges = {(e.source, e.type.value, e.target) for e in wb.graph.all_edges()}
    for r in rows:
        assert r["hop_count"] == len(r["path"]) and 2 <= r["hop_count"] <= 4, r["id"]
        assert all(tuple(step) in edges for step in r["path"]), r["id"]
        assert all(article_of(a[2]) == article_of(b[0]) for a, b in zip(r["path"], r["path"][1:])), r["id"]
        assert {t for _, t, _ in r["path"]} <= {"REFERENCES", "AMENDS", "INHERITS", "REPLACES"}
        on_path = [article_of(r["path"][0][0])] + [article_of(s[2]) for s in r["path"]]
        assert len({a.split("/")[0] for a in on_path}) >= 2, r["id"]             # crosses versions
        assert set(r["gold"]) <= ids, r["id"]
        if r["reasoning_type"] == "temporal_applicability":
            on = dt.date.fromisoformat(r["as_of"])
            assert r["gold"] == on_path[-1:] and wb.in_force(r["gold"][0], on), r["id"]
            assert not wb.in_force(on_path[0], on), r["id"]
        else:
            assert r["gold"] == on_path, r["id"]
    out = write_jsonl(rows, tmp_path / "generated.jsonl")
    assert [q.id for q in load_benchmark(out)] == [r["id"] for r in rows]
    assert json.loads(out.read_text(encoding="utf-8").splitlines()[0])["path"] == rows[0]["path"]
    assert generate(wb, max_questions=400, seed=7) == rows                     # deterministic
    print(f"\n{len(rows)} questions in {time.perf_counter() - t0:.1f}s")

"""Versions, time, terms, semantic links, cycles and late resolution on real stores."""
import datetime as dt

import numpy as np
import pytest

from workbench.core.config import Config, IngestConfig
from workbench.link.cycles import ORDERING, cycle_problems
from workbench.core.records import Edge, EdgeType, Unit
from workbench.link.semantic import related_edges
from workbench.link.terms import extract_terms
from workbench.link.versions import align, in_force, text_diff, version_in_force
from workbench.workbench import Workbench


def art(doc, label, text):
    key, version = doc.split("@")
    return Unit(f"{doc}/a{label}", key, version, "article", label, text=text, language="zh")


def test_alignment_finds_inherited_amended_renumbered_added_removed():
    old = [art("x@1", "1", "为了加强管理，制定本法。"), art("x@1", "2", "许可证有效期为三年。"),
           art("x@1", "3", "经营者应当建立进货查验记录制度，如实记录食品的名称、规格、数量。"),
           art("x@1", "4", "本法自公布之日起施行。")]
    new = [art("x@2", "1", "为了加强管理，制定本法。"), art("x@2", "2", "许可证有效期为五年。"),
           art("x@2", "3", "国家建立远程医疗服务制度。"),
           art("x@2", "4", "经营者应当建立进货查验记录制度，如实记录食品的名称、规格、数量和生产日期。")]
    changes = {(c.status, c.old, c.new) for c in align(old, new)}
    assert ("inherited", "x@1/a1", "x@2/a1") in changes
    assert ("amended", "x@1/a2", "x@2/a2") in changes
    assert ("renumbered", "x@1/a3", "x@2/a4") in changes
    assert ("added", None, "x@2/a3") in changes and ("removed", "x@1/a4", None) in changes
    amended = next(c for c in align(old, new) if c.old == "x@1/a2")
    assert amended.inserted == ("五",) and amended.deleted == ("三",)


def test_a_renaming_made_throughout_a_revision_is_told_from_a_change_of_substance():
    """A revision renaming an authority in every article that names it amends each of them in
    text; only the article changed beyond the renaming has substance. Raising a fine in as many
    articles is substance all the same (figures are never a renaming)."""
    from workbench.core.records import Unit as U
    from workbench.link.versions import align_corpus
    old_body = ["由县级以上农业行政主管部门责令改正，处一千元罚款。", "农业行政主管部门应当公布名录。",
                "农业行政主管部门负责监督检查。", "申请人向农业行政主管部门提出申请，十日内作出决定。"]
    new_body = ["由县级以上农业农村主管部门责令改正，处一万元罚款。", "农业农村主管部门应当公布名录。",
                "农业农村主管部门负责监督检查。", "申请人向农业农村主管部门备案，无需许可。"]
    units = [U("z@1", "z", "1", "document", "", effective_from=__import__("datetime").date(2001, 1, 1)),
             U("z@2", "z", "2", "document", "", effective_from=__import__("datetime").date(2011, 1, 1))]
    units += [art("z@1", str(i + 1), t) for i, t in enumerate(old_body)]
    units += [art("z@2", str(i + 1), t) for i, t in enumerate(new_body)]
    edges, _ = align_corpus(units)
    size = {e.source: int(dict(e.attrs)["substance"]) for e in edges if e.type == EdgeType.AMENDS}
    assert size["z@2/a2"] == 0 and size["z@2/a3"] == 0                 # renamed only
    assert size["z@2/a1"] > 0 and size["z@2/a4"] > 0                   # a fine raised; a licence made a filing
    english = [("The FSA may issue a licence.", "The Regulator may issue a licence."),
               ("A licence is issued by the FSA.", "A licence is issued by the Regulator."),
               ("The FSA's register is public.", "The Regulator's register is public."),
               ("The FSA shall decide within 30 days.", "The Regulator shall decide within 60 days.")]
    units = [U("e@1", "e", "1", "document", "", effective_from=__import__("datetime").date(2001, 1, 1)),
             U("e@2", "e", "2", "document", "", effective_from=__import__("datetime").date(2011, 1, 1))]
    units += [Unit(f"e@{v}/a{i + 1}", "e", str(v), "article", str(i + 1), text=pair[v - 1], language="en")
              for v in (1, 2) for i, pair in enumerate(english)]
    edges, _ = align_corpus(units)
    size = {e.source: int(dict(e.attrs)["substance"]) for e in edges if e.type == EdgeType.AMENDS}
    assert size == {"e@2/a1": 0, "e@2/a2": 0, "e@2/a3": 0, "e@2/a4": 1}    # "FSA." and "FSA's": one renaming
    # a phrase inserted throughout, or every "may" made a "shall", is substance however often it recurs
    pairs = [("主管部门可以责令改正。", "主管部门应当责令改正，或者备案。"), ("主管部门可以公布名录。", "主管部门应当公布名录，或者备案。"),
             ("主管部门可以检查。", "主管部门应当检查，或者备案。")]
    units = [U("y@1", "y", "1", "document", "", effective_from=__import__("datetime").date(2001, 1, 1)),
             U("y@2", "y", "2", "document", "", effective_from=__import__("datetime").date(2011, 1, 1))]
    units += [art(f"y@{v}", str(i + 1), pair[v - 1]) for v in (1, 2) for i, pair in enumerate(pairs)]
    edges, _ = align_corpus(units)
    assert all(int(dict(e.attrs)["substance"]) > 0 for e in edges if e.type == EdgeType.AMENDS)


def test_a_body_renamed_by_adding_to_its_name_throughout_a_revision_is_a_renaming():
    """"交通主管部门" -> "交通运输主管部门" is an insertion, not a substitution, but made inside the
    name of a body in every article naming it, it renames that body: substance 0 there (and
    dropping it again, a deletion, likewise), while the article that also changed a period keeps its
    substance. Not a renaming: the same insertion in fewer than three articles; a phrase added after
    a name in as many; another body or another level joined to the name; any of it without the
    bodies' spans (which the workspace passes in from the entity rules)."""
    import datetime as dt
    from workbench.core.records import Unit as U
    from workbench.entities.rules_zh import bodies
    from workbench.link.versions import align_corpus
    pairs = [("国务院交通主管部门规定教学大纲。", "国务院交通运输主管部门规定教学大纲。"),
             ("县级交通主管部门负责监督检查。", "县级交通运输主管部门负责监督检查。"),
             ("申请人向交通主管部门提出申请。", "申请人向交通运输主管部门提出申请。"),
             ("交通主管部门应当在十日内作出决定。", "交通运输主管部门应当在三十日内作出决定。")]

    def sizes(rows, names=bodies):
        units = [U("t@1", "t", "1", "document", "", effective_from=dt.date(2001, 1, 1)),
                 U("t@2", "t", "2", "document", "", effective_from=dt.date(2011, 1, 1))]
        units += [art(f"t@{v}", str(i + 1), pair[v - 1]) for v in (1, 2) for i, pair in enumerate(rows)]
        edges, _ = align_corpus(units, bodies=names)
        return {e.source: int(dict(e.attrs)["substance"]) for e in edges if e.type == EdgeType.AMENDS}
    size = sizes(pairs)
    assert size["t@2/a1"] == size["t@2/a2"] == size["t@2/a3"] == 0
    assert size["t@2/a4"] > 0                                           # the period changed too
    back = sizes([(b, a) for a, b in pairs[:3]])                         # the name shortened again
    assert set(back.values()) == {0}
    assert all(v > 0 for v in sizes(pairs[:3], names=None).values())    # no spans: an insertion is substance
    alone = sizes([pairs[0], ("县级主管部门负责监督检查。", "县级主管部门负责监督检查和处罚。")])
    assert alone["t@2/a1"] > 0                                          # made once: no renaming
    after = [("设立学校报交通主管部门批准。", "设立学校报交通主管部门批准并公告。"),
             ("变更名称报交通主管部门批准。", "变更名称报交通主管部门批准并公告。"),
             ("终止办学报交通主管部门批准。", "终止办学报交通主管部门批准并公告。")]
    assert all(v > 0 for v in sizes(after).values())                    # a phrase after the name
    joined = [(a, b.replace("交通运输主管部门", "交通运输、公安主管部门")) for a, b in pairs[:3]]
    assert all(v > 0 for v in sizes(joined).values())                   # another body joined to it
    level = [("县级交通主管部门规定教学大纲。", "县级以上交通主管部门规定教学大纲。"),
             ("县级交通主管部门负责监督检查。", "县级以上交通主管部门负责监督检查。"),
             ("申请人向县级交通主管部门提出申请。", "申请人向县级以上交通主管部门提出申请。")]
    assert all(v > 0 for v in sizes(level).values())                    # a level of government added



def test_a_task_moved_between_two_bodies_the_law_keeps_is_substance_not_a_renaming():
    """The same substitution in three articles ("科学技术" -> "卫生健康") renames a body when the
    newer version no longer names the old one; when both versions go on naming both bodies
    elsewhere, the revision moved those approvals from one to the other (a transfer of
    competence, as 生物安全法 2024 did): substance, what a question on that revision asks about."""
    from workbench.core.records import Unit as U
    from workbench.link.versions import align_corpus
    moved = [(f"国务院科学技术主管部门负责审批{x}活动。", f"国务院卫生健康主管部门负责审批{x}活动。")
             for x in ("采集", "保藏", "出境")]
    health = [(f"国务院卫生健康主管部门负责{x}。",) * 2 for x in ("医疗机构管理", "疾病防控", "健康教育")]
    science = [(f"国务院科学技术主管部门负责{x}。",) * 2 for x in ("科研项目管理", "科学普及", "技术转移")]

    def sizes(rows):
        units = [U("s@1", "s", "1", "document", "", effective_from=dt.date(2001, 1, 1)),
                 U("s@2", "s", "2", "document", "", effective_from=dt.date(2011, 1, 1))]
        units += [art(f"s@{v}", str(i + 1), pair[v - 1]) for v in (1, 2) for i, pair in enumerate(rows)]
        edges, _ = align_corpus(units)
        return {e.source: int(dict(e.attrs)["substance"]) for e in edges if e.type == EdgeType.AMENDS}
    assert set(sizes(moved + health + science)) == {"s@2/a1", "s@2/a2", "s@2/a3"}
    assert all(v > 0 for v in sizes(moved + health + science).values())     # both bodies stay: a transfer
    assert set(sizes(moved + health).values()) == {0}      # the old body named nowhere after: a renaming
    assert set(sizes(moved + science).values()) == {0}     # the new body named nowhere before: a renaming
    # a piece of a name (行政 -> 主管) both versions use elsewhere is still a renaming: no body's name is moved
    piece = [(f"县级卫生行政部门负责{x}。", f"县级卫生主管部门负责{x}。") for x in ("监督", "检查", "登记")]
    other = [(f"公安主管部门给予行政处罚{x}。",) * 2 for x in ("一", "二", "三")]
    assert set(sizes(piece + other).values()) == {0}

def test_a_change_of_form_only_is_inherited_not_amended():
    """Half-width / full-width punctuation, quote style, spaces, zero-width spaces and Unicode
    composition are typesetting, not amendment: INHERITS with formal_change = true (the diff is kept)."""
    from workbench.link.versions import version_edges
    zh_old = [art("z@1", "5", "食品生产经营者应当依照法律、法规和食品安全标准从事生产经营活动，对社会和公众负责。"),
              art("z@1", "6", "县级以上人民政府应当加强“食品安全”宣传。")]
    zh_new = [art("z@2", "5", "食品生产经营者应当依照法律、法规和食品安全标准从事生产经营活动, 对社会和公众负责."),
              art("z@2", "6", "县级以上人民政府应当加强「食品安全」宣传。")]
    decomposed = "Cơ sở khám bệnh phải lưu trữ hồ sơ bệnh án."
    composed = __import__("unicodedata").normalize("NFD", decomposed)
    vi_old = [Unit("v@1/a3", "v", "1", "article", "3", text=f"“{decomposed}”", language="vi")]
    vi_new = [Unit("v@2/a3", "v", "2", "article", "3", text=f'"{composed}"  \u200b', language="vi")]
    for old, new in ((zh_old, zh_new), (vi_old, vi_new)):
        changes = align(old, new)
        assert all(c.status == "inherited" and c.formal for c in changes), changes
        edges = version_edges(changes)
        assert {e.type for e in edges} == {EdgeType.INHERITS}
        assert all(dict(e.attrs)["formal_change"] == "true" for e in edges)
    invisible = align([art("z@1", "9", "国家鼓励和支持开展食品安全科学研究。")],         # zero-width spaces
                      [art("z@2", "9", "国家鼓励和支持开展食品安全\u200b科学研究。\n\u200b")])
    assert invisible[0].status == "inherited" and version_edges(invisible)[0].type == EdgeType.INHERITS
    real = align([art("z@1", "7", "罚款五千元。")], [art("z@2", "7", "罚款五万元。")])
    assert real[0].status == "amended" and not real[0].formal          # a word changed: still AMENDS
    same = align([art("z@1", "8", "本法自公布之日起施行。")], [art("z@2", "8", "本法自公布之日起施行。")])
    assert not same[0].formal and "formal_change" not in dict(version_edges(same)[0].attrs)


def test_word_diff_for_alphabetic_text():
    ins, dels = text_diff("A licence is valid for three years.", "A licence is valid for five years.")
    assert ins == ("five",) and dels == ("three",)
    assert text_diff("A licence\u200b is valid.", "A licence is valid.") == ((), ())   # invisible: no change
    from workbench.link.versions import _formal_words
    assert _formal_words("“Hồ sơ\u200b”  bệnh án") == _formal_words('"Hồ sơ" bệnh án')


def test_in_force_boundaries():
    d1 = Unit("k@1", "k", "1", "document", effective_from=dt.date(2012, 7, 1), effective_to=dt.date(2019, 1, 1))
    d2 = Unit("k@2", "k", "2", "document", effective_from=dt.date(2019, 1, 1))
    assert in_force(d1, dt.date(2018, 12, 31)) and not in_force(d1, dt.date(2019, 1, 1))
    assert version_in_force([d1, d2], "k", dt.date(2018, 12, 15)).id == "k@1"
    assert version_in_force([d1, d2], "k", dt.date(2019, 1, 1)).id == "k@2"
    assert version_in_force([d1, d2], "k", dt.date(2000, 1, 1)) is None


def test_definitions_in_three_languages():
    units = [Unit("a@1/a2/c1", "a", "1", "clause", text="本法所称食品，是指各种供人食用的成品。", language="zh"),
             Unit("b@1/a3/c1", "b", "1", "clause", text="1. Thuốc là chế phẩm có chứa dược chất.", language="vi"),
             Unit("c@1/a3/c1/pa", "c", "1", "point", text='(a) "clinic" means a healthcare facility;', language="en")]
    assert [t.term for u in units for t in extract_terms(u)] == ["食品", "Thuốc", "clinic"]


def test_related_edges_respect_threshold_cap_and_instrument():
    units = [Unit(f"{k}@1/a{i}", k, "1", "article", text="x" * 50) for i, k in enumerate("aabc")]
    v = np.array([[1, 0], [1, 0], [0.99, 0.141], [0, 1]], dtype=np.float32)
    edges = related_edges(units, v, [True] * 4, threshold=0.9, cap=2)
    pairs = {(e.source, e.target) for e in edges}
    assert pairs == {("a@1/a0", "b@1/a2"), ("a@1/a1", "b@1/a2")}   # never a-a, never below 0.9


def test_cycles_are_found(tmp_path):
    from workbench.store.graph import IGraphStore
    e = [Edge("a", "b", EdgeType.AMENDS), Edge("b", "c", EdgeType.AMENDS), Edge("c", "a", EdgeType.REPLACES),
         Edge("c", "d", EdgeType.AMENDS), Edge("d", "d", EdgeType.AMENDS), Edge("d", "c", EdgeType.REFERENCES)]
    graph = IGraphStore(tmp_path)
    graph.replace_corpus("x", e)
    assert [sorted(c) for c in graph.cycles(ORDERING)] == [["a", "b", "c"]]      # d -> c is no ordering edge
    [problem] = cycle_problems(graph)
    assert "a -AMENDS-> b" in problem.reason and "c -REPLACES-> a" in problem.reason and "-> d" not in problem.reason



@pytest.mark.parametrize("seed", range(6))
def test_cycles_match_strongly_connected_groups_of_random_graphs(tmp_path, seed):
    """The cycle check peels edges in numpy before igraph sees what is left: the groups it
    reports are igraph's strongly connected groups of all the ordering edges (chains, long
    cycles, cycles joined by paths, self-loops, other edge types mixed in)."""
    import random
    import igraph
    from workbench.store.graph import IGraphStore
    rng = random.Random(seed)
    names = [f"k{i}@1" for i in range(40)]
    edges = [Edge(rng.choice(names), rng.choice(names), rng.choice(list(EdgeType))) for _ in range(rng.choice([20, 45, 70]))]
    edges += [Edge(names[i], names[i + 1], EdgeType.AMENDS) for i in range(0, 30)]       # a long chain
    graph = IGraphStore(tmp_path)
    graph.replace_corpus("x", edges)
    unique = list({e.key: e for e in edges}.values())
    ordering = [(e.source, e.target) for e in unique if e.type in ORDERING]
    ref = igraph.Graph.TupleList(ordering, directed=True) if ordering else igraph.Graph(directed=True)
    want = sorted(sorted(ref.vs[i]["name"] for i in g) for g in ref.connected_components(mode="strong") if len(g) > 1)
    assert want and sorted(sorted(c) for c in graph.cycles(ORDERING)) == want
    graph.replace_corpus("x", [e for e in edges if e.type not in ORDERING or names.index(e.source) < names.index(e.target)])
    assert graph.cycles(ORDERING) == []                     # ordering edges all forward: no cycle

MANIFEST = """name = "{name}"
language = "zh"
{docs}"""
DOC = """
[[documents]]
key = "{key}"
title = "{title}"
version = "1"
file = "{key}.txt"
effective = 2020-01-01
{extra}
"""


def corpus(tmp_path, name, docs):
    folder = tmp_path / name
    folder.mkdir()
    (folder / "corpus.toml").write_text(MANIFEST.format(name=name, docs="".join(
        DOC.format(key=k, title=t, extra=x) for k, t, x in docs)), encoding="utf-8")
    for k, t, _ in docs:
        (folder / f"{k}.txt").write_text(f"{t}\n第一条　本办法适用于{t}的管理。\n第二条　本办法自公布之日起施行。\n",
                                         encoding="utf-8")
    return folder


@pytest.fixture()
def wb(tmp_path):
    return Workbench.open(tmp_path / "ws", Config(IngestConfig(progress=False)))


def test_citation_to_a_missing_instrument_resolves_once_it_is_ingested(wb, tmp_path):
    first = wb.ingest(corpus(tmp_path, "one", [("new-rule", "新办法", 'replaces = ["old-rule"]')]))
    assert first.edges_by_type.get("REPLACES") == 1
    [dangling] = wb.graph.unresolved()
    assert dangling.source == "new-rule@1" and dangling.target == "ref:old-rule" and not dangling.resolved
    wb.ingest(corpus(tmp_path, "two", [("old-rule", "旧办法", "")]))
    assert not wb.graph.unresolved()
    [edge] = [e for e in wb.graph.edges_of("new-rule@1") if e.type == EdgeType.REPLACES]
    assert edge.target == "old-rule@1" and edge.resolved


def test_amendment_cycle_is_reported_and_ingest_goes_on(wb, tmp_path):
    report = wb.ingest(corpus(tmp_path, "loop", [("a", "甲办法", 'amends = ["b"]'), ("b", "乙办法", 'amends = ["a"]')]))
    assert any("amendment cycle" in p.reason for p in report.problems)
    assert report.edges_by_type["AMENDS"] == 2 and report.units_by_kind["article"] == 4


# -- the graph on disk: Parquet node and edge tables (store/graph_files.py) ------------------


def _penalty(doc, label, act):
    return art(doc, label, f"{act}，构成犯罪的，依法追究刑事责任。有前款行为，尚不构成犯罪的，由县级以上人民政府财政部门"
                           "予以通报，可以对单位并处五千元以上十万元以下的罚款。")


def test_merged_and_split_articles_are_linked_to_every_part(tmp_path):
    """Two penalty articles folded into one (2017 Arts. 43 + 44 -> 2024 Art. 41) and a
    definition moved out of an article into its own: the removed (added) article is linked to
    the article that holds its text (merged / split, AMENDS) beside the one-to-one edge, which
    stays the article's previous version; stock penalty wording alone links nothing."""
    from workbench.link.versions import version_edges
    from workbench.store.graph import IGraphStore
    old = [_penalty("k@1", "43", "伪造、变造会计凭证、会计帐簿，编制虚假财务会计报告"),
           _penalty("k@1", "44", "隐匿或者故意销毁依法应当保存的会计凭证、会计帐簿、财务会计报告"),
           _penalty("k@1", "45", "授意、指使、强令会计机构、会计人员伪造会计凭证"),
           art("k@1", "13", "禁止具有竞争关系的经营者达成下列垄断协议：固定或者变更商品价格；限制商品的生产数量或者销售数量；"
                            "分割销售市场或者原材料采购市场。本法所称垄断协议，是指排除、限制竞争的协议、决定或者其他协同行为。"),
           art("k@1", "9", "国家机关应当依法履行职责，保障会计资料真实完整。")]
    merged = ("伪造、变造会计凭证、会计账簿，编制虚假财务会计报告，隐匿或者故意销毁依法应当保存的会计凭证、会计账簿、"
              "财务会计报告的，由县级以上人民政府财政部门责令限期改正，给予警告、通报批评，没收违法所得，对单位可以并处"
              "二十万元以上二百万元以下的罚款；构成犯罪的，依法追究刑事责任。")
    new = [art("k@2", "41", merged),
           _penalty("k@2", "42", "授意、指使、强令会计机构、会计人员伪造会计凭证"),
           art("k@2", "13", "禁止具有竞争关系的经营者达成下列垄断协议：固定或者变更商品价格；限制商品的生产数量或者销售数量；"
                            "分割销售市场或者原材料采购市场；联合抵制交易。"),
           art("k@2", "16", "本法所称垄断协议，是指排除、限制竞争的协议、决定或者其他协同行为。"),
           art("k@2", "9", "国家机关应当依法履行职责，保障会计资料真实完整。")]
    changes = align(old, new)
    parts = {(c.status, c.old, c.new) for c in changes if c.status in ("merged", "split")}
    assert parts == {("merged", "k@1/a43", "k@2/a41"), ("split", "k@1/a13", "k@2/a16")}, changes
    one_to_one = {(c.old, c.new) for c in changes if c.status in ("amended", "renumbered", "inherited")}
    assert ("k@1/a44", "k@2/a41") in one_to_one and ("k@1/a45", "k@2/a42") in one_to_one
    edges = version_edges(changes)
    assert all(e.type == EdgeType.AMENDS and e.extractor == "version-part" for e in edges if e.evidence in ("merged", "split"))
    from workbench.retrieve.expand import ArticleGraph
    from workbench.store.graph import IGraphStore as _G
    walked = _G(tmp_path / "walk")
    walked.replace_corpus("k", edges, layer="versions")
    agraph = ArticleGraph.from_columns(walked.columns())
    assert [n for n, _, _ in agraph.neighbours("k@2/a41")] == ["k@1/a44"]     # a merge is cited, never walked
    store = IGraphStore(tmp_path / "graph")
    store.replace_corpus("k", edges, layer="versions")
    assert store.older_version("k@2/a41") == "k@1/a44"       # the one-to-one edge comes first ...
    assert store.newer_version("k@1/a43") == "k@2/a41"       # ... a merge stands in where there is none
    assert store.older_version("k@2/a16") == "k@1/a13"
    from workbench.retrieve.pairing import parts as parts_of
    assert parts_of(store, "k@2/a41") == [("k@1/a43", "k@2/a41")]      # (the part, the article holding it)
    assert parts_of(store, "k@1/a43") == [("k@2/a41", "k@2/a41")] and parts_of(store, "k@1/a13") == [("k@2/a16", "k@1/a13")]
    assert parts_of(store, "k@2/a42") == []

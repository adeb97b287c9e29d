"""Graph retrieval across versions: comparisons, an article's history and its form on a date,
what changed between the versions a question names (the sample corpus, real models)."""
import datetime as dt

import pytest

from workbench.core.config import RetrievalConfig


def test_version_diff_brings_both_versions(wb):
    r = wb.retrieve("What changed in the licence validity period between the 2012 and 2018 Act?",
                    RetrievalConfig(top_k=5))
    top = [h.unit_id for h in r.hits]
    assert "clinic-licensing-act@2012/a8" in top and "clinic-licensing-act@2018/a8" in top


@pytest.mark.parametrize("q,named,then", [
    ("2016年3月1日适用的是哪一版本的《阿尔登共和国诊所许可法》中与2018年版第十六条相对应的条款？",
     "clinic-licensing-act-zh@2018/a16", "clinic-licensing-act-zh@2012/a15"),
    ("Which version of the provision that is Article 16 in the 2018 Clinic Licensing Act applied on 1 March 2016?",
     "clinic-licensing-act@2018/a16", "clinic-licensing-act@2012/a15"),
])
def test_a_named_article_as_it_stood_on_a_date(wb, q, named, then):
    """Article 16 (penalties) of the 2018 Act was Article 15 of the 2012 Act, the one in force
    on 2016-03-01: the lookup binds the number to 2018 and follows the alignment back."""
    r = wb.retrieve(q, RetrievalConfig(top_k=5))
    assert r.route.type == "temporal" and r.route.as_of == dt.date(2016, 3, 1)
    assert r.hits[0].unit_id == then and r.cited == [then]
    assert str(r.hits[0].via) == f"direct: {named} as in force on 2016-03-01" and r.hits[0].via.kind == "direct"


@pytest.mark.parametrize("q,chain", [
    ("请说明2018年《阿尔登共和国诊所许可法》第十六条的历次修改。",
     ["clinic-licensing-act-zh@2018/a16", "clinic-licensing-act-zh@2012/a15"]),
    ("Trace the history of Article 16 of the Clinic Licensing Act 2018: how was it amended?",
     ["clinic-licensing-act@2018/a16", "clinic-licensing-act@2012/a15"]),
    # the article named, though another reads more like "changed" (English names weigh less: a frame)
    ("How has Article 4 of the Clinic Licensing Act changed over time?",
     ["clinic-licensing-act@2018/a4", "clinic-licensing-act@2012/a4"]),
])
def test_the_history_of_an_article_cites_it_in_every_version(wb, q, chain):
    r = wb.retrieve(q, RetrievalConfig(top_k=5))
    assert r.route.type == "version_diff" and r.route.history
    assert r.cited == chain and [h.unit_id for h in r.hits[:2]] == chain


def test_comparison_across_instruments_pairs_the_most_similar_provision(wb):
    """The 2005 Regulation was replaced by the 2012 Act (no article alignment between two
    instruments): the stand-in counterpart is the retrieved article of the other named
    instrument most like the best one — the admission register kept five years."""
    q = ("How did the Clinic Licensing Act 2012 differ from the Hospital Registration Regulation 2005 "
         "on how long patient records must be retained?")
    r = wb.retrieve(q, RetrievalConfig(top_k=5))
    assert r.route.type == "version_diff"
    assert r.cited == ["clinic-licensing-act@2012/a10", "hospital-registration-regulation@2005/a7"]
    assert str(r.hits[1].via).endswith("(other version)") and r.hits[1].via.notes == ("other version",)


def test_what_one_revision_changed_keeps_the_changed_articles():
    from types import SimpleNamespace
    from workbench.retrieve.pairing import changed_at
    from workbench.retrieve.scope import Scope, span_of
    older = {"p@2021/a3": "p@2016/a3", "p@2021/a4": "p@2016/a4", "p@2021/a5": "p@2016/a5",
             "p@2016/a3": "p@2011/a3", "p@2016/a4": "p@2011/a4", "p@2016/a5": "p@2011/a5", "q@2/a1": "q@1/a1"}
    newer = {v: k for k, v in older.items()}
    steps = {("p@2016/a4", "p@2021/a4"), ("p@2011/a3", "p@2016/a3")}    # a3 changed 2011 -> 2016, a4 2016 -> 2021
    def amended(a, b):
        return (a, b) in steps or (b, a) in steps
    catalog = SimpleNamespace(chain=lambda key: [SimpleNamespace(id=f"{key}@{v}") for v in
                                                 {"p": ("2011", "2016", "2021"), "q": ("1", "2")}[key]])
    one = span_of(Scope(("article",), named=frozenset({"p@2021"})), catalog)
    assert one == {"p": ("p@2016", "p@2021")}           # one revision named: the step into it
    ids = {"p@2021/a3", "p@2021/a4", "p@2021/a5", "p@2021/a9", "p@2016/a3", "p@2016/a4", "q@1/a1"}
    assert changed_at(ids, one, older.get, newer.get, amended) == {"p@2021/a4", "p@2021/a9", "p@2016/a4", "q@1/a1"}
    # a named article always stays, and so do its versions in the span: the comparison is of that
    # article, changed or not
    assert changed_at(ids | {"p@2016/a5"}, one, older.get, newer.get, amended, frozenset({"p@2021/a5"})) == \
        {"p@2021/a4", "p@2021/a5", "p@2016/a5", "p@2021/a9", "p@2016/a4", "q@1/a1"}
    # nothing of an instrument changed: all its units stay, whatever another instrument did
    both = {**one, "q": ("q@1", "q@2")}
    assert changed_at({"p@2021/a3", "p@2021/a4", "q@2/a1"}, both, older.get, newer.get, amended) == \
        {"p@2021/a4", "q@2/a1"}
    # two versions named with one between: a change at either step counts, the version between is read too
    wide = span_of(Scope(("article",), named=frozenset({"p@2011", "p@2021"})), catalog)
    assert wide == {"p": ("p@2011", "p@2016", "p@2021")}
    got = changed_at({"p@2021/a3", "p@2021/a5", "p@2011/a5", "p@2011/a3", "p@2016/a5", "p@2016/a4"}, wide,
                     older.get, newer.get, amended)
    assert got == {"p@2021/a3", "p@2011/a3", "p@2016/a4"}
    # a step in substance first (a3's), a renaming-only step (a4's) when none is; nothing changed: all
    renaming_only = {("p@2016/a4", "p@2021/a4")}
    substantive = lambda a, b: amended(a, b) and (a, b) not in renaming_only and (b, a) not in renaming_only  # noqa: E731
    ids = {"p@2021/a3", "p@2021/a4", "p@2021/a5", "p@2016/a3", "p@2016/a4"}
    assert changed_at(ids, wide, older.get, newer.get, amended, prefer=substantive) == {"p@2021/a3", "p@2016/a3"}
    assert changed_at(ids - {"p@2021/a3", "p@2016/a3"}, wide, older.get, newer.get, amended, prefer=substantive) == \
        {"p@2021/a4", "p@2016/a4"}


def test_a_version_comparison_prefers_the_article_whose_change_touches_its_topic():
    """Two articles changed between the compared versions: the one whose inserted or deleted text
    holds what the question asks about rises above one that only reads more like the question."""
    from types import SimpleNamespace
    from workbench.core.records import Hit, Unit
    from workbench.retrieve.pairing import by_change, what_changed
    older = {"r@2023/a39": "r@2022/a39", "r@2022/a39": "r@2019/a39", "r@2023/a73": "r@2022/a74",
             "r@2022/a74": "r@2019/a74", "r@2019/a9": "r@2016/a9"}
    newer = {v: k for k, v in older.items()}
    diffs = {("r@2019/a39", "r@2022/a39"): ("道路货物运输站（场）经营、 | 和机动车驾驶员培训", "工商行政"),
             ("r@2022/a39", "r@2023/a39"): ("备案", "许可"),
             ("r@2019/a74", "r@2022/a74"): ("责令停业整顿", "由原许可机关吊销其经营许可"),
             ("r@2016/a9", "r@2019/a9"): ("机动车驾驶员培训", "")}          # a step outside the span
    def edge(a, b):
        d = diffs.get((a, b)) or diffs.get((b, a))
        return d and SimpleNamespace(attrs=(("inserted", d[0]), ("deleted", d[1])))
    graph = SimpleNamespace(older_version=older.get, newer_version=newer.get, version_edge=edge)
    span = ("r@2019", "r@2022", "r@2023")
    assert what_changed(graph, "r@2023/a39", span) == "备案 | 许可 | 道路货物运输站（场）经营、 | 和机动车驾驶员培训 | 工商行政"
    assert what_changed(graph, "r@2019/a9", span) == ""
    assert what_changed(graph, "r@2023/a39/c2", span) == what_changed(graph, "r@2023/a39", span)   # a clause: its article's
    hits = [Hit(u, s, "seed", Unit(u, "r", u.split("@")[1].split("/")[0], "article"))
            for u, s in (("r@2023/a73", 1.0), ("r@2019/a9", 0.99), ("r@2023/a39", 0.98))]
    topic = "开办驾校（机动车驾驶员培训）的准入方式有何变化"
    ranked, gains = by_change(hits, {"r": span}, graph, topic, 0.1)
    assert [h.unit_id for h in ranked] == ["r@2023/a39", "r@2023/a73", "r@2019/a9"]
    assert ranked[0].score == pytest.approx(0.98 + 0.1 * 7 / 18)     # 7 of the topic's 18 pairs changed
    assert gains == {"r@2023/a39": pytest.approx(0.1 * 7 / 18)}       # shown as the score's part "change"
    assert by_change(hits, {}, graph, topic, 0.1) == (hits, {})    # no span: nothing moves


def test_the_change_match_is_a_part_of_the_score_and_can_be_switched_off(wb):
    from workbench.retrieve.route import load_policies
    assert load_policies()["version_diff"].change_match == 0.1
    q = "2018年修订前后，未取得许可证擅自开办诊所的罚款数额有何变化？"
    r = wb.retrieve(q, RetrievalConfig(top_k=5))
    changed = {u for u, p in r.components.items() if p.get("change")}
    assert r.route.type == "version_diff" and set(r.cited) <= changed
    off = wb.retrieve(q, RetrievalConfig(top_k=5, ablate=("change",)))
    assert not any(p.get("change") for p in off.components.values())
    en = wb.retrieve("How did the fine for operating a clinic without a licence change from the Clinic "
                     "Licensing Act 2012 to the 2018 version?", RetrievalConfig(top_k=5))
    assert en.route.type == "version_diff" and not any(p.get("change") for p in en.components.values())


def test_a_question_naming_a_public_body_may_be_about_a_renaming():
    from workbench.retrieve.route import classify
    assert classify("2016年修订的生猪屠宰管理条例与2011年版本相比，负责全国生猪屠宰行业管理的部门有何变化？").body
    assert classify("How did the 2015 Rules change which authority approves a transfer?").body
    assert not classify("与2019年版相比，2023年版《道路运输条例》对开办驾校的准入方式有何变化？").body


def test_two_versions_named_in_separate_clauses_make_a_comparison(wb):
    q = "在2012年版《阿尔登共和国诊所许可法》里，诊所许可证有效期几年？2018年版还这样规定吗？"
    r = wb.retrieve(q, RetrievalConfig(top_k=5))
    assert r.route.type == "version_diff"
    assert {h.unit.version for h in r.hits[:2]} == {"2012", "2018"}
    event = wb.retrieve("2012年本市的诊所依《阿尔登共和国诊所许可法》申请许可证，2018年本诊所需要做什么？",
                        RetrievalConfig(top_k=5))
    assert event.route.type != "version_diff"


def test_a_comparison_of_two_versions_keeps_what_changed_between_them(sample_workspace):
    """On the real sample graph: an article the 2018 version amended counts as changed, an
    inherited one does not; a question asking what changed drops the inherited one, a yes-no
    question keeps it."""
    from workbench.core.config import RetrievalConfig
    from workbench.workbench import Workbench
    wb = Workbench.open(sample_workspace, create=False)
    r = wb.retriever
    assert r.amended("clinic-licensing-act@2018/a8", "clinic-licensing-act@2012/a8")
    inherited = [e for e in wb.graph.all_edges() if e.type.value == "INHERITS"
                 and e.source.startswith("clinic-licensing-act@2018/a") and e.source.count("/") == 1]
    assert inherited and not r.amended(inherited[0].source, inherited[0].target)
    inherited = {e.source for e in inherited}
    cfg = RetrievalConfig(mode="graph", top_k=40)
    asking = wb.retrieve("Compared with the 2012 version, what changed in the 2018 version of the Clinic "
                         "Licensing Act?", cfg)
    whether = wb.retrieve("Did the 2018 version of the Clinic Licensing Act change anything compared with the "
                          "2012 version?", cfg)
    assert asking.plan.type == whether.plan.type == "version_diff" and whether.plan.route.polar
    assert not inherited & {h.unit_id for h in asking.hits}
    assert inherited & {h.unit_id for h in whether.hits}


def test_a_step_that_only_made_the_revisions_renaming_is_no_change_in_substance():
    """link/versions.py records `substance` "0" on an AMENDS edge whose every edit is the
    revision's renaming; `amended` still counts that step, `amended_in_substance` does not."""
    from types import SimpleNamespace
    from workbench.core.records import Edge, EdgeType
    from workbench.link.versions import ALIGN_EXTRACTOR
    from workbench.retrieve.retriever import Retriever
    edges = {("p@2/a1", "p@1/a1"): Edge("p@2/a1", "p@1/a1", EdgeType.AMENDS, extractor=ALIGN_EXTRACTOR,
                                        attrs=(("status", "amended"), ("substance", "0"))),
             ("p@2/a2", "p@1/a2"): Edge("p@2/a2", "p@1/a2", EdgeType.AMENDS, extractor=ALIGN_EXTRACTOR,
                                        attrs=(("status", "amended"), ("substance", "12"))),
             ("p@2/a3", "p@1/a3"): Edge("p@2/a3", "p@1/a3", EdgeType.INHERITS, extractor=ALIGN_EXTRACTOR)}
    r = Retriever.__new__(Retriever)
    r.graph = SimpleNamespace(version_edge=lambda a, b: edges.get((a, b)) or edges.get((b, a)))
    assert [r.amended("p@1/a1", "p@2/a1"), r.amended_in_substance("p@1/a1", "p@2/a1")] == [True, False]
    assert [r.amended("p@1/a2", "p@2/a2"), r.amended_in_substance("p@1/a2", "p@2/a2")] == [True, True]
    assert [r.amended("p@1/a3", "p@2/a3"), r.amended_in_substance("p@1/a3", "p@2/a3")] == [False, False]


@pytest.mark.parametrize("q,body", [
    ("2018年版《阿尔登共和国诊所许可法》与2012年版相比，诊所许可证的有效期有何变化？", False),
    ("2018年版《阿尔登共和国诊所许可法》与2012年版相比，负责发放诊所许可证的部门有何变化？", True),
])
def test_what_changed_prefers_substance_unless_a_body_is_named(wb, monkeypatch, q, body):
    """The change filter gets the stricter step test (`amended_in_substance`) unless the
    question names a public body, whose renaming may be what it asks about."""
    from workbench.retrieve import pairing
    seen = []
    real = pairing.changed_at
    monkeypatch.setattr(pairing, "changed_at", lambda *a, **k: seen.append(a[6] if len(a) > 6 else k.get("prefer"))
                        or real(*a, **k))
    r = wb.retrieve(q, RetrievalConfig(top_k=5))
    assert r.route.type == "version_diff" and r.route.body is body
    assert len(seen) == 1 and (seen[0] is None) is body


@pytest.mark.parametrize("q, expected", [
    ("2018年诊所许可法新增了哪些条文？", {"clinic-licensing-act-zh@2018/a11", "clinic-licensing-act-zh@2018/a17"}),
    ("Which sections were added to the Clinic Licensing Act in 2018?",
     {"clinic-licensing-act@2018/a11", "clinic-licensing-act@2018/a18"})])
def test_which_provisions_a_revision_added_are_the_articles_without_a_counterpart(wb, q, expected):
    """Asked which provisions a revision added, the answer is every article of the newer version with
    no counterpart in the one before (the version alignment), not what reads most like the question."""
    from workbench.retrieve.route import asked_provisions, classify
    assert classify(q).type == "version_diff" and asked_provisions(q) == "added"
    res = wb.retrieve(q, RetrievalConfig(mode="graph"))
    assert {h.unit_id for h in res.hits[:len(expected)]} == expected
    assert set(res.cited) == expected       # a list: every added article is cited
    assert asked_provisions("2022年修正的《反垄断法》在罚款上增加了哪些规定？") == ""    # content inside an article


_CHANGED_2018 = {"a3", "a7", "a8", "a11", "a14", "a15", "a16", "a17", "a18"}    # read off the two texts


@pytest.mark.parametrize("q, key", [("《阿尔登共和国诊所许可法》2018年修订改了什么？", "clinic-licensing-act-zh"),
                                    ("What did the 2018 revision of the Clinic Licensing Act change?", "clinic-licensing-act")])
def test_what_a_revision_changed_with_no_topic_is_every_provision_it_changed(wb, q, key):
    """A comparison asking nothing but what a revision changed is answered by the list of what it
    changed -- every article of the revised version amended or added, and every one it removed --
    not by the changed articles that read most like a question with no topic."""
    res = wb.retrieve(q, RetrievalConfig(mode="graph", top_k=5))     # a list: not cut at top_k
    assert res.plan.route.provisions == "changed"
    assert set(res.cited) == {f"{key}@2018/{a}" for a in _CHANGED_2018} | {f"{key}@2012/a16"}
    topical = wb.retrieve("2018年版《阿尔登共和国诊所许可法》与2012年版相比，诊所许可证的有效期有何变化？",
                          RetrievalConfig(mode="graph"))
    assert topical.plan.route.provisions == "" and "clinic-licensing-act-zh@2018/a8" in topical.cited


def test_when_a_section_changed_cites_its_versions(wb):
    r = wb.retrieve("When was section 8 of the Clinic Licensing Act amended?", RetrievalConfig(mode="graph"))
    assert r.route.history and set(r.cited) == {"clinic-licensing-act@2012/a8", "clinic-licensing-act@2018/a8"}


@pytest.mark.parametrize("q, cited", [
    ("Under the previous version of the Clinic Licensing Act, how long was a licence valid?", {"clinic-licensing-act@2012/a8"}),
    ("修订前的《阿尔登共和国诊所许可法》规定许可证有效期是多久？", {"clinic-licensing-act-zh@2012/a8"}),
    ("新旧《阿尔登共和国诊所许可法》对许可证有效期的规定有什么不同？",
     {"clinic-licensing-act-zh@2012/a8", "clinic-licensing-act-zh@2018/a8"}),
    ("Under the old and new Clinic Licensing Act, how long is a licence valid?",      # both, not only the old one
     {"clinic-licensing-act@2012/a8", "clinic-licensing-act@2018/a8"})])
def test_the_previous_version_named_without_a_year_is_the_one_before_the_latest(wb, q, cited):
    """"修订前", "the previous version" name the version before the current one; "新旧" compares the two."""
    r = wb.retrieve(q, RetrievalConfig(mode="graph"))
    assert r.route.previous and set(r.cited) == cited, r.cited


@pytest.mark.parametrize("q, cited", [
    ("2012年版《阿尔登共和国诊所许可法》和现行法对许可证有效期的规定一样吗？",
     {"clinic-licensing-act-zh@2012/a8", "clinic-licensing-act-zh@2018/a8"}),
    ("Is the licence validity rule of the 2012 Clinic Licensing Act the same as in the current version?",
     {"clinic-licensing-act@2012/a8", "clinic-licensing-act@2018/a8"}),
    ("Is the licence validity rule of the 2012 Clinic Licensing Act different from the current version?",
     {"clinic-licensing-act@2012/a8", "clinic-licensing-act@2018/a8"}),
    ("2012年版《阿尔登共和国诊所许可法》规定的许可证有效期是多久？", {"clinic-licensing-act-zh@2012/a8"})])
def test_whether_a_named_version_and_the_current_law_are_the_same_compares_them(wb, q, cited):
    """Sameness (or difference) asked yes-or-no of a version named by its year and of the current law
    ("…和现行法…一样吗", "the same as in the current version") compares the two: each contributes its
    article. A question about the named version alone reads that version only."""
    r = wb.retrieve(q, RetrievalConfig(mode="graph"))
    assert set(r.cited) == cited, r.cited


@pytest.mark.parametrize("q", [
    "2012年，某诊所与另一诊所使用相同名称，依照现行《阿尔登共和国诊所许可法》是否违法？",
    "2012年某诊所没有变更登记，依照现行《阿尔登共和国诊所许可法》是否应当处罚？",
    "2012年诊所与患者协商一致延长病历保存期限，依照现行《阿尔登共和国诊所许可法》是否有效？",
    "A clinic licensed in 2012 operates two sites at the same address; under the current version of the Clinic "
    "Licensing Act, is that allowed?"])
def test_a_sameness_among_the_facts_and_a_year_of_the_facts_compare_nothing(wb, q):
    """Sameness words among the facts (相同名称, 协商一致, 没有变更, the same address) ask no comparison, and a
    year dating the facts names no version: the question is about the current law."""
    from workbench.retrieve.plan import make_plan
    assert make_plan(q, "zh" if "诊所" in q else "en", wb.retriever.catalog, None).type != "version_diff"


def test_sameness_asked_in_vietnamese_and_a_year_naming_a_version():
    from workbench.retrieve.plan import SAME, names_version
    assert SAME.search("Quy định này của Luật Du lịch năm 2005 và Luật hiện hành có giống nhau không?")
    assert not SAME.search("Hai doanh nghiệp có cùng địa chỉ thì có vi phạm không?")
    assert names_version("Luật Du lịch năm 2005 và Luật hiện hành có giống nhau không?", 2005, ["Luật Du lịch"])
    assert names_version("2020年的船员条例和现行条例在这一点上一样吗？", 2020, ["船员条例"])
    assert not names_version("2020年某船员上岗，现行船员条例的规定一样吗？", 2020, ["船员条例"])


@pytest.mark.parametrize("q", ["What is the 2018 counterpart of Article 15 of the 2012 Clinic Licensing Act?",
                               "Which article of the 2018 Clinic Licensing Act corresponds to Article 15 of the 2012 Act?"])
def test_an_articles_counterpart_in_another_version(wb, q):
    """The article is read in the version its "of" phrase names (2012, not the 2018 written before it),
    and its counterpart is the renumbered article of the other version (2018 Art. 16)."""
    r = wb.retrieve(q, RetrievalConfig(mode="graph"))
    assert r.route.article_years == (2012,) and r.route.type == "version_diff"
    assert set(r.cited) == {"clinic-licensing-act@2012/a15", "clinic-licensing-act@2018/a16"}


def test_the_version_phrase_is_no_topic(wb):
    """"as amended in 2018" names the version, like "2018年修订的": it is left out of what is searched
    (a circular "amending" the decree to align it with the Act had ranked first on that phrase)."""
    from workbench.retrieve.route import topic
    q = "Under the Clinic Licensing Act as amended in 2018, how long is a licence valid?"
    assert "amended" not in topic(q, ["Clinic Licensing Act"])
    assert wb.retrieve(q, RetrievalConfig(mode="graph")).cited == ["clinic-licensing-act@2018/a8"]


def test_added_or_removed_reads_the_alignment():
    from workbench.retrieve.pairing import added_or_removed
    older = {"p@2/a1": "p@1/a1", "p@2/a3": "p@1/a2"}
    newer = {v: k for k, v in older.items()}
    ids = {"p@1/a1", "p@1/a2", "p@1/a9", "p@2/a1", "p@2/a2", "p@2/a3", "q@1/a1"}
    spans = {"p": ("p@1", "p@2")}
    assert added_or_removed(ids, spans, older.get, newer.get, "added") == {"p@2/a2"}
    assert added_or_removed(ids, spans, older.get, newer.get, "removed") == {"p@1/a9"}
    changed = lambda a, b: {a, b} == {"p@2/a3", "p@1/a2"}     # noqa: E731 -- a1 inherited, a2 -> a3 amended
    assert added_or_removed(ids, spans, older.get, newer.get, "changed", changed) == {"p@2/a2", "p@2/a3", "p@1/a9"}


@pytest.mark.parametrize("q, pair", [
    ("What changed in Article 4 between the 2012 and 2018 Clinic Licensing Acts?", "a4"),   # the title in the plural
    ("Compare Article 7 of the 2012 Clinic Licensing Act with the 2018 version.", "a7")])
def test_an_english_comparison_naming_an_article_compares_that_article(wb, q, pair):
    """A comparison of versions is about the instrument compared: a provision of another instrument
    citing the named article is no answer to it (policy version_diff: citing = 0)."""
    r = wb.retrieve(q, RetrievalConfig(mode="graph"))
    assert r.route.type == "version_diff"
    assert r.cited == [f"clinic-licensing-act@2012/{pair}", f"clinic-licensing-act@2018/{pair}"]


@pytest.mark.parametrize("q, doc", [
    ("2018年修订前，《阿尔登共和国诊所许可法》规定的许可证有效期是多久？", "clinic-licensing-act-zh@2012"),
    ("Before 1 January 2019, how long was a clinic licence valid?", "clinic-licensing-act@2012"),
    ("Before the 2018 amendment of the Clinic Licensing Act, how long was a licence valid?", "clinic-licensing-act@2012"),
    ("After the 2017 amendment and before the 2022 amendment, what did the Circular on the Equipment of Specialised "
     "Clinics require of dental clinics in each treatment room?", "equipment-circular@2017"),
    ("On 1 January 2019, how long was a clinic licence valid?", "clinic-licensing-act@2018")])
def test_the_time_before_a_revision_or_a_date_reads_the_version_before(wb, q, doc):
    """"2018年修订前" names the version before the 2018 one; "before 1 January 2019" (the day the 2018
    Act took effect) asks about the day before."""
    r = wb.retrieve(q, RetrievalConfig(mode="graph"))
    assert r.cited and all(c.startswith(doc + "/") for c in r.cited)


def test_a_year_dating_the_facts_reads_every_unnamed_instrument_as_then_in_force(wb):
    """No instrument named, one year that names a version of another one (the equipment circular of
    2015): the year dates the facts, so the Act is read in the version in force that year (2012),
    not in all its versions."""
    r = wb.retrieve("In 2015, what fine applied to a clinic operating without a licence?", RetrievalConfig(mode="graph"))
    acts = [h.unit_id for h in r.hits if h.unit_id.startswith("clinic-licensing-act@")]
    assert acts and all(u.startswith("clinic-licensing-act@2012/") for u in acts)
    assert r.cited and all(u.startswith("clinic-licensing-act@2012/") for u in r.cited)


@pytest.mark.parametrize("q,act", [
    ("In 2016 a clinic opened without a licence. What fine applied?", "clinic-licensing-act@"),
    ("2016年，某诊所未取得许可证就开业，应当如何处罚？", "clinic-licensing-act-zh@")])
def test_a_year_dating_facts_whose_penalty_is_asked_reads_the_law_then_in_force(wb, q, act):
    """No instrument named and a year naming no version of any (2016): written as the year of the
    facts whose penalty is asked, it dates them -- the Act in force then (2012), not today's."""
    r = wb.retrieve(q, RetrievalConfig(mode="graph"))
    cited = [u for u in r.cited if u.startswith(act)]
    assert cited and all(u.startswith(act + "2012/") for u in cited), r.cited


@pytest.mark.parametrize("q, act", [
    ("In 2018 a licensee replaced its medical director and never notified the licensing authority. What is the maximum fine?",
     "clinic-licensing-act@2012/"),
    ("2018年，某诊所负责人变更后未告知许可机关，依照《阿尔登共和国诊所许可法》最高罚多少？", "clinic-licensing-act-zh@2012/"),
    ("依照2018年《阿尔登共和国诊所许可法》，未取得许可证开办诊所的罚款是多少？", "clinic-licensing-act-zh@2018/")])   # the version's name
def test_facts_dated_by_the_year_of_a_version_not_yet_in_force(wb, q, act):
    """2018 names a version of the Act, which took effect on 1 January 2019: facts of 2018 are judged
    by the version in force then (2012); "2018年《…》" written as the version's name reads that version."""
    r = wb.retrieve(q, RetrievalConfig(mode="graph"))
    cited = [u for u in r.cited if u.split("@")[0] == act.split("@")[0]]
    assert cited and all(u.startswith(act) for u in cited), r.cited


def test_facts_going_on_now_are_judged_by_todays_law(wb):
    r = wb.retrieve("A clinic licensed in 2016 still operates today although its licence has expired. What fine applies?",
                    RetrievalConfig(mode="graph"))
    cited = [u for u in r.cited if u.startswith("clinic-licensing-act@")]
    assert cited and all(u.startswith("clinic-licensing-act@2018/") for u in cited), r.cited


def test_a_year_in_an_instrument_title_dates_no_facts():
    from types import SimpleNamespace
    from workbench.retrieve.scope import _dates
    plan = lambda q: SimpleNamespace(question=q, names=())     # noqa: E731 -- no instrument the catalog knows
    assert _dates(plan("Năm 2016, một phòng khám hoạt động không có giấy phép thì bị phạt bao nhiêu?"), 2016)
    assert not _dates(plan("Theo Bộ luật Hình sự năm 2017, người dưới bao nhiêu tuổi không bị phạt tù chung thân?"), 2017)
    assert not _dates(plan("依照2015年《食品安全法》，应当如何处罚？"), 2015)
    assert _dates(plan("Công ty vi phạm Luật Đất đai vào năm 2016 thì bị phạt bao nhiêu?"), 2016)   # the facts' year
    assert _dates(plan("Theo Luật Doanh nghiệp thì công ty thành lập năm 2016 bị phạt thế nào?"), 2016)
    named = SimpleNamespace(question="依照2015年食品安全法，应当如何处罚？", names=("食品安全法",))
    assert not _dates(named, 2015)                   # the year just before the instrument's name names its version


@pytest.mark.parametrize("q,version", [
    ("2016年，某诊所未取得许可证即开业，依照《阿尔登共和国诊所许可法》应如何处罚？", "clinic-licensing-act-zh@2012/"),
    ("In 2016 a clinic opened without a licence. What penalty does the Clinic Licensing Act provide?",
     "clinic-licensing-act@2012/"),
    # the law as it stands, asked for in words: the year dates the facts only
    ("2016年，某诊所未取得许可证即开业，依照现行《阿尔登共和国诊所许可法》应如何处罚？", "clinic-licensing-act-zh@2018/"),
    # an amount is no year ("违法所得2016元")
    ("某诊所未取得许可证即开业，违法所得2016元，依照《阿尔登共和国诊所许可法》应如何处罚？", "clinic-licensing-act-zh@2018/"),
])
def test_a_year_dating_the_facts_reads_the_named_instrument_as_then_in_force(wb, q, version):
    """An instrument named and one year that names none of its versions: facts are judged by the
    law in force when they happened, so the 2016 facts read the 2012 Act (in force until 2018),
    not the latest version -- unless the question asks for the current law."""
    r = wb.retrieve(q, RetrievalConfig(mode="graph"))
    assert r.route.as_of is None and r.cited
    assert all(u.startswith(version) for u in r.cited), r.cited


def test_when_a_penalty_changed_traces_the_sanction_not_the_rule(wb):
    """"罚款数额是在哪一次修订中调整的" asks the history of the sanction (the fine), not of the licensing
    rule that reads more like the question: the article traced is the best sanction near the top."""
    r = wb.retrieve("《阿尔登共和国诊所许可法》中对未取得许可证开办诊所的罚款数额，是在哪一次修订中调整的？",
                    RetrievalConfig(mode="graph"))
    assert r.route.history and set(r.cited) == {"clinic-licensing-act-zh@2012/a15", "clinic-licensing-act-zh@2018/a16"}, r.cited

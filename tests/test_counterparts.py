"""A provision's counterpart in another version where the alignment finds none (retrieve/cite.py
`named_versions`, retrieve/pairing.py `pair_versions`) and the instrument a question names by its
versions alone (retrieve/plan.py `versioned`): pure logic over fake units, with test_cite.py's
citing context."""
from types import SimpleNamespace

import numpy as np
from test_cite import _citing

from workbench.core.records import Edge, EdgeType, Hit, Unit

# 2018 a58 (a sanction) has no counterpart in 2022; 2018 a40 (a rule) and a57 (a sanction) have theirs
ALIGNED = [("w@2022/a23", "w@2018/a40"), ("w@2022/a84", "w@2018/a57")]
TEXTS = {"w@2018/a58": "对妇女实施性骚扰，构成违反治安管理行为的，依法给予行政处罚。",
         "w@2018/a40": "禁止对妇女实施性骚扰。", "w@2018/a57": "打击报复的，依法给予处分。",
         "w@2022/a23": "禁止对妇女实施性骚扰。", "w@2022/a84": "打击报复的，依法给予处分。",
         "w@2022/a80": "对妇女实施性骚扰的，由公安机关给予批评教育，并依法给予处分。",
         "w@2022/a25": "国家保障妇女的人身自由。"}


def test_a_counterpart_the_alignment_misses_is_one_of_that_version_aligned_with_nothing_of_the_same_kind():
    """"对实施性骚扰的人要承担什么后果？2018年版和2022年修订后…": the 2018 sanction has no aligned
    counterpart; the 2022 article standing in is neither one aligned with another 2018 article (the
    alignment is one to one) nor a rule for a sanction, however high they rank."""
    from workbench.retrieve.cite import named_versions
    hits = ["w@2018/a58", "w@2022/a23", "w@2022/a84", "w@2022/a25", "w@2022/a80"]
    c = _citing(TEXTS, hits, 2, named={"w@2018", "w@2022"}, edges=ALIGNED)
    assert named_versions(c, ["w@2018/a58"]) == ["w@2018/a58", "w@2022/a80"]
    c = _citing(TEXTS, hits[:4], 2, named={"w@2018", "w@2022"}, edges=ALIGNED)
    assert named_versions(c, ["w@2018/a58"]) == ["w@2018/a58", "w@2022/a25"]     # no sanction left: any unaligned one


def test_the_stand_in_paired_with_the_best_unit_is_aligned_with_nothing_of_its_version():
    from workbench.retrieve.expand import ArticleGraph
    from workbench.retrieve.pairing import pair_versions
    agraph = ArticleGraph.from_edges([Edge(n, o, EdgeType.AMENDS) for n, o in ALIGNED])

    texts = {**TEXTS, "x@2015/a9": TEXTS["w@2022/a80"]}

    def hit(uid, score):
        key, rest = uid.split("@")
        return Hit(uid, score, "bm25", Unit(uid, key, rest.split("/")[0], "article", text=texts[uid]))
    hits = [hit("w@2018/a58", 1.0), hit("w@2022/a23", 0.9), hit("w@2022/a80", 0.8)]
    vecs = {"w@2018/a58": np.array([1.0, 0.0]), "w@2022/a23": np.array([1.0, 0.0]), "w@2022/a80": np.array([0.6, 0.8])}
    out = [h.unit_id for h in pair_versions(agraph, hits, vecs, frozenset({"w"}), set())]
    assert out[:2] == ["w@2018/a58", "w@2022/a80"]          # a23 is the closest, but 2018 a40's counterpart
    # through a version between them too; an article of another instrument the question names is kept
    steps = [("w@2020/a41", "w@2018/a40"), ("w@2022/a23", "w@2020/a41"),
             ("x@2015/a9", "w@2018/a57")]            # the last an amending act's edge to another instrument
    agraph = ArticleGraph.from_edges([Edge(n, o, EdgeType.AMENDS) for n, o in steps])
    hits = [hit("w@2018/a58", 1.0), hit("w@2022/a23", 0.9), hit("x@2015/a9", 0.8)]
    vecs["x@2015/a9"] = vecs["w@2022/a80"]
    out = [h.unit_id for h in pair_versions(agraph, hits, vecs, frozenset({"w", "x"}), set())]
    assert out[:2] == ["w@2018/a58", "x@2015/a9"]


def test_the_part_of_a_split_article_the_question_is_about_is_paired_with_it():
    """A revision split one article in two and the alignment took one part for its counterpart, the other
    for added ("职业学校…职业培训机构的设立…" -> a33 on schools, a34 on training institutions): the added part
    ranking above the aligned one and holding most of the older article's text is paired with it; an added
    article holding little of it, or one ranking below the counterpart, is not."""
    from workbench.core.records import Edge, EdgeType
    from workbench.retrieve.expand import ArticleGraph
    from workbench.retrieve.pairing import pair_versions
    old = "职业学校的设立，必须符合下列基本条件：有组织机构和章程；有合格的教师。职业培训机构的设立，必须符合下列基本条件：有组织机构和管理制度；有相应的经费。"
    texts = {"v@1996/a24": old,
             "v@2022/a33": "职业学校的设立，应当符合下列基本条件：有组织机构和章程；有合格的教师和管理人员；有相应的经费。",
             "v@2022/a34": "职业培训机构的设立，应当符合下列基本条件：有组织机构和管理制度；有相应的经费。",
             "v@2022/a15": "国家鼓励企业举办职业教育。"}
    agraph = ArticleGraph.from_edges([Edge("v@2022/a34", "v@1996/a24", EdgeType.AMENDS)])

    def hit(uid, score):
        key, rest = uid.split("@")
        return Hit(uid, score, "bm25", Unit(uid, key, rest.split("/")[0], "article", text=texts[uid]))
    vecs = {u: np.array([1.0, 0.0]) for u in texts}
    pair = lambda ids: [h.unit_id for h in pair_versions(agraph, [hit(u, 1.0 - i / 10) for i, u in enumerate(ids)],  # noqa: E731
                                                         vecs, frozenset({"v"}), set())][:2]
    assert pair(["v@1996/a24", "v@2022/a33", "v@2022/a34"]) == ["v@1996/a24", "v@2022/a33"]
    assert pair(["v@1996/a24", "v@2022/a34", "v@2022/a33"]) == ["v@1996/a24", "v@2022/a34"]   # ranked below
    assert pair(["v@1996/a24", "v@2022/a15", "v@2022/a34"]) == ["v@1996/a24", "v@2022/a34"]   # holds little of it
    # three versions compared: a version between them keeps its counterpart's place beside the best unit
    texts["v@2010/a24"] = old
    agraph = ArticleGraph.from_edges([Edge("v@2022/a34", "v@1996/a24", EdgeType.AMENDS),
                                      Edge("v@2010/a24", "v@1996/a24", EdgeType.INHERITS)])
    vecs["v@2010/a24"] = np.array([1.0, 0.0])
    ids = ["v@1996/a24", "v@2022/a33", "v@2022/a34", "v@2010/a24"]
    out = [h.unit_id for h in pair_versions(agraph, [hit(u, 1.0 - i / 10) for i, u in enumerate(ids)], vecs,
                                            frozenset({"v"}), set())]
    assert out[:3] == ["v@1996/a24", "v@2022/a33", "v@2010/a24"]
    # an added article sharing the older one's stock phrases, beside a counterpart holding nearly all of it: no split
    texts["v@2022/a40"] = "职业学校的设立，必须符合下列基本条件：有组织机构和章程；有合格的教师。国家支持社会力量举办职业学校。"
    texts["v@2022/a41"] = old.replace("有相应的经费", "有相应的经费和场所")
    agraph = ArticleGraph.from_edges([Edge("v@2022/a41", "v@1996/a24", EdgeType.AMENDS)])
    vecs.update({"v@2022/a40": np.array([1.0, 0.0]), "v@2022/a41": np.array([1.0, 0.0])})
    assert pair(["v@1996/a24", "v@2022/a40", "v@2022/a41"]) == ["v@1996/a24", "v@2022/a41"]
    # an earlier version of the best unit itself, ranking above the counterpart, is no split part (here 2010
    # dropped the training institutions and 2022 restored them: 1996 holds what the 2010 counterpart lacks)
    texts["v@2022/a24"], texts["v@2010/a24"] = old, old.split("。")[0] + "。国家鼓励企业举办职业教育。"
    agraph = ArticleGraph.from_edges([Edge("v@2010/a24", "v@1996/a24", EdgeType.INHERITS),
                                      Edge("v@2022/a24", "v@2010/a24", EdgeType.INHERITS)])
    vecs["v@2022/a24"] = np.array([1.0, 0.0])
    ids = ["v@2022/a24", "v@1996/a24", "v@2010/a24"]
    out = [h.unit_id for h in pair_versions(agraph, [hit(u, 1.0 - i / 10) for i, u in enumerate(ids)], vecs,
                                            frozenset({"v"}), set())]
    assert out[:2] == ["v@2022/a24", "v@2010/a24"]


def test_an_instrument_named_by_its_versions_alone():
    """"2008年版和2021年版的说法一样吗" names no law: the one instrument with a version of each year is
    meant; none when two have them, or when one year is written."""
    from workbench.retrieve.plan import versioned
    held = {"pig": {"2008", "2011", "2021"}, "quarantine": {"2010", "2022"}}
    twins = {"pig": {"pig", "pig-copy"}}
    labels = {}                          # version labels where they differ from the years a version answers to
    catalog = SimpleNamespace(versions_in=lambda years, keys: {f"{k}@{y}" for k, ys in held.items() for y in ys
                                                               if int(y) in years and (not keys or k in keys)},
                              same_content=lambda keys: set().union(*(twins.get(k, {k}) for k in keys)),
                              chain=lambda k: [SimpleNamespace(version=f"{y}-01-01") for y in labels.get(k, held[k])])
    assert versioned("定点屠宰厂的补助由谁出？2008年版和2021年版的说法一样吗？", catalog) == {"pig"}
    assert versioned("2008年版和2022年版有何不同？", catalog) == set()          # no instrument has both
    assert versioned("2021年版对补助是怎么规定的？", catalog) == set()
    held["pig-copy"] = {"2008", "2021"}
    assert versioned("2008年版和2021年版的说法一样吗？", catalog) == {"pig", "pig-copy"}   # one law held twice
    held["food"] = {"2008", "2021"}
    assert versioned("2008年版和2021年版的说法一样吗？", catalog) == set()      # two laws have both: not told
    labels["food"] = {"2007", "2021"}    # ... unless one has them only as years of entry into force
    assert versioned("2008年版和2021年版的说法一样吗？", catalog) == {"pig", "pig-copy"}
    held.clear()
    held["a"] = {"2021"}                 # one version answering both years (labelled 2021, in force 2022)
    catalog.versions_in = lambda years, keys: {"a@2021"} if set(years) & {2021, 2022} else set()
    assert versioned("2021年版和2022年版一样吗？", catalog) == set()


def test_a_clause_moved_to_another_article_is_compared_where_it_went():
    """"2024年监察法修改，在留置期限这块改了什么": the 2018 article held the decision and the period in two
    clauses; 2024 split the period into an article of its own. The alignment pairs 2018 a43 with a47 (the
    decision, its first clause); the clause that matched the question (its focus) now lies in a48, which is
    compared in a47's place -- not when the focus is another clause, when the question's words fit
    another clause better than BM25's pick, or when a48 answers the question far worse than a47."""
    from dataclasses import replace
    from types import SimpleNamespace
    from workbench.core.records import Filter
    from workbench.retrieve.cite import moved_focus
    from workbench.retrieve.route import Route
    decision = "监察机关采取留置措施，应当由监察机关领导人员集体研究决定。设区的市级以下监察机关采取留置措施，应当报上一级监察机关批准。"
    period = "留置时间不得超过三个月。在特殊情况下，可以延长一次，延长时间不得超过三个月。省级以下监察机关采取留置措施的，延长留置时间应当报上一级监察机关批准。"
    units = [Unit("j@2018/a43", "j", "2018", "article", text=decision + period),
             Unit("j@2018/a43/c1", "j", "2018", "clause", text=decision, parent_id="j@2018/a43"),
             Unit("j@2018/a43/c2", "j", "2018", "clause", text=period, parent_id="j@2018/a43"),
             Unit("j@2018/a44", "j", "2018", "article", text="被留置人员的合法权益受法律保护。"),
             Unit("j@2024/a47", "j", "2024", "article", text=decision),
             Unit("j@2024/a48", "j", "2024", "article", text=period + "对涉嫌职务犯罪的被调查人，可以再延长二个月。"),
             Unit("j@2024/a49", "j", "2024", "article", text="被留置人员的合法权益受法律保护。")]
    by_id = {u.id: u for u in units}

    class Store:
        def get(self, ids, vectors=False):
            return [by_id[i] for i in ids if i in by_id]

        def where(self, f: Filter, limit=None):
            return [u for u in units if (not f.kinds or u.kind in f.kinds)
                    and (not f.documents or u.id.split("/")[0] in f.documents)
                    and (not f.under or any(u.id.startswith(x + "/") for x in f.under))]
    edges = [("j@2024/a47", "j@2018/a43"), ("j@2024/a49", "j@2018/a44")]
    texts = {u.id: u.text for u in units}
    c = _citing(texts, ["j@2018/a43", "j@2024/a47", "j@2024/a48"], 2, named={"j@2018", "j@2024"}, edges=edges)
    c.r.store = Store()
    from workbench.link.versions import grams
    c.r.article_grams = lambda doc: {u.id: grams(u.text) for u in units if u.kind == "article" and u.id.split("/")[0] == doc}

    def ask(topic, focus, scores=None):
        cc = replace(c, focus={"j@2018/a43": focus}, plan=SimpleNamespace(type="version_diff", topic=topic,
                                                                          route=Route("version_diff"), question=topic),
                     score={**c.score, **(scores or {})})
        return moved_focus(cc, ["j@2018/a43", "j@2024/a47"])
    assert ask("留置时间 延长", "j@2018/a43/c2") == ["j@2018/a43", "j@2024/a48"]
    assert ask("留置措施 集体研究决定", "j@2018/a43/c1") == ["j@2018/a43", "j@2024/a47"]
    assert ask("留置措施 集体研究决定 报上一级监察机关批准", "j@2018/a43/c2") == ["j@2018/a43", "j@2024/a47"]
    assert ask("留置时间 延长", "j@2018/a43") == ["j@2018/a43", "j@2024/a47"]          # the whole article matched
    assert ask("留置时间 延长", "j@2018/a43/c2", {"j@2024/a48": 0.5}) == ["j@2018/a43", "j@2024/a47"]
    cc = replace(c, focus={"j@2018/a43": "j@2018/a43/c2"}, plan=SimpleNamespace(type="version_diff", topic="留置时间 延长",
                 route=Route("version_diff"), question=""))
    assert moved_focus(cc, ["j@2018/a43", "j@2024/a49"]) == ["j@2018/a43", "j@2024/a49"]     # not its counterpart
    by_id["j@2024/a48"] = units[5] = Unit("j@2024/a48", "j", "2024", "article", text="留置时间最长六个月。对涉嫌职务犯罪的被调查人，可以再延长二个月。")
    assert ask("留置时间 延长", "j@2018/a43/c2") == ["j@2018/a43", "j@2024/a47"]          # too little of it went there

"""Choosing what an answer rests on (retrieve/cite.py, citing.py, sanctions.py) and what stands with a named rule: pure logic over fake units."""
from workbench.core.records import Edge, EdgeType, Hit, Unit
from workbench.retrieve.citing import Citing
from workbench.retrieve.sanctions import enforcing


def test_a_sanction_enforces_a_rule_through_its_citing_clause():
    """"有下列情形之一的，处…罚款：（一）违反本法第三十四条…": the point cites, the clause holding it
    sanctions; read together they make Article 50 the penalty for breaking Article 34."""
    from workbench.retrieve.retriever import Retriever
    from workbench.retrieve.route import facts
    from workbench.store.lance import _row
    texts = {"law@1/a50/c1": "有下列情形之一的，处五万元以上十万元以下罚款：\n（一）违反本法第三十四条规定的；",
             "law@1/a50/c1/p1": "（一）违反本法第三十四条规定的；",
             "law@1/a60/c1": "第三十四条规定的检验由县级以上人民政府组织。"}

    class Store:
        def get(self, ids, vectors=False):
            return [Unit(id=i, key="law", version="1", kind="clause", label="1", text=texts[i]) for i in ids if i in texts]

    r = Retriever(Store(), None, None, [])
    r._refs = {"law@1/a50": [("law@1/a50/c1/p1", "law@1/a34")], "law@1/a60": [("law@1/a60/c1", "law@1/a34")]}
    r._duties = {"law@1/a50": [("law@1/a50/c1/p1", "law@1/a36")]}     # a duty it restates (link/duties.py)
    c = Citing(r, [], None, None, None, None, {}, {}, {}, {})
    assert enforcing(c, "law@1/a34", ["law@1/a50", "law@1/a60"]) == {"law@1/a50"}
    assert enforcing(c, "law@1/a36", ["law@1/a50"]) == {"law@1/a50"}
    assert enforcing(c, "law@1/a35", ["law@1/a50"]) == set()
    point = Unit(id="law@1/a50/c1/p1", key="law", version="1", kind="point", label="1", text=texts["law@1/a50/c1/p1"],
                 language="zh")
    assert "罚款" in _row(point, "有下列情形之一的，处五万元以上十万元以下罚款：")["search_text"].split()
    assert facts("liability of a licensee keeping unreliable records under obligations") == \
        "of a licensee keeping unreliable records under"          # English frame words go as whole words


def _citing(units: dict, hits: list[str], cited_max: int, named=(), sanction=False, qtype="version_diff", edges=(),
            refs=None, route=None, duties=None, margin=0.12):
    """A citing context over fake units (id -> text), version edges (newer, older) and a
    reference index (article -> [(citing unit, cited article)])."""
    refs = refs or {}
    from types import SimpleNamespace
    from workbench.retrieve.expand import ArticleGraph
    from workbench.retrieve.route import Policy, Route
    from workbench.retrieve.scope import Scope
    older = {new: old for new, old in edges}
    newer = {old: new for new, old in edges}
    graph = SimpleNamespace(older_version=older.get, newer_version=newer.get)

    class Store:
        def get(self, ids, vectors=False):
            return [Unit(i, i.split("@")[0], i.split("@")[1].split("/")[0], "article", text=units[i]) for i in ids if i in units]
    r = SimpleNamespace(store=Store(), graph=graph, ref_index=lambda: refs, duty_index=lambda: duties or {},
                        agraph=ArticleGraph.from_edges([Edge(n, o, EdgeType.AMENDS) for n, o in edges]))
    plan = SimpleNamespace(type=qtype, route=route or Route(qtype, sanction=sanction), question="", language="zh")
    policy = Policy("direct+hybrid", {}, "none", "named", cite_max=cited_max, cite_margin=margin)
    hit_list = [Hit(h, 1.0 - i / 10, "bm25", Unit(h, h.split("@")[0], "1", "article", text=units.get(h, ""))) for i, h in enumerate(hits)]
    return Citing(r, hit_list, policy, plan, Scope(("article",), named=frozenset(named)), None,
                  {h.unit_id: h.score for h in hit_list}, {}, {}, {})


def test_a_comparison_cites_each_named_version_not_one_between():
    """"比较2008年版和2021年版…": the 2011 / 2016 texts in between may be retrieved, but the
    cited pair is the article in 2008 and in 2021, found along the alignment (renumbered)."""
    from workbench.retrieve.cite import named_versions
    chain = [("p@2011/a9", "p@2008/a9"), ("p@2016/a8", "p@2011/a9"), ("p@2021/a11", "p@2016/a8")]
    units = {n: "text" for pair in chain for n in pair}
    c = _citing(units, ["p@2021/a11", "p@2016/a8"], 2, named={"p@2008", "p@2021"}, edges=chain)
    assert named_versions(c, ["p@2021/a11", "p@2016/a8"]) == ["p@2021/a11", "p@2008/a9"]
    c = _citing(units, ["p@2021/a11", "p@2008/a9"], 2, named={"p@2008", "p@2021"}, edges=chain)
    assert named_versions(c, ["p@2021/a11", "p@2008/a9"]) == ["p@2021/a11", "p@2008/a9"]     # already both
    c = _citing(units, ["p@2021/a11", "p@2016/a8"], 2, named={"p@2021"}, edges=chain)
    assert named_versions(c, ["p@2021/a11", "p@2016/a8"]) == ["p@2021/a11", "p@2016/a8"]     # one named: as ranked


def test_one_article_number_named_for_two_versions_is_read_in_each_where_the_alignment_stops():
    """"比较1997年版和2016年版…第二条": where the alignment finds no counterpart in 1997 (a full
    revision rewrote the article), the 1997 article of that number is compared, not whatever 1997
    article ranks best; "与1997年版相比，2016年版…第二条" gives the number to 2016 only."""
    from types import SimpleNamespace
    from workbench.retrieve.cite import named_versions
    from workbench.retrieve.route import Route
    units = {"p@2016/a2": "国家实行定点屠宰制度。", "p@1997/a2": "国家实行定点屠宰的制度。", "p@1997/a1": "为了……"}
    route = Route("version_diff", articles=((2, "2"),))
    c = _citing(units, ["p@2016/a2", "p@1997/a1"], 2, named={"p@1997", "p@2016"}, route=route)

    class Store:        # articles with their labels, found by version and label as the direct lookup finds them
        def _unit(self, i):
            return Unit(i, "p", i.split("@")[1].split("/")[0], "article", label=i.rsplit("/a", 1)[1], text=units[i])

        def get(self, ids, vectors=False):
            return [self._unit(i) for i in ids if i in units]

        def where(self, f, limit=None):
            return [self._unit(i) for i in units if i.split("/")[0] in f.documents and i.endswith(f"/a{f.label}")][:limit]
    c.r.store = Store()
    for q, expected in (("比较1997年版和2016年版《条例》第二条。", "p@1997/a2"),
                        ("两个版本的第二条有什么不同？", "p@1997/a2"),
                        ("与1997年版相比，2016年版《条例》第二条有何变化？", "p@1997/a1")):
        c = c.__class__(**{**c.__dict__, "plan": SimpleNamespace(type="version_diff", route=route, question=q)})
        assert named_versions(c, ["p@2016/a2"]) == ["p@2016/a2", expected], q


def test_a_penalty_question_cites_the_sanction_in_every_type():
    from workbench.retrieve.cite import asked_role
    units = {"l@2/a30": "经营者应当建立进货查验记录制度。", "l@2/a60": "违反本法第三十条规定的，处二千元以上二万元以下罚款。",
             "l@2/a61": "违反本法第三十一条规定的，处五千元罚款。", "l@1/a50": "违反本法第二十条规定的，处一千元罚款。"}
    units.update({f"{a}/c1": units[a] for a in ("l@2/a60", "l@2/a61")})    # the citing (sanctioning) clauses
    refs = {"l@2/a60": [("l@2/a60/c1", "l@2/a30")], "l@2/a61": [("l@2/a61/c1", "l@2/a31")]}
    from workbench.retrieve.route import Route
    c = _citing(units, ["l@2/a30", "l@2/a61", "l@2/a60"], 1, qtype="temporal", refs=refs,
                route=Route("temporal", sanction=True, asks=("sanction",)))
    assert asked_role(c, ["l@2/a30"]) == ["l@2/a60", "l@2/a30"]         # the sanction citing the rule by number, then the rule
    # a sanction naming the conduct itself (linked to the rule by restating it, link/duties.py, not by its
    # number) states the offence in full: asked only the penalty, it is cited alone
    named = {**units, "l@2/a62": "未建立进货查验记录制度的，处二千元以上二万元以下罚款。"}
    named["l@2/a62/c1"] = named["l@2/a62"]
    c = _citing(named, ["l@2/a30", "l@2/a62"], 1, qtype="temporal", refs={}, duties={"l@2/a62": [("l@2/a62/c1", "l@2/a30")]},
                route=Route("temporal", sanction=True, asks=("sanction",)))
    assert asked_role(c, ["l@2/a30"]) == ["l@2/a62"]
    c = _citing(named, ["l@2/a30", "l@2/a62"], 1, qtype="temporal", refs={}, duties={"l@2/a62": [("l@2/a62/c1", "l@2/a30")]},
                route=Route("temporal", sanction=True, asks=("sanction", "obligation")))
    assert asked_role(c, ["l@2/a30"]) == ["l@2/a30", "l@2/a62"]         # the duty asked too: the pair
    c = _citing(units, ["l@2/a30", "l@2/a61", "l@2/a60"], 1, qtype="temporal", refs=refs,
                route=Route("temporal", sanction=True, asks=("sanction", "obligation")))
    assert asked_role(c, ["l@2/a30"]) == ["l@2/a30", "l@2/a60"]         # the duty asked too: as ranked, then its sanction
    c = _citing(units, ["l@2/a30", "l@2/a60"], 1, sanction=False, qtype="temporal", refs=refs)
    assert asked_role(c, ["l@2/a30"]) == ["l@2/a30"]                    # no penalty asked: as ranked
    c = _citing(units, ["l@2/a61", "l@2/a30"], 1, sanction=True, qtype="temporal", refs=refs)
    assert asked_role(c, ["l@2/a61"]) == ["l@2/a61"]                    # a sanction already leads
    c = _citing(units, ["l@2/a30", "l@2/a60", "l@1/a50"], 2, sanction=True, edges=[("l@2/a60", "l@1/a50")], refs=refs)
    assert asked_role(c, ["l@2/a30", "l@1/a30"]) == ["l@2/a60", "l@1/a50"]   # a comparison: the sanction pair


def test_provisions_citing_a_named_rule_or_instrument_share_its_standing():
    """"As required by COBS Rule 22.4.2": guidance elsewhere on applying that rule stands with
    the rule itself (a share of the direct bonus); a provision citing a named instrument, a
    share of the named bonus; citing within the same instrument counts only as far as Weights.within
    says (0 but in English)."""
    from types import SimpleNamespace
    import numpy as np
    from workbench.core.config import Weights
    from workbench.retrieve.rerank import Signals, rerank
    from workbench.retrieve.seeds import citing_named
    from workbench.retrieve.retriever import Retriever
    r = Retriever(SimpleNamespace(), None, None, [])
    r._refs = {"guide@1/r35": [("guide@1/r35", "cobs@1/r22.4.2"), ("guide@1/r35/p2", "guide@1/r1")],
               "cobs@1/r23": [("cobs@1/r23", "cobs@1/r22.4.2")], "fees@1/r3": [("fees@1/r3", "cobs@1/r1")],
               "cobs@1/r22.4.2": [("cobs@1/r22.4.2/p2", "cobs@1/r22.4.2")]}      # a paragraph citing its own rule
    got = citing_named(r, {"cobs@1/r22.4.2"}, frozenset({"cobs"}), {"fees@1/r3", "other@1/r9"})
    assert got == {"guide@1/r35": "article", "fees@1/r3": "instrument"}
    assert citing_named(r, set(), frozenset(), {"fees@1/r3"}) == {}
    # a rule named as a frame (seeds.frames), a rule of the same rulebook citing it stands with it too -- not the
    # rule itself, and a provision citing a named rule of another rulebook keeps that standing
    within = citing_named(r, {"cobs@1/r22.4.2"}, frozenset(), set(), within=frozenset({"cobs@1/r22.4.2"}))
    assert within == {"guide@1/r35": "article", "cobs@1/r23": "within"}
    both = citing_named(r, {"cobs@1/r22.4.2", "guide@1/r1"}, frozenset(), set(),
                        within=frozenset({"cobs@1/r22.4.2", "guide@1/r1"}))
    assert both["guide@1/r35"] == "article" and both["cobs@1/r23"] == "within"
    assert citing_named(r, {"cobs@1/r22.4.2"}, frozenset(), set()) == {"guide@1/r35": "article"}
    from workbench.retrieve.seeds import frames
    seeds = SimpleNamespace(looked=("cobs@1/r22.4.2",))
    assert frames(seeds, SimpleNamespace(keys=frozenset()), Weights(within=1.0)) == {"cobs@1/r22.4.2"}
    assert frames(seeds, SimpleNamespace(keys=frozenset({"cobs"})), Weights(within=1.0)) == frozenset()   # pointed at
    assert frames(seeds, SimpleNamespace(keys=frozenset()), Weights()) == frozenset()                      # weight 0
    units = {i: Unit(i, i.split("@")[0], "1", "article", text="t") for i in ("cobs@1/r22.4.2", "guide@1/r35", "fees@1/r3")}
    s = Signals(units, {}, {}, {i: np.ones(2) for i in units}, frozenset({"cobs@1/r22.4.2"}), {}, frozenset(),
                frozenset({"cobs"}), {}, got)
    w = Weights(citing=0.5)
    hits, parts = rerank(set(units), s, np.ones(2), w, {}, False, {}, lambda uid: [])
    assert parts["guide@1/r35"]["citing"] == 0.5 * w.direct and parts["fees@1/r3"]["citing"] == 0.5 * w.named
    assert parts["cobs@1/r22.4.2"]["citing"] == 0.0
    _, parts = rerank(set(units), s, np.ones(2), Weights(citing=0.0), {}, False, {}, lambda uid: [])
    assert parts["guide@1/r35"]["citing"] == 0.0
    units["cobs@1/r23"] = Unit("cobs@1/r23", "cobs", "1", "article", text="t")
    s = Signals(units, {}, {}, {i: np.ones(2) for i in units}, frozenset({"cobs@1/r22.4.2"}), {}, frozenset(),
                frozenset({"cobs"}), {}, within)
    _, parts = rerank(set(units), s, np.ones(2), Weights(citing=0.5, within=0.25), {}, False, {}, lambda uid: [])
    assert parts["cobs@1/r23"]["citing"] == 0.5 * 0.25 * 1.0 and parts["guide@1/r35"]["citing"] == 0.5 * 1.0
    _, parts = rerank(set(units), s, np.ones(2), Weights(citing=1.0, within=1.0, direct=0.5), {}, False, {}, lambda uid: [])
    assert parts["cobs@1/r23"]["citing"] == 0.5 == parts["cobs@1/r22.4.2"]["direct"]     # a share of the named rule's


def test_the_named_bonus_counts_as_far_as_the_question_points_into_the_named_instrument():
    """A name that says where the answer is ("《反垄断法》对…如何处罚": its best hits lie in that
    law) keeps the whole named bonus; a name that is part of the subject ("AML/CFT frameworks for
    spot commodities": the best hits lie elsewhere) gives little, to its units and to provisions
    citing it; the re-rank then compares with the whole question rather than the topic."""
    from dataclasses import replace
    import numpy as np
    from workbench.core.config import Weights
    from workbench.core.records import Hit
    from workbench.retrieve.graph import semantic_query
    from workbench.retrieve.rerank import Signals, rerank
    from workbench.retrieve.seeds import named_share
    hit = lambda i: Hit(i, 1.0, "fused", Unit(i, i.split("@")[0], "1", "article", text="t"))  # noqa: E731
    top = [hit("aml@1/r1"), hit("spot@1/r60"), hit("spot@1/r61"), hit("spot@1/r2")]
    assert named_share(top, frozenset({"aml"})) == 0.25
    assert named_share(top, frozenset({"spot"})) == 0.75 and named_share([], frozenset({"aml"})) == 1.0
    units = {i: Unit(i, i.split("@")[0], "1", "article", text="t") for i in ("aml@1/r1", "spot@1/r60")}
    s = Signals(units, {}, {}, {i: np.ones(2) for i in units}, frozenset(), {}, frozenset(), frozenset({"aml"}),
                {}, {"spot@1/r60": "instrument"})
    w = Weights(citing=1.0)
    _, full = rerank(set(units), s, np.ones(2), w, {}, False, {}, lambda uid: [])
    _, part = rerank(set(units), replace(s, named_share=0.25), np.ones(2), w, {}, False, {}, lambda uid: [])
    assert full["aml@1/r1"]["named"] == w.named and part["aml@1/r1"]["named"] == 0.25 * w.named
    assert full["spot@1/r60"]["citing"] == w.named and part["spot@1/r60"]["citing"] == 0.25 * w.named
    topic, question = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    assert semantic_query(topic, question, 1.0) is topic
    assert np.allclose(semantic_query(topic, question, 0.25), [0.25, 0.75])


def test_a_named_sanction_asked_about_alone_is_the_answer_and_follows_only_a_deferral():
    """"第六十三条规定，罚款可以怎样加重": the named sanction answers; the fines it multiplies
    are context. A sanction deferring its penalty ("依照本法第五十六条的规定处罚") brings the
    sanction it defers to."""
    from workbench.retrieve.citing import AMOUNT
    from workbench.retrieve.sanctions import by_roles
    from workbench.retrieve.route import Route
    units = {"l@1/a63": "违反本法规定，情节特别严重的，可以在本法第五十六条规定的罚款数额的二倍以上五倍以下确定具体罚款数额。",
             "l@1/a20": "经营者应当遵守公平竞争规则。",
             "l@1/a56": "经营者违反本法规定的，处五十万元以下的罚款。",
             "l@1/a70": "违反本法第二十条规定的，依照本法第五十六条的规定处罚。"}
    refs = {"l@1/a63": [("l@1/a63", "l@1/a56")], "l@1/a70": [("l@1/a70", "l@1/a56"), ("l@1/a70", "l@1/a20")]}
    one = Route("reasoning", sanction=True, asks=("sanction",), articles=((63, "63"),))
    for named, cited in (("l@1/a63", ["l@1/a63"]), ("l@1/a70", ["l@1/a70", "l@1/a56"])):
        order = [named] + [u for u in units if u != named]          # the rule a20 within the margin
        c = _citing(units, order, 3, qtype="reasoning", refs=refs, route=one)
        c.hits[0] = Hit(named, 1.0, "direct", Unit(named, "l", "1", "article", text=units[named]))
        assert by_roles(c) == cited
    # not named, asked only the penalty, citing no rule (only the fines it multiplies): no rule is
    # paired with it by wording alone; asked the rule broken as well, one is
    c = _citing(units, ["l@1/a63", "l@1/a20", "l@1/a56", "l@1/a70"], 3, qtype="reasoning", refs=refs, route=one)
    assert by_roles(c) == ["l@1/a63"]
    both = Route("reasoning", sanction=True, asks=("sanction", "obligation"))
    c = _citing(units, ["l@1/a63", "l@1/a20", "l@1/a56", "l@1/a70"], 3, qtype="reasoning", refs=refs, route=both)
    assert by_roles(c)[:2] == ["l@1/a63", "l@1/a20"]
    assert all(AMOUNT.search(t) for t in ("处五万元以上十万元以下罚款", "二倍以上五倍以下", "phạt tiền từ 5.000.000 đồng",
                                          "5 triệu đồng", "gấp 02 lần", "a fine not exceeding $10,000",
                                          "a fine of AED 50,000", "a fine not exceeding level 3", "处三年以下有期徒刑",
                                          "bị phạt tù từ 01 năm đến 03 năm", "liable to imprisonment for a term"))
    assert not any(AMOUNT.search(t) for t in ("依照本法第五十六条的规定处罚", "liable to the penalty in section 12 and 13",
                                              "bị xử phạt theo quy định tại Điều 5", "under GEN 3.3 and COBS 4"))


def test_a_comparison_cites_the_parts_that_fed_the_answering_clause():
    """An article merged from two (2017 Arts. 43 + 44 -> 2024 Art. 41) is compared with both;
    an article whose second clause absorbed a removed article (slaughter declarations) brings
    that article only when the question was answered by that clause."""
    from workbench.retrieve.cite import with_parts
    units = {"k@1/a43": "伪造、变造会计凭证、会计帐簿的，处五千元以上十万元以下罚款。",
             "k@1/a44": "隐匿或者故意销毁会计凭证的，处五千元以上十万元以下罚款。",
             "k@2/a41": "伪造、变造会计凭证、会计账簿，隐匿或者故意销毁会计凭证的，处二十万元以上罚款。",
             "q@1/a8": "出售动物的，应当提前十五天申报检疫。", "q@1/a10": "屠宰动物的，应当提前六小时申报检疫。",
             "q@2/a8": "出售动物的，应当提前三天申报检疫。屠宰动物的，应当提前六小时申报检疫。"}
    clauses = {"q@2/a8": [Unit("q@2/a8/c1", "q", "2", "clause", "1", text="出售动物的，应当提前三天申报检疫。"),
                          Unit("q@2/a8/c2", "q", "2", "clause", "2", text="屠宰动物的，应当提前六小时申报检疫。")]}
    merges = [Edge("k@2/a41", "k@1/a43", EdgeType.AMENDS, evidence="merged", extractor="version-part"),
              Edge("q@2/a8", "q@1/a10", EdgeType.AMENDS, evidence="merged", extractor="version-part")]

    def edges_of(uid, types=None, direction="out"):
        return [e for e in merges if uid in (e.source, e.target)]
    c = _citing(units, ["k@1/a44", "k@2/a41"], 2, edges=[("k@2/a41", "k@1/a44"), ("q@2/a8", "q@1/a8")])
    c.r.graph.edges_of = edges_of
    c.r.store.where = lambda where, limit=None: clauses.get(where.under[0], [])
    assert with_parts(c, ["k@1/a44", "k@2/a41"]) == ["k@1/a44", "k@2/a41", "k@1/a43"]
    c.focus.update({"q@2/a8": "q@2/a8/c1"})                       # asked about sale: the first clause
    assert with_parts(c, ["q@1/a8", "q@2/a8"]) == ["q@1/a8", "q@2/a8"]
    c.focus.update({"q@2/a8": "q@2/a8/c2"})                       # asked about slaughter: the second
    assert with_parts(c, ["q@1/a8", "q@2/a8"]) == ["q@1/a8", "q@2/a8", "q@1/a10"]
    c2 = _citing(units, ["k@2/a41"], 2)
    c2.r.graph.edges_of = edges_of
    assert with_parts(c2, ["k@2/a41"]) == ["k@2/a41"]             # 2017 neither cited nor named: no part


def test_a_comparison_asking_a_requirement_and_its_penalty_compares_both(monkeypatch):
    """"对…停放的要求以及违反停放要求的罚则作了哪些改变": the sanction pair, then the rule
    the sanction restates with its counterpart; a prohibition word among the facts asks no rule,
    and without a stated link nothing is added."""
    from workbench.retrieve.cite import asked_role
    from workbench.retrieve.route import Route, asked_roles
    assert "obligation" in asked_roles("与2001年版相比，2023年修订时，对采砂船舶停放的要求以及违反停放要求的罚则作了哪些改变？")
    assert "obligation" in asked_roles("现行条例要求至少保存多久？")
    for facts in ("一家保安服务公司应客户要求，派保安员上门讨债，要承担什么责任？", "劳动合同到期，要求回国，公司会受到什么处理？",
                  "还可能被要求申报吗？"):
        assert "obligation" not in asked_roles(facts), facts
    units = {"l@1/a20": "禁采期内未在指定地点停放的，处一万元罚款。", "l@2/a21": "未集中停放在指定地点的，处三万元罚款。",
             "l@1/a16": "采砂船舶在禁采期内应当停放在指定地点。", "l@2/a16": "采砂船舶应当集中停放在指定地点。"}
    units.update({f"{a}/c1": units[a] for a in ("l@1/a20", "l@2/a21")})
    edges = [("l@2/a21", "l@1/a20"), ("l@2/a16", "l@1/a16")]
    hits = ["l@1/a20", "l@2/a21", "l@1/a16", "l@2/a16"]
    both = Route("version_diff", sanction=True, asks=("sanction", "obligation"))
    c = _citing(units, hits, 2, edges=edges, route=both)
    c.r.duty_index = lambda: {"l@1/a20": [("l@1/a20/c1", "l@1/a16")]}
    assert asked_role(c, ["l@1/a20", "l@2/a21"]) == ["l@1/a20", "l@2/a21", "l@1/a16", "l@2/a16"]
    c = _citing(units, hits, 2, edges=edges, route=Route("version_diff", sanction=True, asks=("sanction", "prohibition")))
    c.r.duty_index = lambda: {"l@1/a20": [("l@1/a20/c1", "l@1/a16")]}
    assert asked_role(c, ["l@1/a20", "l@2/a21"]) == ["l@1/a20", "l@2/a21"]      # the penalty alone
    c = _citing(units, hits, 2, edges=edges, route=both)
    assert asked_role(c, ["l@1/a20", "l@2/a21"]) == ["l@1/a20", "l@2/a21"]      # no stated link
    import workbench.retrieve.cite as cite
    monkeypatch.setattr(cite, "fact_match", lambda c, ids: {})    # (a full-text search over the store)
    c = _citing(units, ["l@1/a16", "l@2/a16", "l@1/a20", "l@2/a21"], 2, edges=edges, route=both)
    assert asked_role(c, ["l@1/a16", "l@2/a16"]) == ["l@1/a20", "l@2/a21"]      # ... the sanction pair, as for a penalty
    c = _citing(units, hits, 2, edges=edges, route=both)
    c.r.duty_index = lambda: {"l@2/a21": [("l@2/a21/c1", "l@2/a16")]}          # linked in the other version only
    assert asked_role(c, ["l@1/a20", "l@2/a21"]) == ["l@1/a20", "l@2/a21", "l@2/a16", "l@1/a16"]
    ranked = ["l@1/a16", "l@2/a16", "l@1/a20", "l@2/a21"]
    c = _citing(units, ranked, 2, edges=edges, route=both)
    c.r.duty_index = lambda: {"l@1/a20": [("l@1/a20/c1", "l@1/a16")]}
    assert asked_role(c, ["l@1/a16", "l@2/a16"]) == ["l@1/a16", "l@2/a16", "l@1/a20", "l@2/a21"]


def test_the_counterpart_cited_beside_a_unit_is_its_best_scored_one():
    """A middle version's article has a counterpart on each side; the one ranked higher for the
    question is cited beside it, whichever the article graph lists first."""
    from workbench.retrieve.cite import _with_counterpart
    units = {"l@1/a20": "处一万元罚款。", "l@2/a20": "处二万元罚款。", "l@3/a20": "处三万元罚款。"}
    edges = [("l@2/a20", "l@1/a20"), ("l@3/a20", "l@2/a20")]
    for ranked, other in ((["l@2/a20", "l@3/a20", "l@1/a20"], "l@3/a20"), (["l@2/a20", "l@1/a20", "l@3/a20"], "l@1/a20")):
        c = _citing(units, ranked, 2, edges=edges)
        assert _with_counterpart(c, "l@2/a20") == ["l@2/a20", other]


def test_a_sanction_stating_its_own_offence_is_cited_alone_when_only_the_penalty_is_asked():
    """A criminal code's article states the act and its penalty in one provision and cites no rule:
    asked only how the act is punished, it is the answer; no rule is paired with it by wording alone.
    Asked which duty was broken as well, the closest rule still joins it."""
    from workbench.retrieve.sanctions import by_roles
    from workbench.retrieve.route import Route
    units = {"c@1/a181": "Người nào cưỡng ép người khác kết hôn trái với sự tự nguyện của họ, thì bị phạt tù từ 01 năm đến 03 năm.",
             "c@1/a8": "Kết hôn phải do nam và nữ tự nguyện quyết định; cấm cưỡng ép kết hôn."}
    penalty = Route("reasoning", sanction=True, asks=("sanction",))
    c = _citing(units, ["c@1/a181", "c@1/a8"], 3, qtype="reasoning", route=penalty)
    assert by_roles(c) == ["c@1/a181"]
    duty_too = Route("reasoning", sanction=True, asks=("sanction", "obligation"))
    c = _citing(units, ["c@1/a181", "c@1/a8"], 3, qtype="reasoning", route=duty_too)
    assert by_roles(c) == ["c@1/a181", "c@1/a8"]
    # what such an article cites is no rule it enforces: another offence, the code's reach
    units.update({"c@1/a6": "Bộ luật này áp dụng đối với mọi hành vi phạm tội thực hiện trên lãnh thổ nước Cộng hòa xã hội chủ nghĩa Việt Nam.",
                  "c@1/a182": "Người nào vi phạm chế độ một vợ, một chồng thì bị phạt cảnh cáo hoặc phạt cải tạo không giam giữ đến 01 năm."})
    cites = {"c@1/a181": [("c@1/a181", "c@1/a6"), ("c@1/a181", "c@1/a182")]}
    c = _citing(units, ["c@1/a181", "c@1/a6", "c@1/a182", "c@1/a8"], 3, qtype="reasoning", route=penalty, refs=cites)
    assert by_roles(c) == ["c@1/a181"]
    c = _citing(units, ["c@1/a181", "c@1/a182"], 3, qtype="reasoning", route=penalty, refs=cites)
    assert by_roles(c) == ["c@1/a181"]          # whether or not a rule happens to rank beside it
    # ... while a sanction citing the rule it enforces is cited with it
    cites = {"c@1/a181": [("c@1/a181", "c@1/a8")]}
    c = _citing(units, ["c@1/a181", "c@1/a8", "c@1/a6"], 3, qtype="reasoning", route=penalty, refs=cites)
    assert by_roles(c) == ["c@1/a181", "c@1/a8"]


def test_of_sanctions_restating_conducts_the_one_whose_conduct_the_facts_cover_is_chosen():
    """Two penalties for one prohibition: the facts "没有取得生产配额许可证…生产了…消耗臭氧层物质" fulfil
    "无生产配额许可证生产消耗臭氧层物质", not "超出生产配额许可证规定的品种、数量…生产" (which repeats the
    question's words more often); of listed conducts alike, the one whose lead-in names the
    question's party ("承运人有下列行为之一的")."""
    from types import SimpleNamespace
    from workbench.core.records import Filter
    from workbench.retrieve.sanctions import conduct_cover
    texts = {"l@1/a31": ("article", None, "无生产配额许可证生产消耗臭氧层物质的，由主管部门责令停止违法行为，处十万元以上二十万元以下的罚款。"),
             "l@1/a33": ("article", None, "生产单位有下列行为之一的，由主管部门责令停止违法行为，处二万元以上十万元以下的罚款：\n"
                                         "（一）超出生产配额许可证规定的品种、数量、期限生产消耗臭氧层物质的；"),
             "l@1/a33/c1": ("clause", "l@1/a33", "生产单位有下列行为之一的，由主管部门责令停止违法行为，处二万元以上十万元以下的罚款：\n"
                                                "（一）超出生产配额许可证规定的品种、数量、期限生产消耗臭氧层物质的；"),
             "l@1/a33/c1/p1": ("point", "l@1/a33/c1", "（一）超出生产配额许可证规定的品种、数量、期限生产消耗臭氧层物质的；"),
             "l@1/a48": ("article", None, "违反本办法规定，承运人有下列行为之一的，处一千元以上三千元以下罚款：\n（一）运输的畜禽到达目的地后，未报告的；"),
             "l@1/a48/c1": ("clause", "l@1/a48", "违反本办法规定，承运人有下列行为之一的，处一千元以上三千元以下罚款：\n（一）运输的畜禽到达目的地后，未报告的；"),
             "l@1/a48/c1/p1": ("point", "l@1/a48/c1", "（一）运输的畜禽到达目的地后，未报告的；"),
             "l@1/a49": ("article", None, "违反本办法规定，屠宰厂有下列行为之一的，处一千元以上三千元以下罚款：\n（一）畜禽到达目的地后，未报告的；"),
             "l@1/a49/c1": ("clause", "l@1/a49", "违反本办法规定，屠宰厂有下列行为之一的，处一千元以上三千元以下罚款：\n（一）畜禽到达目的地后，未报告的；"),
             "l@1/a49/c1/p1": ("point", "l@1/a49/c1", "（一）畜禽到达目的地后，未报告的；"),
             "l@1/a50": ("article", None, "违反本办法第十条规定的，处一千元罚款。")}
    units = {i: Unit(i, "l", "1", k, label="1", text=t, language="zh", parent_id=p) for i, (k, p, t) in texts.items()}

    class Store:
        def get(self, ids, vectors=False):
            return [units[i] for i in ids if i in units]

        def where(self, f: Filter):
            return [u for i, u in units.items() if any(i.startswith(a + "/") for a in f.under)]

    def cover(facts, ids):
        plan = SimpleNamespace(language="zh", facts=facts)
        return conduct_cover(Citing(SimpleNamespace(store=Store()), [], None, plan, None, None, {}, {}, {}, {}), ids)
    got = cover("某化工企业在没有取得生产配额许可证的情况下生产了一批受控的消耗臭氧层物质", ["l@1/a31", "l@1/a33"])
    assert got["l@1/a31"] > got["l@1/a33"]
    got = cover("承运人把用于屠宰的畜禽运到目的地后，不报告", ["l@1/a48", "l@1/a49"])
    assert got["l@1/a48"] > got["l@1/a49"]
    # a sanction numbering the rule it enforces restates no conduct: BM25 compares them, as before
    assert cover("承运人运到目的地后不报告", ["l@1/a48", "l@1/a50"]) == {}


def test_a_dated_question_asking_the_rule_broken_and_its_penalty_cites_both():
    """"2015年…违反了当时哪条规定？会被如何处罚？" with the sanction ranked first: the rule it cites comes
    with it, the rule first; asked the penalty alone, the sanction alone (cite_max 1)."""
    from workbench.retrieve.cite import asked_role
    from workbench.retrieve.route import Route
    units = {"l@1/a20": "违反本条例第十六条规定，未在指定地点停放的，处一万元罚款。",
             "l@1/a16": "采砂船舶应当停放在指定地点。", "l@1/a9": "采砂应当取得许可。"}
    refs = {"l@1/a20": [("l@1/a20", "l@1/a16")]}
    both = Route("temporal", sanction=True, asks=("sanction", "obligation"))
    c = _citing(units, ["l@1/a20", "l@1/a9", "l@1/a16"], 1, qtype="temporal", route=both, refs=refs)
    assert asked_role(c, ["l@1/a20"]) == ["l@1/a16", "l@1/a20"]
    alone = Route("temporal", sanction=True, asks=("sanction",))
    c = _citing(units, ["l@1/a20", "l@1/a9", "l@1/a16"], 1, qtype="temporal", route=alone, refs=refs)
    assert asked_role(c, ["l@1/a20"]) == ["l@1/a20"]


def test_the_rule_added_to_a_sanction_is_not_cited_twice_and_the_sanction_still_defers():
    """The rule a first-cited sanction enforces joins it once (one already cited comes first); the
    sanction, now second, still brings the sanction its penalty defers to."""
    from workbench.retrieve.cite import asked_role, choose
    from workbench.retrieve.route import Route
    units = {"l@1/a20": "违反本条例第十六条规定的，依照本条例第三十条的规定处罚。",
             "l@1/a16": "采砂船舶应当停放在指定地点。", "l@1/a30": "有下列行为之一的，处一万元罚款。"}
    refs = {"l@1/a20": [("l@1/a20", "l@1/a16"), ("l@1/a20", "l@1/a30")]}
    both = Route("temporal", sanction=True, asks=("sanction", "obligation"))
    c = _citing(units, ["l@1/a20", "l@1/a16", "l@1/a30"], 2, qtype="temporal", route=both, refs=refs)
    assert asked_role(c, ["l@1/a20", "l@1/a16"]) == ["l@1/a16", "l@1/a20"]
    c = _citing(units, ["l@1/a20", "l@1/a16", "l@1/a30"], 1, qtype="temporal", route=both, refs=refs)
    assert choose(c, [], {}) == ["l@1/a16", "l@1/a20", "l@1/a30"]


def test_a_sanction_chosen_by_the_facts_comes_with_the_rule_it_restates_not_the_best_ranked_rule():
    """"网吧营业期间锁闭了安全出口，该如何处理？": the patrol duty ranks first, the penalty listing "营业期间
    封堵或者锁闭…安全出口的" is chosen for the facts -- and it restates the rule listing that duty, which
    is cited with it in place of the patrol duty. A rule it does not restate stays the best hit's."""
    from workbench.retrieve.route import Route
    from workbench.retrieve.sanctions import by_roles
    units = {"n@1/a19": "经营单位应当实施经营管理技术措施，建立场内巡查制度，发现上网消费者有违法行为的，应当立即予以制止。",
             "n@1/a24": "经营单位应当依法履行消防安全职责，并遵守下列规定：（一）营业期间禁止封堵或者锁闭安全疏散通道和安全出口。",
             "n@1/a33": "经营单位违反本条例的规定，有下列行为之一的，由公安机关给予警告，可以并处15000元以下的罚款："
                        "（一）营业期间封堵或者锁闭安全疏散通道或者安全出口的。"}
    units["n@1/a33/c1"] = units["n@1/a33"]                  # the sanctioning clause holding the restating point
    penalty = Route("reasoning", sanction=True, asks=("sanction",))
    restates = {"n@1/a33": [("n@1/a33/c1/p1", "n@1/a24")]}
    c = _citing(units, ["n@1/a19", "n@1/a24", "n@1/a33"], 3, qtype="reasoning", route=penalty, duties=restates, margin=0.3)
    assert by_roles(c)[:2] == ["n@1/a33", "n@1/a24"]
    c = _citing(units, ["n@1/a19", "n@1/a24", "n@1/a33"], 3, qtype="reasoning", route=penalty, margin=0.3)
    assert by_roles(c)[:2] == ["n@1/a33", "n@1/a19"]            # no link stated: the best-ranked rule
    # ... and the restated rule must be a candidate itself (within the margin), not any rule the sanction lists
    c = _citing(units, ["n@1/a19", "n@1/a33", "n@1/a24"], 3, qtype="reasoning", route=penalty, duties=restates, margin=0.15)
    assert by_roles(c)[:2] == ["n@1/a33", "n@1/a19"]
    # ... and what the sanction names outside a sanctioning clause (the competent body) is no rule it enforces
    names_body = {"n@1/a33": [("n@1/a33/c2", "n@1/a24")]}
    units["n@1/a33/c2"] = "前款规定的处罚由本条例第二十四条规定的部门决定。"
    c = _citing(units, ["n@1/a19", "n@1/a24", "n@1/a33"], 3, qtype="reasoning", route=penalty, refs=names_body, margin=0.3)
    assert by_roles(c)[:2] == ["n@1/a33", "n@1/a19"]


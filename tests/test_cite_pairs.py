"""Citing a rule and its sanction as a pair (retrieve/sanctions.py `linked_pair`): pure logic over
fake units, with test_cite.py's citing context."""
from test_cite import _citing


def test_a_duty_and_penalty_question_cites_a_linked_pair():
    """"违反了什么义务，会被怎样处罚": of a sanction leading by a little and one that cites (or
    restates) a rule also retrieved, the linked pair scoring higher together is cited, the
    penalty alone asked too (the sanction first); no pair without a stated link, and a best
    sanction enforcing no rule stands alone when only the penalty is asked."""
    from workbench.retrieve.sanctions import by_roles
    from workbench.retrieve.route import Route
    units = {"l@1/a68": "违反本法规定，有下列情形之一的，处五千元罚款：（一）未建立管理制度。",
             "l@1/a69": "未依照本法规定建立生产记录的，处二千元罚款。",
             "l@1/a27": "生产企业应当建立生产记录。", "l@1/a40": "生产企业应当建立管理制度。"}
    refs = {"l@1/a69": [("l@1/a69", "l@1/a27")]}
    hits = ["l@1/a68", "l@1/a69", "l@1/a75", "l@1/a73", "l@1/a74", "l@1/a66", "l@1/a54", "l@1/a27"]
    units.update({h: "处罚款。" for h in hits if h not in units})
    both = Route("reasoning", sanction=True, asks=("obligation", "sanction"))
    c = _citing(units, hits, 3, qtype="reasoning", refs=refs, route=both)
    assert by_roles(c)[:2] == ["l@1/a69", "l@1/a27"]
    c = _citing(units, hits, 3, qtype="reasoning", refs={}, route=both)
    assert by_roles(c)[:1] == ["l@1/a68"]                       # no stated link: the best hit leads
    alone = Route("reasoning", sanction=True, asks=("sanction",))
    c = _citing(units, hits, 3, qtype="reasoning", refs=refs, route=alone)
    assert by_roles(c)[:1] == ["l@1/a68"]       # the penalty alone asked, the best sanction enforcing no rule: it alone
    # ... enforcing a rule not retrieved: the linked pair retrieved beats it, the sanction first
    c = _citing(units, hits, 3, qtype="reasoning", refs={**refs, "l@1/a68": [("l@1/a68", "l@1/a40")]}, route=alone)
    assert by_roles(c)[:2] == ["l@1/a69", "l@1/a27"]
    ranked = ["l@1/a27", "l@1/a69"] + [h for h in hits if h not in ("l@1/a27", "l@1/a69")]
    c = _citing(units, ranked, 3, qtype="reasoning", refs=refs, route=Route("reasoning", sanction=True, asks=("sanction",)))
    assert by_roles(c)[:2] == ["l@1/a69", "l@1/a27"]            # ... leads with the sanction, the rule after it


def test_a_rule_and_a_sanction_of_two_instruments_linked_by_nothing_make_no_pair():
    """No instrument named: a sanction of one law leading by a little, a rule of another law
    beside it -- the pair a linked sanction and rule of one law make replaces them (a sanction
    enforces its own instrument's rules or those it names); within one instrument the unlinked
    pair from the best hit still stands when it scores higher."""
    from workbench.retrieve.sanctions import by_roles
    from workbench.retrieve.route import Route
    units = {"sea@1/a112": "违反本法规定，船舶有下列行为之一的，处二万元以上十万元以下的罚款。",
             "port@1/a45": "违反本法第十四条规定的，处五千元以上三万元以下的罚款。",
             "port@1/a9": "交通运输工具应当接受检疫。", "port@1/a14": "检疫结束前，任何人不得上下交通运输工具。"}
    both = Route("reasoning", sanction=True, asks=("obligation", "sanction"))
    refs = {"port@1/a45": [("port@1/a45", "port@1/a14")]}
    hits = ["sea@1/a112", "port@1/a45", "port@1/a9", "port@1/a14"]
    c = _citing(units, hits, 3, qtype="reasoning", refs=refs, route=both, margin=0.25)
    assert by_roles(c)[:2] == ["port@1/a45", "port@1/a14"]
    same = {k.replace("sea@", "port@"): v for k, v in units.items()}
    c = _citing(same, [h.replace("sea@", "port@") for h in hits], 3, qtype="reasoning", refs=refs, route=both,
                margin=0.25)
    assert by_roles(c)[:2] == ["port@1/a112", "port@1/a9"]
    cited = {**refs, "port@1/a9": [("port@1/a9", "sea@1/a112")]}   # one names the other: a pair after all
    c = _citing(units, hits, 3, qtype="reasoning", refs=cited, route=both, margin=0.25)
    assert by_roles(c)[:2] == ["sea@1/a112", "port@1/a9"]


def test_of_two_sanctions_enforcing_one_rule_the_one_citing_the_clause_asked_about_is_cited():
    """A rule of three clauses, each enforced by the sanction citing it ("违反本法第三十一条第二款规定…",
    "…第三款规定…"): a question whose facts fall under the third clause (its focus, the clause sharing most
    of the topic's words) cites the sanction citing that clause, though the other scores higher -- not when
    BM25's focus is a clause the topic fits worse than another."""
    from dataclasses import replace
    from types import SimpleNamespace
    from workbench.core.records import Filter, Unit
    from workbench.retrieve.route import Route
    from workbench.retrieve.sanctions import by_roles
    clauses = {"w@1/a31/c1": "禁止食用国家重点保护野生动物。", "w@1/a31/c2": "禁止以食用为目的猎捕、交易、运输野生动物。",
               "w@1/a31/c3": "禁止生产、经营使用野生动物及其制品制作的食品。"}
    units = {"w@1/a31": "".join(clauses.values()),
             "w@1/a50": "违反本法第三十一条第二款规定，以食用为目的猎捕野生动物的，从重处罚。",
             "w@1/a53": "违反本法第三十一条第三款规定，生产、经营使用野生动物制作的食品的，处罚款。", **clauses}
    refs = {"w@1/a50": [("w@1/a50", "w@1/a31")], "w@1/a53": [("w@1/a53", "w@1/a31")]}
    by_clause = {"w@1/a50": [("w@1/a50", "w@1/a31/c2")], "w@1/a53": [("w@1/a53", "w@1/a31/c3")]}
    both = Route("reasoning", sanction=True, asks=("obligation", "sanction"))
    c = _citing(units, ["w@1/a50", "w@1/a31", "w@1/a53"], 3, qtype="reasoning", refs=refs, route=both, margin=0.35)
    parts = [Unit(i, "w", "1", "clause", text=t, parent_id="w@1/a31") for i, t in clauses.items()]
    c.r.ref_units = lambda: by_clause
    c.r.store.where = lambda f, limit=None: [u for u in parts if any(u.id.startswith(x + "/") for x in f.under)]
    c.units.update({u.id: u for u in parts})

    def cite(topic, focus):
        plan = SimpleNamespace(type="reasoning", route=both, question=topic, topic=topic, facts=topic, language="zh")
        return set(by_roles(replace(c, plan=plan, focus={"w@1/a31": focus}))[:2])
    assert cite("饭店经营使用野生动物制作的食品出售", "w@1/a31/c3") == {"w@1/a53", "w@1/a31"}
    assert cite("以食用为目的猎捕野生动物", "w@1/a31/c2") == {"w@1/a50", "w@1/a31"}
    assert cite("以食用为目的猎捕野生动物", "w@1/a31/c3") == {"w@1/a50", "w@1/a31"}   # a focus the topic fits worse
    plan = SimpleNamespace(type="reasoning", route=both, question="x", topic="饭店经营使用野生动物制作的食品出售",
                           facts="饭店经营使用野生动物制作的食品出售", language="vi")
    assert set(by_roles(replace(c, plan=plan, focus={"w@1/a31": "w@1/a31/c3"}))[:2]) == {"w@1/a50", "w@1/a31"}  # zh only


def test_a_penalty_asked_with_no_sanction_among_the_leading_hits_cites_the_one_the_text_links_to_the_rule():
    """"…一口回绝了，什么支持都不给，有什么后果": the duty ranks first and no sanction ranks near it (its
    wording is far from the question's); the sanction of that version citing the duty ("违反本法第十条规定，
    拒不…的，处…罚款") is cited with it, found over the whole version -- the sanction first when only the
    penalty is asked. None is added when the text links none to the rule."""
    from workbench.core.records import Unit
    from workbench.retrieve.cite import asked_role
    from workbench.retrieve.route import Route
    from workbench.retrieve.sanctions import by_roles
    units = {"l@1/a10": "有关单位和个人应当配合调查，如实提供情况。", "l@1/a2": "国家建立调查工作制度。",
             "l@1/a3": "调查机关应当依法开展工作。", "l@1/a4": "调查人员应当出示证件。", "l@1/a5": "调查应当由两人以上进行。",
             "l@1/a30": "违反本法第十条规定，拒不配合调查的，由调查机关责令改正，处一万元以上五万元以下的罚款。",
             "l@1/a31": "违反本法第十一条规定的，处二万元罚款。"}
    units["l@1/a30/c1"] = units["l@1/a30"]              # the citing clause
    refs = {"l@1/a30": [("l@1/a30/c1", "l@1/a10")], "l@1/a31": [("l@1/a31", "l@1/a11")]}
    hits = ["l@1/a10", "l@1/a2", "l@1/a3", "l@1/a4", "l@1/a5"]

    def with_store(c):
        class Store:
            def _unit(self, i):
                return Unit(i, "l", "1", "article", text=units[i])

            def get(self, ids, vectors=False):
                return [self._unit(i) for i in ids if i in units]

            def where(self, f, limit=None):
                return [self._unit(i) for i in units if i.split("/")[0] in f.under and i.count("/") == 1][:limit]
        c.r.store = Store()
        c.r.articles = lambda doc: [Store()._unit(i) for i in units if i.split("/")[0] == doc and i.count("/") == 1]
        return c
    penalty = Route("reasoning", sanction=True, asks=("sanction",))
    c = with_store(_citing(units, hits, 3, qtype="reasoning", refs=refs, route=penalty))
    assert by_roles(c)[:2] == ["l@1/a30", "l@1/a10"]
    c = with_store(_citing(units, hits, 1, qtype="temporal", refs=refs, route=Route("temporal", sanction=True, asks=("sanction",))))
    assert asked_role(c, ["l@1/a10"]) == ["l@1/a30", "l@1/a10"]     # it cites the rule by number: the rule beside it
    restated = {"l@1/a30": [("l@1/a30/c1", "l@1/a10")]}               # restated, not cited by number
    c = with_store(_citing(units, hits, 1, qtype="temporal", refs={}, duties=restated,
                           route=Route("temporal", sanction=True, asks=("sanction",))))
    assert asked_role(c, ["l@1/a10"]) == ["l@1/a30", "l@1/a10"]     # found through the rule: the rule stays
    c = with_store(_citing(units, hits, 3, qtype="reasoning", refs={}, route=penalty))
    assert by_roles(c)[:1] == ["l@1/a10"] and "l@1/a30" not in by_roles(c)


def test_a_sanction_is_paired_with_a_rule_it_enforces_not_with_a_definition_it_cites():
    """A sanction citing the rule it enforces (not retrieved) and the law's definition of its party
    (retrieved, last): no pair is made with the definition, whether the duty is asked or not."""
    from workbench.retrieve.sanctions import by_roles
    from workbench.retrieve.route import Route
    units = {"l@1/a68": "违反本法规定，有下列情形之一的，处五千元罚款：（一）未建立管理制度。",
             "l@1/a40": "生产企业应当建立管理制度。", "l@1/a2": "本法所称生产企业，是指从事生产活动的企业。"}
    hits = ["l@1/a68", "l@1/a75", "l@1/a73", "l@1/a74", "l@1/a66", "l@1/a54", "l@1/a60", "l@1/a61", "l@1/a2"]
    units.update({h: "处罚款。" for h in hits if h not in units})
    refs = {"l@1/a68": [("l@1/a68", "l@1/a40"), ("l@1/a68", "l@1/a2")]}
    for asks in (("sanction",), ("obligation", "sanction")):
        c = _citing(units, hits, 3, qtype="reasoning", refs=refs, route=Route("reasoning", sanction=True, asks=asks))
        assert by_roles(c) == ["l@1/a68"]

"""Who imposes a penalty (retrieve/sanctions.py `with_imposer`, asked.WHO_IMPOSES): pure logic over fake
units, with test_cite.py's citing context."""
from test_cite import _citing


def test_who_imposes_the_penalty_cites_the_provision_assigning_it():
    """"处罚由谁决定": a sanction naming no body ("…的，依法给予处罚") is cited with the provision assigning
    its imposition ("第六十七条规定的处罚，由…作出处罚决定"); a sanction naming its body answers alone, and
    a question not asking who imposes it cites no more."""
    from workbench.retrieve.route import Route
    from workbench.retrieve.asked import WHO_IMPOSES
    from workbench.retrieve.sanctions import NAMES_IMPOSER, with_imposer
    units = {"c@1/a67": "有服兵役义务的公民拒绝、逃避兵役登记的，依法给予处罚。",
             "c@1/a11": "兵役机关应当适时发布兵役登记公告。",
             "c@1/a71": "本条例第六十七条规定的处罚，由县级以上地方人民政府兵役机关会同有关部门查明事实，"
                        "经同级地方人民政府作出处罚决定后执行。",
             "c@1/a30": "未经定点从事生猪屠宰活动的，由农业农村主管部门责令关闭，并处五万元以上十万元以下的罚款。"}
    route = Route("reasoning", sanction=True, asks=("sanction",))

    def cite(hits, cited, question):
        c = _citing(units, hits, 3, route=route, qtype="reasoning")
        c.plan.question = question
        c.r.store.where = lambda *a, **k: []
        return with_imposer(c, cited)
    hits = ["c@1/a67", "c@1/a11", "c@1/a71"]
    assert cite(hits, ["c@1/a67", "c@1/a11"], "拒不登记会怎样，处罚由谁决定？") == ["c@1/a67", "c@1/a11", "c@1/a71"]
    assert cite(hits, ["c@1/a67", "c@1/a11"], "拒不登记会怎样？") == ["c@1/a67", "c@1/a11"]
    assert cite(["c@1/a30", "c@1/a71"], ["c@1/a30"], "私屠滥宰的罚款由哪个部门决定？") == ["c@1/a30"]
    # the assigning provision cited already; one of another version is not this sanction's
    assert cite(hits, ["c@1/a67", "c@1/a71"], "处罚由谁决定？") == ["c@1/a67", "c@1/a71"]
    units["c@2/a71"] = units["c@1/a71"]
    assert cite(["c@1/a67", "c@2/a71"], ["c@1/a67"], "处罚由谁决定？") == ["c@1/a67"]
    for q in ("处罚由哪个机关具体办理？", "由哪个部门处罚、依据什么处罚？", "Which authority may impose the fine?", "谁有权罚款？"):
        assert WHO_IMPOSES.search(q), q
    for q in ("罚款由谁缴纳？", "申请由哪个部门审批？", "会被怎么处罚？", "登记由谁办理？", "由谁决定是否续签劳动合同？",
              "Which authority issues the licence?", "Which body decides an appeal against the fine?"):
        assert not WHO_IMPOSES.search(q), q
    assert NAMES_IMPOSER.search("…屠宰的，农业农村主管部门责令关闭，并处罚款")      # the body as the subject
    assert not NAMES_IMPOSER.search("由责任人依法承担赔偿责任") and not NAMES_IMPOSER.search("由于过失…依法给予处分")


def test_who_imposes_is_asked_where_the_decision_reads_as_a_document():
    """"处罚决定应当由哪个机关作出": the decision is what is asked about (who makes it), not a penalty among the
    facts -- the question asks for a sanction; "处罚决定书应当载明哪些事项" (the document's contents) asks none,
    nor does a question about appealing a fine; a court deciding the fine asks who imposes it."""
    from workbench.retrieve.asked import asked_roles
    for q in ("处罚决定应当由哪个机关作出？", "罚款决定由谁作出？", "Which court decides the fine?"):
        assert "sanction" in asked_roles(q), q
    for q in ("处罚决定书应当载明哪些事项？", "对罚款不服，应当向哪个机关申请复议？", "Which court decides the appeal?",
              "对哪个部门作出的处罚决定不服，应当向谁申请复议？",
              "Which body decides an appeal against the fine?"):
        assert "sanction" not in asked_roles(q), q

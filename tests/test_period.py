"""A period asked and the provision stating one (retrieve/cite.py `asked_period`, retrieve/asked.py
`ASKS_PERIOD`, `states_period`): pure logic over fake units, with test_cite.py's citing context."""
from test_cite import _citing


def test_asked_how_long_a_provision_stating_a_period_is_cited():
    """"复议机关应当在多长时间内作出复议决定": the best hit (on the simplified procedure's conditions) states no period;
    the next one stating one ("三十日内") is cited instead -- not when the period is only among the facts ("到了判决
    规定的期限"), nor when the best hit states one already, nor in a comparison."""
    from dataclasses import replace
    from types import SimpleNamespace
    from workbench.retrieve.cite import asked_period
    from workbench.retrieve.route import Route
    units = {"f@1/a53": "行政复议机关审理下列行政复议案件，认为事实清楚、争议不大的，可以适用简易程序。",
             "f@1/a54": "适用简易程序审理的行政复议案件，可以书面审理。",
             "f@1/a62": "适用简易程序审理的行政复议案件，行政复议机关应当自受理申请之日起三十日内作出行政复议决定。"}
    c = _citing(units, ["f@1/a53", "f@1/a54", "f@1/a62"], 1, qtype="precise")

    def ask(question, qtype="precise", cited=("f@1/a53",)):
        plan = SimpleNamespace(type=qtype, route=Route(qtype), question=question, language="zh")
        return asked_period(replace(c, plan=plan), list(cited))
    assert ask("适用简易程序审理的，复议机关应当在多长时间内作出复议决定？") == ["f@1/a62"]
    assert ask("到了规定的期限还没作出决定，适用简易程序的条件是什么？") == ["f@1/a53"]
    assert ask("适用简易程序审理的，多久作出决定？", cited=("f@1/a62",)) == ["f@1/a62"]
    assert ask("两个版本在多长时间内作出决定上有何不同？", qtype="version_diff") == ["f@1/a53"]
    plan = SimpleNamespace(type="precise", route=Route("precise", sanction=True), language="zh",
                           question="适用简易程序审理的，多长时间内作出决定？逾期怎么处罚？")
    assert asked_period(replace(c, plan=plan), ["f@1/a53"]) == ["f@1/a53"]                  # a penalty asked
    plan = SimpleNamespace(type="precise", route=Route("precise"), language="en", question="多长时间内作出决定？")
    assert asked_period(replace(c, plan=plan), ["f@1/a53"]) == ["f@1/a53"]                  # Chinese only
    stated = {**units, "f@1/a53": units["f@1/a53"] + "申请人应当在十五日内补正。"}
    c2 = _citing(stated, ["f@1/a53", "f@1/a54", "f@1/a62"], 1, qtype="precise")
    plan = SimpleNamespace(type="precise", route=Route("precise"), language="zh", question="多长时间内作出决定？")
    assert asked_period(replace(c2, plan=plan), ["f@1/a53"]) == ["f@1/a53"]                 # the best states one
    deferring = {**units, "f@1/a53": "适用简易程序的，审理期限应当符合本法第六十二条的规定。"}
    c3 = _citing(deferring, ["f@1/a53", "f@1/a54", "f@1/a62"], 1, qtype="precise",
                 refs={"f@1/a53": [("f@1/a53", "f@1/a62")]})
    assert asked_period(replace(c3, plan=plan), ["f@1/a53"]) == ["f@1/a53"]                 # its period by reference
    assert asked_period(replace(c3, plan=plan, r=SimpleNamespace(**{**vars(c3.r), "ref_index": lambda: {}})),
                        ["f@1/a53"]) == ["f@1/a62"]


def test_a_period_asked_and_a_period_stated():
    """The asking forms of a period, not facts that mention one ("几天前", "近几年", "判了几年", "到了…期限"); a period a
    provision states, not a date ("自2021年1月1日起施行") or an ordinal day ("第三十日")."""
    from workbench.retrieve.asked import ASKS_PERIOD, states_period
    for q in ("应当在多长时间内作出决定？", "多久审核一次？", "几个工作日内答复？", "最长能约定多少年内缴清？", "时限是多少？",
              "有效期多长？", "应当在多少小时内报告？"):
        assert ASKS_PERIOD.search(q), q
    for q in ("几天前他收到通知，怎么处理？", "近几年情况有何变化？", "被判了几年有期徒刑，还要交罚金吗？",
              "到了判决规定的期限还不交，法院会怎么办？", "员工请了几天假，公司能扣工资吗？"):
        assert not ASKS_PERIOD.search(q), q
    for t in ("应当自受理之日起三十日内作出决定。", "保存期限不得少于二年。", "每年审核一次。", "5个工作日内", "保存二十年。",
              "本法自2021年1月1日起施行。保存十五年。"):
        assert states_period(t), t
    for t in ("本法自2021年1月1日起施行。", "二〇二一年公布", "在第三十日届满。", "编制年度报告。"):
        assert not states_period(t), t

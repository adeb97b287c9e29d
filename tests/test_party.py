"""The party a penalty falls on (retrieve/party.py): pure logic over fake units, with test_cite.py's
citing context."""
from test_cite import _citing


def test_kinds_of_party_by_their_head_noun():
    from workbench.retrieve.party import kind_of_party, sanctioned_party
    assert kind_of_party("该董事") == "person" and kind_of_party("这家企业") == "org" and kind_of_party("某研究所") == "org"
    assert kind_of_party("监察机关") == "official" and kind_of_party("执法人员") == "official"
    assert kind_of_party("台风") is None and kind_of_party("") is None
    assert sanctioned_party("依托单位有下列情形之一的，由基金管理机构给予警告") == "org"
    assert sanctioned_party("项目负责人、参与者有下列行为之一的，由基金管理机构给予警告") == "person"
    assert sanctioned_party("监察机关及其工作人员有下列行为之一的，对负有责任的领导人员依法给予处理") == "official"
    assert sanctioned_party("违反本法规定，有关人员有下列行为之一的，责令改正") == "person"
    assert sanctioned_party("单位或者个人违反本法规定，不服从所在地人民政府的决定的，责令改正") is None    # two kinds
    assert sanctioned_party("违反本法规定，编造并传播虚假信息的，责令改正") is None                            # none named
    assert sanctioned_party("县级以上人民政府有关部门在消防工作中有下列行为之一的") == "official"          # 以上 no verb
    assert sanctioned_party("负有监督管理职责的部门的工作人员，有下列行为之一的") == "official"
    # staff of a business are no officials; courts and police are; role nouns and self-governing bodies are of no kind
    assert kind_of_party("银行工作人员") == "person" and kind_of_party("人民法院") == "official" and kind_of_party("民警") == "official"
    assert kind_of_party("张某") == "person" and kind_of_party("个体工商户") == "person"
    assert kind_of_party("经营者") is None and kind_of_party("村民委员会") is None
    from workbench.retrieve.party import punished_parties
    assert punished_parties("单位违反本法规定的，对单位处十万元以上罚款，对直接负责的主管人员处一万元以上罚款") == {"org", "person"}
    assert punished_parties("有关部门不履行法定职责的，对直接负责的主管人员依法给予处分") == {"official"}   # its own staff
    # a modal or 并 before the penalty verb, a criminal fine (判处)
    assert punished_parties("违反本法规定的，对单位可以并处二十万元以下的罚款，对其直接负责的主管人员和其他直接责任人员可以处五万元以下"
                            "的罚款") == {"org", "person"}
    assert punished_parties("单位犯本罪的，对单位判处罚金，并对其直接负责的主管人员定罪处罚") == {"org"}


def test_the_party_a_question_asks_about():
    from workbench.retrieve.party import asked_party
    assert asked_party("2025年8月20日，一所大学没有报基金委批准，就擅自更换了项目负责人。学校可能面临哪些处罚？") == "org"
    assert asked_party("一家证券公司的董事销毁了业务资料。对该董事应如何处罚？") == "person"
    assert asked_party("调查期间，企业的会计把凭证碎掉了。她违反了什么义务，会被怎么处理？") == "person"   # a pronoun
    assert asked_party("某研究所未经批准，自行更换了项目负责人。按当时的规定会怎么罚？") == "org"           # the first actor
    assert asked_party("拒不执行命令的，怎么处罚？") is None
    # the body punishing is not the party punished; a pronoun refers back to the actor; the last asking clause decides
    assert asked_party("市场监管部门对该公司作出什么处罚？") == "org"
    assert asked_party("公安机关将依法处罚张某吗？") == "person"
    assert asked_party("一名国家工作人员收受贿赂，他会受到什么处罚？") == "official"
    assert asked_party("该公司被市场监管局罚款后，法定代表人还会被处罚吗？") == "person"
    assert asked_party("会" * 5000) is None          # no quadratic scan
    assert asked_party("企业未按规定采取预防措施，2007年版和2024年版在处罚上有什么不同？") == "org"   # no party after 处罚


def test_a_sanction_on_another_kind_of_party_gives_way_to_its_sibling():
    """"学校可能面临哪些处罚": the institution's sanction, not the project leader's ranked above it; a sibling
    of another version, one cited already, or a question naming no party changes nothing."""
    from workbench.retrieve.party import by_party
    from workbench.retrieve.route import Route
    units = {"f@1/a37": "项目负责人、参与者有下列行为之一的，由基金管理机构给予警告，暂缓拨付资金：（一）擅自变更研究方向的；",
             "f@1/a38": "依托单位有下列情形之一的，由基金管理机构给予警告，责令限期改正：（一）未经批准更换项目负责人的；",
             "f@2/a38": "依托单位有下列情形之一的，由基金管理机构给予警告，责令限期改正：（一）未经批准更换项目负责人的；",
             "f@1/a20": "依托单位应当履行下列职责：（一）组织申请人申请国家自然科学基金资助；"}
    route = Route("temporal", sanction=True, asks=("sanction",))

    def cite(hits, cited, question):
        c = _citing(units, hits, 2, route=route, qtype="temporal")
        c.plan.question = question
        return by_party(c, cited)
    school = "一所大学擅自更换了项目负责人，学校可能面临哪些处罚？"
    assert cite(["f@1/a37", "f@1/a38", "f@1/a20"], ["f@1/a37"], school) == ["f@1/a38"]
    assert cite(["f@1/a37", "f@2/a38", "f@1/a20"], ["f@1/a37"], school) == ["f@1/a37"]           # another version
    assert cite(["f@1/a37", "f@1/a38"], ["f@1/a37", "f@1/a38"], school) == ["f@1/a37", "f@1/a38"]
    assert cite(["f@1/a37", "f@1/a38"], ["f@1/a37"], "擅自更换项目负责人，怎么处罚？") == ["f@1/a37"]
    assert cite(["f@1/a37", "f@1/a38"], ["f@1/a37"], "Which penalty does the institution face?") == ["f@1/a37"]
    # a sanction on a business and its managers at once answers a question about either
    units["f@1/a50"] = "单位违反本条例规定的，对单位处十万元以上罚款，对直接负责的主管人员处一万元以上罚款。"
    units["f@1/a51"] = "个人违反本条例规定的，处五千元以下罚款。"
    assert cite(["f@1/a50", "f@1/a51"], ["f@1/a50"], "对直接负责的主管人员应如何处罚？") == ["f@1/a50"]


def test_asked_about_a_unit_and_its_people_the_penalty_following_on_for_the_other_is_cited_too():
    """"基金会和这位秘书长分别可能受到什么处理": the foundation's sanction and the one following on it for the
    persons responsible -- found by its citation of the first, or by the licence the first revokes; not a
    sanction following on nothing cited, nor when one party is asked, or the cited sanction punishes both."""
    from workbench.retrieve.party import asked_parties, with_other_party
    from workbench.retrieve.route import Route
    assert asked_parties("公司和老板分别怎么处理？") == {"org", "person"}
    assert asked_parties("这家屠宰厂及其法定代表人会有什么后果？") == {"org", "person"}
    assert asked_parties("承运人和屠宰厂分别怎么处理？") == set()            # a role noun is of no kind
    assert asked_parties("甲公司和乙公司分别怎么处理？") == set()            # one kind
    assert asked_parties("某厂与其员工被举报非法排污。工厂会面临什么处罚？") == set()   # a pair among the facts
    assert asked_parties("公司和老板受到举报后仍不整改。工厂会面临什么处罚？") == set()
    assert asked_parties("张某与该公司有什么关系？") == set()               # no consequence asked
    units = {"c@1/a110": "慈善组织有下列情形之一的，由民政部门责令限期改正，予以警告：（一）指定利害关系人作为受益人的；",
             "c@1/a111": "慈善组织违反本法第一百一十条规定，情节严重的，由民政部门吊销登记证书。",
             "c@1/a112": "慈善组织有本法第一百一十条规定情形的，由民政部门对直接负责的主管人员处二万元以上二十万元以下罚款。",
             "c@1/a113": "志愿者违反本法规定的，由民政部门对直接负责的主管人员处二万元以下罚款。",
             "c@1/a114": "慈善组织有本法第一百一十条规定情形的，由民政部门对其负责人处五万元以下罚款。",
             "c@1/a120": "民政部门依照本法第一百一十条查处的，应当将处理结果告知直接负责的主管人员。",
             "c@1/a130": "民政部门对本法第一百一十条规定的情形不予查处的，对直接负责的主管人员依法给予处分。",
             "c@1/a59": "慈善组织确定慈善受益人，不得指定慈善组织管理人员的利害关系人作为受益人。",
             "c@1/a60": "慈善组织和其负责人违反本法第五十九条规定的，对慈善组织处五万元罚款，对其负责人处一万元罚款。",
             "p@1/a31": "生猪定点屠宰厂出借生猪定点屠宰证书的，由设区的市级人民政府吊销生猪定点屠宰证书。",
             "p@1/a38": "生猪定点屠宰厂被吊销生猪定点屠宰证书的，其法定代表人5年内不得申请生猪定点屠宰证书。",
             "p@1/a39": "生猪定点屠宰厂被吊销营业执照的，其法定代表人3年内不得担任负责人。",
             "p@2/a38": "生猪定点屠宰厂被吊销生猪定点屠宰证书的，其法定代表人5年内不得申请生猪定点屠宰证书。"}
    refs = {"c@1/a111": [("c@1/a111/c1", "c@1/a110")], "c@1/a112": [("c@1/a112/c1", "c@1/a110")],
            "c@1/a113": [("c@1/a113/c1", "c@1/a59")], "c@1/a114": [("c@1/a114/c1", "c@1/a110")],
            "c@1/a120": [("c@1/a120/c1", "c@1/a110")], "c@1/a130": [("c@1/a130/c1", "c@1/a110")]}

    def cite(hits, cited, question, sanction=True):
        c = _citing(units, hits, 2, route=Route("reasoning", sanction=sanction, asks=("sanction",)), qtype="reasoning",
                    refs=refs)
        c.plan.question = question
        c.r.articles = lambda doc: [u for u in c.r.store.get(sorted(units)) if u.id.startswith(doc + "/")]
        return with_other_party(c, cited)
    both = "某基金会秘书长把亲外甥列为受益人。基金会和这位秘书长分别可能受到什么处理？"
    # the person's sanction following on the cited one, not one following on a cited rule (a113 on a59), a rule
    # citing it (a120), one of the kind already punished (a111), nor a public body's staff's (a130)
    hits = ["c@1/a110", "c@1/a59", "c@1/a113", "c@1/a120", "c@1/a111", "c@1/a130", "c@1/a112"]
    assert cite(hits, ["c@1/a110", "c@1/a59"], both) == ["c@1/a110", "c@1/a59", "c@1/a112"]
    # of two following on it, the better-ranked; one only
    assert cite(["c@1/a110", "c@1/a114", "c@1/a112"], ["c@1/a110"], both) == ["c@1/a110", "c@1/a114"]
    assert cite(["c@1/a110", "c@1/a112", "c@1/a114"], ["c@1/a110"], both) == ["c@1/a110", "c@1/a112"]
    assert cite(hits, ["c@1/a110", "c@1/a112"], both) == ["c@1/a110", "c@1/a112"]       # cited already
    assert cite(hits, ["c@1/a60"], both) == ["c@1/a60"]                  # it punishes both
    assert cite(hits, ["c@1/a59"], both) == ["c@1/a59"]                  # no sanction cited
    assert cite(hits, ["c@1/a110"], "某基金会把亲外甥列为受益人。基金会会受到什么处理？") == ["c@1/a110"]
    assert cite(hits, ["c@1/a110"], both, sanction=False) == ["c@1/a110"]
    assert cite(hits, ["c@1/a110"], "The foundation and its secretary-general: what penalties?") == ["c@1/a110"]
    assert cite(["c@1/a113"], ["c@1/a113"], both) == ["c@1/a113"]          # nothing follows on it
    # by the licence the cited sanction revokes, in its version: not another licence (a39), not another version
    pig = "这家屠宰厂及其法定代表人会有什么后果？"
    assert cite(["p@1/a39", "p@1/a31", "p@2/a38"], ["p@1/a31"], pig) == ["p@1/a31", "p@1/a38"]
    units["p@1/a31"] = "生猪定点屠宰厂出借生猪定点屠宰证书的，处五万元以下罚款。"
    assert cite(["p@1/a31", "p@1/a38"], ["p@1/a31"], pig) == ["p@1/a31"]
    units["p@2/a31"] = "生猪定点屠宰厂出借生猪定点屠宰证书的，由设区的市级人民政府吊销生猪定点屠宰证书。"
    assert cite(["p@1/a31", "p@2/a31", "p@1/a38", "p@2/a38"], ["p@1/a31", "p@2/a31"], pig) == \
        ["p@1/a31", "p@2/a31", "p@2/a38"]                                 # the licence revoked in its own version

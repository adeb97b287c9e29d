"""The question plan (retrieve/plan.py): defined terms a question names, and two versions
asked about together."""
from workbench.retrieve.route import classify


def test_defined_terms_in_a_question_are_whole_words():
    """A defined term names itself in an English or Vietnamese question as whole words ("tin"
    is not in "continuing"); Chinese has no word breaks. Only the longest of nested terms."""
    from workbench.retrieve.plan import _terms
    q = "What is the definition of continuing obligations?"
    assert _terms(q, classify(q), {"tin": ["a"], "continuing obligations": ["b"]}) == ("continuing obligations",)
    q = "“食品添加剂”的定义是什么？"
    assert _terms(q, classify(q), {"食品添加剂": ["a"], "添加剂": ["b"]}) == ("食品添加剂",)
    q = "Người lao động là gì?"
    assert _terms(q, classify(q), {"người lao động": ["a"], "lao": ["b"], "ngư": ["c"]}) == ("người lao động",)


def test_two_versions_asked_together_not_a_year_that_dates_an_event():
    from workbench.retrieve.plan import BOTH
    assert BOTH.search("2008年和2021年两版《生猪屠宰管理条例》分别怎么罚？")
    assert BOTH.search("How do the 2012 and 2018 Acts treat inspections?")
    assert not BOTH.search("Under the 2018 Clinic Licensing Act, what happens to a licence granted under the Act of 2012?")
    # two years each written as a version, in separate clauses, also name two versions
    from workbench.retrieve.plan import version_years
    assert version_years("在2020年版《条例》里会被处罚；2022年版还这样规定吗？") == {"2020", "2022"}
    assert version_years("2019年5月，某公司依2021年修订本申请") == {"2021"}
    assert version_years("2020年本市发生…，2022年本公司…；2021年版权") == set()
    assert version_years("the 2012 version, as the 2012 version said") == {"2012"}


def test_asking_what_differs_compares_versions_differential_pricing_does_not():
    """"2009年的办法和现行办法…有什么差别" asks a comparison (as 有什么不同 does); 差别 in 差别定价 /
    差别待遇 (differential pricing / treatment) compares nothing, and a year dating an event beside
    the current law names no second version."""
    from workbench.retrieve.route import classify
    assert classify("2009年的办法和现行办法在罚款上有什么差别？").type == "version_diff"
    assert classify("某平台对条件相同的用户实行差别定价，依照现行法律会受到什么处罚？").type == "reasoning"
    assert classify("某公司在2018年至2021年间实行差别定价，会受到什么处罚？").type == "reasoning"
    assert classify("2019年3月1日，某公司实行差别待遇，应当如何处罚？").type == "temporal"
    assert classify("2015年设立的公司变更名称，按现行《公司法》应当办理什么手续？").type != "version_diff"
    # 异同 / 有何变动 ask a comparison; 变动 or 对比 among the facts do not
    assert classify("现行《统计法》与2009年版有何异同？").type == "version_diff"
    assert classify("对比现行条例和2001年版，罚款有什么变动？").type == "version_diff"
    assert classify("2020年5月1日，商品价格变动后，经营者应当如何标价？").type == "temporal"
    assert classify("两个公司对比价格后统一涨价，应如何处罚？").type == "reasoning"
    # one revision asked about by what it changed (a wh-word before the change or on it) compares it with
    # the version before; a change only stated, or asked yes-or-no, does not
    assert classify("2016年修订的《生猪屠宰管理条例》对哪些条文作了实质性修改？").type == "version_diff"
    assert classify("2016年的修订对备案要求作出了哪些调整？").type == "version_diff"
    assert classify("2016年作了修改后的条例第五条规定了什么？").type == "precise"
    assert classify("某公司作了哪些工作才取得许可？").type != "version_diff"
    assert classify("国务院可以对哪些事项作出调整？").type != "version_diff"        # a power to adjust, not a change made
    assert classify("公司对哪些员工作了调整？").type != "version_diff"              # a change, but of no revision
    # a revising word alone names no revision of a law: what was revised must be one (or a year / version named)
    assert classify("董事会对公司章程作了哪些修改？").type != "version_diff"
    for q in ("董事会对公司章程作了哪些修改？是否需要承担法律责任？", "公司的法律顾问对合同作了哪些修改？",
              "公司对薪酬管理办法作了哪些修改？", "双方依照《民法典》对合同作了哪些修改？"):
        assert classify(q).type != "version_diff", q     # a law named elsewhere in the question, not as what changed
    assert classify("某公司对员工手册作了哪些修订？").type != "version_diff"
    for q in ("食品安全法修订时对网络食品交易作了哪些修改？", "该条例修订时对哪些条文作了修改？", "本法修正时新增了哪些条文？"):
        assert classify(q).type == "version_diff", q
    # the change as the verb or as what was made, in each language, with a revision named
    for q in ("2016年修订《生猪屠宰管理条例》时改了什么？", "《生猪屠宰管理条例》2011年修订有哪些修改？",
              "2021年修订的条例对罚款数额修改了哪些内容？", "What did the 2015 amendment of the Food Safety Law change?",
              "What was changed by the 2018 revision?", "Luật sửa đổi năm 2019 đã sửa đổi, bổ sung những nội dung nào?",
              "How did the fine for operating without a licence change in the 2018 revision of the Act?",
              "Mức phạt đã thay đổi như thế nào trong lần sửa đổi năm 2019?"):
        assert classify(q).type == "version_diff", q
    assert classify("How did the applicant change the form in 2019?").type != "version_diff"
    # ... not a change of something else, nor with no version named as such (a year may date the facts)
    for q in ("公司改了什么名字才能登记？", "What did the applicant change in the form?",
              "公司修改了哪些章程条款需要办理变更登记？", "合同双方修改了哪些条款需要报批？",
              "2019年某公司变更了哪些登记事项需要备案？", "2020年某市调整了哪些收费标准？",
              "2019年某人篡改了哪些监测数据，应如何处罚？",
              "What changes does the Act require when a licence is amended in 2019?",
              "What was amended in the licence conditions under the Clinic Licensing Act?",
              "Công ty sửa đổi những nội dung nào của điều lệ thì phải đăng ký thay đổi?"):
        assert classify(q).type != "version_diff", q
    from workbench.retrieve.route import asked_provisions
    assert asked_provisions("2021年版新增了哪些条文？") == "added" and asked_provisions("2018年修订后新增了哪些条件？") == ""
    assert classify("企业新增了哪些股东需要备案？").provisions == ""
    # the versions quantified over, or the revisions a provision went through: its history
    for q in ("《道路运输条例》第三十九条在三个版本中有什么变化？", "关于私自屠宰的处罚从1997年到2021年经历了哪些变化？",
              "How was section 5 changed across all versions?", "Điều 5 được sửa đổi thế nào qua các phiên bản?"):
        assert classify(q).type == "version_diff" and classify(q).history, q
    assert not classify("两个版本的第十条有什么不同？").history      # two versions: a comparison


def test_the_noun_sanction_asks_a_penalty_the_verb_approves():
    """"What sanctions apply…" asks a penalty; "a court order sanctioning a Transfer Scheme"
    approves one (English morphology, not a phrase of any question set)."""
    from workbench.retrieve.route import asked_roles
    assert "sanction" in asked_roles("What sanctions may the Regulator impose for a breach of Rule 3.2?")
    assert "sanction" not in asked_roles("How is a court order sanctioning a Transfer Scheme obtained?")
    assert "sanction" not in asked_roles("Which schemes has the Court sanctioned?")


def test_holding_a_party_to_account_asks_a_penalty():
    """"追责", "追究…责任": the words a sanction itself uses (parse/roles.py) ask for one."""
    from workbench.retrieve.route import asked_roles
    assert "sanction" in asked_roles("某企业拖欠货款不付，有关负责人会怎么被追责？")
    assert "sanction" in asked_roles("伪造检验记录的，还会追究刑事责任吗")
    assert "sanction" in asked_roles("公司擅自生产的，还会追究主管人员的责任吗？")
    assert "sanction" not in asked_roles("企业应当建立追溯制度，记录哪些信息？")
    assert "sanction" not in asked_roles("事故调查组如何追究原因、认定责任？")        # two clauses
    assert "sanction" not in asked_roles("建立健全追责问责机制由哪个部门负责？")       # the noun
    # ... but the provision of liability named as such is asked for
    assert "sanction" in asked_roles("两个版本在追责条款上写法有什么不一样？")
    assert "sanction" in asked_roles("网吧违规的罚则在新旧版本里分别是第几条？")
    assert "sanction" not in asked_roles("合同的违约责任条款应当如何约定？")          # a contract's clause
    assert asked_roles("该员工已被追究刑事责任，公司还需要履行哪些义务？") == ("obligation",)   # imposed already


def test_a_yes_no_question_about_a_change_is_told_from_one_asking_what_changed():
    """A comparison of two versions asking whether something changed does not presume that it
    did (the counterparts are the answer either way); one asking what changed does."""
    polar = ["2015年版和2021年版的第十条内容有无变化？", "两版罚则有没有实质变化？分别在第几条？", "这一条修改了吗",
             "2015年版是否修改了登记程序？", "Did the 2018 version change the filing deadline?",
             "Under the 2015 Rules, has the fee changed?", "State whether the 2015 Rules changed the fee.",
             "Quy định này có thay đổi không?", "Quy định này đã được sửa đổi chưa?",
             # a wh-word that asks nothing: 任何, "有什么变化吗" (any), "có gì mới không", inside what the auxiliary governs
             "两版之间是否有任何变化？", "2021年版对收费有什么变化吗？", "第十条修改了没有？", "Quy định này có gì mới không?",
             "Did the 2021 version change who may apply?", "Has the fee changed, and what is it now?"]
    asking = ["与2015年版相比，2021年版对登记程序有何变化？", "2021年修订删掉了什么程序？",
              "What changed in the 2018 version about the filing deadline?",
              "Quy định về thời hạn thay đổi thế nào?", "新增了什么？",
              # a yes-no word inside a clause that asks something else
              "关于是否需要办理许可证的规定，2021年版作了哪些修改？", "What changed on whether a licence is required?",
              "Doanh nghiệp có vốn nhà nước không quá 50% phải làm gì?", "What must a firm do?",
              "In 2015, what did the Rules require?"]
    assert all(classify(q).polar for q in polar), [q for q in polar if not classify(q).polar]
    assert not any(classify(q).polar for q in asking), [q for q in asking if classify(q).polar]


def test_requirements_asked_about_ask_a_duty_a_request_among_the_facts_does_not():
    from workbench.retrieve.route import asked_roles
    for q in ("对检查人员有何要求？", "停放要求有何变化？", "2015年食品安全法第四十四条对食品安全管理人员有什么要求？",
              "现行条例要求至少保存多久？", "对采砂船舶停放的要求以及违反停放要求的罚则作了哪些改变？"):
        assert "obligation" in asked_roles(q), q
    for q in ("消费者依法要求经营者赔偿，可以主张多少？", "应客户的要求派保安员讨债，承担什么责任？", "业主有什么权利要求物业退款？",
              "未按照环评文件的要求建设，会受到什么处罚？", "向哪些部门要求赔偿？", "一名船员劳动合同到期，要求回国，公司会受到什么处理？",
              "对未按照环评文件的要求建设的行为如何处罚？", "对未按照条例要求停放采砂船舶的处罚有何变化？", "如何要求商家赔偿？",
              "对方的要求合理吗？"):
        assert "obligation" not in asked_roles(q), q


def test_a_public_body_named_in_a_question():
    from workbench.retrieve.route import BODY
    for q in ("负责全国生猪屠宰行业管理的部门有何变化", "由哪个机关决定", "公安局负责", "which authority approves",
              "Ủy ban nhân dân cấp tỉnh", "UBND cấp tỉnh", "Bộ Y tế quy định", "由谁负责行业管理", "证监会", "the regulators"):
        assert BODY.search(q), q
    for q in ("部门规章有何变化", "开办驾校的准入方式有何变化", "布局", "the board of directors", "chủ sở hữu nhà ở"):
        assert not BODY.search(q), q


def test_asking_whether_an_act_is_lawful_asks_for_the_rule():
    """"这样做合法吗？会受到什么处理？": the rule requiring or forbidding the act answers the first
    question, its sanction the second; "可以吗" alone, or where one may apply, asks no rule."""
    from workbench.retrieve.route import asked_roles
    for q in ("公司这样做合法吗？会受到什么处理？", "这样做可以吗？会面临什么处罚？", "船主的行为违法吗？怎么处罚？",
              "这种做法是否合法？", "Is it lawful for a firm to keep the records abroad?", "Việc này có hợp pháp không?"):
        assert "obligation" in asked_roles(q), q
    for q in ("可以吗", "某人可以在哪里申请？", "该合同是否合法有效？", "没收的款项是否违法所得？",
              "Is this legal advice privileged?", "Doanh nghiệp có được phép nộp hồ sơ trực tuyến không?"):
        assert "obligation" not in asked_roles(q), q


def test_the_duties_of_a_party_asked_with_what_is_ask_a_duty_not_a_meaning():
    """"X là gì" asks what X means -- unless X is the duties *of* a party: then what a provision
    requires of it is asked; a term holding the word (thời hiệu truy cứu trách nhiệm hình sự) is
    still defined."""
    assert classify("Trách nhiệm của Bộ Y tế trong việc phòng, chống ma túy là gì?").type == "precise"
    assert classify("What are the duties of the Regulator?").type == "precise"
    assert classify("经营者的义务是什么？").type == "precise"
    assert classify("Thời hiệu truy cứu trách nhiệm hình sự là gì?").type == "definition"
    assert classify("Nghĩa vụ của người lao động được hiểu là gì?").type == "definition"   # a meaning asked outright
    assert classify("What is a licensee?").type == "definition"
    assert classify("现行食品安全法中的“预包装食品”是什么意思？").type == "definition"
    assert classify("食品安全法如何界定“食品添加剂”？").type == "definition"


def test_a_question_asking_the_name_of_a_described_concept_seeds_no_term_inside_the_description():
    """"Tài sản mà chủ sở hữu đã từ bỏ quyền sở hữu … được gọi là gì?" describes a concept and asks
    its name: "chủ sở hữu" inside the description is not the term asked for, so its definition is
    not looked up; asked what a term means, it is."""
    from workbench.retrieve.plan import _terms
    terms = {"chủ sở hữu": ["a"], "tài sản": ["b"]}
    q = "Tài sản mà chủ sở hữu đã từ bỏ quyền sở hữu đối với tài sản đó được gọi là gì?"
    assert _terms(q, classify(q), terms) == ()
    q = "Chủ sở hữu là gì?"
    assert _terms(q, classify(q), terms) == ("chủ sở hữu",)
    q = "一方当事人以欺诈手段订立合同的行为叫什么？"
    assert _terms(q, classify(q), {"合同": ["c"]}) == ()
    q = "What is a licence holder under the rules called?"
    assert _terms(q, classify(q), {"licence": ["d"]}) == ()


def test_an_event_dated_by_its_year_alone_reads_the_law_of_that_time():
    """"2009年，…依照当时的条例" asks the law in force then: mid-year (no month or day to tell a
    version that took effect that year); a year naming a version, or no "then", is no date."""
    import datetime as dt
    r = classify("2009年，某屠宰厂出厂未经检验的生猪产品，依照当时的条例应如何处罚？")
    assert r.type == "temporal" and r.as_of == dt.date(2009, 7, 1)
    assert classify("In 2015, a clinic operated without a licence. What fine applied at the time?").as_of == dt.date(2015, 7, 1)
    assert classify("依照2009年版条例，当时的罚款是多少？").as_of is None
    assert classify("2009年某屠宰厂出厂未经检验的生猪产品，应如何处罚？").as_of is None
    assert classify("2020年，用人单位应当时刻注意哪些安全事项？").as_of is None        # 应当时刻: no "then"


def test_a_comparison_with_no_topic_asks_for_the_whole_step():
    """A comparison saying nothing but that something changed asks what the revision changed, all
    of it (plan.whole_step -> Route.provisions "changed"); one naming what it is about does not."""
    from workbench.retrieve.plan import whole_step
    from workbench.retrieve.route import topic
    for q in ("2021年修订的条例有哪些主要变化？", "与2008年版相比，2021年版有什么不同？", "2016年修订前后有什么区别？",
              "What changed in the 2018 version?", "Luật sửa đổi năm 2019 đã sửa đổi, bổ sung những nội dung nào?",
              "What are the differences between the 2012 and 2018 Acts?", "Luật năm 2023 khác gì so với Luật năm 2009?",
              # the request in more words: listing, summarising, what "happened"
              "What did the 2018 revision change? Please list every article amended, added or dropped.", "请列出2016年修订具体改动的全部条文。",
              "与2011年版相比，2016年版有哪些条文发生了变化？"):
        assert whole_step(topic(q)), q
        assert classify(q).type == "version_diff", q
    for q in ("2016年修订对罚款作了哪些修改？", "What did the 2015 amendment change about penalties?",
              "与2008年版相比，2021年版对屠宰厂的记录义务有哪些变化？", "2021年修订的条例在监管部门上有哪些变化？",
              "What are the differences between the 2012 and 2018 Acts on licence validity?",
              "2016年修订对处罚作了哪些修改？", "2016年修订对时效有哪些变化？", "2016年修订对法人有哪些变化？"):
        assert not whole_step(topic(q)), q


def test_when_a_provision_changed_asks_for_its_history():
    """"When was it changed" is answered by the provision's versions (Route.history), with a law or
    an article named; when to change something else is no question about a revision."""
    for q in ("《生猪屠宰管理条例》第十条是什么时候修改的？", "《生猪屠宰管理条例》哪一年修订时提高了对未经定点屠宰的罚款？",
              "When was section 8 of the Clinic Licensing Act amended?", "Điều 8 Luật Khám bệnh được sửa đổi khi nào?",
              "Which revision raised the fine for operating without a licence under the Clinic Licensing Act?",
              "Has Article 11 of the Act ever been amended?", "In which version of the Act was telemedicine introduced?",
              "该条例的补助规定后来有没有修改过？在哪一版中修改的？",
              # the revision asked by what it did ("which revision raised"), or when a provision came in or went out
              "哪一次修订提高了《生猪屠宰管理条例》对私屠滥宰的罚款？", "哪一年的修正删除了这一条？",
              "条例中关于无害化处理的规定是哪一年加入的？", "该条款在哪次修订中被删除？"):
        r = classify(q)
        assert r.type == "version_diff" and r.history, q
    for q in ("公司什么时候修改章程需要备案？", "When was the licence amended by the clinic?", "许可证什么时候变更需要报告？",
              # a law named, but not what changed
              "根据《公司法》，公司什么时候需要修改章程？", "根据《劳动法》，用人单位什么时候应当增加工资？",
              "When did the tenant change the locks, and was it lawful under the Housing Act?",
              "When was the appeal from the lower court heard under the Civil Procedure Code?",
              "Doanh nghiệp phải sửa đổi điều lệ khi nào theo Luật Doanh nghiệp?",
              "In which version of the form must the applicant sign?", "Has the applicant ever been refused a licence under the Act?",
              "合同在哪一版中修改了付款条款？", "屠宰厂哪一次修改了章程？", "公司是哪一年加入行业协会的？",
              # when something happens under the law, not when the law changed
              "《阿尔登共和国诊所许可法》规定许可证在什么时候被取消？", "生猪屠宰管理条例规定定点屠宰资格何时取消？",
              "公司章程哪一次修改增加了董事人数？", "公司的考勤制度是什么时候取消的？依照劳动合同法",
              # a company's own rule named as 规定, no law named
              "公司的考勤规定是哪一年新增的？", "单位的请假规定是哪一年新增的？"):
        assert not classify(q).history, q
    assert classify("这项规定是哪一年新增的？").history      # a provision of the law asked about


def test_the_version_before_the_current_one_named_without_a_year():
    for q in ("修订前的条例如何规定？", "《条例》最近一次修订前怎么处罚？", "旧版条例有什么规定？", "What did the previous version of the Act say?",
              "按照修订前的诊所许可法，最高可以罚多少？",
              "Before its latest amendment, what did the Act require?", "Phiên bản trước của Luật quy định thế nào?"):
        assert classify(q).previous, q
    both = classify("新旧条例对罚款的规定有什么不同？")
    assert both.previous and both.current and both.type == "version_diff"
    for q in ("2022年修正前的条例如何规定？", "What did the Act say before 1 January 2019?", "修订后的条例如何规定？",
              # a company's or a contract's change, a party's earlier act, new and old shareholders
              "依照《公司法》，章程修改前股东会应当如何表决？", "合同修改前约定的违约金是否有效？",
              "Under the Clinic Licensing Act, does a prior act of operating without a licence count?",
              "Doanh nghiệp phải làm gì trước khi sửa đổi điều lệ theo Luật Doanh nghiệp?",
              "《公司法》对新老股东的权利有什么规定？", "What are the duties of the old and new landlord under the Housing Act?",
              # a contract's or a charter's last revision, no law named
              "双方签订的租赁合同最近一次修改前，租金是多少？", "公司章程最近一次修改前，董事任期几年？",
              "Before its last amendment, what rent did the tenancy agreement set?",
              "Before the last amendment of the lease, who paid for repairs?"):
        assert not classify(q).previous, q
    for q in ("合同法最近一次修改前，合同的解除条件是什么？",      # the law is named: its previous version
              "Before its last amendment, what did the Residential Tenancies Act require of landlords under a lease?",
              "民法典合同编最近一次修改前，合同解除的条件是什么？", "企业名称登记管理规定最近一次修订前，企业名称可以怎么起？",
              "第二十条最近一次修改前，对租赁合同的期限有何规定？",
              "Before its last amendment, what did section 21 say about tenancy deposits?"):
        assert classify(q).previous, q
    for q in ("租赁合同最近一次修改前，租金的支付方法是什么？", "公司章程最近一次修改前，公司法定代表人由谁担任？",
              "合同最近一次修改前约定的管辖法院是哪个？"):    # words ending in 法 name no law
        assert not classify(q).previous, q
    assert classify("企业名称登记管理规定是什么时候修订的？").history


def test_consequences_asked_in_other_words_ask_for_the_sanction():
    """A question asking what becomes of a party or a case asks the law's consequence: "该如何处理"
    (not a public body's own handling), "要担什么责任", "what happens to". Bearing a liability ("chịu
    trách nhiệm gì") asks no duty ("có trách nhiệm" does); "会怎样" asks nothing yet (the consequence is
    often the rule's own clause: "逾期未开航的，…资格…丧失")."""
    from workbench.retrieve.route import asked_roles
    for q in ("网吧锁闭了安全出口，该如何处理？", "2019年某驾校未经备案招生，依当时有效的规定应如何处理?", "要担什么责任？",
              "某网吧锁闭安全出口，该如何处理呢？", "What happens if a firm fails to notify the Regulator?",
              "某公司开业一个多月还没办手续。它需要许可证吗？没办手续会怎么处理？",
              "What happens to a firm that misleads the Regulator?", "What's the worst that can happen to an unauthorised firm?",
              # a body's handling of a party whose broken rule is asked; who bears a loss or compensates
              "这家厂违反了什么规定，保密部门会怎么处理？", "博主违反了哪项要求？主管部门可以如何处理？",
              "乡政府违反了什么规定，农户的损失由谁承担？", "租客把房子弄坏了，要赔偿吗？",
              "药店违反了什么规定？市场监管部门会如何处理该药店？", "应由谁赔偿？", "要不要赔偿？", "谁来承担损失？",
              "是否需要赔偿？", "私自屠宰生猪，由哪个部门查处？", "Who can fine a firm?"):
        assert "sanction" in asked_roles(q), q
    for q in ("行政机关收到申请后，应当如何处理？", "对于过期的样品应如何处理和保存？", "医疗废物应当如何处理？", "会怎样影响申请？",
              "保证人的担保责任范围包括哪些？", "担任董事有哪些责任？", "What happens to my deposit when the tenancy ends?",
              "What happened to section 12 in the 2015 amendment?",
              "What happens next in the application process, and how long does it take?",
              "Ủy ban nhân dân cấp xã có trách nhiệm gì?",
              # a body's procedure, no rule broken asked; a guarantee's scope
              "税务机关收到举报后会怎么处理？", "申请材料不齐全的，行政机关应当如何处理？", "担保人的赔偿范围有多大？",
              # another sentence's facts before the body's handling; who receives or handles compensation; who decides else
              "他违反了哪些规定？申请人撤回申请的，行政机关应当如何处理？", "房屋被征收，赔偿归谁？", "行政赔偿由谁受理？",
              "Who decides on the licence application?", "登记由谁办理？",
              # a penalty appealed against is among the facts: the remedy is asked
              "张某对一张200元的交通罚款申请行政复议。复议机关应当在多长时间内作出复议决定？",
              "他不服罚款，可以向哪个机关申请复议？", "He wants to appeal against the fine. Where should he file?"):
        assert "sanction" not in asked_roles(q), q
    assert "sanction" in asked_roles("对超载运输的，会被罚款多少？")
    assert asked_roles("Bệnh viện từ chối khám cho bệnh nhân thì chịu trách nhiệm gì?") == ()
    assert asked_roles("Ủy ban nhân dân cấp xã có trách nhiệm gì?") == ("obligation",)


def test_a_penalty_among_the_facts_or_its_decision_as_a_document_is_not_asked():
    """A fine already imposed or paid is a fact ("被罚款2万元", "罚款已经交了", "已缴纳罚款", "was fined",
    "paid a financial penalty", "đã bị xử phạt"); the decision imposing it is a document whose contents
    or service is asked ("处罚决定书应当载明哪些事项", "Quyết định xử phạt … phải ghi …") -- a procedure.
    A penalty still to come is asked ("会被罚款，具体是多少钱", "the risk of being fined")."""
    from workbench.retrieve.route import asked_roles
    for q in ("公司因超载被罚款2万元，能否申请行政复议？", "罚款已经交了，现在想办理道路运输证，要走什么流程？",
              "公司已缴纳罚款，还能申请复议吗？", "行政处罚决定书应当载明哪些事项？",
              "After we were fined, the FSRA published the Final Notice. How can we ask for a correction?",
              "A firm paid a financial penalty last year. How can it challenge the decision?",
              "Quyết định xử phạt vi phạm hành chính phải ghi những nội dung gì?",
              "Công ty đã bị xử phạt, nay muốn khiếu nại thì làm thế nào?"):
        assert "sanction" not in asked_roles(q), q
    for q in ("被罚款了，还要承担什么责任？", "A firm was fined last year. What penalty applies if it does it again?",
              "不按规定缴纳罚款会受到什么处罚？", "超速行驶会被罚款，具体是多少钱？", "What is the risk of being fined?"):
        assert "sanction" in asked_roles(q), q


def test_how_a_person_is_handled_asks_the_consequence_but_a_matter_or_an_application_does_not():
    """"文物部门能怎么处理他？": what is done to a person who acted is the law's consequence for the act,
    whoever handles it; a matter or an application is handled by procedure."""
    from workbench.retrieve.route import asked_roles
    for q in ("他没报告，悄悄藏在了家里。按当时的法律，文物部门能怎么处理他？", "法院发现后会怎么处理他们？"):
        assert "sanction" in asked_roles(q), q
    for q in ("怎么处理这件事？", "行政机关应当如何处理该申请？", "他的申请应当怎么处理？"):
        assert "sanction" not in asked_roles(q), q


def test_a_fine_paid_or_told_as_the_cause_of_what_is_asked_is_a_fact():
    """A fine told as the cause of what is asked ("因为超限运输被罚款") or paid ("把罚款缴清") is among the
    facts; one still to come ("会被罚款多少") or left unpaid ("逾期不缴纳罚款") is not erased with it."""
    from workbench.retrieve.route import asked_roles
    for q in ("公司因为超限运输被罚款，现在想办理道路运输证，要走什么流程？", "收到决定书以后，多少天内必须把罚款缴清？"):
        assert "sanction" not in asked_roles(q), q
    for q in ("不按期缴纳罚款会受到什么处罚？", "逾期不缴纳罚款会怎样？", "因为超载会被罚款多少？", "因违反规定被罚款多少？",
              "如果不把罚款缴清会怎么样？"):
        assert "sanction" in asked_roles(q), q
    assert asked_roles("缴纳罚款的期限是多久？") == ("procedure",)


def test_what_a_party_has_to_do_asks_for_its_duty_but_a_time_limit_does_not():
    from workbench.retrieve.route import asked_roles
    for q in ("屠宰过程中发现生猪患有疫病，屠宰厂该怎么办？", "What do we need to tell the FSRA, and by when?",
              "What does a firm have to do before outsourcing?", "Would it breach the rules if we outsourced our MLRO?",
              "Would a director trading during a closed period break the rules?", "Has the firm breached the rules?",
              "Does this break any laws?"):
        assert "obligation" in asked_roles(q), q
    for q in ("How long does a firm have to file a suspicious transaction report?", "How long do we have to respond?",
              "该怎么申请？", "营业执照要怎么办理？", "How long, under Rule 3.2, does a firm have to file?",
              "Which provision has to do with outsourcing?"):
        assert "obligation" not in asked_roles(q), q


def test_the_time_before_a_revision_named_by_its_year_in_any_language():
    """"2022年修正前", "before the 2018 amendment", "trước khi sửa đổi năm 2018" read the version before that
    revision; "prior to its amendment" the version before the latest; a year that only dates facts does not."""
    for q, year in (("2022年修正前，条例怎么规定？", 2022), ("Before the 2018 amendment of the Act, what applied?", 2018),
                    ("Prior to the 2015 revisions, what did the Rules require?", 2015),
                    ("Trước khi sửa đổi năm 2018, Luật quy định thế nào?", 2018)):
        assert classify(q).before == (year,), q
    assert classify("How long was a licence valid under the Act prior to its amendment?").previous
    assert classify("Before 2018, the clinic had amended its rules. What applies?").before == ()
    assert classify("Before the 2018 amendment to its lease, what applied under the Act?").before == ()
    assert not classify("Before the amendment of its business plan, how long is a licence valid under the Act?").previous


def test_the_time_between_two_revisions_is_one_version_not_a_comparison():
    for q in ("生猪屠宰管理条例2011年修订后、2016年修订前，对生猪注水怎么处罚？",
              "2019年修订之后、2022年修订之前，动物检疫管理办法对申报检疫的期限是怎么规定的？"):
        r = classify(q)
        assert r.type != "version_diff" and r.before, q
    assert classify("2019年修订之后和2022年修订之前相比，有何变化？").type == "version_diff"
    assert classify("生猪屠宰管理条例2011年修订以后、2016年修订以前，对注水怎么处罚？").before == (2016,)
    assert classify("生猪屠宰管理条例2011年修订后、2016年修订前，生猪产品是指什么？").type == "definition"
    assert classify("After the 2012 amendment of the Act and before the 2018 amendment, how long was a licence valid?"
                    ).type == "precise"
    # a contract's or a charter's revision, a tenancy agreement's amendment: no history, no version
    for q in ("劳动合同条款是哪一年新增的？", "公司章程哪一次修订删除了股东会条款？"):
        assert not classify(q).history, q
    assert classify("Before the 2018 amendment to the tenancy agreement, what applied under the Act?").before == ()


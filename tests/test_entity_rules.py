"""Entity rules by the principles of legal drafting (workbench/entities/rules_*.py, definitions.py):
short synthetic sentences, one principle per test."""
from __future__ import annotations

from workbench.entities.extract import extract, extract_all  # noqa: F401

from test_entities import unit


def test_defined_terms_where_drafting_puts_definitions_typed_by_their_genus():
    """Vietnamese "X là Y" defines only under a defining heading, in an article headed by its
    term, or with "được hiểu là"; a defined term takes the class its definition names."""
    def terms(u):
        return {(m.type, m.surface) for m in extract(u) if m.surface in (u.text or "")[:40]}
    defined = unit("a@1/a3", "vi", "definition", "Người lao động là người làm việc cho người sử dụng lao động.",
                   title="Giải thích từ ngữ")
    assert ("party", "Người lao động") in terms(defined)
    headed = unit("a@1/a455", "vi", "definition", "Hợp đồng trao đổi tài sản là sự thỏa thuận giữa các bên.",
                  title="Hợp đồng trao đổi tài sản")
    assert ("term", "Hợp đồng trao đổi tài sản") in terms(headed)
    declared = unit("a@1/a17", "vi", "definition", "Học tập là quyền và nghĩa vụ của công dân.",
                    title="Quyền và nghĩa vụ học tập của công dân")
    assert not [m for m in extract(declared) if m.type == "term"]
    zh = unit("f@1/a150", "zh", "definition", "本法所称食品生产经营者，是指从事食品生产经营活动的单位和个人。")
    assert any(m.type == "party" and m.surface == "食品生产经营者" for m in extract(zh))
    en = unit("g@1/r1", "en", "definition", '"Borrower" means a person who receives Credit.')
    assert any(m.type == "party" and m.surface == "Borrower" for m in extract(en))


# -- the principles of the third rewrite (each sentence is synthetic) ------------------------------
def mentions(language: str, text: str, role: str = "obligation", title: str = "") -> set[tuple[str, str]]:
    return {(m.type, m.surface) for m in extract(unit("s@1/a1", language, role, text, title=title))}


def surfaces(language: str, text: str, role: str = "obligation", title: str = "") -> set[str]:
    return {s for _, s in mentions(language, text, role, title)}


def test_zh_a_name_never_begins_with_the_verb_that_governs_it():
    # a governing verb opening the modifier (保护 / 代表 / 包括) is the predicate, not part of the name
    assert ("party", "举报人") in mentions("zh", "有关部门对举报信息予以保密，保护举报人的合法权益。")
    assert "保护举报人" not in surfaces("zh", "有关部门对举报信息予以保密，保护举报人的合法权益。")
    assert ("authority", "动物卫生监督机构") in mentions("zh", "检疫员，代表动物卫生监督机构执行检疫任务。")
    assert ("party", "病原携带者") in mentions("zh", "患有传染病（包括病原携带者）的，不得从事接触食品的工作。")
    # after a modal comes its verb (通告 is in no list): the name starts after it
    assert ("party", "经营者") in mentions("zh", "监督管理部门应当通告经营者。")
    assert "通告经营者" not in surfaces("zh", "监督管理部门应当通告经营者。")
    # ... and a bare class noun after that verb modifies the next noun (企业食品安全管理制度)
    assert not [m for m in mentions("zh", "主要负责人应当督导企业食品安全管理制度的执行。") if "企业" in m[1]]
    # a verb after a noun inside the modifier is its predicate: 单位 | 聘用 | 专业兽医人员
    assert ("party", "专业兽医人员") in mentions("zh", "兽医站和有条件的单位聘用专业兽医人员，承担检疫工作。")
    # a class noun that modifies a following noun is attributive: 公布人员名单 names no one
    assert not mentions("zh", "颁发证件，公布人员名单。")


def test_zh_staff_of_a_public_body_act_for_it():
    assert ("authority", "监督检查人员") in mentions("zh", "主管部门进行监督检查时，监督检查人员不得少于2人。")
    assert ("authority", "工作人员") in mentions("zh", "商务主管部门的工作人员应当出示检查证件。")
    assert ("party", "工作人员") in mentions("zh", "食品生产企业的工作人员应当持有健康证明。")   # a firm's staff
    # an institution named by its expertise sells a service: a party, not a public body
    assert ("party", "专业机构") in mentions("zh", "应当立即组织有关部门、专业机构进行核实。")


def test_zh_lists_share_a_head_or_close_with_deng():
    # conjuncts that end with a verb name a domain (质量监督): the shared-head list goes on over them
    assert ("authority", "农业行政、质量监督、工商行政管理部门") in mentions("zh", "会同农业行政、质量监督、工商行政管理部门进行调查。")
    # a list closed by 等 names its members before the class: the party is the class after 等
    assert ("party", "集中用餐单位") in mentions("zh", "学校、托幼机构、建筑工地等集中用餐单位应当遵守食品安全标准。")
    assert ("authority", "动物卫生监督机构") in mentions("zh", "禁止经营未经动物卫生监督机构检疫的肉类。")


def test_vi_a_person_phrase_is_a_party_only_when_its_clause_closes():
    # "với" (a partner) and "trái" (unlawfully) complement the verb before them: the phrase goes on
    assert not [s for s in surfaces("vi", "Nhóm là tập hợp những người gắn bó với nhau.") if s.startswith("người")]
    assert "người kết hôn" not in surfaces("vi", "Cha, mẹ của người kết hôn trái pháp luật có quyền yêu cầu.")
    # after a relative clause a topic or possessor belongs to it
    assert not [s for s in surfaces("vi", "Tuyển chọn đúng người đáp ứng yêu cầu của vị trí việc làm.") if "người" in s]
    # ... but a compound of one or two syllables takes them as adjuncts, and "của" + a person is the possessor
    assert "người thứ ba" in surfaces("vi", "Bên vận chuyển bồi thường cho người thứ ba về thiệt hại.")
    assert "người đại diện hợp pháp" in surfaces("vi", "Cha mẹ hoặc người đại diện hợp pháp của họ phải đồng ý.")
    # a closed domain after a state modifier stays part of the name
    assert "người bị hạn chế về thể chất" in surfaces("vi", "Di chúc của người bị hạn chế về thể chất phải được lập thành văn bản.")
    # "có trách nhiệm" + a verb is the duty modal: the run holds the predicate
    assert not [s for s in surfaces("vi", "Chủ sở hữu hoặc cơ quan có trách nhiệm yêu cầu được nhận lại tài sản.")
                if s.startswith("cơ quan")]
    # coordinated verbs after bị / được / có: the name as cut at the comma is incomplete
    assert "người bị bắt" not in surfaces("vi", "Quyền của người bị bắt, tạm giữ, tạm giam được bảo đảm.")
    assert "Người khoan" not in surfaces("vi", "4. Người khoan, đào trái phép làm hư hại công trình thì bị phạt.")
    # only aspect words, a reflexive, or a clause after "nơi": no bounded name
    assert not [s for s in surfaces("vi", "Cấm kết hôn giữa người đã từng là cha nuôi với con nuôi.") if "người" in s]
    assert not [s for s in surfaces("vi", "Thanh tra tỉnh xây dựng kế hoạch của cơ quan mình.") if "cơ quan" in s]
    assert "người được giám hộ cư trú" not in surfaces("vi", "Áp dụng pháp luật của nước nơi người được giám hộ cư trú.")
    # a capitalised head inside a sentence belongs to a proper name
    assert not mentions("vi", "Người lao động được nghỉ vào ngày Chủ nhật hằng tuần.") & {("party", "Chủ nhật")}
    # compounds are no heads or bounds: "máy chủ" (a server), "cấp trên" (the higher level)
    assert not [s for s in surfaces("vi", "Tấn công hệ thống máy chủ tên miền quốc gia.") if s.startswith("chủ")]
    assert "cơ quan nhà nước cấp trên" in surfaces("vi", "Chịu sự giám sát của cơ quan nhà nước cấp trên.")
    # an organ's function is named in content words: "do Quốc hội" is the agent, not part of a name
    assert ("authority", "Quốc hội") in mentions("vi", "Chủ nhiệm Ủy ban do Quốc hội bầu.")


def test_vi_the_head_of_a_body_is_an_office():
    defined = mentions("vi", "Trưởng đoàn thanh tra là người đứng đầu Đoàn thanh tra.", "definition", "Giải thích từ ngữ")
    assert ("authority", "Trưởng đoàn thanh tra") in defined


def test_en_a_glossary_headword_takes_the_class_its_definition_names():
    d = lambda text: mentions("en", text, "definition")                     # noqa: E731
    assert ("party", "Recognised Body") in d("Recognised Body\tmeans a Recognised Investment Exchange or a Recognised Clearing House.")
    assert ("party", "Non-Profit Organisation") in d("Non-Profit Organisation\tmeans a Legal Person or arrangement that raises funds.")
    assert ("document", "Scheme Report") in d("Scheme Report\tmeans a report made in accordance with section 89.")
    assert ("instrument", "Common Reporting Standard") in d("Common Reporting Standard\tmeans the standard for automatic exchange of information.")
    # a possessor is not the genus, a gerund is no class, a class noun modifying a name is no genus
    assert ("term", "Own Initiative Power") in d("Own Initiative Power\tmeans the Regulator's power to vary a permission.")
    assert ("term", "Operating a Platform") in d("Operating a Platform means undertaking one or more platform activities.")
    assert ("term", "Resolution Plan") in d("Resolution Plan\tmeans an Individual Resolution Plan or a Group Resolution Plan.")
    # a term never includes its article, never starts inside a word, never ends in an adverb
    assert ("term", "Contract of Insurance") in d("A Contract of Insurance means any contract of insurance.")
    assert not [s for s in surfaces("en", "'Arm's length' means the prevailing market price.", "definition") if s.startswith("s ")]
    assert not [m for m in d("Inside Information. The need to assess it in context also means that new facts matter.")
                if m[0] == "term"]


def test_en_names_start_with_their_first_word_and_staff_act_for_the_regulator():
    assert ("authority", "Supervision Relationship Manager") in mentions("en", "Firms discuss this with their Supervision Relationship Manager.")
    # "apply to the Regulator for the X": the complement belongs to the verb
    assert ("authority", "Regulator") in mentions("en", "A Fund may apply to the Regulator for the Green Fund Designation.")
    # a possessor is a noun phrase of its own; a name cut by the word limit starts earlier
    assert ("document", "Financial Services Permission") in mentions("en", "If an Authorised Person's Financial Services Permission is cancelled, it must stop.")
    assert ("document", "Representative Office Financial Services Permission") in mentions(
        "en", "A firm that holds a Representative Office Financial Services Permission may not deal.")
    # "and the" opens a second noun phrase; an imperative never begins a name
    assert not [s for s in surfaces("en", "It must comply with Federal AML Legislation and the Regulations.") if " and the " in s]
    assert "See Guidance" not in surfaces("en", "See Guidance under Rule 6.5.1 for the type of information.")
    # an acronym is typed by the head of its expansion, not by a complement after "of"
    acr = mentions("en", "the Accounting and Auditing Organisation of Islamic Financial Institutions (AAOIFI). AAOIFI publishes standards.")
    assert not {m for m in acr if m[1] == "AAOIFI"}
    assert not mentions("en", "Transfers are registered by the registrar within seven days.") & {("authority", "registrar")}


# -- the principles of the fourth rewrite (each sentence is synthetic) -----------------------------
def test_vi_predicate_adverbs_and_expiry_end_a_name():
    # "đồng thời" (at the same time), "tuy" (although) and "hết + a period noun" open the predicate
    assert "người nhận thế chấp" in surfaces("vi", "Trường hợp người nhận thế chấp đồng thời là bên thuê tài sản thì phải báo cáo.")
    assert "Người làm chứng" in surfaces("vi", "Người làm chứng tuy không được triệu tập nhưng đã có mặt.")
    assert "Giấy chứng nhận đầu tư" in surfaces("vi", "a) Giấy chứng nhận đầu tư hết thời hiệu;")


def test_vi_incorporated_objects_and_common_nouns_are_no_parties():
    # "giết / bắt / giam người" incorporates its object; "người lớn" is people at large; "hình thành cơ sở" a basis
    assert not any(s.startswith("người") for s in surfaces("vi", "Cấm đánh người tàn nhẫn, giam người trái phép."))
    assert not any(s.startswith("người") for s in surfaces("vi", "Trẻ em được người lớn hướng dẫn vui chơi."))
    assert not any(s.startswith("cơ sở") for s in surfaces("vi", "Chương trình nhằm tạo cơ sở vững chắc cho học sinh."))
    assert "người phạm tội" in surfaces("vi", "Công dân có quyền bắt người phạm tội.")   # a class: phạm opens a clause


def test_vi_a_relative_clause_goes_on_past_a_place_or_a_sphere():
    # "người có + noun" + trong / tại …: the clause is not closed there, no bounded name
    got = surfaces("vi", "Người có mặt tại nơi xảy ra tai nạn phải báo cho cơ quan công an.")
    assert not any(s.startswith("Người có mặt") for s in got)
    got = surfaces("vi", "Mời người có hiểu biết trong lĩnh vực xây dựng tham gia.")
    assert not any(s.startswith("người có hiểu biết") for s in got)


def test_vi_parallel_coordination_or_repeated_opener_is_no_safe_cut():
    got = surfaces("vi", "Tài sản phải giao cho người tìm thấy hoặc nhặt giữ.")
    assert "người tìm thấy" not in got
    got = surfaces("vi", "Người bị đe dọa, bị ép buộc khai báo có quyền yêu cầu bảo vệ.")
    assert not any(s.startswith("Người bị đe dọa") for s in got)


def test_vi_causatives_agents_and_negated_complements_hold_a_verb():
    # "hướng dẫn X + verb", "do X + verb" before a modal, "không" + a content word after a long modifier
    assert not any(s.startswith("người đề nghị") for s in surfaces("vi", "Cơ quan thuế hướng dẫn người đề nghị hoàn thiện."))
    assert not any(s.startswith("người vận chuyển") for s in surfaces("vi", "Hàng hóa do người vận chuyển giao phải được kiểm tra."))
    assert not any(s.startswith("cơ sở y tế") for s in surfaces("vi", "Trừ cơ sở y tế hoạt động không vì mục đích thương mại."))


def test_vi_offices_of_procedure_and_levels_of_local_bodies_are_authorities():
    got = mentions("vi", "Biên bản phải có chữ ký của người ghi biên bản và Chủ tịch Ủy ban nhân dân cùng cấp.")
    assert ("authority", "người ghi biên bản") in got
    assert ("authority", "Chủ tịch Ủy ban nhân dân cùng cấp") in got
    got = mentions("vi", "Phối hợp với cơ quan quản lý nhà nước về thủy sản có thẩm quyền trong việc kiểm tra.")
    assert ("authority", "cơ quan quản lý nhà nước về thủy sản có thẩm quyền") in got
    got = surfaces("vi", "Trưởng đoàn phối hợp với người đứng đầu cơ quan quản lý nhà nước về y tế để kiểm tra.")
    assert not any(s.startswith("người đứng đầu cơ quan") for s in got)


def test_vi_a_document_subject_may_be_coordinated():
    got = surfaces("vi", "Hồ sơ đề nghị cấp giấy phép tổ chức hội chợ và triển lãm bao gồm đơn đề nghị.")
    assert "giấy phép tổ chức hội chợ và triển lãm" in got


def test_en_a_possessive_closes_its_noun_phrase():
    got = mentions("en", "The Regulator may rely on a Licensed Firm's Home State Regulator and the Exchange’s Listing Rules.")
    assert ("authority", "Home State Regulator") in got and ("instrument", "Listing Rules") in got
    assert ("party", "Licensed Firm") in got
    # "the Actuary's Report" is a document's name: the possessor is not cut out of it
    assert "Appointed Actuary" not in surfaces("en", "The firm must file the Appointed Actuary's Report annually.")


def test_en_instrument_citations_run_to_their_number_and_skip_partitives():
    got = surfaces("en", "Under Article 5 of Federal Decree By Law No. 7 of 2021, a Person must report.")
    assert "Federal Decree By Law No. 7 of 2021" in got
    assert "Listing Rules" in surfaces("en", "The Transitional Provisions of the Listing Rules apply to an Issuer.")
    got = surfaces("en", "Terms are defined in the Market Conduct Rules and Guidance Rulebook.")
    assert "Market Conduct Rules and Guidance Rulebook" in got


def test_en_coordinated_names_and_agents_of_actions():
    got = surfaces("en", "The IMF and Central Bank Competent Authority publish data to each Trust and Client.")
    assert "Central Bank Competent Authority" in got and "Trust and Client" not in got
    assert "Regulator" in surfaces("en", "The cancellation by the Regulator of Units from the Register is final.")
    assert "Regulator of Units" not in surfaces("en", "The cancellation by the Regulator of Units from the Register is final.")
    assert "Relevant Office-Holder" in surfaces("en", "The costs are paid from the Relevant Office-Holder's funds.")


def test_en_a_command_after_may_is_no_permission():
    from workbench.entities.relations import relations
    u = unit("s@1/r2", "en", "permission", "The Regulator may direct an Authorised Person to appoint an auditor.")
    assert not [r for r in relations(u) if r.type == "GRANTS_PERMISSION"]
    u = unit("s@1/r3", "en", "permission", "The Regulator may exempt an Authorised Person from this Rule.")
    assert [r for r in relations(u) if r.type == "GRANTS_PERMISSION"]
    u = unit("s@1/r4", "en", "permission", "An Authorised Person may consider that a Client is professional.")
    assert not [r for r in relations(u) if r.type == "MAY"]


def test_the_head_of_a_body_and_the_agent_of_another_verb():
    """"Người đứng đầu cơ quan, tổ chức": the conjunct after a head-of phrase continues the body
    it heads, it bears no duty of its own; "theo mẫu do X quy định": the agent of quy định does
    not issue the licence named before it (do X cấp does)."""
    import datetime as D
    from workbench.entities.relations import relations_all
    from test_entities import triples
    units = [unit("v@1/a5", "vi", "obligation", "2. Người đứng đầu cơ quan, tổ chức có trách nhiệm thực hiện chính sách "
                                               "đối với thanh niên có tài năng.", D.date(2021, 1, 1)),
             unit("v@1/a9", "vi", "procedure", "a) Đơn đề nghị cấp Giấy phép kinh doanh theo mẫu do Sở Y tế quy định;",
                  D.date(2021, 1, 1)),
             unit("v@1/a10", "vi", "procedure", "Giấy phép hoạt động do Sở Y tế cấp.", D.date(2021, 1, 1)),
             unit("v@1/a11", "vi", "procedure", "Chứng chỉ hành nghề được cấp bởi Bộ Y tế.", D.date(2021, 1, 1)),
             unit("v@1/a12", "vi", "obligation", "Người đứng đầu cơ quan, tổ chức và cá nhân có liên quan phải báo cáo "
                                                "Sở Y tế.", D.date(2021, 1, 1))]
    _, mentions = extract_all(units)
    t = triples(relations_all(units, mentions))
    duties = {o for s, ty, o in t if ty == "IMPOSES_DUTY"}
    assert "party:người đứng đầu cơ quan" in duties and "party:tổ chức" not in duties, t
    issued = {(s, o) for s, ty, o in t if ty == "ISSUES"}
    assert ("authority:sở y tế", "document:giấy phép hoạt động") in issued, issued
    assert not {d for a, d in issued if a == "authority:sở y tế" and "kinh doanh" in d}, issued
    assert any(a == "authority:bộ y tế" for a, _ in issued), issued          # the passive agent after its verb
    assert "party:cá nhân" in duties, t                                     # "và cá nhân": a second subject


def test_en_a_phrase_after_a_noun_or_participle_modifies_it():
    """"…in accordance with the requirements prescribed in the Rules": the Rules modify a
    participle, they are not what the filing duty is about; "comply with the Rules" (a verb's
    own phrase) and "file with the Regulator" are."""
    import datetime as D
    from workbench.entities.relations import relations_all
    from test_entities import triples
    units = [unit("g@1/r1", "en", "obligation", "A Reporting Entity shall prepare and file with the Regulator an annual "
                  "financial report in accordance with the requirements prescribed in the Rules.", D.date(2020, 1, 1)),
             unit("g@1/r2", "en", "obligation", "A Licensee must comply with the Rules.", D.date(2020, 1, 1)),
             unit("g@1/r3", "en", "obligation", "A Broker must file the financial statements with the Regulator.",
                  D.date(2020, 1, 1))]
    _, mentions = extract_all(units)
    duties = {(s, o) for s, ty, o in triples(relations_all(units, mentions)) if ty == "HAS_DUTY"}
    assert ("party:reporting entity", "authority:regulator") in duties
    assert ("party:reporting entity", "instrument:rules") not in duties, duties
    assert ("party:licensee", "instrument:rules") in duties, duties
    assert ("party:broker", "authority:regulator") in duties, duties      # the verb's own phrase


# -- the sixth rewrite: relations by the grammar of duty and sanction sentences (synthetic sentences) ------
def _rels(lang: str, role: str, text: str) -> set[tuple[str, str, str]]:
    from workbench.entities.relations import relations
    return {(r.subject.partition(":")[2], r.type, r.object.partition(":")[2])
            for r in relations(unit("x@1/a1", lang, role, text))}


def test_zh_the_violator_is_the_subject_of_the_violator_clause():
    """违反…，X…的，由Y处罚: Y sanctions X and those joined to X, not a party that X's act names (an
    object, a modifier) nor one in a clause opened by a preposition."""
    got = _rels("zh", "sanction", "违反本法规定，批发市场的开办者、摊位出租者允许无照的食品经营者入场的，"
                                  "由县级以上人民政府市场监督管理部门责令改正。")
    assert ("县级以上人民政府市场监督管理部门", "SANCTIONS", "摊位出租者") in got
    assert not [t for t in got if t[2] == "食品经营者"]
    got = _rels("zh", "sanction", "为无证从事屠宰的单位提供场所的，由县级以上人民政府农业农村主管部门没收违法所得。")
    assert not [t for t in got if t[1] == "SANCTIONS"]
    # a prepositional adjunct clause before the conduct (未经X许可) is passed over: the violator opens the next one
    got = _rels("zh", "sanction", "违反本条例规定，未经省级人民政府卫生健康主管部门许可，医疗机构擅自开展诊疗活动的，"
                                  "由县级以上人民政府卫生健康主管部门责令停止执业活动。")
    assert ("县级以上人民政府卫生健康主管部门", "SANCTIONS", "医疗机构") in got, got


def test_zh_a_duty_object_ends_where_another_agent_or_subject_begins():
    """由其X (an agent after the predicate) and the subject of the next modal open acts of their own."""
    got = _rels("zh", "obligation", "县级以上人民政府农业农村主管部门应当配备兽医，由其监督屠宰企业查验检疫证明。")
    assert not [t for t in got if t[1] == "HAS_DUTY" and t[2] in ("屠宰企业", "检疫证明")]
    got = _rels("zh", "obligation", "采购者应当索取进货凭证，供货者应当如实提供。")
    assert ("采购者", "HAS_DUTY", "供货者") not in got
    # 由 inside a word (事由, 理由) or the conjunction 由于 opens no agent phrase: the predicate goes on
    got = _rels("zh", "obligation", "销售者应当以书面形式告知退货的事由，并通知生产者。")
    assert ("销售者", "HAS_DUTY", "生产者") in got, got
    got = _rels("zh", "obligation", "承运人应当说明由于天气延误的理由，并通知托运人。")
    assert ("承运人", "HAS_DUTY", "托运人") in got, got


def test_zh_a_prepositional_phrase_inside_a_relative_clause_leaves_the_subject():
    """与X订立合同的Y应当: the phrase is part of the 的-clause modifying Y, which is the subject; 对…的Y，应当:
    the phrase's object is Y itself, and the clause has no subject."""
    got = _rels("zh", "obligation", "向劳动者支付工资的用人单位应当保存工资支付记录。")
    assert ("x", "IMPOSES_DUTY", "用人单位") in got and ("x", "IMPOSES_DUTY", "劳动者") not in got, got
    assert not _rels("zh", "obligation", "对存在违法行为的经营者，应当依法处理。")


def test_zh_shared_heads_of_coordinated_modifiers_and_government_lists():
    """餐具、饮具…单位 / 专职或者兼职…人员: parallel modifiers share one head; 国务院A、B和C等有关部门 is
    one name (a bare 国务院 before an unclosed list is dropped)."""
    got = surfaces("zh", "承包者应当委托合格的碗具、盆具集中清洗单位，并配备专职或者兼职卫生管理人员。")
    assert "碗具、盆具集中清洗单位" in got and "专职或者兼职卫生管理人员" in got
    assert "进口商和出口食品生产企业" not in surfaces("zh", "海关应当对进口商和出口食品生产企业实施管理。")
    got = surfaces("zh", "国务院交通运输、水利和国家林业管理等有关部门应当及时通报。")
    assert "国务院交通运输、水利和国家林业管理等有关部门" in got and "国务院" not in got


def test_vi_modals_inside_names_and_conditions_are_no_duty():
    """"người có nghĩa vụ" names a person (its modal words are part of the name); a modal inside a
    condition (Trường hợp / Nếu … thì) states the condition; a document after "(được) cấp" on a noun is
    in a relative clause; the body of an office holder ("Thủ trưởng cơ quan X") owns the argument."""
    # the modal words inside "Người có nghĩa vụ" are not its duty: the modal is the "phải" after the name
    got = _rels("vi", "obligation", "Người có nghĩa vụ phải thanh toán khoản nợ cho người có quyền.")
    assert ("x", "IMPOSES_DUTY", "người có nghĩa vụ") in got, got
    got = _rels("vi", "obligation", "Trường hợp người mua biết hoặc phải biết về khuyết tật thì hợp đồng vẫn có hiệu lực.")
    assert not [t for t in got if t[1] == "IMPOSES_DUTY"]
    got = _rels("vi", "obligation", "Cơ sở in phải nộp bản in cho cơ quan cấp Giấy phép xuất bản.")
    assert not [t for t in got if t[2].lower() == "giấy phép xuất bản"]
    got = _rels("vi", "obligation", "Người kiểm tra có trách nhiệm báo cáo với Thủ trưởng cơ quan thanh tra.")
    assert not [t for t in got if t[1] == "HAS_DUTY" and t[2] == "cơ quan thanh tra"]


def test_en_phrases_modifying_a_noun_asides_and_headings():
    """A preposition after a noun that is itself the object of a preposition attaches to that noun; an
    aside in parentheses and "in relation to X" are no arguments; a label before a dash is no subject; a
    name before a bare noun modifies it; "must not be … by X" puts the duty on X."""
    got = _rels("en", "obligation", "An Authorised Person must apply a 100% weight to any Exposure to the Regulator.")
    assert ("x", "IMPOSES_DUTY", "authorised person") in got and not [t for t in got if t[1] == "HAS_DUTY"], got
    got = _rels("en", "obligation", "An Authorised Person must notify the Regulator (acting as an Insurer where relevant) promptly.")
    assert ("authorised person", "HAS_DUTY", "regulator") in got and not [t for t in got if t[2] == "insurer"]
    got = _rels("en", "obligation", "(iii)\tLicensed Partners – An Applicant that is a partnership must list its Partners.")
    assert not [t for t in got if t[0].startswith("licensed partner") or t[2].startswith("licensed partner")], got
    got = _rels("en", "obligation", "The Client assessment must precede any advice by an Authorised Person.")
    assert not [t for t in got if t[0] == "client" or t[2] == "client"]
    got = _rels("en", "obligation", "A Person dismissed under Rule 4 must not be re-hired by the Fund Manager.")
    assert not [t for t in got if t[2] == "person" and t[1] == "IMPOSES_DUTY"]


# -- the fifth vi rewrite (seed-41 errors and the earlier judged rows; each sentence is invented) ---------------
def test_vi_a_longer_bounded_run_than_a_known_name_is_no_sure_name():
    # "Chủ sở hữu" is a name here; "Chủ sở hữu chung" may be it + a modifier or + a predicate: dropped, not cut
    # (a cut would leave a second "Chủ sở hữu" at the second sentence: the spans tell the two apart)
    def spans(text):
        return [(m.type, m.surface, m.start) for m in extract(unit("s@1/a1", "vi", "obligation", text))]
    assert spans("Chủ sở hữu phải báo cáo. Chủ sở hữu chung phải ký vào biên bản.") == [("party", "Chủ sở hữu", 0)]
    assert spans("Người bảo lãnh phải ký. Người bảo lãnh liên đới phải trả nợ.") == [("party", "Người bảo lãnh", 0)]


def test_vi_cong_names_an_actor_only_as_a_citizen_official_company_or_police():
    # "công trình" is a thing coordinated inside the modifier: the name runs over it to the modal
    assert ("party", "chủ sở hữu nhà ở, công trình") in mentions("vi", "Thì chủ sở hữu nhà ở, công trình phải bồi thường.")
    # "công dân" is a second actor: the list ends the name
    assert ("party", "chủ sở hữu nhà ở") in mentions("vi", "Bên bán phải thông báo cho chủ sở hữu nhà ở, công dân sở tại biết.")
    # ... and a document is not coordinated with a word of it ("và công dân" starts another party)
    assert not any(s.endswith("công dân") for t, s in mentions("vi", "Giấy phép hoạt động và công dân được cấp.")
                   if t == "document")


def test_vi_an_indefinite_person_with_a_clause_is_no_class():
    # existential "có" / indefinite "một" + "người" + a clause describes someone; a one-word role still names it
    assert not mentions("vi", "Khi có người làm việc ban đêm thì phải bố trí bảo vệ.")
    assert not mentions("vi", "Khi một người bị lừa dối mà người khác biết thì phải báo.")
    assert ("party", "người đại diện") in mentions("vi", "Gia đình không có người đại diện thì Tòa án chỉ định.")
    assert ("party", "người giám hộ") in mentions("vi", "Một người giám hộ có thể giám hộ cho nhiều người.")


def test_vi_a_nominalised_verb_and_a_passive_agent_do_not_end_a_name():
    # "sự đồng ý": the verb after a nominaliser is a noun, no predicate to end the name at
    assert not mentions("vi", "Người phải có sự đồng ý của người đó.")
    # "được" + an actor is the agent of the verb after it ("… cử đến"): a run stopping at the agent is cut short
    assert not [s for s in surfaces("vi", "Người được cơ quan, tổ chức có thẩm quyền cử đến phải báo cáo.")
                if s.startswith("Người")]
    assert ("party", "Người được cử") in mentions("vi", "Người được cử đến phải báo cáo.")


def test_vi_a_relational_participle_takes_its_complement():
    # "liên quan đến / tới / với" + a noun phrase completes the name: a run ending at "liên quan" is cut short
    assert ("party", "người thứ hai liên quan") not in mentions("vi", "Tòa án xác định quyền của người thứ hai liên quan đến hợp đồng vay.")
    assert ("document", "Văn bản chấp thuận liên quan") not in mentions("vi", "Văn bản chấp thuận liên quan đến dự án được gửi cho Bộ.")


def test_vi_an_adverb_of_degree_or_manner_opens_the_predicate():
    assert ("party", "Người bảo lãnh") in mentions("vi", "Người bảo lãnh đơn phương hủy bỏ cam kết.")
    assert ("document", "giấy xác nhận cư trú") in mentions("vi", "Thời hạn của giấy xác nhận cư trú tối đa là 01 năm.")


def test_vi_a_compound_preposition_is_not_split_by_the_name():
    # "thông qua" (via) is one word: its first syllable is no modifier of the name before it
    assert not [s for s in surfaces("vi", "Thông tin được gửi đến người nghe thông qua đài phát thanh.") if s.endswith("thông")]


def test_vi_the_subject_of_an_object_relative_clause_is_followed_by_its_verb():
    # after "mà" the noun phrase is the subject of the clause's own verb: a long run ending at a modal holds that verb
    assert not [s for s in surfaces("vi", "Kết quả là điều mà người học mong muốn đạt được khi tham gia.") if s.startswith("người học mong")]
    assert ("party", "người dự thi") in mentions("vi", "Lệ phí mà người dự thi phải nộp được công khai.")


def test_vi_a_closed_class_syllable_bounds_a_name_only_in_its_function_word():
    # "đối" is a preposition only in "đối với"; "đối thoại" is a noun that completes the name
    assert ("party", "người tham gia đối thoại") in mentions("vi", "Biên bản có chữ ký của người tham gia đối thoại.")
    assert ("party", "người sử dụng đất") in mentions("vi", "Quy định áp dụng đối với người sử dụng đất.")


def test_vi_an_agentive_noun_takes_a_noun_object():
    # "nhà nhập khẩu" + a noun: the object completes the name; where it ends is not known without a lexicon
    assert ("party", "Nhà nhập khẩu") not in mentions("vi", "Nhà nhập khẩu thiết bị phải kê khai hải quan.")
    assert ("party", "Nhà nhập khẩu") in mentions("vi", "Nhà nhập khẩu phải kê khai hải quan.")

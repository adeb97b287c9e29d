from workbench.parse.numerals import cn_to_int
from workbench.parse.zh import parse_zh
from workbench.core.records import DocumentMeta, EdgeType

META = DocumentMeta(key="t", version="2020", title="中华人民共和国测试法", language="zh", source_file="t.txt")


def ids(text, meta=META):
    return [u.id for u in sorted(parse_zh(text, meta).units, key=lambda u: u.ordinal)]


def test_chinese_numerals():
    assert [cn_to_int(s) for s in ["一", "十", "十二", "二十", "一百零二", "一百一十", "二百三十四",
                                    "一千零一", "两千", "〇", "１２"]] == \
        [1, 10, 12, 20, 102, 110, 234, 1001, 2000, 0, 12]


def test_articles_clauses_points_and_chapters():
    text = ("中华人民共和国测试法\n\n第一章　总　　则\n\n　　第一条　为了测试，制定本法。\n"
            "　　本法适用于测试。\n　　第二条　下列行为禁止：\n　　（一）甲；\n　　（二）乙。\n"
            "　　违反前款规定的，处罚款。\n第二章　罚则\n第一百零二条　罚款。\n")
    r = parse_zh(text, META)
    by_id = {u.id: u for u in r.units}
    assert ids(text) == ["t@2020", "t@2020/ch1", "t@2020/a1", "t@2020/a1/c1", "t@2020/a1/c2",
                         "t@2020/a2", "t@2020/a2/c1", "t@2020/a2/c1/p1", "t@2020/a2/c1/p2",
                         "t@2020/a2/c2", "t@2020/ch2", "t@2020/a102", "t@2020/a102/c1"]
    assert by_id["t@2020/ch1"].title == "总则"
    assert by_id["t@2020/a102"].article_no == 102
    assert by_id["t@2020/a2"].parent_id == "t@2020/ch1"
    assert "（二）乙" in by_id["t@2020/a2"].text and "（二）乙" in by_id["t@2020/a2/c1"].text
    assert by_id["t@2020/a2/c1/p2"].line_start == 9
    contains = {(e.source, e.target) for e in r.edges if e.type == EdgeType.CONTAINS}
    assert ("t@2020/a2/c1", "t@2020/a2/c1/p1") in contains and len(contains) == len(r.units) - 1
    assert not r.problems


def test_heading_numbers_typeset_with_a_space_inside():
    """A source that put the space before 条 ("第一百二十四 条采用…") or inside a chapter's number
    still gives its articles and chapters, with nothing joined to the article before."""
    text = ("第 十六 章　罚　则\n第一百二十三条 甲。\n第一百二十四 条采用乙，应当排除。\n第一百二十五条 丙。\n")
    r = parse_zh(text, META)
    by_id = {u.id: u for u in r.units}
    assert [x for x in ids(text) if x.count("/") == 1] == ["t@2020/ch16", "t@2020/a123", "t@2020/a124", "t@2020/a125"]
    assert by_id["t@2020/a124"].text == "采用乙，应当排除。" and by_id["t@2020/a123"].text == "甲。"
    assert by_id["t@2020/ch16"].title == "罚则" and not r.problems
    # body text starting with an article's number and no space ("第十条规定的…") is still no heading, nor a
    # wrapped line citing one with a space ("第十 条规定的…"); "第十 条之一" is article 10-1
    assert "t@2020/a10" not in ids("第一条 甲。\n第十条规定的情形，依照前款。\n")
    assert "t@2020/a10" not in ids("第一条 甲。\n第十 条规定的情形，依照前款。\n")
    assert "t@2020/a10-1" in ids("第十条 甲。\n第十 条之一 乙。\n")


def test_article_with_zhiyi_gets_label_and_integer_number():
    r = parse_zh("第十条　甲。\n第十条之一　乙。\n第十一条　丙。\n", META)
    art = {u.label: u for u in r.units if u.kind == "article"}
    assert set(art) == {"10", "10-1", "11"}
    assert art["10-1"].id == "t@2020/a10-1" and art["10-1"].article_no == 10


def test_table_of_contents_makes_no_chapters():
    text = ("测试法\n目　　录\n第一章　总　　则\n第二章　管理\n第三章　附　　则\n\n"
            "第一章　总　　则\n第一条　甲。\n第二章　管理\n第二条　乙。\n第三章　附　　则\n第三条　丙。\n")
    chapters = [u for u in parse_zh(text, META).units if u.kind == "chapter"]
    assert sorted(u.id for u in chapters) == ["t@2020/ch1", "t@2020/ch2", "t@2020/ch3"]
    assert {u.line_start for u in chapters} == {7, 9, 11}


def test_preamble_and_missing_title_line_are_kept():
    text = "（2020年1月1日通过）\n为了说明，特制定本法。\n第一条　甲。\n"
    r = parse_zh(text, META)
    doc = next(u for u in r.units if u.kind == "document")
    assert "2020年1月1日通过" in doc.text and "特制定本法" in doc.text
    assert [u.id for u in r.units if u.kind == "article"] == ["t@2020/a1"]


def test_markdown_headings_and_info_block():
    text = ("# 中华人民共和国测试法\n\n2020年1月1日 通过\n\n<!-- INFO END -->\n\n## 第一章 总则\n\n"
            "第一条 甲。\n\n第二条 乙。\n")
    r = parse_zh(text, META)
    assert sorted(u.id for u in r.units if u.kind == "article") == ["t@2020/a1", "t@2020/a2"]
    assert next(u for u in r.units if u.kind == "document").text == "中华人民共和国测试法"


def test_a_markdown_heading_is_a_heading_however_long_or_numbered():
    """A LawRefBook "##" line is structure: a chapter title with commas wrapped onto the next line, and a
    judicial interpretation's parts numbered "九、", each open a chapter; neither is a clause of the
    article before it."""
    text = ("## 第一章 总则\n\n第一条 甲。\n\n## 第二章 审查和批准决算，听取和审议国民经济和\n\n"
            "社会发展计划、预算的执行情况报告\n\n第二条 乙。\n\n## 九、诉讼费用\n\n第三条 丙。\n\n## 十、第一审普通程序\n\n"
            "第四条 丁。\n")
    r = parse_zh(text, META)
    by_id = {u.id: u for u in r.units}
    assert [by_id[f"t@2020/a{n}"].text for n in (1, 2, 3)] == ["甲。", "乙。", "丙。"]
    assert by_id["t@2020/a2"].parent_id == "t@2020/ch2"
    assert by_id["t@2020/ch2"].title == "审查和批准决算，听取和审议国民经济和社会发展计划、预算的执行情况报告"   # wrapped
    assert by_id["t@2020/a3"].parent_id == "t@2020/ch9" and by_id["t@2020/ch9"].title == "诉讼费用"
    assert by_id["t@2020/a4"].parent_id == "t@2020/ch10"
    # a contents list of such headings (no 目录 above it) opens nothing: the parts open where their number recurs
    listed = parse_zh("## 二、回避\n\n## 三、证据\n\n为了正确适用法律，制定本解释。\n\n## 一、管辖\n\n第一条 甲。\n\n"
                      "## 二、回避\n\n第二条 乙。\n\n## 三、证据\n\n第三条 丙。\n", META)
    chapters = [u for u in listed.units if u.kind == "chapter"]
    assert [c.id for c in chapters] == ["t@2020/ch1", "t@2020/ch2", "t@2020/ch3"] and not listed.problems
    assert {u.id: u.parent_id for u in listed.units if u.kind == "article"} == \
        {"t@2020/a1": "t@2020/ch1", "t@2020/a2": "t@2020/ch2", "t@2020/a3": "t@2020/ch3"}
    # a heading's next line that is a section heading or an article is not its title's end
    nested = {u.id: u for u in parse_zh("## 第一章 总则\n\n第一节 一般规定\n\n第一条 甲。\n", META).units}
    assert nested["t@2020/ch1"].title == "总则" and nested["t@2020/ch1/s1"].title == "一般规定"
    # unmarked, the same lines are text: a list item of an article, a sentence citing a chapter
    plain = parse_zh("第一条 甲：\n九、诉讼费用\n第二条 乙。\n", META)
    assert "九、诉讼费用" in next(u for u in plain.units if u.id == "t@2020/a1").text


def test_prose_starting_with_chapter_reference_is_not_a_heading():
    r = parse_zh("第一条　甲。\n第三章规定的事项，由国务院另行规定。\n", META)
    assert not [u for u in r.units if u.kind == "chapter"]
    assert "第三章规定的事项" in next(u for u in r.units if u.id == "t@2020/a1").text


def test_amendment_act_items_become_articles():
    text = "一、将刑法第十七条修改为：“甲。”\n二、删去刑法第五十条。\n本修正案自公布之日起施行。\n"
    arts = [u for u in parse_zh(text, META).units if u.kind == "article"]
    assert [a.id for a in arts] == ["t@2020/a1", "t@2020/a2"]


def test_document_without_articles_is_reported():
    r = parse_zh("这不是法律文本。\n", META)
    assert r.problems and "no articles" in r.problems[0].reason


def test_heading_that_lost_its_number_is_no_clause():
    # a source heading without its 第N章 between two articles, 附则 alone after an article, and lines
    # holding only a zero-width space (LawRefBook sources put them around headings)
    text = ("## 第一章 总则\n\n第七条 对做出显著成绩的单位和个人，给予表彰。\n\n烈士的评定\n\n"
            "第八条 公民牺牲符合下列情形之一的，评定为烈士：\n\n（一）甲；\n\n\u200b\n\n## 第三章 罚则\n\n"
            "第九条 乙。\n\n附则\n\n第十条 本条例自公布之日起\u200b施行。\n\u200b\n")
    r = parse_zh(text, META)
    by_id = {u.id: u for u in r.units}
    assert by_id["t@2020/a7"].text == "对做出显著成绩的单位和个人，给予表彰。"
    assert [u.id for u in r.units if u.parent_id == "t@2020/a7"] == ["t@2020/a7/c1"]
    assert by_id["t@2020/a8"].text == "公民牺牲符合下列情形之一的，评定为烈士：\n（一）甲；"
    assert by_id["t@2020/a9"].text == "乙。" and by_id["t@2020/a10"].parent_id == "t@2020/chappendix"
    assert by_id["t@2020/a10"].text == "本条例自公布之日起施行。"
    assert not any("\u200b" in u.text for u in r.units)
    assert len(r.problems) == 1 and r.problems[0].line == 5 and "烈士的评定" in r.problems[0].reason


def test_lines_that_are_provision_text_are_never_lost_headings():
    # a last clause with its full stop, an unpunctuated one with a date, a formula, a table row, a circled
    # item, an unpunctuated entry into force, a line too long for a heading: each stays a clause, unreported
    for line in ("本法自公布之日起施行。", "自2020年起施行", "应纳税额＝应纳税所得额×税率", "| 乘用车 | 按排量 |",
                 "①国家机关工作人员", "本法自公布之日起施行", "国务院有关部门按照职责分工负责有关工作"):
        r = parse_zh(f"第一条 甲。\n{line}\n第二条 乙。\n", META)
        assert [u.id for u in r.units if u.kind == "clause"] == ["t@2020/a1/c1", "t@2020/a1/c2", "t@2020/a2/c1"], line
        assert not r.problems, line


def test_appendix_of_a_code_stands_beside_its_parts():
    text = "第一编 总则\n第一条 甲。\n第二编 分则\n第二条 乙。\n附则\n第三条 本法自公布之日起施行。\n"
    arts = {u.id: u for u in parse_zh(text, META).units}
    assert arts["t@2020/chappendix"].parent_id == "t@2020" and arts["t@2020/a3"].parent_id == "t@2020/chappendix"


def test_roles_of_accountability_and_of_custody_credited_against_a_sentence():
    """Officials held to account in the supervision and secrecy laws' words are sanctioned; a body's handling
    of a complaint or a court's of a case is not; custody credited against a sentence imposes no penalty."""
    from workbench.parse.roles import provision_role as role
    # officials held to account in the supervision and secrecy laws' words; a court's handling of a case is none
    assert role("监察机关及其工作人员有下列行为之一的，对负有责任的领导人员和直接责任人员依法给予处理：\n（一）未经批准处置"
                "问题线索的；", language="zh") == "sanction"
    assert role("不适用处分的人员，由保密行政管理部门督促其所在机关、单位对直接责任人员予以处理。", language="zh") == "sanction"
    # custody credited against a sentence names the penalties a court imposed; it imposes none
    assert role("采取留置措施后，应当在二十四小时以内通知家属。被留置人员涉嫌犯罪移送司法机关后，被依法判处管制、拘役或者"
                "有期徒刑的，留置一日折抵管制二日，折抵拘役、有期徒刑一日。", language="zh") == "obligation"
    assert role("因食品安全犯罪被判处有期徒刑以上刑罚的，终身不得从事食品生产经营管理工作。", language="zh") == "sanction"
    assert role("对举报人反映的问题，有关部门应当及时给予处理。", language="zh") != "sanction"
    assert role("有关单位应当对责任人员的申诉及时予以处理。", language="zh") != "sanction"
    assert role("违反本法规定的，处五百元罚款，被限制人身自由一日折抵罚款二百元。", language="zh") == "sanction"
    assert role("人民法院对下列起诉，分别情形，予以处理：\n（一）不属于本院管辖的，告知原告向有管辖权的法院起诉；",
                language="zh") != "sanction"


def test_a_judicial_interpretation_names_itself_本解释():
    """Its definitions and its entry into force read as an act's do ("本解释所称", "本解释自…施行")."""
    from workbench.parse.roles import provision_role as role
    assert role("本解释所称“二年内”，以第一次违法行为受到行政处罚的生效之日与又实施相应行为之日的时间间隔计算确定。",
                language="zh") == "definition"
    assert role("本解释适用于人民法院审理的非法集资刑事案件。", language="zh") == "scope"


def test_a_lawrefbook_version_applies_from_the_commencement_its_header_states(tmp_path):
    """The header's own line "2022年4月10日 施行" dates when a version starts to apply when the text states no
    "自…起施行" (a judicial interpretation amended by a decision); the version date (the file's) otherwise."""
    import datetime as dt
    from workbench.parse.lawrefbook import import_lawrefbook
    folder = tmp_path / "laws" / "司法解释"
    folder.mkdir(parents=True)
    head = "# 某解释\n\n2022年3月22日 最高人民法院审判委员会通过\n\n"
    (folder / "某解释(2022-04-02).md").write_text(head + "2022年4月10日 施行\n\n<!-- INFO END -->\n\n第一条 甲。\n",
                                               encoding="utf-8")
    (folder / "某规定(2022-04-02).md").write_text(head + "<!-- INFO END -->\n\n第一条 乙。\n", encoding="utf-8")
    dates = {d.key: d.effective_from for d in import_lawrefbook(tmp_path).documents}
    assert dates == {"某解释": dt.date(2022, 4, 10), "某规定": dt.date(2022, 4, 2)}

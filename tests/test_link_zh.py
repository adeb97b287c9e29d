"""Chinese citations (workbench/link/zh.py, zh_amend.py): hand-made snippets, then linked."""
import importlib.util

import pytest

from workbench.link.run import extract_citations, link_units
from workbench.link.zh import extract
from workbench.parse.zh import parse_zh
from workbench.core.records import DocumentMeta, EdgeType, Unit

from conftest import ROOT, shared_corpus


def meta(key, title, version="2020", amends=()):
    return DocumentMeta(key=key, version=version, title=title, language="zh", source_file=f"{key}.txt",
                        amends=amends)


TEST_LAW = meta("t", "中华人民共和国测试法")


def units(*docs):
    """Parse (meta, text) pairs into one unit list."""
    return [u for m, text in docs for u in parse_zh(text, m).units]


def edges(*docs, kind=EdgeType.REFERENCES):
    found, _ = link_units(units(*docs))
    return [e for e in found if e.type == kind]


def pairs(*docs, kind=EdgeType.REFERENCES):
    return {(e.source, e.target) for e in edges(*docs, kind=kind)}


def test_internal_articles_with_chinese_numerals_zhiyi_clause_and_item():
    text = ("第一条　依照本法第一百零二条和第十条之一的规定。\n"
            "第二条　违反本法第三十五条第二款第（一）项、第（三）项的，依照第十条第一款、第二款处罚。\n"
            "第十条　甲。\n乙。\n第十条之一　丙。\n"
            "第三十五条　丁。\n戊：\n（一）己；\n（二）庚；\n（三）辛。\n第一百零二条　壬。\n")
    got = pairs((TEST_LAW, text))
    assert ("t@2020/a1/c1", "t@2020/a102") in got
    assert ("t@2020/a1/c1", "t@2020/a10-1") in got
    assert {("t@2020/a2/c1", f"t@2020/a35/c2/p{k}") for k in (1, 3)} <= got
    assert {("t@2020/a2/c1", f"t@2020/a10/c{k}") for k in (1, 2)} <= got
    assert all(e.resolved for e in edges((TEST_LAW, text)))


def test_ranges_lists_and_other_instrument_kinds():
    text = "第一条　依照本条例第五条至第八条、第十二条的规定。\n" + "".join(
        f"第{n}条　条文。\n" for n in ("五", "六", "七", "八", "十二"))
    got = {t for s, t in pairs((meta("r", "测试条例"), text)) if s == "r@2020/a1/c1"}
    assert got == {f"r@2020/a{n}" for n in (5, 6, 7, 8, 12)}


def test_relative_references_are_made_absolute_from_the_citing_unit():
    text = ("第一条　甲。\n"
            "第二条　乙：\n（一）丙；\n（二）依照前项规定；\n"
            "违反前款规定的，依照本条第一款处罚。\n"
            "有前两款行为的，依照第一款和前条处罚；本条另有规定的除外。\n"
            "第三条　有前条第一款第（二）项情形的，适用前条。\n")
    got = pairs((TEST_LAW, text))
    assert ("t@2020/a2/c1/p2", "t@2020/a2/c1/p1") in got          # 前项
    assert ("t@2020/a2/c2", "t@2020/a2/c1") in got                # 前款, 本条第一款
    assert {("t@2020/a2/c3", "t@2020/a2/c1"), ("t@2020/a2/c3", "t@2020/a2/c2")} <= got   # 前两款, 第一款
    assert ("t@2020/a2/c3", "t@2020/a1") in got                   # 前条
    assert ("t@2020/a2/c3", "t@2020/a2") in got                   # 本条
    assert ("t@2020/a3/c1", "t@2020/a2/c1/p2") in got              # 前条第一款第（二）项
    assert ("t@2020/a3/c1", "t@2020/a2") in got
    # relative references are read in the unit that holds them, not in the article above it
    assert not any(s == "t@2020/a2" for s, _ in got)


def test_relative_reference_without_an_answer_is_skipped():
    u = Unit(id="t@2020/a1/c1", key="t", version="2020", kind="clause", label="1",
             text="违反前款规定的，依照前条处罚。", language="zh")
    assert extract(u) == []          # clause 1 has no clause before it, article 1 no article


def test_external_reference_to_a_missing_instrument_is_a_placeholder():
    text = "第一条　依照《中华人民共和国动物防疫法》第二十条和《重大动物疫情应急条例》的规定，" \
           "凭《动物检疫合格证明》销售。\n"
    found = edges((TEST_LAW, text))
    assert {(e.target, e.resolved) for e in found} == {
        ("ref:动物防疫法/a20", False), ("ref:重大动物疫情应急条例", False)}   # not the 证明
    assert dict(found[0].attrs)["instrument"] in ("中华人民共和国动物防疫法", "重大动物疫情应急条例")


def test_external_reference_to_a_present_instrument_resolves():
    cited = (meta("dongwu-fangyi-fa", "中华人民共和国动物防疫法"), "第二十条　甲。\n第二十一条　乙。\n")
    citing = (meta("quarantine", "动物检疫管理办法"),
              "第一条　依照《中华人民共和国动物防疫法》第二十条、第二十一条和《动物防疫法》制定本办法。\n")
    got = {(e.target, e.resolved) for e in edges(cited, citing)}
    assert got == {("dongwu-fangyi-fa@2020/a20", True), ("dongwu-fangyi-fa@2020/a21", True),
                   ("dongwu-fangyi-fa@2020", True)}


def test_codes_cited_without_book_title_marks():
    text = "第一条　依照民事诉讼法第一百一十九条、刑法第十七条和该法第三条的规定。\n"
    found = extract_citations(units((meta("j", "测试解释"), text)))
    assert {(c.instrument, c.path()) for c in found} == {("民事诉讼法", "/a119"), ("刑法", "/a17")}


AMENDMENT = """一、将刑法第一百五十一条第三款修改为：“走私珍稀植物的，依照前款的规定处罚。”

二、将刑法第一百八十条第一款修改为：“内幕交易的，处五年以下有期徒刑。”

增加一款作为第四款：“从业人员的，依照第一款的规定处罚。”

三、在刑法第十七条后增加一条，作为第十七条之一：“已满七十五周岁的人故意犯罪的，可以从轻处罚。”

四、在刑法第二百九十九条中增加一款作为第二款，将该条修改为：“侮辱国旗的，处三年以下有期徒刑。

“侮辱国歌的，依照前款的规定处罚。”

五、删去刑法第一百九十九条。

六、删去刑法第五十条第二款。

七、将刑法第三百七十五条第二款中的“制式服装”修改为“制式服装、专用标志”。

八、在刑法第三十八条中增加一款作为第二款：“判处管制的，可以禁止。”

原第二款作为第三款，修改为：“对判处管制的犯罪分子，依法实行社区矫正。”

九、在刑法第一百二十条之一后增加二条，作为第一百二十条之二、第一百二十条之三：“甲。”

十、本修正案自公布之日起施行。
"""
XINGFA = (meta("刑法", "中华人民共和国刑法", "1997"),
          "第十七条　甲。\n第三十八条　乙。\n第五十条　丙。\n丁。\n第一百五十一条　戊。\n己。\n庚。\n"
          "第一百九十九条　辛。\n第二百九十九条　壬。\n")


def test_amendment_operations():
    act = (meta("刑法修正案（七）", "中华人民共和国刑法修正案（七）", "2009", amends=("刑法",)), AMENDMENT)
    found = edges(XINGFA, act, kind=EdgeType.AMENDS)
    want = {
        ("a1", "modify", "/a151/c3", None),
        ("a2", "modify", "/a180/c1", None),
        ("a2", "insert", "/a180", "180/c4"),          # the article named before in the item
        ("a3", "insert", "/a17", "17-1"),
        ("a4", "insert", "/a299", "299/c2"),
        ("a4", "modify", "/a299", None),              # 将该条修改为
        ("a5", "delete", "/a199", None),
        ("a6", "delete", "/a50/c2", None),
        ("a7", "modify", "/a375/c2", None),           # words changed inside a clause
        ("a8", "insert", "/a38", "38/c2"),
        ("a8", "modify", "/a38/c2", "38/c3"),         # 原第二款作为第三款，修改为
        ("a9", "insert", "/a120-1", "120-2"),
        ("a9", "insert", "/a120-1", "120-3"),
    }
    cits = [c for c in extract_citations(units(XINGFA, act)) if c.type == EdgeType.AMENDS and c.extractor == "zh"]
    assert {(c.source.split("/")[-1], c.op, c.path(), c.new_label) for c in cits} == want
    assert all(c.instrument == "刑法" for c in cits)
    # the edges reach the 刑法 document (its units where they exist)
    assert all(e.target.startswith("刑法@1997") for e in found if e.extractor == "zh")
    # the quoted new text ("依照前款的规定") is 刑法's, not the act's: no references from it
    assert not [e for e in edges(XINGFA, act) if e.source.startswith("刑法修正案")]


def test_amendment_without_items_and_the_act_recognised_by_its_key():
    text = "为了惩治侮辱国歌的犯罪行为，在刑法第二百九十九条中增加一款作为第二款，将该条修改为:\n" \
           "“在公共场合，侮辱国旗的，处三年以下有期徒刑。\n“侮辱国歌的，依照前款的规定处罚。”\n"
    cits = extract_citations(units((meta("刑法修正案（十）", "中华人民共和国刑法修正案（十）", "2017"), text)))
    assert {(c.source, c.op, c.path(), c.new_label) for c in cits} == {
        ("刑法修正案（十）@2017", "insert", "/a299", "299/c2"), ("刑法修正案（十）@2017", "modify", "/a299", None)}


def test_decision_items_amend_the_instrument_named_by_the_document():
    text = "一、将第五条修改为：“依照本条例第六条处罚。”\n二、删除第二十七条第三款。\n三、增加一条作为第二条：“甲。”\n"
    decision = (meta("dandong-decision", "丹东市人民代表大会常务委员会关于修改《丹东市城乡规划条例》的决定",
                     "2022", amends=("丹东市城乡规划条例",)), text)
    found = edges(decision, kind=EdgeType.AMENDS)
    got = {(e.target, dict(e.attrs).get("op"), e.resolved) for e in found if e.extractor == "zh"}
    assert got == {("ref:丹东市城乡规划条例/a5", "modify", False), ("ref:丹东市城乡规划条例/a27/c3", "delete", False),
                   ("ref:丹东市城乡规划条例/a2", "insert", False)}
    # without the document's `amends` (and a key that is no title) it reads as an ordinary text
    u = next(u for u in units(decision) if u.id.endswith("/a1"))
    assert not [c for c in extract(u) if c.type == EdgeType.AMENDS]
    assert [c.article for c in extract(u, amends=("丹东市城乡规划条例",))] == ["5"]   # quote not read


def test_constitution_amendment_articles():
    text = "第三条 宪法第十条第四款“任何组织不得出租土地。”修改为：“任何组织不得侵占土地。”\n" \
           "第四条 宪法第二十七条增加一款，作为第三款：“国家工作人员就职时应当进行宪法宣誓。”\n"
    cits = extract_citations(units((meta("宪法修正案（2018年）", "中华人民共和国宪法修正案（2018年）", "2018"), text)))
    assert {(c.instrument, c.op, c.path(), c.new_label) for c in cits} == {
        ("宪法", "modify", "/a10/c4", None), ("宪法", "insert", "/a27", "27/c3")}


def test_repeal_in_the_final_article():
    old = (meta("food-hygiene-law", "中华人民共和国食品卫生法", "1995"), "第一条　甲。\n")
    text = "第一条　甲。\n第二条　本法自2009年6月1日起施行。《中华人民共和国食品卫生法》同时废止。\n"
    new = (meta("food-safety-law", "中华人民共和国食品安全法", "2009"), text)
    assert pairs(old, new, kind=EdgeType.REPEALS) == {("food-safety-law@2009/a2/c1", "food-hygiene-law@1995")}
    missing = edges(new, kind=EdgeType.REPEALS)
    assert [(e.target, e.resolved) for e in missing] == [("ref:食品卫生法", False)]
    assert not edges(new)            # the repealed name is not also a reference


@pytest.mark.shared
def test_xingfa_amendment_recall_on_hand_written_gold():
    shared_corpus("zh-lawrefbook")
    spec = importlib.util.spec_from_file_location("extract_zh", ROOT / "benchmarks" / "extract_zh.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    result = bench.xingfa()
    assert result["gold"] >= 200 and result["acts"] >= 3
    assert result["recall"] >= 0.95, result["missed"]
    assert result["precision"] >= 0.95, result["spurious"]


DUTY_LAW = """中华人民共和国测试法

第一条　生产企业应当建立生产记录，如实记载生产活动，并保存生产记录。

第二条　禁止在生产过程中使用国家禁止使用的农业投入品。

第三条　销售的产品应当符合质量安全标准。

第四条　生产企业未依照本法规定建立、保存生产记录的，由主管部门责令限期改正；逾期不改正的，处二千元以上二万元以下罚款。

第五条　生产经营者有下列行为之一的，处五万元以上十万元以下罚款：
（一）在生产过程中使用国家禁止使用的农业投入品；
（二）销售不符合质量安全标准的产品。

第六条　违反本法第三条规定的，处一万元罚款。

第七条　违反本法规定，给他人造成损害的，依法承担赔偿责任。

第八条　经营者需要终止经营的，应当在终止前30日内告知原许可机关。

第九条　经营者有下列行为之一的，处一千元以上一万元以下罚款：
（一）未告知原许可机关，擅自终止经营的。

第十条　开具票据应当按照规定的时限如实开具，并加盖专用章。任何单位和个人不得有下列虚开票据行为：
（一）为他人开具与实际经营业务情况不符的票据；
（二）让他人为自己开具与实际经营业务情况不符的票据。

第十一条　违反本法的规定虚开票据的，由主管部门没收违法所得，并处罚款。

第十二条　主管部门发现违法行为涉嫌构成犯罪的，应当及时移送公安机关。

第十三条　违反本法规定，构成犯罪的，依法追究刑事责任。

第十四条　任何单位和个人不得有下列行为：
（一）转借证照给他人，或者以出租、出借、质押等其他方式将经营场所、设备设施和人员交由他人使用并收取费用；
（二）伪造证照。

第十五条　违反本法的规定转借证照的，由主管部门没收违法所得。

第十六条　禁止无生产许可证生产受控物质。

第十七条　无生产许可证生产受控物质的，由主管部门责令停止违法行为，并处一百万元罚款。

第十八条　生产企业应当制定事故应急预案，发生重大生产安全事故的，应当立即报告。

第十九条　发生重大生产安全事故的，由主管部门处五万元罚款。

第二十条　无生产许可证生产受控物质，构成犯罪的，依法追究刑事责任。

第二十一条　任何单位和个人不得有下列行为：
（一）拆本使用票据；
（二）扩大票据使用范围。

第二十二条　违反本法规定，有下列情形之一的，由主管部门责令改正：
（一）拆本使用票据，违法所得超过一万元的，没收违法所得，处违法所得一倍以上五倍以下的罚款；
（二）扩大票据使用范围，没有违法所得的，处一万元罚款。

第二十三条　私自印制票据，伪造证照，扩大票据使用范围的，由主管部门处五万元罚款。

第二十四条　国家实行定点屠宰、集中检疫制度，定点屠宰厂应当配备检验人员、检验设备和检疫场地。未经定点，任何单位和个人不得从事屠宰活动。但是，农村地区个人自宰自食的除外。

第二十五条　任何单位和个人不得为未经定点违法从事屠宰活动的单位或者个人提供屠宰场所或者产品储存设施。

第二十六条　违反本法规定，未经定点从事屠宰活动的，由主管部门予以取缔，并处罚款。

第二十七条　养殖场应当建立养殖档案，载明畜禽的品种、数量和来源。

第二十八条　养殖场应当按照规定保存养殖档案二年。

第二十九条　违反本法规定，养殖场未备案，养殖场未建立养殖档案或者未按照规定保存养殖档案的，由主管部门责令限期改正，可以处一万元以下罚款。
"""


def test_a_penalty_is_linked_to_the_duty_it_restates_without_numbering_it():
    """link/duties.py: "未依照本法规定建立、保存生产记录的" -> the article imposing the record
    duty; each listed conduct -> its prohibition or duty; a numbered citation is left to
    citation extraction; a penalty restating no duty links nowhere."""
    from workbench.link.duties import EXTRACTOR, implicit_duties
    units = parse_zh(DUTY_LAW, TEST_LAW).units
    links = {(e.source.split("/", 1)[1], e.target.split("/", 1)[1].split("/")[0]) for e in implicit_duties(units)}
    assert ("a4/c1", "a1") in links
    assert ("a5/c1/p1", "a2") in links and ("a5/c1/p2", "a3") in links
    assert not any(s.startswith(("a6", "a7")) for s, _ in links)
    assert ("a9/c1/p1", "a8") in links          # a procedure stated as a duty (应当 … 告知) is broken too
    assert ("a11/c1", "a10") in links           # a conduct named in a few words: the one duty naming it
    assert not any(s.startswith("a13") for s, _ in links)   # ... that it forbids or requires, not a condition
    assert ("a15/c1", "a14") in links           # ... or that a list of forbidden acts names
    assert ("a17/c1", "a16") in links           # the plain form: the conduct opens the sentence ("…的，由…")
    assert not any(s.startswith("a19") for s, _ in links)   # ... an event punished is no breach of a duty
    assert ("a20/c1", "a16") in links           # ... a trailing condition (构成犯罪) is no part of the conduct
    # a listed conduct carrying its own penalty: the conduct ends where its gain or its measure begins
    assert ("a22/c1/p1", "a21") in links and ("a22/c1/p2", "a21") in links
    # several conducts in one sentence: each that a duty names is linked to it; one none names, to nothing
    assert {t for s, t in links if s.startswith("a23")} == {"a14", "a21"}
    # a duty sentence restated without its subject and duty word ("未经定点，任何单位和个人不得从事屠宰活动"
    # -> "未经定点从事屠宰活动"), not the duty naming the conduct inside its object (为…的单位提供场所)
    assert {t for s, t in links if s.startswith("a26")} == {"a24"}
    # a conduct joining duties broken, each act it says was not done ("未建立养殖档案", "未按照规定保存养殖档案")
    # required word for word after a duty word: linked to each duty
    assert {t for s, t in links if s.startswith("a29")} == {"a27", "a28"}
    from workbench.link.duties import _not_done
    duty = [("t@1/a1", "养殖场应当建立养殖档案"), ("t@1/a2", "经营者应当保护可移动文物"), ("t@1/a3", "单位应当合格饲料")]
    assert set(_not_done("养殖场未建立养殖档案", duty)) == {"t@1/a1"}
    assert set(_not_done("未依照本条例规定报告事故", [("t@1/a9", "单位应当依照本条例规定报告事故")])) == {"t@1/a9"}
    assert _not_done("养殖场未建立档案", [("t@1/a5", "养殖场应当建立档案管理制度")]) == {}   # the act ends where
    # the duty's phrase does
    assert _not_done("不可移动文物", duty) == {}                        # a negated adjective or modal: no act
    assert _not_done("单位不合格饲料", duty) == {}
    # without a permission ("未经批准…"): the act is what a licensing rule governs, no duty broken
    assert _not_done("养殖场未经批准建立养殖档案", [("t@1/a4", "养殖场应当经批准建立养殖档案")]) == {}
    # an act restated after the party doing it, forbidden right after 不得 / 禁止 ("交通运输工具驶离指定的检疫查验地点"):
    # not after a list of acts, a negation, a verb or adverb governing it, nor where the duty's phrase goes on
    from workbench.link.duties import _act_forbidden
    duty = [("t@1/a14/c2", "未经海关准许，不得驶离指定的检疫查验地点，不得装卸货物"), ("t@1/a20", "国家规定不得开采矿产资源的其他地区"),
            ("t@1/a49", "工作人员不得借用国有文物，不得非法侵占国有文物")]
    assert _act_forbidden("交通运输工具驶离指定的检疫查验地点", duty) == "t@1/a14/c2"
    assert _act_forbidden("采取破坏性的方法开采矿产资源", duty) is None       # the duty's phrase goes on
    for not_a_party in ("盗窃、哄抢、私分或者非法侵占国有文物", "盗窃、非法侵占国有文物", "私分或者非法侵占国有文物",
                        "私分和非法侵占国有文物", "擅自驶离指定的检疫查验地点", "协助他人非法侵占国有文物",
                        "船舶未驶离指定的检疫查验地点",           # left undone: _not_done's
                        "进出境的国际航行交通运输工具驶离指定的检疫查验地点"):   # longer than a party's name
        assert _act_forbidden(not_a_party, duty) is None, not_a_party
    assert _act_forbidden("船舶装卸货物", duty) is None                 # an act shorter than ACT_MIN
    # a duty's time limit between the duty word and its act ("应当自收到…之日起十日内，提出书面答复")
    assert set(_not_done("不提出书面答复", [("t@1/a23", "被申请人应当自收到申请书副本之日起十日内，提出书面答复")])) == {"t@1/a23"}
    assert _not_done("不提出书面答复", [("t@1/a24", "被申请人应当保存档案，提出书面答复")]) == {}
    assert _not_done("不提出书面答复", [("t@1/a25", "被申请人应当在收到申请后，提出书面答复")]) == {}   # no limit
    assert set(_not_done("未依法报告监测数据", [("t@1/a26", "单位应当在规定期限内依法报告监测数据")])) == {"t@1/a26"}
    # acts joined by 或者 in the penalty, each forbidden as written by a duty joining them otherwise
    from workbench.link.duties import _named_verbatim
    duty = [("t@1/a18/c3", "任何单位和个人不得伪造隐匿或者毁灭证据。"),     # as read: characters and the marks ending parts
            ("t@1/a30", "有下列行为之一：三伪造隐匿毁灭证据")]
    assert set(_named_verbatim("串供或者伪造、隐匿、毁灭证据", duty)) == {"t@1/a18/c3"}
    assert _named_verbatim("串供或者伪造、隐匿、毁灭证据", [("t@1/a18/c3", "任何单位和个人不得伪造隐匿或者毁灭证据材料。")]) == {}
    from workbench.link.duties import _restates
    duty = "未经定点，任何单位和个人不得从事屠宰活动"
    assert _restates("未经定点从事屠宰活动", duty) and _restates("未经定点，从事屠宰活动", duty)
    assert _restates("从事屠宰活动", duty)                        # the object alone, from its start
    assert not _restates("屠宰活动", duty) and not _restates("定点从事", duty)     # fragments
    assert not _restates("构成犯罪", "涉嫌构成犯罪的，应当移送")      # a condition before the duty word
    assert all(e.extractor == EXTRACTOR and e.type == EdgeType.REFERENCES for e in implicit_duties(units))
    english = [Unit(u.id, u.key, u.version, u.kind, text=u.text, language="en", parent_id=u.parent_id) for u in units]
    assert implicit_duties(english) == []          # other languages number what a penalty enforces

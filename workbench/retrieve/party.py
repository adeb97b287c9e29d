"""The party a penalty falls on. Chinese statutes write their sanctions party by party: each
sanction opens with the party it punishes ("依托单位有下列情形之一的", "项目负责人、参与者有下列行为之一的",
"监察机关及其工作人员有下列行为之一的", "有关人员违反本法规定"), and a question asking how an act is
punished names the party it asks about ("学校可能面临哪些处罚", "对该董事应如何处罚", "她…会被怎么处理") or
opens its facts with it ("某研究所未经批准…"). Where the sanction chosen punishes another kind of party
than the one asked about, and a sibling sanction of the same version among the hits punishes that kind,
the sibling is cited in its place (`by_party`, called from cite.choose).

Kinds of party, told by the head noun's class (morphology, not a list of any law's parties): a public
body or its staff ("official": …机关, …部门, 工作人员, 执法人员), an organisation ("org": …单位, …机构,
…公司, …所, …院, …厂), a natural person ("person": a pronoun, 个人, …员, …师, 负责人); role nouns that a
business or a person may fill alike (经营者, 申请人, 当事人) are of no kind. Chinese only:
other languages' sanctions do not open with their party in one fixed place, and no question of theirs
was read for it (the function returns the cited set unchanged)."""
from __future__ import annotations

import re

from .citing import ROLE_WINDOW, Citing, kind_of

OFFICIAL = re.compile(r"(?:机关|部门|政府|委员会|监察委|纪委|局|厅|署|工作人员|公职人员|国家工作人员|干部|执法人员|办案人员|"
                      r"调查人员|监察人员|审判人员|检察人员|法官|检察官|公务员)$")
ORG = re.compile(r"(?:单位|机构|公司|企业|学校|大学|学院|高校|医院|研究所|研究院|院|所|厂|场|店|社|站|中心|协会|学会|基金会|"
                 r"银行|集团|网点|平台|商户|馆|组织|法人|作坊|超市|餐馆|酒店|宾馆|民宿|合作社|工地|车间|门店)$")
# natural persons: personal pronouns, 个人 / 公民, holders of a post or trade ("…员", "…师", "…长", 负责人);
# not the role nouns a business or a person may fill alike (经营者, 生产者, 申请人, 当事人, 承运人)
PERSON = re.compile(r"(?:他|她|他们|她们|个人|公民|自然人|员|师|长|负责人|责任人|候选人|参与者|会计|董事|监事|股东|老板|经理|"
                    r"主任|职工|员工|司机|学生|家属|子女|父母|农民|村民|商贩|摊主|高管)$")
# determiners and quantifiers before a party's head ("该董事", "这家企业", "某研究所", "一名会计")
DETERMINER = re.compile(r"^(?:该|这家|这个|这名|这位|那家|那个|那名|此|某|某个|某家|一家|一名|一位|一个|该名|相关|有关|其)")


def kind_of_party(phrase: str) -> str | None:
    """official / org / person by the head (the end) of a noun phrase; None when no class fits."""
    head = DETERMINER.sub("", (phrase or "").strip())
    if not head:
        return None
    for kind, rx in (("official", OFFICIAL), ("org", ORG), ("person", PERSON)):
        if rx.search(head):
            return kind
    return None


# the subject of the clause asking the penalty: "X(会|将|可能…)(被|受到|面临|承担|遭到)…", "对X(应)如何处罚"
_ASKED_SUBJECT = re.compile(r"([^，。；？！、,\s]{1,12}?)(?:这样做|这么做|的行为|这种行为|这种做法)?(?:会|将|要|应|应当|可能|还|又|能|可以)*"
                            r"(?:被|受到|面临|承担|遭到)")
_ASKED_OBJECT = re.compile(r"对([^，。；？！,]{1,12}?)(?:应当?|会|可以|能|要)?(?:如何|怎么|怎样|怎么样)?(?:处罚|处理|追责|处分|罚)")
_PRONOUN = re.compile(r"他们|她们|他|她")
# the facts' first actor: the noun phrase opening the question (after its date), before its first verb
_FIRST_ACTOR = re.compile(r"^(?:\d{4}年\d{1,2}月\d{1,2}日[，,])?(?:某|一家|一名|一位|一个|有个|有家|有位)?([^，。；？的]{1,10}?)"
                          r"(?:在|把|将|没|未|不|擅自|私自|为|给|用|以|通过|拿|收|因|明知|发现|对|向|从|连续|长期|多次|让|招|竟|"
                          r"违规|偷偷|悄悄|故意|违反|拒|已|刚|被)")


def asked_party(question: str) -> str | None:
    """The kind of party a penalty question asks about: the subject or object of the clause asking it,
    else a personal pronoun in the last sentence, else the actor opening the facts; None if unknown."""
    named = [m.group(1) for m in _ASKED_OBJECT.finditer(question)] + [m.group(1) for m in _ASKED_SUBJECT.finditer(question)]
    kinds = [k for k in map(kind_of_party, named) if k]
    if kinds:
        return kinds[-1]
    last = re.split(r"[。？！?!]", question.rstrip("？?。！! "))[-1]
    if _PRONOUN.search(last):
        return "person"
    m = _FIRST_ACTOR.search(question)
    return kind_of_party(m.group(1)) if m else None


# a sanction's opening noun phrase, before its conduct ("违反本法规定，" may come first)
_SUBJECT = re.compile(r"^(?:违反本[^，。；]{0,12}规定[，,])?([^，。；：:]{1,40}?)(?:违反|有下列|未|不|拒不|擅自|以|在|对|将|利用|"
                      r"滥用|伪造|骗取|提供|进行)")


def sanctioned_party(text: str) -> str | None:
    """The kind of party a sanction opens with ("依托单位有下列情形之一的" org); None when it names none
    or names parties of several kinds ("单位或者个人违反本法规定") -- a body with its staff is official."""
    m = _SUBJECT.match(text or "")
    if not m:
        return None
    kinds = {kind_of_party(p) for p in re.split(r"、|和|或者|及其|以及|及", m.group(1)) if p} - {None}
    if len(kinds) == 1:
        return kinds.pop()
    return "official" if "official" in kinds else None


def by_party(c: Citing, cited: list[str]) -> list[str]:
    """Each cited sanction punishing another kind of party than the question asks about is replaced by
    the best-ranked sanction of the same version among the next cite_max + ROLE_WINDOW hits punishing
    that kind, if one is there and not cited already (see the module doc)."""
    if not cited or not c.plan.route.sanction:
        return cited
    asked = asked_party(c.plan.question) if re.search(r"[\u4e00-\u9fff]", c.plan.question or "") else None
    if asked is None:
        return cited
    window = [h for h in c.hits[:c.policy.cite_max + 1 + ROLE_WINDOW] if kind_of(h.unit) == "sanction"]
    out = list(cited)
    for i, uid in enumerate(cited):
        unit = c.unit(uid)
        if kind_of(unit) != "sanction" or sanctioned_party(unit.text) in (None, asked):
            continue
        version = uid.split("/")[0]
        sibling = next((h.unit_id for h in window if h.unit_id.split("/")[0] == version and h.unit_id not in out
                        and sanctioned_party(h.unit.text) == asked), None)
        if sibling:
            out[i] = sibling
    return out

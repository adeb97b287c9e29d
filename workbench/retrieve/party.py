"""The party a penalty falls on. Chinese statutes write their sanctions party by party: each
sanction opens with the party it punishes ("依托单位有下列情形之一的", "项目负责人、参与者有下列行为之一的",
"监察机关及其工作人员有下列行为之一的", "有关人员违反本法规定"), and a question asking how an act is
punished names the party it asks about ("学校可能面临哪些处罚", "对该董事应如何处罚", "她…会被怎么处理") or
opens its facts with it ("某研究所未经批准…"). Where the sanction chosen punishes another kind of party
than the one asked about, and a sibling sanction of the same version among the hits punishes that kind,
the sibling is cited in its place (`by_party`, called from cite.choose).

Kinds of party, told by the head noun's class (morphology, not a list of any law's parties): a public
body, a court or the police, or their staff ("official": …机关, …部门, 法院, 民警, 工作人员 -- not a
business's staff), an organisation ("org": …单位, …机构, …公司, …所, …院, …厂), a natural person
("person": a pronoun, 个人, 张某, …员, …师, 负责人, 个体工商户); role nouns that a business or a person may
fill alike (经营者, 申请人, 当事人) and self-governing bodies (村民委员会) are of no kind. Chinese only:
other languages' sanctions do not open with their party in one fixed place, and no question of theirs
was read for it (the function returns the cited set unchanged)."""
from __future__ import annotations

import re

from ..parse.languages import has_han
from .citing import ROLE_WINDOW, Citing, kind_of

OFFICIAL = re.compile(r"(?:机关|部门|政府|监察委|纪委|局|厅|署|法院|检察院|国务院|海关|派出所|公安|监狱|证监会|银保监会|人民银行|"
                      r"工作人员|公职人员|干部|执法人员|办案人员|调查人员|监察人员|审判人员|检察人员|法官|检察官|公务员|警察|民警)$")
# staff of a business or a bank are no officials ("公司工作人员", "银行工作人员")
PRIVATE_STAFF = re.compile(r"(?:公司|企业|银行|商店|单位|机构|医院|学校)(?:的)?工作人员$")
ORG = re.compile(r"(?:单位|机构|公司|企业|学校|大学|学院|高校|医院|研究所|研究院|院|所|厂|场|店|社|站|中心|协会|学会|基金会|"
                 r"银行|集团|网点|平台|商户|馆|组织|法人|作坊|超市|餐馆|酒店|宾馆|民宿|合作社|工地|车间|门店)$")
# natural persons: personal pronouns, 个人 / 公民, holders of a post or trade ("…员", "…师", "…长", 负责人);
# not the role nouns a business or a person may fill alike (经营者, 生产者, 申请人, 当事人, 承运人)
PERSON = re.compile(r"(?:他|她|他们|她们|我|个人|公民|自然人|员|师|长|负责人|责任人|候选人|参与者|会计|董事|监事|股东|老板|经理|"
                    r"主任|职工|员工|司机|学生|家属|子女|父母|农民|村民|商贩|摊主|高管|医生|护士|法定代表人|监护人|未成年人|劳动者|"
                    r"个体工商户|^[\u4e00-\u9fff]某[甲乙丙丁]?)$")
# determiners and quantifiers before a party's head ("该董事", "这家企业", "某研究所", "一名会计")
DETERMINER = re.compile(r"^(?:该|这家|这个|这名|这位|那家|那个|那名|此|某|某个|某家|一家|一名|一位|一个|该名|相关|有关|其)")


def kind_of_party(phrase: str) -> str | None:
    """official / org / person by the head (the end) of a noun phrase; None when no class fits."""
    head = DETERMINER.sub("", (phrase or "").strip())
    if not head:
        return None
    if PRIVATE_STAFF.search(head) or head.endswith("个体工商户"):     # before the bodies and businesses they end like
        return "person"
    for kind, rx in (("official", OFFICIAL), ("org", ORG), ("person", PERSON)):
        if rx.search(head):
            return kind
    return None


# the subject of the clause asking the penalty: "X(会|将|可能…)(被|受到|面临|承担|遭到)…", "对X(应)如何处罚", "对X作出什么处罚",
# "处罚X"
_ASKED_SUBJECT = re.compile(r"([^，。；？！、,\s]{1,12}?)(?:这样做|这么做|的行为|这种行为|这种做法)?(?:会|将|要|应|应当|可能|还|又|能|可以){0,4}"
                            r"(?:被|受到|面临|承担|遭到)")
_ASKED_OBJECT = re.compile(r"对([^，。；？！,]{1,12}?)(?:应当?|会|可以|能|要|将)?(?:依法)?(?:(?:作出|给予|予以|进行)(?:什么|何种|哪些|怎样的)?|"
                           r"(?:如何|怎么|怎样|怎么样))?(?:处罚|处理|追责|处分|罚)|(?:处罚|处分)([^，。；？！,吗呢]{1,8}?)(?:吗|呢|[？?]|$)")
_PRONOUN = re.compile(r"他们|她们|他|她")
# the facts' first actor: the noun phrase opening the question (after its date), before its first verb -- not a
# body acting on another ("市场监管部门对该公司…", "执法部门将…")
_FIRST_ACTOR = re.compile(r"^(?:\d{4}年\d{1,2}月\d{1,2}日[，,])?(?:某|一家|一名|一位|一个|有个|有家|有位)?([^，。；？的]{1,10}?)"
                          r"(在|把|将|没|未|不|擅自|私自|为|给|用|以|通过|拿|收|因|明知|发现|对|向|从|连续|长期|多次|让|招|竟|"
                          r"违规|偷偷|悄悄|故意|违反|拒|已|刚|被)")
_FILLER = re.compile(r"^(?:会|可|要|将|还|又|能|也|就|都|这|那|其|此)$")


def asked_party(question: str) -> str | None:
    """The kind of party a penalty question asks about: the subject or object of the last clause asking it (None
    when it names a party of no known kind); else the actor opening the facts, which a personal pronoun in the last
    sentence refers back to when it is of a known kind (else the pronoun: a person); None if unknown."""
    # an object after the penalty verb counts only as a party ("处罚张某吗"; not "处罚上有什么不同")
    named = [(m.start(), m.group(1) or m.group(2)) for m in _ASKED_OBJECT.finditer(question)
             if m.group(1) or kind_of_party(m.group(2))] + \
            [(m.start(), m.group(1)) for m in _ASKED_SUBJECT.finditer(question)]
    named = [(at, p) for at, p in named if not _FILLER.match(DETERMINER.sub("", p))]
    m = _FIRST_ACTOR.search(question)
    first = kind_of_party(m.group(1)) if m else None
    if first == "official" and m.group(2) in ("对", "将"):       # a body acting on the party: not the party
        first = None
    if named and not _PRONOUN.fullmatch(max(named)[1]):
        return kind_of_party(max(named)[1])
    last = re.split(r"[。？！?!]", question.rstrip("？?。！! "))[-1]
    if named or _PRONOUN.search(last):       # a pronoun: the actor it refers back to, else a person
        return first or "person"
    return first


# a sanction's opening noun phrase, before its conduct ("违反本法规定，" may come first)
_SUBJECT = re.compile(r"^(?:违反本[^，。；]{0,12}规定[，,])?([^，。；：:]{1,40}?)[，,]?(?:违反|有下列|未|不|拒不|擅自|以(?![上下])|在|对|将|"
                      r"利用|滥用|伪造|骗取|进行)")
# the parties a sanction punishes in its body too ("对单位处…罚款，对直接负责的主管人员…处…罚款": a fine on a business and
# on its managers at once)
_PUNISHED = re.compile(r"对([^，。；：:]{1,20}?)(?:依法)?(?:可以|应当|还|并|另|可)*(?:处以?|判处|给予|予以)")


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


def punished_parties(text: str) -> set[str]:
    """Every kind of party a sanction punishes: the one it opens with and those its body fines or disciplines
    (a business's managers are persons, a public body's responsible staff are officials)."""
    opening = sanctioned_party(text)
    body = {kind_of_party(m.group(1)) for m in _PUNISHED.finditer(text or "")}
    if opening == "official":       # the responsible staff of a public body are its officials
        body = {"official" if k == "person" else k for k in body}
    return ({opening} | body) - {None}


def by_party(c: Citing, cited: list[str]) -> list[str]:
    """Each cited sanction punishing another kind of party than the question asks about is replaced by
    the best-ranked sanction of the same version among the next cite_max + ROLE_WINDOW hits punishing
    that kind, if one is there and not cited already (see the module doc)."""
    if not cited or not c.plan.route.sanction:
        return cited
    asked = asked_party(c.plan.question) if has_han(c.plan.question or "") else None
    if asked is None:
        return cited
    window = [h for h in c.hits[:c.policy.cite_max + 1 + ROLE_WINDOW] if kind_of(h.unit) == "sanction"]
    out = list(cited)
    for i, uid in enumerate(cited):
        unit = c.unit(uid)
        if kind_of(unit) != "sanction" or sanctioned_party(unit.text) is None or asked in punished_parties(unit.text):
            continue
        version = uid.split("/")[0]
        sibling = next((h.unit_id for h in window if h.unit_id.split("/")[0] == version and h.unit_id not in out
                        and sanctioned_party(h.unit.text) == asked), None)
        if sibling:
            out[i] = sibling
    return out


# Two parties asked at once ("公司和老板分别怎么处理", "这家屠宰厂及其法定代表人会有什么后果"): Chinese law punishes a
# unit's offence in the unit and in the persons responsible for it, often in a provision of its own that follows
# on the first -- citing it by number ("慈善组织有本法第一百一十条规定情形的，…对直接负责的主管人员处…罚款") or falling on
# those behind a party whose licence the first revokes ("…被吊销生猪定点屠宰证书的，其法定代表人…5年内不得申请…",
# "被吊销许可证的食品生产经营者及其法定代表人…"). The two parties are read in the sentence asking the consequence, joined
# by 和 / 及其 / 及 / 以及 / 与 / 跟 / 、, before the verb asking it
_PAIR = re.compile(r"([^，。；？！、,\s]{1,10}?)(?:本人)?(?:和|及其|以及|及|与|跟|、)([^，。；？！、,\s]{1,10}?)(?:本人)?(?:分别|各自)?"
                   r"(?:会|将|要|应|应当|可能|还|能|可以|又){0,3}"
                   r"(?:受到|面临|承担|怎么|如何|怎样|有(?:什么|何|哪些)(?:后果|处罚|处理|责任|法律责任))")
_REVOKED = re.compile(r"被吊销(?:其)?([^，。；的]{0,16}?(?:许可证|证书|执照|证件))")
# the persons behind a unit, as statutes name them when a penalty falls on them
_RESPONSIBLE = re.compile(r"法定代表人|主要负责人|直接负责的主管人员|直接责任人员")


def asked_parties(question: str) -> set[str]:
    """The kinds of two parties the sentence asking a consequence names together, when both are known and
    differ (a business and a person; a body and its staff are one kind: official); else none. The facts
    before it do not count ("某厂与其员工被举报…。工厂会面临什么处罚？" asks about the factory)."""
    last = re.split(r"[。？！?!]", (question or "").rstrip("？?。！! "))[-1]
    for m in _PAIR.finditer(last):
        kinds = {kind_of_party(m.group(1)), kind_of_party(m.group(2))}
        if None not in kinds and len(kinds) == 2:
            return kinds
    return set()


def follows_on(c: Citing, unit, sanctions: list[str]) -> bool:
    """Whether the sanction `unit` is drafted as following one of `sanctions`: it cites one by number, or it
    falls on the persons behind a party whose licence one of them, in its version, revokes."""
    if any(t in sanctions for _, t in c.r.ref_index().get(unit.id, ())):
        return True
    m = _REVOKED.search(unit.text or "")
    if not m:
        return False
    revokes = re.compile("吊销(?:其)?" + re.escape(m.group(1)))
    version = unit.id.split("/")[0]
    return any(s.split("/")[0] == version and c.unit(s) is not None and revokes.search(c.unit(s).text or "")
               for s in sanctions)


def with_other_party(c: Citing, cited: list[str]) -> list[str]:
    """Asked about two kinds of party at once, where the cited sanctions do not punish both: one sanction of
    the same version that follows on a cited one (`follows_on`) and punishes a kind they leave out -- by its
    opening or body, or by naming the persons responsible for a unit (not a public body's staff) -- is cited
    too, the best-ranked, else the first in the text. Chinese only, as `by_party`."""
    if not cited or not c.plan.route.sanction or not has_han(c.plan.question or ""):
        return cited
    kinds = asked_parties(c.plan.question)
    sanctions = [x for x in cited if kind_of(c.unit(x)) == "sanction"]
    if not kinds or not sanctions:
        return cited
    missing = kinds - set().union(*(punished_parties(c.unit(x).text) for x in sanctions))
    if not missing:
        return cited
    rank = {h.unit_id: i for i, h in enumerate(c.hits)}
    found = []
    for version in dict.fromkeys(x.split("/")[0] for x in sanctions):
        for u in c.r.articles(version):
            if u.id in cited or kind_of(u) != "sanction" or not follows_on(c, u, sanctions):
                continue
            persons = _RESPONSIBLE.search(u.text or "") and sanctioned_party(u.text) != "official"
            if (punished_parties(u.text) | ({"person"} if persons else set())) & missing:
                found.append(u)
    found.sort(key=lambda u: (rank.get(u.id, len(rank)), u.article_no or float("inf")))
    return cited + [found[0].id] if found else cited

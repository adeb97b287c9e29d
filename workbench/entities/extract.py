"""Entity mentions in a unit's text, by rule, for zh / vi / en, and merging of obvious variants.

Types: `authority` (public bodies: governments, departments, ministries, courts, regulators),
`party` (those regulated: 经营者, doanh nghiệp, Authorised Person, licensee), `instrument`
(laws and rules named in the text: 《…》, "Luật …", "Nghị định số …", "the … Regulations"),
`document` (certificates, licences, permits) and, in definition provisions, `term` (a defined
term that is none of the others). The cues are the grammar of legal drafting in each language
-- the heads a name ends in (部门 / 机构 / 人民政府, 者 / 人 / 企业, 许可证 / 证明; "Bộ", "Sở",
"Ủy ban", "giấy phép"; capitalised phrases ending in Authority / Court / Regulations) and the
level prefixes of the state (县级以上人民政府, 国务院, cấp tỉnh) -- not names taken from examples.

Confidence (per mention) is set by pattern strength: a closed form (《title》, a numbered
instrument, a court) 0.95; a level prefix or a fixed head phrase with its name (县级以上人民政府
X部门, "Ủy ban nhân dân cấp tỉnh", "Financial Services Regulator") 0.85-0.9; a head with a
modifier found by scanning to the nearest function word 0.6-0.75; a bare generic head (许可证,
"licence", "the court") 0.5-0.6. Where mentions overlap the more confident, then longer, wins.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, replace

from ..core.records import Unit
from ..link.terms import EN as EN_TERMS, VI as VI_TERMS, ZH as ZH_TERMS
from ..parse.roles import role_of

TYPES = ("authority", "party", "instrument", "document", "term")


@dataclass(frozen=True)
class Mention:
    entity_id: str
    type: str
    surface: str
    unit_id: str
    start: int          # character offsets into unit.text
    end: int
    confidence: float


@dataclass(frozen=True)
class Entity:
    id: str
    type: str
    name: str                     # canonical name: the most frequent surface form
    surfaces: tuple[str, ...]
    language: str


# -- normalisation -----------------------------------------------------------------------------
_HALF = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}
_PAIRS = {"《": "》", "“": "”", '"': '"', "'": "'", "‘": "’", "(": ")", "[": "]", "「": "」", "『": "』", "〈": "〉"}
# two Vietnamese conventions put the tone of a final oa / oe / uy on either vowel (hoà / hòa,
# uỷ / ủy): keep it on the first (matched on the decomposed, case-folded form)
_VI_TONE = re.compile(r"(?<!q)(o[ae]|uy)([\u0300\u0301\u0303\u0309\u0323])(?![^\W\d_])")


def normalise(surface: str) -> str:
    """NFC, full-width -> half-width, collapsed spaces, enclosing quotes / brackets removed,
    case-folded (a no-op on Chinese), one Vietnamese tone placement."""
    s = unicodedata.normalize("NFC", surface).translate(_HALF)
    s = re.sub(r"\s+", " ", s).strip()
    while len(s) >= 2 and _PAIRS.get(s[0]) == s[-1] and s[-1] not in s[1:-1]:
        s = s[1:-1].strip()
    s = unicodedata.normalize("NFD", s.casefold())
    s = _VI_TONE.sub(lambda m: m.group(1)[0] + m.group(2) + m.group(1)[1], s)
    return unicodedata.normalize("NFC", s)


def entity_id(type_: str, surface: str) -> str:
    return f"{type_}:{normalise(surface)}"


# -- Chinese -----------------------------------------------------------------------------------
_ZH_GOV = (r"(?:国务院|(?:县|设区的市|市|省|乡)级以上(?:地方)?(?:各级)?人民政府|省、自治区、直辖市人民政府|"
           r"(?:地方各级|各级|县级|乡级|乡、民族乡、镇|乡镇|设区的市级?|省级|本级|同级|上级|上一级|所在地)(?:地方)?人民政府)")
_ZH_LEVEL = r"(?:同级|上级|上一级|地方各级|各级|所在地|(?:县|设区的市|市|省)级以上(?:地方)?|(?:省|设区的市|市|县|乡)级)"
_ZH_AUTH_HEAD = r"(?:主管部门|行政部门|管理部门|部门|机构|委员会|机关)"
# a modifier character: not a modal, not a function word, no coordination into a new level
_ZH_MOD = (r"(?:(?!应当|不得|可以|必须|负责|会同|依法|按照|依照|根据|[的由向对将在并及或被]|[和与][有其相各同上本县省市国乡地设])"
           r"[\u4e00-\u9fff、])")
ZH_TIER1 = re.compile(rf"{_ZH_GOV}(?:{_ZH_MOD}{{1,24}}?等?{_ZH_AUTH_HEAD})?|{_ZH_LEVEL}{_ZH_MOD}{{1,24}}?等?{_ZH_AUTH_HEAD}")
ZH_COURT = re.compile(r"(?:最高|高级|中级|基层|地方各级|各级)?人民(?:法院|检察院)|公安机关|海关")
ZH_HEADS = [("authority", re.compile(_ZH_AUTH_HEAD), 0.6, 12),
            ("party", re.compile(r"(?<![或前后再两三二])者|人员|(?<![个他工家])人(?![民员大身体畜工口类格为群数次力])|"
                                 r"(?:企业|单位|个人)(?!名称|标准|信息|卫生|隐私|财产|内部|所在地|住所|地址)|"
                                 r"(?<![出进建办开])(?:[厂场][（(][厂场][）)]|厂)|户|[货畜业船车]主"), 0.65, 10),
            ("document", re.compile(r"许可证|合格证明?|证明(?:文件|(?=[，。；、：,;:）)和或的等及与]|$))|证书|执照|批准文件|登记证|凭证"), 0.7, 12)]
ZH_INSTRUMENT = re.compile(r"《([^《》\n]{1,60})》")
_ZH_STOP_CHARS = set("，。；：、！？（）()《》“”\"' \n\t的由向对将在并及或被使给从与和者上")
# function words, modals and governing verbs: a name starts after the last of them
_ZH_STOP_WORDS = tuple("""应当 不得 可以 必须 负责 会同 依法 按照 依照 依据 根据 督促 鼓励 引导 组织 要求 责令 通知 告知
    指导 支持 协助 委托 允许 准许 禁止 取得 持有 出具 核发 发给 颁发 签发 提供 申请 办理 凭 属于 能够 予以 其他 有关
    相关 上述 前款 本款 该 各 其 本 于 以下称 方可 所称 所指 任何 所有 是指 是 为""".split())
# verbs that take a party or a document as object (查验供货者, 随附合格证明); not inside authority names
_ZH_VERBS = tuple("监督 检查 查验 审查 审核 发现 随附 附具 标注 建立 出示 收取 进入 回收".split())
_ZH_GENERIC = ("企业", "个人", "单位", "许可证", "合格证", "证书", "执照")     # a name only in context
_ZH_BARE = _ZH_GENERIC + ("货主", "畜主", "业主", "船主", "车主")


def _zh(text: str) -> list[tuple[str, int, int, float]]:
    found = [("instrument", m.start(1), m.end(1), 0.95) for m in ZH_INSTRUMENT.finditer(text)]
    found += [("authority", m.start(), m.end(), 0.95) for m in ZH_COURT.finditer(text)]
    for m in ZH_TIER1.finditer(text):
        found.append(("authority", m.start(), m.end(), 0.9 if m.end() - m.start() > 4 else 0.85))
    for type_, rx, conf, reach in ZH_HEADS:
        for m in rx.finditer(text):
            start = m.start()
            while start > 0 and m.start() - start < reach and text[start - 1] not in _ZH_STOP_CHARS:
                start -= 1
            mod = text[start:m.start()]
            words = _ZH_STOP_WORDS + (_ZH_VERBS if type_ != "authority" else ())
            keep_tail = type_ == "party" and m.group() in ("人", "者")   # 申请人, 持有人, 提供者: verb + 人 / 者
            cut = max((mod.rfind(w) + len(w) for w in words
                       if w in mod and not (keep_tail and mod.rfind(w) + len(w) == len(mod))), default=0)
            mod = "" if m.group() == "个人" else mod[cut:]   # 个人 takes no modifier (保持个人卫生)
            if type_ != "party":                    # 经X批准, 报X备案, 附有X证明: a leading verb
                mod = re.sub(r"^(?:经|报|除|附有|有|转让|出借|伪造)+", "", mod)
            surface = mod + m.group()
            if (not mod and surface not in _ZH_BARE) or (m.group() == "户" and len(mod) < 2) or \
                    (surface in _ZH_GENERIC and text[max(0, m.start() - 1):m.start()] in ("本", "该", "其", "各", "此")):
                continue                            # 本单位, 该企业: the party already named, not a new one
            found.append((type_, m.start() - len(mod), m.end(), 0.5 if surface in _ZH_GENERIC else conf))
    return found


# -- Vietnamese --------------------------------------------------------------------------------
_LATIN = [chr(c) for c in list(range(0xC0, 0x250)) + list(range(0x1E00, 0x1F00)) if chr(c).isalpha()]
_LO = "a-z\u0300-\u036f" + "".join(c for c in _LATIN if c.islower())   # with combining marks (NFD text)
_UP = "A-Z" + "".join(c for c in _LATIN if c.isupper())
_CAP, _LOW = rf"[{_UP}][{_LO}]*", rf"[{_LO}]+"
_VI_ORG = r"(?:Bộ|Sở|Tổng cục|Chi cục|Cục|Ủy ban|Uỷ ban|Hội đồng|Tòa|Toà|Viện|Thủ|Quốc|Thanh|Chính)"
_VI_NAME = rf"{_CAP}(?: (?:{_CAP}|{_LOW}))?(?:(?: và|,| -) (?!{_VI_ORG}\b){_CAP}(?: (?!(?:có|phải|được|là|và)\b){_LOW})?)*"
VI_FIXED = [
    ("authority", re.compile(r"(?:Ủy|Uỷ) ban nhân dân(?: các)?(?: cấp (?:tỉnh|huyện|xã))?|Hội đồng nhân dân(?: cấp (?:tỉnh|huyện|xã))?|"
                             r"(?:Tòa|Toà) án nhân dân(?: (?:tối cao|cấp cao|cấp tỉnh|cấp huyện))?|Viện kiểm sát nhân dân(?: (?:tối cao|cấp tỉnh|cấp huyện))?|"
                             r"Thủ tướng Chính phủ|Chính phủ|Quốc hội|[Cc]ơ quan (?:nhà nước |quản lý nhà nước )?có thẩm quyền"), 0.9),
    ("authority", re.compile(rf"(?:(?:Bộ trưởng|Thủ trưởng|Thanh tra|Giám đốc|Cục trưởng|Chánh thanh tra) )?"
                             rf"(?:Bộ|Sở|Tổng cục|Chi cục|Cục|Ủy ban|Uỷ ban|Hội đồng) {_VI_NAME}"), 0.85),
    ("instrument", re.compile(r"(?:Bộ luật|Luật|Pháp lệnh|Nghị định|Nghị quyết|Thông tư(?: liên tịch)?|Quyết định|Chỉ thị)"
                              r"(?: số)? \d+/\d{4}/[A-ZĐ0-9\-]+"), 0.95),
    ("party", re.compile(r"(?<![\w])(?:[Tt]ổ chức(?=\s*(?:[,.;:)]|$|(?:và|hoặc) (?:cá nhân|người)|cá nhân|phải|không|được|có|là|vi phạm|nước ngoài|trong nước))|"
                         r"[Cc]á nhân|[Dd]oanh nghiệp|[Tt]hương nhân|[Hh]ộ kinh doanh|[Hh]ộ gia đình|[Nn]hà (?:đầu tư|thầu|sản xuất|nhập khẩu|cung cấp)|"
                         r"[Nn]gười sử dụng lao động|[Nn]gười lao động)(?![\w])"), 0.7),
]
# heads whose name runs on over lowercase modifier syllables up to the next function word
VI_HEADS = [("party", re.compile(r"(?<![\w])(?<!trên )(?<!làm )(?:[Cc]ơ sở|[Nn]gười|[Cc]hủ(?! (?:trì|động|yếu|trương|đề|quyền)\b)|"
                                 r"[Đđ]ơn vị)(?= )"), 0.65, False),
            ("document", re.compile(r"(?<![\w])(?:[Gg]iấy phép|[Gg]iấy chứng nhận|[Cc]hứng chỉ|[Gg]iấy xác nhận|[Gg]iấy đăng ký|"
                                    r"[Vv]ăn bản chấp thuận)(?![\w])"), 0.8, True),
            ("instrument", re.compile(rf"(?<![\w])(?:Bộ luật|Luật|Pháp lệnh)(?= {_CAP})"), 0.85, True)]
_VI_STOP = set("phải không được có là và hoặc của theo tại trong khi thì đã đang sẽ cho với về để do bị từ đến trên dưới "
               "này đó nếu mà các những thuộc chịu nộp nào ấy đây gồm sau trước số năm ngày quy trừ xin".split())
_VI_STOP_LATER = {"vi"}     # "người vi phạm" is a name, "cơ sở … vi phạm" ends at the verb
_VI_HEADWORDS = ("tổ", "cá", "doanh", "cơ", "người", "bộ", "sở", "ủy", "uỷ", "giấy", "văn", "chứng")
_VI_SYL = re.compile(rf"(,? )([{_UP}{_LO}]+)")


def _vi_run(text: str, pos: int, bare_ok: bool, named: bool, limit: int = 7) -> tuple[int, int] | None:
    """Extend a head at `pos` over modifier syllables (a capital only first, in a `named` instrument);
    (end, syllables), or None when there are none and the bare head is no name."""
    end, n, first, segment = pos, 0, 0, 0      # a segment after a comma is parallel: no longer than the first
    while n < limit and (m := _VI_SYL.match(text, end)):
        word, comma = m.group(2), m.group(1).startswith(",")
        if word.lower() in _VI_STOP or (n and word.lower() in _VI_STOP_LATER) or \
                ((n or not named) and word[0].isupper()) or \
                (comma and (n == 0 or word.lower() in _VI_HEADWORDS or word[0].isupper())) or \
                (first and not comma and segment > first):
            break
        if comma:
            first, segment = first or n, 0
        end, n, segment = m.end(), n + 1, segment + 1
    return (end, n) if n or bare_ok else None


def _vi(text: str) -> list[tuple[str, int, int, float]]:
    found = [(t, m.start(), m.end(), c) for t, rx, c in VI_FIXED for m in rx.finditer(text)]
    for type_, rx, conf, bare_ok in VI_HEADS:
        for m in rx.finditer(text):
            run = _vi_run(text, m.end(), bare_ok, type_ == "instrument")
            if run:
                found.append((type_, m.start(), run[0], conf if run[1] else 0.6))
    return found


# -- English -----------------------------------------------------------------------------------
_W, _S = r"[A-Z][\w'&-]*", r"[ \t]+"        # a capitalised word; a space that is not a line break
_PHRASE = rf"(?:{_W}{_S}(?:(?:of|for|and|on|in){_S})?){{0,6}}?"
EN_RULES = [
    ("instrument", re.compile(rf"{_W}{_S}(?:(?:of|for|and|on|in){_S})?{_PHRASE}(?:Act|Regulations|Rules|Rulebook|Ordinance|Code|"
                              rf"Decree|Law|Directive|Order|Statute)(?:{_S}of{_S}{_W})?(?:{_S}\(?\d{{4}}\)?)?\b"), 0.85),
    ("authority", re.compile(rf"{_PHRASE}(?:Authority|Regulator|Court|Tribunal|Registrar|Commission(?:er)?|Committee|Board|Agency|"
                             rf"Ministry|Minister|Department|Office|Council|Registry|Ombudsman|Inspectorate)s?"
                             rf"(?:{_S}(?:of|for){_S}{_W}(?:{_S}(?:and{_S})?{_W}){{0,3}})?\b"), 0.85),
    ("party", re.compile(rf"{_PHRASE}(?:Person|Entity|Entities|Firm|Institution|Holder|Licensee|Applicant|Operator|Client|"
                         rf"Member|Provider|Issuer|Undertaking|Participant|Employer|Practitioner|Trustee|Custodian|Insurer)s?\b"), 0.85),
    ("document", re.compile(rf"(?:{_W}{_S}){{1,3}}(?:Licen[cs]e|Permit|Certificate|Approval|Authori[sz]ation|Permission)s?\b|"
                            rf"Certificate{_S}of{_S}{_W}(?:{_S}{_W})*"), 0.85),
    # an acronym acting as a body: "the FSRA may", "by the FCA"
    ("authority", re.compile(r"(?<=\b[Tt]he )[A-Z]{2,6}\b(?=\s+(?:may|must|shall|will|can|has|is|considers|expects|requires|"
                             r"issues|grants|imposes))|(?<=\bby the )[A-Z]{2,6}\b"), 0.55),
    ("authority", re.compile(r"(?<=\bthe )(?:court|regulator|registrar|tribunal)\b"), 0.5),
    ("party", re.compile(r"\b(?:licensee|licen[cs]e holder|permit holder|certificate holder|applicant|registrant|permittee|"
                         r"operator|employer|manufacturer|importer|exporter|distributor|proprietor|practitioner)s?\b"), 0.6),
    ("document", re.compile(r"\b(?:([a-z]+)\s+)?(?:licen[cs]e|permit|certificate|approval|authori[sz]ation)s?\b"), 0.7),
]
_EN_LEAD = re.compile(r"^(?:(?:The|A|An|Any|Each|Every|No|This|That|These|Those|Such|Where|If|When|Unless|In|On|For|Under|"
                      r"Subject|Notwithstanding|Without|Pursuant|Nothing|Article|Rule|Section|Chapter|Part|Schedule|Clause|"
                      r"Regulation|Terms?|of|and|for|on|in)\s+)+")
_EN_LOW_STOP = set("a an the any such its their his her that this these those new valid same each every no of for to under in "
                   "with by on issue issues issued grant grants granted hold holds renew revoke suspend obtain apply and or "
                   "relevant written prior not shall may must will".split())
_EN_ARTICLE = re.compile(r"\b(?:the|a|an|any|each|every|such)\s+$", re.IGNORECASE)


def _en(text: str) -> list[tuple[str, int, int, float]]:
    found = []
    for type_, rx, base in EN_RULES:
        for m in rx.finditer(text):
            start, end, conf = m.start(), m.end(), base
            if base >= 0.85:                               # a capitalised name: drop leading function words
                lead = _EN_LEAD.match(m.group())
                start += lead.end() if lead else 0
                if not re.search(r"\s", text[start:end].strip()):   # one word left: "Act", "Regulator"
                    if type_ in ("instrument", "document"):
                        continue
                    conf = 0.8 if _EN_ARTICLE.search(text[:start]) else 0.6
            if m.groups() and m.group(1):                  # "practising certificate", not "a certificate"
                if m.group(1).lower() in _EN_LOW_STOP:
                    start = m.start(1) + len(m.group(1))
                else:
                    conf = 0.75
            if text[start:end].strip().lower().startswith("permit") and \
                    re.search(r"\b(?:to|not|shall|may|must|will|would)\s+$", text[:start]):
                continue                                   # "permit" the verb
            if text[start:end].strip():
                found.append((type_, start, end, conf))
    return found


# -- mentions ----------------------------------------------------------------------------------
_BY_LANGUAGE = {"zh": _zh, "vi": _vi, "en": _en}
_TERMS = {"zh": ZH_TERMS, "vi": VI_TERMS, "en": EN_TERMS}


def defined_spans(unit: Unit) -> list[tuple[int, int]]:
    """Where the unit's lines name a defined term ("本法所称X，是指", "X là", '"X" means')."""
    spans, offset = [], 0
    for line in (unit.text or "").split("\n"):
        for rx in _TERMS.get(unit.language[:2], EN_TERMS):
            spans += [(offset + m.start(1), offset + m.end(1)) for m in rx.finditer(line) if m.group(1).strip()]
        offset += len(line) + 1
    return spans


def extract(unit: Unit) -> list[Mention]:
    """The entity mentions in one unit's text, overlaps resolved (more confident, then longer, wins)."""
    text = unit.text or ""
    raw = _BY_LANGUAGE.get(unit.language[:2], _en)(text)
    kept: list[tuple[str, int, int, float]] = []
    for item in sorted(raw, key=lambda r: (-r[3], r[1] - r[2], r[1])):
        if item[2] > item[1] and text[item[1]:item[2]].strip() and \
                all(item[2] <= k[1] or item[1] >= k[2] for k in kept):
            kept.append(item)
    if role_of(unit) == "definition":
        for s, e in defined_spans(unit):
            if all(e <= k[1] or s >= k[2] for k in kept):
                kept.append(("term", s, e, 0.9))
    out = []
    for type_, s, e, conf in sorted(kept, key=lambda r: r[1]):
        surface = text[s:e].strip()
        s = text.index(surface, s)
        out.append(Mention(entity_id(type_, surface), type_, surface, unit.id, s, s + len(surface), round(conf, 3)))
    return out


def instrument_id(unit: Unit, titles: dict[str, str] | None = None, known=()) -> str:
    """The entity id of the unit's own instrument: its title when known (so 《title》 mentions
    elsewhere meet it), else its key; the variant without 中华人民共和国 / "the" when that is
    among the `known` ids (as `aliases` would merge them)."""
    own = entity_id("instrument", (titles or {}).get(unit.key) or unit.key)
    short = _alias_key(own, False)
    return short if short != own and short in known else own


def _alias_key(id_: str, merge_local: bool) -> str:
    type_, _, form = id_.partition(":")
    form = re.sub(r"^(?:中华人民共和国|the )", "", form)
    if merge_local:
        form = form.replace("级以上地方人民政府", "级以上人民政府")
    return f"{type_}:{form}"


def aliases(entities, merge_local: bool = False) -> dict[str, str]:
    """Variant id -> canonical id for obvious variants of one type: a leading 中华人民共和国 or
    "the", an English plural whose singular is also present; with `merge_local`, 县级以上地方
    人民政府X and 县级以上人民政府X (off by default: the first excludes the central level)."""
    ids = {e.id for e in entities}
    groups: dict[str, list[str]] = {}
    for id_ in sorted(ids):
        key = _alias_key(id_, merge_local)
        for singular in (re.sub(r"ies$", "y", key), re.sub(r"(?<=[a-z])s$", "", key)):
            if singular != key and (singular in ids or singular in groups):
                key = singular
                break
        groups.setdefault(key, []).append(id_)
    out = {}
    for key, members in groups.items():
        canonical = key if key in members else min(members, key=len)
        out.update({m: canonical for m in members if m != canonical})
    return out


def extract_all(units, titles: dict[str, str] | None = None, merge_local: bool = False):
    """(entities, mentions) for many units, variants merged (see `aliases`); each unit's own
    instrument is an entity too (named by its title or key) so relations can start from it."""
    mentions = [m for u in units for m in extract(u)]
    language = {u.id: u.language[:2] for u in units}
    seen: dict[str, list] = {}
    for m in mentions:
        seen.setdefault(m.entity_id, []).append((m.surface, language.get(m.unit_id, "")))
    for u in units:
        seen.setdefault(instrument_id(u, titles), []).append(((titles or {}).get(u.key) or u.key, u.language[:2]))
    entities = [Entity(i, i.partition(":")[0], "", (), "") for i in seen]
    mapping = aliases(entities, merge_local)
    merged: dict[str, list] = {}
    for id_, forms in seen.items():
        merged.setdefault(mapping.get(id_, id_), []).extend(forms)
    entities = []
    for id_, forms in merged.items():
        names = Counter(f for f, _ in forms)
        langs = Counter(lang for _, lang in forms)
        entities.append(Entity(id_, id_.partition(":")[0], names.most_common(1)[0][0], tuple(sorted(names)),
                               langs.most_common(1)[0][0]))
    mentions = [replace(m, entity_id=mapping.get(m.entity_id, m.entity_id)) for m in mentions]
    return entities, mentions

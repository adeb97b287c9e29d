"""Provision roles: what a legal unit exists to lay down, by rule, for zh / vi / en.

Roles (one per unit): definition, scope (coverage, purpose, entry into force, repeal),
sanction (fine, imprisonment, revocation, liability), prohibition, procedure (applications,
documents, time limits, registration, review), obligation, permission (a right, power,
licence or exemption), other. Structural units (documents, parts, chapters, sections) have
no role ("").

How a role is chosen, following how provisions are drafted: a heading that names a role
("Giải thích từ ngữ", "Interpretation", "Penalties", "法律责任") decides; else each sentence
takes the first role whose modal or operative verb it carries, in the order of `ROLES`
(a sentence that both forbids and fines is a sanction); a unit whose sentences include a
definition, a scope statement or a sanction takes the role of the first of these, else the role most of its
sentences take (ties in the order of `ROLES`). The cues are the operative words of legal
drafting in each language (应当 / 不得 / 可以, phải / cấm / được phép, must / must not / may),
not phrases of any question set. Measured against hand labels in
`benchmarks/handcheck/roles_*.csv` (`benchmarks/roles.py`).
"""
from __future__ import annotations

import re

from .languages import guess_language, has_han

ROLES = ("definition", "scope", "sanction", "prohibition", "procedure", "obligation", "permission", "other")
STRUCTURAL = ("document", "part", "chapter", "section", "subsection")
DECISIVE = ("definition", "scope", "sanction")   # any sentence of these roles decides the unit


def _rx(*parts: str) -> re.Pattern:
    return re.compile("|".join(parts), re.IGNORECASE)


# a title in book-title marks names a law; its words (《行政处罚法》) are not the provision's cues
_ZH_TITLE = re.compile(r"《[^《》]{1,60}》")

# sentence cues, per language, per role (first match in ROLES order wins for a sentence)
CUES: dict[str, dict[str, re.Pattern]] = {
    "zh": {
        # an instrument names itself 本法, 本条例, …, and a judicial interpretation 本解释
        "definition": _rx(r"是指(?![导定挥派示])", r"本(?:法|条例|办法|规定|细则|决定|解释)(?:中)?所称", r"下列用语的含义",
                          r"的含义[是为]"),
        "scope": _rx(r"为了.{2,80}制定本(?:法|条例|办法|规定|细则|解释)", r"本(?:法|条例|办法|规定|细则|解释)适用于",
                     r"适用本(?:法|条例|办法|规定|解释)", r"(?:起|之日)(?:起)?施行", r"同时废止", r"负责解释",
                     r"不适用本(?:法|条例|办法|规定|解释)",
                     r"本(?:法|条例|办法|规定|细则|解释)施行(?:前|以前|之日)"),
        "sanction": _rx(r"罚款", r"罚金", r"处罚", r"吊销", r"没收", r"处分", r"追究.{0,8}责任", r"拘留",
                        r"责令停产停业", r"有期徒刑", r"赔偿责任", r"承担.{0,4}责任", r"(?:给予|予以|处以?)警告",
                        r"撤职", r"撤销其?[^。；，,申]{0,10}资格(?!证明|认定)",
                        # holding officials to account in the words of the supervision and secrecy laws
                        # ("对负有责任的领导人员和直接责任人员依法给予处理", "责令改正，依法给予处理") -- not
                        # a court's or an office's handling of a case ("人民法院…分别情形，予以处理")
                        r"(?:责任|领导)人员[^。；]{0,12}给予处理", r"责令改正[，,]?(?:并)?依法给予处理",
                        r"(?:责任|领导)人员(?![^。；，,]{0,8}(?:申诉|申请|投诉|举报))[^。；，,]{0,8}予以处理"),
        "prohibition": _rx(r"禁止", r"不得", r"严禁"),
        "procedure": _rx(r"申请", r"受理", r"审查", r"审核", r"备案", r"登记", r"听证", r"复议", r"(?:个)?工作日",
                         r"[日天]内", r"程序", r"提交", r"报送", r"报告", r"由.{2,40}(?:出具|核发|发给|签发|办理)"),
        "obligation": _rx(r"应当", r"必须", r"负责", r"有.{0,4}义务", r"(?<![无毋])须", r"方可",
                          r"由.{2,40}(?:组织|制定|负责)"),
        "permission": _rx(r"可以", r"有权", r"准予", r"许可", r"批准", r"免予", r"[无毋]须"),
    },
    "vi": {
        # "X là Y": a definition, unless Y is a quantity ("Thời hạn kháng cáo là 15 ngày" sets a
        # period, a rule) or a negation
        "definition": _rx(r"được hiểu là", r"giải thích từ ngữ", r"các từ ngữ dưới đây",
                          # ... whose subject is a term: not a condition ("Trường hợp …", "Nếu …", "Khi …") or
                          # an act ("Đã chấp hành …"), and not a quantity ("ít nhất là")
                          r"^\s*(?:\d+\.\s*|[a-zđ]\)\s*)?+(?!\s*(?:(?:Bộ luật|Luật|Nghị định|Thông tư|Pháp lệnh) này|"
                          r"(?:Trường hợp|Nếu|Khi|Trong|Đã|Được)\b))[^,.;:\n]{2,60}?(?<!ít nhất)(?<!nhiều nhất)(?<!tối đa)"
                          r"(?<!tối thiểu)\s+là\s+(?!\d|(?:hai|ba|bốn|năm|sáu|bảy|tám|chín|mười)\s|không\b)"),
        "scope": _rx(r"phạm vi điều chỉnh", r"đối tượng áp dụng", r"có hiệu lực(?: thi hành)?(?: kể)? từ",
                     r"hết hiệu lực", r"bãi bỏ", r"(?:Luật|Bộ luật|Nghị định|Thông tư|Pháp lệnh) này quy định về",
                     r"(?:Luật|Bộ luật|Nghị định|Thông tư|Pháp lệnh) này áp dụng", r"(?:Luật|Bộ luật) này là luật", r"điều khoản chuyển tiếp",
                     r"quy định chuyển tiếp"),
        "sanction": _rx(r"phạt tiền", r"phạt tù", r"phạt cải tạo", r"tử hình", r"chung thân", r"xử phạt",
                        r"bị xử lý", r"truy cứu trách nhiệm", r"tước quyền", r"thu hồi giấy", r"hình phạt",
                        r"kỷ luật", r"cảnh cáo"),
        "prohibition": _rx(r"nghiêm cấm", r"\bcấm\b", r"không được"),
        "procedure": _rx(r"hồ sơ", r"thủ tục", r"trình tự", r"ngày làm việc", r"trong thời hạn", r"nộp đơn",
                         r"đơn đề nghị", r"thẩm định", r"khiếu nại", r"khởi kiện", r"thông báo"),
        "obligation": _rx(r"\bphải\b", r"có trách nhiệm", r"có nghĩa vụ", r"nghĩa vụ"),
        "permission": _rx(r"có quyền", r"được phép", r"được quyền", r"được cấp", r"được miễn", r"được hưởng",
                          r"quyền hạn"),
    },
    "en": {
        "definition": _rx(r"(?<!by )\bmeans\b", r"\bhas the (?:same )?meaning\b", r"\bis defined\b",
                          r"\bare defined\b",
                          r"\b(?:shall|will) mean\b"),
        "scope": _rx(r"\b(?:this|these|the)\s+(?:rules?|chapters?|parts?|sections?|regulations?|modules?|rulebook|"
                     r"guidance|requirements?)\b[^.;]{0,40}?\b(?:do(?:es)? not )?appl(?:y|ies)\b", r"\bcomes? into force\b",
                     r"\bcommencement\b", r"\bmay be cited as\b", r"\brepeal", r"\btransitional\b",
                     r"\bthis (?:chapter|part|rulebook|module|section|guidance) (?:applies|sets out)\b"),
        "sanction": _rx(r"\bliable\b", r"\bfines?\b(?! tun)", r"\bpenalt(?:y|ies)\b", r"\bimprisonment\b",
                        r"\brevok", r"\brevocation\b", r"\bcensure", r"\bcommits an offence\b",
                        r"\bguilty of an offence\b", r"\bconvict"),
        "prohibition": _rx(r"(?-i:^\s*No\s+[A-Z])", r"\bmust not\b", r"\bshall not\b", r"\bmay not\b", r"\bis prohibited\b",
                           r"\bare prohibited\b", r"\bno person (?:may|shall|must)\b", r"\bmust never\b"),
        "procedure": _rx(r"\bapplication\b", r"\bapply to the\b", r"\bnotif(?:y|ication)\b", r"\bsubmit",
                         r"\bwithin \w+ (?:business |calendar )?days\b", r"\bprocedures?\b",
                         r"\bappeal\b", r"\bregist(?:er|ration)\b"),
        "obligation": _rx(r"\bmust\b", r"\bshall\b", r"\bis required to\b", r"\bare required to\b",
                          r"\bshould\b", r"\bresponsible for\b"),
        # "may" grants, unless it guesses: "may have been engaged", "may include", "may be aware";
        # "authorised" as a predicate ("is authorised to"), not the defined term "Authorised Person"
        "permission": _rx(r"\bmay\b(?! (?:have (?:been|had)|include|be (?:aware|able|engaged|relevant|appropriate|necessary|useful|difficult|possible))\b)",
                          r"\bis entitled\b", r"\bpermitted\b", r"\b(?:is|are|be|been|was|were)\s+(?:\w+\s+)?authori[sz]ed\b",
                          r"\bwaive", r"\bnot required to\b", r"\bexcused\b",
                          r"\bexempt", r"\bcan\b"),
    },
}

# headings (titles) that name a role
HEADINGS: dict[str, list[tuple[str, re.Pattern]]] = {
    "zh": [("definition", _rx(r"用语|定义|含义")), ("scope", _rx(r"适用范围|施行|总则|立法目的")),
           ("sanction", _rx(r"法律责任|罚则|处罚"))],
    "vi": [("sanction", _rx(r"xử phạt|xử lý vi phạm|hình phạt|bồi thường")),
           ("definition", _rx(r"giải thích từ ngữ")),
           ("scope", _rx(r"phạm vi điều chỉnh|đối tượng áp dụng|hiệu lực|chuyển tiếp")),
           ("prohibition", _rx(r"bị nghiêm cấm|bị cấm|nghiêm cấm")),
           ("procedure", _rx(r"hồ sơ|thủ tục|trình tự")),
           ("obligation", _rx(r"^nghĩa vụ|^trách nhiệm")), ("permission", _rx(r"^quyền"))],
    "en": [("definition", _rx(r"^(?:definitions?|interpretation|glossary)\b")),
           ("scope", _rx(r"^(?:application(?:\s*$|\s+(?:of|and)\b)|citation|commencement|scope)\b")),
           ("sanction", _rx(r"\b(?:penalt(?:y|ies)|offences?|sanctions? for)\b"))],
}

# an enumerated item: （一） / (一) / 一、 / (a) / a) / (i) / 1.
_ITEM = re.compile(r"(?:[（(](?:[一二三四五六七八九十]+|[a-z]{1,3}|\d{1,2})[)）]|[一二三四五六七八九十]+、|[a-zđ]\)|\d{1,2}\.(?!\d))\s*")
_JOINS = {"or", "and", "và", "hoặc"}


def _mark(marker: str) -> str:
    """The kind of a list marker: （一） / 一、 / (a) / a) / (1) / 1. are different lists."""
    m = marker.strip()
    digits, han = any(c.isdigit() for c in m), has_han(m)
    kind = "num" if digits else "han" if han else "alpha"
    return kind + ("(" if m[:1] in "(（" else m[-1])


# the end of a sentence: its mark, a line break, a full stop before a capital (also after an
# acronym: "a report to the MLRO. The Regulator …"; not after initials: "U.A.E. The")
SENTENCE_END = re.compile(r"[。；;!?！？]|\n+|(?<=[a-z\)]\.)\s+(?=[A-Z(])|(?<=[A-Z]{2}\.)\s+(?=[A-Z][a-z])")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of `text` (its closing mark included), blank ones left out."""
    cuts = [0] + [m.end() for m in SENTENCE_END.finditer(text)] + [len(text)]
    return [(s, e) for s, e in zip(cuts, cuts[1:]) if text[s:e].strip()]


# a saving clause states what a provision leaves untouched ("This section shall not affect the right …",
# "Nothing in this Part limits …"): no force of its own (a party's "shall not limit its liability" forbids)
_SAVING = re.compile(r"\b(?:this|the|that|these)\s+(?:section|rule|part|chapter|act|regulation|provision|paragraph|"
                     r"subsection|schedule)s?\b[^.;]{0,40}?\b(?:shall|does|will|do) not (?:affect|prejudice|limit|invalidate)\b|"
                     r"\bnothing in\b[^.;]{0,80}?\b(?:shall|does|will)?\s*(?:affects?|prejudices?|limits?|invalidates?)\b", re.I)
# a Vietnamese sentence naming a penalty it does not impose: one being served ("chấp hành án phạt tù"),
# or a power delegated to a body ("Chính phủ quy định chi tiết … thủ tục cấp, thu hồi giấy …")
_VI_MENTIONS = re.compile(r"(?:chấp hành|thi hành)(?: xong| được)?(?: bản án| án)?(?: hình)? phạt(?: tù| tiền| bổ sung)?|"
                          r"(?:Chính phủ|Thủ tướng(?: Chính phủ)?|Bộ trưởng[^,;.]{0,40}?|(?:Ủy|Uỷ) ban[^,;.]{0,60}?|"
                          r"Hội đồng[^,;.]{0,60}?) quy định chi tiết[^;.]*")
# a Chinese sentence naming a penalty it does not impose: the decision appealed against ("当事人对行政处罚
# 决定不服的，可以…申请行政复议", with the other decisions or measures appealed beside it: "对行政处罚决定、
# 行政强制措施决定不服的", "对…处罚决定、强制执行措施或者税收保全措施不服的"), as the start of a time limit or the body that made it ("接到处罚通知之日起",
# "向作出处罚决定的机关的上一级机关申请复议"), notified to others ("应当将…吊销…的行政处罚决定及时通报"),
# or the body competent to impose it ("本法规定的行政处罚由…决定"): a remedy or a competence, read for
# its other words (复议, 申请: procedure), or custody credited against a sentence. A sanction naming who decides ("由公安机关依法作出处罚决定")
# is none of these.
_ZH_MENTIONS = re.compile(r"[^。；，,]*?(?:行政)?处罚(?:权)?由[^。；]{1,60}?(?:决定|行使)|"
                          r"对[^。；，,]{0,40}?(?:行政)?处罚(?:决定|通知)?(?:书)?(?:(?:、|和|或者|及)[^。；，,、]{1,16}?(?:决定|措施)(?:书)?)*"
                          r"(?=[^。；]{0,6}不服)|"
                          r"(?:接到|收到|送达|作出)(?:行政)?处罚(?:决定|通知)(?:书)?(?=之日|的(?:机关|部门))|"
                          r"将[^。；]{0,40}?处罚决定(?:书)?(?=[^。；]{0,4}(?:通报|抄送|告知|公开|公示))|"
                          # custody credited against a sentence ("留置一日折抵管制二日，折抵拘役、有期徒刑一日"): a rule of
                          # computation naming the penalties a court imposed
                          r"(?:[^。；，,]*判处[^。；，,]*[，,])?[^。；，,]*折抵[^。；，,]*(?:[，,][^。；，,]*折抵[^。；，,]*)*")
# a liability the wronged party may ask a court or a body to impose ("受害妇女可以…提起民事诉讼，依法请求行为人
# 承担民事责任", "有权要求侵权人承担赔偿责任"): the party's remedy, which the provision grants (可以 / 有权 before
# it; read for its other words -- a permission), not a liability it imposes ("不符合要求的承担赔偿责任": 要求 a
# noun, nothing granted); under a heading of liability a remedy is still read as the sanction it enforces
# (LIABILITY_PARTS)
_ZH_REMEDY = re.compile(r"(?:请求|要求)(?!的)[^。；，,]{0,12}?(?:承担|负)[^。；，,]{0,6}?责任")
_ZH_GRANT = re.compile(r"可以|有权")      # ... a remedy only where the sentence grants it before
# the order in which a sentence's cues are tried, where it is not that of ROLES: an English rule
# states its force by its modal ("must ensure that … a notification", "may apply to the exposure"),
# the procedural nouns it mentions (application, notification, registration) are its object
ORDER = {"en": ("definition", "scope", "sanction", "prohibition", "obligation", "permission", "procedure")}


def sentence_role(sentence: str, language: str) -> str:
    cues = CUES.get(language, CUES["en"])
    if language == "zh":
        sentence = _ZH_MENTIONS.sub(" ", _ZH_TITLE.sub("《》", sentence))
        sentence = _ZH_REMEDY.sub(lambda m: " " if _ZH_GRANT.search(m.string, 0, m.start()) else m.group(), sentence)
    elif language == "en":
        sentence = _SAVING.sub(" ", sentence)
    elif language == "vi":
        sentence = _VI_MENTIONS.sub(" ", sentence)
    for name in ORDER.get(language, ROLES[:-1]):
        if cues[name].search(sentence):
            return name
    return "other"


# the heading of a chapter given over to liability: what a provision under it permits is a remedy or
# a power to sanction ("消费者…可以要求支付价款十倍的赔偿金", "税务机关可以向社会公告"). Chinese only:
# the vi and en benchmark corpora hold no chapters (ALQAC articles, ADGM passages), so no other
# language's headings could be checked.
LIABILITY_PARTS = {"zh": re.compile(r"法律责任|罚则")}


def provision_role(text: str, title: str = "", language: str = "", kind: str = "article", part: str = "") -> str:
    """The role of one unit (see the module doc); "" for structural units. `part`: the heading of
    the chapter (or section) holding it: under a heading of liability (LIABILITY_PARTS) a
    provision that permits lays down liability (sanction)."""
    if kind in STRUCTURAL:
        return ""
    lang = language if language in CUES else guess_language(title + " " + (text or "")[:200])
    for name, rx in HEADINGS.get(lang, ()):
        if title and rx.search(title.strip()):
            return name
    role = _role_of_sentences(text, lang)
    if role == "permission" and part and lang in LIABILITY_PARTS and LIABILITY_PARTS[lang].search(part) \
            and not (lang == "zh" and _ZH_MENTIONS.search(text or "")):     # an appeal stays a remedy
        return "sanction"
    return role


def enclosing_parts(units) -> dict[str, str]:
    """Unit id -> the heading (title, else the start of its text) of the nearest chapter, section
    or part holding it, among `units` (one corpus or document, with their parents)."""
    by_id = {u.id: u for u in units}
    out: dict[str, str] = {}
    for u in units:
        p = by_id.get(u.parent_id)
        while p is not None and p.kind not in ("chapter", "section", "subsection", "part"):
            p = by_id.get(p.parent_id)
        if p is not None:
            out[u.id] = p.title or (p.text or "")[:40]
    return out


def with_roles(units: list) -> list:
    """`units` (one corpus, with their chapters) each with its role, read with the heading of the
    chapter holding it, where the parser set none: what is stored and what linking reads agree."""
    from dataclasses import replace
    if all(u.role or u.kind in STRUCTURAL for u in units):    # set already (ingest, then the store)
        return list(units)
    parts = enclosing_parts(units)
    return [u if u.role or u.kind in STRUCTURAL else
            replace(u, role=provision_role(u.text, u.title, u.language, u.kind, parts.get(u.id, ""))) for u in units]


def _role_of_sentences(text: str, lang: str) -> str:
    roles, lead, mark = [], None, None
    for s in (text[a:b].strip() for a, b in sentence_spans(text or "")):
        if not s or s.lower() in _JOINS:            # "…; or" leaves a bare "or" between two items
            continue
        item = _ITEM.match(s)
        kind = item and _mark(item.group())
        # a listed item is the object of its lead-in's verb ("不得有下列行为：（二）扣押、没收他人证件"
        # forbids a seizure, it imposes none) -- the items of that one list, marked alike; the next
        # clause of the lead-in's own level ("2. …") is read for itself
        if lead and kind and mark in (None, kind) and not s.endswith((":", "：")):
            roles.append(lead)
            mark = kind
            continue
        roles.append(sentence_role(s, lang))
        lead, mark = (roles[-1], None) if s.endswith((":", "：")) and roles[-1] != "other" else (None, None)
    for name in roles:                  # the first sentence that defines, scopes or sanctions
        if name in DECISIVE:
            return name
    counted = [r for r in roles if r != "other"]
    if not counted:
        return "other"
    return max(counted, key=lambda r: (counted.count(r), -counted.index(r)))   # ties: the first sentence's


def role_of(unit) -> str:
    """A stored unit's role, or the role computed from its text (workspaces made before roles)."""
    return getattr(unit, "role", "") or provision_role(unit.text, unit.title, unit.language, unit.kind)

"""Defined terms as entities: where a provision defines a term, whether the term is one, and
what kind of thing it names.

- `defined_spans`: the terms link/terms.py finds ("本法所称X，是指", "X là", '"X" means'), kept
  when `definable`: no numbers or article references, no pronoun ("This means"), no conditional
  opener (Khi / Trường hợp), no modal or aspect word. Vietnamese "X là Y" also states rules and
  declarations ("Đơn vị tiền tệ quốc gia là Đồng Việt Nam"), so there it counts as a definition
  only where Vietnamese drafting puts definitions: under a heading that announces them ("Giải
  thích từ ngữ"), in an article headed by the term it defines (Bộ luật Dân sự: "Điều 455. Hợp
  đồng trao đổi tài sản" -- "Hợp đồng trao đổi tài sản là sự thỏa thuận ..."), or with "được
  hiểu là"; and as a capitalised term at the head of its line (not a lettered point) whose
  defining phrase holds no second "là".
- `genus`: a definition names the class its term belongs to (definition by genus and
  difference): "…的单位和个人" / "là tổ chức …" / "means a person who …" make the term a party,
  "…部门" / "là cơ quan …" / "means the authority …" an authority, "…证明文件" / "là văn bản …" /
  "means a document …" a document. The classes are the generic nouns of legal drafting.
"""
from __future__ import annotations

import re

from ..core.records import Unit
from ..link.terms import EN as EN_TERMS, VI as VI_TERMS, ZH as ZH_TERMS

_TERMS = {"zh": ZH_TERMS, "vi": VI_TERMS, "en": EN_TERMS}


def _rx(pattern: str) -> re.Pattern:
    return re.compile(pattern, re.IGNORECASE)


# a definition opened by a conditional, or whose term holds a modal or aspect word, is a rule
COND = {"zh": _rx(r"^$a"), "en": _rx(r"^(?:this|that|it|these|those|which|what|if|where|when)$"),
        "vi": _rx(r"^(?:khi|trường hợp|trong trường hợp|nếu|sau khi|trước khi|đối với|có)\b|"
                  r"\b(?:có thể|phải|đã|sẽ|đang|chỉ|mà|cần)\b|\bđược\s+\w")}
DEFINING_HEADING = {"zh": _rx(r"用语|定义|含义"), "vi": _rx(r"giải thích từ ngữ|định nghĩa|thuật ngữ"),
                    "en": _rx(r"^(?:definitions?|interpretation|glossary)\b")}
# the defining cue after a term, and the phrase that names its class
CUE = {"zh": re.compile(r"^[”\"」』]?[，,]?\s*(?:是指|指)([^。；;\n]{1,120})"),
       "vi": _rx(r"^[”\"]?\s*(?:được hiểu là|là)\s+((?:\S+\s+){0,4}\S+)"),
       "en": _rx(r"^[”\"’']?\s*(?:means|includes|has the meaning)\s+((?:\S+\s+){0,5}\S+)")}
_EN_ART = r"(?:a|an|the|any|every|each)\s+"      # "means undertaking one or more …" is a gerund, not the class
_EN_MOD = r"(?:(?!(?:of|in|for|to|by|with|on|at|that|which|who|whose|or|and)\b)[\w-]+\s+){1,3}?"
_EN_NOT_POSSESSOR = r"\b(?![’'](?:s\b|\s))"
# after modifiers the class noun must close its noun phrase (a relative, a participle, a preposition, punctuation)
_EN_CLOSE = (r"(?=\s*(?:[,.;:()]|$|(?:who|whose|which|that|or|and|in|under|to|with|within|for|from|on|at|by|as|other|"
             r"being|whether|where|when|established|incorporated|registered|operating|made|issued|carrying|acting|"
             r"referred|described|set|approved|authori[sz]ed|licen[cs]ed|holding|having|providing|engaged)\b))")


def _en_class(nouns: str, closing: str = "") -> re.Pattern:
    """`nouns` name the class right after the article (not as a modifier of a name: "an Individual Resolution
    Plan"); after modifiers, or when they are `closing` (nouns that also name an action: "the exchange of
    information"), only where the noun phrase closes."""
    both, mods = (f"{nouns}|{closing}", _EN_MOD.replace("{1,3}", "{0,3}")) if closing else (nouns, _EN_MOD)
    return _rx(rf"^{_EN_ART}(?:(?:{nouns}){_EN_NOT_POSSESSOR}(?!\s+(?-i:[A-Z]))|"
               rf"{mods}(?:{both}){_EN_NOT_POSSESSOR}{_EN_CLOSE})")


GENUS = {
    "zh": [("authority", re.compile(r"(?:部门|机关|机构|委员会|人民政府|法院|检察院)等?$")),
           ("party", re.compile(r"(?:单位|企业|个人|者|人员|人|组织|公司|合作社|户)等?$")),
           ("document", re.compile(r"(?:证明|证书|证件|文件|许可证|凭证|记录|单据)等?$"))],
    # a person defined as the one heading a body (người đứng đầu) holds an office of it: an authority
    "vi": [("authority", _rx(r"^(?:các |những )?(?:cơ quan|ủy ban|uỷ ban|tòa án|toà án|viện kiểm sát|chính phủ|"
                             r"người đứng đầu)\b")),
           ("party", _rx(r"^(?:một |các |những )?(?:người|tổ chức|cá nhân|pháp nhân|doanh nghiệp|thương nhân|chủ thể|"
                         r"công dân|hộ gia đình|hộ kinh doanh)\b")),
           ("document", _rx(r"^(?:một |các |những )?(?:văn bản|giấy|chứng chỉ|chứng thư|bản án|quyết định|tài liệu)\b"))],
    # English: the class noun, also after up to three modifiers ("a Recognised Investment Exchange", "a Legal
    # Person"); never a possessor ("the Regulator's Own Initiative Power" is a power) nor a noun modifying the
    # next ("a foreign exchange transaction"). A glossary headword whose genus names a regulated person is a
    # party, one whose genus is a standard or a code an instrument
    "en": [("authority", _en_class(r"(?:public\s+)?(?:authority|regulator|court|tribunal|ministry|government|"
                                   r"department|agency)")),
           ("party", _en_class(r"(?:natural\s+)?(?:person|persons|individual|body corporate|company|partnership|firm|"
                               r"entity|undertaking|institution)", r"exchange|clearing house")),
           ("document", _en_class(r"(?:written\s+)?(?:document|licence|license|certificate|permit|notice)",
                                  r"report|statement|form")),
           ("instrument", _en_class(r"standards?|rules|regulations|code|convention|treaty|legislation"))],
}


def defined_spans(unit: Unit, heading: str = "") -> list[tuple[int, int]]:
    """Where the unit defines a term (see the module doc); `heading`: the title of the article
    the unit belongs to (the unit's own title when it has one)."""
    spans, offset, text = [], 0, unit.text or ""
    lang = unit.language[:2]
    for line in text.split("\n"):
        for rx in _TERMS.get(lang, EN_TERMS):
            spans += [(offset + m.start(1), offset + m.end(1)) for m in rx.finditer(line) if m.group(1).strip()]
        offset += len(line) + 1
    heading = unit.title or heading
    # a term never includes its article ("A Contract of Insurance means …" defines "Contract of Insurance")
    spans = [(s + len(a.group()), e) if lang == "en" and (a := re.match(r"(?:A|An|The) (?=[A-Z])", text[s:e])) else (s, e)
             for s, e in spans]
    return [(s, e) for s, e in spans if definable(text, s, e, lang, heading)]


def definable(text: str, start: int, end: int, lang: str, heading: str = "") -> bool:
    term = text[start:end].strip().strip("“”\"'‘’ ")
    if re.search(r"\w['’]$", text[:start]):
        return False            # it starts inside a word ('Arm's length' read from its apostrophe)
    if lang == "en" and re.search(r"\b(?:also|therefore|thus|only|generally|usually|typically|simply|merely)$", term, re.I):
        return False            # a term never ends in an adverb: "The need to assess … also means that" is a sentence
    if re.search(r"\d{2,}|第.+条|所称|所指", term) or COND.get(lang, COND["en"]).search(term):
        return False
    if lang != "vi":
        return True
    line = text[text.rfind("\n", 0, start) + 1:start]
    if not term[:1].isupper() or re.match(r"\s*[a-zđ]\)", line) or \
            re.search(r"\slà\s", re.split(r"[,;.]", text[end:] + ".")[0].split(" là ", 1)[-1]):
        return False
    head, low = heading.casefold().strip(" .:"), term.casefold()
    return bool(re.match(r"\s*(?:được hiểu là)", text[end:end + 20]) or DEFINING_HEADING["vi"].search(head)
                or (head and head.startswith(low) and len(low) >= 0.6 * len(head)))   # headed by its term


def genus(text: str, end: int, lang: str) -> str | None:
    """The type the defining phrase after a term gives it (see the module doc), or None."""
    m = CUE.get(lang, CUE["en"]).match(text[end:end + 160])
    if not m:
        return None
    phrase = m.group(1).strip()
    if lang == "zh":                 # head-final: the class closes the phrase
        phrase = re.split(r"[，,]", phrase)[-1].strip()
    for type_, rx in GENUS.get(lang, GENUS["en"]):
        if rx.search(phrase):
            return type_
    return None


def heading_of(unit: Unit, by_id: dict[str, Unit]) -> str:
    """The title of the article a unit belongs to (its own, else its nearest titled ancestor)."""
    u, seen = unit, 0
    while u is not None and not u.title and u.parent_id and seen < 4:
        u, seen = by_id.get(u.parent_id), seen + 1
    return u.title if u is not None and u.title else ""

"""Chinese citations: references, repeals and (in amendment acts) amendment operations.

REFERENCES
  internal   本法第十条 / 依照本条例第二十条第一款 / 第三十五条第二款第（一）项 /
             第十条、第十二条 / 第十条至第十二条 (each article) / 第一百零二条 / 第十条之一
  relative   前款, 前两款, 本条, 本条第一款, 本款第（一）项, 前条, 前项, and 第一款 / 第（一）项
             without an article: made absolute from the citing unit's id, and only read in
             the unit that holds the text (clause, point), never in the article gathering it
  external   《中华人民共和国动物防疫法》第二十条 / 《X》 alone (a whole instrument) /
             刑法第十七条, 民事诉讼法第一百一十九条 (codes cited without 《》, `BARE_NAMES`)
REPEALS      《X》同时废止 / 《X》（…号）自本办法施行之日起废止 / 国务院…发布的X同时废止
AMENDS       see zh_amend.py; only in amendment acts, whose quoted new text is not read
             for references (it speaks of the amended instrument, not of the act).

An item (项) of an article without numbered paragraphs lives in the article's clause 1
(the parser opens c1 for it), so 第三十五条第（一）项 gets clause "1".
"""
from __future__ import annotations

import re

from ..core.records import EdgeType, Unit
from . import Citation
from .zh_amend import amended_by, amendments
from .zh_grammar import (BARE_NAMES, QFILL, RE_RUN, RE_UNKNOWN_BEFORE, first_level, is_instrument_name,
                         mask_quotes, targets)

EXTRACTOR = "zh"
HOLDERS = ("clause", "point", "subpoint")       # units whose own text relative references sit in
_BARE = "|".join(BARE_NAMES)
_SELF = "法典|法|条例|办法|规定|细则|解释|决定|规则|准则|章程"

# What may stand right before a run (searched at the end of the preceding text):
RE_ANCHOR = re.compile(
    rf"(?:《(?P<name>[^《》]{{1,80}})》"          # 《动物防疫法》第二十条
    rf"|本(?P<self>{_SELF})"                    # 本法第十条, 本条例第二十条 (this instrument)
    rf"|(?P<this>本条|本款)"                    # 本条第一款, 本款第（一）项
    rf"|(?P<prev_cl>前款)"                      # 前款第（一）项
    rf"|(?P<prev_art>前条)"                     # 前条第二款
    rf"|(?P<bare>{_BARE}))$")                   # 刑法第十七条
# Relative references standing alone (not followed by a run), and 《X》 alone:
RE_ALONE = re.compile(
    r"《(?P<name>[^《》]{1,80})》"               # a whole instrument
    r"|(?P<this>本条)(?![例款])"                # this article (not 本条例)
    r"|前(?P<n>[两二三四五六七八九])?款"          # 前款, 前两款: the clause(s) before
    r"|(?P<prev_art>前条)(?!件)"                # the article before
    r"|(?P<prev_pt>前项)")                      # the point before
# A sentence that repeals: …同时废止 / …自本办法施行之日起废止 / …即行废止 / …予以废止
RE_SENTENCE = re.compile(r"[^。；\n]+")
RE_REPEAL = re.compile(r"(?:同时|即行|起|予以)废止")
RE_REPEAL_BARE = re.compile(r"(?:发布|公布|颁布|通过|批准|修订)的(?P<name>[\u4e00-\u9fff（）]{2,40}?"
                            r"(?:法|条例|办法|规定|细则|规则|决定|解释))(?:同时|即行)废止")
RE_BOOK = re.compile(r"《([^《》]{1,80})》")
RE_OWN_POINTS = re.compile(r"(?m)^[（(][一二三四五六七八九十]+[）)]")    # a clause that lists points
# an unknown bare name: hanzi ending in 法 / 条例 / 条约 right before the run, cut at the last word
# that cannot be part of it (依照, 或者, 的 …); 该法, 本条例, 上述法 name nothing
RE_BARE_TAIL = re.compile(r"[\u4e00-\u9fff]{2,16}(?:法|条例|条约|公约|协定)$")
RE_CUT = re.compile(r"依照|按照|根据|依据|违反|适用|参照|符合|认定为|比照|属于|不受|以及|或者|"
                    r"对于|对|和|及|与|的|除|即|有|在|经|由|应当|可以|是否|明显")
RE_NOT_NAME = re.compile(r"^(?:本|该|此|上述|前述|原|同|其他|有关|相关|下列|各)")
RE_PATH = re.compile(r"^/a(?P<a>\d+(?:-\d+)?)(?:/c(?P<c>\d+))?(?:/p(?P<p>\d+))?(?:/\d+)?$")


def extract(unit: Unit, amends: tuple[str, ...] = ()) -> list[Citation]:
    """Citations in one unit. `amends`: what the unit's document amends (its document unit's
    `amends` attribute: names or "key@version"). An act whose key is its title (LawRefBook:
    刑法修正案（七）, 关于修改《X》的决定) is recognised by the key, which wins: the title
    parser leaves names with 《 in them (关于《刑法修正案(八)》时间效力…的解释), dropped here."""
    if not unit.text:
        return []
    amends = amended_by(unit.key) or tuple(a for a in amends if a and not set(a) & set("《》"))
    if not amends:
        scan, found, spans = unit.text, [], []
    elif unit.kind in ("document", "article"):     # the act's items, read once, quotes masked
        scan = mask_quotes(unit.text)
        found, spans = amendments(unit, scan, amends)
    else:
        return []
    repeals, more = _repeals(unit, scan)
    scan = _blank(scan, spans + more)
    return found + repeals + _references(unit, scan, external_only=bool(amends))


def _references(unit: Unit, scan: str, external_only: bool) -> list[Citation]:
    pos = _position(unit)
    out, used = [], set()
    for m in RE_RUN.finditer(scan):
        start, run = m.start(), m.group()
        a = RE_ANCHOR.search(scan, max(0, start - 90), start)
        if a is not None:
            used.add(a.start())
        ctx = _anchor_context(a, pos, run, scan, start, unit)
        if ctx is None or (external_only and ctx[0] is None):
            continue
        instrument, art, clause, confidence, prefix = ctx
        for t in targets(run, art, clause):
            out.append(_cite(unit, prefix + run, instrument, t, confidence))
    for m in RE_ALONE.finditer(scan):
        if m.start() in used or RE_RUN.match(scan, m.end()):
            continue
        if m.group("name") is not None:
            if is_instrument_name(m.group("name")) and not _generic(m.group("name")):
                out.append(_cite(unit, m.group(), m.group("name"), (None, None, None), 0.9))
        elif not external_only:
            out += [_cite(unit, m.group(), None, t, 0.85) for t in _alone(m, pos)]
    own = pos and _path(pos)
    return [c for c in out if c is not None and not (c.instrument is None and c.path() == own)]


def _anchor_context(a: re.Match | None, pos, run: str, scan: str, start: int, unit: Unit):
    """(instrument, article, clause, confidence, anchor text) that a run is read in, or None
    to skip it. Relative readings (from the citing unit's position) get 0.85."""
    level, before = first_level(run), scan[max(0, start - 4):start]
    if a is None:
        if level == 0 and RE_UNKNOWN_BEFORE.search(before):
            name = _bare_name(scan, start)          # 商检法第四条, 母婴保健法第七条
            return (name, None, None, 0.7, name) if name else None
        if level == 0:
            return None, None, None, 0.9, ""
        if pos is None or (before and before[-1] in "款条项》"):
            return None                     # 第一款 with no article: only in the unit that holds it;
        if level == 1:                      # 前两款第一项, 该条第二款: not read
            return None, pos[0], None, 0.85, ""
        # 第（一）项: a point of this clause, if it has points; else of the article's list,
        # which sits in its first clause (犯第一款罪，有第一项规定情形的)
        if unit.kind != "clause" or RE_OWN_POINTS.search(unit.text):
            return None, pos[0], pos[1], 0.85, ""
        return (None, pos[0], "1", 0.85, "") if pos[1] != "1" else None
    if a.group("name") is not None or a.group("bare") is not None or a.group("self") is not None:
        if level != 0 or (a.group("name") is not None and _generic(a.group("name"))):
            return None
        return a.group("name") or a.group("bare"), None, None, 0.9, a.group()
    if pos is None:
        return None
    if a.group("this") == "本条" and level >= 1:
        return None, pos[0], None, 0.85, a.group()
    if a.group("this") == "本款" and level == 2 and pos[1]:
        return None, pos[0], pos[1], 0.85, a.group()
    if a.group("prev_cl") and level == 2 and pos[1] and int(pos[1]) > 1:
        return None, pos[0], str(int(pos[1]) - 1), 0.85, a.group()
    if a.group("prev_art") and level >= 1 and _before(pos[0]):
        return None, _before(pos[0]), None, 0.85, a.group()
    return None


def _bare_name(scan: str, start: int) -> str | None:
    """The name of a law cited without 《》 that BARE_NAMES does not know: the words before
    第…条 back to the verb or list word that introduces them ("依照商检法" -> 商检法)."""
    m = RE_BARE_TAIL.search(scan, max(0, start - 16), start)
    if m is None:
        return None
    name = RE_CUT.split(m.group())[-1]
    return name if len(name) >= 3 and not RE_NOT_NAME.match(name) else None


def _generic(name: str) -> bool:
    """《解释》, 《规定》: a short name the text defined for some instrument; not followed."""
    return len(name) <= 2 and name not in BARE_NAMES


def _alone(m: re.Match, pos) -> list[tuple]:
    if pos is None:
        return []
    art, clause, point = pos
    if m.group("this"):
        return [(art, None, None)]
    if m.group("prev_art"):
        return [(_before(art), None, None)] if _before(art) else []
    if m.group("prev_pt"):
        return [(art, clause, str(int(point) - 1))] if point and int(point) > 1 else []
    n = {"两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}.get(m.group("n"), 1)
    if not clause or int(clause) - n < 1:
        return []
    return [(art, str(c), None) for c in range(int(clause) - n, int(clause))]


def _repeals(unit: Unit, scan: str) -> tuple[list[Citation], list[tuple[int, int]]]:
    """REPEALS of the instruments named in the part of a sentence that ends in 废止 (after its
    last comma: "本法自…起施行，《X》（…号）和《Y》同时废止"), and their spans."""
    out, spans = [], []
    for s in RE_SENTENCE.finditer(scan):
        stop = RE_REPEAL.search(s.group())
        if stop is None:
            continue
        end = s.start() + stop.end()
        begin = s.start() + s.group().rfind("，", 0, stop.start()) + 1
        books = [b for b in RE_BOOK.finditer(scan, begin, s.start() + stop.start())]
        for b in books:
            out.append(Citation(unit.id, unit.text[b.start():end], EdgeType.REPEALS, b.group(1),
                                confidence=0.9, extractor=EXTRACTOR))
            spans.append(b.span())
        if not books:
            m = RE_REPEAL_BARE.search(scan, s.start(), end)
            if m:
                out.append(Citation(unit.id, unit.text[m.start("name"):end], EdgeType.REPEALS,
                                    m.group("name"), confidence=0.8, extractor=EXTRACTOR))
    return out, spans


def _cite(unit: Unit, text: str, instrument: str | None, t: tuple, confidence: float) -> Citation | None:
    art, clause, point = t
    if art is None and instrument is None:
        return None
    return Citation(source=unit.id, text=text, type=EdgeType.REFERENCES, instrument=instrument,
                    article=art, clause=clause or ("1" if point else None), point=point,
                    confidence=confidence, extractor=EXTRACTOR)


def _position(unit: Unit) -> tuple[str, str | None, str | None] | None:
    """(article, clause, point) labels of a unit that holds text, from its id; else None."""
    if unit.kind not in HOLDERS:
        return None
    m = RE_PATH.match(unit.id[len(f"{unit.key}@{unit.version}"):])
    return (m.group("a"), m.group("c"), m.group("p")) if m else None


def _path(pos) -> str:
    art, clause, point = pos
    return f"/a{art}" + (f"/c{clause}" if clause else "") + (f"/p{point}" if point else "")


def _before(art: str) -> str | None:
    """The article before: 34 -> 33, 10-1 -> 10, 10-2 -> 10-1 (None for article 1)."""
    no, _, sub = art.partition("-")
    if sub:
        return no if sub == "1" else f"{no}-{int(sub) - 1}"
    return str(int(no) - 1) if int(no) > 1 else None


def _blank(scan: str, spans: list[tuple[int, int]]) -> str:
    if not spans:
        return scan
    chars = list(scan)
    for a, b in spans:
        chars[a:b] = QFILL * (b - a)
    return "".join(chars)

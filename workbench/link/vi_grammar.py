"""How Vietnamese legal text names a provision or an instrument: the patterns of vi.py.

A reference is a *chain* of levels, lowest first: "điểm a, b và c khoản 1 Điều 5", each
level a list ("khoản 1, 2 và khoản 3"), a range ("từ Điều 10 đến Điều 12") or "này"
("khoản này", "Điều này"), optionally followed by the instrument it is in ("của Luật
này", "Nghị định số 98/2021/NĐ-CP", "Luật Dược"). `targets` (at the end) makes a chain
absolute from the unit holding it; vi.py and vi_amend.py decide REFERENCES / AMENDS.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..parse.vi import PD_NUMBER

LETTERS = "abcdđefghijklmnopqrstuvwxyz"
# -- one level of a chain -------------------------------------------------------------
KW = {"p": r"[Đđ]iểm|ĐIỂM", "c": r"[Kk]hoản|KHOẢN", "a": r"[Đđ]iều|ĐIỀU"}
# labels: article "5", "5a" or pháp điển "45.4.LQ.1"; clause "2", "1a"; point "a", "đ".
# Not followed by a word char, "/" (a date or a số hiệu) or a decimal part.
LABEL = {"a": rf"(?:{PD_NUMBER}|\d+[a-zđ]?)(?![\w/]|[.,]\d)",
         "c": r"\d+[a-zđ]?(?![\w/]|[.,]\d)",
         "p": r"[a-zđ](?!\w)"}
# between the items of a list: ", " / " và " / " hoặc " / ", và "
SEP = r"(?:\s*,\s*(?:và\s+|hoặc\s+)?|\s+(?:và|hoặc)\s+)"
# a number in a list is no label when a unit of time or money follows ("Điều 5, 10 ngày")
NOT_COUNT = r"(?!\s*(?:ngày|tháng|năm|giờ|lần|người|%|đồng))"


def _level(k: str) -> str:
    kw, lab = KW[k], LABEL[k]
    return (rf"(?:(?:các\s+)?(?:{kw})\s+(?P<{k}_this>này)(?!\w)"                 # "khoản này"
            rf"|từ\s+(?:{kw})\s+(?P<{k}_from>{lab})\s+đến\s+(?:(?:{kw})\s+)?(?P<{k}_to>{lab})"
            rf"|(?:các\s+)?(?:{kw})\s+(?P<{k}_list>{lab}(?:{SEP}(?:(?:{kw})\s+)?{lab}{NOT_COUNT})*))")


# between two levels: a blank, ", " or " của " ("khoản 4, Điều 1", "khoản 1 của Điều 5"),
# taken only when the next level really follows
_NEXT = {"p": rf"(?:các\s+|từ\s+)?(?:{KW['c']}|{KW['a']})\s", "c": rf"(?:các\s+|từ\s+)?(?:{KW['a']})\s"}
_BETWEEN = r"(?:\s*,\s*|\s+)(?:của\s+)?"
RE_CHAIN = re.compile(
    rf"(?<!\w)(?=(?:các\s+|từ\s+)?(?:{KW['p']}|{KW['c']}|{KW['a']})\s)"     # starts at a keyword
    rf"(?:{_level('p')}(?:{_BETWEEN}(?={_NEXT['p']}))?)?"
    rf"(?:{_level('c')}(?:{_BETWEEN}(?={_NEXT['c']}))?)?"
    rf"(?:{_level('a')})?")

# -- instruments ------------------------------------------------------------------------
TYPES = (r"Bộ luật|Luật|Pháp lệnh|Nghị định|Nghị quyết|Thông tư liên tịch|Thông tư"
         r"|Quyết định|Chỉ thị|Hiến pháp|Văn bản hợp nhất")
# a số hiệu: "98/2021/NĐ-CP", "21-LCT/HĐNN8", "02/TTLB" (digits, then / or - parts)
NUM = r"\d+(?:[/\-][0-9A-Za-zĐđ]+)+(?![\w/])"
# words that end the name of a law: "Luật Dược [và các|của Luật này|quy định|ngày …]"
_STOP = (r"(?:này|số|ngày|năm|và|hoặc|về|quy|thì|đã|được|có|để|theo|tại|trong|khi|đối|sửa|"
         r"hiện|sau|trước|nhưng|phải|mà|là|hướng|do|thuộc|cho|gồm|bao|với|nêu|hết|kể|nhằm|ban hành|"
         r"của\s+(?:Quốc hội|Chính phủ|Bộ|Ủy ban)|các|những|Điều|điều|khoản|Khoản|điểm|Điểm|"
         rf"{TYPES})(?!\w)")
_WORD = r"[^\s,;.:()“”\"'\[\]]+"
# the name after "Luật": words that do not stop it; ", " only inside "Phòng, chống",
# "Khám bệnh, chữa bệnh", "rượu, bia"; "và" only before a lower-case word that does not
# stop the name ("Hôn nhân và gia đình"); never "Luật sư", "luật gia", "luật lệ"
NAME = (rf"(?!{_STOP}|(?:sư|gia|lệ|pháp)(?!\w)){_WORD}"
        rf"(?:(?:\s+|,\s+(?=chống|chữa|bia))(?:và\s+(?=[a-zđà-ỹ]))?(?!{_STOP}){_WORD}){{0,19}}")


def instrument(law: str = "Luật") -> str:
    """An instrument as written: numbered ("Nghị định số 98/2021/NĐ-CP", "Luật Dược số
    105/2016/QH13", "Nghị định 43/2021/NĐ-CP"), possibly an amending one ("Luật sửa đổi,
    bổ sung một số điều của Luật số …"), or a named law ("Luật Khám bệnh, chữa bệnh",
    "Bộ luật Dân sự", "Hiến pháp"). `law`: how "Luật" may be spelt."""
    amending = r"(?:(?:Luật|Nghị định|Thông tư)\s+sửa đổi,?\s+bổ sung\s+một số điều\s+(?:của\s+)?)?"
    return (rf"{amending}(?:(?:{TYPES})(?:\s+{NAME})?\s+(?:số\s+)?{NUM}"
            rf"|(?:Bộ\s+luật|{law}|Pháp\s+lệnh)\s+{NAME}|Hiến\s+pháp(?:\s+năm\s+\d{{4}})?)")


# an instrument mentioned on its own (capital "Luật": "pháp luật" is no instrument)
RE_INSTRUMENT = re.compile(rf"(?<!\w){instrument()}")
# what follows a chain: "[,] [của|tại|thuộc] Luật này" (the citing instrument) or an
# instrument ("của Luật dược": lower case allowed here)
RE_QUALIFIER = re.compile(
    rf"(?:\s*,)?\s+(?:(?:của|tại|thuộc)\s+)?"
    rf"(?:(?:Mục|Chương|Phần)\s+[IVXLCDM\d]+\s+(?:của\s+)?)?"          # "khoản 6 Mục II Thông tư số …"
    rf"(?:(?P<self>(?i:{TYPES}|Quy chế|Quy định|Điều lệ|văn bản))\s+này(?!\w)"
    rf"|(?P<instr>{instrument('[Ll]uật')}))")
# a heading line quoted or merged into text: "Điều 115. Title", "“Điều 54. Title"
RE_HEADING_LINE = re.compile(r"^[“\"]?(?:Điều|ĐIỀU)\s+\S+\s*[.:](?:\s|$)")


@dataclass
class Chain:
    start: int
    end: int                       # the end of the chain and its qualifier
    levels: dict[str, list[str]] = field(default_factory=dict)   # "a"/"c"/"p" -> labels
    this: set[str] = field(default_factory=set)                  # levels said as "này"
    instrument: str | None = None  # as written; None: not stated
    self_named: bool = False       # "… Luật này"
    chain_end: int = 0             # the end of the chain without its qualifier
    text: str = ""


def find_chains(line: str) -> list[Chain]:
    """Every chain of `line`, in order, with its qualifier; a chain without one takes the
    qualifier of the next chain when only separators lie between ("khoản 3 Điều 5, khoản 3
    Điều 6 và khoản 3 Điều 7 Thông tư số 03/2012/TT-BYT")."""
    out: list[Chain] = []
    for m in RE_CHAIN.finditer(line):
        if m.end() == m.start():
            continue
        c = Chain(m.start(), m.end(), chain_end=m.end())
        for k in "pca":
            if m.group(f"{k}_this"):
                c.this.add(k)
            elif m.group(f"{k}_from"):
                c.levels[k] = expand(m.group(f"{k}_from"), m.group(f"{k}_to"), k)
            elif m.group(f"{k}_list"):
                items = re.sub(rf"(?:{KW[k]})\s+", " ", m.group(f"{k}_list"))
                c.levels[k] = re.findall(rf"(?<![\w.]){LABEL[k]}", items)
        q = RE_QUALIFIER.match(line, m.end())
        if q:
            c.end = q.end()
            c.self_named = bool(q.group("self"))
            c.instrument = q.group("instr")
        c.text = line[c.start:c.end].strip()
        out.append(c)
    for a, b in reversed(list(zip(out, out[1:]))):      # share a trailing qualifier
        if a.instrument is None and not a.self_named and not a.this and RE_SHARE.fullmatch(line[a.end:b.start]):
            a.instrument, a.self_named = b.instrument, b.self_named
    return out


# between chains sharing a qualifier: separators and other headings ("…, Chương III, …")
RE_SHARE = re.compile(r"(?:[\s,]|và|hoặc|(?:Chương|Mục|Phần|Phụ lục)\s+[IVXLCDM\d]+)*")


def expand(first: str, last: str, kind: str) -> list[str]:
    """'10'..'12' -> ['10', '11', '12']; 'a'..'đ' -> ['a', 'b', 'c', 'd', 'đ']; endpoints
    only when the range cannot be counted (labels like '5a', or more than 50)."""
    if kind == "p" and first in LETTERS and last in LETTERS:
        i, j = LETTERS.index(first), LETTERS.index(last)
        if i <= j:
            return list(LETTERS[i:j + 1])
    if first.isdigit() and last.isdigit() and 0 <= int(last) - int(first) <= 50:
        return [str(n) for n in range(int(first), int(last) + 1)]
    return [first, last]


# -- chains made absolute -------------------------------------------------------------
@dataclass(frozen=True)
class Here:
    """The labels of the unit holding a line: its article, khoản, điểm (None if none)."""
    article: str | None = None
    clause: str | None = None
    point: str | None = None

    @classmethod
    def of(cls, unit_id: str) -> "Here":
        m = re.search(r"/a([^/]+)(?:/c([^/]+))?(?:/p([^/]+))?(?:/[^/]+)?$", unit_id)
        return cls(*m.groups()) if m else cls()

    def path(self) -> tuple:
        return (self.article, self.clause, self.point)


def targets(c: Chain, here: Here, article: str | None = None) -> list[tuple]:
    """(article, clause, point) labels a chain names, made absolute from `here` (relative
    "này" and bare khoản / điểm) or from `article` (an amended article named above).
    The lower levels belong to the first item of the level above: "điểm a khoản 1, khoản
    2 Điều 5" -> (5, 1, a), (5, 2, None)."""
    a, cl, p = c.levels.get("a"), c.levels.get("c"), c.levels.get("p")
    if "a" in c.this:
        a = [here.article] if here.article else None
        if a is None:
            return []
    if "c" in c.this:
        if not here.clause:
            return []
        cl, a = [here.clause], a or [here.article]
    if "p" in c.this:
        if not here.point:
            return []
        p, cl, a = [here.point], cl or ([here.clause] if here.clause else None), a or [here.article]
    if not a:                                          # bare "khoản 2", "điểm b"
        if c.instrument:
            return []
        a = [article or here.article] if (article or here.article) else None
        if a is None:
            return []
        if cl is None and p and article is None:
            cl = [here.clause] if here.clause else None
    out = []
    for i, art in enumerate(a):
        if i or not (cl or p):
            out.append((art, None, None))
        elif not cl:
            out += [(art, None, x) for x in p]
        else:
            for j, c_ in enumerate(cl):
                out += [(art, c_, x) for x in p] if (p and not j) else [(art, c_, None)]
    return out

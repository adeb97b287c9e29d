"""Vietnamese statutes: Phần / Chương / Mục / Điều / khoản / điểm.

Headings ("Phần thứ nhất", "Chương I", "Mục 1") may carry their title on the same
line or on the next line(s) in capitals; "Chương I" -> chapter label "1". Articles
are "Điều 5. Title" (label "5", article_no 5), "Điều 5a." (label "5a", article_no 5)
or pháp điển numbers "Điều 45.4.LQ.1. Title" (label "45.4.LQ.1", no article_no).
Inside an article: khoản "1." / "1)" (clause), điểm "a)" ... "đ)" (point, labelled by
its letter), and subpoints "a1)" or "-" / "+" bullets kept as text of the point.
Lines not understood go to the enclosing unit. Markdown marks (#, >, **) are dropped,
so the same rules read the pháp điển markdown (see phapdien.py) and ALQAC (alqac.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..core.records import DocumentMeta, ParseResult, Problem
from .text import visible
from .tree import TreeBuilder

# -- numbers ------------------------------------------------------------------------
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
_ORDINAL = {"nhất": 1, "một": 1, "hai": 2, "ba": 3, "tư": 4, "bốn": 4, "năm": 5,
            "sáu": 6, "bảy": 7, "tám": 8, "chín": 9, "mười": 10}


def roman_to_int(s: str) -> int:
    """'XIV' -> 14; raises ValueError for anything else."""
    if not s or any(c not in _ROMAN for c in s):
        raise ValueError(f"not a roman numeral: {s!r}")
    values = [_ROMAN[c] for c in s]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))


def vi_ordinal(words: list[str]) -> tuple[int, int]:
    """Leading ordinal words -> (number, words used): ['nhất', ...] -> (1, 1),
    ['mười', 'hai', ...] -> (12, 2). (0, 0) if the words are not an ordinal."""
    w = [x.lower().strip(".:,") for x in words[:2]]
    if not w or w[0] not in _ORDINAL:
        return 0, 0
    n = _ORDINAL[w[0]]
    if n == 10 and len(w) > 1 and w[1] in _ORDINAL and _ORDINAL[w[1]] < 10:
        return 10 + _ORDINAL[w[1]], 2        # mười một, mười hai ...
    return n, 1


# -- line patterns ------------------------------------------------------------------
# "Phần thứ nhất ...", "Chương IV: ...", "Mục 2. ..." (keyword in any case)
RE_HEADING = re.compile(r"^(Phần|Chương|Mục)\s+(.+)$", re.I)
# the number after Chương / Mục / Phần: upper-case roman or arabic, then a break
RE_HEAD_NO = re.compile(r"^([IVXLCDM]+|\d+)(?=$|[\s.:–—-])")
# "Điều 45.4.LQ.1. Title" (pháp điển number, last part may be "7b"), "Điều 5. Title",
# "Điều 5a: Title".
PD_NUMBER = r"\d+\.\d+\.[A-ZĐ]+(?:\.\d+[a-zđ]?)+"
RE_ARTICLE = re.compile(rf"^(?:Điều|ĐIỀU)\s+({PD_NUMBER}|\d+[a-zđ]?)\s*[.:](?!\d)\s*(.*)$")
# a bare "Điều 5" line (constitutions): a heading only as the next article after a
# finished sentence; else it is a reference broken over two lines ("quy định tại\nĐiều 20")
RE_BARE_ARTICLE = re.compile(r"^(?:Điều|ĐIỀU)\s+(\d+)$")
# khoản "1. text" / "1) text" (a stray markdown '*' after the dot is tolerated)
RE_CLAUSE = re.compile(r"^(\d{1,3})[.)]\**(?:\s+(.*))?$")
# điểm "a) text", including đ
RE_POINT = re.compile(r"^([a-zđ])\)\s*(.*)$")
_END_PUNCT = ".;:,!?"


def clean_line(line: str) -> str:
    """Drop invisible format characters (text.INVISIBLE: BOM, zero-width space, soft hyphen …), odd blanks
    and markdown marks: '## **Điều 1. X**' -> 'Điều 1. X'."""
    s = visible(line).replace("\u00a0", " ").strip()
    s = re.sub(r"^(?:#+|>+)\s*", "", s)          # heading marks, block quotes
    s = s.replace("**", "").replace("__", "")   # bold
    if re.fullmatch(r"[*_]\S.*[*_]", s):        # a line wholly in *italics*
        s = s[1:-1]
    if re.fullmatch(r"[-=*_\s]{3,}", s):        # horizontal rules ---, ***
        return ""
    return s.strip()


def is_upper_title(s: str) -> bool:
    """'NHỮNG QUY ĐỊNH CHUNG': all letters capital (Ð, Đ included)."""
    return any(c.isalpha() for c in s) and s == s.upper()


@dataclass(frozen=True)
class Heading:
    kind: str                      # part, chapter, section
    label: str                     # arabic: "Chương IV" -> "4"
    title: str                     # the title on the same line, if any
    roman: bool                    # numbered in roman numerals


# "Chương IV Nghị định này …", "Mục 2 Luật này": a reference broken over lines
RE_PROSE_TITLE = re.compile(r"\bnày\b|[,;:]$")


def parse_heading(s: str) -> Heading | None:
    """'Chương IV: TITLE' -> Heading('chapter', '4', 'TITLE', True); None for prose."""
    m = RE_HEADING.match(s)
    if not m:
        return None
    word, rest = m.group(1).lower(), m.group(2).strip()
    kind = {"phần": "part", "chương": "chapter", "mục": "section"}[word]
    if kind == "part" and rest.lower().startswith("thứ "):
        words = rest.split()[1:]
        n, used = vi_ordinal(words)
        if not n:
            return None
        label, title, roman = n, " ".join(words[used:]), False
    else:
        num = RE_HEAD_NO.match(rest)
        if not num:
            return None
        token = num.group(1)
        roman = not token.isdigit()
        label, title = roman_to_int(token) if roman else int(token), rest[num.end():]
    title = title.strip().lstrip(".:–—- ").strip()
    if title and (title[0].islower() or (not is_upper_title(title) and RE_PROSE_TITLE.search(title))):
        return None                         # "Chương II của Luật này …" is prose
    return Heading(kind, str(label), title, roman)


def article_label(label: str) -> int | None:
    """'5' -> 5, '5a' -> 5, pháp điển '45.4.LQ.1' -> None."""
    m = re.fullmatch(r"(\d+)[a-zđ]?", label)
    return int(m.group(1)) if m else None


# -- body lines: shared by parse_vi, pháp điển and ALQAC ----------------------------
def body_line(b: TreeBuilder, s: str, lineno: int) -> None:
    """A line inside (or before) an article: khoản, điểm, or text of the innermost unit.
    A khoản or điểm numbered at or below the one before it ("1." after "3.") starts a
    list nested in that unit (a form, a quoted provision) and stays its text."""
    if not b.inside("article"):
        b.add_text(s, lineno)               # preamble, chapter notes
        return
    m = RE_CLAUSE.match(s)
    if m and _follows(b.current("clause"), int(m.group(1)), _clause_rank):
        b.open("clause", str(int(m.group(1))), lineno, text=s)
        return
    m = RE_POINT.match(s)
    if m and _follows(b.current("point"), m.group(1), _point_rank):
        b.open("point", m.group(1), lineno, text=s)   # under the clause, or the article
        return
    b.add_text(s, lineno)       # continuation lines, subpoints "a1)", "-" bullets, tables


_LETTERS = "abcdđefghijklmnopqrstuvwxyz"


def _clause_rank(label: str) -> int:
    return int(label) if label.isdigit() else 0


def _point_rank(label: str) -> int:
    return _LETTERS.index(label) + 1 if label in _LETTERS else 0


def _follows(prev, label, rank) -> bool:
    """Does `label` come after the open unit `prev` (None: nothing open yet)?"""
    return prev is None or rank(str(label)) > rank(prev.label)


# -- headings with titles on the following lines -------------------------------------
@dataclass
class _Pending:
    kind: str
    label: str
    line: int
    raw: str
    strict: bool                   # seen inside an article: needs a capitalised title
    title: list[str] = field(default_factory=list)


class ViParser:
    """Feeds cleaned lines of one document into a TreeBuilder."""

    def __init__(self, b: TreeBuilder):
        self.b = b
        self.pending: _Pending | None = None
        self.sentence_done = True           # the last line ended a sentence or was a heading

    def feed(self, s: str, lineno: int) -> None:
        if not s:
            return
        if self.pending is not None:
            if self._title_line(s):
                self.pending.title.append(s)
                return
            self.flush()
        is_heading = self.heading(s, lineno)
        if not is_heading:
            body_line(self.b, s, lineno)
        self.sentence_done = is_heading or s[-1] in ".;:!?"

    def heading(self, s: str, lineno: int) -> bool:
        """Open a part / chapter / section / article for `s`; False if it is no heading."""
        m = RE_ARTICLE.match(s)
        if m:
            label = m.group(1)
            self.b.open("article", label, lineno, title=m.group(2).strip(),
                        article_no=article_label(label))
            return True
        if self._bare_article(s, lineno):
            return True
        h = parse_heading(s)
        if h is None or not self.accept(h):
            return False
        # inside an article, "Phần I" / "Mục 1" are often parts of a form: only a
        # capitalised title makes them headings ("Chương" is trusted)
        strict = h.kind != "chapter" and self.b.inside("article")
        if h.title and strict and not is_upper_title(h.title):
            return False                    # "Mục 1: Thông tin chung" inside a form
        self.pending = _Pending(h.kind, h.label, lineno, s, strict, [h.title] if h.title else [])
        return True

    def _bare_article(self, s: str, lineno: int) -> bool:
        m = RE_BARE_ARTICLE.match(s)
        if not m or not self.sentence_done:
            return False
        no, current = int(m.group(1)), self.b.current("article")
        if current is not None and current.article_no != no - 1:
            return False
        self.b.open("article", str(no), lineno, article_no=no)
        return True

    def accept(self, h: Heading) -> bool:
        """Inside an article, a heading numbered at or below the open one of its kind
        ("Chương 2" within chapter II) is quoted from elsewhere: text."""
        open_ = self.b.current(h.kind) if self.b.inside("article") else None
        return open_ is None or not open_.label.isdigit() or int(h.label) > int(open_.label)

    def flush(self) -> None:
        p, self.pending = self.pending, None
        if p is None:
            return
        if p.strict and not p.title:
            body_line(self.b, p.raw, p.line)    # a bare "Mục 1" inside an article: text
            return
        self.b.open(p.kind, p.label, p.line, title=" ".join(p.title))

    def _title_line(self, s: str) -> bool:
        """Is `s` (more of) the title of the pending heading?"""
        p = self.pending
        if RE_ARTICLE.match(s) or parse_heading(s) or RE_CLAUSE.match(s) or RE_POINT.match(s):
            return False
        if is_upper_title(s):
            return True
        relaxed = not p.strict and not p.title
        return relaxed and len(s) <= 150 and s[0].isupper() and s[-1] not in _END_PUNCT


def parse_vi(text: str, meta: DocumentMeta) -> ParseResult:
    b = TreeBuilder(meta)
    parser = ViParser(b)
    title_seen = False
    for i, line in enumerate(text.splitlines()):
        s = clean_line(line)
        if not title_seen and s and s.lower() == meta.title.strip().lower() \
                and not b.inside("article"):
            title_seen = True               # the title line repeats the document title
            continue
        parser.feed(s, i + 1)
    parser.flush()
    result = b.finish()
    if not any(u.kind == "article" for u in result.units):
        result.problems.append(no_articles(meta))
    return result


def no_articles(meta: DocumentMeta, severity: str = "warning") -> Problem:
    return Problem(meta.source_file, 0, "no articles (Điều …) found: is this a statute? check "
                   "that each article heading starts its line, like 'Điều 5. Tên điều'", severity)

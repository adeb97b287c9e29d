"""English statutes and rulebooks: Part / Chapter / Section / Article or rule / clause / point.

One heading per line; a leading markdown `#` is dropped.

  PART 1, Part I — Title               part      (roman numbers become arabic labels: "1")
  CHAPTER 2, Chapter 2: Title          chapter
  Section 3, SECTION 3 Title           section
  Article 12. Title, Article 12A       article   label "12A", article_no 12
  3.2.1 Title or text                  rule: an article-level unit, label "3.2.1", article_no None
  (1) ..., 1. ...                      clause    (only inside an article or rule)
  (a) ...                              point     label "a"
  (i), (ii) ...                        subpoint  label in arabic ("2"), inside a point

Choices, kept simple on purpose:
* A dotted number with dotted children in the same document is a heading, not a rule:
  "3.2" with a "3.2.1" below it is a section, "3.2.1" with a "3.2.1.1" a subsection.
  In a document with dotted rules, "3 TITLE IN CAPITALS" is a chapter.
* A document with Section headings but no Article or rule takes its sections as articles.
* (i) right after (h) is the letter point i (likewise (v) after (u), (x) after (w));
  otherwise a roman number inside a point is a subpoint.
* A heading without a title takes the next line as its title when that line is short,
  capitalised and unpunctuated ("Article 5" / "Definitions").
* Other lines (definitions, wrapped lines, closing words) go to the innermost open unit;
  text before the first heading is the document's preamble.
* A heading-like line whose rest starts in lower case ("Section 4 applies ...") is prose.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.records import DocumentMeta, ParseResult, Problem
from .tree import TreeBuilder

_NUM = r"(\d+[A-Z]?|[IVXLC]+|[A-Z])"
_SEP = r"(?!\.\d|\()(?:\s*[.:\u2014\u2013-]\s*|\s+|$)"
RE_PART = re.compile(rf"^(?:PART|Part)\s+{_NUM}{_SEP}(.*)$")
RE_CHAPTER = re.compile(rf"^(?:CHAPTER|Chapter)\s+{_NUM}{_SEP}(.*)$")
RE_SECTION = re.compile(rf"^(?:SECTION|Section)\s+(\d+[A-Z]?){_SEP}(.*)$")
RE_ARTICLE = re.compile(rf"^(?:ARTICLE|Article|Art\.)\s+(\d+)([A-Za-z]*){_SEP}(.*)$")
RE_RULE = re.compile(r"^(\d+(?:\.\d+)+[A-Z]?)\.?(?:\s+(.*))?$")
RE_CAPS_CHAPTER = re.compile(r"^(\d+)\.?\s+([A-Z][A-Z0-9 ,'’&()/\u2013\u2014-]*[A-Z)])$")
RE_CLAUSE = re.compile(r"^(?:\((\d+[A-Z]?)\)\s*|(\d+)\.(?:\s+|$))(.*)$")
RE_LETTER = re.compile(r"^\(([a-z]{1,2})\)\s*(.*)$")
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
_LEVELS = {2: "section"}


@dataclass
class _Scan:
    parents: set[str]             # dotted numbers that have dotted children
    rulebook: bool                # the document has dotted rules
    sections_are_articles: bool
    pending_title: bool = False   # the last heading had no title; the next line may be it


def clean(line: str) -> str:
    return re.sub(r"^#+\s*", "", line.replace("\ufeff", "").strip()).strip()


def parse_en(text: str, meta: DocumentMeta) -> ParseResult:
    lines = [(i + 1, clean(line)) for i, line in enumerate(text.splitlines())]
    lines = [(n, s) for n, s in lines if s]
    scan = _prescan([s for _, s in lines])
    b = TreeBuilder(meta)
    for k, (lineno, s) in enumerate(lines):
        if k == 0 and _squeeze(s) == _squeeze(meta.title):
            continue                  # the title line repeats the manifest title
        _line(b, s, lineno, scan)
    result = b.finish()
    if not any(u.kind == "article" for u in result.units):
        result.problems.append(Problem(
            meta.source_file, 0, "no articles ('Article 12') or numbered rules ('3.2.1') "
            "found: check that headings start their lines"))
    return result


def _prescan(lines: list[str]) -> _Scan:
    rules = [m.group(1) for m in map(RE_RULE.match, lines) if m and _rest_ok(m.group(2))]
    parents = {r.rsplit(".", k)[0] for r in rules for k in range(1, r.count(".") + 1)}
    articles = any(m and _rest_ok(m.group(3)) for m in map(RE_ARTICLE.match, lines))
    sections = any(m and _rest_ok(m.group(2)) for m in map(RE_SECTION.match, lines))
    has_rules = any(r not in parents for r in rules)
    return _Scan(parents, bool(rules), sections and not articles and not has_rules)


def _line(b: TreeBuilder, s: str, lineno: int, scan: _Scan) -> None:
    pending, scan.pending_title = scan.pending_title, False
    if _heading(b, s, lineno, scan):
        return
    if pending and _title_like(s):
        b.current().title = s
        return
    if b.inside("article") and _inner(b, s, lineno):
        return
    b.add_text(s, lineno)


def _heading(b: TreeBuilder, s: str, lineno: int, scan: _Scan) -> bool:
    for rx, kind in ((RE_PART, "part"), (RE_CHAPTER, "chapter")):
        m = rx.match(s)
        if m and _rest_ok(m.group(2)) and not _is_sentence(m.group(2)):
            return _open(b, scan, kind, _number(m.group(1)), lineno, m.group(2))
    m = RE_SECTION.match(s)
    if m and _rest_ok(m.group(2)):
        if scan.sections_are_articles:
            return _article(b, scan, m.group(1), lineno, m.group(2))
        if not _is_sentence(m.group(2)):
            return _open(b, scan, "section", m.group(1), lineno, m.group(2))
    m = RE_ARTICLE.match(s)
    if m and _rest_ok(m.group(3)):
        return _article(b, scan, m.group(1) + m.group(2), lineno, m.group(3))
    m = RE_RULE.match(s)
    if m and _rest_ok(m.group(2)):
        return _rule(b, scan, m.group(1), lineno, m.group(2) or "")
    m = RE_CAPS_CHAPTER.match(s)
    if m and scan.rulebook:
        return _open(b, scan, "chapter", m.group(1), lineno, m.group(2))
    return False


def _open(b: TreeBuilder, scan: _Scan, kind: str, label: str, lineno: int, title: str) -> bool:
    b.open(kind, label, lineno, title=title.strip())
    scan.pending_title = not title.strip()
    return True


def _article(b: TreeBuilder, scan: _Scan, label: str, lineno: int, rest: str) -> bool:
    """'Article 12A — Title': label '12A', article_no 12; a sentence after the number is body."""
    no = int(re.match(r"\d+", label).group())
    if _is_sentence(rest):
        b.open("article", label, lineno, article_no=no, text=rest)
        return True
    b.open("article", label, lineno, title=rest.strip(), article_no=no)
    scan.pending_title = not rest.strip()
    return True


def _rule(b: TreeBuilder, scan: _Scan, label: str, lineno: int, rest: str) -> bool:
    """'3.2.1 Text' is a rule (article-level); '3.2 Title' above 3.2.x rules is a heading."""
    if label in scan.parents:
        kind = _LEVELS.get(label.count(".") + 1, "subsection")
        return _open(b, scan, kind, label, lineno, rest)
    if len(rest) > 100 or rest.endswith((".", ";", ":", ",", "\u2014")):
        b.open("article", label, lineno, text=rest)     # '3.2.1 A Person must ...'
    else:
        b.open("article", label, lineno, title=rest.strip())
    return True


def _inner(b: TreeBuilder, s: str, lineno: int) -> bool:
    """Clauses, points and subpoints inside an article or rule."""
    m = RE_CLAUSE.match(s)
    if m:
        b.open("clause", m.group(1) or m.group(2), lineno, text=s)
        return True
    m = RE_LETTER.match(s)
    if not m:
        return False
    label = m.group(1)
    if _is_subpoint(b, label):
        b.open("subpoint", str(_roman(label)), lineno, text=s)
    else:
        b.open("point", label, lineno, text=s)
    return True


def _is_subpoint(b: TreeBuilder, label: str) -> bool:
    """(ii) inside point (a) is a subpoint; (i) right after point (h) is point i."""
    value = _roman(label)
    point = b.current("point")
    if value is None or point is None:
        return False
    sub = b.current("subpoint")
    if sub is not None and sub.label.isdigit() and int(sub.label) + 1 == value:
        return True
    return _next_letter(point.label) != label


def _next_letter(label: str) -> str:
    """'h' -> 'i', 'hh' -> 'ii', 'z' -> 'aa'."""
    if label == "z" * len(label):
        return "a" * (len(label) + 1)
    return chr(ord(label[0]) + 1) * len(label)


def _roman(s: str) -> int | None:
    s = s.lower()
    if not s or any(ch not in _ROMAN for ch in s):
        return None
    values = [_ROMAN[ch] for ch in s]
    total = sum(-v if v < w else v for v, w in zip(values, values[1:] + [0]))
    return total if total > 0 else None


def _number(label: str) -> str:
    """'IV' -> '4'; '2', '2A' and single letters other than I, V, X stay as printed."""
    if re.fullmatch(r"[IVXLC]{2,}|[IVX]", label):
        return str(_roman(label))
    return label


def _rest_ok(rest: str | None) -> bool:
    """What follows a heading number: nothing, or a capitalised title or sentence."""
    rest = (rest or "").strip()
    return not rest or rest[0].isupper() or rest[0] in "\"'“‘[(—–-"


def _is_sentence(rest: str | None) -> bool:
    rest = (rest or "").strip()
    return len(rest) > 120 or (rest.endswith((".", ";", ":", ",")) and len(rest.split()) > 6)


def _title_like(s: str) -> bool:
    return (len(s) <= 100 and s[0].isupper() and not s.endswith((".", ";", ":", ",", "—", "-"))
            and not RE_CLAUSE.match(s) and not RE_LETTER.match(s))


def _squeeze(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip().casefold()

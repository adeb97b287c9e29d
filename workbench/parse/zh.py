"""Chinese statutes: 编 / 分编 / 章 / 节 / 条 / 款 / 项 / 目.

Plain text (full-width indentation) and LawRefBook-style markdown both parse:
`#` marks are dropped, a `<!-- INFO END -->` line ends the metadata block, a 目录
(table of contents) block produces no units, and text before the first heading is
kept as the document's preamble. 第十条之一 becomes article label "10-1" with
integer article number 10. Amendment acts without 第X条 articles ("一、将刑法第…")
get their numbered items as articles.
"""
from __future__ import annotations

import re

from ..core.records import DocumentMeta, ParseResult
from .numerals import CN_NUM, cn_to_int
from .text import visible
from .tree import TreeBuilder

_N = f"[{CN_NUM}]+"
SPACE = "[\\s\u3000\u00a0]"
RE_PART = re.compile(rf"^第({_N})编{SPACE}*(.*)$")
RE_SUBPART = re.compile(rf"^第({_N})分编{SPACE}*(.*)$")
RE_CHAPTER = re.compile(rf"^第({_N})章{SPACE}*(.*)$")
RE_SECTION = re.compile(rf"^第({_N})节{SPACE}*(.*)$")
RE_ARTICLE = re.compile(rf"^第({_N})条(?:之({_N}))?(?:{SPACE}+|(?=[【\[（(])|$)(.*)$")
RE_ITEM = re.compile(rf"^[（(]({_N})[）)]{SPACE}*(.*)$")
RE_SUBITEM = re.compile(r"^([0-9０-９]+)[.．、]\s*(.*)$")
RE_CN_ITEM = re.compile(rf"^({_N})、{SPACE}*(.*)$")
RE_TOC = re.compile(rf"^目{SPACE}*录$")
RE_APPENDIX = re.compile(rf"^附{SPACE}*则$")
INFO_END = "<!-- INFO END -->"


# a heading number typeset with a space inside ("第一百二十四 条采用…", "第 三 章", "第十 条之一"): read as
# 第N条 / 第N章 -- not a wrapped line of text citing an article ("第十 条规定的情形除外")
_SPACED = re.compile(rf"^第{SPACE}*({_N}){SPACE}*(分编|编|章|节|条)((?:{SPACE}*之{SPACE}*{_N})?)"
                     rf"(?!{SPACE}*(?:规定|的|中|所|以外|之外|至|和|或|、|，|第))")


def clean(line: str) -> str:
    """Strip markdown heading marks, invisible format characters (text.INVISIBLE: a line of
    zero-width spaces is blank) and all kinds of blank space at both ends; close up a heading
    number typeset with spaces inside (_SPACED; an article's text then follows a space, as usual)."""
    s = visible(line).strip().strip("\u3000\u00a0").strip()
    s = re.sub(r"^#+\s*", "", s)
    m = _SPACED.match(s)
    if m and m.group(0) != f"第{m.group(1)}{m.group(2)}{m.group(3)}":
        heading = f"第{m.group(1)}{m.group(2)}" + re.sub(SPACE, "", m.group(3))
        s = heading + (" " if m.group(2) == "条" else "") + s[m.end():].lstrip()
    return s


def squeeze(title: str) -> str:
    """"总　　则" -> "总则": Chinese headings pad characters with spaces."""
    return re.sub(SPACE, "", title)


def parse_zh(text: str, meta: DocumentMeta) -> ParseResult:
    lines = text.splitlines()
    start = 0
    if any(line.strip() == INFO_END for line in lines):
        start = next(i for i, line in enumerate(lines) if line.strip() == INFO_END) + 1
    cleaned = [(i + 1, clean(line)) for i, line in enumerate(lines) if i >= start]
    marked = {i + 1 for i, line in enumerate(lines) if visible(line).lstrip().startswith("#")}   # markdown headings
    has_articles = any(RE_ARTICLE.match(s) for _, s in cleaned)
    b = TreeBuilder(meta)
    in_toc, toc_first = False, None
    title_seen = False
    body = [(lineno, s) for lineno, s in cleaned if s]
    listed = _contents_entries(body, marked)
    wrapped = None          # a heading just opened from a marked line, whose title may go on on the next line
    for i, (lineno, s) in enumerate(body):
        if not title_seen and squeeze(s) == squeeze(meta.title) and not b.inside("article"):
            title_seen = True       # the title line repeats the manifest title
            continue
        if lineno in listed:
            continue
        if wrapped is not None and lineno not in marked and _goes_on(s) and not wrapped.children and not wrapped.lines:
            wrapped.title += squeeze(s)     # "第三章 审查和批准决算，听取和审议国民经济和" / "社会发展计划、…"
            wrapped = None
            continue
        wrapped = None
        if RE_TOC.match(s):
            in_toc = True
            continue
        if in_toc:
            heading = squeeze(s)
            if RE_ARTICLE.match(s) or (toc_first is not None and heading == toc_first):
                in_toc = False
            else:
                if toc_first is None:
                    toc_first = heading
                continue
        _line(b, s, lineno, has_articles, body[i + 1][1] if i + 1 < len(body) else "", lineno in marked)
        node = b.current()
        if lineno in marked and node is not None and node.kind in ("part", "chapter", "section") and node.line_start == lineno:
            wrapped = node
    result = b.finish()
    if not any(u.kind == "article" for u in result.units):
        result.problems.append(_no_articles(meta))
    return result


def _contents_entries(body: list[tuple[int, str]], marked: set[int]) -> set[int]:
    """Lines of a contents list given as markdown headings with no "目录" above them (民诉法解释 2022-04-01
    opens with "## 二、回避" … "## 二十三、附则"): a numbered heading ("N、…") whose number a later heading
    line takes again lists a part, it does not open one."""
    numbered = [(lineno, m.group(1)) for lineno, s in body if lineno in marked and (m := RE_CN_ITEM.match(s))]
    return {lineno for i, (lineno, no) in enumerate(numbered) if any(no == later for _, later in numbered[i + 1:])}


HEADING_TITLE_MAX = 40      # characters: a title's second line (监督法 2006: 29); longer lines are text


def _goes_on(s: str) -> bool:
    """Can line `s` be the rest of the heading title above it (a title wrapped onto the next line)? Short,
    no article or list item, no full stop."""
    return len(s) <= HEADING_TITLE_MAX and not re.search(r"[。；：:;]", s) and \
        not any(rx.match(s) for rx in (RE_ARTICLE, RE_ITEM, RE_CN_ITEM, RE_PART, RE_CHAPTER, RE_SECTION, RE_SUBPART,
                                       RE_APPENDIX))


# a heading has no sentence punctuation and is short; one standing between two articles without its
# 第N章 (a source that lost the number: "烈士的评定" before 第八条) is no clause of the article before it
# -- nor digits, circled item numbers, formulae or table cells, nor the words by which a provision
# names its own instrument or its entry into force ("本法自公布之日起施行" without its full stop)
_SENTENCE_MARK = re.compile(r"[，。；：、,.;:！？!?（）()“”\"'《》0-9０-９①-⑳㈠-㈩=＝×+＋<>＜＞%％|｜]|"
                            r"本法|本条例|本办法|本规定|本细则|施行")
HEADING_MAX = 15        # characters: the longest of the six unnumbered headings in the shared zh corpora has 12


def _lost_heading(s: str, following: str) -> bool:
    return bool(RE_ARTICLE.match(following)) and len(squeeze(s)) <= HEADING_MAX \
        and not _SENTENCE_MARK.search(s) and not RE_ARTICLE.match(s) \
        and not any(rx.match(s) for rx in (RE_ITEM, RE_SUBITEM, RE_CN_ITEM))


def _line(b: TreeBuilder, s: str, lineno: int, has_articles: bool, following: str = "", marked: bool = False) -> None:
    """One line. `marked`: the source marks it a heading (a markdown "##" line of LawRefBook), so it is one
    even when long or punctuated ("第三章 审查和批准决算，听取和审议…", wrapped onto the next line), and a
    heading numbered "九、诉讼费用" (a judicial interpretation's parts) opens a chapter, not a clause."""
    for rx, kind in ((RE_PART, "part"), (RE_CHAPTER, "chapter"), (RE_SECTION, "section")):
        m = rx.match(s)
        if m and (marked or not _looks_like_sentence(m.group(2))):
            b.open(kind, str(cn_to_int(m.group(1))), lineno, title=squeeze(m.group(2)))
            return
    m = RE_CN_ITEM.match(s) if marked and has_articles else None
    if m:
        b.open("chapter", str(cn_to_int(m.group(1))), lineno, title=squeeze(m.group(2)))
        return
    m = RE_SUBPART.match(s)
    if m:       # 分编 (Civil Code) sits between 编 and 章; kept as a section-level heading
        b.add_text(s, lineno)
        return
    lost = b.inside("article") and _lost_heading(s, following)
    if RE_APPENDIX.match(s) and (lost or not b.inside("article")):
        b.close("part")        # a code's 附则 stands beside its 编, not inside the last one
        b.open("chapter", "appendix", lineno, title="附则")
        return
    if lost:       # opens no unit (its level and number are unknown; the article it precedes ends this one): reported
        b.problem(lineno, f"heading without its number ({s!r}) between two articles: not read as a clause "
                          "of the article before it; give it its 第N章 / 第N节 to make it a chapter or section")
        return
    m = RE_ARTICLE.match(s)
    if m:
        no = cn_to_int(m.group(1))
        label = f"{no}-{cn_to_int(m.group(2))}" if m.group(2) else str(no)
        body, title = _article_title(m.group(3).strip())
        b.open("article", label, lineno, title=title, article_no=no)
        if body:
            b.open("clause", "1", lineno, text=body)
        return
    if not has_articles:
        m = RE_CN_ITEM.match(s)
        if m and not b.inside("point"):
            no = cn_to_int(m.group(1))
            b.open("article", str(no), lineno, article_no=no, text=m.group(2))
            return
    if not b.inside("article"):
        b.add_text(s, lineno)          # preamble, chapter notes: kept on the enclosing unit
        return
    m = RE_ITEM.match(s)
    if m:
        if not b.inside("clause"):
            b.open("clause", "1", lineno)
        b.open("point", str(cn_to_int(m.group(1))), lineno, text=s)
        return
    m = RE_SUBITEM.match(s)
    if m and b.inside("point"):
        b.open("subpoint", str(cn_to_int(m.group(1))), lineno, text=s)
        return
    clause = b.current("clause")
    n = int(clause.label) + 1 if clause is not None and clause.label.isdigit() else 1
    b.open("clause", str(n), lineno, text=s)


def _article_title(rest: str) -> tuple[str, str]:
    """'【立法目的】为了…' -> ('为了…', '立法目的')."""
    m = re.match(r"^[【\[]([^】\]]{1,30})[】\]]\s*(.*)$", rest)
    if m:
        return m.group(2), m.group(1)
    return rest, ""


def _looks_like_sentence(rest: str) -> bool:
    """'第三章规定的…' is prose, not a heading: headings are short and unpunctuated."""
    rest = rest.strip()
    return len(rest) > 40 or any(p in rest for p in "，。；：")


def _no_articles(meta: DocumentMeta):
    from ..core.records import Problem
    return Problem(meta.source_file, 0, "no articles (第…条) found: is this a statute? "
                   "check the file's encoding and that headings start their lines")

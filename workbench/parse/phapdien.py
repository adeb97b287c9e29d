"""Bộ pháp điển topic files (đề mục), as Jekyll markdown under `van-ban/`.

Each file: front matter (title, permalink, lastedit), a "THÔNG TIN VĂN BẢN" table,
then "## VĂN BẢN" and the codified articles "Điều 45.4.LQ.1. Title", each followed by
a source note "(Điều 1 Luật số 105/2016/QH13 Dược ngày …, có hiệu lực thi hành kể từ
ngày 01/01/2017 …)", its khoản / điểm, and "(Điều này có nội dung liên quan đến Điều …)"
notes. The file ends with "## Danh sách điều khoản": one line per article of the đề mục
(title, often run together with its first paragraph), more articles than the body has.

Key = file stem, version = the front matter's `lastedit` (or modified / date / created).
Source notes and related-content notes become Unit.attrs (no edges: linking is a later
step); the source's effective date becomes the article's effective_from (and that of
its clauses and points), and a whole article repealed ("…, bị bãi bỏ bởi Điều … có hiệu
lực … ngày D") gets effective_to D. Repairs of the source text, each kept visible:
- headings glued onto the previous line ("…cung ứng mô.Điều 45.5.LQ.4. …") are split off;
- a source note with no heading above it gets the heading of the article that the list
  has at that place (attr ("heading_from", "listing"), an info Problem);
- articles only in the list become article units holding the list line
  (attr ("text_source", "listing")): their title may run into their first paragraph.
In a codification, a plain "Điều 2." is part of a form and stays text. The few plain
instruments in the folder (Nghị định 165/2026 …) parse with the same rules.
"""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from ..core.engine import parse_each
from ..core.errors import CorpusError
from ..core.records import DocumentMeta, ParseResult, Problem
from . import CorpusParse
from .dates import parse_date
from .text import read_text
from .tree import TreeBuilder
from .phapdien_listing import ListEntry, add_listing_units, read_listing, split_title
# the line parser; RE_SOURCE and source_attrs are also imported from here
from .phapdien_parser import DATE, EFFECTIVE, RE_SOURCE, PhapDienParser, source_attrs  # noqa: F401
from .vi import PD_NUMBER, RE_ARTICLE, clean_line, no_articles

# the start of a source note (it may run over several lines), and its end ("((" happens once)
RE_SOURCE_START = re.compile(r"^\(\(?Điều\s+\d+[a-zđ]?\s")
RE_SOURCE_END = re.compile(rf"^\(\(?Điều\s.*{EFFECTIVE}\s*\)")
# a pháp điển heading or a related note glued onto the end of a line of text
RE_GLUED = re.compile(rf"Điều {PD_NUMBER}\.(?:\s|$)"
                      r"|\((?:Điều|Chương|Mục) này có nội dung liên quan")
RE_LISTING = re.compile(r"^##\s+Danh sách (?:điều khoản|đề mục)", re.I)
KINDS = (("Nghị định", "decree"), ("Thông tư", "circular"), ("Quyết định", "decision"),
         ("Luật", "law"))


def import_phapdien(path: str | Path, name: str | None = None) -> CorpusParse:
    root = Path(path)
    if not root.exists():
        raise CorpusError(str(root), 0, "no such folder")
    base = root / "van-ban" if (root / "van-ban").is_dir() else root
    files = sorted(base.rglob("*.md")) if base.is_dir() else [base]
    if not files:
        raise CorpusError(str(root), 0, "no pháp điển files (*.md) found in this folder")
    out = CorpusParse(name=name or _corpus_name(root), language="vi", source=str(root))
    jobs = []                       # read here, parsed on the ingest engine (core/engine.py)
    for file in files:
        try:
            jobs.append((parse_phapdien_text, (read_text(file), file, out.name)))
        except CorpusError as e:
            jobs.append((_raise, (e,)))
    for got in parse_each(jobs):
        if isinstance(got, CorpusError):
            out.result.problems.append(Problem(got.file, got.line, got.reason, "error"))
            continue
        meta, result = got
        if meta is not None:
            out.documents.append(meta)
        out.result.extend(result)
    return out


def _raise(error: Exception):
    raise error


def _corpus_name(root: Path) -> str:
    return root.parent.name if root.name == "van-ban" else root.name


def parse_phapdien_file(file: Path, corpus: str = "") -> tuple[DocumentMeta | None, ParseResult]:
    """One topic file -> (its DocumentMeta, units); (None, an info problem) for index pages."""
    return parse_phapdien_text(read_text(file), file, corpus)


def parse_phapdien_text(text: str, file: Path, corpus: str = "") -> tuple[DocumentMeta | None, ParseResult]:
    """`parse_phapdien_file` on the text already read from `file`."""
    front, lines = front_matter(text)
    meta = _meta(file, front, corpus)
    stop = next((i for i, s in enumerate(lines) if RE_LISTING.match(s)), len(lines))
    numbered = join_source_notes(split_glued(lines[:stop]))
    if _is_index(lines, numbered):
        return None, ParseResult(problems=[Problem(str(file), 0, "index page (Danh sách đề mục, "
                                                   "no article text): skipped", "info")])
    listing = read_listing(lines, stop)
    problems: list[Problem] = []
    numbered, restored = restore_headings(numbered, listing, problems, str(file))
    codification = any(_pd_heading(s) for _, s in numbered)
    result = PhapDienParser(TreeBuilder(meta), codification, restored).run(numbered)
    result.problems[:0] = problems
    add_listing_units(result, listing, meta)
    articles = [u for u in result.units if u.kind == "article"]
    if not articles:
        result.problems.append(no_articles(meta))
    doc_type = next((u.attr("doc_type") for u in result.units if u.kind == "document"), "")
    kind = "codification" if codification else _kind(doc_type or meta.title)
    return replace(meta, kind=kind), result


def front_matter(text: str) -> tuple[dict[str, str], list[str]]:
    """Top-level `key: value` pairs of the Jekyll front matter, and all lines of the
    file with the front matter blanked out (line numbers stay true)."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return {}, lines
    end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
    if end is None:
        return {}, lines
    fields = {}
    for line in lines[1:end]:
        m = re.match(r"^([A-Za-z_]\w*):\s*(.*)$", line)
        if m:
            fields[m.group(1)] = m.group(2).strip().strip("\"'")
    return fields, [""] * (end + 1) + lines[end + 1:]


def _meta(file: Path, front: dict[str, str], corpus: str) -> DocumentMeta:
    stamps = (front.get(k) for k in ("lastedit", "modified", "date", "created"))
    version = next((d for d in map(parse_date_or_none, stamps) if d), None)
    if version is None:
        raise CorpusError(str(file), 1, "no version date: put `lastedit: YYYY-MM-DD` in the "
                          "front matter")
    return DocumentMeta(key=file.stem, version=version.isoformat(),
                        title=front.get("title") or file.stem, language="vi",
                        kind="codification", source_file=str(file), corpus=corpus,
                        effective_from=parse_date_or_none(front.get("ngay_hieu_luc")))


def parse_date_or_none(value):
    try:
        return parse_date(value)
    except ValueError:
        return None


def _kind(title: str) -> str:
    return next((kind for word, kind in KINDS if title.startswith(word)), "codification")


def _pd_heading(s: str) -> str | None:
    """The pháp điển number of a heading line 'Điều 45.4.LQ.1. …', else None."""
    m = RE_ARTICLE.match(clean_line(s))
    return m.group(1) if m and re.fullmatch(PD_NUMBER, m.group(1)) else None


def _is_index(lines: list[str], body: list[tuple[int, str]]) -> bool:
    """A page listing đề mục, with no article text of its own."""
    return any(re.match(r"^##\s+Danh sách đề mục", s) for s in lines) and \
        not any(RE_ARTICLE.match(clean_line(s)) for _, s in body)


def restore_headings(lines: list[tuple[int, str]], listing: list[ListEntry],
                     problems: list[Problem], file: str) -> tuple[list[tuple[int, str]], set]:
    """Give each source note with no heading above it the heading of the next article that
    the list has between the surrounding headings and the body lacks."""
    heads = [(i, _pd_heading(s)) for i, (_, s) in enumerate(lines)]
    heads = [(i, n) for i, n in heads if n]
    seen = {n for _, n in heads}
    listing = [e for e in listing if e.kind == "article"]
    pos: dict[str, int] = {}
    for k, e in enumerate(listing):
        pos.setdefault(e.label, k)
    out, restored, prev, after_heading = [], set(), None, False
    for i, (lineno, s) in enumerate(lines):
        c = clean_line(s)
        if c and RE_SOURCE.match(c) and not after_heading:
            nxt = next((n for j, n in heads if j > i), None)
            lo, hi = pos.get(prev, -1), pos.get(nxt, len(listing))
            entry = next((e for e in listing[lo + 1:hi] if e.label not in seen), None)
            if entry is None:
                problems.append(Problem(file, lineno, "source note with no article heading "
                                        "above it; kept as text of the article before", "warning"))
            else:
                seen.add(entry.label)
                restored.add(entry.label)
                prev = entry.label
                first = next((clean_line(t) for _, t in lines[i + 1:] if clean_line(t)), "")
                out.append((lineno, f"Điều {entry.label}. {split_title(entry.text, first)}"))
                problems.append(Problem(file, lineno, f"article heading missing before its "
                                        f"source note; restored 'Điều {entry.label}' from the "
                                        "Danh sách điều khoản", "info"))
        number = _pd_heading(s) if c else None
        prev = number or prev
        after_heading = bool(number) if c else after_heading
        out.append((lineno, s))
    return out, restored


# -- repairs before parsing ----------------------------------------------------------
def split_glued(lines: list[str]) -> list[tuple[int, str]]:
    """Numbered lines, with article headings and notes that the source glued onto the
    end of the previous line put on lines of their own:
    '… cung ứng mô.Điều 45.5.LQ.4. Các nguyên tắc …' -> 2 lines."""
    out = []
    for i, line in enumerate(lines):
        rest = line.strip()
        while (cut := _glue_point(rest)) is not None:
            out.append((i + 1, rest[:cut].rstrip()))
            rest = rest[cut:]
        out.append((i + 1, rest))
    return out


def _glue_point(s: str) -> int | None:
    """Where a glued note or pháp điển heading starts in `s` (not at 0), or None.
    'liên quan đến Điều 45…' and '…; Điều 45…' inside notes are references, not headings."""
    for m in RE_GLUED.finditer(s):
        before = s[:m.start()]
        if m.start() and before.count("(") == before.count(")") and \
                (m.group(0).startswith("(") or not before.endswith((" ", "("))
                 or before.endswith(". ")):
            return m.start()
    return None


def join_source_notes(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Source notes broken over several lines joined into one, and text glued after
    their ')' split off: '(Điều 1 … 15/06/2011)Ban hành …' -> 2 lines."""
    out, i = [], 0
    while i < len(lines):
        lineno, s = lines[i]
        if RE_SOURCE_START.match(s.strip()):
            joined, j = s.strip(), i
            while not RE_SOURCE_END.match(joined) and j + 1 < len(lines) and j - i < 3:
                j += 1
                joined = f"{joined} {lines[j][1].strip()}"
            m = RE_SOURCE_END.match(joined)
            if m:
                out.append((lineno, m.group(0).replace("((", "(", 1)))
                if joined[m.end():].strip():
                    out.append((lines[j][0], joined[m.end():].strip()))
                i = j + 1
                continue
        out.append((lineno, s))
        i += 1
    return out

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
from ..core.records import DocumentMeta, Edge, EdgeType, ParseResult, Problem, Unit
from . import CorpusParse
from .dates import parse_date
from .text import read_text
from .tree import TreeBuilder
from .phapdien_listing import ListEntry, add_listing_units, read_listing, split_title
from .vi import PD_NUMBER, RE_ARTICLE, ViParser, body_line, clean_line, no_articles

DATE = r"\d{1,2}/\d{1,2}/\d{4}"
EFFECTIVE = rf"có hiệu lực thi hành kể từ ngày\s*({DATE})"
# "(Điều 1 Luật số 105/2016/QH13 Dược ngày 06/04/2016 của Quốc hội, có hiệu lực … 01/01/2017 …)"
RE_SOURCE = re.compile(rf"^\((?P<art>Điều\s+\d+[a-zđ]?)\s+(?P<inst>[^,()]*?\bsố\s+[^\s,()]+)"
                       rf"(?P<title>.*?),\s*có hiệu lực thi hành kể từ ngày\s*(?P<date>{DATE})"
                       rf"(?P<tail>.*)\)$")
# the start of one (it may run over several lines), and its end ("((" happens once)
RE_SOURCE_START = re.compile(r"^\(\(?Điều\s+\d+[a-zđ]?\s")
RE_SOURCE_END = re.compile(rf"^\(\(?Điều\s.*{EFFECTIVE}\s*\)")
# its tail: ", có nội dung được sửa đổi, … bởi Điều 1 Nghị định số … có hiệu lực … ngày D"
RE_CHANGE = re.compile(r"^(?P<what>.*?)\s*\bbởi\s+(?P<by>.+)$")
# "(Điều này có nội dung liên quan đến Điều 24.10.LQ.42. …)"; also Chương / Mục này
RE_RELATED = re.compile(r"^\((Điều|Chương|Mục|Khoản) này có nội dung liên quan đến\s+(.*)\)$")
# a pháp điển heading or a related note glued onto the end of a line of text
RE_GLUED = re.compile(rf"Điều {PD_NUMBER}\.(?:\s|$)"
                      r"|\((?:Điều|Chương|Mục) này có nội dung liên quan")
RE_PD_NUMBER = re.compile(rf"Điều\s+({PD_NUMBER})")
RE_LISTING = re.compile(r"^##\s+Danh sách (?:điều khoản|đề mục)", re.I)
RE_BODY = re.compile(r"^##\s+VĂN BẢN\s*$")
RE_TABLE_ROW = re.compile(r"^\|\s*\**([^|*]+?)\**\s*\|\s*(.*?)\s*\|?\s*$")
INFO_FIELDS = {"số hiệu": "number", "loại văn bản": "doc_type", "nơi ban hành": "issuer",
               "cơ quan ban hành": "issuer", "ngày ban hành": "issued",
               "ngày hiệu lực": "effective", "ngày có hiệu lực": "effective",
               "trạng thái": "status", "tình trạng": "status"}
SCOPES = {"Điều": "article", "Khoản": "clause", "Chương": "chapter", "Mục": "section"}
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


# -- parsing --------------------------------------------------------------------------
class PhapDienParser(ViParser):
    """ViParser plus pháp điển notes and the document info table."""

    def __init__(self, b: TreeBuilder, codification: bool = True, restored: set = frozenset()):
        super().__init__(b)
        self.codification = codification
        self.restored = restored
        self.attrs: dict[str, list[tuple[str, str]]] = {}
        self.dates: dict[str, tuple] = {}         # unit id -> (effective_from, effective_to)

    def run(self, lines: list[tuple[int, str]]) -> ParseResult:
        has_marker = any(RE_BODY.match(s) for _, s in lines)
        in_body = False
        for lineno, s in lines:
            if RE_BODY.match(s):
                in_body = True
                continue
            if not in_body and not self.b.inside("article") and self._info_row(s):
                continue                      # the info table: document attrs
            if has_marker and not in_body:
                continue                      # the page header above "## VĂN BẢN"
            self.line(clean_line(s), lineno)
        self.flush()
        return self._finish()

    def line(self, s: str, lineno: int) -> None:
        if not s or (s == self.b.meta.title and not self.b.inside("article")):
            return
        if s.startswith("("):
            self.flush()
            if self._source_note(s, lineno) or self._related_note(s, lineno):
                return
        m = RE_ARTICLE.match(s)
        if m and self.codification and not re.fullmatch(PD_NUMBER, m.group(1)):
            self.flush()
            body_line(self.b, s, lineno)      # "Điều 2. …" of a form inside an article
            return
        self.feed(s, lineno)

    def accept(self, h) -> bool:
        """Pháp điển chapters are "Chương IV" alone on their line, sections "Mục 2",
        titles on the next line; "Chương 2." or "Chương III. TITLE" inside an article
        are headings of the source instrument, kept as text."""
        if self.codification and h.kind in ("chapter", "section") and \
                (h.title or (h.kind == "chapter" and not h.roman)):
            return False
        return super().accept(h)

    # -- notes ---------------------------------------------------------------------
    def _source_note(self, s: str, lineno: int) -> bool:
        art = self.b.current("article")
        m = RE_SOURCE.match(s)
        if art is None or not m or art.id in self.dates:
            return False                      # a second note stays text (reported before)
        _note_text(art, s, lineno)
        attrs, dates = source_attrs(m)
        self.attrs.setdefault(art.id, []).extend(attrs)
        self.dates[art.id] = dates
        return True

    def _related_note(self, s: str, lineno: int) -> bool:
        m = RE_RELATED.match(s)
        node = self.b.current(SCOPES[m.group(1)]) if m else None
        if node is None:
            return False
        _note_text(node, s, lineno)
        numbers = RE_PD_NUMBER.findall(m.group(2))
        name, value = ("related", ";".join(numbers)) if numbers else ("related_text", m.group(2))
        self.attrs.setdefault(node.id, []).append((name, value))
        return True

    def _info_row(self, s: str) -> bool:
        """'| **Số hiệu** | 44/2005/QH11' -> document attr ("number", "44/2005/QH11")."""
        m = RE_TABLE_ROW.match(s.strip())
        if not m:
            return False
        name = INFO_FIELDS.get(m.group(1).strip().lower())
        value = m.group(2).strip()
        doc = self.attrs.setdefault(self.b.meta.doc_id, [])
        if name and value and value != "Đang cập nhật" and name not in dict(doc):
            doc.append((name, value))         # the first of "Cơ quan" / "Nơi ban hành"
        return True

    def _finish(self) -> ParseResult:
        result = self.b.finish()
        for label in self.restored:
            self.attrs.setdefault(f"{self.b.meta.doc_id}/a{label}", []).append(
                ("heading_from", "listing"))
        parents = {u.id: u.parent_id for u in result.units}
        result.units = [_with_notes(u, self.attrs.get(u.id, ()), self._dates_for(u.id, parents))
                        for u in result.units]
        return result

    def _dates_for(self, uid: str, parents: dict) -> tuple | None:
        """Clauses and points take the dates of their article's source note."""
        while uid is not None:
            if uid in self.dates:
                return self.dates[uid]
            uid = parents.get(uid)
        return None


def source_attrs(m: re.Match) -> tuple[list[tuple[str, str]], tuple]:
    """Attrs and (effective_from, effective_to) from a RE_SOURCE match."""
    attrs = [("source_article", m.group("art")), ("source_instrument", m.group("inst").strip())]
    if m.group("title").strip():
        attrs.append(("source_title", m.group("title").strip()))
    start, end = parse_date(m.group("date")), None
    change = RE_CHANGE.match(m.group("tail").strip().lstrip(",").strip())
    if change:
        what, by = change.group("what").strip(), change.group("by")
        names = "; ".join(re.sub(rf"\s*{EFFECTIVE}.*$", "", a.strip()) for a in by.split(";"))
        dates = [parse_date(d) for d in re.findall(EFFECTIVE, by)]
        if "sửa đổi" in what or "bổ sung" in what or not what:
            attrs.append(("amended_by", names))
        if "bãi bỏ" in what:
            attrs.append(("repealed_by", names))
            if what == "bị bãi bỏ" and dates:
                end = dates[0]                  # the whole article was repealed
        attrs += [("change", what), ("changed_on", ";".join(d.isoformat() for d in dates))]
    return attrs, (start, end)


def _note_text(node, text: str, lineno: int) -> None:
    """Keep a note in the text of the unit it is about (not in its last clause)."""
    node.lines.append(text)
    node.line_end = max(node.line_end, lineno)


def _with_notes(u: Unit, attrs, dates) -> Unit:
    merged: dict[str, list[str]] = {}
    for name, value in attrs:
        if value and value not in merged.setdefault(name, []):
            merged[name].append(value)
    changes = {}
    if any(merged.values()):
        changes["attrs"] = u.attrs + tuple((k, ";".join(v)) for k, v in merged.items() if v)
    if dates:
        changes["effective_from"] = dates[0] or u.effective_from
        changes["effective_to"] = dates[1] or u.effective_to
    return replace(u, **changes) if changes else u

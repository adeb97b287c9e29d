"""The pháp điển line parser (parse/phapdien.py reads and repairs the files): ViParser
plus the source notes ("(Điều 1 Luật số … có hiệu lực thi hành kể từ ngày …)") and
related-content notes of articles, chapters and sections, kept as attrs and effective dates
of the units they are about, and the document's "THÔNG TIN VĂN BẢN" table as document attrs."""
from __future__ import annotations

import re
from dataclasses import replace

from ..core.records import ParseResult, Unit
from .dates import parse_date
from .tree import TreeBuilder
from .vi import PD_NUMBER, RE_ARTICLE, ViParser, body_line, clean_line

DATE = r"\d{1,2}/\d{1,2}/\d{4}"
EFFECTIVE = rf"có hiệu lực thi hành kể từ ngày\s*({DATE})"
# "(Điều 1 Luật số 105/2016/QH13 Dược ngày 06/04/2016 của Quốc hội, có hiệu lực … 01/01/2017 …)"
RE_SOURCE = re.compile(rf"^\((?P<art>Điều\s+\d+[a-zđ]?)\s+(?P<inst>[^,()]*?\bsố\s+[^\s,()]+)"
                       rf"(?P<title>.*?),\s*có hiệu lực thi hành kể từ ngày\s*(?P<date>{DATE})"
                       rf"(?P<tail>.*)\)$")
# its tail: ", có nội dung được sửa đổi, … bởi Điều 1 Nghị định số … có hiệu lực … ngày D"
RE_CHANGE = re.compile(r"^(?P<what>.*?)\s*\bbởi\s+(?P<by>.+)$")
# "(Điều này có nội dung liên quan đến Điều 24.10.LQ.42. …)"; also Chương / Mục này
RE_RELATED = re.compile(r"^\((Điều|Chương|Mục|Khoản) này có nội dung liên quan đến\s+(.*)\)$")
RE_PD_NUMBER = re.compile(rf"Điều\s+({PD_NUMBER})")
RE_BODY = re.compile(r"^##\s+VĂN BẢN\s*$")
RE_TABLE_ROW = re.compile(r"^\|\s*\**([^|*]+?)\**\s*\|\s*(.*?)\s*\|?\s*$")
INFO_FIELDS = {"số hiệu": "number", "loại văn bản": "doc_type", "nơi ban hành": "issuer",
               "cơ quan ban hành": "issuer", "ngày ban hành": "issued",
               "ngày hiệu lực": "effective", "ngày có hiệu lực": "effective",
               "trạng thái": "status", "tình trạng": "status"}
SCOPES = {"Điều": "article", "Khoản": "clause", "Chương": "chapter", "Mục": "section"}


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

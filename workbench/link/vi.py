"""Vietnamese citations (extractor "vi-citation"), plus the pháp điển notes ("phapdien-note").

The text of an article is read as a whole, line by line: each line belongs to the article,
one of its khoản or one of its điểm, found by the same rules as the parser (parse/vi.py
`body_line`), and that unit is the citation's source. So relative references are made
absolute from the unit holding the text ("khoản 2 Điều này" in khoản 3 of Điều 5 ->
/a5/c2; "điểm a khoản này" -> its own khoản), and an amendment in a điểm knows the
instrument named in the lead-in of its khoản ("1. Sửa đổi, bổ sung một số điều của Luật X:
a) Sửa đổi Điều 54 …", or in the article's title "Sửa đổi, bổ sung một số điều của Nghị
định số …", which sets that context and gives no edge itself). Khoản, điểm and subpoint
units return nothing of their own: their article reads them. Units outside articles (a
document's preamble, a chapter) read their own text. Quoted new wording ("“Điều 5. …”"
after "như sau:") is no amendment of this instrument; "Điều 4 của Nghị định này" in it
means the amended instrument, and its relative references are left out.

What a line says (patterns in vi_grammar.py):
- REFERENCES: "Điều 5", "khoản 2 Điều 5 của Luật này", "điểm a, b và c khoản 1 Điều này",
  "các Điều 10, 11 và 12", "từ Điều 10 đến Điều 12", "khoản 3 Điều 7 Nghị định số
  54/2017/NĐ-CP", "Điều 20 Luật Dược", and instruments alone ("Nghị định số 98/2021/NĐ-CP",
  "Luật Khám bệnh, chữa bệnh").
- AMENDS: "Sửa đổi, bổ sung Điều 5" (op modify), "Bổ sung khoản 3 vào Điều 5" (op insert,
  target the container, new_label "3"), "Bãi bỏ khoản 2 Điều 32" (op delete).
- REPLACES: "… thay thế Nghị định số …"; REPEALS: "Bãi bỏ Thông tư số …", "Nghị định số …
  hết hiệu lực", and the items under "Bãi bỏ các văn bản sau đây:".
In pháp điển articles the source note and "(Điều này có nội dung liên quan đến …)" notes are
stripped before reading: they are the gold of benchmarks/extract_vi.py, turned into
citations only by `note_citations` under the extractor name "phapdien-note".
"""
from __future__ import annotations

import re

from ..parse.vi import RE_CLAUSE, RE_POINT, _clause_rank, _point_rank
from ..core.records import EdgeType, Unit
from . import Citation
from .phapdien_notes import is_note_line, note_citations
from .vi_amend import Amendments, Context
from .vi_grammar import RE_HEADING_LINE, RE_INSTRUMENT, Here, find_chains, targets

EXTRACTOR = "vi-citation"
READ_BY_ARTICLE = ("clause", "point", "subpoint")

# a markdown link kept in pháp điển text: "số [16/2015/TTLT-BYT-BTC](https://…)"
RE_LINK = re.compile(r"\s?\[([^\]]*)\]\([^)]*\)")


def extract(unit: Unit) -> list[Citation]:
    return text_citations(unit) + note_citations(unit)


def text_citations(unit: Unit) -> list[Citation]:
    if unit.kind in READ_BY_ARTICLE:
        return []
    lines = [unlink(s) for s in unit.text.split("\n") if s.strip() and not is_note_line(s)]
    if unit.kind == "document" and lines and lines[0].strip() == unit.title.strip():
        lines = lines[1:]                               # the title line
    if unit.kind not in ("article", "passage") and unit.text.strip() == unit.title.strip():
        return []                                       # a heading with no text of its own
    owners = line_owners(lines) if unit.kind in ("article", "passage") else [""] * len(lines)
    reader = Reader(unit)
    for s, owner in zip(lines, owners):
        reader.line(s, owner)
    return reader.out


def line_owners(lines: list[str]) -> list[str]:
    """For each line of an article's text, the id suffix of the unit it belongs to ("",
    "/c2", "/c2/pa", "/pb"), as parse/vi.py `body_line` assigned it."""
    out, clause, point = [], None, None
    for s in lines:
        m = RE_CLAUSE.match(s)
        if m and (clause is None or _clause_rank(str(int(m.group(1)))) > _clause_rank(clause)):
            clause, point = str(int(m.group(1))), None
        else:
            m = RE_POINT.match(s)
            if m and (point is None or _point_rank(m.group(1)) > _point_rank(point)):
                point = m.group(1)
        out.append((f"/c{clause}" if clause else "") + (f"/p{point}" if point else ""))
    return out


class Reader(Amendments):
    """Reads the lines of one unit in order, keeping the amending context of lead-ins."""

    def __init__(self, unit: Unit):
        self.unit = unit
        self.out: list[Citation] = []
        self.contexts: dict[int, Context] = {}        # depth of the lead-in's unit -> context
        self.owner: str | None = None
        self.in_quote = False
        if unit.kind in ("article", "passage") and unit.title:
            title = self._lead(unit.title, unit.id, Here.of(unit.id), Context(), -1)
            if title is not None:                     # "Điều 3. Sửa đổi … của Nghị định số …"
                self.contexts[-1] = title

    # -- one line -------------------------------------------------------------------
    def line(self, s: str, owner: str) -> None:
        depth = owner.count("/")
        if owner != self.owner and not self.in_quote:
            # a new unit: lead-ins of deeper units end, and lists of its siblings; an
            # amending lead-in holds for its siblings (quoted "1. …" lines of new wording
            # are often parsed as khoản, so the next item looks like a sibling)
            self.contexts = {d: c for d, c in self.contexts.items()
                             if d < depth or (d == depth and not c.list_type)}
            self.owner = owner
        ctx = self.contexts[max(self.contexts)] if self.contexts else Context()
        source, here = self.unit.id + owner, Here.of(self.unit.id + owner)
        quoted = self._quoted(s)
        heading = RE_HEADING_LINE.match(s)            # "Điều 115. Title" merged into text
        if heading:
            s = " " * heading.end() + s[heading.end():]
        if quoted:                                    # new wording of the amended instrument
            self._references(s, source, here, ctx, quoted=True)
            return
        if ctx.list_type and self._list_item(s, source, ctx):
            return
        lead = self._lead(s, source, here, ctx, depth)
        if lead is not None:
            self.contexts[depth] = lead

    def _quoted(self, s: str) -> bool:
        t = s.strip()
        if not self.in_quote and self.contexts and t.startswith(("“", '"')):
            self.in_quote = True
        quoted = self.in_quote
        if self.in_quote and re.search(r"[”\"][.;,]?$", t) and (len(t) > 1 or not t.startswith("“")):
            self.in_quote = False
        return quoted

    # -- references ---------------------------------------------------------------------
    def _references(self, s, source, here, ctx, skip=frozenset(), chains=None, quoted=False):
        chains = find_chains(s) if chains is None else chains
        for c in chains:
            if id(c) in skip:
                continue
            instrument = c.instrument
            if quoted:                                 # "của Luật này" in new wording: the amended one
                if c.this or "a" not in c.levels:      # "khoản 2 Điều này": of the quoted article
                    continue
                if instrument is None:
                    instrument = ctx.instrument
            confidence = 0.8 if "a" not in c.levels and not c.this else 0.9
            for a, cl, p in targets(c, here):
                self._cite(source, c.text, EdgeType.REFERENCES, instrument, a, cl, p,
                           confidence=confidence)
        for m in RE_INSTRUMENT.finditer(s):
            if any(c.start <= m.start() < c.end for c in chains):
                continue                              # a chain's qualifier, or an amended instrument
            if any(x.text == m.group(0) and x.source == source and x.article is None
                   for x in self.out[-8:]):
                continue                              # already cited as replaced / repealed / amended
            self._cite(source, m.group(0), EdgeType.REFERENCES, m.group(0), confidence=0.85)

    def _cite(self, source, text, etype, instrument=None, article=None, clause=None, point=None,
              op=None, new_label=None, confidence=0.9) -> None:
        if instrument is None and (article, clause, point) == Here.of(source).path() and not op:
            return                                    # "khoản này" in the khoản itself
        self.out.append(Citation(source, text, etype, instrument, article, clause, point, op,
                                 new_label, confidence, EXTRACTOR))


# -- helpers ---------------------------------------------------------------------------
def unlink(s: str) -> str:
    """'Nghị định số[150/2006/NĐ-CP](https://…)' -> 'Nghị định số 150/2006/NĐ-CP'."""
    return RE_LINK.sub(lambda m: " " + m.group(1), s) if "](" in s else s



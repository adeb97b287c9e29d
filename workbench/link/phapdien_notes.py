"""Edges stated by the pháp điển notes (extractor "phapdien-note"), kept apart from the text.

parse/phapdien.py keeps each article's notes as attrs: `related` ("2.2.LQ.12;39.16.LQ.23",
from "(Điều này có nội dung liên quan đến Điều 2.2.LQ.12. …; Điều 39.16.LQ.23. …)") and
`amended_by` ("Điều 1 Nghị định số 75/2023/NĐ-CP; …", from the source note "…, có nội dung
được sửa đổi, bổ sung bởi Điều 1 Nghị định số …"). These are the curated links the
benchmark measures the text extractor against, so the text extractor never reads them:
`is_note_line` tells vi.py which lines of a unit's text to skip.

- related -> REFERENCES to the pháp điển article (instrument "Bộ pháp điển": resolve.py
  finds pháp điển numbers in any đề mục; a number outside the workspace becomes the
  placeholder `ref:bộphápđiển/a<number>`).
- amended_by -> AMENDS with op "amended_by": the note sits on the amended article, so the
  edge runs from it to the amending provision (reverse of a text AMENDS edge, which runs
  from the amending unit); the amending instruments are rarely in the workspace, so
  these mostly end on placeholders.
"""
from __future__ import annotations

import re

from ..core.records import EdgeType, Unit
from . import Citation
from .vi_grammar import RE_INSTRUMENT, find_chains

EXTRACTOR = "phapdien-note"
CODE = "Bộ pháp điển"
# "(Điều này có nội dung liên quan đến …" (also Khoản / Chương / Mục này), even unclosed
RE_RELATED_LINE = re.compile(r"^\s*\((?:Điều|Khoản|Chương|Mục) này có nội dung liên quan")
# the source note "(Điều 1 Luật số 105/2016/QH13 …, có hiệu lực thi hành kể từ ngày …)"
RE_SOURCE_LINE = re.compile(r"^\s*\(\(?Điều\s+\d+[a-zđ]?\s.*\bcó hiệu lực\b")


def is_note_line(line: str) -> bool:
    return bool(RE_RELATED_LINE.match(line) or RE_SOURCE_LINE.match(line))


def note_citations(unit: Unit) -> list[Citation]:
    out = []
    for label in filter(None, unit.attr("related").split(";")):
        out.append(Citation(unit.id, f"có nội dung liên quan đến Điều {label}", EdgeType.REFERENCES,
                            CODE, label, confidence=1.0, extractor=EXTRACTOR))
    for item in filter(None, (s.strip() for s in unit.attr("amended_by").split(";"))):
        text = f"được sửa đổi, bổ sung bởi {item}"
        chains = [c for c in find_chains(item) if c.instrument]
        if chains:
            c = chains[0]
            for article in c.levels.get("a", [None]):
                out.append(Citation(unit.id, text, EdgeType.AMENDS, c.instrument, article,
                                    (c.levels.get("c") or [None])[0], None, "amended_by",
                                    confidence=1.0, extractor=EXTRACTOR))
            continue
        m = RE_INSTRUMENT.search(item)                 # "Mục 1 Luật số 40/2009/QH12"
        if m:
            out.append(Citation(unit.id, text, EdgeType.AMENDS, m.group(0), op="amended_by",
                                confidence=1.0, extractor=EXTRACTOR))
    return out

"""Citation and relation extraction: text -> typed legal edges.

Each language module exposes `extract(unit: Unit, doc: DocumentMeta | None) -> list[Citation]`:
pure, per unit, no store access. A citation names its target the way the text does
(an instrument as written, article / clause / point labels), already made absolute
for relative references ("前款", "this Article", "khoản 2 Điều này"), so that
`resolve.py` only has to find the instrument and compose the unit id.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.records import EdgeType


@dataclass(frozen=True)
class Citation:
    source: str                      # citing unit id
    text: str                        # the evidence span exactly as written
    type: EdgeType = EdgeType.REFERENCES
    instrument: str | None = None    # None: the citing document itself; else as written:
                                     # "动物防疫法", "Nghị định số 98/2021/NĐ-CP", "GEN", "Clinic Licensing Act"
    article: str | None = None       # article / rule label as in unit ids: "20", "10-1", "3.2.1"
    clause: str | None = None        # "2"
    point: str | None = None         # "1" (Chinese 项) or "a" (lettered)
    op: str | None = None            # AMENDS operations: "modify" | "insert" | "delete"
    new_label: str | None = None     # insert: the label the new unit gets ("17-1")
    confidence: float = 0.9
    extractor: str = ""
    version: str | None = None       # an explicit version of the instrument ("2013"), if named

    def path(self) -> str:
        """The target below its document: "/a20/c1/p2" (empty for a whole instrument)."""
        out = ""
        if self.article:
            out += f"/a{self.article}"
            if self.clause:
                out += f"/c{self.clause}"
            if self.point:
                out += f"/p{self.point}"
        return out

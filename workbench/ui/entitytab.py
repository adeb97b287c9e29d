"""The panel's *entities* tab: the entities of law the shown evidence mentions (or the
selected unit, when one is selected), and for the one chosen its relations aggregated across
documents and versions and the documents that mention it — polars tables (`entityview`).
A search box finds any entity of the workspace by name. The entity index is built on first
use (`Workbench.entities`), so a panel that never opens the tab never pays for it."""
from __future__ import annotations

import html
from collections import Counter
from typing import Callable, Iterable

from .entityview import documents_frame, relations_frame


class EntityTab:
    def __init__(self, index: Callable[[], object]):
        import ipywidgets as W
        self._make, self._index = index, None
        self.search = W.Text(placeholder="an entity's name (any part), then Enter", description="search",
                             continuous_update=False, layout=W.Layout(width="98%"), style={"description_width": "50px"})
        self.choice = W.Dropdown(options=[], description="entity", layout=W.Layout(width="98%"),
                                 style={"description_width": "50px"})
        self.min_confidence = W.FloatSlider(value=0.0, min=0.0, max=1.0, step=0.05, description="min conf.",
                                            continuous_update=False, readout_format=".2f", style={"description_width": "70px"})
        self.note, self.out = W.HTML(), W.HTML()
        self.out.add_class("wb-entities")
        self.widget = W.VBox([self.search, self.choice, self.min_confidence, self.note, self.out])
        self.search.observe(lambda ch: self.find(ch["new"]), names="value")
        self.choice.observe(lambda _: self.show(), names="value")
        self.min_confidence.observe(lambda _: self.show(), names="value")

    @property
    def index(self):
        if self._index is None:
            self._index = self._make()
        return self._index

    def _offer(self, found: list[tuple[str, int]], note: str) -> None:
        ix = self.index
        options = [(f"{ix.entities[e].name} ({ix.entities[e].type}, {n}×)", e) for e, n in found if e in ix.entities]
        self.note.value = note if options else f"{note}: <i>none</i>"
        self.choice.options = options
        if options:
            self.choice.value = options[0][1]
        else:
            self.out.value = ""

    def for_units(self, unit_ids: Iterable[str], what: str) -> None:
        """Offer the entities mentioned in these units (in a unit or below it), most mentioned first."""
        ids = list(unit_ids)
        count = Counter(m.entity_id for m in self.index.mentions
                        if any(m.unit_id == u or m.unit_id.startswith(u + "/") for u in ids))
        self._offer(count.most_common(30), f"entities mentioned in {html.escape(what)}")

    def find(self, query: str) -> None:
        query = query.strip()
        if query:
            found = self.index.search(query, limit=30)
            self._offer([(e["id"], e["mentions"]) for e in found], f"entities named like “{html.escape(query)}”")

    def show(self) -> None:
        eid = self.choice.value
        if not eid:
            return
        rel = relations_frame(self.index, eid, min_confidence=self.min_confidence.value)
        docs = documents_frame(self.index, eid)
        self.out.value = ("<style>.wb-entities td,.wb-entities th{text-align:left!important}</style>"
                          "<div style='font-size:12px;line-height:1.35;white-space:normal;overflow-x:auto'>"
                          f"<b>relations across documents</b> ({rel.height})"
                          f"{rel._repr_html_() if rel.height else '<div><i>none at this confidence</i></div>'}"
                          f"<b>documents mentioning it</b> ({docs.height}){docs._repr_html_() if docs.height else ''}</div>")

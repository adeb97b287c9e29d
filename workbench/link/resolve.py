"""Resolve citations to unit ids.

Instruments are found by name (key, title, title without 中华人民共和国 or 《》,
aliases from the document's `aliases` attribute, Vietnamese số hiệu such as
"98/2021/NĐ-CP"); the version chosen is the one in force on the citing unit's date
(else the latest before it, else the latest). A target unit that does not exist falls
back to its nearest existing ancestor, with lower confidence; rulebook passages
(`doc/r<label>`) and chapter / part headings are looked up through `labels.LabelIndex`,
which knows how their labels spell what the text cites. A citation whose
instrument is not in the workspace becomes an edge to a placeholder `ref:<name><path>`
with resolved=False; re-resolving after the instrument is ingested makes it real.
"""
from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections import defaultdict

from ..records import Edge, Unit
from . import Citation
from .labels import LabelIndex

PLACEHOLDER = "ref:"
_STRIP = re.compile(r"[《》〈〉<>“”\"'‘’「」\s]|^中华人民共和国")


def norm_name(name: str) -> str:
    s = unicodedata.normalize("NFC", name or "").strip()
    s = _STRIP.sub("", s)
    s = re.sub(r"^中华人民共和国", "", s)
    return s.lower()


class Resolver:
    def __init__(self, documents: list[Unit], unit_ids: set[str]):
        """`documents`: the document units of the workspace (kind "document")."""
        self.ids = unit_ids
        self.labels = LabelIndex(unit_ids)
        self.versions: dict[str, list[Unit]] = defaultdict(list)   # key -> its document units
        self.names: dict[str, str] = {}                           # normalised name -> key
        for d in documents:
            self.versions[d.key].append(d)
            for name in self._names_of(d):
                self.names.setdefault(name, d.key)
        for v in self.versions.values():
            v.sort(key=lambda d: (d.effective_from or dt.date.min, d.version))

    @staticmethod
    def _names_of(d: Unit) -> list[str]:
        names = [d.key, d.title, *d.attr("aliases").split(";")]
        m = re.search(r"\d+/\d{4}/[A-ZĐ0-9\-]+", d.title + " " + d.attr("number"))
        if m:
            names.append(m.group(0))
        return [n for n in (norm_name(x) for x in names) if n]

    def find_key(self, instrument: str) -> str | None:
        name = norm_name(instrument)
        if name in self.names:
            return self.names[name]
        m = re.search(r"\d+/\d{4}/[a-zđ0-9\-]+", name)     # "nghị định số 98/2021/nđ-cp" -> number
        if m and m.group(0) in self.names:
            return self.names[m.group(0)]
        return None

    def version_of(self, key: str, on: dt.date | None) -> Unit:
        versions = self.versions[key]
        if on is not None:
            started = [d for d in versions if d.effective_from is None or d.effective_from <= on]
            if started:
                return started[-1]
        return versions[-1]

    def resolve(self, c: Citation, source: Unit) -> Edge:
        attrs = tuple((k, v) for k, v in (("op", c.op), ("new_label", c.new_label)) if v)
        if c.instrument is None:
            doc = f"{source.key}@{source.version}"
        else:
            key = self.find_key(c.instrument)
            if key is None:
                target = PLACEHOLDER + norm_name(c.instrument) + c.path()
                return Edge(c.source, target, c.type, c.text, c.confidence * 0.8, c.extractor, False,
                            attrs + (("instrument", c.instrument),))
            named = f"{key}@{c.version}" if c.version else None
            doc = named if named in self.ids else self.version_of(key, source.effective_from).id
        target, confidence = self._existing(doc, c)
        resolved = target in self.ids
        return Edge(c.source, target, c.type, c.text, c.confidence * confidence, c.extractor, resolved, attrs)

    def _existing(self, doc: str, c: Citation) -> tuple[str, float]:
        """The cited unit, or its nearest existing ancestor (confidence lowered)."""
        if not c.article:
            return doc, 1.0
        candidates = [(f"{doc}{c.path()}", 1.0)]
        if c.point:
            candidates.append((f"{doc}/a{c.article}/p{c.point}", 0.95))
            candidates.append((f"{doc}/a{c.article}/c{c.clause}" if c.clause else "", 0.8))
        candidates.append((f"{doc}/a{c.article}", 0.7 if (c.clause or c.point) else 1.0))
        for uid, conf in candidates:
            if uid and uid in self.ids:
                return uid, conf
        return self.labels.find(doc, c.article, c.clause, c.point) or (candidates[0][0], 0.5)


def is_placeholder(unit_id: str) -> bool:
    return unit_id.startswith(PLACEHOLDER)

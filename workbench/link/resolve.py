"""Resolve citations to unit ids.

Instruments are found by name (key, title, title without 中华人民共和国 or 《》,
aliases from the document's `aliases` attribute, Vietnamese số hiệu such as
"98/2021/NĐ-CP"); the version chosen is the one in force on the citing unit's date
(else the latest before it, else the latest). A target unit that does not exist falls
back to its nearest existing ancestor, with lower confidence; rulebook passages
(`doc/r<label>`) and chapter / part headings are looked up through `labels.LabelIndex`,
which knows how their labels spell what the text cites. A citation with no instrument that
the citing document does not hold is looked up in the instruments that document says it is
read with (`read_with` attribute), e.g. FSMR for a guidance note. A citation whose
instrument is not in the workspace becomes an edge to a placeholder `ref:<name><path>`
with resolved=False; re-resolving after the instrument is ingested makes it real.
"""
from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field, replace
from typing import Iterable

from ..core.records import Edge, EdgeType, Unit
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
    def __init__(self, documents: list[Unit], unit_ids: set[str], units: Iterable[Unit] = (),
                 names_from: "Resolver | None" = None):
        """`documents`: the document units of the workspace (kind "document"); `units`:
        any others, of which pháp điển articles feed `codified_index` (below). `names_from`: a
        resolver made from the same documents, whose names and versions are taken as they are
        (reading the names of 5,000 documents takes about 0.2 s, by hand with cProfile)."""
        self.ids = unit_ids
        self.codified = codified_index(units)
        self.labels = LabelIndex(unit_ids)
        if names_from is not None:
            self.versions, self.names = names_from.versions, names_from.names
            return
        self.versions: dict[str, list[Unit]] = defaultdict(list)   # key -> its document units
        self.names: dict[str, str] = {}                           # normalised name -> key
        for d in documents:
            self.versions[d.key].append(d)
            for name in document_names(d):
                self.names.setdefault(name, d.key)
        for v in self.versions.values():
            v.sort(key=lambda d: (d.effective_from or dt.date.min, d.version))

    def find_key(self, instrument: str) -> str | None:
        return next((self.names[n] for n in lookup_names(instrument) if n in self.names), None)

    def version_of(self, key: str, on: dt.date | None) -> Unit:
        versions = self.versions[key]
        if on is not None:
            started = [d for d in versions if d.effective_from is None or d.effective_from <= on]
            if started:
                return started[-1]
        return versions[-1]

    def previous_version(self, source: Unit) -> str | None:
        """The document id of the version of `source`'s instrument before `source`'s own."""
        ids = [d.id for d in self.versions.get(source.key, [])]
        mine = f"{source.key}@{source.version}"
        i = ids.index(mine) if mine in ids else -1
        return ids[i - 1] if i > 0 else None

    def resolve(self, c: Citation, source: Unit) -> Edge:
        attrs = tuple((k, v) for k, v in (("op", c.op), ("new_label", c.new_label)) if v)
        if c.instrument is None:
            doc = f"{source.key}@{source.version}"
        else:
            key = self.find_key(c.instrument)
            if key is None:
                target = PLACEHOLDER + norm_name(c.instrument) + c.path()
                return self._codified(c, source, attrs) or Edge(
                    c.source, target, c.type, c.text, c.confidence * 0.8, c.extractor, False,
                    attrs + (("instrument", c.instrument),))
            named = f"{key}@{c.version}" if c.version else None
            if named in self.ids:
                doc = named
            elif key == source.key and c.type in (EdgeType.REPEALS, EdgeType.REPLACES):
                doc = self.previous_version(source)     # "《本办法》同时废止": the version before this one
                if doc is None:
                    return Edge(c.source, PLACEHOLDER + norm_name(c.instrument) + "@previous", c.type, c.text,
                                c.confidence * 0.8, c.extractor, False, attrs + (("instrument", c.instrument),))
            else:
                doc = self.version_of(key, source.effective_from).id
        target, confidence = self._existing(doc, c)
        resolved = target in self.ids
        if not resolved and c.instrument is None:
            found = self._read_with(c, source, attrs)
            if found:
                return found
        edge = Edge(c.source, target, c.type, c.text, c.confidence * confidence, c.extractor, resolved, attrs)
        if resolved and confidence >= 1.0:
            return edge
        return self._codified(c, source, attrs) or edge

    def _codified(self, c: Citation, source: Unit, attrs: tuple) -> Edge | None:
        """Pháp điển: the codified article standing for the cited source article, if any."""
        found = self.codified.find(c, source)
        via = attrs + (("via", "phapdien-source"),)
        if found is None:                  # "Điều 3 Thông tư này", that article not codified
            inst = self.codified.source_instrument(source) if c.instrument is None else None
            return None if not inst or not c.article or _PD_LABEL.fullmatch(c.article) else Edge(
                c.source, PLACEHOLDER + norm_name(inst) + c.path(), c.type, c.text, c.confidence * 0.8,
                c.extractor, False, via + (("instrument", inst),))
        target, confidence = self._existing(found[0], replace(c, article=found[1]))
        return Edge(c.source, target, c.type, c.text, c.confidence * confidence, c.extractor,
                    target in self.ids, via)

    def _read_with(self, c: Citation, source: Unit, attrs: tuple) -> Edge | None:
        """An unqualified citation the citing document does not hold ("section 198" in a guidance
        note) is looked up in the instruments the document says it is read with: its `read_with`
        attribute ("FSMR;MKT", see parse/obliqa_names.py), in that order."""
        doc = next((d for d in self.versions.get(source.key, ()) if d.version == source.version), None)
        for name in doc.attr("read_with").split(";") if doc else ():
            key = self.find_key(name) if name else None
            if key is None or key == source.key:
                continue
            target, confidence = self._existing(self.version_of(key, source.effective_from).id, c)
            if target in self.ids:
                return Edge(c.source, target, c.type, c.text, c.confidence * confidence * 0.9,
                            c.extractor, True, attrs + (("via", "read-with"),))
        return None

    def _existing(self, doc: str, c: Citation) -> tuple[str, float]:
        """The cited unit, or its nearest existing ancestor (confidence lowered). "Paragraph 146"
        is the document's own numbered paragraph "146)" when it has one (a guidance note citing
        itself); else, cited with sub-paragraphs ("paragraph 198(1)(a)") or with the instrument
        named ("paragraph 103 of FSMR"), section 198(1) or 103. A bare "paragraph 31" is not read
        as a section of another document (it is mostly a paragraph of a Schedule or of another
        publication)."""
        if not c.article:
            return doc, 1.0
        if c.article.startswith("Paragraph "):
            found = self.labels.find(doc, c.article, c.clause, c.point)
            if found or not (c.clause or c.point or c.instrument):
                return found or (f"{doc}{c.path()}", 0.5)
            c = replace(c, article=c.article.split()[-1])
        candidates = [(f"{doc}{c.path()}", 1.0)]
        if c.point:
            candidates.append((f"{doc}/a{c.article}/p{c.point}", 0.95))
            candidates.append((f"{doc}/a{c.article}/c{c.clause}" if c.clause else "", 0.8))
        candidates.append((f"{doc}/a{c.article}", 0.7 if (c.clause or c.point) else 1.0))
        for uid, conf in candidates:
            if uid and uid in self.ids:
                return uid, conf
        return self.labels.find(doc, c.article, c.clause, c.point) or (candidates[0][0], 0.5)


_NUMBER_TITLE = re.compile(r"\d+/\d{4}/[A-ZĐ0-9\-]+")
_NUMBER_NAME = re.compile(r"\d+/\d{4}/[a-zđ0-9\-]+")


def document_names(d: Unit) -> list[str]:
    """The normalised names a document version is known by: its key, title, aliases and, for a
    Vietnamese instrument, its số hiệu. Stored with the document row (store/lance.py `names`)."""
    names = [d.key, d.title, *d.attr("aliases").split(";")]
    # a pháp điển topic gathers many instruments: the số hiệu in its front matter is not its
    # own name ("Dược" lists 44/2005/QH11, the Law on Tourism), so only its title names it
    number = "" if d.attr("doc_kind") == "codification" else d.attr("number")
    m = _NUMBER_TITLE.search(d.title + " " + number)
    if m:
        names.append(m.group(0))
    return [n for n in (norm_name(x) for x in names) if n]


def lookup_names(instrument: str) -> list[str]:
    """The names under which `find_key` looks an instrument up, in order: its normalised name,
    then the số hiệu in it ("nghị định số 98/2021/nđ-cp" -> "98/2021/nđ-cp")."""
    name = norm_name(instrument)
    m = _NUMBER_NAME.search(name)
    return [name] + ([m.group(0)] if m and m.group(0) != name else [])


def read_with_names(d: Unit) -> list[str]:
    """The lookup names of the instruments a document says it is read with (`read_with`
    attribute). Stored with the document row (store/lance.py `read_with`)."""
    return sorted({n for x in d.attr("read_with").split(";") if x for n in lookup_names(x)})


def stored_names(u: Unit) -> tuple[list[str], list[str]]:
    """What a unit row stores in its `names` and `read_with` columns: a document's names and
    the names of what it is read with; nothing for other units."""
    return (document_names(u), read_with_names(u)) if u.kind == "document" else ([], [])


def is_placeholder(unit_id: str) -> bool:
    return unit_id.startswith(PLACEHOLDER)


# -- pháp điển: a codified article stands for the article of its source instrument ----
# Its attrs (parse/phapdien.py) say which: source_instrument "Luật số 105/2016/QH13",
# source_article "Điều 5". Text codified from that law says "Điều 5 của Luật này",
# another's "khoản 2 Điều 5 Luật Dược" or "Điều 5 Luật số 105/2016/QH13": all mean it.
_PD_LABEL = re.compile(r"\d+\.\d+\.[A-ZĐ]+(?:\.\d+[a-zđ]?)+")      # "45.4.LQ.1"
_NUMBER = re.compile(r"\d+(?:[/\-][0-9a-zđ]+)+")                       # a số hiệu, normalised
_AMENDING = re.compile(r"^(?:luật|nghịđịnh|thôngtư)sửađổi,bổsungmộtsốđiều(?:của)?(.+)$")


def _law_name(name: str) -> str:
    """'Luật Phòng, chống … ở người (HIV/AIDS)' -> 'luậtphòng,chống…ởngười'."""
    return norm_name(re.sub(r"\s*\([^()]*\)", "", name))


def source_number(instrument: str) -> str:
    """'Luật số 105/2016/QH13' -> '105/2016/qh13'; đ read as d ('HĐNN8' ~ 'HDNN8')."""
    m = _NUMBER.search(norm_name(instrument))
    return m.group(0).replace("đ", "d") if m and re.search(r"[a-z]", m.group(0)) else ""


@dataclass
class Codified:
    articles: dict = field(default_factory=dict)   # (number, "5") -> (doc id, pháp điển label)
    sources: dict = field(default_factory=dict)    # pháp điển article id -> its source number
    written: dict = field(default_factory=dict)    # pháp điển article id -> its source as written
    names: dict = field(default_factory=lambda: defaultdict(list))  # "luậtdược" -> [(date, number)]
    labels: dict = field(default_factory=dict)     # pháp điển label -> doc id

    def find(self, c: Citation, source: Unit) -> tuple[str, str] | None:
        """(doc id, article label) of the codified article `c` cites from `source`."""
        if not c.article:
            return None
        if _PD_LABEL.fullmatch(c.article):             # a pháp điển number, in any đề mục
            doc = self.labels.get(c.article)
            own = c.instrument is None and doc == f"{source.key}@{source.version}"
            return (doc, c.article) if doc and not own else None
        if c.instrument is None:                       # "Điều 5 [của Luật này]": the source's
            number = self.sources.get(self._article_of(source.id), "")
        else:                                          # by số hiệu, else by name in force
            number = source_number(c.instrument) or self._by_name(_law_name(c.instrument), source.effective_from)
        found = self.articles.get((number, c.article))
        amended = _AMENDING.match(_law_name(c.instrument or ""))
        if found is None and amended:                  # "Điều 16 Luật sửa đổi, bổ sung … của Luật X"
            found = self.articles.get((self._by_name(amended.group(1), source.effective_from), c.article))
        return found

    def source_instrument(self, source: Unit) -> str:
        return self.written.get(self._article_of(source.id), "")

    def _article_of(self, uid: str) -> str:
        while uid not in self.sources and "/" in uid:
            uid = uid.rsplit("/", 1)[0]
        return uid

    def _by_name(self, name: str, on: dt.date | None) -> str:
        """The số hiệu of the law so named in force on `on`; a name cut at a comma
        ("Luật Hiến" for "Luật Hiến, lấy, ghép mô, …") stands for the one name it begins."""
        found = self.names.get(name) or [x for n in self.names if n.startswith(name + ",") for x in self.names[n]]
        if len({n for _, n in found}) > 1 and name not in self.names:
            return ""                                  # cut names that fit several laws
        started = [n for d, n in sorted(found) if on is None or d <= on]
        return (started or [n for _, n in sorted(found)] or [""])[-1]


def codified_index(units: Iterable[Unit]) -> Codified:
    out = Codified()
    for u in units:
        if u.kind != "article":
            continue
        doc = f"{u.key}@{u.version}"
        if _PD_LABEL.fullmatch(u.label):
            out.labels.setdefault(u.label, doc)
        number = source_number(u.attr("source_instrument"))
        article = u.attr("source_article").replace("Điều", "").strip()
        if not number or not article:
            continue
        out.sources[u.id] = number
        out.written[u.id] = u.attr("source_instrument")
        out.articles.setdefault((number, article), (doc, u.label))
        if u.attr("source_title"):                     # "Dược ngày 06/04/2016 …" -> "Luật Dược"
            kind = u.attr("source_instrument").split(" số ")[0]
            title = re.split(r"\s+ngày\s+", u.attr("source_title"))[0]
            out.names[_law_name(f"{kind} {title}")].append((u.effective_from or dt.date.min, number))
    return out

"""ObliQA (ADGM financial rulebooks): `StructuredRegulatoryDocuments.zip`, read in place.

The zip holds one JSON file per rulebook (`__MACOSX` entries are ignored), each a list of
{"ID": uuid, "DocumentID": int, "PassageID": "1.1.", "Passage": text}. Every DocumentID
becomes a document `adgm-<DocumentID>@current` (the source has no versions) of kind
"rulebook", and every passage a flat unit of kind "passage" right under it:
`adgm-<N>@current/r<label>`, label = PassageID without its trailing dot(s), "/" written
"_" (ids use "/" as separator) and invisible U+200E marks dropped. Passages are not
nested: PassageIDs mix rule numbers, "Guidance" notes, "PART 2.4.1.6.(1) ..." forms and
list items, so "1.1" is not reliably the parent of "1.1.2". A PassageID repeated in a
document (or "3" next to "3.") gets "~2" from the tree builder, with a warning.

Each document unit gets an `aliases` attribute ("GEN;General Rulebook"), the names other
documents cite it by, and a `read_with` attribute ("FSMR;MKT"), the instruments it says it
is issued under or read with, both read from the passages' own text (obliqa_names.py).

Gold data refer to passages by (DocumentID, PassageID) and sometimes by the passage uuid:
`obliqa_unit_id` is the id scheme (first passage of that number), `PassageIndex` resolves
exactly (uuid first, then the raw PassageID, then the label; passage text breaks ties).
"""
from __future__ import annotations

import csv
import json
import re
import zipfile
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..core.engine import parse_each
from ..core.errors import CorpusError
from ..core.records import DocumentMeta, ParseResult, Unit
from . import CorpusParse
from .obliqa_names import document_aliases, read_with
from .tree import TreeBuilder

ZIP_NAME = "StructuredRegulatoryDocuments.zip"
DEV_NAME = "ObliQA_dev.json"
XREF_NAME = "obliqa-xref-crossrefs.csv"
VERSION = "current"
RE_CITED = re.compile(r"(?:These Rules|This Rulebook|This document) (?:may be cited as|is called)"
                      r" the ([A-Z][\w ,'’&-]{3,80}?)\s*(?:\(|“|\"|\.|$)")
RE_ABBR = re.compile(r"This Rulebook \(\s*[\"“]([A-Z]{2,6})[\"”]\s*\)")
RE_TITLE = re.compile(r"^[A-Z][A-Z ,'’&()-]{8,}\b(?:REGULATIONS|RULES|RULEBOOK|LAW|ACT)\b.*$")


def passage_label(passage_id: str) -> str:
    """'9.3.1B.Guidance.5.' -> '9.3.1B.Guidance.5'."""
    return passage_id.replace("\u200e", "").strip().rstrip(".").strip().replace("/", "_")


def obliqa_unit_id(document_id: int, passage_id: str) -> str:
    """The unit id of a gold (DocumentID, PassageID): `adgm-3@current/r18.8.2`."""
    return f"adgm-{int(document_id)}@{VERSION}/r{passage_label(passage_id)}"


def import_obliqa(path: str | Path) -> CorpusParse:
    """Read the ADGM folder (or the zip itself) into one CorpusParse."""
    path = Path(path)
    zpath = path / ZIP_NAME if path.is_dir() else path
    if not zpath.is_file():
        raise CorpusError(str(zpath), 0, f"{ZIP_NAME} not found: point at the en-adgm folder")
    corpus = CorpusParse(name="en-adgm", language="en", source=str(path))
    jobs = []                       # read here, parsed on the ingest engine (core/engine.py)
    with zipfile.ZipFile(zpath) as z:
        for member in _members(z):
            for doc_id, rows in _documents(z, member).items():
                meta = _meta(doc_id, rows, f"{ZIP_NAME}:{Path(member).name}")
                corpus.documents.append(meta)
                jobs.append((parse_passages, (rows, meta)))
    for parsed in parse_each(jobs):
        if isinstance(parsed, CorpusError):
            raise parsed
        corpus.result.extend(parsed)
    add_aliases(corpus)
    return corpus


def add_aliases(corpus: CorpusParse) -> None:
    """Give each document unit an `aliases` attribute ("GEN;General Rulebook") and a `read_with`
    attribute ("FSMR;MKT": the instruments it says it is issued under or read with), both read
    from the passages' text (see obliqa_names.py), so the resolver finds cited rulebooks."""
    texts: dict[int, list[str]] = {}
    labels: dict[int, set[str]] = {}
    for u in corpus.result.units:
        if u.kind == "passage":
            doc = int(u.attr("document_id"))
            texts.setdefault(doc, []).append(u.text)
            labels.setdefault(doc, set()).add(u.label)
    titles = {int(m.key.split("-")[1]): m.title for m in corpus.documents}
    aliases = document_aliases(texts, titles, labels)
    read = read_with(texts, aliases)
    units = []
    for u in corpus.result.units:
        n = int(u.key.split("-")[1]) if u.kind == "document" else 0
        extra = tuple((k, ";".join(v)) for k, v in (("aliases", aliases.get(n)), ("read_with", read.get(n))) if v)
        units.append(replace(u, attrs=u.attrs + extra) if extra else u)
    corpus.result.units = units


def parse_passages(rows: list[tuple[int, dict]], meta: DocumentMeta) -> ParseResult:
    """One 'passage' unit per (index, JSON record), flat under the document."""
    b = TreeBuilder(meta)
    attrs: dict[str, tuple[tuple[str, str], ...]] = {}
    for index, row in rows:
        pid = str(row["PassageID"])
        lead = re.match(r"\d+", pid.strip())
        uid = b.open("passage", passage_label(pid), index + 1, text=row.get("Passage") or "",
                     article_no=int(lead.group()) if lead else None)
        attrs[uid] = (("passage_uuid", str(row["ID"])), ("document_id", str(row["DocumentID"])),
                      ("passage_id", pid))
    result = b.finish()
    result.units = [replace(u, attrs=attrs[u.id]) if u.id in attrs else u for u in result.units]
    return result


def _members(z: zipfile.ZipFile) -> list[str]:
    names = [n for n in z.namelist() if n.endswith(".json") and "__MACOSX" not in n
             and not Path(n).name.startswith("._")]
    return sorted(names, key=lambda n: (len(Path(n).stem), Path(n).stem))


def _documents(z: zipfile.ZipFile, member: str) -> dict[int, list[tuple[int, dict]]]:
    """Records of one JSON file grouped by DocumentID, each with its index in the file."""
    try:
        records = json.loads(z.read(member).decode("utf-8-sig"))
    except (ValueError, UnicodeDecodeError) as e:
        raise CorpusError(f"{ZIP_NAME}:{member}", 0, f"not a JSON list of passages ({e})") from None
    docs: dict[int, list[tuple[int, dict]]] = {}
    for index, row in enumerate(records):
        docs.setdefault(int(row["DocumentID"]), []).append((index, row))
    return docs


def _meta(doc_id: int, rows: list[tuple[int, dict]], source_file: str) -> DocumentMeta:
    return DocumentMeta(key=f"adgm-{doc_id}", version=VERSION, title=document_title(doc_id, rows),
                        language="en", kind="rulebook", source_file=source_file,
                        corpus="en-adgm", issuer="ADGM")


def document_title(doc_id: int, rows: list[tuple[int, dict]]) -> str:
    """The source has no titles: a title-like first PassageID ('FINANCIAL SERVICES AND MARKETS
    REGULATIONS 2015'), else 'These Rules may be cited as the X', else the rulebook's
    abbreviation ('This Rulebook ("GEN")'), else 'ADGM document N'."""
    first = str(rows[0][1]["PassageID"]).strip() if rows else ""
    if RE_TITLE.match(first):
        return first
    texts = [str(row.get("Passage") or "") for _, row in rows[:80]]
    for rx, form in ((RE_CITED, "{}"), (RE_ABBR, "ADGM rulebook {}")):
        found = next((m.group(1).strip() for t in texts for m in [rx.search(t)] if m), None)
        if found:
            return form.format(found)
    return f"ADGM document {doc_id}"


@dataclass
class PassageIndex:
    """Resolve gold references to unit ids exactly, whatever the source's quirks."""
    by_uuid: dict[str, str] = field(default_factory=dict)
    by_pid: dict[tuple[int, str], list[str]] = field(default_factory=dict)
    by_label: dict[tuple[int, str], list[str]] = field(default_factory=dict)
    text: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, units: list[Unit]) -> "PassageIndex":
        index = cls()
        for u in sorted((u for u in units if u.kind == "passage"), key=lambda u: u.ordinal):
            doc, pid = int(u.attr("document_id")), u.attr("passage_id")
            index.by_uuid[u.attr("passage_uuid")] = u.id
            index.by_pid.setdefault((doc, pid), []).append(u.id)
            index.by_label.setdefault((doc, passage_label(pid)), []).append(u.id)
            index.text[u.id] = _norm(u.text)
        return index

    def resolve(self, document_id: int, passage_id: str, text: str = "",
                uuid: str = "") -> str | None:
        if uuid in self.by_uuid:
            return self.by_uuid[uuid]
        key = (int(document_id), passage_id)
        ids = self.by_pid.get(key) or self.by_label.get((key[0], passage_label(passage_id)), [])
        if len(ids) > 1 and text:
            return next((i for i in ids if self.text[i] == _norm(text)), ids[0])
        return ids[0] if ids else None

    def resolve_all(self, document_id: int, passage_id: str, text: str = "",
                    uuid: str = "") -> list[str]:
        """`resolve`, except that a rule without a passage of its own (ObliQA-XRef targets
        such as '19.10.1', stored only as '19.10.1.(1)', '19.10.1.(2)' ...) gives its clauses."""
        one = self.resolve(document_id, passage_id, text, uuid)
        if one:
            return [one]
        clause = re.compile(re.escape(passage_label(passage_id)) + r"\.\(\w+\)")
        return [i for (doc, label), ids in self.by_label.items()
                if doc == int(document_id) and clause.fullmatch(label) for i in ids]


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def check_gold(corpus: CorpusParse, folder: str | Path) -> dict[str, int]:
    """How many gold passages (ObliQA_dev.json) and xref endpoints (the CSV) resolve to units,
    and how many the plain id scheme `obliqa_unit_id` gets right."""
    folder, index = Path(folder), PassageIndex.of(corpus.result.units)
    ids = {u.id for u in corpus.result.units}
    refs = [(p["DocumentID"], p["PassageID"], p.get("Passage", ""), "")
            for q in json.loads((folder / DEV_NAME).read_text("utf-8")) for p in q["Passages"]]
    counts = _tally("gold", refs, index, ids)
    with open(folder / XREF_NAME, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for side in ("Source", "Target"):
        ends = [(r[f"{side}DocumentID"], r[f"{side}PassageID"], r[f"{side}Passage"], r[f"{side}ID"])
                for r in rows]
        counts[f"xref_{side.lower()}_external"] = sum(not e[0].strip() for e in ends)
        counts.update(_tally(f"xref_{side.lower()}", [e for e in ends if e[0].strip()], index, ids))
    return counts


def _tally(name: str, refs: list[tuple], index: PassageIndex, ids: set[str]) -> dict[str, int]:
    resolved = [index.resolve(int(d), p, t, u) for d, p, t, u in refs]
    spread = [bool(index.resolve_all(int(d), p, t, u)) for d, p, t, u in refs]
    scheme = [obliqa_unit_id(int(d), p) for d, p, _, _ in refs]
    return {f"{name}": len(refs),
            f"{name}_unresolved": sum(r is None for r in resolved),
            f"{name}_as_clauses": sum(r is None and s for r, s in zip(resolved, spread)),
            f"{name}_scheme_missing": sum(s not in ids for s in scheme),
            f"{name}_scheme_differs": sum(s in ids and s != r for s, r in zip(scheme, resolved))}

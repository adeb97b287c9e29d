"""Find a cited provision whose unit label the citing text does not spell in full.

Rulebook passages (`doc/r<label>`, see parse/obliqa.py) carry the structure of their
source in the label: "Part 4.33.(1)" is section 33(1) of FSMR, "PART 8.20.2.9" is Rule
20.2.9 of FUNDS, "APP4.A4.8" is Section A4.8 of PRU, "189)" is paragraph 189 of a
guidance note. Citations name them the short way ("section 33(1)", "Rule 20.2.9"), so
the resolver asks this index, built from unit ids only, for:

* the label with its sub-paragraphs spelt the passage way: article "19.10.1", clause "1",
  point "a" -> "19.10.1.(1).(a)", then "19.10.1.(1)", "19.10.1.(a)", "19.10.1" (the
  nearest existing ancestor, with lower confidence);
* each of those exactly, else by key: case and spaces ignored ("Part 4" ~ "PART 4",
  "App 2" ~ "APP2"), structural prefixes dropped ("Part 4.33.(1)" -> "33.(1)",
  "APP4.A4.8" -> "A4.8"), "189)" read as "189", and "Chapter N" for a chapter heading
  ("14" in a rulebook whose rules are "14.x.y", "Part 12.Chapter 4" in FSMR, `/ch14`
  in a parsed statute; "Part N" likewise finds `/ptN`).

A key shared by several units of one document is used only when exactly one of them is
outside a Schedule (the main body wins); otherwise it is ambiguous and not used.
"""
from __future__ import annotations

import re
from collections import defaultdict

# Leading structural segments of a passage label: "Part 4.", "Part 12.Chapter 4.", "PART 8.",
# "Schedule 1.Part 2.Chapter 3.", "APP4.", "APP 7.". What remains is the number as cited.
_PREFIX = re.compile(r"^(?:(?:part|chapter|schedule|app|appendix|annex)\s*[\w]+\s*\.)+", re.I)
_STATUTE = re.compile(r"^(?:pt(\w+)/)?(pt|ch)(\w+)$")      # "pt2", "ch3", "pt1/ch3" (statute ids)


def squash(label: str) -> str:
    return re.sub(r"\s+", "", label).casefold()


def _keys(label: str) -> set[str]:
    keys = {squash(label)}
    short = _PREFIX.sub("", label).strip()
    if short and short != label:
        keys.add(squash(short))
    m = re.fullmatch(r"(\d+)\)", short or label)       # guidance paragraphs "189)"
    if m:
        keys.add(m.group(1))
    m = re.search(r"(?:^|\.)chapter\s*(\w+)$", label, re.I)
    if m:
        keys.add("chapter" + m.group(1).casefold())
    return keys


class LabelIndex:
    def __init__(self, ids: set[str]):
        self.ids = ids
        self.keys: dict[tuple[str, str], list[str]] = defaultdict(list)
        shorts: dict[str, set[str]] = defaultdict(set)      # doc -> short labels (chapter test)
        chapters: list[tuple[str, str, str]] = []
        for uid in ids:
            doc, sep, path = uid.partition("/")
            if not sep:
                continue
            if path.startswith("r"):
                label = path[1:]
                for key in _keys(label):
                    self.keys[(doc, key)].append(uid)
                short = _PREFIX.sub("", label).strip()
                shorts[doc].add(short)
                if short.isdigit():
                    chapters.append((doc, short, uid))
                continue
            m = _STATUTE.match(path)
            if m:
                word = "part" if m.group(2) == "pt" else "chapter"
                self.keys[(doc, word + m.group(3).casefold())].append(uid)
        # "14" is a chapter heading when rules "14.x.y" exist below it.
        rules = {(doc, s.split(".")[0]) for doc, ss in shorts.items() for s in ss
                 if re.match(r"\d+\.\d+\.\d+", s)}
        for doc, number, uid in chapters:
            if (doc, number) in rules:
                self.keys[(doc, "chapter" + number)].append(uid)

    def find(self, doc: str, article: str, clause: str | None = None,
             point: str | None = None) -> tuple[str, float] | None:
        """The most specific existing unit for a cited label, with a confidence factor."""
        tries: list[tuple[str, float]] = []
        if clause and point:
            tries.append((f"{article}.({clause}).({point})", 1.0))
        if clause:
            tries.append((f"{article}.({clause})", 1.0 if not point else 0.9))
        if point:
            tries.append((f"{article}.({point})", 1.0 if not clause else 0.9))
        tries.append((article, 0.8 if clause or point else 1.0))
        for label, conf in tries:
            uid = f"{doc}/r{label}"
            if uid in self.ids:
                return uid, conf
            found = self._by_key(doc, label)
            if found:
                return found, conf * 0.95
        return None

    def _by_key(self, doc: str, label: str) -> str | None:
        hits: set[str] = set()
        for key in {squash(label), squash(_PREFIX.sub("", label))}:
            hits.update(self.keys.get((doc, key), ()))
        if len(hits) > 1:
            hits = {h for h in hits if "schedule" not in h.casefold()}
        return next(iter(hits)) if len(hits) == 1 else None

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
  "App 2" ~ "APP2"), "Schedule 1.29" for paragraph 29 of Schedule 1 whatever its Part and
  Chapter, structural prefixes dropped ("Part 4.33.(1)" -> "33.(1)",
  "APP4.A4.8" -> "A4.8"), "189)" read as "189", and "Chapter N" for a chapter heading
  ("14" in a rulebook whose rules are "14.x.y", "Part 12.Chapter 4" in FSMR, `/ch14`
  in a parsed statute; "Part N" likewise finds `/ptN`), "Paragraph N" for "N)";
* a rule that has no passage of its own, only its clauses ("3.3.32.(1)", "3.3.32.(2)"):
  its first clause stands for it; an appendix rule "A1.3" that is not stored, its appendix.

Schedule paragraphs get no short key (they are cited with their Schedule), nor appendix
paragraphs other than "A4.8"-style rules ("APP 4.50" is not "section 50").

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
    if short and short != label and _short_ok(label, short):
        keys.add(squash(short))
    m = re.match(r"(schedule\s*\w+)\.(.+)", label, re.I)    # "Schedule 1.Part 2.Chapter 4.29"
    if m and _PREFIX.sub("", m.group(2)):
        keys.add(squash(m.group(1)) + "." + squash(_PREFIX.sub("", m.group(2))))   # "schedule1.29"
    m = re.fullmatch(r"(\d+)\)", label)                # guidance paragraphs "189)"
    if m:
        keys.add("paragraph" + m.group(1))
    m = re.search(r"(?:^|\.)chapter\s*(\w+)$", label, re.I)
    if m:
        keys.add("chapter" + m.group(1).casefold())
    return keys


def _short(label: str) -> str:
    short = _PREFIX.sub("", label).strip()
    return short if _short_ok(label, short) else label


def _short_ok(label: str, short: str) -> bool:
    """Schedule paragraphs are cited with their Schedule, appendix paragraphs as "A4.8"."""
    if re.match(r"schedule", label, re.I):
        return False
    return not re.match(r"app", label, re.I) or bool(re.match(r"A\d", short))


def _order(sub: str) -> tuple:
    return (0, int(sub), "") if sub.isdigit() else (1, 0, sub)


class LabelIndex:
    def __init__(self, ids: set[str]):
        self.ids = ids
        self.keys: dict[tuple[str, str], list[str]] = defaultdict(list)
        self.parents: dict[tuple[str, str], list[str]] = defaultdict(list)   # rules without a passage
        shorts: dict[str, set[str]] = defaultdict(set)      # doc -> short labels (chapter test)
        chapters: list[tuple[str, str, str]] = []
        clauses: dict[tuple[str, str], list] = defaultdict(list)
        for uid in ids:
            doc, sep, path = uid.partition("/")
            if not sep:
                continue
            if path.startswith("r"):
                label = path[1:]
                for key in _keys(label):
                    self.keys[(doc, key)].append(uid)
                short = _short(label)
                shorts[doc].add(short)
                m = re.fullmatch(r"(.*)\.\(([^()]*)\)", label)
                if m:
                    clauses[(doc, m.group(1))].append((_order(m.group(2)), uid))
                if short.isdigit():
                    chapters.append((doc, short, uid))
                continue
            m = _STATUTE.match(path)
            if m:
                word = "part" if m.group(2) == "pt" else "chapter"
                self.keys[(doc, word + m.group(3).casefold())].append(uid)
        # "14" is a chapter heading when rules "14.x.y" exist below it (or, for a label
        # without a structural prefix, anything "14.x").
        rules = {(doc, s.split(".")[0]) for doc, ss in shorts.items() for s in ss
                 if re.match(r"\d+\.\d+\.\d+", s)}
        below = {(doc, s.split(".")[0]) for doc, ss in shorts.items() for s in ss if re.match(r"\d+\.", s)}
        for doc, number, uid in chapters:
            if (doc, number) in rules or ((doc, number) in below and uid == f"{doc}/r{number}"):
                self.keys[(doc, "chapter" + number)].append(uid)
        # "GEN 3.3.32" when only "3.3.32.(1)", "3.3.32.(2)" exist: its first clause stands for it.
        for (doc, label), kids in clauses.items():
            if f"{doc}/r{label}" not in ids:
                for key in _keys(label):
                    self.parents[(doc, key)].append(min(kids)[1])

    def find(self, doc: str, article: str, clause: str | None = None,
             point: str | None = None) -> tuple[str, float] | None:
        """The most specific existing unit for a cited label, with a confidence factor."""
        tries: list[tuple[str, float]] = []
        m = re.fullmatch(r"Paragraph (\d+)", article)
        if m and (point or clause):                       # "paragraph 166(b)": item "166).b)"
            tries.append((f"{m.group(1)}).{point or clause})", 1.0))
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
            found = self._by_key(doc, label, self.keys)
            if found:
                return found, conf * 0.95
            found = self._by_key(doc, label, self.parents)
            if found:
                return found, conf * 0.9
        m = re.match(r"A(\d+)\.", article)               # "A1.3" not stored: its Appendix "APP 1"
        found = self._by_key(doc, f"app{m.group(1)}", self.keys) if m else None
        return (found, 0.7) if found else None

    @staticmethod
    def _by_key(doc: str, label: str, keys: dict) -> str | None:
        hits: set[str] = set()
        hits.update(keys.get((doc, squash(label)), ()))
        if len(hits) > 1:
            hits = {h for h in hits if "schedule" not in h.casefold()}
        return next(iter(hits)) if len(hits) == 1 else None

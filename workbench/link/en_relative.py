"""Relative English references, made absolute from the citing unit's id.

    this Rule / this Article / this regulation    the rule or article the unit is in
    this section, this Chapter, this Part         rulebook passages only, from the label:
                                                  "19.10.1" -> section "19.10", chapter "19";
                                                  FSMR "Part 4.33.(1)" -> section "Part 4.33",
                                                  Part "Part 4"
    the preceding clause / paragraph / subsection  clause n-1 of the same article
    the preceding Rule / Article / section         rule or article n-1 ("3.2.4" -> "3.2.3")
    paragraph (a) of this Rule, Clause 1 of this Article, point (b) of the preceding clause
    subsection (2), sub-paragraph (4), paragraph (c) standing alone: in the current rule
                                                  (a number: its clause; a letter: a point of
                                                  the current clause)

Ids: statutes `doc/a12/c2/pb` (article, clause, point); rulebook passages `doc/r<label>`,
label "19.10.1.(1)" = rule "19.10.1" + clause "1", "9.3.1B.Guidance.5" = guidance on rule
"9.3.1B" (a guidance note has no clause of its own: "paragraph (2)" there is skipped).
A reference that lands on the citing unit itself is dropped.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from . import Citation
from .en_grammar import SEP, SUB

CONF = {"this": 0.85, "preceding": 0.8, "of": 0.85, "alone": 0.75}

# A modifier: a finer part named before "of": "Clause 1", "clauses 1 and 2", "point (a)",
# "points (b) to (d)", "paragraph (b)", "sub-paragraph (4)", "subsection (2)".
MODS = (r"(?:[Pp]oints?|[Pp]aragraphs?|[Ss]ub-?paragraphs?|[Cc]lauses?|[Ss]ubsections?)")
_MODNUM = rf"{SUB}(?:{SUB})*"
# Bracketed numbers after any modifier word; a bare number only after "Clause" and before "of"
# ("Clause 1 of Article 6"): "paragraph 28 of Schedule 1" is a paragraph, not a modifier.
MOD = (rf"(?:{MODS}\s+{_MODNUM}(?:{SEP}{_MODNUM})*|"
       rf"[Cc]lauses?\s+\d+[A-Z]?(?:{SEP}\d+[A-Z]?)*(?=\s+of\s))")
_ANCHOR = (r"(?P<this>[Tt]his\s+(?P<tkind>Rule|Article|regulation|[Ss]ection|Chapter|chapter|"
           r"Part))\b(?!s|book)|the\s+(?:immediately\s+)?(?:preceding|previous)\s+"
           r"(?P<pkind>clause|paragraph|subsection|sub-paragraph|Rule|rule|Article|section|regulation)\b(?!s)")
RX_REL = re.compile(rf"(?:(?P<mods>{MOD}(?:\s+of\s+{MOD})*)\s+(?:of|in)\s+)?(?:{_ANCHOR})"
                    rf"|(?P<alone>{MOD}(?:\s+of\s+{MOD})*)(?!\s+(?:of|in)\s)")
_PREFIX = re.compile(r"^(?:(?:Part|PART|Schedule|APP|App)\s*\w+\.|[\w ]*?Chapter\s*\w+\.)*")


@dataclass(frozen=True)
class Here:
    """Where the citing unit is: its article / rule label and its clause and point."""
    article: str | None
    clause: str | None = None
    point: str | None = None
    passage: bool = False
    guidance: bool = False
    label: str = ""

    @classmethod
    def of(cls, unit_id: str) -> "Here":
        path = unit_id.partition("/")[2]
        if path.startswith("r"):
            label = path[1:]
            base, _, _ = label.partition(".Guidance")
            subs = re.findall(r"\.\(([^)]*)\)", re.search(r"(?:\.\([^)]*\))*$", base).group(0))
            rule = re.sub(r"(?:\.\([^)]*\))+$", "", base)
            clause = next((s for s in subs if s[:1].isdigit()), None)
            point = next((s for s in subs if s[:1].isalpha()), None)
            return cls(rule, clause, point, True, ".Guidance" in label, label)
        parts: dict[str, str] = {}
        for seg in path.split("/"):          # a12 / c2 / pb, not ch1 (chapter) or pt2 (part)
            m = re.fullmatch(r"a(?P<a>.+)|c(?!h\d)(?P<c>.+)|p(?!t\d)(?P<p>.+)", seg)
            if m:
                parts.update({k: v for k, v in m.groupdict().items() if v})
        return cls(parts.get("a"), parts.get("c"), parts.get("p"), False, False, path)

    def is_self(self, article: str, clause: str | None, point: str | None) -> bool:
        if self.passage:
            return self.label == article + "".join(f".({s})" for s in (clause, point) if s)
        return (article, clause, point) == (self.article, self.clause, self.point)


def split_mods(text: str) -> tuple[list[str], list[str]]:
    """'point (a) of Clause 1 of ' -> (['1'], ['a']): numbers are clauses, letters points."""
    clauses, points = [], []
    number = rf"(?:{SUB}(?:{SUB})*|\d+[A-Z]?)"
    for m in re.finditer(rf"{MODS}\s+({number}(?:{SEP}{number})*)", text or ""):
        values = re.findall(r"\(\s?(\w+)\s?\)|(\d+[A-Z]?)", m.group(1))
        values = [a or b for a, b in values]
        values = _fill(values, m.group(1))
        (clauses if values and values[0][0].isdigit() else points).extend(values)
    return clauses, points


def _fill(values: list[str], text: str) -> list[str]:
    """'(b) to (d)' -> b, c, d."""
    if len(values) == 2 and re.search(r"\)\s*(?:to|-|–)\s*\(", text):
        a, b = values
        if len(a) == len(b) == 1 and a.isalpha() and b.isalpha():
            return [chr(v) for v in range(ord(a), ord(b) + 1)]
        if a.isdigit() and b.isdigit() and 0 < int(b) - int(a) <= 30:
            return [str(v) for v in range(int(a), int(b) + 1)]
    return values


def relative(unit_id: str, text: str, taken: list[tuple[int, int]], extractor: str) -> list[Citation]:
    here = Here.of(unit_id)
    if not here.article:
        return []
    out: list[Citation] = []
    for m in RX_REL.finditer(text):
        if any(s < m.end() and m.start() < e for s, e in taken):
            continue                       # part of an absolute citation
        clauses, points = split_mods(m.group("mods") or m.group("alone") or "")
        if m.group("alone"):
            target, conf = _alone(here, clauses, points), CONF["alone"]
        else:
            target = _this(here, m.group("tkind")) if m.group("this") else _preceding(here, m.group("pkind"))
            conf = CONF["of" if m.group("mods") else "this" if m.group("this") else "preceding"]
            if target and (clauses or points):
                target = (target[0], (clauses or [target[1]])[0], points or [None])
        for t in _expand(target):
            if t[0] and not here.is_self(*t):
                out.append(Citation(unit_id, m.group(0), article=t[0], clause=t[1], point=t[2],
                                    confidence=conf, extractor=extractor))
    return out


def _expand(target) -> list[tuple[str, str | None, str | None]]:
    if not target:
        return []
    article, clause, points = target
    points = points if isinstance(points, list) else [points]
    return [(article, clause, p) for p in points]


def _alone(here: Here, clauses: list[str], points: list[str]):
    if here.guidance:
        return None
    if clauses:
        return here.article, clauses[0], points or [None]
    return here.article, here.clause, points


def _this(here: Here, kind: str):
    kind = kind.casefold()
    if not here.passage:
        return (here.article, None, None) if kind in ("rule", "article", "regulation", "section") else None
    prefix = _PREFIX.match(here.article).group(0)
    short = here.article[len(prefix):]
    dots = short.count(".")
    if kind == "rule":
        return (here.article, None, None) if dots >= 2 else None
    if kind == "section":
        if dots >= 2:
            return prefix + short.rsplit(".", 1)[0], None, None
        if dots == 0 and re.match(r"Part\s*\w+\.", prefix) and short.isdigit():
            return here.article, None, None          # FSMR: sections are "Part 4.33"
        return None
    if kind == "chapter":
        m = re.match(r"^(.*?Chapter\s*\w+)", here.article)
        if m:
            return m.group(1), None, None
        return (prefix + short.split(".")[0], None, None) if dots >= 1 or here.guidance else None
    if kind == "part":
        m = re.match(r"^((?:Part|PART)\s*\w+)\.", here.article)
        return (m.group(1), None, None) if m else None
    return None


def _preceding(here: Here, kind: str):
    kind = kind.casefold()
    if kind in ("clause", "paragraph", "subsection", "sub-paragraph"):
        if here.guidance or not (here.clause or "").isdigit() or int(here.clause) < 2:
            return None
        return here.article, str(int(here.clause) - 1), None
    m = re.fullmatch(r"(.*?)(\d+)", here.article or "")
    if not m or int(m.group(2)) < 2 or (here.passage and here.article.count(".") < 2):
        return None
    return f"{m.group(1)}{int(m.group(2)) - 1}", None, None

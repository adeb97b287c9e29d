"""English citations: statutes ("Article 12(2)(b)", "point (a) of Clause 1 of Article 6 of the
Clinic Licensing Act") and ADGM rulebooks ("Rule 3.2.1(a)", "GEN 3.3.31 and 3.3.32 and PRU
6.8", "section 33(1) of FSMR", "Chapter 14 of COBS").

One pass finds absolute citations: [modifiers of] [ABBR] [kind] number-list [of instrument].
The instrument is the abbreviation before the number ("GEN 3.3.31") or the name after "of"
("of the Insolvency Regulations", "of FSMR"); "of this Rulebook" is the citing document,
"of that Act" / "of the Rules" are left out (the name is elsewhere). Citations joined by
"," / "or" / "and" share the instrument named after the last one ("Article 7, Article 8 or
Article 13 of the Act"). A number with no kind word is taken only when it cannot be an
amount: three levels ("1.3.1(a)") or an appendix rule ("A6.9.1").

A second pass, on the unit's own text only (not the clauses an article gathers), makes
relative references absolute from the citing unit's id: "this Rule", "this Article",
"this section", "this Chapter", "this Part", "the preceding clause", "paragraph (a) of
this Rule", "subsection (2)", "sub-paragraph (4)"; ones the id cannot settle are skipped
(see en_relative.py).

Labels are spelt as unit labels: "3.2.1", "33", "Chapter 14", "Part 4", "App 2"; the
first numeric sub-paragraph is the clause, the first lettered one the point. Rulebook
passages ("19.10.1.(1)", "Part 4.33.(1)") are found from those by the resolver
(labels.LabelIndex). Invisible U+200E marks are dropped from the text before matching.
"""
from __future__ import annotations

import re

from ..records import Unit
from . import Citation
from .en_grammar import ABBR, KIND, LIST, NOT_ABBR, SEP, SUB, Item, instrument_name, parse_list
from .en_relative import MOD, MODS, Here, relative, split_mods

EXTRACTOR = "en-citation"
CONF = {"kind": 0.9, "abbr": 0.9, "bare": 0.75, "range": 0.9}   # range: factor for filled-in items

RX_ABS = re.compile(rf"""
    (?<![\w.$£€/-])                                  # not inside a word, amount or number
    (?P<mods>(?:{MOD}\s+of\s+)*)                     # point (a) of Clause 1 of
    (?:(?!(?:{KIND})\b)(?P<abbr>{ABBR})\s+(?=(?:{KIND})\b|A?\d))?   # GEN / COBS (before Rule or a number)
    (?:(?P<kind>{KIND})\s*)?                         # Rule / Sections / Chapter / App
    (?P<list>{LIST})                                 # 3.3.31 and 3.3.32 / 19.10.1 (3) and (4)
    """, re.X)
# A number that can stand alone: three levels "1.3.1", or an appendix rule "A6.9.1".
RX_STRONG = re.compile(r"\d+[A-Z]?\.\d+[A-Z]?\.\d+|A\d+\.\d+")
# Words before a bare number that make it something else: "Table 1.1.4", "version 2.0.1".
RX_NOT_REF = re.compile(r"(?:Table|table|Figure|Form|[Vv]ersion|No\.|Annex|Schedule|Box|page)\s*$")
RX_JOIN = re.compile(rf"^(?:{SEP}|\s*;\s*(?:and\s+|or\s+)?)$")     # between two citations of one list


def extract(unit: Unit) -> list[Citation]:
    text = unit.text.replace("\u200e", "")
    out, spans = _absolute(unit, text)
    own = text if unit.kind == "passage" else _own_text(text)
    out += relative(unit.id, own, [s for s in spans if s[1] <= len(own)], EXTRACTOR)
    return out


def _absolute(unit: Unit, text: str) -> tuple[list[Citation], list[tuple[int, int]]]:
    found: list[tuple[int, int, list[Citation], str]] = []   # start, end, citations, how named
    for m in RX_ABS.finditer(text):
        abbr = m.group("abbr")
        if abbr in NOT_ABBR:
            abbr = None
        kind = m.group("kind")
        items, length = parse_list(kind, m.group("list"))
        if not items:
            continue
        end = m.start("list") + length
        if not (kind or abbr) and (not RX_STRONG.match(m.group("list"))
                                   or RX_NOT_REF.search(text[:m.start()])):
            continue
        if abbr and not kind and "." not in items[0].label:
            continue                      # "IFRS 9", "ISO 3166": a standard's number, not a rule
        how, instrument = ("abbr", abbr) if abbr else ("kind" if kind else "bare", None)
        rest = text[end:]
        after = re.match(r"\s*(?:\([^()]{1,60}\)\s*)?(?:of|under)\s+", rest)
        if after and not abbr:
            name, what, n = instrument_name(rest[after.end():])
            if what == "anaphor":
                continue
            if what in ("abbr", "name"):
                instrument, how, end = name, "named", end + after.end() + n
            elif what == "self":
                end = end + after.end() + n
        clause_mods, point_mods = split_mods(m.group("mods"))
        start = m.start("mods") if m.group("mods") else m.start("abbr") if abbr else m.start()
        evidence = text[start:end]
        conf = CONF["abbr" if how in ("abbr", "named") else how]
        cites = [Citation(unit.id, evidence, instrument=instrument, confidence=round(
                              conf * (CONF["range"] if it.interpolated else 1.0), 3),
                          extractor=EXTRACTOR, **fields)
                 for it in items for fields in _fields(it, clause_mods, point_mods)]
        found.append((start, end, cites, how))
    _share_instruments(found, text)
    return [c for f in found for c in f[2]], [(f[0], f[1]) for f in found]


def _fields(item: Item, clause_mods: list[str], point_mods: list[str]) -> list[dict]:
    """Item '6' with modifiers 'Clause 1', 'points (c) and (d)' -> a6/c1/pc and a6/c1/pd."""
    clause = next((s for s in item.subs if s[0].isdigit()), None) or (clause_mods[:1] or [None])[0]
    points = [s for s in item.subs if s[0].isalpha()][:1] or point_mods or [None]
    return [{"article": item.label, "clause": clause, "point": p} for p in points]


def _share_instruments(found: list[tuple[int, int, list[Citation], str]], text: str) -> None:
    """'Article 7, Article 8 or Article 13 of the Act': the name after the last one is theirs."""
    for i in range(len(found) - 2, -1, -1):
        (s, e, cites, how), (s2, e2, nxt, how2) = found[i], found[i + 1]
        if how == "kind" and how2 == "named" and RX_JOIN.match(text[e:s2]) and nxt:
            name = nxt[0].instrument
            found[i] = (s, e, [_with(c, name, text[s:e2]) for c in cites], "named")


def _with(c: Citation, instrument: str, evidence: str) -> Citation:
    return Citation(c.source, evidence, c.type, instrument, c.article, c.clause, c.point,
                    confidence=c.confidence, extractor=c.extractor)


# A line that opens a clause, point or subpoint: "(1) ...", "1. ...", "(a) ...", "(iv) ...".
RX_CHILD = re.compile(r"^\s*(?:\(\w{1,4}\)|\d+\.\s)")


def _own_text(text: str) -> str:
    """An article's (clause's) own words: its text up to the first line of a clause (point)
    it gathers. The first line is always its own ("(1) The Minister shall ...")."""
    lines = text.split("\n")
    own = lines[:1]
    for line in lines[1:]:
        if RX_CHILD.match(line):
            break
        own.append(line)
    return "\n".join(own)


__all__ = ["extract", "EXTRACTOR", "Here", "MODS", "SUB"]

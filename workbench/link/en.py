"""English citations: statutes ("Article 12(2)(b)", "point (a) of Clause 1 of Article 6 of the
Clinic Licensing Act") and ADGM rulebooks ("Rule 3.2.1(a)", "GEN 3.3.31 and 3.3.32 and PRU
6.8", "section 33(1) of FSMR", "Chapter 14 of COBS").

One pass finds absolute citations: [modifiers of] [ABBR] [kind] number-list [of instrument].
The instrument is the abbreviation before the number ("GEN 3.3.31") or the name after "of"
("of the Insolvency Regulations", "of FSMR"); "of this Rulebook" is the citing document,
"of that Act" is the Act named last before it, "of the Act" (a short name defined elsewhere)
is left out together with the same-kind citations before it in the sentence. Citations joined
by "," / "or" / "and" share the instrument named after the last one ("Article 7, Article 8 or
Article 13 of the Clinic Licensing Act"); a trailing year is the version cited ("... Act
2018"). A number with no kind word is taken only when it cannot be an amount: three levels
("1.3.1(a)") or an appendix rule ("A6.9.1").

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
from dataclasses import replace

from ..core.records import Unit
from . import Citation
from .en_grammar import (ABBR, KIND, LIST, NOT_ABBR, SEP, Item, antecedent, instrument_name, kind_key,
                         parse_list, split_version)
from .en_relative import MOD, relative, split_mods

EXTRACTOR = "en-citation"
RELATIVE_KINDS = {"article", "clause", "point", "subpoint", "passage"}
# Confidence by how the citation was found; "range" multiplies it for items filled in a range.
CONF = {"kind": 0.9, "self": 0.9, "abbr": 0.9, "bare": 0.75, "range": 0.9}

RX_ABS = re.compile(rf"""
    (?<![\w.$£€/-])                                  # not inside a word, amount or number
    (?P<mods>(?:{MOD}\s+of\s+)*)                     # point (a) of Clause 1 of
    (?:(?!(?:{KIND})\b)\(?(?P<abbr>{ABBR})\)?[ \t]+   # GEN / (COBS) ...
       (?=(?:{KIND})\b|A?\d))?                         # ... before Rule or a number
    (?:(?P<kind>{KIND})\s*)?                         # Rule / Sections / Chapter / App
    (?P<list>{LIST})                                 # 3.3.31 and 3.3.32 / 19.10.1 (3) and (4)
    """, re.X)
# A number that can stand alone: three levels "1.3.1", or an appendix rule "A6.9.1".
RX_STRONG = re.compile(r"\d+[A-Z]?\.\d+[A-Z]?\.\d+|A\d+\.\d+")
# Words before a bare number that make it something else: "Table 1.1.4", "version 2.0.1".
RX_NOT_REF = re.compile(r"(?:Table|table|Figure|Form|[Vv]ersion|No\.|Annex|Schedule|Box|page)\s*$")
RX_CAPS_BEFORE = re.compile(r"\b[A-Z]{2,}[ \t]+\(?$")
RX_YEAR = re.compile(r"(?:19|20)\d\d")
# After the numbers: "of Schedule 1", "of Part 12", "of Chapter 3" (a unit of a larger one).
RX_OF_PART = re.compile(r"\s+(?:of|to)\s+([Ss]chedules?|[Pp]arts?|PART|[Cc]hapters?)\s+(\d+[A-Z]?)\b")
# After the numbers: an optional "(Title)" and "of" / "under" before an instrument's name.
RX_AFTER = re.compile(r"\s*(?:\([^()]{1,60}\)\s*)?(?:of|under|to)\s+(?:of\s+)?")   # "of of" is a typo
RX_JOIN = re.compile(rf"^(?:{SEP}|\s*;\s*(?:and\s+|or\s+)?)$")     # between two citations of one list


def extract(unit: Unit) -> list[Citation]:
    text = unit.text.replace("\u200e", "")
    out, spans = _absolute(unit, text)
    if unit.kind in RELATIVE_KINDS:
        own = text if unit.kind == "passage" else _own_text(text)
        out += relative(unit.id, own, [s for s in spans if s[1] <= len(own)], EXTRACTOR)
    return out


def _absolute(unit: Unit, text: str) -> tuple[list[Citation], list[tuple[int, int]]]:
    found: list[tuple[int, int, list[Citation], str]] = []   # start, end, citations, how named
    schedule = re.match(r"r(Schedule\s*\w+)\.", unit.id.partition("/")[2])
    pos = 0
    while (m := RX_ABS.search(text, pos)) is not None:
        pos = m.end()
        abbr = m.group("abbr") if m.group("abbr") not in NOT_ABBR else None
        kind = m.group("kind")
        items, length = parse_list(kind, m.group("list"))
        if not items:
            continue
        end = pos = m.start("list") + length          # the next search starts where the list stopped
        if _not_a_citation(m, text, kind, abbr, items):
            continue
        how, instrument = ("abbr", abbr) if abbr else ("kind" if kind else "bare", None)
        items, end = _nested(items, text, end)
        if not abbr:
            instrument, end, how = _named_after(text, end, how)
            if how == "unknown":                      # "of the Act": a short name defined elsewhere
                _drop_same_sentence(found, text, m.start(), kind)
                continue
        if schedule and instrument is None and kind_key(kind) in ("paragraph", "para."):
            items = [replace(it, label=f"{schedule.group(1)}.{it.label.split()[-1]}")
                     if "." not in it.label.split()[-1] else it for it in items]   # inside Schedule 1
        clause_mods, point_mods = split_mods(m.group("mods"))
        start = next(m.start(g) for g in ("mods", "abbr", "kind", "list")
                     if m.group(g) and (g != "abbr" or abbr))
        start -= start > 0 and abbr is not None and text[start - 1] == "("      # "(COBS) Rule 8.2.2"
        conf = CONF["abbr" if how in ("abbr", "named") else how]
        instrument, version = split_version(instrument)
        cites = [Citation(unit.id, text[start:end], instrument=instrument, extractor=EXTRACTOR,
                          confidence=round(conf * (CONF["range"] if it.interpolated else 1.0), 3),
                          version=version, **fields)
                 for it in items for fields in _fields(it, clause_mods, point_mods)]
        found.append((start, end, cites, how))
        pos = end                                     # past "of Schedule 1", "of Cabinet Decision No. (74)"
    _share_instruments(found, text)
    return [c for f in found for c in f[2]], [(f[0], f[1]) for f in found]


def _not_a_citation(m: re.Match, text: str, kind: str | None, abbr: str | None, items: list[Item]) -> bool:
    line_start = not text[:m.start()].rpartition("\n")[2].strip()
    if not (kind or abbr):                    # a bare number: "1.3.1(a)", "A6.9.1"
        return (not RX_STRONG.match(m.group("list")) or bool(RX_NOT_REF.search(text[:m.start()]))
                or line_start)                # "A2.1.3\tQuorum": a heading inside the text
    if kind and kind.isupper() and line_start:
        return True                           # "PART 3 - CRCOM": a heading inside the text
    if abbr and not kind and ("." not in items[0].label or items[0].label.endswith(".0")):
        return True                           # "IFRS 9", "ISO 3166", "SAML 2.0": not a rule
    if abbr and RX_CAPS_BEFORE.search(text[:m.start("abbr")]):
        return True                           # "INFORMATION ABOUT THE ISSUER 1.1": a heading
    if kind and re.match(r"(?i)regulations?|rules?$", kind) and RX_YEAR.fullmatch(items[0].label):
        return True                           # "... Regulations 2015": a title's year
    return False


def _nested(items: list[Item], text: str, end: int) -> tuple[list[Item], int]:
    """'paragraph 29 of Schedule 1' -> Schedule 1.29; 'section 67 of Chapter 14 of Schedule 1'
    -> Schedule 1.67; 'chapter 4 of Part 12' -> Part 12.Chapter 4; 'Part 4 of Schedule 1' ->
    Schedule 1.Part 4; 'Part 4 of Chapter 3' -> Chapter 3 (the Part has no label)."""
    outers = []
    while m := RX_OF_PART.match(text, end):
        outers.append(f"{m.group(1).capitalize().rstrip('s')} {m.group(2)}")
        end = m.end()
    if not outers:
        return items, end
    schedule = next((o for o in outers if o.startswith("Schedule")), None)
    part = next((o for o in outers if o.startswith("Part")), None)
    chapter = next((o for o in outers if o.startswith("Chapter")), None)
    out = []
    for it in items:
        inner = it.label.replace("Paragraph ", "")
        if schedule:
            out.append(replace(it, label=f"{schedule}.{inner}"))
        elif part and inner.startswith("Chapter"):
            out.append(replace(it, label=f"{part}.{inner}"))
        elif chapter and inner.startswith("Part"):
            out.append(Item(chapter))
        else:
            out.append(it)
    return list(dict.fromkeys(out)), end


def _named_after(text: str, end: int, how: str) -> tuple[str | None, int, str]:
    """(instrument, end of the citation, how) after the numbers: 'of FSMR' / 'of the Clinic
    Licensing Act' -> named; 'of this Rulebook' -> self; 'of that Act' -> the Act named last
    before it (else unknown); 'of the Act' -> unknown; nothing -> the citing document."""
    after = RX_AFTER.match(text, end)
    if not after:
        return None, end, how
    name, what, n = instrument_name(text[after.end():])
    if what in ("abbr", "name"):
        return name, after.end() + n, "named"
    if what == "self":
        return None, after.end() + n, "self"
    if what == "that":
        found = antecedent(text[:end], name)
        return (found, after.end() + n, "named") if found else (None, end, "unknown")
    return None, end, "unknown" if what == "anaphor" else how


def _drop_same_sentence(found: list, text: str, start: int, kind: str | None) -> None:
    """'under Article 6, ... and Article 10 of the Act': the Articles before it in the sentence
    are the Act's too, so they are not the citing document's."""
    while found and found[-1][3] == "kind" and _kind_word(text[found[-1][0]:found[-1][1]]) == \
            _kind_word(kind or "") and not re.search(r"\.\s", text[found[-1][1]:start]):
        found.pop()


def _fields(item: Item, clause_mods: list[str], point_mods: list[str]) -> list[dict]:
    """Item '6' with modifiers 'Clause 1', 'points (c) and (d)' -> a6/c1/pc and a6/c1/pd."""
    clause = next((s for s in item.subs if s[0].isdigit()), None) or (clause_mods[:1] or [None])[0]
    points = [s for s in item.subs if s[0].isalpha()][:1] or point_mods or [None]
    return [{"article": item.label, "clause": clause, "point": p} for p in points]


def _share_instruments(found: list[tuple[int, int, list[Citation], str]], text: str) -> None:
    """'Article 7, Article 8 or Article 13 of the Act': the name after the last one is theirs
    (same kind word, joined by ',', 'and', 'or' only; or anywhere in the sentence before
    'of that Act')."""
    chain_end = None
    for i in range(len(found) - 2, -1, -1):
        (s, e, cites, how), (s2, e2, nxt, how2) = found[i], found[i + 1]
        if how2 == "named" and chain_end is None:
            chain_end = e2
        if (how == "kind" and how2 == "named" and nxt and _kind_word(text[s:e]) == _kind_word(text[s2:e2])
                and (RX_JOIN.match(text[e:s2]) or re.search(r"\bthat \w+$", nxt[0].text)
                     and not re.search(r"\.\s", text[e:s2]))):
            found[i] = (s, e, [replace(c, instrument=nxt[0].instrument, version=nxt[0].version,
                                       text=text[s:chain_end]) for c in cites], "named")
        else:
            chain_end = None


def _kind_word(evidence: str) -> str:
    return re.match(r"\w*", evidence).group(0).casefold().rstrip("s")


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


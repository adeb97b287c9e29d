"""Names of the ADGM documents as other documents cite them ("GEN", "Conduct of Business Rules").

The source gives no titles, only passages, so names are read from the text, in three steps:

1. What a document says of itself: `This Rulebook ("GEN")`, `this Conduct of Business
   Rulebook (COBS)`, `this AML Rulebook`, `These Rules may be cited as the Fund Passporting
   Rules`, `This document is called the Guidance and Policies Manual ("GPM")`, a name
   used with "these" at least twice ("these Islamic Finance Rules"), and its title line
   (with and without its year).
2. Abbreviations defined anywhere in the corpus, `the Market Infrastructure Rules ("MIR")`:
   a document known by the full name also gets the abbreviation, and the reverse.
3. An abbreviation still unassigned that the corpus uses as a rulebook name (defined as in 2,
   "the FEES Rulebook" or "FEES Rule 1.2.4") and with rule numbers ("MIR 3.3.7", at least 5
   distinct numbers) goes to the document whose passage labels
   contain most of those numbers, if it clearly leads (by 0.3, or by a little when the
   document itself uses the abbreviation) and has no abbreviation of its own yet.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict

_Q = r"[\"“”']?"
_ABBR = r"([A-Z]{2,6})"
_NAME = r"((?:[A-Z][\w’'-]*\s+(?:(?:of|and|for|on)\s+)?)+)"     # capitalised words: "Conduct of Business "
RE_SELF = [
    # This Rulebook ("GEN") / this Conduct of Business Rulebook (COBS)
    re.compile(rf"\b[Tt]his\s+{_NAME}?(Rulebook|Rules)\s*\(\s*{_Q}{_ABBR}{_Q}\s*\)"),
    # This document is called the Guidance and Policies Manual ("GPM"); The purpose of the Code
    # of Market Conduct ("CMC") is ...
    re.compile(rf"\b(?:This document is called|The purpose of) the\s+([A-Z][\w\s]+?)\s*\(\s*{_Q}{_ABBR}{_Q}\s*\)"),
]
RE_THIS_ABBR = re.compile(r"\b[Tt]his\s+([A-Z]{2,6})\s+Rulebook\b")             # this AML Rulebook
RE_CITED = re.compile(r"\bThese (?:Rules|Regulations) may be cited as the\s+([A-Z][\w ,'’&-]{3,80}?)"
                      r"\s*(?:\(|“|\"|\.|$)")
RE_THESE = re.compile(r"\b[Tt]hese\s+((?:[A-Z][\w-]*\s+){1,4}Rules)\b")
# Full Name ("ABBR") anywhere: the name is the capitalised run before the brackets, on one
# line, words joined by spaces, "of/and/for/on/the", dashes or ", " before a capital.
RE_DEFINED = re.compile(rf"((?:[A-Z][\w’'-]*|of|and|for|on|the|–|-)(?:(?:[ \t]+|,[ \t]+(?=[A-Z]))"
                        rf"(?:[A-Z][\w’'-]*|and|of|for|on|the|–|-|\d{{4}}))*)[ \t]*\([ \t]*(?:the\s+)?"
                        rf"{_Q}{_ABBR}{_Q}[ \t]*\)")
RE_RULEBOOK = re.compile(r"\bthe\s+([A-Z]{2,6})\s+Rulebook\b|\b([A-Z]{2,6})\s+Rules?\s+\d")
RE_USED = re.compile(r"\b([A-Z]{2,6})(?:\s+(?:Rules?|Section|Chapter))?\s+\u200e?(\d+(?:\.\d+)+[A-Z]?)")
_HEADS = ("Rules", "Rulebook", "Regulations", "Manual")
_NOT_NAMES = {"APP", "PART", "RULE", "RULES", "SECTION", "CHAPTER", "ADGM", "FSRA", "UAE", "USD",
              "AED", "EU", "UK", "US"}
_PREFIX = re.compile(r"^(?:(?:part|chapter|schedule|app|appendix)\s*\w+\s*\.)+", re.I)


def clean_name(name: str) -> str:
    """'the FSRA Conduct of Business Rules 2015' -> 'Conduct of Business Rules 2015'."""
    name = re.sub(r"\s+", " ", name).strip(" .,;:–-")
    name = re.sub(r"^(?:(?:of|and|for|on)\s+)*(?:the\s+)?(?:(?:FSRA|ADGM)[’']?s?\s+)?", "", name, flags=re.I)
    return name.strip()


def document_aliases(texts: dict[int, list[str]], titles: dict[int, str],
                     labels: dict[int, set[str]]) -> dict[int, list[str]]:
    """Alias lists per DocumentID (abbreviations first), from the passages' text only."""
    names: dict[int, list[str]] = {d: _own_names(ts, titles.get(d, "")) for d, ts in texts.items()}
    defined = _definitions(texts)
    _share_definitions(names, defined)
    _vote(names, texts, labels, defined)
    _share_definitions(names, defined)
    return {d: list(dict.fromkeys(n for n in sorted(ns, key=_abbr_first) if n)) for d, ns in names.items()}


def _abbr_first(name: str) -> tuple[bool, str]:
    return (not name.isupper(), name)


def _own_names(texts: list[str], title: str) -> list[str]:
    out: list[str] = []
    whole = "\n".join(texts)
    for rx in RE_SELF:
        for m in rx.finditer(whole):
            *words, abbr = [g for g in m.groups()]
            out.append(abbr)
            full = " ".join(w.strip() for w in words if w)
            if full and len(full.split()) > 1:
                out.append(clean_name(full))
    out += RE_THIS_ABBR.findall(whole)
    out += [clean_name(m) for m in RE_CITED.findall(whole)]
    out += [n for n, k in Counter(m.strip() for m in RE_THESE.findall(whole)).items() if k >= 2]
    if title and not title.startswith("ADGM "):
        t = title.title().replace(" And ", " and ").replace(" Of ", " of ")
        out += [t, re.sub(r"\s+\d{4}$", "", t)]
    return [n for n in out if n not in _NOT_NAMES]


def _definitions(texts: dict[int, list[str]]) -> dict[str, set[str]]:
    """ABBR -> full names defined for it anywhere ('Market Infrastructure Rules')."""
    out: dict[str, set[str]] = defaultdict(set)
    for ts in texts.values():
        for t in ts:
            for m in RE_DEFINED.finditer(t):
                name, abbr = clean_name(m.group(1)), m.group(2)
                name = clean_name(re.sub(r"^[A-Z]{2,6}\s+and\s+", "", name))     # "FSMR and the Glossary"
                if (abbr not in _NOT_NAMES and len(name.split()) > 1 and not name.startswith("Th")
                        and any(re.search(rf"\b{h}\b", name) for h in _HEADS)):
                    out[abbr].add(name)
    return out


def _share_definitions(names: dict[int, list[str]], defined: dict[str, set[str]]) -> None:
    for d, ns in names.items():
        folded = {n.casefold() for n in ns}
        for abbr, fulls in defined.items():
            if abbr in ns or any(f.casefold() in folded for f in fulls):
                if all(abbr not in other for o, other in names.items() if o != d):
                    ns.append(abbr)
                    ns.extend(sorted(fulls))


def _vote(names: dict[int, list[str]], texts: dict[int, list[str]], labels: dict[int, set[str]],
          defined: dict[str, set[str]]) -> None:
    cited: dict[str, set[str]] = defaultdict(set)
    for ts in texts.values():
        for t in ts:
            for abbr, number in RE_USED.findall(t):
                cited[abbr].add(number)
    named = set(defined) | {a or b for t in (t for ts in texts.values() for t in ts)
                            for a, b in RE_RULEBOOK.findall(t)}
    short = {d: {_PREFIX.sub("", l) for l in ls} | ls for d, ls in labels.items()}
    taken = {n for ns in names.values() for n in ns if n.isupper()}
    for abbr, numbers in sorted(cited.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        if abbr in taken or abbr in _NOT_NAMES or abbr not in named or len(numbers) < 5:
            continue
        free = [d for d, ns in names.items() if not any(n.isupper() for n in ns)]
        cover = sorted(((sum(n in short[d] for n in numbers) / len(numbers), d) for d in free),
                       reverse=True)
        if not cover or cover[0][0] < 0.6:
            continue
        lead = cover[0][0] - (cover[1][0] if len(cover) > 1 else 0.0)
        best = cover[0][1]
        uses = any(re.search(rf"\b{abbr}\b", t) for t in texts[best])
        if lead >= 0.3 or (uses and lead > 0.02):
            names[best].append(abbr)
            taken.add(abbr)


# What a document says it is read with: "This Guidance is issued under section 15(2) of the
# FSMR", "made under, or for the purposes of, FSMR", "It should be read in conjunction with
# FSMR, the Market Rules (MKT) ...", "where the CMC refers to a section, the reference is to a
# section in the FSMR", "The main legislative provisions governing ... are set out in ..., Part 16
# of the FSMR". The span after the phrase (to the end of the sentence) is searched for
# the names of the other documents.
RE_READ_WITH = re.compile(r"(?:\bissued under\b|\bmade (?:under|for the purposes of)\b|"
                          r"\bread in conjunction with\b|\bthe reference is to a section in\b|"
                          r"\blegislative provisions governing\b[^.;\n]{0,100}?\bare set out in\b)"
                          r"((?:[^.;\n]|\.(?=\s*\(?\d))" r"{0,200})")       # "Law No. (4) of 2013" goes on


# "this Chapter should be read in conjunction with FUNDS": said of a part, not of the document.
RE_PART_OF = re.compile(r"\b[Tt]his\s+(?:[Cc]hapter|[Ss]ection|[Pp]art|Rule|[Aa]ppendix|[Ss]chedule)\b")


def _sentence_before(text: str, pos: int) -> str:
    return re.split(r"[.;\n]", text[:pos])[-1]


def read_with(texts: dict[int, list[str]], aliases: dict[int, list[str]]) -> dict[int, list[str]]:
    """DocumentID -> the other documents' first aliases, in the order the text names them."""
    patterns = []
    for d, names in aliases.items():
        for name in names:
            if len(name) >= 3:
                patterns.append((re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])"), d))
    out: dict[int, list[str]] = {}
    for d, ts in texts.items():
        found: list[tuple[int, int, int]] = []           # (sentence, position, document)
        for k, m in enumerate(m for t in ts for m in RE_READ_WITH.finditer(t)
                              if not RE_PART_OF.search(_sentence_before(t, m.start()))):
            found += [(k, hit.start(), other) for rx, other in patterns if other != d
                      for hit in rx.finditer(m.group(1))]
        docs = list(dict.fromkeys(other for _, _, other in sorted(found)))
        if docs:
            out[d] = [aliases[o][0] for o in docs]
    return out

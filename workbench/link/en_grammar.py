"""The pieces of English citation grammar used by `en.py`: numbers, lists, ranges, names.

    Rule 3.2.1            Rules 3.2.1 and 3.2.4      Rule 3.2.1(a)       Rule 19.10.1 (3) and (4)
    GEN 3.3.31 and 3.3.32 COBS Rule 17.1 to 17.6     section 214(1)-(2)  Sections A4.6 to A4.8
    Chapter 14 of COBS    Part 4 of FSMR             App4 / APP 2        paragraphs 187 to 189
    section 33(1) of FSMR                 Article 7 of the Clinic Licensing Act
    Section 5 of the Financial Services and Markets Regulations 2015 ("FSMR")
    point (a) of Clause 1 of Article 6 of the Clinic Licensing Act

A cited number becomes an `Item` (label plus sub-paragraphs); the label is what unit
labels hold: "3.2.1", "33", "A4.6", and for headings "Chapter 14", "Part 4", "App 2",
"Schedule 1" (resolved through workbench.link.labels).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# A provision number: "3.2.1", "3.6A.4", "10.1.3B", "124C", "A4.6.14" (appendix rules).
NUM = r"A?\d+[A-Z]?(?:\.\d+[A-Z]?|\.[A-Z](?=\.\d))*"     # "15.11.A.1" is a misprint of "15.11A.1"
# A sub-paragraph: "(1)", "(13)", "(a)", "(iv)", "(1A)"; "(A)" capital letters are not used.
SUB = r"\(\s?(?:\d+[A-Za-z]?|[a-z]{1,4})\s?\)"
SUBS = rf"(?:\s?{SUB})(?:{SUB})*"          # "(1)(b)", " (3)" (a space is tolerated once)
ITEM = rf"{NUM}(?:{SUBS})?"
# Between list items: ", " ", and " " and " " or " "and/or", ranges " to " "-" " – ".
SEP = r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+and/or\s+|\s+and\s+|\s+or\s+|\s+to\s+|\s?-\s?|\s*[–—]\s*)"
# More items after the first: full numbers, or bare sub-paragraphs "(3) and (4)".
LIST = rf"{ITEM}(?:{SEP}(?:{NUM}(?:{SUBS})?|{SUB}(?:{SUB})*))*"

# The word before the number, and how it turns into a label.
KINDS = {
    "rule": "", "section": "", "subsection": "", "article": "", "art.": "", "regulation": "", "paragraph": "",
    "para.": "", "chapter": "Chapter ", "part": "Part ", "schedule": "Schedule ",
    "app": "App ", "appendix": "App ", "appendices": "App ",
}
KIND = (r"(?:Rules?|rules?|Sections?|sections?|SECTION|[Ss]ubsections?(?=\s+\d)|Articles?|articles?|Art\.|"
        r"Regulations?(?=\s+\d)|"
        r"[Pp]aragraphs?|[Pp]aras?\.?(?=\s*\d)|Chapters?|chapters?|Parts?|PARTS?|Schedules?|"
        r"Appendix|Appendices|App|APP)")
# A rulebook abbreviation standing before a number or a kind word: "GEN 3.3.31", "COBS Rule 6.11".
ABBR = r"(?<![\w/-])[A-Z]{2,6}(?![\w/-])"
NOT_ABBR = {"APP", "PART", "PARTS", "RULE", "SECTION", "CHAPTER", "ARTICLE", "NO", "USD", "AED", "EUR",
            "GBP", "US", "UK", "EU", "UAE", "ADGM", "FSRA", "CET", "AT", "TABLE", "OR", "AND", "IN", "OF",
            "ISO", "IFRS", "IAS", "CRS", "FATF", "NIL", "THE"}

# An instrument named after "of": capitalised words (joined by of/and/on/for/the/in), a year,
# "No. (74) of 2020". It must contain a head word to be taken for an instrument.
NAME = (r"(?:[A-Z][\w’'&-]*|U\.A\.E\.)(?:[ \t]+(?:(?:of|and|on|for|the|in|to|by)[ \t]+)*"
        r"(?:No\.|[A-Z][\w’'&-]*|\d{4}\b|\(\d+\)|\d+(?:/\d+)*\b))*")
HEADS = {"Regulations", "Regulation", "Rules", "Rulebook", "Act", "Law", "Code", "Guidance",
         "Manual", "Decree", "Decision", "Resolution", "Standard", "Standards", "Ordinance", "Order",
         "Convention", "Directive", "Constitution", "Policy"}
GENERIC = {"Regulations", "Rules", "Rulebook", "Act", "Law", "Code", "Guidance", "Manual", "Decree",
           "Decision", "Resolution", "Policy", "Order", "Regulation", "Standards", "Standard"}
# "of this Rulebook", "of these Regulations": the citing document itself.
SELF = re.compile(r"^(?:this|these)\s+(?:Rulebook|Rules|Regulations|Act|Decree|Code|Law|Manual|"
                  r"Circular|Guidance|Regulation|Ordinance|Order)\b")
# "of that Act" (the last Act named before), "of the Act", "of the Rules" (a defined short
# name, not resolved here): a document named elsewhere.
ANAPHOR = re.compile(r"^(that|such|the\s+said|the)\s+(Rulebook|Rules|Regulations|Act|Decree|Code|"
                     r"Law|Manual|Circular|Guidance|Regulation|Ordinance|Order|Article|Section|Rule|"
                     r"Chapter|Part)\b(?!\s+(?:of|on|for)\s+[A-Z])")
# A year closing a title is the version cited: "Clinic Licensing Act 2018".
RX_TITLE_YEAR = re.compile(r"(.*\b(?:Regulations|Rules|Act|Law|Code|Decree|Ordinance|Order))\s+((?:19|20)\d\d)")


@dataclass(frozen=True)
class Item:
    label: str                  # "3.2.1", "33", "Chapter 14"
    subs: tuple[str, ...] = ()  # ("1", "b")
    interpolated: bool = False  # filled in inside a range, not written


def label_of(kind: str | None, number: str, subs: str = "") -> str:
    """('Chapter', '14') -> 'Chapter 14'; ('App', 'A4.6') -> 'A4.6'; ('Rule', '3.2.1') -> '3.2.1';
    ('paragraph', '95') and ('paragraph', '146', '(b)') -> 'Paragraph 95', 'Paragraph 146': a
    numbered paragraph ("95)") of the citing document when it has one, else the section of that
    number (the resolver decides: resolve.Resolver._existing)."""
    key = kind_key(kind) if kind else ""
    prefix = KINDS.get(key, "")
    if prefix == "App " and not number.isdigit():
        return number
    if key in ("paragraph", "para.") and number.isdigit():
        return "Paragraph " + number
    return prefix + number


def kind_key(kind: str | None) -> str:
    k = (kind or "").casefold()
    if k.rstrip(".") in ("para", "paras"):     # "para. 95", "paras 93-97": paragraphs
        return "paragraph"
    if k in KINDS:
        return k
    return k[:-1] if k.endswith("s") and k[:-1] in KINDS else k


_ITEM_RX = re.compile(rf"({NUM})((?:\s?{SUB})*)")
_SUB_RX = re.compile(r"\(\s?(\w+)\s?\)")


def parse_list(kind: str | None, text: str) -> tuple[list[Item], int]:
    """'3.3.31 and 3.3.32' -> two items; '6.2.7 to 6.2.16' -> ten; '19.10.1 (3) and (4)' -> two.
    Further numbers must have the shape of the first (as many dots, "A" or not), so that
    "Rule 3.2.1 and 4 others" stops after 3.2.1. Returns the items and the length read."""
    items: list[Item] = []
    pos, in_range, end = 0, False, 0
    for m in re.finditer(rf"({SEP})|({NUM})((?:\s?{SUB})*)|((?:{SUB})+)", text):
        if m.start() != pos:
            break
        if m.group(1) is not None:
            pos, in_range = m.end(), bool(re.fullmatch(r"\s+to\s+|\s?-\s?|\s*[–—]\s*", m.group(1)))
            continue
        if m.group(2):
            if items and _shape(m.group(2)) != _shape(items[0].label.split()[-1]):
                break
            number = re.sub(r"\.([A-Z])(?=\.)", r"\1", m.group(2))
            item = Item(label_of(kind, number, m.group(3)), tuple(_SUB_RX.findall(m.group(3))))
        else:                                   # "(4)" after "19.10.1 (3) and": same rule
            subs = tuple(_SUB_RX.findall(m.group(4)))
            prev = items[-1].subs if items else ()
            same = [i for i, s in enumerate(prev) if _sub_type(s) == _sub_type(subs[0])]
            if not same:
                break
            item = Item(items[-1].label, prev[:same[-1]] + subs)
        if in_range and items:
            items.extend(expand(items[-1], item))
        items.append(item)
        pos, in_range, end = m.end(), False, m.end()
    return items, end if items else 0


def _shape(number: str) -> tuple[bool, int]:
    return number.startswith("A"), number.count(".")


def _sub_type(s: str) -> str:
    return "d" if s[0].isdigit() else "a"


def expand(lo: Item, hi: Item, limit: int = 30) -> list[Item]:
    """The items strictly between two range ends: 6.2.7 .. 6.2.16, (b) .. (d), 187 .. 189."""
    if lo.subs or hi.subs:
        if lo.label != hi.label or len(lo.subs) != len(hi.subs) or lo.subs[:-1] != hi.subs[:-1]:
            return []
        a, b = lo.subs[-1], hi.subs[-1]
        if a.isdigit() and b.isdigit():
            values = [str(v) for v in range(int(a) + 1, int(b))]
        elif len(a) == len(b) == 1 and a.isalpha() and b.isalpha():
            values = [chr(v) for v in range(ord(a) + 1, ord(b))]
        else:
            return []
        return [Item(lo.label, lo.subs[:-1] + (v,), True) for v in values][:limit]
    ma = re.fullmatch(r"(.*?)(\d+)", lo.label)
    mb = re.fullmatch(r"(.*?)(\d+)", hi.label)
    if not ma or not mb or ma.group(1) != mb.group(1):
        return []
    a, b = int(ma.group(2)), int(mb.group(2))
    if not 0 < b - a <= limit:
        return []
    return [Item(f"{ma.group(1)}{v}", (), True) for v in range(a + 1, b)]


def instrument_name(text: str) -> tuple[str | None, str, int]:
    """What follows 'of': ('FSMR', 'abbr', n), ('Clinic Licensing Act', 'name', n),
    (None, 'self', n) for 'this Rulebook', ('Act', 'that', n) for 'that Act', ('Act', 'anaphor', n)
    for 'the Act', or (None, '', 0)."""
    s = re.match(r"(?:the\s+)?", text).end()
    m = SELF.match(text)
    if m:
        return None, "self", m.end()
    m = ANAPHOR.match(text)
    if m:                                      # ("Act", "that", n) / ("Act", "anaphor", n)
        return m.group(2), "anaphor" if m.group(1) == "the" else "that", m.end()
    m = re.match(ABBR, text[s:])
    if m and m.group(0) not in NOT_ABBR:
        return m.group(0), "abbr", s + m.end()
    m = re.match(NAME, text[s:])
    if not m:
        return None, "", 0
    words = m.group(0).split()
    heads = [i for i, w in enumerate(words) if w in HEADS]
    if not heads or (len(words) == 1 and words[0] in GENERIC):
        return None, "", 0
    end = heads[-1] + 1
    while end < len(words) and re.fullmatch(r"\d{4}|No\.|\(\d+\)|\d+(?:/\d+)*|of", words[end]):
        end += 1                                  # "2015", "No. (74) of 2020"
    if words[heads[-1]] in {"Guidance", "Manual", "Standard", "Code", "Policy"} and end < len(words):
        end = len(words)                          # "Guidance on Mining"
    while words[end - 1] in {"of", "and", "on", "for", "the", "in", "to", "by"}:
        end -= 1
    ends = [w.end() for w in re.finditer(r"\S+", m.group(0))]
    return " ".join(words[:end]), "name", s + ends[end - 1]


def antecedent(text: str, head: str) -> str | None:
    """The last instrument named in `text` whose head word is `head` ('that Act' -> the Act
    named before it), read name by name from the left."""
    last, pos = None, 0
    while m := re.compile(r"(?<![\w-])[A-Z]").search(text, pos):
        name, what, n = instrument_name(text[m.start():])
        if what == "name":
            if split_version(name)[0].split()[-1] == head:
                last = name
            pos = m.start() + n
        else:
            pos = m.end()
    return last


def split_version(name: str | None) -> tuple[str | None, str | None]:
    """'Clinic Licensing Act 2018' -> ('Clinic Licensing Act', '2018'); others unchanged."""
    m = RX_TITLE_YEAR.fullmatch(name or "")
    return (m.group(1), m.group(2)) if m else (name, None)

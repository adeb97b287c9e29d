"""Entity mention rules for English legal text: capitalised names ending in a head (Authority / Court, Person / Client, Act / Rules, Licence), acronyms acting as bodies, lowercase generic heads.

Each rule returns (type, start, end, confidence) spans; overlaps are resolved by
`extract.extract`. See extract.py for the types and how confidence is set."""
from __future__ import annotations

import re

# -- English -----------------------------------------------------------------------------------
_W, _S = r"[A-Z][\w'&-]*", r"[ \t]+"        # a capitalised word; a space that is not a line break
_PHRASE = rf"(?:{_W}{_S}(?:(?:of|for|and|on|in){_S})?){{0,6}}?"
EN_RULES = [
    ("instrument", re.compile(rf"{_W}{_S}(?:(?:of|for|and|on|in){_S})?{_PHRASE}(?:Act|Regulations|Rules|Rulebook|Ordinance|Code|"
                              rf"Decree|Law|Directive|Order|Statute)(?:{_S}of{_S}{_W})?(?:{_S}\(?\d{{4}}\)?)?\b"), 0.85),
    ("authority", re.compile(rf"{_PHRASE}(?:Authority|Regulator|Court|Tribunal|Registrar|Commission(?:er)?|Committee|Board|Agency|"
                             rf"Ministry|Minister|Department|Office|Council|Registry|Ombudsman|Inspectorate)s?"
                             rf"(?:{_S}(?:of|for){_S}{_W}(?:{_S}(?:and{_S})?{_W}){{0,3}})?\b"), 0.85),
    ("party", re.compile(rf"{_PHRASE}(?:Person|Entity|Entities|Firm|Institution|Holder|Licensee|Applicant|Operator|Client|"
                         rf"Member|Provider|Issuer|Undertaking|Participant|Employer|Practitioner|Trustee|Custodian|Insurer)s?\b"), 0.85),
    ("document", re.compile(rf"(?:{_W}{_S}){{1,3}}(?:Licen[cs]e|Permit|Certificate|Approval|Authori[sz]ation|Permission)s?\b|"
                            rf"Certificate{_S}of{_S}{_W}(?:{_S}{_W})*"), 0.85),
    # an acronym acting as a body: "the FSRA may", "by the FCA"
    ("authority", re.compile(r"(?<=\b[Tt]he )[A-Z]{2,6}\b(?=\s+(?:may|must|shall|will|can|has|is|considers|expects|requires|"
                             r"issues|grants|imposes))|(?<=\bby the )[A-Z]{2,6}\b"), 0.55),
    ("authority", re.compile(r"(?<=\bthe )(?:court|regulator|registrar|tribunal)\b"), 0.5),
    ("party", re.compile(r"\b(?:licensee|licen[cs]e holder|permit holder|certificate holder|applicant|registrant|permittee|"
                         r"operator|employer|manufacturer|importer|exporter|distributor|proprietor|practitioner)s?\b"), 0.6),
    ("document", re.compile(r"\b(?:([a-z]+)\s+)?(?:licen[cs]e|permit|certificate|approval|authori[sz]ation)s?\b"), 0.7),
]
_EN_LEAD = re.compile(r"^(?:(?:The|A|An|Any|Each|Every|No|This|That|These|Those|Such|Where|If|When|Unless|In|On|For|Under|"
                      r"Subject|Notwithstanding|Without|Pursuant|Nothing|Article|Rule|Section|Chapter|Part|Schedule|Clause|"
                      r"Regulation|Terms?|of|and|for|on|in)\s+)+")
_EN_LOW_STOP = set("a an the any such its their his her that this these those new valid same each every no of for to under in "
                   "with by on issue issues issued grant grants granted hold holds renew revoke suspend obtain apply and or "
                   "relevant written prior not shall may must will".split())
_EN_ARTICLE = re.compile(r"\b(?:the|a|an|any|each|every|such)\s+$", re.IGNORECASE)


def spans(text: str) -> list[tuple[str, int, int, float]]:
    found = []
    for type_, rx, base in EN_RULES:
        for m in rx.finditer(text):
            start, end, conf = m.start(), m.end(), base
            if base >= 0.85:                               # a capitalised name: drop leading function words
                lead = _EN_LEAD.match(m.group())
                start += lead.end() if lead else 0
                if not re.search(r"\s", text[start:end].strip()):   # one word left: "Act", "Regulator"
                    if type_ in ("instrument", "document"):
                        continue
                    conf = 0.8 if _EN_ARTICLE.search(text[:start]) else 0.6
            if m.groups() and m.group(1):                  # "practising certificate", not "a certificate"
                if m.group(1).lower() in _EN_LOW_STOP:
                    start = m.start(1) + len(m.group(1))
                else:
                    conf = 0.75
            if text[start:end].strip().lower().startswith("permit") and \
                    re.search(r"\b(?:to|not|shall|may|must|will|would)\s+$", text[:start]):
                continue                                   # "permit" the verb
            if text[start:end].strip():
                found.append((type_, start, end, conf))
    return found

"""Entity mention rules for English legal text: capitalised names ending in a head (Authority / Court, Person / Client, Act / Rules, Licence), acronyms acting as bodies, lowercase generic heads.

Each rule returns (type, start, end, confidence) spans; overlaps are resolved by
`extract.extract`. See extract.py for the types and how confidence is set.

A name is a noun phrase: capitalised words joined by single spaces (never a tab or a line
break: those separate table cells and glossary headwords from their text), ending in a head
noun that gives the type. The heads are general nouns of legal drafting, not names taken from
examples; an acronym gets a type only from the text itself (its expansion, or its role)."""
from __future__ import annotations

import re

_W = r"(?:[A-Z](?:\.[A-Z])+\.?|[A-Z][\w'’&-]*)"     # a capitalised word, or dotted initials (U.A.E.)
_MODS = rf"(?:{_W} (?:(?:and|&) )?){{0,7}}?"        # its modifiers: capitalised words, "and" / "&" between them
# titles keep their prepositions; "and the" opens a second definite noun phrase ("Federal AML Legislation and the Regulations")
_TITLE = rf"(?:{_W} (?:(?:of|for|on|in|to)(?: the)? |(?:and|&) )?){{0,6}}?"
# a title may list its subjects ("Courts, Civil Evidence, Judgments, Enforcement and Judicial Appointments Regulations"),
# never titles ("GEN Rulebook, COBS Rulebook and PRU Rulebook" is a list of instruments)
_SUBJ = r"(?!(?:Act|Regulations|Rules|Rulebook|Code|Law|Guidance|Manual|Convention|Treaty)\b)" + _W
_LIST = rf"(?:(?:{_SUBJ} ){{0,2}}{_SUBJ}, ){{1,5}}(?:{_SUBJ} ){{0,2}}{_SUBJ} and "
# a title's complement continues while capitalised ("Convention on Mutual Assistance in Tax Matters"), not into "in Chapter 3"
_STRUCT = r"(?!(?:Section|Chapter|Part|Rule|Article|Schedule|Paragraph|Appendix|Annex)\b)"
_COMPLEMENT = rf"(?: (?:of|on|for)(?: the)? {_W}(?: (?:(?:of|on|in|for|and|&)(?: the)? )?{_STRUCT}{_W}){{0,8}})?"
# a singular head followed by another capitalised word is that word's modifier ("Client Account")
_NOT_MOD = r"(?! [A-Z][a-z])"
_NOT_MOD_PL = r"(?! (?![A-Z][a-z]*(?:ing|ed)\b)[A-Z][a-z])"   # so is a plural one ("Issuers Share capital"), unless a participle follows


def _heads(words: str, plural: str = "s") -> str:
    return rf"(?:{words})(?:{plural}\b{_NOT_MOD_PL}|\b{_NOT_MOD})"


_INSTRUMENT = ("Act|Regulations|Rules|Rulebook|Ordinance|Code|Decree|Law|Directive|Statute|Convention|"
               "Treaty|Guidance|Manual|Order(?= No| \\(?\\d{4})")   # an Order with no number is a decision
_AUTHORITY = ("Authority|Authorities|Regulator|Court|Tribunal|Registrar|Commission(?:er)?|Ministry|Minister|"
              "Department|Registry|Ombudsman|Inspectorate|Government|Secretary of State")
_PARTY = ("Person|Entity|Entities|Firm|Institution|Holder|[A-Z]\\w*holder|Licensee|Applicant|Operator|Client|Member|"
          "Provider|Issuer|Undertaking|Participant|Employer|Practitioner|Trustee|Custodian|Insurer|Company|Companies|Partnership|"
          "Owner|Manager|Counterpart(?:y|ies)|Director|Partner|Agent|Broker|Dealer|Adviser|Auditor|"
          "Beneficiary|Beneficiaries|Creditor|Debtor|Investor|Customer|Consumer|Employee|Body Corporate")
_ORGAN = "Office|Committee|Council|Board|Bank|Agency|Agencies"
_DOCUMENT = "Licen[cs]e|Permit|Certificate|Approval|Authori[sz]ation|Permission|Registration"
# an instrument name carries its number and year: "Federal Law No. (4) of 2013", "Regulations 2015", "Act (1990)"
_NUMBER = r"(?: No\.? ?\(?\d+\)?)?(?: of \d{4}\b)?(?: \d{4}\b| \(\d{4}\))?"

EN_RULES = [
    # a numbered instrument is named by every capitalised word before its number ("Federal Decree By Law No. 20 of
    # 2018"): the number closes the name, so a head met earlier ("Decree") is not yet its end
    ("instrument", re.compile(rf"{_W}(?: (?:of (?:the )?)?{_W}){{0,6}} No\.? ?\(?\d+\)?(?: of \d{{4}}\b)?"), 0.9),
    # "&" binds inside a name ("Guidance & Policies Manual"): a head followed by "&" continues
    ("instrument", re.compile(rf"(?:{_LIST})?{_W} (?:& )?{_TITLE}(?:{_INSTRUMENT})\b(?: (?:&|and) (?=Guidance|Rules|Regulations|Procedures|Policies)(?:{_W} ){{0,3}}(?:{_INSTRUMENT})\b)?"
                              rf"{_COMPLEMENT}{_NUMBER}"), 0.85),
    # a public body: its head, then an optional complement "of / for / on X" (Minister of Finance)
    ("authority", re.compile(rf"{_MODS}{_heads(_AUTHORITY)}(?: (?:of|for|on)(?: the)? {_W}(?: (?:and )?{_W}){{0,3}})?"), 0.85),
    # "Office", "Committee", "Council", "Board", "Bank", "Agency" are also firms, their organs or private
    # associations ("Representative Office", "Audit Committee", "Credit Rating Agency", an industry council or
    # standards board); they name public bodies with a public-sphere modifier or a complement (Office of X)
    ("authority", re.compile(rf"(?:{_MODS}(?:{_ORGAN})s? (?:of|for|on)(?: the)? {_W}(?: (?:and )?{_W}){{0,3}}|"
                             rf"(?:{_W} )?(?:National|Nations|Federal|European|Central|State|Government) {_MODS}{_heads(_ORGAN)})"), 0.8),
    ("party", re.compile(rf"{_MODS}{_heads(_PARTY)}"), 0.85),
    ("document", re.compile(rf"(?:{_W} ){{1,3}}{_heads(_DOCUMENT)}|Certificate of {_W}(?: {_W})*"), 0.85),
    # "the Act", "the Rules": a reference to an instrument named elsewhere ("this Act" is the text itself)
    ("instrument", re.compile(r"(?<=\bthe )(?:Act|Regulations|Rules|Rulebook|Code|Law|Ordinance|Decree)\b(?! [A-Z(])"), 0.6),
    # (a lowercase "registrar" is also a company's share registrar, a service provider: not a public body)
    ("authority", re.compile(r"(?<=\bthe )(?:court|regulator|tribunal)\b"), 0.5),
    ("party", re.compile(r"\b(?:licensee|licen[cs]e holder|permit holder|certificate holder|applicant|registrant|permittee|"
                         r"operator|employer|manufacturer|importer|exporter|distributor|proprietor|practitioner|issuer|"
                         r"\w*holder|trustee|custodian)s?\b"), 0.6),
    # licence / permit / certificate are documents; approval and authorisation are acts unless part of a name
    ("document", re.compile(r"(?<![\w'’])(?:([a-z]+) )?(?:licen[cs]e|permit|certificate)s?\b"), 0.7),
]
_EN_LEAD = re.compile(r"^(?:(?:The|A|An|Any|Each|Every|No|This|That|These|Those|Such|Where|If|When|Unless|In|On|For|Under|"
                      r"While|Whilst|Although|Though|Whether|Because|Since|Once|Until|After|Before|"
                      r"Subject|Notwithstanding|Without|Pursuant|Nothing|Article|Rule|Section|Chapter|Part|Schedule|Clause|"
                      r"Regulation|Terms?|Means|Includes|Has|Is|of|and|for|on|in|to|the|"
                      r"Other|Further|Additional|Certain|Various|Several|Similar|Respective|Another|All|Some|Both|"
                      # an imperative or a regulatory verb at the head of a line governs the name after it ("See Guidance
                      # under IFR 6.5.1", "Require Institution(s) to suspend"): a name never begins with its verb
                      # (not a verb that is also a noun of names: Issue Manager, Direct Client, Note Issuer, Register)
                      r"See|Refer|Consult|Require|Requires|Notify|Inform|Ensure|Submit|Provide|Apply|Approve|"
                      r"Refuse|Withdraw|Revoke|Suspend|Cancel|Appoint|Designate|Publish)\s+)+")
# the word before a lowercase document: determiners and the verbs and prepositions that govern it are
# not part of its name ("hold a licence", "permit holder" aside); a verb "permits" takes an object
_EN_LOW_STOP = set("a an the any such its their his her that this these those new valid same each every no of for to under in "
                   "with by on at from during upon after before without into as and or not relevant written prior shall may which "
                   "who whom it they we he she also only so per via including excluding versus against separate appropriate "
                   "necessary existing current original additional further other requisite applicable must will would should "
                   "can could".split())
_VERB = re.compile(r"^(?:issu|grant|hold|held|renew|revok|suspend|obtain|appl|seek|sought|requir|withdr[ae]w|refus|var|"
                   r"surrender|cancel|giv|gave|receiv|need|ha[sdv]|permit)\w*$")
# the noun "permit" is followed by punctuation, a preposition or a verb; the verb by its object ("permits Persons")
_PERMIT_NOUN = re.compile(r"\s*(?:[^\w\s]|$|(?:of|for|to|in|under|from|by|is|are|was|were|has|have|must|shall|may|will|"
                          r"and|or|issued|granted|held|holders?)\b)")
# a determiner-like adjective before a bare head makes a generic reference ("Other Regulators", "Further Rules")
_GENERIC = re.compile(r"\b(?:[Oo]ther|[Ff]urther|[Aa]dditional|[Cc]ertain|[Vv]arious|[Ss]everal|[Ss]imilar|[Aa]nother)\s+$")
# an adverbial particle closes a title-cased phrasal verb ("to Wind Up Group Entities"): the name follows it
_PARTICLE = re.compile(r".*\b(?:Up|Out|Off|Down|Away)\s")
# a capitalised article or determiner inside a run of capitalised words opens a new phrase ("the U.A.E. The Regulator")
_ARTICLE_IN = re.compile(r".*\s(?:The|A|An|This|These|Those|Each|Any|Every)\s")
_EN_ARTICLE = re.compile(r"\b(?:the|a|an|any|each|every|such)\s+$", re.IGNORECASE)

# -- acronyms ----------------------------------------------------------------------------------
_ACRONYM = re.compile(r"\b[A-Z][A-Z&]{1,6}\b")
# an acronym's own expansion: "Financial Services Regulatory Authority (FSRA)" or a glossary line "FSRA<tab>The ..."
_EXPANDED = re.compile(rf"((?:{_W} (?:(?:of|for|and|on|in|the) )*){{1,8}}?{_W}) \((?:the )?[\"“]?([A-Z][A-Z&]{{1,6}})[\"”]?\)|"
                       rf"^([A-Z][A-Z&]{{1,6}})\t+(?:The |the )?((?:{_W} (?:(?:of|for|and|on|in|the) )*){{0,8}}{_W})", re.M)
# an acronym acting as a public body: the subject of a regulatory verb ("the FSRA may approve")
_REG_VERBS = (r"approve|grant|issue|direct|refuse|withdraw|revoke|suspend|cancel|expect|publish|appoint|"
              r"investigate|supervise|authorise|register|waive|designate|recognise|enforce|delegate")
_ACT_AS_BODY = re.compile(rf"(?<=\b[Tt]he )([A-Z]{{2,6}}) (?:(?:(?:may|must|shall|will|can)(?: not)?(?: also)? )"
                          rf"(?:{_REG_VERBS})|(?:{_REG_VERBS})e?s)\b|"
                          rf"\b(?:approved|granted|authorised|recognised|registered|licensed|designated|appointed|"
                          rf"supervised|regulated) by the ([A-Z]{{2,6}})\b(?! [A-Z])")
# a bare acronym ends its noun phrase: what follows is punctuation, a conjunction or a preposition, not a noun
_END = r" (?:and|or|to|as|in|for|of|on|at|by|with|from|under|which|that|is|are|was|were|has|have|may|must|shall|will)\b"
# "section 30 of the FSMR": a section, rule or schedule belongs to an instrument
_ACR, _ENDS = r"([A-Z][A-Z&]{1,6})", rf"(?=[^\w\s'’]|\s*$|{_END})"
_PART_OF = re.compile(r"\b(?:[Ss]ections?|[Ss]chedule|[Pp]art|[Cc]hapter|[Aa]rticle|[Rr]ules?|[Pp]aragraph|[Rr]egulation)"
                      rf" [\dA-Z.()‎]+ (?:of|in|under) (?:the )?{_ACR}\b(?! [A-Z])|"
                      rf"\b(?:under|pursuant to|in accordance with|as defined in) the {_ACR}{_ENDS}")
# what is granted, held, varied or withdrawn is a document: "granted an FSP", "withdraw its FSP"
_OBJECT_OF = re.compile(r"\b(?:grant|issu|hold|held|revok|var[iy]|withdr[ae]w|cancel|suspend|surrender)\w* "
                        rf"(?:an?|the|its|their) {_ACR}{_ENDS}")


# the supervisory functions of a regulator: a person named by one is its staff, not a regulated party
_STAFF = re.compile(r"\b(?:Supervision|Supervisory|Enforcement|Inspection|Examination)\b(?=.* )")


def _name_start(text: str, start: int, own: bool = True) -> int:
    """A name cut inside a run of capitalised words begins earlier: back over up to three of them (not over
    a determiner or a sentence start). A possessor ("an Authorised Person's Financial Services Permission")
    is a noun phrase of its own: cut inside it, the name begins after its "'s"."""
    own = own and re.match(r"[\w-]+['’]s ", text[start:])
    if own and re.search(r"[A-Z][\w&-]* $", text[:start]):
        return start + own.end()
    run = re.search(r"(?<![.:;]\s)(?<![\w'’-])((?:(?!(?:The|A|An|This|These|Those|Each|Any|Every|No|Such|Other|Some|All|In|On|For|"
                    r"Of|Under|Its|Their)\b)[A-Z][\w&-]* ){1,3})$", text[:start])
    return start - len(run.group(1)) if run else start


def _initials(name: str) -> str:
    return "".join(w[0] for w in name.split() if w[0].isupper())


def _type_of(name: str) -> str | None:
    for type_, heads in (("authority", _AUTHORITY), ("instrument", _INSTRUMENT), ("party", _PARTY), ("document", _DOCUMENT)):
        if re.search(rf"\b(?:{heads})s?$", name):
            return type_
    return None


def _acronyms(text: str) -> list[tuple[str, int, int, float]]:
    typed = {}
    for m in _EXPANDED.finditer(text):
        name, acr = (m.group(1), m.group(2)) if m.group(2) else (m.group(4), m.group(3))
        # the expansion is typed by the same name rules: the name found at its end; a head before "of" names the
        # thing ("Organisation of Islamic Financial Institutions" is an organisation, not institutions)
        caps = [w.start() for w in re.finditer(r"\b[A-Z]", name or "")]
        own = (name or "")[caps[-len(acr.replace("&", ""))]:] if 0 < len(acr.replace("&", "")) <= len(caps) else name or ""
        before_of = own.split(" of ")[0]                           # the expansion proper: as many words as letters
        head = name if _type_of(before_of) or re.search(rf"\b(?:{_ORGAN})$", before_of) or before_of == own else before_of
        types = [t for t, rx, base in EN_RULES if base >= 0.8 for n in rx.finditer(head) if n.end() == len(head)]
        if types and _initials(name).endswith(acr.replace("&", "")):
            typed[acr] = types[0]
    out = [(t, m.start(), m.end(), 0.8) for m in _ACRONYM.finditer(text)
           if (t := typed.get(m.group())) and not re.match(r" [A-Z][A-Za-z]", text[m.end():])]   # "JORC Code", "AAOIFI GSIFI": a modifier
    out += [("authority", *m.span(m.lastindex), 0.6) for m in _ACT_AS_BODY.finditer(text)]
    out += [("instrument", *m.span(m.lastindex), 0.6) for m in _PART_OF.finditer(text)]
    out += [("document", *m.span(1), 0.6) for m in _OBJECT_OF.finditer(text) if m.group(1) not in typed]
    return out


def _in_address(text: str, start: int, end: int) -> bool:
    """A word inside an e-mail address or a URL is not a name."""
    s, e = start, end
    while s > 0 and not text[s - 1].isspace():
        s -= 1
    while e < len(text) and not text[e].isspace():
        e += 1
    return bool(re.search(r"@|www\.|://", text[s:e]))


def _slashed(text: str, start: int, end: int) -> bool:
    """A slash joins alternatives: a name beside another name ("Listed Entity/Reporting Entity") stays; a word
    beside a plain modifier ("Municipal/Government Finance", "employee/certificate holders") is a modifier too."""
    before, after = re.search(r"(\w+)/$", text[:start]), re.match(r"/((?:\w+ ){0,3}\w+)", text[end:])
    other = [w for w in ((before.group(1),) if before else ()) + ((after.group(1),) if after else ())]
    return any(not any(_type_of(" ".join(w.split()[:i + 1])) for i in range(len(w.split()))) for w in other)


def _trim_and(text: str, start: int, end: int) -> int:
    """Modifiers joined by "and" share one head ("Mining and Petroleum Reporting Entities"); a plural noun,
    an agent noun (Payer, Operator), an acronym, a head or a phrase of several words ("Virtual Asset Framework")
    before "and" ends a phrase of its own."""
    first = start
    for m in re.finditer(r"(\S+) and ", text[first:end]):
        if (left := m.group(1)).isupper() or re.search(r"(?:s|er|or|ee|ant|ent|ist)$", left) or _type_of(left) or \
                len(text[start:first + m.end(1)].split()) > 1:
            start = first + m.end()
    return start


# a defined term's headword (glossary "X<tab>means", '"X" means'): extract.py names it; a shorter
# mention inside it ("Agent" in "Dealing in Investments as Agent") is part of the term, not an entity
_HEADWORD = re.compile(r"^([^\t\n]+?)[ \t]*\t[ \t]*(?=(?:means|includes|has the meaning)\b)|"
                       r"[\"“]([^\"”\n]+)[\"”] (?=(?:means|includes|has the meaning)\b)", re.M | re.I)


def _inside_headword(words: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(s < start < e and end <= e for s, e in words)    # a name that opens the headword stays


# two heads coordinated in one title ("… Rules and Guidance Rulebook") are one instrument: "and" + a head noun of
# instruments + the title's last head continues it (a list of titles repeats a modifier: "GEN Rules and COBS Rules")
# a partitive ("Provisions / Parts / Requirements of the X Rules") names a part of an instrument: the name is X Rules
_PARTITIVE = re.compile(r"(?:[A-Z]\w* )*(?:Provisions?|Parts?|Requirements?|Chapters?|Sections?|Schedules?|Annex(?:es)?) of (?:the )?(?=[A-Z])")
# a possessive closes a noun phrase: "an Authorised Person's Financial Services Permission", "FSRA's Islamic Finance
# Rules" name the permission, the rules; the possessor is an entity of its own
_POSSESSIVE = re.compile(r".*[\w.)]['’]s ")
# a name followed by "'s Report / Opinion / Statement / Certificate" is the possessor inside a document's name
# ("the Auditor's Report" is a document): not an entity there
_OWNED_DOC = re.compile(r"['’]s (?:Report|Opinion|Statement|Certificate)s?\b")
# an action noun's agent "by the X" is followed by the action's object: "the suspension by the Regulator | of
# Securities": a complement "of Y" after an agent of a nominalised action belongs to the action
_NOMINAL_AGENT = re.compile(r"\b\w+(?:ion|ment|al)\s+by\s+(?:the\s+)?$", re.I)


def spans(text: str) -> list[tuple[str, int, int, float]]:
    found = []
    for type_, rx, base in EN_RULES:
        for m in rx.finditer(text):
            start, end, conf = m.start(), m.end(), base
            if base >= 0.8:                                # a capitalised name: drop leading function words
                lead = _EN_LEAD.match(m.group())
                start += lead.end() if lead else 0
                verb = _PARTICLE.match(text, start, end) or _ARTICLE_IN.match(text, start, end)
                start = verb.end() if verb else start
                if type_ == "instrument" and lead and _GENERIC.search(lead.group()):
                    continue                               # "Further Guidance on Credit Risk": a description
                if type_ in ("party", "document"):        # titles and public bodies keep "and"
                    start = _trim_and(text, start, end)
                if not re.search(r"\s", text[start:end].strip()):   # one word left: "Act", "Regulator"
                    if type_ in ("instrument", "document") or re.search(r"\bas $", text[:start]) or \
                            (type_ == "authority" and _GENERIC.search(text[:start])):
                        continue                           # "as Agent" names a capacity; "Other Regulators" a class
                    conf = 0.8 if _EN_ARTICLE.search(text[:start]) else 0.6
            if type_ == "document" and base < 0.8 and (re.match(r"certificates|\w+ certificates", m.group()) or
                                                       re.match(r"\s+holders?\b", text[end:end + 9])):
                continue    # "certificates of deposit", "sukuk certificates": securities; "licence holder": a party
            if m.groups() and m.group(1):                  # "practising certificate", not "hold a certificate"
                word = m.group(1)
                if word in ("minus", "plus", "less", "times"):
                    continue                               # an arithmetic operand is an amount ("minus certificate interest")
                if word.lower() in _EN_LOW_STOP or _VERB.match(word.lower()):
                    start = m.start(1) + len(word) + 1
                else:
                    conf = 0.75
            comp = type_ == "instrument" and re.search(r" (?:of|on|for) (?:the )?([^,;]+)$", text[start:end])
            end = comp.start() if comp and _type_of(comp.group(1)) in ("authority", "party") else end  # "Rules of the Regulator"
            if type_ == "document" and base >= 0.8:     # a name starts with its first word, not where the word limit fell:
                start = _name_start(text, start)           # "Representative Office Financial Services Permission"
            if type_ == "authority" and (one := re.match(r"\w+(?= for the )", text[start:end])):
                end = start + one.end()                    # "apply to the Regulator | for the Designation": the verb's
            cls = re.search(r"\b(?:Category|Class|Type|Tier) (?:\d\w*|[A-Z]|[IVX]+) $", text[max(0, start - 20):start])
            start = start - len(cls.group()) if cls and base >= 0.8 else start   # "Class 2 Captive Insurer"
            if base >= 0.8 and (own := _POSSESSIVE.match(text, start, end)):
                start = own.end()
            if type_ == "instrument" and (part := _PARTITIVE.match(text, start, end)):
                start = part.end()
            if base >= 0.8 and type_ != "instrument" and _OWNED_DOC.match(text, end):
                continue
            if type_ == "authority" and _NOMINAL_AGENT.search(text[:start]) and (cut := re.search(r" of ", text[start:end])):
                end = start + cut.start()
            # an acronym before "and" is a name of its own ("OECD and UAE Competent Authority"); so is a single head
            # noun joined by "and" to the name's head alone ("each Fund and Client": two nouns, no shared modifiers)
            if base >= 0.8 and (acr := re.match(r"(?:[A-Z]{2,6} and )+", text[start:end])):
                start += acr.end()
            if base >= 0.8 and type_ in ("party", "document") and re.fullmatch(r"[A-Z][a-z]+ and [A-Z][a-z]+", text[start:end]):
                start = end - len(text[start:end].split(" and ")[1])
            head = text[start:end].strip()
            if type_ != "instrument" and head.endswith("s") and re.match(r"['’] [A-Z]", text[end:end + 3]):
                continue                                   # "Owners' Equity": a classifying genitive is a modifier
            if _slashed(text, start, end):                # "Municipal/Government Finance"
                continue
            hyphen = False
            while re.match(r"\w", text[start - 2:start - 1]) and text[start - 1] == "-":  # a name starts with its word:
                start, hyphen = re.search(r"[\w-]*$", text[:start - 1]).start(), True   # "sub-custodian", "Office-Holder"
            if hyphen and base >= 0.8 and text[start:start + 1].isupper():
                start = _name_start(text, start, own=False)   # and with its modifiers: "the Relevant Office-Holder"
            if re.search(r"\bpermits?$", head) and (not _PERMIT_NOUN.match(text, end) or
                                                      re.search(r"\b(?:to|not|shall|may|must|will|would)\s+$", text[:start])):
                continue                                   # "permit" the verb: "Rule 22.2 permits Authorised Persons"
            complement = re.search(r" (?:of|for) (?:the )?(\w+)$", head)
            if type_ == "authority" and complement and _type_of(complement.group(1)) == "party":
                continue                                   # "Board of Directors": an organ of a firm
            public = type_ == "party" and re.search(r"\b(?:Governmental|Government|Public Sector) (?:Entit|Bod|Institution)", head)
            # staff named by a supervisory function act for the regulator ("Supervision Relationship Manager")
            public = public or (type_ == "party" and _STAFF.search(head))
            if head and not _in_address(text, start, end):     # a public-sector entity is a public body
                found.append(("authority" if public else type_, start, end, conf))
    words = [m.span(m.lastindex) for m in _HEADWORD.finditer(text)]
    return [s for s in found + _acronyms(text)
            if not _in_address(text, s[1], s[2]) and not _inside_headword(words, s[1], s[2])]

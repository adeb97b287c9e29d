"""Relations between entities, read from a provision according to its role (parse/roles.py).

obligation / prohibition: the subject (the party or authority just before the modal -- 应当 /
  不得 / 必须, phải / không được, must / shall / may not) HAS_DUTY to each entity named after the
  modal; the unit's own instrument IMPOSES_DUTY on the subject.
sanction: the authority that imposes the penalty (由X…罚款, "X xử phạt", "the Regulator may
  impose a fine") SANCTIONS each party named in the sentence; with no authority named, the
  instrument itself does (at half confidence).
permission: an authority subject GRANTS_PERMISSION to the parties after the modal (可以 /
  có quyền / may); a party subject MAY do what it names after the modal, and an authority named
  before the modal (经X批准, "with the approval of the Regulator") GRANTS_PERMISSION to it.
any role (procedure, scope, other too): an authority ISSUES a document when the sentence says it issues one (出具 / 核发 /
  cấp / issue / grant), as actor before the verb or as agent (由 / do / by).
definition: the instrument DEFINES the entity at the defined term.

A relation's confidence is the lower of its two mentions' confidences times a factor for how
the roles were found: 0.9 when the subject sits in the modal's own clause, 0.7 when it is taken
from an earlier clause, 0.5 for an instrument standing in for an unnamed authority.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from ..core.records import Unit
from ..parse.roles import role_of
from .extract import Mention, defined_spans, extract, instrument_id

RELATION_TYPES = ("HAS_DUTY", "IMPOSES_DUTY", "SANCTIONS", "GRANTS_PERMISSION", "MAY", "ISSUES", "DEFINES")
ACTORS = ("party", "authority")


@dataclass(frozen=True)
class Relation:
    subject: str
    type: str
    object: str
    unit_id: str
    document: str                 # the unit's key@version
    key: str                      # the unit's instrument
    effective_from: dt.date | None
    confidence: float
    evidence: str                 # the sentence


def _rx(pattern: str) -> re.Pattern:
    return re.compile(pattern, re.IGNORECASE)


DUTY = {"zh": _rx(r"应当|必须|不得|禁止|严禁|须"),
        "vi": _rx(r"\bphải\b|không được|có trách nhiệm|có nghĩa vụ|nghiêm cấm|\bcấm\b"),
        "en": _rx(r"\bmust\b|\bshall\b|\bmay not\b|\b(?:is|are) required to\b|\b(?:is|are) responsible for\b")}
PERMISSION = {"zh": _rx(r"可以|有权|准予"),
              "vi": _rx(r"có quyền|được phép|\bđược\b|có thể"),
              "en": _rx(r"\bmay\b(?! not)|\b(?:is|are) (?:entitled|permitted|authori[sz]ed) to\b|\bcan\b")}
PENALTY = {"zh": _rx(r"罚款|罚金|处罚|吊销|没收|责令|处分|拘留|取消"),
           "vi": _rx(r"xử phạt|phạt tiền|phạt cảnh cáo|thu hồi|tước quyền|đình chỉ|\bbuộc\b"),
           "en": _rx(r"\bimpos|\bfines?\b|\bpenalt|\bcensure|\brevok|\bsuspend|\bwithdraw")}
ISSUE = {"zh": _rx(r"出具|核发|发给|签发|颁发|发放|换发|补发"),
         "vi": _rx(r"\bcấp(?! (?:tỉnh|huyện|xã|trung ương|cơ sở|có thẩm quyền|phát|bách|cứu)\b)"),
         "en": _rx(r"\bissu(?:e|es|ed|ing)\b|\bgrant(?:s|ed|ing)?\b")}
AGENT = {"zh": _rx(r"由\s*$"), "vi": _rx(r"\b(?:do|bởi)\s+$"), "en": _rx(r"\bby\s+(?:the\s+)?$")}
COORD = {"zh": _rx(r"^\s*(?:、|和|与|及|以及|或者|或|，)\s*$"),
         "vi": _rx(r"^\s*(?:,|và|hoặc|, và|, hoặc)\s*$"),
         "en": _rx(r"^\s*(?:,|and|or|, and|, or)\s*(?:the\s+|an?\s+|any\s+)?$")}
CLAUSE = re.compile(r"[，,;；:：]")
_BOUNDARY = re.compile(r"[。；;!?！？]|\n+|(?<=[a-z\)]\.)\s+(?=[A-Z(])")


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence, split as parse/roles.py splits them."""
    spans, start = [], 0
    for m in _BOUNDARY.finditer(text):
        spans.append((start, m.end()))
        start = m.end()
    spans.append((start, len(text)))
    return [(s, e) for s, e in spans if text[s:e].strip()]


class _Sentence:
    """One sentence of a unit with the mentions inside it and helpers to find roles."""

    def __init__(self, text: str, start: int, end: int, mentions: list[Mention], language: str):
        self.text, self.start, self.end, self.lang = text, start, end, language
        self.mentions = [m for m in mentions if m.start >= start and m.end <= end]

    def agent(self, m: Mention) -> bool:
        return bool(AGENT[self.lang].search(self.text[max(self.start, m.start - 12):m.start]))

    def subjects(self, pos: int) -> tuple[list[Mention], float]:
        """The actor(s) before `pos`: the nearest in the same clause (0.9), else the nearest
        earlier (0.7); actors joined to it by a coordinator (、 / và / and) come along."""
        cands = [m for m in self.mentions if m.type in ACTORS and m.end <= pos and not self.agent(m)]
        if not cands:
            return [], 0.0
        seps = [c.start() for c in CLAUSE.finditer(self.text, self.start, pos)
                if not any(m.start <= c.start() < m.end for m in self.mentions)]
        clause = max(seps, default=self.start)
        in_clause = [m for m in cands if m.end > clause]
        chosen, factor = (in_clause[-1], 0.9) if in_clause else (cands[-1], 0.7)
        out, i = [chosen], cands.index(chosen)
        while i > 0 and COORD[self.lang].match(self.text[cands[i - 1].end:out[0].start]):
            out.insert(0, cands[i - 1])
            i -= 1
        return out, factor

    def after(self, pos: int, skip: list[Mention]) -> list[Mention]:
        ids = {m.entity_id for m in skip}
        return [m for m in self.mentions if m.start >= pos and m.entity_id not in ids and not self.agent(m)]

    @property
    def evidence(self) -> str:
        return self.text[self.start:self.end].strip()[:400]


def _conf(*parts: float) -> float:
    *confs, factor = parts
    return round(min(confs) * factor, 3)


def _duty(s: _Sentence, own: str) -> list[tuple]:
    modal = DUTY[s.lang].search(s.text, s.start, s.end)
    subjects, factor = s.subjects(modal.start()) if modal else ([], 0)
    out = []
    for subj in subjects:
        out.append((own, "IMPOSES_DUTY", subj.entity_id, _conf(subj.confidence, factor)))
        out += [(subj.entity_id, "HAS_DUTY", o.entity_id, _conf(subj.confidence, o.confidence, factor))
                for o in s.after(modal.end(), subjects)]
    return out


def _sanction(s: _Sentence, own: str) -> list[tuple]:
    cue = PENALTY[s.lang].search(s.text, s.start, s.end)
    if not cue:
        return []
    auths = [m for m in s.mentions if m.type == "authority"]
    before = [m for m in auths if m.end <= cue.start()]
    agents = [m for m in before if s.agent(m)]
    auth = agents[-1] if agents else (before[-1] if before else (auths[0] if auths else None))
    parties = list({m.entity_id: m for m in s.mentions if m.type == "party"}.values())
    if auth is None:
        return [(own, "SANCTIONS", p.entity_id, _conf(p.confidence, 0.5)) for p in parties]
    factor = 0.9 if auth.end <= cue.start() else 0.7
    return [(auth.entity_id, "SANCTIONS", p.entity_id, _conf(auth.confidence, p.confidence, factor)) for p in parties]


def _permission(s: _Sentence) -> list[tuple]:
    modal = PERMISSION[s.lang].search(s.text, s.start, s.end)
    subjects, factor = s.subjects(modal.start()) if modal else ([], 0)
    out = []
    for subj in subjects:
        for o in s.after(modal.end(), subjects):
            kind = "GRANTS_PERMISSION" if subj.type == "authority" and o.type == "party" else "MAY"
            out.append((subj.entity_id, kind, o.entity_id, _conf(subj.confidence, o.confidence, factor)))
        if subj.type == "party":       # an authority named before the modal approves (经X批准)
            out += [(a.entity_id, "GRANTS_PERMISSION", subj.entity_id, _conf(a.confidence, subj.confidence, 0.7))
                    for a in s.mentions if a.type == "authority" and a.end <= modal.start()]
    return out


def _issues(s: _Sentence) -> list[tuple]:
    out = []
    for verb in ISSUE[s.lang].finditer(s.text, s.start, s.end):
        docs = [m for m in s.mentions if m.type == "document"]
        later = [d for d in docs if d.start >= verb.end()]
        earlier = [d for d in docs if d.end <= verb.start()]
        doc = later[0] if later else (earlier[-1] if earlier else None)
        auths = [m for m in s.mentions if m.type == "authority"]
        agents = [a for a in auths if s.agent(a)]
        actors = [a for a in auths if a.end <= verb.start()]
        auth = agents[0] if agents else (actors[-1] if actors else None)
        if doc and auth:
            out.append((auth.entity_id, "ISSUES", doc.entity_id, _conf(auth.confidence, doc.confidence, 0.9)))
    return out


def _defines(unit: Unit, mentions: list[Mention], own: str) -> list[tuple]:
    """DEFINES to the entity at each defined term, with the defining line as evidence."""
    out, text = [], unit.text or ""
    for start, end in defined_spans(unit):
        hit = [m for m in mentions if m.start < end and m.end > start]
        if hit:
            line_start, line_end = text.rfind("\n", 0, start) + 1, text.find("\n", end)
            line = text[line_start:line_end if line_end >= 0 else len(text)].strip()[:400]
            out.append((own, "DEFINES", hit[0].entity_id, _conf(hit[0].confidence, 0.95), line))
    return out


def relations(unit: Unit, mentions: list[Mention] | None = None, titles: dict[str, str] | None = None,
              known=()) -> list[Relation]:
    """The relations one unit lays down, by its role; `mentions` default to `extract(unit)`
    (pass the alias-merged ones from `extract_all` to keep ids consistent); `known` entity ids
    let the unit's own instrument take its merged id (see `extract.instrument_id`)."""
    role = role_of(unit)
    if not role:                                # structural units lay nothing down
        return []
    text = unit.text or ""
    mentions = extract(unit) if mentions is None else [m for m in mentions if m.unit_id == unit.id]
    lang = unit.language[:2] if unit.language[:2] in DUTY else "en"
    own = instrument_id(unit, titles, known or {m.entity_id for m in mentions})
    found = _defines(unit, mentions, own) if role == "definition" else []
    for start, end in sentences(text):
        s = _Sentence(text, start, end, mentions, lang)
        if not s.mentions:
            continue
        if role in ("obligation", "prohibition"):
            rels = _duty(s, own)
        elif role == "sanction":
            rels = _sanction(s, own)
        elif role == "permission":
            rels = _permission(s)
        else:
            rels = []
        found += [r + (s.evidence,) for r in rels + _issues(s)]
    best: dict[tuple, Relation] = {}
    for subj, type_, obj, conf, evidence in found:
        if subj == obj:
            continue
        rel = Relation(subj, type_, obj, unit.id, f"{unit.key}@{unit.version}", unit.key, unit.effective_from, conf, evidence)
        key = (subj, type_, obj)
        if key not in best or best[key].confidence < conf:
            best[key] = rel
    return list(best.values())


def relations_all(units, mentions: list[Mention] | None = None,
                  titles: dict[str, str] | None = None) -> list[Relation]:
    """Relations of many units; `mentions` as from `extract.extract_all` (else extracted here)."""
    by_unit: dict[str, list[Mention]] = {}
    for m in mentions or []:
        by_unit.setdefault(m.unit_id, []).append(m)
    known = {m.entity_id for m in mentions or []}
    return [r for u in units
            for r in relations(u, by_unit.get(u.id, []) if mentions is not None else None, titles, known)]

"""Relations between entities, read from a provision according to its role (parse/roles.py).

obligation / prohibition: the subject of the modal (应当 / 不得, phải / không được, must / shall /
  may not) HAS_DUTY to each entity that is an argument of the modal's own predicate -- what the
  duty is about, not a word modifying it (zh: a possessor or the subject of a relative clause
  before 的, a co-actor after 会同, a field of a record: 如实记录…购货者名称); the unit's
  instrument IMPOSES_DUTY on the subject. (en: an entity after a noun and "of", or after a
  participle with its agent or source -- "the value of an Exposure", "approved by ESMA" --
  modifies that word.) A passive duty (应当由X / must be met by X) lies on its agent.
sanction: the agent of the penalty (由X…罚款 / do X / by X) SANCTIONS the violator and the parties
  it names; without an agent, the authority heading the penalty's clause ("X xử phạt Y", "the
  Regulator may impose a fine on Y") sanctions those named after the penalty. An instrument never
  SANCTIONS: with no authority named (or one named but not recognised) nothing is emitted.
permission: a party subject MAY what its predicate names; an authority's "may" is a power, so it
  GRANTS_PERMISSION only to the direct object of the governed verb (may direct X / 可以责令X) or the
  recipient of a grant (cấp … cho X), and to a party whose act it approves (经X批准).
any role: an authority ISSUES a document as the agent of an issuing verb (由 / do / by) or as the
  subject directly before it (出具 / cấp / issue).
definition: the instrument DEFINES the entity that is the whole defined term (link/terms patterns).

Subjects follow the grammar of the modal: the subject is the head of the noun phrase that the
modal's clause opens with (zh: the nearest phrase before the modal), never an entity inside a
prepositional phrase, a possessor / modifier (X的Y, X's Y, Văn phòng X) or an agent phrase; a
clause with no subject of its own takes it from an earlier clause. A negated modal, "may be +
participle", "can" (ability), "có thể" (possibility), "shall have the power" yield nothing.

Confidence is the lower of the two mentions' confidences times 0.9 (subject in the modal's own
clause) or 0.7 (taken from an earlier clause or an approval construction).
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from ..core.records import Unit
from ..parse.roles import role_of, sentence_spans
from .definitions import defined_spans, heading_of
from .extract import Mention, extract, instrument_id
from .grammar import (  # noqa: F401  (the closed classes, re-exported)
    DUTY, PERMISSION, PENALTY, ISSUE, AGENT, AGENT_MARK,
    COORD, NEG, NOT_MODAL, PREP, GAP, OPENER,
    BASIS, EXCLUDED, SUBORD, VIOLATOR, QUANTITY, CLAUSE,
    POSSESSOR, HEAD_OF, CO_ACTOR, NOT_ARGUMENT, MODIFIER_PP,
    AUDIENCE, APPROVAL, _VERB_GAP, CONDITION, OWNER, NESTED_PP, AGENT_REACH,
    _COMMAND, _JUDGEMENT, _rx)

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


class _Sentence:
    """One sentence of a unit with the mentions inside it and helpers to find roles."""

    def __init__(self, text: str, start: int, end: int, mentions: list[Mention], language: str):
        self.text, self.start, self.end, self.lang = text, start, end, language
        # a quantity ("2人") is no entity argument
        self.mentions = [m for m in mentions if m.start >= start and m.end <= end and not QUANTITY.match(m.surface)]
        self.seps = [c.start() for c in CLAUSE[language].finditer(text, start, end)
                     if not any(m.start <= c.start() < m.end for m in self.mentions)]

    def agent(self, m: Mention) -> bool:
        return bool(AGENT[self.lang].search(self.text[max(self.start, m.start - 12):m.start]))

    def clause(self, pos: int) -> tuple[int, int]:
        return (max([c for c in self.seps if c < pos], default=self.start),
                min([c for c in self.seps if c >= pos], default=self.end))

    def modal(self, cues: dict):
        """The first modal that is not negated and not a possibility / passive / power, not part of a
        name (người có trách nhiệm, người có quyền: the modal words describe the person) and not inside
        a condition (Trường hợp / Khi / Nếu … thì: a modal there states the condition, not a duty)."""
        for m in cues[self.lang].finditer(self.text, self.start, self.end):
            if not NEG[self.lang].search(self.text[max(self.start, m.start() - 10):m.start()]) and \
                    not NOT_MODAL[self.lang].search(self.text[m.end():m.end() + 30]) and \
                    not any(x.start <= m.start() < x.end for x in self.mentions) and not self.in_condition(m.start()) and \
                    not (m.group().lower() == "được" and re.search(r"\b(?:là|người|mà)\s+$", self.text[self.start:m.start()])):
                # (a "được" after a noun or "là" opens a passive relative clause: "là người được … đề cử")
                return m
        return None

    def in_condition(self, pos: int) -> bool:
        """vi: `pos` lies in a conditional clause -- after Trường hợp / Khi / Nếu and before the "thì" that
        opens the main clause (or, with no "thì", before the clause break that ends the condition)."""
        if self.lang != "vi":
            return False
        opens = [c for c in CONDITION["vi"].finditer(self.text, self.start, pos)      # a condition opens its clause
                 if OPENER["vi"].match(self.text[self.clause(c.start())[0]:c.start()].lstrip(",;: "))]
        if not opens:
            return False
        then = re.compile(r"\bthì\b").search(self.text, opens[-1].end(), self.end)
        if then:
            return pos < then.start()
        return pos < self.clause(opens[-1].end())[1]

    def head(self, m: Mention, limit: int) -> bool:
        """`m` is the head of its noun phrase up to `limit` (the modal or its clause end): not in a
        prepositional phrase, not a modifier of a longer phrase (X的Y, X's Y, Văn phòng X)."""
        lang, cs = self.lang, self.clause(m.start)[0]
        before, gap = self.text[cs:m.start].lstrip(",;:，；： "), self.text[m.end:limit]
        if PREP[lang].search(self.text[max(self.start, m.start - 40):m.start].rstrip() if lang == "en"
                             else self.text[max(self.start, m.start - 4):m.start]):
            return False
        if lang == "zh" and "的" in gap.rstrip("，,；; ")[:-1]:      # X的Y: X modifies Y (a final 的 closes a topic)
            return False
        pp = re.match(r"(?:对(?!于)|向|为|与|给|将|把)", before) if lang == "zh" else None
        if pp:      # 对…的企业，应当: a clause opened by a preposition has no subject in it -- unless the phrase closes
            pe = m.start - len(before) + pp.end()       # on its object and a 的 after it ends a relative clause on
            obj = [o for o in self.mentions if pe <= o.start and o.end <= m.start and "的" not in self.text[pe:o.start]]
            if not (obj and "的" in self.text[obj[0].end:m.start]):     # the mention (与X订立合同的劳动者应当)
                return False
        prior = [o for o in self.mentions if (cs <= o.start or lang != "zh") and o.end <= m.start and o.type in ACTORS
                 and COORD[lang].match(self.text[o.end:m.start])]
        if prior and lang != "zh":      # a conjunct is a head when the one before it is ("của cơ quan, tổ chức": no)
            return self.head(prior[-1], limit)
        coordinated = bool(prior) and self.head(prior[-1], limit)
        if lang == "zh" and limit >= self.clause(m.start)[1]:      # a topic clause (X…的，应当): X opens it
            return bool(OPENER[lang].match(before)) or coordinated or (before.endswith("的") and not gap.strip("，,；; "))
        if not GAP[lang].search(gap):
            return False
        if lang == "en" and re.fullmatch(r"\s*(?!(?:also|then|therefore|thus|only|still|always|itself|themselves|alone|"
                                         r"further|accordingly|not|who|which|that|may|must|shall|will|can|is|are)\b)[a-z]+(?<!ly)\s*", gap):
            return False                # "the Client classification must": the name modifies the noun after it
        # head-initial languages: the subject opens its clause, or is coordinated with one that does
        return lang == "zh" or bool(OPENER[lang].match(before)) or coordinated

    def subjects(self, pos: int) -> tuple[list[Mention], float]:
        """The actor(s) heading the modal's clause (0.9); when that clause has no subject of its
        own, the head of an earlier clause (0.7, zh / vi drop subjects; en only after a pronoun)."""
        cs, _ = self.clause(pos)
        # (a label before a dash heads a list item -- "(ii) Licensed Partners – A PFP Applicant … must" -- it is
        # the item's topic, not a constituent of its sentence)
        cands = [m for m in self.mentions if m.type in ACTORS and m.end <= pos and not self.agent(m)
                 and not re.match(r"\s*[–—]\s", self.text[m.end:m.end + 3])]
        here = [m for m in cands if m.start >= cs and self.head(m, pos)]
        factor = 0.9
        if not here:
            if not OPENER[self.lang].match(self.text[cs:pos].lstrip(",;:，；： ")):
                return [], 0.0       # the clause has its own (non-entity) subject
            here = [m for m in cands if m.start < cs and self.head(m, self.clause(m.start)[1])]
            factor = 0.7
            if not here:
                return [], 0.0
            # zh / vi: the nearest earlier clause with a head; en "it": the opening clause's subject
            first = self.clause(here[-1 if self.lang != "en" else 0].start)
            here = [m for m in here if first[0] <= m.start < first[1]]
        chosen = here[-1] if self.lang == "zh" else here[0]
        out = [m for m in cands if m is chosen or self._joined(m, chosen)]
        for h in [m for m in out if HEAD_OF[self.lang].match(m.surface)]:   # "người đứng đầu cơ quan, tổ
            nxt = [m for m in out if m.start > h.start][:1]             # chức": the body after a comma
            if nxt and re.fullmatch(r"\s*,\s*", self.text[h.end:nxt[0].start]):   # continues the one headed
                out = [m for m in out if m is not nxt[0]]
        return sorted(out, key=lambda m: m.start), factor

    def _joined(self, a: Mention, b: Mention) -> bool:      # a and b are conjuncts of one coordination
        lo, hi = (a, b) if a.start < b.start else (b, a)
        chain = [m for m in self.mentions if lo.start <= m.start <= hi.start and m.type in ACTORS]
        return all(COORD[self.lang].match(self.text[x.end:y.start]) for x, y in zip(chain, chain[1:]))

    def objects(self, modal, skip: list[Mention]) -> list[Mention]:
        """Entities in the modal's own predicate: up to the next modal or subordinate clause; not
        the agent, not excluded (rather than / 除), not an instrument cited as legal basis, not a
        co-actor (会同), a modifier of the argument (X发放的许可证, X的Y) or a record field (…名称、地址)."""
        ids, lang = {m.entity_id for m in skip}, self.lang
        nxt = [x.start() for rx in (DUTY, PERMISSION, SUBORD) for x in rx[lang].finditer(self.text, modal.end(), self.end)
               if x.group().lower() != "được"]      # bare "được" is also the passive (được cấp)
        # an agent after the predicate (由其监督X) opens an act of its own; the subject of the next modal
        # (…，销售者应当) opens its own clause: neither is what this duty is about. 由 opens an agent phrase only
        # before its agent (a mention or 其), not in 说明…的理由，并通知X
        nxt += [x.start() for x in AGENT_MARK[lang].finditer(self.text, modal.end() + 4, self.end) if re.match(r"\s*其", self.text[
            x.end():x.end() + 3]) or any(0 <= o.start - x.end() <= 1 for o in self.mentions)] if lang == "zh" else []
        stop, out, prev = min(nxt, default=self.end), [], modal.end()
        later = [x.start() for rx in (DUTY, PERMISSION) for x in rx[lang].finditer(self.text, modal.end(), self.end)
                 if x.start() == stop and x.group().lower() != "được"]
        cs = max(self.clause(stop)[0], modal.end()) if later else stop
        if any(m.type in ACTORS and cs <= m.start < stop and self.head(m, stop) for m in self.mentions):
            stop = cs
        for m in self.mentions:
            if m.start < modal.end() or m.start >= stop:
                continue
            gap, ctx = self.text[prev:m.start], self.text[max(self.start, m.start - 40):m.start]
            prev = m.end
            if EXCLUDED[lang].search(gap) or CO_ACTOR[lang].search(ctx) or \
                    (out and out[-1] is None and COORD[lang].match(gap)):      # ... and those joined to it
                out.append(None)
                continue
            if m.entity_id in ids or self.agent(m) or (m.type == "instrument" and BASIS[lang].search(ctx)):
                continue
            if POSSESSOR[lang].search(ctx) or MODIFIER_PP[lang].search(ctx) or OWNER[lang].search(ctx) or \
                    NOT_ARGUMENT[lang].search(self.text[m.end:m.end + 12]) or self._modifier(modal, m, ctx) or \
                    (lang == "en" and not GAP["en"].search(self.text[m.end:m.end + 12])):
                out.append(None)                # a modifier of the argument, and the conjuncts joined to it
                continue
            out.append(m)
        return [m for m in out if m is not None]

    def _modifier(self, modal, m: Mention, ctx: str) -> bool:
        """Forms where `m` modifies a word of the predicate rather than being its argument. vi: a document
        after an issuing verb that is not the duty's own verb is in a relative clause on the noun before it
        (phim được cấp Giấy phép, cơ quan cấp Giấy phép). en: a phrase in parentheses is an aside; an
        approval "from / of / by X" names who approves, not what the permission is about; a preposition
        after a noun that is itself the object of a preposition attaches to that noun (apply a weight to
        any Exposure to X; the amount of the Exposure to X), and "in relation to X" is a scope adjunct."""
        pred = self.text[modal.end():m.start]
        if self.lang == "vi":
            verb = re.search(r"(?:\bđã\s+)?(?:\bđược\s+)?\bcấp\s+$", ctx)
            head = pred[:len(pred) - len(verb.group())] if verb else ""      # a noun before the verb, not a conjunction
            return bool(m.type == "document" and verb and not _VERB_GAP["vi"].match(head)
                        and not re.search(r"(?:\bvà|\bhoặc|,|\bphải)\s*$", head))
        if self.lang != "en":
            return False
        if pred.count("(") > pred.count(")"):
            return True
        if re.search(r"\b(?:upon|with|subject to|after|following|on)\s+(?:\w+\s+){0,3}(?:approval|consent|permission|"
                     r"authori[sz]ation)\b[^,;.]{0,40}\b(?:from|of|by)\s+(?:the\s+)?$", ctx):
            return True
        if re.search(r"\bin (?:relation|respect) to\s+(?:(?:the|a|an|any|all|its|their)\s+)*$", ctx):
            return True                         # a scope adjunct ("in relation to X") of the whole predicate
        # a nested phrase: preposition + determiner + a noun that names no entity + preposition + X
        nested = NESTED_PP["en"].search(ctx)
        return bool(nested) and not any(abs(o.end - (m.start - len(nested.group(2)))) <= 1 for o in self.mentions)

    @property
    def evidence(self) -> str:
        return self.text[self.start:self.end].strip()[:400]


def _conf(*parts: float) -> float:
    *confs, factor = parts
    return round(min(confs) * factor, 3)


def _passive_agent(s: _Sentence, modal) -> list[Mention]:
    """Passive duty (应当由X… / must be met by X): the agent right after the modal bears it."""
    tail = s.text[modal.end():modal.end() + 60]
    if s.lang == "en" and not re.match(r"\s+(?:not\s+)?be\s+[\w-]+\s+by\b", tail):
        return []
    return [m for m in s.mentions if m.type in ACTORS and s.agent(m) and m.start >= modal.end()
            and (s.lang == "en" or m.start - modal.end() <= 3)][:1]


def _duty(s: _Sentence, own: str) -> list[tuple]:
    modal = s.modal(DUTY)
    # en "must (not) be re-appointed by X": the passive is no modal of its subject, the agent bears the duty
    passive = [x for x in DUTY["en"].finditer(s.text, s.start, s.end) if _passive_agent(s, x)] if s.lang == "en" else []
    modal = passive[0] if passive and (not modal or passive[0].start() < modal.start()) else modal
    if not modal:
        return []
    subjects, factor = _passive_agent(s, modal), 0.9
    subjects, factor = (subjects, factor) if subjects else s.subjects(modal.start())
    out = []
    for subj in subjects:
        out.append((own, "IMPOSES_DUTY", subj.entity_id, _conf(subj.confidence, factor)))
        out += [(subj.entity_id, "HAS_DUTY", o.entity_id, _conf(subj.confidence, o.confidence, factor))
                for o in s.objects(modal, subjects)]
    return out


def _sanction(s: _Sentence) -> list[tuple]:
    """Each party is sanctioned by the agent of the penalty (由X / do X / by X) nearest before it,
    else the first one after it (the violator precedes 由X); without an agent, by an authority
    heading the penalty's clause, never by one inside the violator clause. An instrument does not
    impose penalties: with no authority named (or one named but not recognised), nothing."""
    cue = s.modal(PENALTY)
    if not cue:
        return []
    auths = [m for m in s.mentions if m.type == "authority"]
    agents = [a for a in auths if s.agent(a)]
    if not agents:
        if AGENT_MARK[s.lang].search(s.text, s.start, cue.start()):
            return []                               # the agent is named but not recognised
        cs, _ = s.clause(cue.start())
        agents = [a for a in auths if cs <= a.start and a.end <= cue.start() and s.head(a, cue.start())
                  and not VIOLATOR[s.lang].search(s.text, a.end, cue.start())]
        if not agents:
            return []
        # a subject authority sanctions the parties its penalty verb names (after the cue)
        return [(agents[-1].entity_id, "SANCTIONS", p.entity_id, _conf(agents[-1].confidence, p.confidence, 0.9))
                for p in s.mentions if p.type == "party" and p.start >= cue.end()]
    out, named = [], _violators(s, agents[0].start) if s.lang == "zh" else None
    for p in s.mentions:                # a party addressed (向X / với X / to X) is not sanctioned
        if p.type == "party" and not AUDIENCE[s.lang].search(s.text[max(s.start, p.start - 12):p.start]) and \
                (named is None or p.start >= agents[0].start or p in named):
            a = ([a for a in agents if a.end <= p.start][-1:] or [a for a in agents if a.start >= p.end][:1] or [None])[0]
            out += [(a.entity_id, "SANCTIONS", p.entity_id, _conf(a.confidence, p.confidence, 0.9))] if a else []
    return out


def _violators(s: _Sentence, limit: int) -> list[Mention]:
    """zh: the violator clause before the agent (…X违反…的，由Y处罚) names the violator as its subject:
    the first actor of the first clause that has one, with the actors joined to it (X、Y的Z和W). An
    actor after it in its clause, or in a later clause that continues its acts, is the object or a
    modifier of what it did (允许…食品经营者进入, 聘用人员, 销售…屠宰厂屠宰的产品); a clause that opens
    with a preposition is passed over when it is an adjunct before the conduct (未经X批准，Y擅自…的) and names
    no violator when it is the conduct itself (为…的单位提供…的, 对消费者造成…的: it ends in 的 before 由)."""
    for cs, ce in sorted({s.clause(m.start) for m in s.mentions if m.end <= limit}):
        actors = [m for m in s.mentions if m.type in ACTORS and cs <= m.start and m.end <= min(ce, limit)]
        if not actors:
            continue
        first = actors[0]
        if PREP["zh"].search(s.text[max(s.start, first.start - 4):first.start]) or \
                re.match(r"[，,；;：:\s]*(?:为|对(?!于)|向|与|同|给|从(?![事业])|在|将|把)", s.text[cs:first.start]):
            if s.text[cs:ce].rstrip("，,；;：: ").endswith("的") or ce >= s.clause(limit)[0]:
                return []
            continue
        out = [first]
        for m in actors[1:]:
            if not re.fullmatch(r"\s*(?:[、和与及或]|以及|或者|及其)\s*(?:其他|其它|[^，,。；;、的]{1,10}的)?\s*", s.text[out[-1].end:m.start]):
                break
            out.append(m)
        return out
    return []


def _permission(s: _Sentence) -> list[tuple]:
    """A party subject MAY what its predicate names. An authority's "may" is a power: it
    GRANTS_PERMISSION only to the party that is the direct object of the governed verb (may
    direct X / 可以责令X) or the recipient of a grant (cấp … cho X / grant … to X)."""
    modal = s.modal(PERMISSION)
    if not modal:
        return []
    subjects, factor = s.subjects(modal.start())
    out = []
    for subj in subjects:
        objs = s.objects(modal, subjects)
        if subj.type == "authority":
            first = objs[0] if objs else None
            verb = s.text[modal.end():first.start] if first else ""
            direct = _rx(r"^\s*(?:,[^,]*,\s*)?[\w-]+\s+(?:(?:the|a|an|any|each|that|such)\s+)?$" if s.lang == "en" else
                         r"^\s*[^\s向对从与给在，,的]{1,4}$" if s.lang == "zh" else r"^\s*\S+(?:\s\S+)?\s+$")
            # a verb of command after an authority's "may" ("may require / direct / order X to …") imposes a
            # requirement on its object: a power over X, not a permission granted to X
            command = s.lang == "en" and _COMMAND.match(verb)
            granted = [first] if first and first.type == "party" and direct.search(verb) and not command else []
            grant = ISSUE[s.lang].search(s.text, modal.end(), modal.end() + 12)
            if grant:
                granted += [o for o in objs if o.type == "party" and _rx(r"(?:\bcho|\bto|给|向)\s*(?:the\s+|an?\s+)?$").search(
                    s.text[max(s.start, o.start - 8):o.start]) and o not in granted]
            out += [(subj.entity_id, "GRANTS_PERMISSION", o.entity_id, _conf(subj.confidence, o.confidence, factor))
                    for o in granted]
        elif not (s.lang == "en" and _JUDGEMENT.match(s.text, modal.end())):
            out += [(subj.entity_id, "MAY", o.entity_id, _conf(subj.confidence, o.confidence, factor)) for o in objs]
            # an authority approves the party's act when named in an approval construction (经X批准)
            out += [(a.entity_id, "GRANTS_PERMISSION", subj.entity_id, _conf(a.confidence, subj.confidence, 0.7))
                    for a in s.mentions if a.type == "authority" and a.end <= modal.start() and APPROVAL[s.lang].search(
                        s.text[max(s.start, a.start - 30):min(a.end + 6, modal.start())])]
    return out


def _acts(s: _Sentence, agent: Mention, verb) -> bool:
    """Is the agent phrase that of the issuing verb? zh / vi: the verb follows it within
    AGENT_REACH characters and no clause break (由X出具; do X, Y cấp; do X quy định, cấp và quản lý
    -- not "Đơn đề nghị cấp giấy phép theo mẫu do X quy định", where the agent comes after; a verb
    further on may still be another's); en and the passive "bởi": it follows the verb (issued by X)."""
    if s.lang == "en" or re.search(r"\bbởi\s+$", s.text[max(s.start, agent.start - 8):agent.start]):
        return agent.start >= verb.end()          # issued by X / được cấp bởi X
    gap = s.text[agent.end:verb.start()]
    return agent.end <= verb.start() and len(gap) <= AGENT_REACH and not re.search(r"[;；。:：]", gap)


def _issues(s: _Sentence) -> list[tuple]:
    """The agent of the issuing verb (由X出具 / do X cấp / issued by X), else the authority whose
    clause it heads with nothing but modals / adverbs between it and the verb."""
    out, auths = [], [m for m in s.mentions if m.type == "authority"]
    docs = [m for m in s.mentions if m.type == "document"]
    for verb in ISSUE[s.lang].finditer(s.text, s.start, s.end):
        doc = ([d for d in docs if d.start >= verb.end()][:1] or [d for d in docs if d.end <= verb.start()][-1:] or [None])[0]
        actors = [a for a in auths if s.agent(a) and _acts(s, a, verb)][:1] or [
            a for a in auths if a.end <= verb.start() and _VERB_GAP[s.lang].match(s.text[a.end:verb.start()])][-1:]
        auth = actors[0] if actors else None
        if doc and auth:
            out.append((auth.entity_id, "ISSUES", doc.entity_id, _conf(auth.confidence, doc.confidence, 0.9)))
    return out


def _defines(unit: Unit, mentions: list[Mention], own: str, heading: str = "") -> list[tuple]:
    """DEFINES to the entity that is the defined term (not one nested in it), with the defining
    line as evidence; terms as link/terms keeps them (no numbers / article references), never a
    pronoun ("This means"), a conditional clause (Khi / Trường hợp) or a clause with a modal."""
    out, text = [], unit.text or ""
    for start, end in defined_spans(unit, heading):
        term = text[start:end].strip().strip("“”\"'‘’ ")
        hit = [m for m in mentions if m.start < end and m.end > start
               and min(m.end, end) - max(m.start, start) >= 0.85 * len(term)]
        if hit:
            line_start, line_end = text.rfind("\n", 0, start) + 1, text.find("\n", end)
            line = text[line_start:line_end if line_end >= 0 else len(text)].strip()[:400]
            out.append((own, "DEFINES", hit[0].entity_id, _conf(hit[0].confidence, 0.95), line))
    return out


def relations(unit: Unit, mentions: list[Mention] | None = None, titles: dict[str, str] | None = None,
              known=(), heading: str = "") -> list[Relation]:
    """The relations one unit lays down, by its role; `mentions` default to `extract(unit)`
    (pass the alias-merged ones from `extract_all` to keep ids consistent); `known` entity ids
    let the unit's own instrument take its merged id (see `extract.instrument_id`)."""
    role = role_of(unit)
    if not role:                                # structural units lay nothing down
        return []
    text = unit.text or ""
    mentions = extract(unit, heading) if mentions is None else [m for m in mentions if m.unit_id == unit.id]
    lang = unit.language[:2] if unit.language[:2] in DUTY else "en"
    own = instrument_id(unit, titles, known or {m.entity_id for m in mentions})
    found = _defines(unit, mentions, own, heading) if role == "definition" else []
    for start, end in sentence_spans(text):
        s = _Sentence(text, start, end, mentions, lang)
        if not s.mentions:
            continue
        rels = (_duty(s, own) if role in ("obligation", "prohibition") else _sanction(s) if role == "sanction"
                else _permission(s) if role == "permission" else [])
        found += [r + (s.evidence,) for r in rels + _issues(s)]
    best: dict[tuple, Relation] = {}
    for subj, type_, obj, conf, evidence in found:
        if subj != obj and ((subj, type_, obj) not in best or best[(subj, type_, obj)].confidence < conf):
            best[(subj, type_, obj)] = Relation(subj, type_, obj, unit.id, f"{unit.key}@{unit.version}", unit.key,
                                                unit.effective_from, conf, evidence)
    return list(best.values())


def relations_all(units, mentions: list[Mention] | None = None,
                  titles: dict[str, str] | None = None) -> list[Relation]:
    """Relations of many units; `mentions` as from `extract.extract_all` (else extracted here)."""
    by_unit: dict[str, list[Mention]] = {}
    for m in mentions or []:
        by_unit.setdefault(m.unit_id, []).append(m)
    known = {m.entity_id for m in mentions or []}
    by_id = {u.id: u for u in units}
    return [r for u in units for r in relations(u, by_unit.get(u.id, []) if mentions is not None else None,
                                                    titles, known, heading_of(u, by_id))]

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
from ..parse.roles import role_of
from .definitions import defined_spans, heading_of
from .extract import Mention, extract, instrument_id

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


# -- closed classes: modals, negators, prepositions, connectives ------------------------------
DUTY = {"zh": _rx(r"应当|必须|不得|禁止|严禁|须"),
        "vi": _rx(r"\bphải\b|không được|có trách nhiệm|có nghĩa vụ"),     # "(nghiêm) cấm" bans without a subject
        "en": _rx(r"\bmust\b|\bshall\b|\bmay not\b|\b(?:is|are) required to\b|\b(?:is|are) responsible for\b")}
# "can" (ability) and "có thể" (possibility) are no permission
PERMISSION = {"zh": _rx(r"可以|有权|准予"),
              "vi": _rx(r"có quyền|được phép|\bđược\b"),
              "en": _rx(r"\bmay\b(?! not)|\b(?:is|are) (?:entitled|permitted|authori[sz]ed) to\b")}
PENALTY = {"zh": _rx(r"罚款|罚金|处罚|吊销|没收|责令|处分|拘留|取消"),
           "vi": _rx(r"xử phạt|phạt tiền|phạt cảnh cáo|thu hồi|tước quyền|đình chỉ|\bbuộc\b"),
           "en": _rx(r"\bimpos|\bfines?\b|\bpenalt|\bcensure|\brevok|\bsuspend|\bwithdraw")}
ISSUE = {"zh": _rx(r"出具|核发|发给|签发|颁发|发放|换发|补发"),
         "vi": _rx(r"\bcấp(?! (?:tỉnh|huyện|xã|trung ương|cơ sở|có thẩm quyền|phát|bách|cứu)\b)"),
         "en": _rx(r"\bissu(?:e|es|ed|ing)\b|\bgrant(?:s|ed|ing)?\b")}
AGENT = {"zh": _rx(r"由\s*$"), "vi": _rx(r"\b(?:do|bởi)\s+$"), "en": _rx(r"\bby\s+(?:the\s+)?$")}
AGENT_MARK = {"zh": _rx(r"由"), "vi": _rx(r"\b(?:do|bởi)\s"), "en": _rx(r"\bby the\b")}
COORD = {"zh": _rx(r"^\s*(?:、|和|与|及其|及|以及|或者|或|，)\s*$"),
         "vi": _rx(r"^\s*(?:,|và|hoặc|, và|, hoặc)\s*$"),
         "en": _rx(r"^\s*(?:,|and|or|, and|, or)\s*(?:the\s+|an?\s+|any\s+)?$")}
# a negator right before a modal (or "not" right after an English one) cancels it
NEG = {"zh": _rx(r"[不未无毋]\s*$"), "vi": _rx(r"\b(?:không|chưa|chẳng|bị|có thể)\s*$"), "en": _rx(r"\b(?:not|never|no)\s*$")}
# "may be classified", "shall have the power to": possibility / conferral of power, not a modal of the subject
NOT_MODAL = {"zh": _rx(r"^$a"), "vi": _rx(r"^\s+(?:là|được)\b"),
             "en": _rx(r"^\s+(?:(?:also\s+|only\s+|still\s+)?be\b|have (?:the )?(?:power|right|discretion)\b|have\s+(?:been|\w+(?:ed|en))\b)")}
# a preposition (with determiners) before a mention puts it in a prepositional phrase, not the subject
PREP = {"zh": _rx(r"(?:向|对|从|与|同|给|为|在|经|按照|依照|根据|除|自|于|跟|将|把|被)$"),
        "vi": _rx(r"^$a"),
        "en": _rx(r"\b(?:of|to|for|with|in|by|from|on|under|at|about|against|between|into|within|without|than|as|"
                  r"towards?|upon|over|through|via|including|whether)\s+(?:(?:the|a|an|any|each|its|their|such|"
                  r"that|this|another|other|all|every|relevant|same|those|these|which)\s+)*$")}
# what may stand between a subject and its modal without making it a modifier
GAP = {"zh": _rx(r"^(?:$|[在对向从按依根于应也还均都和及并须必可不要将自就每另仍同立负经，,（(])|^及其"),
       "vi": _rx(r"^"), "en": _rx(r"^(?!\s*(?:['’]s\b|(?-i:[A-Z][a-z])))")}
# what may open a clause before its subject (numbering, determiners, connectives)
OPENER = {"zh": _rx(r"^[\s（()）一二三四五六七八九十\d、.]*(?:并且|并|同时|但是|但|而且|而)?\s*$"),
          "vi": _rx(r"^\s*(?:\d+\.|[a-zđ]\)|[-–•])?\s*(?:(?:các|mọi|những|mỗi|từng|tất cả|và|hoặc|nhưng|"
                    r"đồng thời|đối với|riêng|thì|khi|nếu|trường hợp|trong trường hợp|vẫn|cũng|đều|còn)\s+)*$"),
          "en": _rx(r"^\s*(?:\([a-z0-9]+\)\s*|[\d.]+\s+)?(?:(?:and|or|but|also|then|thereafter|such|every|each|any|all|no|"
                    r"the|an?|it|they|he|she|where|if|when|unless|once|after|before|while|[\w-]+['’]s)\b[\s,]*)*$")}
# the instrument cited as legal basis (theo quy định của Luật X / 依照《X》 / in accordance with X)
BASIS = {"zh": _rx(r"(?:依照|按照|根据|依据|依)《?\s*$"),
         "vi": _rx(r"\b(?:theo(?: quy định(?: của)?)?|căn cứ(?: vào)?|tại)\s+$"),
         "en": _rx(r"\b(?:accordance with|under|pursuant to|meaning of|defined in|subject to|referred to in)\s+(?:the\s+)?$")}
# an entity after "rather than / except / trừ / 除" is excluded from the relation
EXCLUDED = {"zh": _rx(r"除|而非|而不是"), "vi": _rx(r"\b(?:trừ|ngoại trừ|thay vì|không bao gồm)\b"),
            "en": _rx(r"\b(?:rather than|instead of|other than|except|excluding|apart from|save)\b")}
# a subordinate clause (condition, relative) ends the modal's predicate
SUBORD = {"zh": _rx(r"的[，,]"), "vi": _rx(r"\b(?:khi|nếu|trường hợp|trừ trường hợp)\b"),
          "en": _rx(r"\b(?:where|if|when|unless|provided that|which|who)\b")}
# a violator clause names who breaks the law, never who punishes
VIOLATOR = {"zh": _rx(r"违反|未|拒不|擅自"), "vi": _rx(r"vi phạm|không thực hiện"),
            "en": _rx(r"\bcontraven|\bbreach|\bfails? to\b|\bviolat")}
QUANTITY = re.compile(r"^[\d一二三四五六七八九十百千万两０-９]")
CLAUSE = {"zh": re.compile(r"[，,;；:：]"), "vi": re.compile(r"[,;:]|\bthì\b"), "en": re.compile(r"[,;:]")}
_BOUNDARY = re.compile(r"[。；;!?！？]|\n+|(?<=[a-z\)]\.)\s+(?=[A-Z(])")
# a possessor (của X / of the X) modifies another noun: it is not the argument
POSSESSOR = {"zh": _rx(r"^$a"), "vi": _rx(r"\bcủa\s+(?:các\s+|những\s+)?$"),
             "en": _rx(r"\bof\s+(?:(?:the|a|an|any|each|its|their|such|that|this|same|relevant)\s+)*$")}
# the head of a body: a conjunct after it continues the body it heads ("người đứng đầu cơ quan, tổ
# chức" is the head of either), not a second subject
HEAD_OF = {"zh": _rx(r"^$a"), "vi": _rx(r"^(?:người đứng đầu|thủ trưởng)\s"), "en": _rx(r"^$a")}
# a co-actor joins the subject in the act (X会同Y制定: 会同 is a coverb, 制定 the duty's verb): not
# what the duty is about. Vietnamese "phối hợp với Y" and English "cooperate with Y" are the
# duty's own verb, whose argument Y is, so only zh has the form.
CO_ACTOR = {"zh": _rx(r"会同\s*$"), "vi": _rx(r"^$a"), "en": _rx(r"^$a")}
# what follows a mention that only modifies the argument -- a possessor or the subject of a
# relative clause of a bare verb before 的 (卫生行政部门发放的卫生许可证, 农业部规定的技术规范,
# 供货者的许可证; not 责令生产者召回…的食品, 向消费者提供食品的信息: there the verb has its own
# object and the mention is the argument) -- or
# fills a record field (如实记录…购货者名称、地址; 检验合格证号): the mention is not what the duty is about
NOT_ARGUMENT = {"zh": _rx(r"^(?:[^，,。；;、：:（()）和与及或以并的][^，,。；;、：:（()）的]?)?的(?![，,])"
                         r"|^(?:有关|相关)?(?:规定|名称|地址|联系方式|姓名|住所)|^号"),
                "vi": _rx(r"^$a"), "en": _rx(r"^$a")}
# English: an entity in a phrase modifying a noun or a participle is not the duty's object: after
# "of" (the value of an Exposure, the Controlled Functions of a Licensed Partner) unless a verb
# governs the "of" (dispose of, notify X of), or after a participle with its agent or source
# ("approved by ESMA", "prescribed in the Rules", "required under X")
MODIFIER_PP = {"zh": _rx(r"^$a"), "vi": _rx(r"^$a"),
               "en": re.compile(r"(?:\b(?!(?:dispose|consist|inform|notify|advise|apprise|remind|assure|deprive|relieve|"
                                r"approve|aware|rid|think|hear|know|speak|care)\b)[\w-]+\s+of|"
                                r"\b(?!(?:proceed|exceed|succeed|need|feed|open|happen|listen|often|seen|been)\b)"
                                r"[a-z]+(?:ed|en)\s+(?:by|in|under|pursuant to))\s+"
                                r"(?:(?:the|a|an|any|each|its|their|such|that|this|these|those|all|relevant|same)\s+)*$")}
AUDIENCE = {"zh": _rx(r"[向与从为给同]\s*$"), "vi": _rx(r"\b(?:với|cho)\s+$"),
            "en": _rx(r"\b(?:to|with|from)\s+(?:the\s+|an?\s+)?$")}
APPROVAL = {"zh": _rx(r"经[^，,]*(?:批准|同意|许可|核准)"), "vi": _rx(r"(?:chấp thuận|cho phép|đồng ý|phê duyệt)\s+(?:của\s+)?"),
            "en": _rx(r"\b(?:approval|consent|permission|authori[sz]ation) of\b|\b(?:approved|permitted|authori[sz]ed) by\b")}
_VERB_GAP = {"zh": _rx(r"^(?:应当|必须|可以|须|负责|依法|及时|统一|予以|并|有权)*$"),
             "vi": _rx(r"^\s*(?:(?:phải|có trách nhiệm|có thẩm quyền|có quyền|được|sẽ)\s*)*$"),
             "en": _rx(r"^\s*(?:(?:shall|must|may|will|also|then|promptly|not)\s+)*$")}


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence, split as parse/roles.py splits them."""
    cuts = [0] + [m.end() for m in _BOUNDARY.finditer(text)] + [len(text)]
    return [(s, e) for s, e in zip(cuts, cuts[1:]) if text[s:e].strip()]


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
        """The first modal that is not negated and not a possibility / passive / power."""
        for m in cues[self.lang].finditer(self.text, self.start, self.end):
            if not NEG[self.lang].search(self.text[max(self.start, m.start() - 10):m.start()]) and \
                    not NOT_MODAL[self.lang].search(self.text[m.end():m.end() + 30]):
                return m
        return None

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
        prior = [o for o in self.mentions if (cs <= o.start or lang != "zh") and o.end <= m.start and o.type in ACTORS
                 and COORD[lang].match(self.text[o.end:m.start])]
        if prior and lang != "zh":      # a conjunct is a head when the one before it is ("của cơ quan, tổ chức": no)
            return self.head(prior[-1], limit)
        coordinated = bool(prior) and self.head(prior[-1], limit)
        if lang == "zh" and limit >= self.clause(m.start)[1]:      # a topic clause (X…的，应当): X opens it
            return bool(OPENER[lang].match(before)) or coordinated or (before.endswith("的") and not gap.strip("，,；; "))
        if not GAP[lang].search(gap):
            return False
        # head-initial languages: the subject opens its clause, or is coordinated with one that does
        return lang == "zh" or bool(OPENER[lang].match(before)) or coordinated

    def subjects(self, pos: int) -> tuple[list[Mention], float]:
        """The actor(s) heading the modal's clause (0.9); when that clause has no subject of its
        own, the head of an earlier clause (0.7, zh / vi drop subjects; en only after a pronoun)."""
        cs, _ = self.clause(pos)
        cands = [m for m in self.mentions if m.type in ACTORS and m.end <= pos and not self.agent(m)]
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
        stop, out, prev = min(nxt, default=self.end), [], modal.end()
        for m in self.mentions:
            if m.start < modal.end() or m.start >= stop:
                continue
            gap, ctx = self.text[prev:m.start], self.text[max(self.start, m.start - 40):m.start]
            prev = m.end
            if EXCLUDED[lang].search(gap) or CO_ACTOR[lang].search(ctx) or \
                    (out and out[-1] is None and COORD[lang].match(gap)):      # ... and those joined to it
                out.append(None)
                continue
            if m.entity_id in ids or self.agent(m) or (m.type == "instrument" and BASIS[lang].search(ctx)) or \
                    POSSESSOR[lang].search(ctx) or MODIFIER_PP[lang].search(ctx) or \
                    NOT_ARGUMENT[lang].search(self.text[m.end:m.end + 12]) or \
                    (lang == "en" and not GAP["en"].search(self.text[m.end:m.end + 12])):
                continue
            out.append(m)
        return [m for m in out if m is not None]

    @property
    def evidence(self) -> str:
        return self.text[self.start:self.end].strip()[:400]


def _conf(*parts: float) -> float:
    *confs, factor = parts
    return round(min(confs) * factor, 3)


def _passive_agent(s: _Sentence, modal) -> list[Mention]:
    """Passive duty (应当由X… / must be met by X): the agent right after the modal bears it."""
    tail = s.text[modal.end():modal.end() + 60]
    if s.lang == "en" and not re.match(r"\s+be\s+\w+\s+by\b", tail):
        return []
    return [m for m in s.mentions if m.type in ACTORS and s.agent(m) and m.start >= modal.end()
            and (s.lang == "en" or m.start - modal.end() <= 3)][:1]


def _duty(s: _Sentence, own: str) -> list[tuple]:
    modal = s.modal(DUTY)
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
    out = []
    for p in s.mentions:                # a party addressed (向X / với X / to X) is not sanctioned
        if p.type == "party" and not AUDIENCE[s.lang].search(s.text[max(s.start, p.start - 12):p.start]):
            a = ([a for a in agents if a.end <= p.start][-1:] or [a for a in agents if a.start >= p.end][:1] or [None])[0]
            out += [(a.entity_id, "SANCTIONS", p.entity_id, _conf(a.confidence, p.confidence, 0.9))] if a else []
    return out


_COMMAND = _rx(r"^\s*(?:,[^,]*,\s*)?(?:require|direct|order|instruct|compel|oblige|request)\b")
# "may consider / find / conclude / wish" states a judgement or a possibility, not a permission about its objects
_JUDGEMENT = _rx(r"\s+(?:consider|find|conclude|wish|think|believe|deem|determine that)\b")


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


AGENT_REACH = 40      # characters between an agent and its verb: room for a second agent or verb
                      # (read off the judged ISSUES rows: "do Bộ Văn hóa, Thể thao và Du lịch, Ủy ban
                      # nhân dân cấp tỉnh cấp" needs 27)


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
    for start, end in sentences(text):
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

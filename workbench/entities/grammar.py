"""The closed classes the relation rules read (entities/relations.py), per language: modals,
negators, prepositions, connectives, agent and approval markers, and the forms that make an entity
a modifier of the argument rather than the argument. Each is a pattern of the grammar of legal
drafting, not a list of phrases from examples; the principle of each is in its comment."""
from __future__ import annotations

import re


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
# zh 由 is the agent coverb only where it opens a phrase of its own: not a morpheme of a noun (理由, 自由,
# 事由, 缘由 -- the reason, freedom, the cause) or of a route (经由), nor the conjunction 由于 / 由此 (because, thereby)
_ZH_AGENT = r"(?<![理自事缘经])由(?![于此])"
AGENT = {"zh": _rx(_ZH_AGENT + r"\s*$"), "vi": _rx(r"\b(?:do|bởi)\s+$"), "en": _rx(r"\bby\s+(?:the\s+)?$")}
AGENT_MARK = {"zh": _rx(_ZH_AGENT), "vi": _rx(r"\b(?:do|bởi)\s"), "en": _rx(r"\bby the\b")}
COORD = {"zh": _rx(r"^\s*(?:、|和|与|及其|及|以及|或者|或|，)\s*$"),
         "vi": _rx(r"^\s*(?:,|và|hoặc|, và|, hoặc)\s*$"),
         "en": _rx(r"^\s*(?:,|and|or|, and|, or)\s*(?:the\s+|an?\s+|any\s+)?$")}
# a negator right before a modal (or "not" right after an English one) cancels it
NEG = {"zh": _rx(r"[不未无毋]\s*$"), "vi": _rx(r"\b(?:không|chưa|chẳng|bị|có thể)\s*$"), "en": _rx(r"\b(?:not|never|no)\s*$")}
# "may be classified", "shall have the power to": possibility / conferral of power, not a modal of the subject
NOT_MODAL = {"zh": _rx(r"^$a"), "vi": _rx(r"^\s+(?:là|được)\b"),
             "en": _rx(r"^\s+(?:(?:also\s+|only\s+|still\s+|not\s+)?be\b|have (?:the )?(?:power|right|discretion)\b|have\s+(?:been|\w+(?:ed|en))\b)")}
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
# vi: a conditional clause (Trường hợp / Khi / Nếu …) runs to the "thì" of its main clause
CONDITION = {"vi": _rx(r"(?:^|(?<=[\s,;(]))(?:trường hợp|trong trường hợp|khi|nếu)\b")}
# the owner of the argument, not the argument: the body a unit belongs to ("lực lượng … thuộc Bộ Công an") or
# the body whose office holder is named ("Thủ trưởng Cơ quan điều tra", "người đứng đầu cơ quan"): the
# office, not the body, is what the duty is about
OWNER = {"zh": _rx(r"^$a"), "en": _rx(r"^$a"),
         "vi": _rx(r"(?:\bthuộc|\b(?:(?:phó )?thủ trưởng|người đứng đầu|(?:phó )?chủ tịch|(?:phó )?giám đốc|(?:phó )?chánh án|"
                   r"(?:phó )?viện trưởng|(?:phó )?bộ trưởng|(?:phó )?cục trưởng|trưởng|thành viên|lãnh đạo))\s+(?:các\s+|những\s+)?$")}
_DET = r"(?:the|a|an|any|each|its|their|such|all|every|relevant|same|that|this|these|those)"
# en: preposition + determiner + a noun phrase + a second preposition before the entity: the second phrase
# modifies that noun ("to any CR Exposure to X", "of the Exposure to X"), it is no argument of the verb
NESTED_PP = {"en": re.compile(rf"\b(?:to|of|in|with|for|on|from)\s+(?:{_DET}\s+)+((?:(?!(?:and|or|to|be|{_DET})\b)"
                              rf"[\w-]+\s+){{1,3}})((?:to|with|for|from|on|in)\s+(?:{_DET}\s+)*)$", re.IGNORECASE)}
# en: a verb of command after an authority's "may" (may require / direct / order X to …) is a power over X
_COMMAND = _rx(r"^\s*(?:,[^,]*,\s*)?(?:require|direct|order|instruct|compel|oblige|request)\b")
# "may consider / find / conclude / wish" states a judgement or a possibility, not a permission about its objects
_JUDGEMENT = _rx(r"\s+(?:consider|find|conclude|wish|think|believe|deem|determine that)\b")
AGENT_REACH = 40      # characters between an agent and its verb: room for a second agent or verb
                      # (read off the judged ISSUES rows: "do Bộ Văn hóa, Thể thao và Du lịch, Ủy ban
                      # nhân dân cấp tỉnh cấp" needs 27)

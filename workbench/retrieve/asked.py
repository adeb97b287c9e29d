"""What a question asks for, whatever its type: the provision roles it asks about (a penalty, a
duty, a definition, a procedure, entry into force), in the words statutes use for each role
(parse/roles.py), and the forms that ask for a meaning, a name, the duties of a party or name a
public body. Read by the router (route.py)."""
from __future__ import annotations

import re


def has_cue(cue: str, low: str) -> bool:
    """Chinese and Vietnamese cues match anywhere; English ones as words with their endings
    ("changed", "differs"), not inside other words ("exchange", "differentiate")."""
    if not cue.isascii():
        return cue in low
    return re.search(rf"\b{re.escape(cue)}(?:s|d|ed|es|ing)?\b", low) is not None


# who imposes a penalty, asked ("处罚由谁决定", "由哪个机关具体办理", "由哪个部门处罚", "谁有权罚款", "which authority
# imposes the fine", "who can fine", "cơ quan nào có thẩm quyền xử phạt") -- a penalty word in the clause, not who
# registers, liquidates or decides a renewal ("登记由谁办理", "由谁决定是否续签")
WHO_IMPOSES = re.compile(r"(?:处罚|罚款|处分)[^，。；？]{0,6}由(?:谁|哪个[^，。；？]{0,6}|哪一?级[^，。；？]{0,6}|什么[^，。；？]{0,6})(?:来)?"
                         r"(?:具体)?(?:决定|作出|办理|实施|执行)|由(?:谁|哪个[^，。；？]{0,6}|哪一?级[^，。；？]{0,6})(?:来)?(?:负责)?"
                         r"(?:处罚|查处|罚款|处分)|谁有权(?:处罚|罚款|查处|处分)|(?:哪个|什么|哪一?级)(?:机关|部门|单位)[^，。；？]{0,6}"
                         r"(?:处罚|查处|罚款|作出处罚)|\bwho (?:imposes|decides on|issues|may impose|can impose)\b[^?.]{0,20}\b(?:penalt|fine|sanction)|"
                         r"\bwho (?:can |may )?fines?\b|\bwhich (?:authority|body|agency|regulator|court)\b[^?.]{0,30}\b(?:imposes?|issues?|decides?)\b[^?.]{0,20}"
                         r"\b(?:penalt|fine|sanction)|cơ quan nào[^?.]{0,30}xử phạt|\bai (?:có thẩm quyền )?xử phạt|thẩm quyền xử phạt",
                         re.IGNORECASE)


def asks_who_imposes(q: str) -> bool:
    """Does the question ask which body imposes a penalty (WHO_IMPOSES), not which one hears an appeal against
    it ("对…处罚决定不服，应当向谁申请复议")?"""
    low = q.lower()
    return WHO_IMPOSES.search(low) is not None and re.search(r"不服|复议|诉讼|appeal", low) is None


DEF_CUES = ("是指", "含义", "什么是", "定义", "指的是", "什么意思", "如何界定", "là gì", "được hiểu", "nghĩa là", "mean", "meaning of",
            "definition", "defined", "what is a", "what is an")
# What a question asks for, whatever its type, in the words statutes use for each provision
# role (parse/roles.py): a penalty, a duty, a definition, a procedure, entry into force.
ASKED = {
    "sanction": ("处罚", "罚款", "罚金", "罚", "吊销", "法律责任", "后果", "制裁", re.compile("承担.{0,6}责任"),
                 # holding a party to account, in the words sanctions use (parse/roles.py: 追究…责任) or its short form,
                 # within one clause; 追责 as a verb ("会怎么追责", "被追责"), not the noun ("追责问责机制")
                 re.compile("追究[^，。；？！、,;?!]{0,8}责任"),
                 re.compile("(?:被|会|将|要|能|可以|予以|依法|如何|怎么|怎样|怎么样)追责|追责(?:吗|呢|么)?[？?]"),
                 # the provision of liability named as such ("追责条款", "处罚条款", "罚则"; not a contract's "责任条款")
                 re.compile("(?:追责|处罚|罚款)条款|罚则"),
                 "penalty", "penalties", "fine", "fined", "liable", "liability", "consequence",
                 # the noun only: the verb "to sanction" approves ("a court order sanctioning a scheme")
                 re.compile(r"\bsanctions?\b"),
                 "punish", "xử phạt", "bị phạt", "phạt tiền", "phạt tù", "chế tài", "trách nhiệm pháp lý", "hình phạt",
                 # what will be done to the party asked about ("会被如何处理", "bị xử lý thế nào")
                 re.compile("(会|将|可能)(被|受到).{0,4}(什么|怎样|如何|哪些|多少)"), "bị xử lý",
                 # ... or what becomes of a party that breaks a rule ("what happens to a firm that …", "what happens
                 # if it fails to …", "the worst that can happen to"), the liability it bears ("要担什么责任";
                 # not "担保责任", "担任董事")
                 re.compile("担(什么|哪些|何种|啥)[^，。？]{0,4}责任"),
                 re.compile(r"\bwhat (happens|will happen|would happen|could happen|can happen) (to\b[^?.]{0,40}\b(that|who|which)\b|"
                            r"if\b[^?.]{0,60}\b(fail|breach|contraven|violat|refus|ignor|does not|doesn't|do not|don't|did not|"
                            r"didn't)\w*)|\b(can|could) happen to\b"),
                 # how a case is to be dealt with, asked in the last clause of a question stating facts before it
                 # ("…锁闭了安全出口，该如何处理？", "…，依当时的条例应当如何处理"): the law's answer is its consequence
                 # -- not a thing's disposal asked alone ("医疗废物应当如何处理？"), nor a public body's handling
                 # ("行政机关收到申请后，应当如何处理": its procedure) -- the body opening the question or the clause
                 re.compile("^(?![^，。；！？,;?!]{0,8}(?:机关|部门|机构|政府|委员会|法院|检察院|公安|海关|局))[\\s\\S]*"
                            "[，。；！？,;?!](?:(?!机关|部门|机构|政府|委员会|法院|检察院|公安|海关|局)[^，。；！？,;?!]){0,30}"
                            "(?:如何|怎么|怎样)处理(?:呢)?(?=[。？！?!]|$)"),
                 # ... or a person's handling asked ("文物部门能怎么处理他？", "法院会怎么处理他们"): what is done to a person
                 # who acted is the law's consequence for the act, whoever handles it (a matter or an application is
                 # handled by procedure: "怎么处理这件事", "如何处理该申请" ask none)
                 re.compile("(?:如何|怎么|怎样)(?:来)?(?:处理|处置|处分)(?:他|她|他们|她们|此人|该人|这个人|这些人|当事人)"
                            "(?![^，。；！？,;?!]{0,3}(?:的|之))"),
                 # ... the handling asked of a body after the rule broken is asked, in the same sentence or the next
                 # ("这家厂违反了什么规定，保密部门会怎么处理？", "…违反了哪项要求？主管部门可以如何处理该药店？"): what the
                 # body does to a party breaking a rule is the law's consequence for it -- not a later sentence
                 # stating other facts first ("…违反了哪些规定？申请人撤回申请的，行政机关应当如何处理？")
                 re.compile("违反.{0,3}(?:什么|哪)[^？?。！!]*?(?:[？?。！!，,；;])[^，。；！？,;?!]{0,30}(?:如何|怎么|怎样)"
                            "(?:处理|处分)[^，。；！？,;?!]{0,8}?(?:呢)?(?=[。？！?!]|$)"),
                 # who bears a loss or must compensate: the civil liability a provision imposes ("损失由谁承担",
                 # "由谁赔偿", "谁来承担损失", "要不要赔偿", "是否需要赔偿") -- not who receives or handles it
                 # ("赔偿归谁", "行政赔偿由谁受理")
                 re.compile("(?:损失|赔偿)[^，。；？]{0,6}由谁[^，。；？]{0,3}(?:承担|负担|赔|支付)|由谁(?:来)?(?:承担|负担)[^，。；？]{0,4}"
                            "(?:损失|赔偿)|由谁(?:来)?赔偿|谁(?:来|应当|应该)?(?:承担|赔偿)(?:损失|赔偿)?(?:[？?]|$)|"
                            "(?:要|会|应当|该|需要)(?:不要)?赔偿(?:吗|多少)|要不要赔偿|需不需要赔偿|是否(?:需要|应当|要)?赔偿"),
                 # who imposes it (WHO_IMPOSES: "由哪个部门查处", "谁有权罚款")
                 WHO_IMPOSES),
    # ... and asking which rule was broken asks for the duty ("违反了哪项规定", "which rule was breached")
    "obligation": ("义务", "职责", "必须", "应当履行", "obligation", "duty", "duties", "required to", "must",
                   # what a party has to do ("该怎么办", "what does a firm need to do", "what do we have to tell")
                   # -- not a time limit ("how long does it have to file …")
                   re.compile("(该|应该|应当|要)怎么(办|做)(?!理)"),
                   re.compile(r"(?:^|[.?!;](?!\d)\s*)(?!(?:[^?.!;]|\.\d)*\b(how long|within how many)\b)(?:[^?.!;]|\.\d)*"
                              r"\b(need|needs|have|has) to\b(?! do with)"),
                   "nghĩa vụ", "trách nhiệm", "phải làm", "bắt buộc", re.compile("违反.{0,3}(什么|哪)"),
                   # the requirements a provision states, asked about ("有什么要求", "有何要求", "对…停放的
                   #要求", "条例要求它怎么做", "停放要求有何变化"), not a party's request or a standard
                   # among the facts ("应客户的要求", "依法要求赔偿", "有什么权利要求退款", "未按照…的要求")
                   re.compile("(什么|哪些|(?<![如为任])何种?)[^，。？；、权人部机谁单]{0,4}要求|(?<!方)对(?!方)(?:(?!按照|依照|符合|违反|未按)[^，。？；]){1,24}的要求|"
                              "(?<!按照)(?<!按)(?<!依照)(?<!符合)(?<!违反)(本法|法律|法规|条例|办法|本条|第.{1,6}条)要求|"
                              "要求(是什么|有哪些|有何|有什么)"),
                   # whether an act is lawful or allowed: the rule that requires or forbids it answers
                   re.compile("(合法|违法|允许|这样做可以|这么做可以|合规)吗|是否(合法(?!有效)|违法(?!所得)|允许|违反(法律|规定))|"
                              "合不合法|违不违法|算不算违法"),
                   re.compile(r"\b(is|was) (it|this|that)( \w+)? (lawful|unlawful|legal|illegal|allowed|permitted)"
                              r"(?=\s*(\?|$|,|for\b|to\b|under\b))"),
                   re.compile(r"có (hợp pháp|trái pháp luật|vi phạm pháp luật)[^?]{0,40}không"),
                   re.compile(r"\b(which|what) (rule|provision|requirement|obligation)s? (\w+ ){0,3}(breach|violat)"),
                   re.compile(r"\b(breach\w*|violat\w*|contraven\w*|infring\w*|break(s|ing)?|broke|broken)\b (\w+ ){0,2}"
                              r"(rules?|laws?|requirements?|regulations?|obligations?)\b"),
                   re.compile(r"vi phạm (quy định|điều|nghĩa vụ) (nào|gì)")),
    "prohibition": ("禁止", "不得", "prohibit", "prohibition", "forbidden", "must not", "cấm", "không được"),
    "definition": DEF_CUES,
    "procedure": ("程序", "手续", "流程", "申请材料", "提交哪些", "期限", "几日内", "多少日", "procedure", "how to apply",
                  "application", "time limit", "within how many", "thủ tục", "hồ sơ", "trình tự", "thời hạn"),
    "scope": ("何时施行", "施行日期", "何时起施行", "适用范围", "commencement", "come into force", "comes into force",
              "phạm vi điều chỉnh", "đối tượng áp dụng", "có hiệu lực từ"),
}


# Words naming a public body (head nouns of authorities' names, 由谁 / who, abbreviated commissions):
# a question naming one may be about a renaming a revision made throughout ("负责…管理的部门有何变化").
# Erring towards "yes" only keeps renamed articles as candidates, as before this flag existed.
BODY = re.compile(r"部门(?!规章)|机关|机构|委员会|人民政府|国务院|海关|(?<![结格布赌])局(?!面|势|限|部|域)|由谁|"
                  r"[监发卫健]委|监会|"
                  r"\b(authority|authorities|regulators?|ministry|minister|commission(er)?|registrar|agency|department|"
                  r"council|who)\b|which body|cơ quan|[uủ]y ban|ubnd|bộ trưởng|chính phủ|(?-i:\b(Bộ|Sở) [A-ZĐ])", re.I)


# asking the duties *of* a party ("Trách nhiệm của Bộ Y tế … là gì", "经营者的义务是什么", "the duties of
# the Regulator") asks what a provision requires of it, not what a word means -- unless a meaning is
# asked outright (MEANING: "Nghĩa vụ của người lao động được hiểu là gì")
DUTY_OF = re.compile(r"(trách nhiệm|nghĩa vụ|nhiệm vụ) của|的(义务|职责)(是什么|有哪些)|"
                     r"\b(duties|obligations|responsibilities) of\b")
MEANING = re.compile(r"được hiểu là|nghĩa là|是指|含义|什么意思|如何界定|what is meant by|\bmeaning\b")
# a question describing a concept and asking its name ("Tài sản mà chủ sở hữu đã từ bỏ … được gọi là gì?",
# "…叫什么", "what is … called"): the answer is the term the description defines
NAME_ASKED = re.compile(r"(?:được )?gọi là gì|(?:叫|称为|称作)(?:做)?什么|\bwhat (?:is|are) (?:this|it|that|these|such|the|a|an)\b[^?.]{0,40}\bcalled\b|"
                        r"\bwhat (?:is|are) the (?:term|name)s? (?:for|given to)\b", re.I)


# A penalty among the facts, not asked: one already imposed or paid ("已被罚款", "被罚款了", "被罚款2万元", "已被追究刑事责任",
# "罚款已经交了", "已缴纳罚款", "was fined", "paid a financial penalty", "đã bị xử phạt"), or the decision
# imposing it as a document whose contents or service is asked ("处罚决定书应当载明哪些事项", "Quyết định xử
# phạt … phải ghi") -- not a penalty still to come ("会被罚款，具体多少", "the risk of being fined")
FACT_PENALTY = re.compile(r"(已经?|曾经?)被((处以)?(罚款|处罚|罚)|追究[^，。；？]{0,8}责任|追责)|被(处以)?(罚款|处罚|罚)(了|过|\d)|(罚款|罚金)(已经?)?(缴|交)(清|完|纳)?了|"
                          r"已经?(缴|交)(纳|清)?了?(罚款|罚金)|(缴|交)(纳|清)?了(罚款|罚金)|(行政)?(处罚|罚款)决定书?|"
                          # ... or told as the cause of what is asked ("公司因为超限运输被罚款，…现在想办理…"), or paid
                          # (paying a fine is the procedure of its execution: "多少天内必须把罚款缴清", "缴纳罚款的期限")
                          # -- not one still to come or left unpaid ("因为超载会被罚款多少", "逾期不缴纳罚款会怎样")
                          r"因(?:为)?[^，。；？会将要可能]{1,12}被(处以)?(罚款|处罚|罚)(?=[了过，,])|(?<![不未没])把(罚款|罚金)(缴|交)(清|纳|上)|"
                          r"(?<![不未没期时])(缴纳|缴清|交清)(罚款|罚金)|"
                          r"\b(was|were|has been|have been|had been|got) fined\b|"
                          r"\bpaid (a|the|its|their|his|her|our)( \w+)? (fine|penalty)\b|"
                          r"đã (bị )?(xử phạt|phạt|nộp phạt)|quyết định xử phạt|"
                          # ... or a penalty appealed against: the question is about the remedy ("对一张200元的交通罚款申请
                          # 行政复议", "不服罚款", "appeal against the fine")
                          r"对[^，。；？]{0,12}(罚款|处罚|罚单)[^，。；？]{0,4}(不服|申请(行政)?复议|提起(行政)?诉讼)|不服[^，。；？]{0,12}(罚款|处罚)|"
                          r"\b(appeal|appealing|appealed|challenge|challenging|challenged) (against )?(a|the|its|his|her|their)( \w+)? "
                          r"(fine|penalty)\b")
# bearing a liability ("chịu trách nhiệm gì") asks no duty ("có trách nhiệm", "trách nhiệm" alone); read as a
# sanction asked it sent a criminal-law question to a civil code's damages (ALQAC tuning part), so it asks neither
BEAR = re.compile("chịu trách nhiệm (gì|nào|như thế nào|ra sao)")


def asked_roles(q: str) -> tuple[str, ...]:
    """The provision roles a question asks for ("应当怎样处罚" a sanction, "có nghĩa vụ gì" a
    duty), in the order of parse.roles.ROLES."""
    # who imposes a penalty is asked even where its decision reads as a document among the facts
    # ("处罚决定应当由哪个机关作出": FACT_PENALTY would erase the decision before the question is read)
    who = asks_who_imposes(q)
    low = FACT_PENALTY.sub(" ", q.lower())
    low = BEAR.sub(lambda m: m.group(0).replace("trách nhiệm", "[borne]"), low)
    for cue in ASKED["prohibition"]:          # "must not" asks a prohibition, not also a "must"
        low = re.sub(rf"\b{re.escape(cue)}(?:s|d|ed|es|ing)?\b" if cue.isascii() else re.escape(cue), "  [prohibition]  ", low)
    out = ["prohibition"] if "[prohibition]" in low else []
    for name, cues in ASKED.items():
        if name == "sanction" and who:
            out.append(name)
        elif name != "prohibition" and any(c.search(low) if isinstance(c, re.Pattern) else has_cue(c, low) for c in cues):
            out.append(name)
    from ..parse.roles import ROLES
    return tuple(sorted(out, key=ROLES.index))


# A question asking how long ("多长时间内", "多久", "几日内", "多少个工作日", "期限是多少"): its answer states a period.
# Chinese only: the period forms of Vietnamese and English texts were not measured. "期限" alone is a noun among
# the facts as often ("到了判决规定的期限"), and "几天前", "近几年", "判了几年" tell the facts, so only asking forms count.
_HOW_MANY = r"(?<![近这了])(?:几|多少)个?(?:工作日|日|天|小时|周|月|年)(?!前|来|以来|后|级|度|份|龄|纪)"
ASKS_PERIOD = re.compile(r"多长时间|多长的?期限|多久|" + _HOW_MANY + r"|(?:期限|时限|有效期)(?:是|为|有)?(?:多长|多少|几|什么)|"
                         r"什么期限|(?:哪个|什么)时限")
# a period a provision states: a number of days, months or years ("三十日内", "六个月", "5个工作日"), or a rhythm
# ("每年") -- not a date ("2021年1月1日起施行", "二〇二一年") or an ordinal day ("第三十日"): those are removed first
_NUM = "[零〇一二三四五六七八九十百两\\d]"
# (a year is four digits, "2021年" or "二〇二一年"; "二十年" is a period)
DATES = re.compile(rf"(?:\d{{4}}|[〇零一二三四五六七八九]{{4}})年(?:{_NUM}{{1,2}}月(?:{_NUM}{{1,3}}日)?)?|"
                   rf"{_NUM}{{1,2}}月{_NUM}{{1,3}}日|第{_NUM}+(?:日|天|个?月|年)")
STATES_PERIOD = re.compile(rf"{_NUM}+\s*个?(?:工作日|日|天|月|年|小时|周)(?![份度])|每(?:年|季度|半年|月)")


def states_period(text: str) -> bool:
    """Does a provision's text state a period (STATES_PERIOD, its dates and ordinal days removed)?"""
    return STATES_PERIOD.search(DATES.sub(" ", text or "")) is not None

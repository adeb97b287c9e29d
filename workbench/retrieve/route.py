"""Question routing: what kind of question, which date, which articles, instruments, versions.

Cues are multilingual (zh / vi / en). The result is plain data; the retrieval policy of
each question type lives in `policies.toml`, and a caller can override the type.
"""
from __future__ import annotations

import datetime as dt
import re
import tomllib
from dataclasses import fields, dataclass, field
from functools import lru_cache
from pathlib import Path

from ..parse.dates import RE_ZH_DATE as RE_ZH_DATE_ANY
from ..parse.numerals import CN_NUM, cn_to_int
from ..store.tokenize import ZH_WH     # the Chinese wh-words (何 only as a question word, not 任何)
from .asked import ASKED, BODY, DEF_CUES, DUTY_OF, MEANING, NAME_ASKED, asked_roles, has_cue as _cue  # noqa: F401
from .question_dates import (BEFORE_DATE, MONTHS, RE_EN_DATE, RE_ISO, RE_VI_DATE, RE_VI_LONG_DATE,  # noqa: F401
                             RE_VI_MONTH, RE_YMD, RE_ZH_MONTH, question_date)

TYPES = ("precise", "version_diff", "reasoning", "temporal", "definition")
POLICIES = Path(__file__).with_name("policies.toml")

RE_ZH_ART = re.compile(rf"第([{CN_NUM}]+)条(?:之([{CN_NUM}]+))?")
RE_VI_ART = re.compile(r"Điều\s+(\d+)", re.IGNORECASE)
RE_EN_ART = re.compile(r"\b(?:Article|Art\.|Section|Rule|Regulation)\s+(\d+(?:\.\d+)*[A-Z]?)", re.IGNORECASE)
RE_YEAR_VERSION = re.compile(r"(?<!\d)((?:19|20)\d{2})\s*年\s*(?:(?:修订|修正|修改)(?!案)\s*(?:版本?|本)?|版(?![权画])本?)")
RE_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?:\s*年)?(?!\d)")
DIFF_CUES = ("修改", "修订", "修正", "变化", "变更", "区别", "不同", "差异", "有何差别", "有什么差别", "有哪些差别",
             "差别在", "调整", "改动", "有何变动", "有什么变动", "有哪些变动", "异同", "改为", "新增", "删除",
             "sửa đổi", "bổ sung", "khác nhau", "khác biệt", "khác gì", "thay đổi", "changed", "change", "amended", "amendment",
             "differ", "difference", "compare", "comparison", "revised", "what changed")
# an article's counterpart in another version ("the 2018 counterpart of Article 15 of the 2012 Act", "which article …
# corresponds to Article 15"): a comparison, with two years (not "bị phạt tương ứng", "the corresponding fine")
COUNTERPART = re.compile(r"\bcounterparts?\b|\bcorrespond(?:s|ing)? to (?:article|section|rule|regulation)\b|"
                         r"tương ứng (?:với )?điều\b", re.IGNORECASE)
TIME_CUES = ("适用", "有效", "施行", "生效", "当时", "期间", "之前", "以前", "那时",
             "hiệu lực", "áp dụng", "in force", "applied", "apply", "applicable", "valid on", "at the time")
# a comparison asked about (not "不同品牌", different brands): a version difference even
# without two years named
COMPARE_CUES = ("变化", "区别", "差异", "改动", "有何不同", "有什么不同", "有哪些不同", "不同之处", "相比",
                "有何差别", "有什么差别", "有哪些差别", "差别在", "有何变动", "有什么变动", "有哪些变动", "异同",
                "changed", "differ", "khác nhau", "khác gì", "khác biệt", "điểm khác")
# an amendment asked about, made (了), its wh-word before the change or on it ("2016年修订时对哪些条文作了修改",
# "对罚则作了什么调整", "新增了哪些条文"; not "作了修改后的第五条规定了什么", nor a power to adjust:
# "国务院可以对哪些事项作出调整"): a comparison of that revision with the
# one before, with one year named
_CHANGE_NOUN = r"[^，。；？！,;?]{0,6}?(?:修改|修订|修正|调整|变更|改动)"
ASKED_CHANGE = re.compile(rf"(?:哪|什么|何种)[^，。；？！,;?]{{0,12}}?(?:作|做)出?了{_CHANGE_NOUN}|"
                          rf"(?:作|做)出?了(?:哪些|什么|何种|哪几)[^，。；？！,;?]{{0,4}}?{_CHANGE_NOUN}|"
                          r"(?:新增|增加|增设|删除|删去|删掉|取消)了(?:哪些|什么|哪几)|新增(?:哪些|什么|哪几)")
# the change asked as the verb ("改了什么", "修改了哪些内容"), as what there is ("有哪些修改"), "what did the
# … amendment change", "what was changed", "sửa đổi, bổ sung những nội dung nào" -- a comparison only
# with a version named as such (VERSION_NAMED): "公司修改了哪些章程条款" or "2020年某市调整了哪些收费标准"
# ask about no revision of a law
CHANGE_VERB = re.compile(r"(?:修改|修订|修正|改动|调整|变更|更改|(?<![篡涂窜])改)了(?:哪些|什么|哪几|何)|"
                         r"有了?(?:哪些|什么|哪几[处项条]?)(?:主要|重要|重大)?(?:修改|修订|修正|改动|调整|变更)|"
                         r"\bwhat did\b[^?.;]{0,60}?\b(?:amendment|revision|amending)\b[^?.;]{0,60}?\bchange\b|"
                         r"\bwhat (?:changes|amendments) (?:did|were made)\b|\bwhat (?:was|were) (?:changed|amended)\b|"
                         r"\bhow (?:did|has|have|was|were)\b[^?.;]{0,80}?\bchange[ds]?\b|"
                         r"sửa đổi(?:, bổ sung)? (?:những )?(?:gì|nội dung nào|điểm nào|điều nào)|"
                         r"thay đổi (?:như thế nào|ra sao|gì)", re.IGNORECASE)
# a version named as such: "2016年修订", "2008年版" (RE_YEAR_VERSION, below), "the 2015 amendment", "the
# revision of 2018", "sửa đổi năm 2019" -- not a year alone, which may date the facts
VERSION_NAMED = re.compile(r"\b(?:19|20)\d{2}\s+(?:amendment|revision|amending|version)\b|"
                           r"\b(?:amendment|revision|version)s?\s+(?:of|in)\s+(?:19|20)\d{2}\b|"
                           r"(?:sửa đổi|phiên bản)[^.?!;]{0,30}?năm\s*(?:19|20)\d{2}|năm\s*(?:19|20)\d{2}[^.?!;]{0,10}?sửa đổi",
                           re.IGNORECASE)
# an English version named by its year as the law stood, for the topic to leave out ("as amended in 2018",
# "as in force in 2015"; "the 2018 revision" stays: it may be what is asked about)
VERSION_EN = re.compile(r"\bas (?:amended|revised|in force|it stood|enacted)(?: (?:in|on|at))? (?:the )?(?:19|20)\d{2}\b",
                        re.IGNORECASE)
# a revision named at all: a year, a version or a revising word ("修订", "版", "amended"); a change asked
# about without one ("公司对哪些员工作了调整") is no comparison of versions; a revising word alone ("董事会对章程
# 作了哪些修改") needs a law as what was revised (LAW_REVISED: a year or a version, else a law written just before
# the revising word -- "该条例修订时", "食品安全法修订", "本法修正" -- or after 对: "对《…》作了哪些修改")
_LAW_ZH = r"(?:《[^》]+》|条例|细则|法规|(?:本|该|此|新|旧|原)法|[\u4e00-\u9fff]{2,}法)"
LAW_REVISED = re.compile(rf"(?:19|20)\d{{2}}|版|{_LAW_ZH}的?(?:修订|修正|修改)|对《")
# ... or a rule named by its kind alone (办法, 规定: a company has these too, so only where the context says
# it is what was revised or asked about)
_RULE_ZH = rf"(?:{_LAW_ZH}|办法|规定)"
REVISION = re.compile(r"(?:19|20)\d{2}|修订|修正|修改|版|\b(?:version|revision|revised|amend\w*)\b|sửa đổi|phiên bản",
                      re.IGNORECASE)
# which provisions a revision added or removed, as provisions ("新增了哪些条文", "删除了哪几条", "which
# sections were added"), not content added inside one ("在罚款上增加了哪些规定")
_PROVISION = r"(?:条文|条款|条(?![件例])|章(?!程))"     # not 条件, 条例, 章程
ADDED = re.compile(rf"(?:新增|增加|增设)了?(?:哪些|哪几|什么)(?:新的?)?{_PROVISION}|"
                   r"\b(?:which|what) (?:new )?(?:articles|sections|rules|provisions) (?:were|have been) (?:added|inserted)\b|"
                   r"(?:điều|khoản) nào (?:được|đã được) bổ sung", re.IGNORECASE)
REMOVED = re.compile(rf"(?:删除|删去|删掉|取消|废止)了?(?:哪些|哪几|什么){_PROVISION}|"
                     r"\b(?:which|what) (?:articles|sections|rules|provisions) (?:were|have been) (?:deleted|removed|repealed)\b|"
                     r"(?:điều|khoản) nào (?:bị|đã bị) (?:bãi bỏ|xóa bỏ|loại bỏ)", re.IGNORECASE)


def asked_provisions(q: str) -> str:
    """"added" / "removed" when the question asks which provisions a revision added / removed."""
    return "added" if ADDED.search(q) else "removed" if REMOVED.search(q) else ""


# the history of a provision through every revision, not one comparison (general words for a
# history; none of the question generator's template wording)
HISTORY_CUES = ("沿革", "历次", "演变", "变迁", "history", "over time", "evolution", "lịch sử", "quá trình sửa đổi")
# ... or the versions quantified over ("在各个版本中", "三个版本里", "in every version", "qua các phiên
# bản"), or the revisions a provision went through ("经历了哪些修改", a revision named: REVISION);
# two versions are a comparison
ALL_VERSIONS = re.compile(r"(?:各|每|所有|全部)个?版本|[三四五六七八九十]个版本|\b(?:every|each) version\b|"
                          r"\b(?:across|in|through) all (?:the )?(?:\w+ )?versions\b|"
                          r"\ball (?:the )?(?:\w+ )?versions of (?:the |this |that )?(?:act|law|code|regulation|rule|"
                          r"article|section|provision)|(?:các|mọi|tất cả các) phiên bản", re.IGNORECASE)
WENT_THROUGH = re.compile(r"经历了?(?:哪些|几次|多少次|什么)[^，。？]{0,4}?(?:变化|修改|修订|修正|调整)")
# ... or when it changed: the revisions are the answer ("第十条是什么时候修改的", "《条例》哪一年修订时提高了罚款",
# "哪一次修订提高了罚款", "这项规定是哪一年加入的",
# "When was section 8 of the Act amended?", "which revision raised the fine", "Điều 8 Luật … được sửa đổi khi
# nào") -- the law or the article being what changed, not what a party changes ("公司什么时候需要修改章程",
# "When did the tenant change the locks under the Housing Act?")
_PROVISION_EN = r"(?:article|section|rule|regulation|act|law|code|decree|circular|ordinance|provision)s?"
WHEN_CHANGED = re.compile(
    rf"(?:第[^条，。？；]{{1,8}}条|{_RULE_ZH}|》)[^，。？；]{{0,8}}?(?:是|在|于)?(?:什么时候|何时|哪一?年|哪个版本)"
    r"(?:被)?(?:修改|修订|修正)|"
    rf"(?:{_RULE_ZH}|》|条)[^。]{{0,40}}?(?:在|是)哪一?版(?:本)?(?:中|里)?(?:被)?(?:修改|修订|修正)|"
    # "哪一次修订提高了…罚款", "哪一年的修正删除了…" (the revision asked by what it did, as "which revision raised");
    # "这项规定是哪一年加入的", "…条款在哪次修订中被删除" (when a provision came in or went out)
    r"(?<!章程)(?<!合同)(?<!协议)(?:哪一?次|哪一?年的?|哪个版本的?)(?:修订|修正)(?:中|时)?(?:提高|降低|增加|减少|删除|删去|"
    r"取消|修改|改变|调整|新增|加入|引入|写入|放宽|加重|改为)|"
    r"(?<!章程)(?<!合同)(?<!协议)(?:规定|条文|条款)[^，。？；]{0,10}?(?:是|在|于)?(?:哪一?年|哪一?次修(?:订|正)|哪个版本)(?:中|时)?(?:被)?"
    r"(?:加入|新增|写入|增设|增补|删除|删去)|"
    rf"\b(?:when|in (?:which|what) year) (?:was|were|did|has|have)\b[^?.;]{{0,60}}?\b{_PROVISION_EN}\b[^?.;]{{0,40}}?"
    r"\b(?:amended|changed|revised|change|amend|revise)\b|"
    r"\b(?:which|what) (?:amendment|revision)s? (?:changed|amended|introduced|inserted|raised|increased|reduced|lowered)\b|"
    r"\b(?:in|by) (?:which|what) (?:amendment|revision)s?\b|\b(?:in|by) (?:which|what) versions? of (?:the |this )?"
    r"(?:act|law|code|regulations?|rules|decree|circular|ordinance)\b|"
    rf"\b(?:has|have)\b[^?.;]{{0,60}}?\b{_PROVISION_EN}\b[^?.;]{{0,40}}?\bever been (?:amended|changed|revised)\b|"
    rf"\b{_PROVISION_EN}\b[^?.;]{{0,30}}?\b(?:has|have) (?:it |they )?ever been (?:amended|changed|revised)\b|"
    r"(?:điều \d+|luật|nghị định|thông tư)[^?.;]{0,40}?(?:được |đã được )?sửa đổi (?:vào )?(?:khi nào|năm nào|lúc nào)",
    re.IGNORECASE)
# the version in force now, named without its year ("现行《反垄断法》", "the current Rules")
CURRENT_CUES = ("现行", "现在施行", "目前施行", "hiện hành", "current version", "currently in force", "as now in force")
# ... or by a word for now before the version, the rules or an instrument's kind ("现在的版本", "目前有效的规定",
# "当前的解释"), or as the latest version ("最新版本") -- not a verb ending in 现 before 在 ("体现在的规定"), nor a
# word for now before a law's standing or a way of doing ("我现在的法律地位", "目前的解决方法")
CURRENT_NOW = re.compile(r"(?<![体表出实发呈])(?:现在|目前|当前|如今)(?:施行|实行|有效|适用|生效)?的"
                         r"(?:版本|规定|条文|条例|解释|细则|《[^》]+》)|最新(?:的)?版本|最新版")
# a yes-no question, by its grammar: the Chinese A-not-A (有没有, …了没有) and 是否 / 有无 / 吗, an
# English question opening with an auxiliary (after a leading phrase) or asking "whether", the
# Vietnamese "có … không" / "… chưa" closing it. A clause is a content question instead when a
# wh-word asks it: in Chinese anywhere but before a closing 吗 ("有什么变化吗" asks whether there is
# any); in English before the auxiliary ("what did … change"), not inside what follows it ("did
# the 2021 version change who may apply"); in Vietnamese not before a closing "không" ("có gì mới
# không" asks whether there is anything).
_AUX = r"(?:did|does|do|has|have|had|is|are|was|were|can|could|will|would|may|might|should|must)"
POLAR_ZH = re.compile(r"有没有|了没有|没有\s*$|有无|是否|是不是|吗\s*$")
POLAR_EN = re.compile(rf"^(?:[^,]*,\s*)?{_AUX}\b|\bwhether\b", re.IGNORECASE)
POLAR_VI = re.compile(r"\bcó\b.*\bkhông\s*$|\bchưa\s*$|hay không\s*$", re.IGNORECASE)
WH_EN = re.compile(r"\b(?:what|which|how|who|whom|when|where|why)\b", re.IGNORECASE)


def polar(q: str) -> bool:
    """Does the question ask, in one of its sentences, whether something is so?"""
    for c in (c.strip() for c in re.split(r"[？?。！!；;\n]", q)):
        if not c:
            continue
        if POLAR_ZH.search(c) and (re.search(r"吗\s*$", c) or not ZH_WH.search(c)):
            return True
        en = POLAR_EN.search(c)
        if en and not WH_EN.search(c[:en.start()]):
            return True
        if POLAR_VI.search(c):
            return True
    return False


@dataclass(frozen=True)
class Route:
    type: str
    as_of: dt.date | None = None
    articles: tuple[tuple[int, str], ...] = ()   # (article_no, label) named in the question
    years: tuple[int, ...] = ()                  # version years named in the question
    cues: tuple[str, ...] = field(default=())
    article_years: tuple[int | None, ...] = ()   # the year written just before each named article
    sanction: bool = False                       # the question asks about a penalty or liability
    history: bool = False                        # ... about a provision's history through every revision
    asks: tuple[str, ...] = ()                   # provision roles asked for (asked_roles)
    current: bool = False                        # names the version in force now ("现行", "hiện hành")
    polar: bool = False                          # a yes-no question ("有无变化", "whether it changed")
    body: bool = False                           # names a public body ("部门", "authority", "cơ quan")
    provisions: str = ""                         # asks which provisions a revision "added" / "removed" / "changed"
    before: tuple[int, ...] = ()                 # revision years it asks about the time before ("2022年修正前")
    previous: bool = False                       # names the version before the current one ("修订前", "previous")

    @property
    def asks_duty(self) -> bool:
        """Does it ask for the rule broken (a duty or a prohibition), besides anything else?"""
        return bool({"obligation", "prohibition"} & set(self.asks))


# a revision the question asks about the time before: "2022年修正前", "before the 2018 amendment", "trước khi
# sửa đổi năm 2018" -- the version before that one
BEFORE_REVISION = re.compile(r"((?:19|20)\d{2})\s*年\s*(?:修订|修正|修改)(?:施行)?(?:之|以)?前(?!后)|"
                             r"\b(?:before|prior to) (?:the |its )?((?:19|20)\d{2}) (?:amendments?|revisions?)\b"
                             r"(?!\s+(?:of|to)\s+(?!(?:the\s+)?(?:(?-i:[A-Z])|(?:act|law|code|regulations?|rules|decree|"
                             r"circular|ordinance)\b)))|"
                             r"trước (?:khi |lần )?(?:được )?sửa đổi(?:, bổ sung)? (?:năm )?((?:19|20)\d{2})", re.IGNORECASE)
# the time between two revisions ("2011年修订后、2016年修订前", "after the 2011 amendment and before the 2016
# amendment"): the one version in force then, no comparison (scope reads it as the version before the later one)
BETWEEN_REVISIONS = re.compile(r"(?:19|20)\d{2}\s*年\s*(?:修订|修正|修改)(?:施行)?(?:之|以)?后[^。？?]{0,3}?"
                               r"(?:19|20)\d{2}\s*年\s*(?:修订|修正|修改)(?:施行)?(?:之|以)?前(?!后)|"
                               r"\bafter the (?:19|20)\d{2} (?:amendment|revision)s?(?: (?:of|to) [^,;?]{1,60}?)?,? (?:and|but) "
                               r"before the (?:19|20)\d{2} (?:amendment|revision)s?\b", re.IGNORECASE)
# ... or the version before the current one, named without a year ("修订前的条例", "《条例》最近一次修订前",
# "旧版", "the previous version", "before its latest amendment", "phiên bản trước") -- a law's revision, not a
# company's ("章程修改前", "a prior act of operating", "trước khi sửa đổi điều lệ"); "新旧条例", "the old and
# new Act" compare the two (PREVIOUS_AND_NOW; not 新老股东)
PREVIOUS = re.compile(rf"{_RULE_ZH}(?:最近一次|上一次|上次|本次)?(?:修订|修正|修改)(?:施行)?(?:之|以)?前(?!后)|"
                      r"(?<![\d年])(?:最近一次|上一次|上次|本次)?(?:修订|修正|修改)(?:施行)?(?:之|以)?前的?(?:《|版本|文本|"
                      r"[\u4e00-\u9fff]{0,12}?(?:条例|办法|规定|法)(?![\u4e00-\u9fff]))|"
                      r"最近一次(?:修订|修正|修改)(?:之|以)?前|旧版|上一版|原版本|"
                      r"\b(?:the|its) (?:previous|former|prior|earlier|superseded) version\b|"
                      r"(?-i:\b(?:previous|former|prior|superseded) (?:Act|Law|Regulations|Rules|Code)\b)|"
                      r"\bbefore (?:the|its) (?:latest|last|most recent) (?:amendment|revision)\b|"
                      r"\bprior to its (?:latest |last |most recent )?(?:amendment|revision)\b(?! (?:of|to)\b)|"
                      r"\bbefore the (?:act|law|regulations?|rules|decree|circular|ordinance) was (?:last )?(?:amended|revised)\b|"
                      r"phiên bản trước|"
                      r"(?:luật|nghị định|thông tư)[^?.;]{0,40}?trước khi (?:được )?sửa đổi", re.IGNORECASE)
# a party's own instrument -- a contract, an agreement, a charter, a company's rules -- is revised too; a question
# naming one and no law asks about its versions, not the law's ("合同最近一次修改前", "公司的考勤规定是哪一年新增的",
# "before its last amendment, what rent did the tenancy agreement set?")
PARTY_RULES = re.compile(r"合同|协议|章程|契约|合约|(?:公司|单位|企业|学校|医院|小区)的[\u4e00-\u9fff]{0,6}?(?:规定|制度|规章)|"
                         r"\b(?:agreements?|contracts?|leases?|tenancy|by-?laws|articles of association|(?:company|house|club) "
                         r"(?:policy|policies|rules))\b|hợp đồng|điều lệ|nội quy|quy chế", re.IGNORECASE)
# a law named: its title or kind (not a word ending in 法: 方法, 合法, 法定代表人, 管辖法院), an article of it, a code
LAW_NAMED = re.compile(r"《[^》]+》|条例|细则|法规|民法典|(?:本|该|此|新|旧|原)法|第[^条，。？；]{1,8}条|"
                       r"[\u4e00-\u9fff]{2,}(?<![方办合违依非无算手做说写用])法(?![院定人律官庭医子])|"
                       r"(?-i:\b(?:Act|Law|Code|Regulations?|Rules|Decree|Circular|Ordinance|Rulebook|Statute)\b)|"
                       r"\b(?:the law|statute|ordinance|(?:section|article|regulation|rule)\s+\d+)\b|"
                       r"\bluật\b(?! sư)|nghị định|thông tư|\bđiều \d+", re.IGNORECASE)


def party_only(q: str) -> bool:
    """Does the question name a party's own instrument (a contract, a charter, a company's rules) and no law?"""
    return PARTY_RULES.search(q) is not None and LAW_NAMED.search(q) is None


PREVIOUS_AND_NOW = re.compile(rf"新旧(?:两版|版本|{_LAW_ZH}|办法)|(?:old and new|new and old) (?:versions?\b|(?-i:[A-Z]))|"
                              r"(?:luật|nghị định|thông tư|quy định) cũ và mới", re.IGNORECASE)


def article_refs(q: str) -> list[tuple[int, str]]:
    return list(dict.fromkeys(ref for ref, _, _ in article_matches(q)))


def article_matches(q: str) -> list[tuple[tuple[int, str], int, int]]:
    """(article_no, label), start, end of each article the question names."""
    out = []
    for m in RE_ZH_ART.finditer(q):
        n = cn_to_int(m.group(1))
        out.append(((n, f"{n}-{cn_to_int(m.group(2))}" if m.group(2) else str(n)), m.start(), m.end()))
    for rx in (RE_VI_ART, RE_EN_ART):
        for m in rx.finditer(q):
            label = m.group(1)
            out.append(((int(re.match(r"\d+", label).group(0)), label), m.start(), m.end()))
    return out


_PHRASE_END = re.compile(r"[，。；,;?？!！]|与|和|\band\b|compared|\bvà\b|so với")


def article_years(q: str) -> list[int | None]:
    """For each named article, the version year written with it in the same phrase — before
    it ("2021年生猪屠宰管理条例第十一条" -> 2021), or, for English and Vietnamese, after it
    ("Article 16 of the Clinic Licensing Act 2018", "Điều 5 Luật Dược năm 2016") — so the
    article number is read in that version. Dates are not version years ("2016年3月1日第十六条", "Article 8 as
    in force on 1 March 2016")."""
    masked = q
    for rx in (RE_ZH_DATE_ANY, RE_ISO, RE_VI_DATE, RE_VI_LONG_DATE, RE_VI_MONTH, RE_YMD, RE_EN_DATE, RE_ZH_MONTH):
        masked = rx.sub(lambda m: " " * len(m.group(0)), masked)
    seen, out = set(), []
    for ref, start, end in article_matches(masked):
        if ref in seen:
            continue
        seen.add(ref)
        before = RE_YEAR.findall(_PHRASE_END.split(masked[:start])[-1])
        after = RE_YEAR.findall(_PHRASE_END.split(masked[end:])[0]) if masked[start] != "第" else []
        # "the 2021 counterpart of Article 26 of the 2008 Regulation": the "of" phrase after it names its version
        owner = re.match(r"\s*(?:of|của)\s+(?:the\s+)?((?:19|20)\d{2})\b", masked[end:], re.IGNORECASE)
        out.append(int(owner.group(1)) if owner else int(before[-1]) if before else int(after[0]) if after else None)
    return out


SCAFFOLD = ("有何变化", "有什么变化", "有哪些变化", "有何不同", "有什么不同", "有什么区别", "有何区别", "相比",
            "哪部法律", "哪部法规", "哪一条", "哪条", "规定", "什么",
            "哪些", "如何", "怎样", "怎么", "是否", "依照", "根据", "按照", "现行", "当时", "修订的", "修订后",
            "版本", "年版", "关于", "之间", "比较", "应当", "多少", "多久", "吗",
            "what changed", "what is", "what are", "what does", "which", "compared with", "compared to",
            "under the", "according to", "version", "quy định", "như thế nào", "là gì", "theo", "phiên bản")


def topic(q: str, names: list[str] = ()) -> str:
    """The question without what the router already read (dates, years, article numbers,
    instrument names) and without question scaffolding: what the provisions are about."""
    # "2022年修正前", "before the 2018 amendment (of the Act)": the version before, read by the router -- taken out
    # before the names, which its English form may need to follow
    t = BEFORE_REVISION.sub(" ", q)
    for name in sorted(names, key=len, reverse=True):
        pattern = re.escape(name) if not name[:1].isascii() else rf"(?<![\w-]){re.escape(name)}(?![\w-])"
        t = re.sub(pattern, " ", t, flags=0 if name.isupper() else re.IGNORECASE)
    t = RE_ZH_DATE_ANY.sub(" ", t)
    t = RE_YEAR_VERSION.sub(" ", t)         # "2008年版", "2021年修订的": the version, read by the router
    t = VERSION_EN.sub(" ", t)              # "as amended in 2018", "as in force in 2015": so is this
    for rx in (RE_ZH_ART, RE_VI_ART, RE_EN_ART, RE_ISO, RE_VI_DATE, RE_VI_LONG_DATE, RE_VI_MONTH, RE_YMD, RE_EN_DATE,
               RE_ZH_MONTH, RE_YEAR):
        t = rx.sub(" ", t)
    for phrase in SCAFFOLD:
        t = re.sub(re.escape(phrase), " ", t, flags=re.IGNORECASE)
    t = re.sub(r"[《》“”\"'（）()，。？！?!、：:；;]+", " ", t)
    t = re.sub(r"(?:^|\s)[与和及跟同对]+(?=\s|$)", " ", t)      # connectives left alone by the removals
    t = re.sub(r"\s+", " ", t).strip()
    return t if len(t) >= 2 else q


# the frame of a question about a duty and its penalty, not its facts
FRAME = tuple(c for c in ASKED["sanction"] + ASKED["obligation"] if isinstance(c, str)) + \
    ("违反", "breach", "vi phạm", "sanction")


def facts(subject: str) -> str:
    """A question's topic without the words that frame a duty-and-penalty question
    ("违反了什么义务，应当怎样处罚"): every sanction shares those, so only the facts tell
    which one applies."""
    t = subject
    for phrase in sorted(FRAME, key=len, reverse=True):     # English ones as words, as in _cue
        pattern = rf"\b{re.escape(phrase)}(?:s|d|ed|es|ing)?\b" if phrase.isascii() else re.escape(phrase)
        t = re.sub(pattern, " ", t, flags=re.IGNORECASE)
    t = re.sub(r"\s+", " ", t).strip()
    return t if len(t) >= 2 else subject


# the law "of the time" of an event dated by its year alone ("2009年，某屠宰厂…依照当时的条例"):
# the version in force in the middle of that year (a design choice; a version that took effect
# that year is told apart by a month or a day only)
THEN = re.compile(r"(?<![应适相])当时|那时|彼时|\bat the time\b|\bthen in force\b|khi đó|lúc đó|thời điểm đó",
                  re.IGNORECASE)


def mid_year(year: int) -> dt.date:
    """The date a year alone stands for when it dates an event: 1 July (a design choice; a version
    that took effect that year is told apart only by a month or a day)."""
    return dt.date(year, 7, 1)


def classify(q: str) -> Route:
    low = q.lower()
    date = question_date(q)
    years = tuple(dict.fromkeys(int(y) for y in RE_YEAR.findall(q)))
    if date is None and len(years) == 1 and not RE_YEAR_VERSION.search(q) and THEN.search(q):
        date = mid_year(years[0])
    arts = tuple(article_refs(q))
    cues = tuple(c for c in DIFF_CUES + TIME_CUES + DEF_CUES if _cue(c, low))
    asks = asked_roles(q)
    sanction = "sanction" in asks
    has = lambda group: any(_cue(c, low) for c in group)  # noqa: E731
    revision = REVISION.search(q) is not None
    # the time between two revisions is one version: its two years make no comparison unless one is asked
    between = BETWEEN_REVISIONS.search(q) is not None and not has(COMPARE_CUES)
    party = party_only(q)           # a contract's or a company's rules' versions are not the law's
    when = WHEN_CHANGED.search(q) is not None and not party
    history = has(HISTORY_CUES) or ALL_VERSIONS.search(q) is not None or revision and WENT_THROUGH.search(q) is not None \
        or when
    provisions = asked_provisions(q) if revision else ""
    if date is not None and (has(TIME_CUES) or not has(DIFF_CUES)):
        kind = "temporal"
    elif when or provisions or COUNTERPART.search(q) and len(years) >= 2 or has(DIFF_CUES) and (
            len(years) >= 2 and not between or "版本" in q or "version" in low or "phiên bản" in low or has(COMPARE_CUES)
            or history or revision and LAW_REVISED.search(q) and ASKED_CHANGE.search(q)) or \
            CHANGE_VERB.search(q) and (RE_YEAR_VERSION.search(q) or VERSION_NAMED.search(q)):
        kind = "version_diff"
    elif has(DEF_CUES) and not arts and not sanction and not (DUTY_OF.search(low) and not MEANING.search(low)):
        kind = "definition"         # ("what is the penalty" asks no meaning, nor "what are the duties of X")
    elif arts and not sanction:
        kind = "precise"
    elif sanction or len(set(asks) - {"definition", "scope"}) >= 2:
        kind = "reasoning"          # a penalty (it rests on a duty and its sanction), or two roles at once
    else:
        kind = "precise"
    both = PREVIOUS_AND_NOW.search(q) is not None
    return Route(kind, date, arts, years, cues, tuple(article_years(q)), sanction, history, asks,
                 has(CURRENT_CUES) or CURRENT_NOW.search(q) is not None or both, polar(q), BODY.search(q) is not None, provisions,
                 tuple(int(next(filter(None, m))) for m in BEFORE_REVISION.findall(q)),
                 both or PREVIOUS.search(q) is not None and not party)


@dataclass(frozen=True)
class Policy:
    seeds: str
    hops: dict
    time_filter: str
    versions: str
    cite_max: int = 3          # the cited set: at most this many units (outside cite_roles, plus cite_refs references) ...
    cite_margin: float = 0.15  # ... scoring within this share of the best score
    cite_roles: bool = False   # cite the best unit, the other role (rule / sanction) if a penalty is asked, what they cite
    cite_refs: float = 0.0     # also cite what the answering clause refers to, if it scores this share of the best
    weights: dict = field(default_factory=dict)   # re-rank weights that differ for this type
    change_match: float = 0.0  # version comparisons: bonus x share of the topic found in what a step changed


def load_policies(path: str | Path | None = None) -> dict[str, Policy]:
    """The policies file, read once per change of the file (retrieval asks on every query)."""
    path = Path(path or POLICIES)
    return _read_policies(str(path), path.stat().st_mtime_ns)[0]


def language_weights(path: str | Path | None = None) -> dict[str, dict]:
    """Re-rank weights per question language (`[language.en] weights = {…}`): the base under
    each type's own weights, where a signal's worth differs by language."""
    path = Path(path or POLICIES)
    return _read_policies(str(path), path.stat().st_mtime_ns)[1]


@lru_cache(maxsize=8)
def _read_policies(path: str, _mtime: int) -> tuple[dict[str, Policy], dict[str, dict]]:
    """(policy per question type, re-rank weights per language) of one policies file."""
    from ..core.config import Weights
    data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    missing = set(TYPES) - set(data)
    if missing:
        raise ValueError(f"{path}: no policy for question types {sorted(missing)}")
    known = {f.name for f in fields(Weights)}
    languages = {lang: dict(table.get("weights", {})) for lang, table in data.get("language", {}).items()}
    for lang, weights in languages.items():
        if set(weights) - known:
            raise ValueError(f"{path}: [language.{lang}] weights: unknown {', '.join(sorted(set(weights) - known))}; "
                             f"known: {', '.join(sorted(known))}")
    return {t: Policy(**data[t]) for t in TYPES}, languages

"""The question, analysed once: what it asks (routing), which instruments it names, what it
is about. Every later step of graph retrieval reads the plan, never the question string."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..core.orthography import one_form
from .catalog import Catalog
from .names import KIND_WORDS, outside_articles, shortened
from .version_words import ascii_years, spelled_versions
from .route import BETWEEN_REVISIONS, DEF_CUES, NAME_ASKED, RE_YEAR_VERSION, Route, article_matches, classify, facts, topic


# two versions asked about together: their years coordinated ("2008年和2021年两版", "the 2012 and
# 2018 Acts", "năm 2005 và 2015") or "each / both versions" -- not a year that dates an event
# ("a licence granted under the Act of 2012")
_YEAR = r"(?:19|20)\d{2}"
BOTH = re.compile(rf"{_YEAR}\s*年?(?:版|修订本?|修正本?|version)?\s*(?:和|与|及|、|,|，|and|or|và|hoặc)\s*(?:năm\s*)?{_YEAR}"
                  r"|分别|两版|两个版本|both versions|each version|cả hai", re.IGNORECASE)
# whether two versions are the same, asked yes-or-no ("一样吗", "是否相同", "有没有区别", "is it the same as",
# "different from", "có giống nhau không"): a comparison -- not a sameness among the facts ("使用相同名称",
# "协商一致", "没有变更", "at the same address")
SAME = re.compile(r"(?:一样|相同|一致|不同|有区别|有差别|有变化|变了)吗|是否(?:一样|相同|一致|不同|有(?:区别|差别|变化))|"
                  r"有(?:没有|无)(?:区别|差别|变化|不同)|\b(?:the same as|different from|differs? from)\b|"
                  r"giống nhau (?:không|chứ)|như nhau (?:không|chứ)|có (?:gì )?khác|khác (?:nhau |gì )?(?:không|chứ)",
                  re.IGNORECASE)
# a year written as the name of a version ("2020年版", "2019年修订本": the router's RE_YEAR_VERSION;
# "the 2012 version", "phiên bản năm 2015"), not of an event
_VERSION_YEAR_EN_VI = re.compile(rf"\b({_YEAR}) version\b|phiên bản (?:năm )?({_YEAR})", re.IGNORECASE)


def year_before_name(year: int, name: str) -> str:
    """A pattern of `year` written just before an instrument's name, naming its version ("2015年食品安全法",
    "2020年的船员条例", "依照2018年《…》", "the 2012 Clinic Licensing Act")."""
    return rf"(?<!\d){year}\s*年?\s*(?:的\s*)?《?\s*{re.escape(name)}"


def names_version(question: str, year: int, names) -> bool:
    """Is `year` written as the version of an instrument the question names: as a version ("2020年版",
    "the 2012 version"), or just before its name ("2020年的船员条例", "2012年《…》", "the 2012 Clinic Licensing
    Act") or just after it ("Luật Du lịch năm 2017", "the Clinic Licensing Act 2012") -- not a year of the facts?"""
    if str(year) in version_years(question):
        return True
    return any(re.search(rf"{year_before_name(year, name)}|{re.escape(name)}》?\s*(?:năm\s+)?[（(]?{year}(?!\d)",
                         question, re.IGNORECASE) for name in names)


def versioned(question: str, catalog: Catalog) -> set[str]:
    """The instrument a question names by its versions alone ("2008年版和2021年版的说法一样吗", the law left
    unsaid): the one instrument of the workspace (with any copy of it, `Catalog.same_content`) with a
    version for each of the two or more years the question writes as versions, in two versions at least;
    when several have them, the one whose versions are labelled with those years (a version adopted in 2012
    that came into force in 2013 is no "2013年版" beside one adopted in 2013); none when still several."""
    years = sorted(int(y) for y in version_years(question))
    if len(years) < 2:
        return set()
    held = set.intersection(*({v.split("@")[0] for v in catalog.versions_in([y], set())} for y in years))
    held = {k for k in held if len(catalog.versions_in(years, {k})) >= 2}      # two versions, not one matching both
    if not any(held <= catalog.same_content({k}) for k in held):    # several: those whose versions bear the years
        # as their labels (adopted then), before one that only came into force in one of them
        held = {k for k in held if all(any(d.version.startswith(str(y)) for d in catalog.chain(k)) for y in years)}
    return held if held and any(held <= catalog.same_content({k}) for k in held) else set()   # one law (or its twins)


def version_years(question: str) -> set[str]:
    """The years the question writes as versions."""
    return {m.group(1) for m in RE_YEAR_VERSION.finditer(question)} | \
        {m.group(1) or m.group(2) for m in _VERSION_YEAR_EN_VI.finditer(question)}


# a year and the words after it, which may hold an instrument's name ending in its kind
_YEAR_THEN = re.compile(r"(?<!\d)((?:19|20)\d{2})\s*年\s*(?:的\s*)?(《?[\u4e00-\u9fff]{1,14})")
_KIND_END = re.compile(KIND_WORDS)


def years_before_names(question: str, catalog: Catalog) -> set[str]:
    """Years written right before a name of an instrument of the workspace -- the words from the year to the
    kind word being that name whole: a held name, the end of one, or a shortened title ("2010年的非法集资解释";
    not "2015年开办餐馆违反食品安全法", a year of the facts) -- or before the new or old one of its kind
    ("2022年新解释"): versions named by their year, as in version_years."""
    names = [n for n, _ in catalog.names if not n.isascii()]
    out = set()
    for m in _YEAR_THEN.finditer(question):
        after = m.group(2).lstrip("《")
        for k in _KIND_END.finditer(after):
            written = after[:k.end()]
            if re.fullmatch(r"[新旧原]\S{1,2}", written) or len(written) >= 3 and any(n.endswith(written) for n in names) \
                    or any(form == written for form, _ in shortened(written, catalog.names)):
                out.add(m.group(1))
    return out


# what a question about a revision says besides its topic: change words, the provisions as such, closed-class
# words (zh / en / vi). A comparison saying nothing else ("《条例》2016年修订改了什么", "What did the 2015
# amendment change?") asks for the whole step: every provision it changed (Route.provisions = "changed")
# Chinese words (jieba), so a topic word holding one of them is kept ("处罚", "时效", "法人")
_CHANGE_ZH = frozenset(
    "修改 修订 修正 变化 变更 变动 改动 调整 新增 删除 增加 改 改了 作 做 作出 做出 作了 做了 出 内容 条文 条款 规定 地方 之处 方面 "
    "主要 重要 重大 这次 此次 本次 不同 区别 差异 差别 相比 比较 之间 异同 的 了 有 时 对 在 中 次 些 处 项 点 哪 哪些 哪里 "
    "什么 何 该 这 这些 其 与 和 及 条例 办法 版 版本 年版 年 两 前 后 前后 如何 怎样 有何 吗 呢 哪个 哪一 一 "
    # the request itself: "请列出全部…", "具体改动了…", "发生了变化"
    "请 列出 全部 所有 具体 发生 说明 概括 文本 逐条".split())
_CHANGE_OTHER = re.compile(
    r"\b(?:what|which|did|does|do|the|a|an|of|in|to|by|was|were|is|are|has|have|been|made|make|main|key|new|"
    r"chang\w*|amend\w*|revis\w*|versions?|acts?|laws?|regulations?|rules?|provisions?|articles?|sections?|between|and|or|"
    r"from|with|how|differ\w*|compar\w*|versus|vs|"
    # the request itself: "please list every …", "summarise", "tell me"
    r"please|list|every|all|everything|each|summari[sz]e|describe|explain|tell|me|i|we|need|know|want|"
    r"added|dropped|removed|deleted|new|text)\b|"
    r"những|nội dung|nào|gì|đã|được|sửa đổi|bổ sung|năm|luật|nghị định|của|các|điểm|điều|thay đổi|có|mới|khác nhau|"
    r"khác|giữa|và|so với|như thế nào",
    re.IGNORECASE)


def whole_step(topic: str) -> bool:
    """Does the topic of a comparison hold nothing but change words and closed-class words (Chinese
    read word by word, other languages by the words of `_CHANGE_OTHER`)?"""
    from ..store.tokenize import _jieba
    rest = _CHANGE_OTHER.sub(" ", re.sub(r"[\u3400-\u9fff]+", " ", topic))
    han = [w for run in re.findall(r"[\u3400-\u9fff]+", topic) for w in _jieba().lcut(run)]
    return not [w for w in han if w not in _CHANGE_ZH] and len(re.sub(r"[\W\d_]+", "", rest)) < 2


@dataclass(frozen=True)
class Plan:
    question: str
    language: str
    route: Route                   # question type, date, named articles / years, cues, asked role
    keys: frozenset[str]           # instruments named (with any twin imports of them)
    names: tuple[str, ...]         # the names of those instruments, as matched
    topic: str                     # what the provisions are about: the question without what was read
                                   # (the whole question when it names an article but no instrument)
    facts: str                     # the topic without a duty-and-penalty frame (义务 / 处罚 / penalty)
    terms: tuple[str, ...] = ()    # defined terms the question asks about (definition questions)
    article_only: bool = False     # names an article and asks nothing beyond it ("What is Article 8 of the Act?")

    @property
    def type(self) -> str:
        return self.route.type


def make_plan(question: str, language: str, catalog: Catalog, terms: dict[str, list[str]] | None,
              question_type: str | None = None) -> Plan:
    """`terms`: the workspace's defined terms (normalised); `question_type` overrides the router.
    Years in words and versions named by their place ("二〇一二年", "第二次修订", "最初的条例") are read
    as the years they stand for (version_words.py); the plan holds the question so rewritten."""
    question = ascii_years(question)
    named = catalog.named(question)
    if named:
        spelled = spelled_versions(question, catalog, catalog.same_content(named))
        if spelled != question:
            question, named = spelled, catalog.named(spelled)
    route = classify(question)
    if question_type:
        route = replace(route, type=question_type)
    outside = outside_articles(question, article_matches(question), catalog.named, [n for n, _ in catalog.names])
    if outside:     # "刑法第三百三十九条" with no 刑法 in the workspace: no article of the instruments it holds
        keep = [i for i, a in enumerate(route.articles) if a not in outside]
        years = tuple(route.article_years[i] for i in keep) if len(route.article_years) == len(route.articles) else ()
        route = replace(route, articles=tuple(route.articles[i] for i in keep), article_years=years)
    keys = catalog.same_content(named or versioned(question, catalog))
    if route.type in ("precise", "reasoning") and not question_type and route.as_of is None and keys and \
            not BETWEEN_REVISIONS.search(question) and \
            ((BOTH.search(question) or len(version_years(question) | years_before_names(question, catalog)) >= 2) and
             any(len(catalog.versions_in(route.years, {k})) >= 2 for k in keys) or route.previous and route.current):
        route = replace(route, type="version_diff")     # two versions of one instrument asked about together
        # (two years, or "新旧" / "old and new": the previous version and the current one)
    elif route.type in ("precise", "reasoning") and not question_type and route.as_of is None and keys and \
            len(route.years) == 1 and route.current and SAME.search(question) and \
            names_version(question, route.years[0], catalog.names_of(keys)) and \
            any(catalog.versions_in(route.years, {k}) - {catalog.chain(k)[-1].id} for k in keys):
        route = replace(route, type="version_diff")     # whether a version named by its year and the current
        # law are the same ("2020年的条例和现行条例在这一点上一样吗"): a comparison of the two
    # the names the question uses: the instruments' own, and a shortened one it wrote ("刑诉法解释")
    names = tuple(catalog.names_of(keys)) + tuple(f for f, k in shortened(question, catalog.names) if k in keys)
    # an article named without its instrument ("In the context of Rule 6.1, …") stands for
    # nothing in the scope, and a provision applying it names it the same way: search the whole question
    subject = question if route.articles and not keys else topic(question, list(names))
    # nothing asked beyond an article named ("What is Article 8 of the Act?"), or beyond a revision compared
    compared = route.type == "version_diff" and not (route.history or route.polar or route.provisions)
    bare = bool(route.articles or compared) and whole_step(subject)
    if bare and not route.articles:
        route = replace(route, provisions="changed")     # "what did the 2016 revision change": all it changed
    return Plan(question, language, route, frozenset(keys), names, subject, facts(subject),
                _terms(question, route, terms), bare and bool(route.articles))


def _terms(question: str, route: Route, terms: dict[str, list[str]] | None) -> tuple[str, ...]:
    """Defined terms named in a definition question ("“食品添加剂”的定义"), longest only; an
    English or Vietnamese term as whole words ("tin" is not in "continuing"), a Chinese one anywhere.
    Empty when the question describes a concept and asks its name ("… được gọi là gì?", NAME_ASKED):
    the terms inside the description are not the one asked for."""
    if terms is None or (route.type != "definition" and not any(c in DEF_CUES for c in route.cues)) \
            or NAME_ASKED.search(question):
        return ()
    low = one_form(question).lower()        # as the terms' keys are written (link/terms.norm_term)
    found = [t for t in terms if (t in low if re.search(r"[\u3400-\u9fff]", t)      # Chinese: no word breaks
                                  else re.search(rf"(?<![\w-]){re.escape(t)}(?![\w-])", low))]
    return tuple(t for t in found if not any(t != o and t in o for o in found))


def structural(plan: Plan) -> bool:
    """Does the question give graph retrieval something structural to use: a named article,
    version, date or instrument, a defined term, a penalty asked, or a type other than precise?"""
    r = plan.route
    return bool(r.articles or r.years or r.as_of or plan.keys or plan.terms or r.sanction or r.history
                or plan.type != "precise")

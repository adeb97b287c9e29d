"""The duty a penalty enforces, when the penalty does not number it.

Chinese statutes word most penalties as "…违反本法规定，[restating the conduct]的，由…处…罚款",
or plainly "[the conduct]的，由…处…罚款", or list the conducts as points under "有下列行为之一的":
the duty is restated, not cited by number, so citation extraction finds no REFERENCES edge and a
question joining a duty and its
penalty has nothing to walk. This module reads the conduct a sanctioning provision restates
and links it to the provision of the same instrument version imposing that duty (an
obligation or prohibition outside the sanction articles) whose wording it repeats most:
TF-IDF over Chinese character pairs (IDF within the instrument version), best unit of each
article, the best article taken when its cosine is at least MIN_SCORE. A conduct restated in a
few words ("违反本办法的规定虚开发票的") scores low against a long duty article; it is linked to
the duty unit holding it verbatim when all such units lie in one article (`_naming`). A conduct
joining several duties broken ("畜禽养殖场未建立养殖档案或者未按照规定保存养殖档案") links, besides, to each
duty requiring word for word an act it says was not done (`_not_done`: 未 / 不 / 拒不 + the act, found
right after 应当 / 必须, or after the time limit the duty sets, in one article only). A conduct naming its
party before the act links to the duty forbidding that act right after 不得 / 禁止 (`_act_forbidden`), and
acts joined by 或者 to the duty forbidding each as written in the same order (a list joined by 或者 or by
enumeration commas read alike).

The edge is a REFERENCES edge from the sanction (clause or point) to the duty (clause or
point), extractor `implicit-duty`, its confidence the cosine, its evidence the conduct. Other
languages cite the provision a penalty enforces by number ("vi phạm quy định tại Điều 5",
"contravenes Rule 3.2"), which citation extraction already reads.
"""
from __future__ import annotations

import math
import re
from collections import Counter

from ..core.records import Edge, EdgeType, Unit
from ..parse.numerals import CN_NUM
from ..parse.roles import role_of

# Chosen by reading every candidate link of one law (农产品质量安全法 2022: right links scored
# 0.26-0.85, the wrong ones at most 0.22 but one at 0.44 between two right ones), not tuned on
# questions; validated on other laws' links read by hand (docs/features.md, the legal graph).
MIN_SCORE = 0.35
# Below MIN_SCORE, a link is still made when the best article stands clear of every other one: at
# least CLEAR_FLOOR (on the law MIN_SCORE was read on, right links scored from 0.26, wrong ones up
# to 0.22 but one) and CLEAR_RATIO times the next article's score. Design values set from that
# reading, not on questions; the links they add were judged blind (docs/benchmarks.md).
CLEAR_FLOOR = 0.25
CLEAR_RATIO = 2.0
MIN_CONDUCT = 4          # characters of restated conduct needed to compare
EXTRACTOR = "implicit-duty"

_IMPLICIT = re.compile(r"(?:违反|未依照|未按照|不依照|不按照|未按|不按)本(?:法|条例|办法|规定|细则|决定)(?:有关|相关)?的?规定")
_NUMBERED = re.compile(rf"第[{CN_NUM}\d]+条")
_LIST = re.compile(r"下列(?:情形|行为)之一")
_PLAIN = re.compile(r"的，(?:由|依照|依法|处|责令|没收|吊销)")
# what opens an event, a consequence or a repeat rather than a conduct: 发生 / 造成 / 导致 / 构成 /
# 情节 / 拒不 / 逾期 / 有前款 / 再次 / 经责令 (a closed class of clause openers, not any law's wording)
_CONDITION = re.compile(r"(?:发生|造成|导致|构成|情节|拒不|逾期|有前款|有本条|再次|经责令)")
# what scales a penalty, not a conduct: the gain or the value involved ("违法所得超过1万元的", "货值金额不足…的")
_AMOUNT = re.compile(r"(?:没有|无)?(?:违法所得|货值金额|违法经营额)")
# what opens the measure after a listed conduct ("…经营的，没收违法所得，处…罚款")
_MEASURE = re.compile(r"(?:由|处|并处|责令|没收|吊销|给予|暂扣|撤销)")
_POINT_NO = re.compile(rf"^\s*[（(][{CN_NUM}\d]+[)）]\s*")
_HAN = re.compile(r"[^\u4e00-\u9fff]")
_DUTY = re.compile(r"应当|必须|不得|禁止")
_SUBJECT_DUTY = re.compile(r"[^，。；：]*?(?:应当|必须|不得|禁止)")     # "任何单位和个人不得"
_CLAUSE_TEXT = re.compile(r"[^\u4e00-\u9fff，。；：]")     # Han characters and the marks ending a sentence part


def implicit_duties(units: list[Unit]) -> list[Edge]:
    """REFERENCES edges from Chinese sanctioning provisions to the duties they restate."""
    by_version: dict[str, list[Unit]] = {}
    for u in units:
        if u.language == "zh" and u.kind in ("article", "clause", "point"):
            by_version.setdefault(f"{u.key}@{u.version}", []).append(u)
    return [e for group in by_version.values() for e in _link(group)]


def _article(uid: str) -> str:
    return "/".join(uid.split("/")[:2])


def restated_conducts(units: list[Unit]) -> list[str]:
    """The conducts a sanctioning article restates, read from it and its parts (`units`): each with
    the party its list names, when it is a listed point ("承运人有下列行为之一的：（一）…未报告的" ->
    "承运人…未报告")."""
    roles, by_id = {u.id: role_of(u) for u in units}, {u.id: u for u in units}
    out = []
    for u in units:
        conduct = _conduct(u, roles, by_id)
        if not conduct:
            continue
        lead = by_id.get(u.parent_id or "") if u.kind == "point" else None
        m = _LIST.search(lead.text) if lead is not None else None
        out.append((_IMPLICIT.sub("", lead.text[:m.start()]) if m else "") + conduct)
    return out


def char_pairs(text: str) -> list[str]:
    """The Han character pairs of `text` (what conducts and duties are compared by)."""
    t = _HAN.sub("", text)
    return [t[i:i + 2] for i in range(len(t) - 1)]


def _link(units: list[Unit]) -> list[Edge]:
    roles = {u.id: role_of(u) for u in units}
    by_id = {u.id: u for u in units}
    sanctions = {_article(u.id) for u in units if u.kind == "article" and roles[u.id] == "sanction"}
    # a procedure stated as a duty ("发现…的，应当立即停止生产，…报告，主动召回产品") is a duty too
    duties = [u for u in units if _article(u.id) not in sanctions and (roles[u.id] in ("obligation", "prohibition") or
              roles[u.id] == "procedure" and _DUTY.search(u.text or ""))]
    if not duties:
        return []
    df = Counter(p for u in units for p in set(char_pairs(u.text)))
    idf = {p: math.log(len(units) / (1 + n)) for p, n in df.items()}

    def vector(text: str) -> dict[str, float]:
        v = {p: n * idf.get(p, 0.0) for p, n in Counter(char_pairs(text)).items()}
        norm = math.sqrt(sum(x * x for x in v.values()))
        return {p: x / norm for p, x in v.items()} if norm else {}

    duty_vectors = [(u, vector(u.text)) for u in duties]
    parents = {u.parent_id for u in units if u.parent_id}
    duty_texts = [(u.id, _CLAUSE_TEXT.sub("", u.text)) for u in duties     # an article through its parts
                  if not (u.kind == "article" and u.id in parents)]
    duty_sentences = [(uid, parts) for uid, text in duty_texts
                      if (parts := [p for x in re.split(r"[。；]", text) if (p := _duty_parts(x))])]
    edges = []
    for u in units:
        if u.id in parents and u.kind != "clause":      # an article is read through its clauses
            continue
        conduct = _conduct(u, roles, by_id)
        if conduct is None or len(_HAN.sub("", conduct)) < MIN_CONDUCT:
            continue
        found = len(edges)
        _link_conduct(u, conduct, duty_vectors, duty_sentences, duty_texts, vector, edges)
        # a conduct joining several duties broken ("…未建立养殖档案或者未按照规定保存养殖档案"): each act it says
        # was not done, required word for word by a duty of another article, links to that duty as well
        linked = {_article(e.target) for e in edges[found:]}
        for hit, part in _not_done(conduct, duty_texts).items():
            if _article(hit) not in linked:
                edges.append(Edge(u.id, hit, EdgeType.REFERENCES, part[:120], MIN_SCORE, EXTRACTOR))
                linked.add(_article(hit))
    return edges


def _link_conduct(u: Unit, conduct: str, duty_vectors, duty_sentences, duty_texts, vector, edges: list[Edge]) -> None:
    """The links of one sanctioning unit by its conduct as a whole (`_link`): a duty sentence it restates,
    else the article whose wording it repeats most (MIN_SCORE), else duties naming it verbatim, else an
    article standing clear of the others."""
    q = vector(conduct)
    best: dict[str, tuple[float, str]] = {}
    for d, dv in duty_vectors:
        score = sum(x * dv.get(p, 0.0) for p, x in q.items())
        a = _article(d.id)
        if score > best.get(a, (0.0, ""))[0]:
            best[a] = (score, d.id)
    if not best:
        return
    score, target = max(best.values())
    restated = _restating(_CLAUSE_TEXT.sub("", conduct), duty_sentences)
    if restated is not None:        # a duty sentence said again, whatever reads more like the conduct
        hit = target if _article(target) == _article(restated) and score >= MIN_SCORE else restated
        edges.append(Edge(u.id, hit, EdgeType.REFERENCES, conduct[:120],
                          round(max(best.get(_article(hit), (0.0, ""))[0], MIN_SCORE), 3), EXTRACTOR))
        return
    if score >= MIN_SCORE:
        edges.append(Edge(u.id, target, EdgeType.REFERENCES, conduct[:120], round(score, 3), EXTRACTOR))
        return
    named = _named_verbatim(conduct, duty_texts)
    for hit, part in named.items():
        edges.append(Edge(u.id, hit, EdgeType.REFERENCES, part[:120],
                          round(max(best.get(_article(hit), (0.0, hit))[0], MIN_SCORE), 3), EXTRACTOR))
    # last, a best article standing clear of every other one, its wording only partly repeated
    runner_up = max((v for a, (v, _) in best.items() if a != _article(target)), default=0.0)
    if not named and score >= CLEAR_FLOOR and score >= CLEAR_RATIO * runner_up:
        edges.append(Edge(u.id, target, EdgeType.REFERENCES, conduct[:120], round(score, 3), EXTRACTOR))


# "not done": a sentence part opening with a negation, or with a party's name and a negation ("畜禽养殖场未建立…":
# heads of the names of parties and bodies), before the act a duty requires (未 / 不 / 拒不 / 拒绝, with 按照规定 /
# 依法 …) -- not "未经" (without a permission: the act is what a licensing rule governs), nor a negated adjective or
# modal (不合格, 不可, 不得, 不予, 不足, 不能, 不当, 不良, 不实, 不明), nor "没有" (also "there is no": "没有合同约定的")
_MANNER = r"(?:按照规定|按规定|依照规定|依照本\w{1,2}规定|依法|按照要求)"
_NOT_DONE = re.compile(r"(?:[^，]{0,12}?(?:人|者|人员|单位|企业|机构|部门|机关|委员会|组织|公司|户|场|厂|船舶|船长))?"
                       rf"(?:未|不|拒不|拒绝)(?!经|合格|可|得|予|足|能|当|良|实|明){_MANNER}?")
# the duty word, the same manner words and at most a few characters more before the act it requires ("应当建立",
# "应当依照本条例规定报告", "应当及时主动向…"); the act ends where the duty's phrase does (not "建立档案" in "建立档案管理制度")
# or after the time limit a duty sets before its act ("应当自收到…之日起十日内，提出书面答复"; "应当在…前，"; a
# limit of at most 40 characters: how long such a phrase runs, a design value, not fitted)
_REQUIRES = re.compile(rf"(?:应当|必须){_MANNER}?(?:[^，。；：]{{0,4}}|(?:自|在|于)[^。；：]{{1,40}}?(?:内|前)，?{_MANNER}?)$")
_ACT_END = re.compile(r"$|[，。；：、）)]|[和及并或]")


def _not_done(conduct: str, duty_texts: list[tuple[str, str]]) -> dict[str, str]:
    """Duty unit -> the part of `conduct` saying it was not done: each sentence part (at a comma or 或者)
    opening with a negation (_NOT_DONE), the act after it (MIN_CONDUCT characters or more) found
    verbatim right after a duty word (`_REQUIRES`) in one article only; one duty per article."""
    out: dict[str, str] = {}
    for part in dict.fromkeys(p for x in conduct.split("，") for p in x.split("或者")):
        m = _NOT_DONE.match(part)
        act = _HAN.sub("", part[m.end():]) if m else ""
        hit = _requiring(act, duty_texts) if len(act) >= MIN_CONDUCT else None
        if hit is not None and _article(hit) not in {_article(t) for t in out}:
            out[hit] = part
    return out


def _requiring(act: str, duty_texts: list[tuple[str, str]]) -> str | None:
    """The duty unit requiring `act` in so many words (`_REQUIRES` just before it, the phrase ending with
    it), when such units lie in one article only (`_one_article`)."""
    return _holding(act, duty_texts, lambda text, at: bool(_REQUIRES.search(text[:at])
                                                            and _ACT_END.match(text, at + len(act))))


def _named_verbatim(conduct: str, duty_texts: list[tuple[str, str]]) -> dict[str, str]:
    """Duty unit -> the words of `conduct` it names verbatim (`_naming`): a conduct named in a few
    words ("虚开发票的") by the one duty article naming it; else, for several conducts in one sentence
    ("私自印制、伪造、变造发票，…，窃取、截留、篡改、出售、泄露发票数据的"), each part so named (one per article),
    else the act it states after the party doing it (`_act_forbidden`). When no part is so named, each part,
    and each act 或者 joins in it, found as written right after 不得 / 禁止 with the duty's phrase ending there
    (`_forbidding`), reading a list joined by 或者 and one joined by enumeration commas alike, in the same
    order ("串供或者伪造、隐匿、毁灭证据" / "不得伪造、隐匿或者毁灭证据")."""
    whole = _naming(_HAN.sub("", conduct), duty_texts)
    if whole is not None:
        return {whole: conduct}
    out: dict[str, str] = {}
    for part in dict.fromkeys(conduct.split("，")):
        words = _HAN.sub("", part)
        hit = (_naming(words, duty_texts) or _act_forbidden(part, duty_texts)) if len(words) >= MIN_CONDUCT else None
        if hit is not None and _article(hit) not in {_article(t) for t in out}:
            out[hit] = part
    if not out:
        plain = [(uid, text.replace("或者", "")) for uid, text in duty_texts]
        for part in dict.fromkeys(p for x in conduct.split("，") for p in x.split("或者")):
            act = _HAN.sub("", part)
            hit = _one_article(_forbidding(act, plain)) if len(act) >= ACT_MIN else None
            if hit is not None and _article(hit) not in {_article(t) for t in out}:
                out[hit] = part
    return out


ACT_MIN = 6       # characters of an act read without its party: a verb and its object, not a verb alone
PARTY_MAX = 10    # characters a party's name may take before the act ("交通运输工具驶离指定的检疫查验地点")
# both design values from how Chinese statutes write a party's name and a verb with its object, not fitted


def _act_forbidden(part: str, duty_texts: list[tuple[str, str]]) -> str | None:
    """A conduct restated with the party doing it before the act ("交通运输工具驶离指定的检疫查验地点"
    for "…，不得驶离指定的检疫查验地点"): the longest end of `part` (ACT_MIN characters or more) found
    right after 不得 / 禁止, the duty's phrase ending with it, in one article only -- after a party: at most
    PARTY_MAX characters read as nouns only (jieba's tags: no verb or adverb -- "擅自", "协助他人", "准许…"
    govern the act, they do not do it), with no negation (the act done, not left undone) and no list
    (acts joined by 、 / 或者 / 和 / 及 before it are more conducts: "盗窃、哄抢、私分或者非法侵占…").
    The longest end found after 不得 / 禁止 at all decides: found in several articles, nothing is linked."""
    for k in range(1, len(part)):
        head, act = part[:k], _HAN.sub("", part[k:])
        if len(_HAN.sub("", head)) > PARTY_MAX or len(act) < ACT_MIN or re.search(r"[未不没拒、和及]|或者", head):
            return None
        if _HAN.match(part[k]):         # the act starts at a character, not at a mark (nor right after a 、)
            continue
        holders = _forbidding(act, duty_texts)
        if holders:
            return _one_article(holders) if _party(head) else None
    return None


def _forbidding(act: str, duty_texts: list[tuple[str, str]]) -> list[str]:
    """The duty units holding `act` right after 不得 / 禁止, the duty's phrase ending with it."""
    return _holders(act, duty_texts, lambda text, at: text[:at].endswith(("不得", "禁止"))
                    and bool(_ACT_END.match(text, at + len(act))))


def _party(head: str) -> bool:
    """Is `head` a noun phrase (jieba's part-of-speech tags: nouns, names and abbreviations only)?"""
    import logging
    import jieba
    import jieba.posseg
    jieba.setLogLevel(logging.WARNING)
    tags = [flag for word, flag in jieba.posseg.lcut(_HAN.sub("", head))]
    return bool(tags) and all(f[0] in "nj" or f in ("l", "b", "f") for f in tags) and tags[-1][0] in "nj"


def _naming(conduct: str, duty_texts: list[tuple[str, str]]) -> str | None:
    """The duty unit (a clause, point or article without parts) that forbids or requires the
    restated conduct verbatim -- the conduct follows 不得 / 禁止 / 应当 / 必须 in its own sentence
    part, not a condition before it ("…涉嫌构成犯罪的，应当移送" does not forbid 构成犯罪) -- when
    the units doing so lie in one article only."""
    def duty_before(text: str, at: int) -> bool:
        prefix = text[:at]
        part = re.split(r"[，。；：]", prefix)[-1]
        # a listed item: the list's lead-in says what is forbidden ("不得有下列行为：（一）…")
        intro = re.split(r"[，。；]", prefix[:prefix.rfind("：")])[-1] if "：" in prefix else ""
        return bool(_DUTY.search(part) or "下列" in intro and _DUTY.search(intro))
    return _holding(conduct, duty_texts, duty_before)


def _holding(phrase: str, duty_texts: list[tuple[str, str]], fits) -> str | None:
    """The duty unit holding `phrase` where `fits(text, at)` says it is what the duty forbids or requires,
    when the units so holding it lie in one article only (`_one_article`)."""
    return _one_article(_holders(phrase, duty_texts, fits))


def _holders(phrase: str, duty_texts: list[tuple[str, str]], fits) -> list[str]:
    """The duty units holding `phrase` where `fits(text, at)`."""
    holding = []
    for uid, text in duty_texts:
        at = text.find(phrase)
        while at >= 0:
            if fits(text, at):
                holding.append(uid)
                break
            at = text.find(phrase, at + 1)
    return holding


def _one_article(holding: list[str]) -> str | None:
    """The innermost of `holding` (duty units), when they all lie in one article."""
    if not holding or len({_article(uid) for uid in holding}) > 1:
        return None
    return max(holding, key=lambda uid: (uid.count("/"), uid))


def _restating(conduct: str, duty_sentences: list[tuple[str, list[tuple[str, int, int]]]]) -> str | None:
    """The duty unit with a sentence `conduct` restates (`_restates`; each unit's duty sentences
    read once, `_duty_parts`), when such units lie in one article only (the innermost)."""
    return _one_article([uid for uid, parts in duty_sentences if any(_covers(conduct, p) for p in parts)])


def _restates(conduct: str, sentence: str) -> bool:
    """Does `conduct` restate the duty `sentence` with its subject and duty word left out, and the
    commas ("未经定点，任何单位和个人不得从事生猪屠宰活动" -> "未经定点从事生猪屠宰活动": the penalty
    reads "违反本条例规定，未经定点从事生猪屠宰活动的，…")? The conduct starts where the sentence does or
    where the duty word's object does, and covers that object's first sentence part at least: a
    condition before the duty word alone is not what is required or forbidden ("涉嫌构成犯罪的，应当移送"
    forbids no 构成犯罪), nor is a fragment ("生猪屠宰") the conduct."""
    parts = _duty_parts(sentence)
    return parts is not None and _covers(conduct, parts)


def _duty_parts(sentence: str) -> tuple[str, int, int] | None:
    """A duty sentence without its subject and duty word, commas left out, with the length of what
    came before the duty word and of the first part of its object; None without a duty word."""
    m = _SUBJECT_DUTY.search(sentence)
    if m is None:
        return None
    before, after = _no_commas(sentence[:m.start()]), _no_commas(sentence[m.end():])
    governed = _no_commas(re.split(r"[，：]", sentence[m.end():])[0])
    return (before + after, len(before), len(governed)) if governed else None


def _covers(conduct: str, parts: tuple[str, int, int]) -> bool:
    """`_restates` over a sentence's `_duty_parts`."""
    text, before, governed = parts
    conduct = _no_commas(conduct)
    at = text.find(conduct)
    return at in (0, before) and at + len(conduct) >= before + governed


def _no_commas(text: str) -> str:
    return re.sub(r"[，：]", "", text)


def _conduct(u: Unit, roles: dict[str, str], by_id: dict[str, Unit]) -> str | None:
    """The conduct a sanctioning unit restates: a point listed under "有下列行为之一的" of a
    sanction, or what follows "违反本法规定" up to "…的，", or a sentence's opening conduct up to
    "…的，由 / 处 / 责令…" — None when the unit is no such
    sanction or numbers the provision it enforces (citation extraction reads that)."""
    if u.kind == "point":
        parent = by_id.get(u.parent_id or "")
        if parent is None or roles.get(parent.id) != "sanction" or not _LIST.search(parent.text) \
                or _NUMBERED.search(parent.text.split("：")[0]):
            return None
        text = _POINT_NO.sub("", u.text)
        if _NUMBERED.search(text):
            return None
        # a point may carry its own penalty after the conduct ("未取得…许可，擅自从事…经营，违法所得超过
        # 1万元的，没收违法所得，处…"): the conduct is the sentence parts before a condition or a measure
        # (a measure opens a part only after a conduct closed by "的": "未经许可，由他人代为经营的" is one conduct)
        parts = re.split(r"[。；]", text)[0].split("，")
        end = next((i for i, p in enumerate(parts) if i and (_CONDITION.match(p) or _AMOUNT.match(p) or
                                                              _MEASURE.match(p) and parts[i - 1].endswith("的"))),
                   len(parts))
        conduct = "，".join(parts[:end]).strip("，, ")
        return conduct[:-1] if conduct.endswith("的") else conduct
    if roles[u.id] != "sanction":
        return None
    m = _IMPLICIT.search(u.text)
    if m is None:
        # the plain form: the sentence opens with the conduct, closed by "的，" before the
        # authority or the measure ("无生产配额许可证生产消耗臭氧层物质的，由…处…罚款")
        first = re.split(r"[。；]", u.text)[0]
        a = _PLAIN.search(first)
        if a is None or _LIST.search(first[:a.end()]):
            return None
        # an event or a consequence is no conduct a duty forbids ("发生事故的", "拒不改正的"): a
        # sentence part opening with one is left out, before the conduct ("发生动物疫情时，…未按照规定
        # 开展检测") or after it ("…，构成犯罪的"); with nothing left, there is no conduct
        parts = [p for p in first[:a.start()].split("，") if p and not _CONDITION.match(p)]
        if not parts:
            return None
        conduct = "，".join(parts).strip("，, ")
        return None if _NUMBERED.search(conduct) else conduct
    if _LIST.search(u.text[m.end():m.end() + 30]):
        return None
    end = u.text.find("的，", m.end())
    end = end if end > 0 else u.text.find("，", m.end())
    conduct = (u.text[m.end():end] if end > 0 else u.text[m.end():]).strip("，, ")
    # "违反本法规定，构成犯罪的": an event or a consequence, no conduct (as in the plain form)
    return None if _NUMBERED.search(conduct) or _CONDITION.match(conduct) else conduct

"""What every step of citing reads: the retrieval's state (`Citing`), a provision's kind (a
sanction or a rule), and what a provision's answering clause refers to."""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from ..core.config import RetrievalConfig
from ..core.records import Filter, Hit, Link, Unit, Via
from ..link.versions import grams
from ..parse.roles import role_of
from .expand import article_of
from .plan import Plan
from .route import Policy
from .scope import Scope

NOT_RULES = ("sanction", "scope", "definition")   # what a sanction may cite that is no rule it enforces
# conduct coverage tells sanctions apart only when the facts restate one conduct at least this much
# (half its wording; a design value: below it the shared pairs are a party's or an agency's name).
# Added for one tuning question (zh4-r-103); 0.3 / 0.5 / 0.7 give the same tuning figures; without
# it, one tuning question is lost and one validation question won (docs/retrieval.md, citing)
COVER_MIN = 0.5
ROLE_WINDOW = 3     # the other role is looked for among the next cite_max + ROLE_WINDOW hits


@dataclass(frozen=True)
class Citing:
    r: object                        # the Retriever: store, article graph, reference index
    hits: list[Hit]
    policy: Policy
    plan: Plan
    scope: Scope
    cfg: RetrievalConfig
    score: dict[str, float]          # re-rank score of every candidate
    focus: dict[str, str]            # article -> the clause / point that matched best
    units: dict[str, Unit | None]    # units read so far (more are read on demand)
    why: dict[str, Via]              # a cited reference -> the path that reached it
    base: dict[str, float] = field(default_factory=dict)   # score without the support part
    memo: dict = field(default_factory=dict)                # per-question answers kept (best_part)

    def unit(self, uid: str) -> Unit | None:
        if uid not in self.units:
            found = self.r.store.get([uid])
            self.units[uid] = found[0] if found else None
        return self.units[uid]


def kind_of(u: Unit | None) -> str:
    """'sanction' for a sanctioning provision (its stored role), else 'rule'."""
    return "sanction" if u is not None and role_of(u) == "sanction" else "rule"


def refs(c: Citing, uid: str, sanction: bool = False) -> list[str]:
    """What the answering clause of `uid` refers to, if relevant in its own right (scoring at
    least cite_refs of the best), or if `uid` is a sanction deferring its penalty to another
    sanction (`defers`); and, for a sanction, the provisions setting the amount it leaves open
    (`amount_set_by`)."""
    floor = (c.hits[0].score * c.policy.cite_refs) if c.policy.cite_refs else float("inf")
    out = []
    for x in focus_refs(c.r.ref_index(), uid, c.focus):
        u = c.unit(x)
        if c.scope.allows(u) and (c.score.get(x, 0.0) >= floor or
                                  sanction and kind_of(u) == "sanction" and defers(c, uid, x)):
            out.append(x)
            c.why.setdefault(x, Via("path", (Link(uid, "REFERENCES", x),)))
    for x in amount_set_by(c, uid) if sanction else ():
        if x not in out:
            out.append(x)
            c.why.setdefault(x, Via("path", (Link(x, "REFERENCES", uid),)))
    return out


_APPLIES = re.compile(r"依照|按照|根据")


def amount_set_by(c: Citing, uid: str) -> list[str]:
    """A Chinese sanction fining without an amount in the clause that fines ("…责令交还土地，处以罚款") leaves
    the amount to the provisions citing it in a clause that states one -- an implementing regulation's
    ("依照《土地管理法》第八十一条的规定处以罚款的，罚款额为非法占用土地每平方米100元以上500元以下"): the
    penalty asked is read in both. The citing clause applies the article's penalty (依照 / 按照 / 根据 it, not
    违反 it: a sanction for breaking it is another penalty) and fines with an amount; its article, in scope,
    is a sanction (a rule citing the article is no amount of its penalty)."""
    u = c.unit(uid)
    if u is None or u.language != "zh":
        return []
    lines = [x for x in unicodedata.normalize("NFC", u.text or "").splitlines() if "罚款" in x]
    if not lines or all(AMOUNT.search(x) for x in lines):
        return []
    out = []
    for x in c.r.cited_by().get(uid, ()):
        v = c.unit(x)
        if x == uid or v is None or not c.scope.allows(v) or kind_of(v) != "sanction":
            continue
        for src, target in c.r.ref_index().get(x, ()):
            w = c.unit(src) if src != x else v
            t = unicodedata.normalize("NFC", (w.text or "") if w is not None else "")
            if target == uid and "罚款" in t and AMOUNT.search(t) and _APPLIES.search(t) and "违反" not in t:
                out.append(x)
                break
    return out


# an amount of a penalty: a sum, a multiple, a share of a sum or a scale level ("五万元", "二倍以上五倍以下",
# "违法所得的10%以上30%以下" -- not any percentage: "超过规划条件10%的" is a condition -- "5 triệu đồng",
# "gấp 02 lần", "$10,000", "AED 50,000", "level 3"), or a custodial term ("三年以下有期徒刑",
# "phạt tù từ 01 năm đến 03 năm", "imprisonment for a term"); a clause stating one sets its own penalty
_CODES = r"(?:USD|AED|SGD|EUR|GBP|CNY|RMB|HKD)"
AMOUNT = re.compile(r"[0-9０-９一二两三四五六七八九十百千万亿]\s*(?:元|倍)"
                    r"|(?:违法所得|所得|价值|货值|金额|价款|收入|费用|款项)的?\s*(?:[0-9０-９.]+\s*[%％]|百分之)"
                    rf"|\d[\d.,]*\s*(?:triệu\s*|tỷ\s*)?(?:đồng|VN[DĐ]|lần|dollars?|dirhams?|penalty units?|{_CODES}\b)"
                    rf"|[$€£]\s*\d|\b(?:US\$|{_CODES})\s*\d|\b[Ll]evel\s*\d"
                    r"|有期徒刑|无期徒刑|拘役|phạt tù|tù chung thân|\bimprisonment for\b|\bterm of imprisonment\b|"
                    r"\byears'? imprisonment\b")


def defers(c: Citing, uid: str, target: str) -> bool:
    """Does the sanction `uid` defer its penalty to `target` ("依照本法第五十六条的规定处罚"):
    does a clause of `uid` cite `target` without stating an amount of its own? A clause that
    sets its own measure from another's ("在本法第五十六条…规定的罚款数额的二倍以上五倍以下确定")
    is the answer itself; what it builds on is context."""
    for src, t in c.r.ref_index().get(uid, ()):
        if t == target:
            u = c.unit(src)
            if u is None or not AMOUNT.search(unicodedata.normalize("NFC", u.text or "")):
                return True
    return False


def focus_refs(index: dict[str, list[tuple[str, str]]], uid: str, focus: dict[str, str]) -> list[str]:
    """Articles cited (REFERENCES) by the part of `uid` that matched the question (its focus:
    a clause with its points, or one point) or by the clauses holding it; when no clause
    matched (the unit came from dense search or expansion), by the whole unit."""
    sub = focus.get(uid, uid)
    above = {sub}
    while "/" in sub and sub != uid:
        sub = sub.rsplit("/", 1)[0]
        above.add(sub)
    below = focus.get(uid, uid) + "/"
    return list(dict.fromkeys(t for src, t in index.get(uid, ())
                              if (src in above or src.startswith(below)) and t != uid))


def reference_index(graph, implicit: bool = False, units: bool = False) -> dict[str, list[tuple[str, str]]]:
    """article -> (citing unit inside it, cited article), for resolved REFERENCES to units:
    those the text states, or (`implicit`) a penalty's link to the duty it restates without
    numbering it (link/duties.py), which pairs a sanction with its rule but is not a citation.
    `units`: the cited unit as the text numbers it (an article, or its clause: "第三十一条第三款")."""
    from ..link.duties import EXTRACTOR
    from ..link.resolve import is_placeholder
    cols = graph.columns()
    out: dict[str, list[tuple[str, str]]] = {}
    names = cols.vertices
    made = cols.extractor or ("",) * len(cols.type)
    for s, t, typ, ok, by in zip(cols.source, cols.target, cols.type, cols.resolved, made):
        if typ == "REFERENCES" and ok and (by == EXTRACTOR) == implicit and not is_placeholder(names[t]):
            out.setdefault(article_of(names[s]), []).append((names[s], names[t] if units else article_of(names[t])))
    return out


def best_part(c: Citing, part) -> bool:
    """Does the question's topic share at least as many grams with `part` as with any part beside it
    (same parent)? The focus is BM25's pick; one that another part beats on the topic's own words (BM25
    may rank a part first on its length) is not followed; a tie, or an empty topic, keeps BM25's pick."""
    key = ("best_part", part.id, c.plan.topic)      # asked once per pair compared (sanctions._better)
    if key not in c.memo:
        want = grams(c.plan.topic)
        siblings = c.r.store.where(Filter(under=(part.parent_id,), kinds=(part.kind,))) if part.parent_id else []
        mine = len(want & grams(part.text))
        c.memo[key] = all(len(want & grams(u.text)) <= mine for u in siblings if u.parent_id == part.parent_id)
    return c.memo[key]

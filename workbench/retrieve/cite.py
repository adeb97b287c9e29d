"""What the answer rests on: the cited set, chosen from the re-ranked hits under the question
type's policy. Each strategy is a small function over a `Citing` context."""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace

from ..core.config import RetrievalConfig
from ..core.records import Filter, Hit, Link, Unit, Via
from ..link.versions import article_history, grams
from .expand import article_of
from .pairing import partners, parts
from .plan import Plan
from ..parse.roles import role_of
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

    def unit(self, uid: str) -> Unit | None:
        if uid not in self.units:
            found = self.r.store.get([uid])
            self.units[uid] = found[0] if found else None
        return self.units[uid]


def choose(c: Citing, history: list[str], hops: dict[str, int], pair: bool = True) -> list[str]:
    """The cited set: an article's history in every version; role citing (rule + sanction);
    else the hits within the margin (plus linked hits for reasoning), then what the best one's
    answering clause refers to (with its counterparts, for a version comparison)."""
    if len(history) > 1:                    # "追溯…的修改历程": the article in every version
        return history
    if c.policy.cite_roles:
        return by_roles(c)
    cited = within_margin(c.hits, c.policy.cite_max, c.policy.cite_margin)
    if c.plan.type == "reasoning":
        cited = linked_hits(c, cited, hops)
    ranked = cited
    cited = asked_role(c, cited)
    # what answers: the best-ranked unit -- and, when a sanction was put before it, the sanction
    # with what it defers its penalty to
    led = bool(ranked) and cited[1:2] == ranked[:1] and c.plan.type != "version_diff"
    heads = [(cited[0], True), (cited[1], False)] if led else [(cited[0], False)] if cited else []
    if pair and c.plan.type == "version_diff":
        cited = with_parts(c, named_versions(c, cited))
    if cited:                               # "…应当符合本法第五十条第二款的规定": that too
        extra = [x for h, sanction in heads for x in refs(c, h, sanction=sanction) if x not in cited]
        if pair and c.plan.type == "version_diff":   # ... with its counterpart in the other version
            extra += [p for x in extra for p in partners(c.r.agraph, x, c.score) if p not in cited]
        cited += list(dict.fromkeys(extra))
    return cited


def asked_role(c: Citing, cited: list[str]) -> list[str]:
    """A question asking how something is punished rests on a sanction (its role, parse/roles.py: a fine,
    revocation, liability), whatever its type. When the best cited unit is a rule, the sanction
    enforcing it is chosen as in `by_roles` (one whose sanctioning clause cites it, else the one
    naming the question's facts) among the sanctions in the next cite_max + ROLE_WINDOW hits: a
    comparison cites that sanction in both versions (the penalty is what changed) -- and the rule
    pair too when it asks for the requirement as well and the text links the two
    (`compared_rule_and_sanction`); other types cite the rule and its sanction -- the sanction
    first (it answers a question asking only how an act is punished, and the ranking leads with
    the cited units), unless the question asks for the duty too."""
    if cited and c.plan.type == "version_diff" and c.plan.route.sanction and "obligation" in c.plan.route.asks:
        both = compared_rule_and_sanction(c, cited)
        if both:
            return both
    if not cited or not c.plan.route.sanction or _role(c, cited[0]) == "sanction":
        return cited
    pool = [h for h in c.hits[:c.policy.cite_max + ROLE_WINDOW] if _role(c, h.unit_id) == "sanction"]
    if not pool:
        return cited
    enforces = enforcing(c, cited[0], [h.unit_id for h in pool])
    pool = [h for h in pool if h.unit_id in enforces] or pool
    match = fact_match(c, [h.unit_id for h in pool]) if len(pool) > 1 else {}
    best = max(pool, key=lambda h: (match.get(h.unit_id, 0.0), h.score)).unit_id
    if c.plan.type == "version_diff":
        return _with_counterpart(c, best)
    if c.plan.route.asks_duty:
        return [cited[0], best]
    return [best, cited[0]]


def compared_rule_and_sanction(c: Citing, cited: list[str]) -> list[str]:
    """A comparison asking for a requirement and the penalty for breaking it ("对…停放的要求以及
    违反停放要求的罚则作了哪些改变") compares both provisions: the best cited unit, and among
    the next cite_max + ROLE_WINDOW hits the unit of the other role linked to it by the text (a
    sanction citing or restating the rule, in this or the counterpart version), each followed by
    its counterpart; [] without such a link (the sanction pair alone is cited then). A duty
    asked for (route.ASKED["obligation"]: 要求, 义务, must …) counts here, not a prohibition
    word: in a comparison that is mostly the facts ("收了…禁止收购的物品，…在处罚上有什么差别"
    asks the penalty alone)."""
    first = cited[0]
    window = [h.unit_id for h in c.hits[:c.policy.cite_max + ROLE_WINDOW] if h.unit_id != first]
    pair = _with_counterpart(c, first)
    if _role(c, first) == "sanction":
        rules = {r for s in pair for r in enforced(c, s)}
        other = [u for u in window if _role(c, u) != "sanction" and u in rules]
    else:
        sanctions = [u for u in window if _role(c, u) == "sanction"]
        linked = {s for r in pair for s in enforcing(c, r, sanctions)}
        other = [u for u in sanctions if u in linked]
    return list(dict.fromkeys(pair + _with_counterpart(c, other[0]))) if other else []


def _with_counterpart(c: Citing, uid: str) -> list[str]:
    """`uid` and its best-scored aligned counterpart among the candidates."""
    return [uid] + sorted((p for p in partners(c.r.agraph, uid, c.score) if p != uid), key=lambda p: -c.score[p])[:1]


def _role(c: Citing, uid: str) -> str:
    return kind_of(c.unit(uid))


def kind_of(u: Unit | None) -> str:
    """'sanction' for a sanctioning provision (its stored role), else 'rule'."""
    return "sanction" if u is not None and role_of(u) == "sanction" else "rule"


def named_versions(c: Citing, cited: list[str]) -> list[str]:
    """A comparison of versions the question names ("比较2008年版和2021年版…") cites the
    provision in each named version: the counterpart (along the version alignment, which
    follows renumbering) of the first cited unit in a named version that has none cited is
    added -- or, when the alignment does not reach that version, its best-ranked hit; a version
    between them gives way to it when the cited set is full, never the reverse."""
    if not cited:
        return cited
    key = cited[0].split("@")[0]
    named = sorted(v for v in c.scope.named if v.startswith(key + "@"))
    if len(named) < 2:
        return cited
    chain = article_history(cited[0], c.r.graph.older_version, c.r.graph.newer_version)
    at = {uid.split("/")[0]: uid for uid in chain}
    out = list(cited)
    for v in named:
        if any(x.split("/")[0] == v for x in out):
            continue
        if v not in at:     # the alignment does not reach it: the named version's best-ranked unit stands in
            stand_in = next((h.unit_id for h in c.hits if h.unit_id.split("/")[0] == v), None)
            if stand_in is None:
                continue
            at[v] = stand_in
        if len(out) >= c.policy.cite_max:
            between = [x for x in out if x.startswith(key + "@") and x.split("/")[0] not in named]
            if between:
                out.remove(between[-1])
        out.append(at[v])
    return out


def with_parts(c: Citing, cited: list[str]) -> list[str]:
    """An article merged from two of the older version, or split into two in the newer one, is
    compared with every part that bears on the question: the articles a cited unit was merged
    with or split from, in a version cited or named, are cited too (会计法 2024 Art. 41 joins
    2017 Arts. 43 and 44) when their text went into, or came out of, the clause that answers
    the question (`fed_focus`). Parts come on top of cite_max: each is the same provision."""
    docs = {x.split("/")[0] for x in cited} | set(c.scope.named)
    out = list(cited)
    for x in cited:
        out += [p for p, holder in parts(c.r.graph, x)
                if p not in out and p.split("/")[0] in docs and fed_focus(c, holder, p if holder == x else x)]
    return out


def fed_focus(c: Citing, holder: str, part: str) -> bool:
    """Does `part`'s text sit in the clause of `holder` that matched the question (its focus)?
    True when no single clause matched (the whole article answers) or `holder` has one clause;
    else the clause sharing most of `part`'s grams must be the focus (an article merging the
    declaration periods for sale and for slaughter answers a question on sale by one clause)."""
    focus = c.focus.get(holder, holder)
    if focus.count("/") < 2:
        return True
    clauses = c.r.store.where(Filter(under=(holder,), kinds=("clause",)))
    if len(clauses) < 2:
        return True
    if c.unit(part) is None:
        return False
    mine = grams(c.unit(part).text)
    best = max(clauses, key=lambda u: len(mine & grams(u.text)))
    return best.id == "/".join(focus.split("/")[:3])


def within_margin(hits: list[Hit], most: int, margin: float) -> list[str]:
    """At most `most` units within `margin` (a share of the best score) of the best."""
    if not hits:
        return []
    floor = hits[0].score * (1 - margin)
    return [h.unit_id for h in hits[:most] if h.score >= floor]


def linked_hits(c: Citing, cited: list[str], hops: dict[str, int]) -> list[str]:
    """Multihop answers rest on linked provisions: besides the units within the margin, cite
    the units among the top hits that an allowed edge links to the cited ones."""
    out = list(cited)
    for h in c.hits[:c.policy.cite_max + 2]:
        if len(out) >= c.policy.cite_max:
            break
        if h.unit_id not in out and c.r.agraph.linked(h.unit_id, set(out), lambda t, _: hops.get(t, 0) > 0):
            out.append(h.unit_id)
    return out


def refs(c: Citing, uid: str, sanction: bool = False) -> list[str]:
    """What the answering clause of `uid` refers to, if relevant in its own right (scoring at
    least cite_refs of the best), or if `uid` is a sanction deferring its penalty to another
    sanction (`defers`)."""
    floor = (c.hits[0].score * c.policy.cite_refs) if c.policy.cite_refs else float("inf")
    out = []
    for x in focus_refs(c.r.ref_index(), uid, c.focus):
        u = c.unit(x)
        if c.scope.allows(u) and (c.score.get(x, 0.0) >= floor or
                                  sanction and kind_of(u) == "sanction" and defers(c, uid, x)):
            out.append(x)
            c.why.setdefault(x, Via("path", (Link(uid, "REFERENCES", x),)))
    return out


# an amount of a penalty: a sum, a multiple or a scale level ("五万元", "二倍以上五倍以下",
# "5 triệu đồng", "gấp 02 lần", "$10,000", "AED 50,000", "level 3"), or a custodial term ("三年以下有期徒刑",
# "phạt tù từ 01 năm đến 03 năm", "imprisonment for a term"); a clause stating one sets its own penalty
_CODES = r"(?:USD|AED|SGD|EUR|GBP|CNY|RMB|HKD)"
AMOUNT = re.compile(r"[0-9０-９一二两三四五六七八九十百千万亿]\s*(?:元|倍)"
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


def by_roles(c: Citing) -> list[str]:
    """A question joining a duty and its sanction rests on one provision of each role
    (parse/roles.py), plus the provisions those rely on, at most cite_max in all (a named
    sanction asked about alone: it and what it defers to): the best hit;
    if the question asks about a sanction, the hit of the other role among the next
    cite_max + ROLE_WINDOW (within the margin): one with a sanctioning clause citing the best
    hit (`enforcing`), else the one naming the question's facts most literally (`fact_match`:
    sanction provisions share their boilerplate, so they all look alike to the embedder; none for
    a best sanction citing or restating no rule, asked only the penalty: it states its own offence) -- the
    sanction first when only the penalty is asked, a pair linked by the text when the duty is too;
    then what each of these refers to from its answering clause (`refs`); then any of the
    next hits that a cited unit references."""
    hits, policy = c.hits, c.policy
    if not hits:
        return []
    kind = lambda h: kind_of(h.unit)  # noqa: E731
    if hits[0].via.kind == "direct" and kind(hits[0]) == "sanction" and set(c.plan.route.asks) == {"sanction"} \
            and len(c.plan.route.articles) == 1:
        # "第六十三条规定，罚款可以怎样加重": the sanction the question names is the answer
        return ([hits[0].unit_id] + refs(c, hits[0].unit_id, sanction=True))[:policy.cite_max]
    if c.plan.route.sanction and not c.plan.route.asks_duty and kind(hits[0]) == "sanction" \
            and not enforced_rules(c, hits[0].unit_id):
        # a sanction that neither cites nor restates a rule states the offence itself (a criminal code's
        # article: the act and its penalty in one provision; what it cites are other offences, the code's
        # reach, its definitions): asked only the penalty, it is cited alone, with what its penalty defers to
        return ([hits[0].unit_id] + refs(c, hits[0].unit_id, sanction=True))[:policy.cite_max]
    floor = hits[0].score * (1 - policy.cite_margin)
    window = hits[1:policy.cite_max + 1 + ROLE_WINDOW]
    chosen = [hits[0]]
    other = [h for h in window if kind(h) != kind(hits[0]) and h.score >= floor]
    if c.plan.route.sanction and other and policy.cite_max > 1:
        if kind(hits[0]) == "sanction":     # the rule it enforces: one it cites, or restates
            enforces = enforced(c, hits[0].unit_id)
        else:                               # the sanction enforcing it: one citing it
            enforces = enforcing(c, hits[0].unit_id, [h.unit_id for h in other])
        pool = [h for h in other if h.unit_id in enforces] or other
        match = fact_match(c, [h.unit_id for h in pool]) if len(pool) > 1 else {}   # a full-text query
        if pool:
            chosen.append(max(pool, key=lambda h: (match.get(h.unit_id, 0.0), h.score)))
    if c.plan.route.sanction and c.plan.route.asks_duty and policy.cite_max > 1:
        chosen = linked_pair(c, window, floor, chosen)
    elif c.plan.route.sanction and len(chosen) == 2 and kind(chosen[0]) != "sanction":
        chosen.reverse()                    # asked how it is punished: the sanction leads (as in asked_role)
    out = [h.unit_id for h in chosen]
    for h in chosen:
        out += [x for x in refs(c, h.unit_id, sanction=kind(h) == "sanction") if x not in out]
    for h in window:
        if len(out) >= policy.cite_max:
            break
        if h.unit_id not in out and c.r.agraph.linked(h.unit_id, set(out),
                                                     lambda t, arrow: t == "REFERENCES" and arrow == "<-"):
            out.append(h.unit_id)
            out += [x for x in refs(c, h.unit_id, sanction=kind(h) == "sanction") if x not in out]
    return out[:policy.cite_max]


def enforced_rules(c: Citing, sanction: str) -> set[str]:
    """Of what a sanction cites or restates, the rules: not another sanction (another offence), the
    instrument's reach or a definition (NOT_RULES)."""
    return {t for t in enforced(c, sanction) if (u := c.unit(t)) is not None and role_of(u) not in NOT_RULES}


def enforced(c: Citing, sanction: str) -> set[str]:
    """What a sanction's text cites, or restates (link/duties.py): the rules it enforces, and any
    other provision it names (`enforced_rules` keeps the rules)."""
    return {t for index in (c.r.ref_index(), c.r.duty_index()) for _, t in index.get(sanction, ())}


def linked_pair(c: Citing, window: list[Hit], floor: float, chosen: list[Hit]) -> list[Hit]:
    """A duty-and-penalty question is answered by a sanction *and the rule it enforces*: of the
    candidate pairs -- a sanction among the leading hits (within the margin) with a rule it cites
    or restates, or a leading rule with a sanction citing it -- the one whose two provisions score
    highest together replaces the pair chosen from the best hit alone, when it scores higher.
    Scores are taken without their support part, which already rewards the same link. Only for
    a question asking for the rule broken as well as the penalty; the link between the two is
    what the legislation states, and no pair is made without one."""
    score = c.base or c.score
    value = lambda pair: sum(score.get(h.unit_id, 0.0) for h in pair)   # noqa: E731
    lead = [h for h in [c.hits[0], *window] if h.score >= floor]
    best, best_value = chosen, value(chosen) if len(chosen) > 1 else 0.0
    sanctions = [h.unit_id for h in c.hits if kind_of(h.unit) == "sanction"]
    by_id = {h.unit_id: h for h in c.hits}
    for h in lead:
        if kind_of(h.unit) == "sanction":
            partners = [x for x in enforced(c, h.unit_id) if x in score and x != h.unit_id]
        else:
            partners = sorted(enforcing(c, h.unit_id, sanctions))
        for x in partners:
            u = c.unit(x)
            if u is None or not c.scope.allows(u) or kind_of(u) == kind_of(h.unit):
                continue
            pair = [h, by_id.get(x) or Hit(x, score.get(x, 0.0), Via("path", (Link(h.unit_id, "REFERENCES", x),)), u)]
            if value(pair) > best_value:
                best, best_value = pair, value(pair)
    for h in best:
        if h.unit_id not in by_id:
            c.why.setdefault(h.unit_id, h.via)
    return best


def fact_match(c: Citing, ids: list[str]) -> dict[str, float]:
    """How literally each of `ids` (articles) names the question's facts: BM25 of the topic
    without its duty-and-penalty frame (`Plan.facts`), over the articles and their parts, in
    the instruments the question names, if any. Sanctions that each restate the conduct they
    punish (link/duties.py) are told apart by that conduct instead, when the facts restate one
    (coverage at least COVER_MIN): the one whose conduct the facts cover best (`conduct_cover`),
    BM25 breaking ties."""
    from .seeds import lexical
    if not ids:
        return {}
    keys = tuple(sorted(c.scope.keys))
    hits, _ = lexical(c.r, c.plan.facts, c.plan.language, replace(c.cfg, candidates=len(ids)),
                      Filter(ids=tuple(ids), keys=keys), Filter(under=tuple(ids), keys=keys))
    bm25 = {h.unit_id: h.score for h in hits}
    cover = conduct_cover(c, ids)
    if not cover or max(cover.values()) < COVER_MIN:     # the facts restate no conduct: wording decides
        return bm25
    top = max(bm25.values(), default=0.0) or 1.0
    return {uid: cover[uid] + bm25.get(uid, 0.0) / top * 1e-3 for uid in ids}


def conduct_cover(c: Citing, ids: list[str]) -> dict[str, float]:
    """For sanctions that each restate a conduct (a Chinese penalty: "无生产配额许可证生产…的，由…
    处…罚款", or its listed points, with the party their list names), the share of the best-covered
    conduct's character pairs that the question's facts contain: the offence whose elements the
    facts name. {} unless every one of `ids` is a sanction restating a conduct (one citing its rule
    by number is compared by BM25 as before)."""
    from ..link.duties import char_pairs, restated_conducts
    if c.plan.language != "zh" or any(kind_of(c.unit(a)) != "sanction" for a in ids):
        return {}
    facts = set(char_pairs(c.plan.facts))
    below = c.r.store.where(Filter(under=tuple(ids)))
    out = {}
    for a in ids:
        units = [u for u in [c.unit(a)] + [u for u in below if u.id.startswith(a + "/")] if u is not None]
        conducts = [set(char_pairs(x)) for x in restated_conducts(units)]
        conducts = [p for p in conducts if p]
        if not conducts:
            return {}
        out[a] = max(len(p & facts) / len(p) for p in conducts)
    return out


def enforcing(c: Citing, rule: str, ids: list[str]) -> set[str]:
    """Those of `ids` with a sanctioning clause that cites `rule` ("A licensee who breaches
    any duty under Article 10 is liable to a fine"; "有下列情形之一的，处…罚款：（一）违反本法
    第三十四条…": the citing point and the clause holding it are read together): the penalty
    for breaking it."""
    within: dict[str, str] = {}        # the citing unit and the parts holding it, below the article
    for uid in ids:
        for src, target in c.r.ref_index().get(uid, []) + c.r.duty_index().get(uid, []):
            if target == rule:
                while src != uid and "/" in src:
                    within[src] = uid
                    src = src.rsplit("/", 1)[0]
    return {within[u.id] for u in c.r.store.get(within) if kind_of(u) == "sanction"}


def reference_index(graph, implicit: bool = False) -> dict[str, list[tuple[str, str]]]:
    """article -> (citing unit inside it, cited article), for resolved REFERENCES to units:
    those the text states, or (`implicit`) a penalty's link to the duty it restates without
    numbering it (link/duties.py), which pairs a sanction with its rule but is not a citation."""
    from ..link.duties import EXTRACTOR
    from ..link.resolve import is_placeholder
    cols = graph.columns()
    out: dict[str, list[tuple[str, str]]] = {}
    names = cols.vertices
    made = cols.extractor or ("",) * len(cols.type)
    for s, t, typ, ok, by in zip(cols.source, cols.target, cols.type, cols.resolved, made):
        if typ == "REFERENCES" and ok and (by == EXTRACTOR) == implicit and not is_placeholder(names[t]):
            out.setdefault(article_of(names[s]), []).append((names[s], article_of(names[t])))
    return out

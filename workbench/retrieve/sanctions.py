"""Citing by provision role: a question joining a duty and its sanction rests on one provision
of each role (parse/roles.py), linked by what the text states (a sanction citing or restating
the rule it enforces, link/duties.py), else told apart by the question's facts."""
from __future__ import annotations

import re
from dataclasses import replace

from ..core.records import Filter, Hit, Link, Via
from ..parse.roles import role_of
from .asked import asks_who_imposes
from .citing import COVER_MIN, NOT_RULES, ROLE_WINDOW, Citing, best_part, kind_of, refs


def by_roles(c: Citing) -> list[str]:
    """A question joining a duty and its sanction rests on one provision of each role
    (parse/roles.py), plus the provisions those rely on, at most cite_max in all (a named
    sanction asked about alone: it and what it defers to): the best hit;
    if the question asks about a sanction, the hit of the other role among the next
    cite_max + ROLE_WINDOW (within the margin): one with a sanctioning clause citing the best
    hit (`enforcing`), else the one naming the question's facts most literally (`fact_match`:
    sanction provisions share their boilerplate, so they all look alike to the embedder; none for
    a best sanction citing or restating no rule, asked only the penalty: it states its own offence) -- and
    when the best hit is a rule the chosen sanction does not enforce, the leading rule it does enforce in
    its place, if any (`enforced_rule`) -- then, of the pairs the text links among the leading hits, the
    one scoring highest together in its place (`linked_pair`), the sanction first when only the penalty is asked;
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
            if kind(hits[0]) != "sanction" and chosen[1].unit_id not in enforces:
                lead = [h for h in [hits[0], *window] if h.score >= floor and kind(h) != "sanction"]
                chosen[0] = enforced_rule(c, chosen[1].unit_id, lead) or chosen[0]
    if c.plan.route.sanction and policy.cite_max > 1 and all(kind(h) != "sanction" for h in chosen):
        # asked the penalty, no sanction among the leading hits: the one the text links to the rule
        linked = stated_sanction(c, hits[0].unit_id)
        if linked is not None:
            chosen.append(linked)
    if c.plan.route.sanction and policy.cite_max > 1:
        # asked the penalty, with or without the duty: the pair the text links (a scenario's penalty is read
        # with the rule the facts broke -- the sanction leads when only the penalty is asked)
        chosen = linked_pair(c, window, floor, chosen)
    if c.plan.route.sanction and not c.plan.route.asks_duty and len(chosen) == 2 and kind(chosen[0]) != "sanction":
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


def stated_sanction(c: Citing, rule: str) -> Hit | None:
    """The sanction of `rule`'s version whose sanctioning clause cites or restates it (`enforcing`), looked
    for over the whole version when no sanction ranks among the leading hits (a penalty asked, the rule
    found, the sanction worded far from the question: "拒不提供便利" for "一口回绝了，什么支持都不给"):
    the best-ranked of them, else the lowest-numbered. None when the text links none to it. Measured on
    the zh sets, the ObliQA tuning part (no question moved) and the ALQAC tuning part (one question's
    ranking moved, no figure)."""
    ids = [u.id for u in c.r.articles(rule.split("/")[0]) if kind_of(u) == "sanction" and c.scope.allows(u)]
    found = enforcing(c, rule, ids)
    if not found:
        return None
    number = lambda x: n if (u := c.unit(x)) is not None and (n := u.article_no) is not None else 10 ** 9  # noqa: E731
    best = max(found, key=lambda x: (c.score.get(x, float("-inf")), -number(x), x))
    via = Via("path", (Link(best, "REFERENCES", rule),))
    c.why.setdefault(best, via)
    return Hit(best, c.score.get(best, 0.0), via, c.unit(best))


def enforced_rule(c: Citing, sanction: str, lead: list[Hit]) -> Hit | None:
    """Of the leading rules (`lead`: the hits a rule is cited from, within the margin, best first), the
    best-ranked one a sanctioning clause of `sanction` cites or restates (`enforcing`): what a sanction
    chosen by the facts answers for, when the best hit is a rule it does not enforce (a penalty listing
    "营业期间…锁闭…安全出口的" restates the rule listing that duty, not the patrol duty that ranked first)
    -- not an article it names for the competent body or the procedure. None when it enforces none."""
    return next((h for h in lead if c.scope.allows(h.unit) and enforcing(c, h.unit_id, [sanction])), None)


def enforced_rules(c: Citing, sanction: str) -> set[str]:
    """Of what a sanction cites or restates, the rules: not another sanction (another offence), the
    instrument's reach or a definition (NOT_RULES)."""
    return {t for t in enforced(c, sanction) if (u := c.unit(t)) is not None and role_of(u) not in NOT_RULES}


def enforced(c: Citing, sanction: str, restated: bool = True) -> set[str]:
    """What a sanction's text cites, or (`restated`) restates (link/duties.py): the rules it enforces,
    and any other provision it names (`enforced_rules` keeps the rules)."""
    indexes = (c.r.ref_index(), c.r.duty_index()) if restated else (c.r.ref_index(),)
    return {t for index in indexes for _, t in index.get(sanction, ())}


def linked_pair(c: Citing, window: list[Hit], floor: float, chosen: list[Hit]) -> list[Hit]:
    """A penalty question is answered by a sanction *and the rule it enforces*: of the
    candidate pairs -- a sanction among the leading hits (within the margin) with a rule it cites
    or restates, or a leading rule with a sanction citing it -- the one whose two provisions score
    highest together replaces the pair chosen from the best hit alone, when it scores higher.
    Scores are taken without their support part, which already rewards the same link. For a
    question asking the penalty (the rule broken asked too or not: a scenario asking only "how is
    this punished" is answered by the sanction and the rule the facts broke); the link between the
    two is what the legislation states, and no pair is made without one. A pair chosen from the best hit
    whose two provisions belong to two instruments, neither citing nor restating the other, is no
    pair at all (a sanction enforces its own instrument's rules or those it names): any linked pair
    replaces it."""
    score = c.base or c.score
    value = lambda pair: sum(score.get(h.unit_id, 0.0) for h in pair)   # noqa: E731
    lead = [h for h in [c.hits[0], *window] if h.score >= floor]
    best, best_value = chosen, value(chosen) if len(chosen) > 1 and not _unrelated(c, *chosen[:2]) else 0.0
    sanctions = [h.unit_id for h in c.hits if kind_of(h.unit) == "sanction"]
    by_id = {h.unit_id: h for h in c.hits}
    for h in lead:
        if kind_of(h.unit) == "sanction":
            partners = [x for x in enforced_rules(c, h.unit_id) if x in score and x != h.unit_id]   # not a definition
        else:
            partners = sorted(enforcing(c, h.unit_id, sanctions))
        for x in partners:
            u = c.unit(x)
            if u is None or not c.scope.allows(u) or kind_of(u) == kind_of(h.unit):
                continue
            pair = [h, by_id.get(x) or Hit(x, score.get(x, 0.0), Via("path", (Link(h.unit_id, "REFERENCES", x),)), u)]
            if _better(c, pair, value(pair), best, best_value):
                # a swap to the focus-citing sanction of the same rule keeps that rule's standing
                same = len(best) > 1 and _rule(pair) == _rule(best)
                best, best_value = pair, max(value(pair), best_value) if same else value(pair)
    for h in best:
        if h.unit_id not in by_id:
            c.why.setdefault(h.unit_id, h.via)
    return best


def _better(c: Citing, pair: list[Hit], value: float, best: list[Hit], best_value: float) -> bool:
    """Does `pair` (a sanction and a rule) beat `best`? The higher score together -- but of two pairs on one
    rule, the one whose sanction cites the clause of it the question fell under (`cites_focus`) first."""
    if len(best) > 1 and best_value > 0 and _rule(pair) is not None and _rule(pair) == _rule(best):
        mine, theirs = cites_focus(c, *pair), cites_focus(c, *best[:2])
        if mine != theirs:
            return mine
    return value > best_value


def _rule(pair: list[Hit]) -> str | None:
    return next((h.unit_id for h in pair if kind_of(h.unit) != "sanction"), None)


def cites_focus(c: Citing, a: Hit, b: Hit) -> bool:
    """Of a sanction and a rule (either order), does the sanction cite the very clause of the rule that
    matched the question ("违反本法第三十一条第三款规定…" for a question on its third clause)? A rule of
    several clauses is often enforced clause by clause by several sanctions; the one citing the clause
    the facts fall under is its penalty. The focus must be the clause sharing most of the topic's
    grams (`best_part`), not one BM25 ranked first on length. Chinese only: measured on the zh sets, not
    on ALQAC or ObliQA."""
    sanction, rule = (a, b) if kind_of(a.unit) == "sanction" else (b, a)
    if c.plan.language != "zh" or kind_of(sanction.unit) != "sanction" or kind_of(rule.unit) == "sanction":
        return False
    focus = c.focus.get(rule.unit_id, rule.unit_id)
    part = c.unit(focus) if focus.count("/") > 1 else None
    if part is None or not best_part(c, part):
        return False
    # the clause itself, a point of it, or -- a point matched -- the clause holding it
    return any(t == focus or t.startswith(focus + "/") or t.count("/") > 1 and focus.startswith(t + "/")
               for _, t in c.r.ref_units().get(sanction.unit_id, ()))


def _unrelated(c: Citing, a: Hit, b: Hit) -> bool:
    """Two provisions of two instruments, neither citing nor restating the other. Restatements are
    linked within one instrument only (link/duties.py), so across instruments only a citation by
    number links them: a regulation's penalty restating a statute's duty without its number is read
    as unrelated to it."""
    if a.unit is None or b.unit is None or a.unit.key == b.unit.key:
        return False
    x, y = a.unit_id, b.unit_id
    return not (y in enforced(c, x) or x in enforced(c, y))


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


# a sanction naming the body that imposes it ("由县级以上地方人民政府…责令…，处…罚款", "…的，农业农村主管部门责令关闭…",
# "the Regulator may impose") -- not "由于", nor a party bearing a liability ("由责任人依法承担赔偿责任")
NAMES_IMPOSER = re.compile(r"由(?!于)[^，。；：]{2,40}?(?:处以?|给予|予以|责令|没收|吊销|撤销|作出)|"
                           r"的，[^，。；：]{0,30}?(?:部门|机关|机构|政府|委员会|局)(?:依法)?(?:责令|处以?|给予|予以|没收|吊销|撤销)|"
                           r"\b(?:Regulator|Authority|Court|Registrar|Secretary of State|court|tribunal)\b[^.;]{0,20}\b"
                           r"(?:may|shall|must) (?:impose|issue a penalty|fine)|(?:có thẩm quyền|được quyền|có quyền)[^.;]{0,10}(?:xử )?phạt")
# a provision assigning who imposes the penalties of others ("本条例第六十七条…规定的处罚，由…作出处罚决定",
# "…实施的处罚，由县级人民政府兵役机关具体办理", "Thẩm quyền xử phạt")
ASSIGNS_IMPOSER = re.compile(r"(?:处罚|处分)[^。；]{0,6}由[^。；]{2,40}?(?:办理|决定|作出|执行|实施)|由[^。；]{2,40}?作出(?:行政)?处罚决定|"
                             r"thẩm quyền xử phạt|\bpowers? to impose\b", re.IGNORECASE)


def with_imposer(c: Citing, cited: list[str]) -> list[str]:
    """Asked who imposes the penalty ("处罚由谁决定"), when no cited sanction names the body imposing it
    ("…逃避兵役登记的，依法给予处罚") and no cited provision assigns it, the provision of that sanction's
    version that does ("第六十七条…规定的处罚，由县级以上地方人民政府兵役机关…作出处罚决定") is cited too: of the
    next cite_max + ROLE_WINDOW hits, one citing the sanction first, else the best-ranked."""
    if not cited or not c.plan.route.sanction or not asks_who_imposes(c.plan.question or ""):
        return cited
    ids = {x for x in cited if kind_of(c.unit(x)) == "sanction"}
    if not ids or any(NAMES_IMPOSER.search(_whole(c, x)) for x in ids) or \
            any(ASSIGNS_IMPOSER.search(_whole(c, x)) for x in cited if x not in ids):
        return cited
    versions = {x.split("/")[0] for x in ids}
    found = [h for h in c.hits[:c.policy.cite_max + ROLE_WINDOW] if h.unit_id not in cited and
             h.unit_id.split("/")[0] in versions and c.scope.allows(h.unit) and ASSIGNS_IMPOSER.search(_whole(c, h.unit_id))]
    citing = [h for h in found if any(t in ids for _, t in c.r.ref_index().get(h.unit_id, ()))]
    return cited + [(citing or found)[0].unit_id] if found else cited


def _whole(c: Citing, uid: str) -> str:
    """An article's text with its parts' (an article may be stored as its clauses)."""
    below = c.r.store.where(Filter(under=(uid,)))
    return "\n".join(u.text or "" for u in [c.unit(uid), *below] if u is not None)

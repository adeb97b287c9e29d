"""What the answer rests on: the cited set, chosen from the re-ranked hits under the question
type's policy. Each strategy is a small function over a `Citing` context."""
from __future__ import annotations

import math

from ..core.records import Filter, Hit
from ..link.versions import PART, PART_LEAD, PART_MIN, article_history, grams
from .asked import ASKS_PERIOD, states_period
from .citing import ROLE_WINDOW, Citing, best_part, focus_refs, kind_of, refs
from .expand import article_of
from .pairing import aligned_elsewhere, partners, parts
from .plan import BOTH
from .party import by_party, with_other_party
from .sanctions import by_roles, enforced, enforced_rules, enforcing, fact_match, stated_sanction, with_imposer


def choose(c: Citing, history: list[str], hops: dict[str, int], pair: bool = True) -> list[str]:
    """The cited set: an article's history in every version; role citing (rule + sanction);
    else the hits within the margin (plus linked hits for reasoning), then what the best one's
    answering clause refers to (with its counterparts, for a version comparison)."""
    if len(history) > 1:                    # "追溯…的修改历程": the article in every version
        return history
    if c.policy.cite_roles:
        return with_imposer(c, with_other_party(c, by_party(c, by_roles(c))))
    cited = within_margin(c.hits, c.policy.cite_max, c.policy.cite_margin)
    if c.plan.type == "reasoning":
        cited = linked_hits(c, cited, hops)
    ranked = cited
    cited = asked_period(c, asked_role(c, cited))
    # what answers: the best-ranked unit -- and, when a sanction was put before it, the sanction
    # with what it defers its penalty to
    led = bool(ranked) and cited[1:2] == ranked[:1] and c.plan.type != "version_diff"
    heads = [(u, _role(c, u) == "sanction") for u in cited[:2]] if led else [(cited[0], False)] if cited else []
    if pair and c.plan.type == "version_diff":
        cited = with_parts(c, moved_focus(c, named_versions(c, cited)))
    if cited:                               # "…应当符合本法第五十条第二款的规定": that too
        extra = [x for h, sanction in heads for x in refs(c, h, sanction=sanction) if x not in cited]
        if pair and c.plan.type == "version_diff":   # ... with its counterpart in the other version
            extra += [p for x in extra for p in partners(c.r.agraph, x, c.score) if p not in cited]
        cited += list(dict.fromkeys(extra))
    return with_imposer(c, with_other_party(c, by_party(c, cited)))


def asked_role(c: Citing, cited: list[str]) -> list[str]:
    """A question asking how something is punished rests on a sanction (its role, parse/roles.py: a fine,
    revocation, liability), whatever its type. When the best cited unit is a rule, the sanction
    enforcing it is chosen as in `by_roles` (one whose sanctioning clause cites it, else the one
    naming the question's facts) among the sanctions in the next cite_max + ROLE_WINDOW hits: a
    comparison cites that sanction in both versions (the penalty is what changed) -- and the rule
    pair too when it asks for the requirement as well and the text links the two
    (`compared_rule_and_sanction`); other types asking the duty too cite the rule and its sanction;
    asked only how an act is punished, they cite the sanction (the ranking leads with the cited
    units) and the rule only when the sanction cites it by number ("违反本法第九条规定，…的，处…": the
    offence is read in the rule) -- a sanction naming the conduct itself ("无生产配额许可证生产…的，…处…")
    states the offence in full. A sanction cited first, asked the duty too, comes with the rule it
    cites or restates (`enforced_rules`), that rule first."""
    if cited and c.plan.type == "version_diff" and c.plan.route.sanction and "obligation" in c.plan.route.asks:
        both = compared_rule_and_sanction(c, cited)
        if both:
            return both
    if cited and c.plan.route.sanction and c.plan.route.asks_duty and c.plan.type != "version_diff" \
            and _role(c, cited[0]) == "sanction":        # "违反了哪条规定？会被如何处罚？": the rule it enforces too
        rules = sorted((u for u in enforced_rules(c, cited[0]) if c.scope.allows(c.unit(u))),
                       key=lambda u: (u not in cited, -c.score.get(u, 0.0), u))   # one cited already first
        return list(dict.fromkeys(rules[:1] + cited))
    if not cited or not c.plan.route.sanction or _role(c, cited[0]) == "sanction":
        return cited
    pool = [h for h in c.hits[:c.policy.cite_max + ROLE_WINDOW] if _role(c, h.unit_id) == "sanction"]
    if not pool:                            # none ranks near: the one the text links to the rule, with the rule
        linked = stated_sanction(c, cited[0])
        if linked is None:
            return cited
        if c.plan.type == "version_diff":
            return _with_counterpart(c, linked.unit_id)
        return [cited[0], linked.unit_id] if c.plan.route.asks_duty else [linked.unit_id, cited[0]]
    enforces = enforcing(c, cited[0], [h.unit_id for h in pool])
    pool = [h for h in pool if h.unit_id in enforces] or pool
    match = fact_match(c, [h.unit_id for h in pool]) if len(pool) > 1 else {}
    best = max(pool, key=lambda h: (match.get(h.unit_id, 0.0), h.score)).unit_id
    if c.plan.type == "version_diff":
        return _with_counterpart(c, best)
    if c.plan.route.asks_duty:
        return [cited[0], best]
    # asked only how an act is punished: the sanction, and the rule beside it when the sanction cites it
    # by number ("违反本法第九条规定，…"); a sanction naming the conduct itself states the offence in full.
    # (Reasoning questions keep the rule a sanction restates, sanctions.by_roles: applied there too, this
    # lost five tuning and two validation questions and won two -- a scenario asks the rule behind it.)
    return [best, cited[0]] if cited[0] in enforced(c, best, restated=False) else [best]


def asked_period(c: Citing, cited: list[str]) -> list[str]:
    """Asked how long ("多长时间内作出决定", "多久审核一次"; asked.ASKS_PERIOD), a question about one provision
    rests on one stating a period (asked.states_period) -- itself or through the provision its answering
    clause defers to ("保存期限应当符合本法第五十条第二款的规定"): when the best cited unit does neither, the
    best-ranked of the next ROLE_WINDOW hits stating one takes its place. Not for a comparison (both versions
    are cited), a penalty asked (the sanction decides) or a multi-provision type (reasoning)."""
    if not cited or c.plan.type in ("version_diff", "reasoning") or c.plan.route.sanction or c.plan.language != "zh" \
            or not ASKS_PERIOD.search(c.plan.question or "") or _period(c, cited[0]) \
            or any(_period(c, x) for x in focus_refs(c.r.ref_index(), cited[0], c.focus)):
        return cited
    found = next((h.unit_id for h in c.hits[1:1 + ROLE_WINDOW] if c.scope.allows(h.unit) and _period(c, h.unit_id)), None)
    return cited if found is None else [found] + [x for x in cited[1:] if x != found]


def _period(c: Citing, uid: str) -> bool:
    u = c.unit(uid)
    return u is not None and states_period(u.text or "")


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


def named_versions(c: Citing, cited: list[str]) -> list[str]:
    """A comparison of versions the question names ("比较2008年版和2021年版…") cites the
    provision in each named version: the counterpart (along the version alignment, which
    follows renumbering) of the first cited unit in a named version that has none cited is
    added -- or, when the alignment does not reach that version, a hit of it standing in
    (`same_number`, else `stand_in_of`); a version between them gives way to it when the cited set
    is full, never the reverse."""
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
        if v not in at:     # the alignment does not reach it: the article of that number, when the question
            # names one number for both versions ("比较1997年版和2016年版…第二条"), else the named version's
            # best-ranked unit aligned with nothing else of the cited one's version, of its kind if any
            stand_in = same_number(c, cited[0], v) or stand_in_of(c, cited[0], v)
            if stand_in is None:
                continue
            at[v] = stand_in
        if len(out) >= c.policy.cite_max:
            between = [x for x in out if x.startswith(key + "@") and x.split("/")[0] not in named]
            if between:
                out.remove(between[-1])
        out.append(at[v])
    return out


def stand_in_of(c: Citing, uid: str, version: str) -> str | None:
    """The best-ranked hit of `version` standing in for `uid`'s counterpart there, which the alignment does
    not find: one with no counterpart of its own in `uid`'s version (the alignment is one to one: an article
    aligned with another is not this one's), of the same kind (a sanction for a sanction, a rule for a rule:
    a provision's counterpart does what it does) if there is one."""
    article = article_of(uid)
    of_version = [h for h in c.hits if h.unit_id.split("/")[0] == version
                  and not aligned_elsewhere(c.r.agraph, h.unit_id, article)]
    same = [h for h in of_version if _role(c, h.unit_id) == _role(c, uid)]
    found = same or of_version
    return found[0].unit_id if found else None


def same_number(c: Citing, uid: str, version: str) -> str | None:
    """The article of `version` numbered as `uid`, when `uid` is (in) the one article the question
    names and the question names it for both versions at once: their years coordinated before it,
    or "两个版本", "each version" (plan.BOTH) -- the number the question gives, read in each (found
    as the direct lookup finds a named article: by number and label, seeds.lookup)."""
    route = c.plan.route
    if len(route.articles) != 1 or not BOTH.search(c.plan.question):
        return None
    no, label = route.articles[0]
    named = c.unit(article_of(uid))
    if named is None or named.label != label:
        return None
    found = c.r.store.where(Filter(kinds=("article", "passage"), documents=(version,), article_no=no, label=label), 1)
    return found[0].id if found else None


def moved_focus(c: Citing, cited: list[str]) -> list[str]:
    """A clause or point moves between articles across a revision (a listed offence made an article of
    its own, a period split from the measure it limited): the best cited unit's part that matched the
    question (its focus) is compared where it went. Each cited counterpart of it in another version
    (along the version alignment) gives way to the article of that version holding the focus's text
    -- its distinctive grams, weighted as in link/versions.parts, at least PART inside that article
    and PART_LEAD more than inside the counterpart -- when that article answers the question about as
    well (its score within the cite margin of the counterpart's: a clause new in a version shares words
    with a definition it uses, not its place). Nothing moves when the whole article matched."""
    focus = c.focus.get(cited[0], cited[0]) if cited else ""
    part = c.unit(focus) if focus.count("/") > 1 else None
    if part is None or len(grams(part.text)) < PART_MIN or not best_part(c, part):
        return cited
    mine, first = grams(part.text), cited[0].split("/")[0]
    chain = set(article_history(cited[0], c.r.graph.older_version, c.r.graph.newer_version))
    out = list(cited)
    for i, x in enumerate(cited[1:], 1):
        if x not in chain or x.split("/")[0] == first:
            continue
        arts = {**c.r.article_grams(first), **c.r.article_grams(x.split("/")[0])}
        weight = {y: math.log((len(arts) + 1) / (sum(y in g for g in arts.values()) + 0.5)) for y in mine}
        total = sum(weight.values()) or 1.0
        share = {a: sum(weight[y] for y in mine & g) / total for a, g in arts.items() if a.split("/")[0] != first}
        best = max(share, key=lambda a: (share[a], a == x), default=x)
        if best != x and best not in out and share[best] >= PART and share[best] - share.get(x, 0.0) >= PART_LEAD \
                and x in c.score and c.score.get(best, 0.0) >= c.score[x] * (1 - c.policy.cite_margin):
            out[i] = best
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



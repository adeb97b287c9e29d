"""Where graph retrieval starts: the articles a question names (direct lookup), the articles
defining a term it asks about, and lexical and dense candidates fused."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace

import numpy as np

from ..core.config import RetrievalConfig
from ..core.records import Filter, Hit, Unit
from ..link.versions import article_history, in_force
from .expand import article_of
from .flat import fuse
from .plan import Plan
from .scope import Scope
from .together import together


@dataclass(frozen=True)
class Seeds:
    direct: tuple[Unit, ...]         # named articles and defining articles
    as_then: dict                    # id -> what it stands for ("k@v/a3 as in force on 2016-03-01")
    lexical: tuple[Hit, ...]
    dense: tuple[Hit, ...]
    fused: tuple[Hit, ...]
    focus: dict                      # article -> the clause / point that matched best
    ids: tuple[str, ...]             # what expansion starts from
    named_share: float = 1.0         # how far the question's content points into the instruments it names
    looked: tuple[str, ...] = ()     # the articles the question names (direct lookup; not the defining ones)


def find_seeds(r, plan: Plan, scope: Scope, use_direct: bool, qvec: np.ndarray, cfg: RetrievalConfig,
               question_vec: np.ndarray | None = None) -> Seeds:
    """`r`: the Retriever (its store, catalog, graph); `qvec` embeds the topic, `question_vec`
    the whole question (default: the topic's)."""
    # every search below is known before any returns: they run side by side (together.py)
    def named():
        direct, as_then = lookup(r, plan, scope) if use_direct else ([], {})
        return direct, defining(r, plan, scope), as_then
    narrow = _searches(r, plan, cfg, scope.filter(), scope.filter(kinds=False), qvec)
    # an instrument named: its units first, but the answer may be in one read with it. BM25
    # reads the topic (its scores join the named instrument's, so the query must be the same);
    # the dense search reads the whole question (a provision citing the named instrument is
    # about what its name says)
    outside = _searches(r, plan, cfg, scope.filter(named=False), scope.filter(named=False, kinds=False),
                     qvec if question_vec is None else question_vec) if scope.keys else []
    (looked, defining_units, as_then), *found = together(named, *narrow, *outside)
    direct = looked + defining_units
    narrow_found, wide_found = found[:len(narrow)], found[len(narrow):]
    merged = together(*(lambda f=f: _lexical_merge(r, cfg, *f[:-1]) for f in (narrow_found, wide_found) if f))
    lex, focus = merged[0]
    sem = narrow_found[-1]
    fused = fuse(lex, sem, cfg)
    ids = [u.id for u in direct] + [h.unit_id for h in fused[:cfg.seed_k]]
    share = 1.0
    if scope.keys:
        wide_lex, wide_focus = merged[1]
        wide_sem = wide_found[-1]
        everywhere = fuse(wide_lex, wide_sem, cfg)
        share = named_share(everywhere[:cfg.seed_k], scope.keys)
        wide = [h for h in everywhere if h.unit.key not in scope.keys]
        ids += [h.unit_id for h in wide[:cfg.seed_k // 2]]
        lex = _union(lex, wide_lex)
        seen = {h.unit_id for h in sem}
        sem = sem + [h for h in wide_sem if h.unit_id not in seen]     # two queries: no merged order
        fused = fused + wide
        focus = {**wide_focus, **focus}
    return Seeds(tuple(direct), as_then, tuple(lex), tuple(sem), tuple(fused), focus, tuple(dict.fromkeys(ids)),
                 share, tuple(u.id for u in looked))


def frames(seeds: Seeds, plan: Plan, weights) -> frozenset[str]:
    """The named articles whose own instrument's citing provisions share their standing (Weights.within):
    those the question names without their instrument ("In the context of Rule 11.9.1(c), …": named as a
    provision citing it names it, the frame of what is asked); none when the weight is 0 or an instrument is
    named ("What does Article 10 of the Act require?" points at the article), nor a term's defining article."""
    return frozenset(seeds.looked) if weights.within and not plan.keys else frozenset()


def named_share(top: list[Hit], keys: frozenset[str]) -> float:
    """The share of the best hits of the search over the whole scope (dense over the whole
    question, BM25 over the topic, fused) that lie in a named instrument. Near 1: the name says where the answer is ("《反垄断法》对…如何处罚").
    Near 0: the name is part of what the question is about, and the answer lies in provisions
    of other instruments that cite or apply it ("guidance on the AML/CFT framework for spot
    commodities", "a passage applying COBS Rule 17.4")."""
    return sum(h.unit is not None and h.unit.key in keys for h in top) / len(top) if top else 1.0


def _union(a: list[Hit], b: list[Hit]) -> list[Hit]:
    """Hits of two searches of the same index for the same query, each unit once with its best
    score, best first (BM25 scores do not depend on the filter, so they compare)."""
    best: dict[str, Hit] = {}
    for h in a + b:
        if h.unit_id not in best or h.score > best[h.unit_id].score:
            best[h.unit_id] = h
    return sorted(best.values(), key=lambda h: (-h.score, h.unit_id))


def lexical(r, q: str, language: str, cfg: RetrievalConfig, where: Filter,
            sub_where: Filter) -> tuple[list[Hit], dict[str, str]]:
    """BM25 over articles and over their clauses and points: an article scores the better of
    its own score and `cfg.sub_lexical` times its best sub-unit's (a list item naming the
    exact offence is not drowned by the rest of a long article). Also returns each
    article's focus: the sub-unit that matched best."""
    return _lexical_merge(r, cfg, *together(*_lexical_searches(r, q, language, cfg, where, sub_where)))


def _searches(r, plan: Plan, cfg: RetrievalConfig, where: Filter, sub_where: Filter, vec: np.ndarray) -> list:
    """The BM25 searches of the topic (`_lexical_searches`), then the dense search with `vec`,
    as calls not yet made."""
    return [*_lexical_searches(r, plan.topic, plan.language, cfg, where, sub_where),
            lambda: r.store.search_vector(vec, cfg.candidates, where)]


def _lexical_searches(r, q: str, language: str, cfg: RetrievalConfig, where: Filter, sub_where: Filter) -> list:
    """The BM25 searches `lexical` merges (articles; their clauses and points when the
    workspace has them and `cfg.sub_lexical` is on), as calls not yet made."""
    calls = [lambda: r.store.search_text(q, language, cfg.candidates, where)]
    if cfg.sub_lexical and r.has_parts:
        calls.append(lambda: r.store.search_text(q, language, 3 * cfg.candidates,
                                                 replace(sub_where, kinds=("clause", "point"))))
    return calls


def _lexical_merge(r, cfg: RetrievalConfig, hits: list[Hit], subs: list[Hit] | None = None):
    if subs is None:
        return hits, {}
    best = {h.unit_id: h.score for h in hits}
    units = {h.unit_id: h.unit for h in hits}
    focus: dict[str, str] = {}
    for h in subs:                      # best first
        art = article_of(h.unit_id)
        focus.setdefault(art, h.unit_id)
        best[art] = max(best.get(art, 0.0), cfg.sub_lexical * h.score)
    units.update({u.id: u for u in r.store.get([a for a in best if a not in units])})
    kinds = set(cfg.kinds)
    out = [Hit(a, sc, "bm25", units[a]) for a, sc in best.items() if a in units and units[a].kind in kinds]
    out.sort(key=lambda h: (-h.score, h.unit_id))
    return out[:cfg.candidates], focus


def defining(r, plan: Plan, scope: Scope) -> list[Unit]:
    """Articles that define a term the question asks about ("“食品添加剂”的定义")."""
    if not plan.terms:
        return []
    ids = {article_of(uid) for t in plan.terms for uid in r.terms[t]}
    units = [u for u in r.store.get(ids) if (not scope.keys or u.key in scope.keys) and scope.version_ok(u)
             and (scope.on is None or in_force(u, scope.on))]
    return units[:6]


def lookup(r, plan: Plan, scope: Scope) -> tuple[list[Unit], dict[str, str]]:
    """The articles the question names; for one bound to a version not in force on the scope's
    date, also that article as it stood then ("2015年…适用的…2021年版第三条"), with what it stands for."""
    route, on, keys = plan.route, scope.on, set(scope.keys)
    if not route.articles:
        return [], {}
    each = []
    years = route.article_years or (None,) * len(route.articles)
    for (no, label), year in zip(route.articles, years):
        if not 0 < no < 2 ** 31:          # "Article 3000000000": no article has that number
            continue
        bound = r.catalog.bound(year, keys)
        if bound:       # "2021年…第十一条": article 11 of the 2021 version only, whatever the date
            each.append(Filter(article_no=no, label=label, documents=tuple(d.id for d in bound)))
        else:           # otherwise the article as in force on the question's date
            each.append(Filter(article_no=no, label=label, in_force=on))
    if not each:
        return [], {}
    found = r.store.where(Filter(kinds=("article", "passage"), any_of=tuple(each), keys=tuple(sorted(keys)),
                                 versions=tuple(sorted(scope.versions))), 50)
    if not keys and len({u.key for u in found}) > 1:
        return [], {}   # "Rule 3.2" without an instrument: ambiguous across rulebooks, no lookup
    if not scope.versions and not on:        # no version named: the one in force now (else the latest)
        latest: dict[tuple, Unit] = {}
        for u in found:
            k = (u.key, u.label)
            if k not in latest or (u.effective_from or dt.date.min) > (latest[k].effective_from or dt.date.min):
                latest[k] = u
        found = list(latest.values())
    found, as_then = found[:10], {}
    for u in list(found) if on else ():
        if not in_force(u, on):
            chain = article_history(u.id, r.graph.older_version, r.graph.newer_version)
            then = next((v for v in r.store.get(chain) if in_force(v, on)), None)
            if then is not None and then.id not in {f.id for f in found}:
                found.append(then)
                as_then[then.id] = f"{u.id} as in force on {on}"
    return found, as_then


CITING_MAX = 50     # citing articles taken per named article (a rule cited everywhere stays bounded)


def citing_named(r, direct: set[str], keys: frozenset[str], candidates: set[str],
                 within: frozenset[str] = frozenset()) -> dict[str, str]:
    """Provisions of other instruments that cite what the question names: the articles citing
    a named article ("article"; new candidates, at most CITING_MAX each; for one in `within` -- see
    `frames` -- also those of its own instrument, "within") and, among the candidates, those citing a
    named instrument ("instrument")."""
    out: dict[str, str] = {}
    cited_by = r.cited_by()
    for d in sorted(direct):
        for a in cited_by.get(d, [])[:CITING_MAX]:
            if a.split("@")[0] != d.split("@")[0]:
                out[a] = "article"
            elif d in within and article_of(a) != article_of(d):
                out.setdefault(a, "within")
    if keys:
        index = r.ref_index()
        for uid in sorted(candidates - set(out)):
            if uid.split("@")[0] not in keys and any(t.split("@")[0] in keys for _, t in index.get(uid, ())):
                out[uid] = "instrument"
    return out

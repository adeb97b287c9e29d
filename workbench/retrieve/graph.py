"""Graph mode, stage by stage: plan the question, scope it, take seeds, expand them through
typed edges under the routed policy, re-rank, pair versions, cite."""
from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from ..core.config import RetrievalConfig
from ..core.records import Filter, Hit, Result
from . import cite, pairing
from .citing import ROLE_WINDOW, kind_of
from ..link.versions import article_history
from .expand import Step, article_of
from .phrases import covers
from .plan import make_plan, structural
from .together import start
from .rerank import Signals, answering, rerank
from .route import language_weights, load_policies
from .scope import make_scope, span_of
from .flat import fuse
from .seeds import citing_named, find_seeds, frames


def graph_retrieve(r, q: str, qvec: np.ndarray, language: str, cfg: RetrievalConfig) -> Result:
    """`r`: the Retriever (store, graph, embedder, catalog, terms)."""
    off = set(cfg.ablate)
    plan, policy = plan_and_policy(r, q, language, cfg, off)
    scope = make_scope(plan, policy, r.catalog, cfg.kinds, cfg.as_of)
    embed_ms, question_vec = 0.0, qvec
    flat_searches = None
    if cfg.unstructured != "off" and not structural(plan):     # the question as a flat system reads it
        where = scope.filter()      # started now, run beside the rest (together.py)
        flat_searches = (start(lambda: r.store.search_text(q, language, cfg.candidates, where)),
                         start(lambda: r.store.search_vector(question_vec, cfg.candidates, where)))
    if plan.topic != q:                       # search what the provisions are about
        t0 = time.perf_counter()
        qvec = r.query_vector(plan.topic)
        embed_ms = (time.perf_counter() - t0) * 1000
    seeds = find_seeds(r, plan, scope, "direct" in policy.seeds, qvec, cfg, question_vec)
    hops = policy_hops(policy.hops, cfg)
    if "expansion" in off:
        hops = {t: 0 for t in hops}
    units = {u.id: u for u in seeds.direct}
    units.update({h.unit_id: h.unit for h in seeds.lexical + seeds.dense if h.unit is not None})
    steps = r.agraph.expand(list(seeds.ids), hops, cfg.cap)
    units.update({u.id: u for u in r.store.get([s for s in steps if s not in units], vectors=True)})
    for uid in seeds.as_then:                 # the named article as it stood on the date
        steps.setdefault(uid, Step(uid, 1, "AMENDS"))
    candidates = {uid for uid in set(steps) | {h.unit_id for h in seeds.fused} if scope.allows(units.get(uid))}
    own = {**language_weights(cfg.policies).get(language, {}), **policy.weights}
    if own:     # the language's and the type's own weights, except where the caller set one: named in
        default = RetrievalConfig().weights     # weights_set, or moved off its default
        own = {k: v for k, v in own.items()
               if k not in cfg.weights_set and getattr(cfg.weights, k) == getattr(default, k)}
        cfg = replace(cfg, weights=replace(cfg.weights, **own))
    citing = citing_named(r, {u.id for u in seeds.direct}, frozenset(scope.keys), candidates,
                          frames(seeds, plan, cfg.weights)) \
        if cfg.weights.citing else {}
    units.update({u.id: u for u in r.store.get([a for a in citing if a not in units], vectors=True)})
    candidates |= {a for a in citing if scope.allows(units.get(a))}
    if plan.article_only and seeds.direct:
        # nothing asked beyond the article named, in any question type ("Compare Article 8 of the 2012 Act
        # with the 2018 version", "第九条与2008年版本相比作了什么修改", "What is Article 8 of the Act?"): the
        # answer is that article, in each version in scope -- not what the question's other words happen to match
        keep = {x for u in seeds.direct for x in article_history(article_of(u.id), r.graph.older_version,
                                                                   r.graph.newer_version)}
        candidates = {c for c in candidates if article_of(c) in keep} or candidates
    pair, listed = "pairing" not in off, set()
    if pair and plan.type == "version_diff" and not plan.route.history and not plan.route.polar:
        # "what did the 2021 revision change", "与2019年版相比，2023年版…有何变化": what changed between the
        # versions compared (not asked when the question asks *whether* anything did)
        # -- in substance first (a renaming made throughout the revision is what changed only for a
        # question naming a body, or when nothing changed in substance)
        spans = span_of(scope, r.catalog)
        candidates = pairing.changed_at(candidates, spans, r.graph.older_version,
                                        r.graph.newer_version, r.amended, frozenset(u.id for u in seeds.direct),
                                        None if plan.route.body else r.amended_in_substance)
        if plan.route.provisions:           # "新增了哪些条文": every article a step added (or removed)
            listed = step_provisions(r, plan.route.provisions, scope, spans, units)
            candidates = listed or candidates
    vecs = r.store.vectors(candidates)
    phrase = covers(plan.topic or q, {c: units[c].text for c in candidates}, language) if cfg.weights.phrase else {}
    signals = Signals(units, steps, {h.unit_id: h.score for h in seeds.lexical}, vecs,
                      frozenset(u.id for u in seeds.direct), seeds.as_then, answering(plan.route.asks),
                      frozenset(scope.keys), found_by(seeds), citing, seeds.named_share, phrase)
    hits, parts = rerank(candidates, signals, semantic_query(qvec, question_vec, seeds.named_share), cfg.weights,
                         dict(cfg.edge_prior), scope.prefer_now, hops, r.agraph.neighbours)
    if flat_searches:
        flat = fuse(flat_searches[0].result(), flat_searches[1].result(), cfg)
        units.update({h.unit_id: h.unit for h in flat if h.unit is not None})
        hits = flat_blend(hits, flat, cfg)
    if pair and "change" not in off and plan.type == "version_diff" and not plan.route.history and policy.change_match:
        # the article whose change touches what is asked about (Chinese topics only: pairing.by_change)
        hits, gains = pairing.by_change(hits, span_of(scope, r.catalog), r.graph, plan.topic, policy.change_match)
        for uid, gain in gains.items():
            parts.setdefault(uid, {})["change"] = gain
    if pair and plan.type == "version_diff":
        twins = r.catalog.known_twins(hits[0].unit.key) if hits else set()
        hits = pairing.pair_versions(r.agraph, hits, vecs, plan.keys, twins)
    score = {h.unit_id: h.score for h in hits}
    base = {uid: s - parts.get(uid, {}).get("support", 0.0) for uid, s in score.items()}
    c = cite.Citing(r, hits[:cfg.top_k], policy, plan, scope, cfg, score, seeds.focus, units, {}, base)
    history = pairing.history(r.graph, traced(hits, seeds.direct, plan, policy.cite_max + ROLE_WINDOW), scope.versions,
                              c.unit, scope.allows) if pair and plan.type == "version_diff" and plan.route.history and hits \
        else []
    cited = cite.choose(c, history, hops, pair)
    if listed and hits:     # what a revision added, removed or changed is a list: every such article (all
        # are candidates), not the best cite_max nor the top_k -- of the instruments named, else of the best hit's
        keys = plan.keys or {hits[0].unit_id.split("@")[0]}
        cited = [h.unit_id for h in hits if h.unit_id in listed and h.unit_id.split("@")[0] in keys] or cited
    ranked = cited_first(c, cited, score, units, cfg.top_k)
    return Result(ranked, cited, plan, parts, list(seeds.ids), plan.topic, embed_ms, seeds.focus, hops, cfg.weights)


def traced(hits: list[Hit], direct, plan, window: int) -> str:
    """The article whose history is asked: the one the question names (its best-ranked direct
    hit: "How has Article 4 changed over time?" is about Article 4, however much another reads
    like "changed"), else, when the question asks about a penalty ("罚款数额是在哪一次修订中调整的"),
    the best-ranked sanction among the first `window` hits (the window cite.asked_role looks in for the
    other types), else the best hit."""
    named = {u.id for u in direct} if plan.route.articles else set()
    if named:
        return next((h.unit_id for h in hits if h.unit_id in named), hits[0].unit_id)
    if plan.route.sanction:
        return next((h.unit_id for h in hits[:window] if kind_of(h.unit) == "sanction"), hits[0].unit_id)
    return hits[0].unit_id


def step_provisions(r, which: str, scope, spans: dict, units: dict) -> set[str]:
    """The articles of the compared versions that a step of the span added, removed or changed
    (`which`, as the question asks: Route.provisions), all of them (what was added is a list, not
    what reads most like the question); `units` gains them."""
    docs = tuple(d for span in spans.values() for d in span)
    if not docs:
        return set()
    articles = {u.id: u for u in r.store.where(Filter(under=docs, kinds=("article",))) if scope.allows(u)}
    found = set()
    for step in (r.amended_in_substance, r.amended) if which == "changed" else (None,):
        # changed: in substance, else (no article changed in substance) any change -- a renaming
        found = found or pairing.added_or_removed(articles, spans, r.graph.older_version, r.graph.newer_version,
                                                  which, step)
    units.update({u.id: u for u in r.store.get([a for a in found if a not in units], vectors=True)})
    return found


def semantic_query(topic_vec: np.ndarray, question_vec: np.ndarray | None, share: float) -> np.ndarray:
    """What the re-rank's cosine compares with: the topic (the question without the instrument
    names) as far as the named instruments hold the answer (`share`, seeds.named_share), the whole
    question as far as the names are part of what it asks about. Cosine is linear in the query,
    so this is the same blend of the two cosines."""
    if share >= 1.0 or question_vec is None:
        return topic_vec
    return share * topic_vec + (1.0 - share) * question_vec


def plan_and_policy(r, q: str, language: str, cfg: RetrievalConfig, off: set):
    """The question's plan and its type's policy, with the parts named in `off` (cfg.ablate)
    switched off."""
    if off - ABLATABLE:
        raise ValueError(f"ablate: unknown parts {sorted(off - ABLATABLE)}: {', '.join(sorted(ABLATABLE))}")
    plan = make_plan(q, language, r.catalog, r.terms, cfg.question_type or ("precise" if "routing" in off else None))
    if "roles" in off:
        plan = replace(plan, route=replace(plan.route, asks=(), sanction=False))
    policy = load_policies(cfg.policies)[plan.type]
    if "roles" in off:
        policy = replace(policy, cite_roles=False)
    if "direct" in off:
        policy = replace(policy, seeds="hybrid")
        plan = replace(plan, terms=())
    return plan, policy


def cited_first(c, cited: list[str], score: dict[str, float], units: dict, top_k: int) -> list[Hit]:
    """The ranking leads with what the answer rests on, in the order it is cited (a cited
    reference from beyond the top hits comes with the path that reached it)."""
    top = {h.unit_id: h for h in c.hits}
    first = [top.get(uid) or Hit(uid, score.get(uid, 0.0), c.why.get(uid, "cited"), units.get(uid)) for uid in cited]
    return (first + [h for h in c.hits if h.unit_id not in set(cited)])[:max(top_k, len(cited))]


def found_by(seeds) -> dict[str, str]:
    """How each lexical / dense hit was found, in words: "BM25 #2, dense #5" (ranks in the seed
    lists: the named instrument's hits first, then those found outside it)."""
    out: dict[str, list[str]] = {}
    for name, hits in (("BM25", seeds.lexical), ("dense", seeds.dense)):
        for rank, h in enumerate(hits, 1):
            out.setdefault(h.unit_id, []).append(f"{name} #{rank}")
    return {uid: ", ".join(v) for uid, v in out.items()}


ABLATABLE = {"routing", "direct", "roles", "expansion", "pairing", "change"}


def policy_hops(policy_hops: dict, cfg: RetrievalConfig) -> dict[str, int]:
    """Hop limits per edge type: the caller's, else the policy's; unticked edge types get none."""
    hops = dict(cfg.hops) if cfg.hops is not None else dict(policy_hops)
    if cfg.edge_types is not None:
        hops = {t: (n if t in cfg.edge_types else 0) for t, n in hops.items()}
    return hops


def flat_blend(hits: list[Hit], fused: list[Hit], cfg: RetrievalConfig) -> list[Hit]:
    """For a question with nothing structural to use: the hybrid ranking of the whole question
    (`fused`: BM25 + dense, reciprocal rank fusion, in the scope; "flat"), or reciprocal rank
    fusion of it with the graph ranking ("fuse"). A unit keeps the provenance the graph gave it."""
    graph = {h.unit_id: h for h in hits}
    if cfg.unstructured == "flat":
        return [Hit(h.unit_id, h.score, graph[h.unit_id].via if h.unit_id in graph else h.via, h.unit)
                for h in fused]
    if cfg.unstructured != "fuse":
        raise ValueError(f"unstructured = {cfg.unstructured!r}: off, fuse or flat")
    score: dict[str, float] = {}
    units = {h.unit_id: h for h in fused} | graph
    for ranking in (hits, fused):
        for rank, h in enumerate(ranking):
            score[h.unit_id] = score.get(h.unit_id, 0.0) + 1.0 / (cfg.rrf_k + rank + 1)
    return sorted((Hit(u, s, units[u].via, units[u].unit) for u, s in score.items()), key=lambda h: (-h.score, h.unit_id))

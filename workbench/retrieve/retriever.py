"""Retrieval modes behind one API: bm25, dense, hybrid (RRF or weighted fusion), graph.

Every mode returns ranked `Hit`s with provenance in `via`: "direct" (the question named
the article), "bm25", "dense", "bm25+dense", or an edge path from a seed
("k@v/a10 <-REFERENCES- k@v/a15", or from a cited unit for a provision cited because a
cited one refers to it). Graph mode: route the question, take seeds (direct
lookup + hybrid), expand them through typed edges under the routed policy, keep what was
in force on the as-of date, and re-rank with the configured weights.
"""
from __future__ import annotations

import datetime as dt
import re
import time
from dataclasses import dataclass, field, replace

import numpy as np

from ..core.config import RetrievalConfig
from .expand import ArticleGraph, Step, article_of
from ..link.resolve import is_placeholder
from ..core.records import EdgeType, Hit, Unit
from .route import DEF_CUES, Route, classify, facts, load_policies, role, topic
from ..store.lance import quote
from ..link.versions import article_history, in_force


@dataclass
class Result:
    """Ranked hits plus what the system would cite and how it decided."""
    hits: list[Hit]
    cited: list[str]
    route: Route | None = None
    components: dict[str, dict[str, float]] = field(default_factory=dict)   # per unit: score parts
    seeds: list[str] = field(default_factory=list)
    topic: str = ""                 # the question as searched (graph mode)
    embed_ms: float = 0.0           # time spent embedding inside retrieval (the topic)
    focus: dict[str, str] = field(default_factory=dict)   # article -> the clause / point that matched best


def time_filter(on: dt.date | None) -> str | None:
    if on is None:
        return None
    d = f"date '{on.isoformat()}'"
    return f"(effective_from IS NULL OR effective_from <= {d}) AND (effective_to IS NULL OR effective_to > {d})"


def _and(*parts: str | None) -> str | None:
    parts = [p for p in parts if p]
    return " AND ".join(f"({p})" for p in parts) if parts else None


def cite(hits: list[Hit], most: int, margin: float) -> list[str]:
    """The cited set under a question type's policy: at most `most` units within `margin`
    (a share of the best score) of the best."""
    if not hits:
        return []
    floor = hits[0].score * (1 - margin)
    return [h.unit_id for h in hits[:most] if h.score >= floor]


def cited_set(hits: list[Hit], ratio: float, most: int) -> list[str]:
    """Units the system would cite: within `ratio` of the best score, at most `most`,
    cut at the largest drop between consecutive scores."""
    if not hits:
        return []
    best = hits[0].score
    keep = [h for h in hits[:most] if h.score >= best * ratio] if best > 0 else hits[:1]
    if len(keep) > 2:
        gaps = [keep[i].score - keep[i + 1].score for i in range(len(keep) - 1)]
        cut = int(np.argmax(gaps))
        if gaps[cut] > 0.5 * (best - keep[-1].score) and gaps[cut] > 0.05 * best:
            keep = keep[:cut + 1]
    return [h.unit_id for h in keep]


class Retriever:
    def __init__(self, store, graph, embedder, documents: list[Unit], terms: dict[str, list[str]] | None = None):
        """`terms`: defined term (normalised) -> ids of the units defining it."""
        self.store, self.graph, self.embedder, self.terms = store, graph, embedder, terms
        self.documents = documents
        self._agraph: ArticleGraph | None = None
        self._names = _instrument_names(documents)
        self._twins: dict[str, set[str]] = {}            # key -> instruments with the same articles
        self._article_counts: dict[str, int] | None = None
        self._refs: dict[str, list[tuple[str, str]]] | None = None   # article -> (citing unit, cited article)
        self._has_parts: bool | None = None              # does the workspace hold clauses / points?
        self._count_rows: list[dict] | None = None         # store.counts(), read once

    @property
    def agraph(self) -> ArticleGraph:
        if self._agraph is None:
            self._agraph = ArticleGraph(self.graph.all_edges())
        return self._agraph

    # -- flat modes -----------------------------------------------------------------
    def bm25(self, q: str, k: int, where: str | None, language: str) -> list[Hit]:
        return self.store.search_text(q, language, k, where)

    def dense(self, qvec: np.ndarray, k: int, where: str | None) -> list[Hit]:
        return self.store.search_vector(qvec, k, where)

    def _lexical(self, q: str, cfg: RetrievalConfig, where: str | None, sub_where: str | None,
                 language: str) -> tuple[list[Hit], dict[str, str]]:
        """BM25 over articles and over their clauses and points: an article scores the better of
        its own score and `cfg.sub_lexical` times its best sub-unit's (a list item naming the
        exact offence is not drowned by the rest of a long article). Also returns each
        article's focus: the sub-unit that matched best."""
        hits = self.bm25(q, cfg.candidates, where, language)
        if self._has_parts is None:
            self._has_parts = any(row["kind"] in ("clause", "point") for row in self._counts())
        if not cfg.sub_lexical or not self._has_parts:
            return hits, {}
        subs = self.bm25(q, 3 * cfg.candidates, _and("kind IN ('clause', 'point')", sub_where), language)
        best = {h.unit_id: h.score for h in hits}
        units = {h.unit_id: h.unit for h in hits}
        focus: dict[str, str] = {}
        for h in subs:                      # best first
            art = article_of(h.unit_id)
            focus.setdefault(art, h.unit_id)
            best[art] = max(best.get(art, 0.0), cfg.sub_lexical * h.score)
        units.update({u.id: u for u in self.store.get([a for a in best if a not in units])})
        kinds = set(cfg.kinds)
        out = [Hit(a, sc, "bm25", units[a]) for a, sc in best.items() if a in units and units[a].kind in kinds]
        out.sort(key=lambda h: (-h.score, h.unit_id))
        return out[:cfg.candidates], focus

    def hybrid(self, q, qvec, k, where, language, cfg: RetrievalConfig) -> list[Hit]:
        lex = self.bm25(q, cfg.candidates, where, language)
        sem = self.dense(qvec, cfg.candidates, where)
        return fuse(lex, sem, cfg)[:k]

    # -- the one entry point ----------------------------------------------------------
    def retrieve(self, q: str, cfg: RetrievalConfig, qvec: np.ndarray | None = None,
                 language: str = "") -> Result:
        language = language or guess_language(q)
        kinds = "kind IN (" + ",".join(quote(k) for k in cfg.kinds) + ")"
        if cfg.mode in ("bm25", "dense", "hybrid"):
            if qvec is None and cfg.mode != "bm25":
                qvec = self.embedder.embed_queries([q])[0]
            on = dt.date.fromisoformat(cfg.as_of) if cfg.as_of else None
            where = _and(kinds, time_filter(on))
            if cfg.mode == "bm25":
                hits = self.bm25(q, cfg.top_k, where, language)
            elif cfg.mode == "dense":
                hits = self.dense(qvec, cfg.top_k, where)
            else:
                hits = self.hybrid(q, qvec, cfg.top_k, where, language, cfg)
            return Result(hits, cited_set(hits, cfg.cut_ratio, cfg.max_cited))
        if cfg.mode != "graph":
            raise ValueError(f"unknown retrieval mode {cfg.mode!r}: bm25, dense, hybrid or graph")
        if qvec is None:
            qvec = self.embedder.embed_queries([q])[0]
        return self._graph(q, qvec, language, kinds, cfg)

    # -- graph mode -------------------------------------------------------------------
    def _graph(self, q, qvec, language, kinds, cfg: RetrievalConfig) -> Result:
        route = classify(q)
        if cfg.question_type:
            route = replace(route, type=cfg.question_type)
        policy = load_policies(cfg.policies)[route.type]
        on = dt.date.fromisoformat(cfg.as_of) if cfg.as_of else route.as_of
        keys = self._same_content(self._named_instruments(q))
        names = [n for n, k in self._names if k in keys]
        subject = topic(q, names)
        if subject != q:
            t0 = time.perf_counter()
            qvec = self.embedder.embed_queries([subject])[0]
            embed_ms = (time.perf_counter() - t0) * 1000
        else:
            embed_ms = 0.0
        versions = self._named_versions(route, keys) if policy.versions == "named" else set()
        if route.type == "version_diff":
            named_keys = [v.split("@")[0] for v in versions]
            if route.history:       # "追溯…的修改历程" naming one version: from the first version up to it
                versions |= {self._doc_chain(k)[0].id for k in set(named_keys) if named_keys.count(k) == 1}
            versions |= self._previous_versions(versions) | self._versions_between(versions)
        hard_time = on if policy.time_filter == "as_of" or (on and cfg.as_of) else None
        if policy.time_filter == "current" and on is None and not versions:
            # no date, no version named: the law as it stands (the latest version of a named
            # instrument, or whatever is in force today)
            if keys:
                versions = {self._doc_chain(k)[-1].id for k in keys}
            else:
                hard_time = dt.date.today()
        where = _and(kinds, time_filter(hard_time), _version_filter(versions))
        # seeds: named articles and defined terms, then lexical + dense candidates from the
        # instruments the question names (any instrument when it names none)
        direct, as_then = self._direct(route, keys, versions, hard_time) if "direct" in policy.seeds else ([], {})
        direct += self._defining(q, route, keys, versions, hard_time)
        named = "key IN (" + ",".join(quote(k) for k in sorted(keys)) + ")" if keys else None
        seed_where = _and(where, named)
        lex, focus = self._lexical(subject, cfg, seed_where,
                                   _and(time_filter(hard_time), _version_filter(versions), named), language)
        sem = self.dense(qvec, cfg.candidates, seed_where)
        fused = fuse(lex, sem, cfg)
        seeds = list(dict.fromkeys([u.id for u in direct] + [h.unit_id for h in fused[:cfg.seed_k]]))
        # expansion
        hops = dict(cfg.hops) if cfg.hops is not None else dict(policy.hops)
        if cfg.edge_types is not None:
            hops = {t: (n if t in cfg.edge_types else 0) for t, n in hops.items()}
        units: dict[str, Unit] = {u.id: u for u in direct}
        units.update({h.unit_id: h.unit for h in lex + sem if h.unit is not None})
        steps = self.agraph.expand(seeds, hops, cfg.cap)
        missing = [s for s in steps if s not in units]
        units.update({u.id: u for u in self.store.get(missing, vectors=True)})   # re-ranking reads them next

        def allowed(u: Unit | None) -> bool:
            if u is None or u.kind not in cfg.kinds:
                return False
            if hard_time and not in_force(u, hard_time):
                return False
            return not versions or f"{u.key}@{u.version}" in versions or u.key not in {v.split("@")[0] for v in versions}

        for uid, why in as_then.items():       # the named article as it stood on the date
            steps.setdefault(uid, Step(uid, 1, "AMENDS", why))
        candidates = {uid for uid in set(steps) | {h.unit_id for h in fused} if allowed(units.get(uid))}
        vecs = self.store.vectors(candidates)
        prefer_now = policy.time_filter == "prefer_current" and on is None and not versions
        if policy.weights and cfg.weights == RetrievalConfig().weights:   # the caller's own weights win
            cfg = replace(cfg, weights=replace(cfg.weights, **policy.weights))
        hits, parts = self._rerank(candidates, units, steps, lex, vecs, qvec, {u.id for u in direct},
                                    cfg, prefer_now, hops)
        hits = [replace(h, via=as_then[h.unit_id]) if h.unit_id in as_then else h for h in hits]
        if route.type == "version_diff":
            hits = self._pair_versions(hits, vecs, keys)
        score = {h.unit_id: h.score for h in hits}
        history = self._history(hits[0].unit_id, versions, units, allowed) \
            if route.type == "version_diff" and route.history and hits else []
        hits = hits[:cfg.top_k]

        cited_by: dict[str, str] = {}       # a cited reference -> the path that reached it

        def refs(uid: str, sanction: bool = False) -> list[str]:
            """What the answering clause of `uid` refers to, if relevant in its own right, or
            if `uid` is a sanction pointing to another sanction (deferring its penalty)."""
            floor = (hits[0].score * policy.cite_refs) if policy.cite_refs else float("inf")
            out = []
            for r in self._focus_refs(uid, focus):
                u = self._unit(r, units)
                if allowed(u) and (score.get(r, 0.0) >= floor or sanction and role(u.text) == "sanction"):
                    out.append(r)
                    cited_by.setdefault(r, f"{uid} -REFERENCES-> {r}")
            return out

        if len(history) > 1:                    # "追溯…的修改历程": the article in every version
            cited = history
        elif policy.cite_roles:
            cited = self._cite_roles(hits, policy, refs, route.sanction,
                                     lambda ids: self._fact_match(subject, ids, named, language, cfg))
        else:
            cited = cite(hits, policy.cite_max, policy.cite_margin)
            if route.type == "reasoning":
                cited = self._cite_chain(hits, cited, policy, hops)
            if cited:                           # "…应当符合本法第五十条第二款的规定": that too
                extra = [r for r in refs(cited[0]) if r not in cited]
                if route.type == "version_diff":    # ... with its counterpart in the other version
                    extra += [p for r in extra for p in self._partners(r, score) if p not in cited]
                cited += list(dict.fromkeys(extra))
        # the ranking leads with what the answer rests on, in the order it is cited (a cited
        # reference from beyond the top hits comes with the path that reached it)
        first = [next((h for h in hits if h.unit_id == uid), None) or
                 Hit(uid, score.get(uid, 0.0), cited_by.get(uid, "cited"), units.get(uid)) for uid in cited]
        hits = (first + [h for h in hits if h.unit_id not in set(cited)])[:max(cfg.top_k, len(cited))]
        return Result(hits, cited, route, parts, seeds, subject, embed_ms, focus)

    def _rerank(self, candidates, units, steps: dict[str, Step], lex, vecs, qvec, direct, cfg,
                prefer_now, hops):
        """score = semantic + lexical + proximity/(1+d) + edge prior + direct + current
                 + support: the strongest evidence this unit is linked to (by an allowed edge type)."""
        w = cfg.weights
        prior = dict(cfg.edge_prior)
        lex_max = max((h.score for h in lex), default=0.0) or 1.0
        lex_score = {h.unit_id: h.score / lex_max for h in lex}
        cos = {uid: float(v @ qvec) for uid, v in vecs.items()}
        lo, hi = (min(cos.values()), max(cos.values())) if cos else (0.0, 1.0)
        span = (hi - lo) or 1.0
        parts = {}
        for uid in candidates:
            u = units[uid]
            step = steps.get(uid)
            d = step.distance if step else 1
            parts[uid] = {
                "semantic": w.semantic * ((cos[uid] - lo) / span if uid in cos else 0.0),
                "lexical": w.lexical * lex_score.get(uid, 0.0),
                "proximity": w.proximity / (1 + d),
                "edge": w.edge * (prior.get(step.edge_type, 0.0) if step and step.edge_type else 1.0
                                  if step else 0.0),
                "direct": w.direct if uid in direct else 0.0,
                "current": w.current if prefer_now and u.effective_to is None else 0.0}
        base = {uid: sum(p.values()) for uid, p in parts.items()}
        top = max(base.values(), default=1.0) or 1.0
        if w.support:
            for uid in candidates:
                best = 0.0
                for nxt, etype, _ in self.agraph.adj.get(uid, ()):
                    if nxt in base and hops.get(etype, 0) > 0:
                        best = max(best, base[nxt] / top * prior.get(etype, 0.5))
                parts[uid]["support"] = w.support * best
        scored = []
        for uid in candidates:
            step = steps.get(uid)
            via = "direct" if uid in direct else (step.path if step and step.distance else
                                                  ("seed" if step else "candidate"))
            scored.append(Hit(uid, sum(parts[uid].values()), via, units[uid]))
        scored.sort(key=lambda h: (-h.score, h.unit_id))
        return scored, parts

    def _cite_roles(self, hits: list[Hit], policy, refs, sanction: bool, fact_match) -> list[str]:
        """A question joining a duty and its sanction rests on one provision of each role
        (`route.role`), plus the provisions those rely on, at most cite_max in all: the best
        hit; if the question asks about a sanction, the hit of the other role among the next
        cite_max + 3 (within the margin): one with a sanctioning clause citing the best hit
        (_enforcing), else the one naming the question's facts most literally (`fact_match`,
        BM25 without the question's duty-and-penalty frame: sanction provisions share their
        boilerplate, so they all look alike to the embedder); then what each of these refers to from its answering clause (`refs`,
        see _focus_refs: for a sanction deferring its penalty to another sanction, "依照本法
        第一百二十六条的规定给予处罚", always; for a rule, "发现有本法第三十四条第六项规定情形的",
        when relevant in its own right); then any of the next hits that a cited unit references."""
        if not hits:
            return []
        floor = hits[0].score * (1 - policy.cite_margin)
        window = hits[1:policy.cite_max + 4]
        kind = lambda h: role(h.unit.text if h.unit else "")  # noqa: E731
        chosen = [hits[0]]
        other = [h for h in window if kind(h) != kind(hits[0]) and h.score >= floor]
        if sanction and other and policy.cite_max > 1:
            if kind(hits[0]) == "sanction":     # the rule it enforces: one it cites
                enforces = {t for _, t in self._ref_index().get(hits[0].unit_id, ())}
            else:                               # the sanction enforcing it: one citing it
                enforces = self._enforcing(hits[0].unit_id, [h.unit_id for h in other])
            pool = [h for h in other if h.unit_id in enforces] or other
            match = fact_match([h.unit_id for h in pool]) if len(pool) > 1 else {}   # a full-text query
            chosen.append(max(pool, key=lambda h: (match.get(h.unit_id, 0.0), h.score)))
        out = [h.unit_id for h in chosen]
        for h in chosen:
            out += [r for r in refs(h.unit_id, sanction=kind(h) == "sanction") if r not in out]
        for h in window:
            if len(out) >= policy.cite_max:
                break
            if h.unit_id not in out and any(t == "REFERENCES" and arrow == "<-" and n in out
                                            for n, t, arrow in self.agraph.adj.get(h.unit_id, ())):
                out.append(h.unit_id)
                out += [r for r in refs(h.unit_id, sanction=kind(h) == "sanction") if r not in out]
        return out[:policy.cite_max]

    def _fact_match(self, subject: str, ids: list[str], named: str | None, language: str,
                    cfg: RetrievalConfig) -> dict[str, float]:
        """How literally each of `ids` (articles) names the question's facts: BM25 of the
        topic without its duty-and-penalty frame (route.facts), over the articles and their
        parts, in the instruments the question names (`named`, a filter) if any."""
        if not ids:
            return {}
        inside = _and("id IN (" + ",".join(quote(i) for i in ids) + ")", named)
        parts = _and(" OR ".join(f"starts_with(id, {quote(i + '/')})" for i in ids), named)
        hits, _ = self._lexical(facts(subject), replace(cfg, candidates=len(ids)), inside, parts, language)
        return {h.unit_id: h.score for h in hits}

    def _enforcing(self, rule: str, ids: list[str]) -> set[str]:
        """Those of `ids` with a sanctioning clause that cites `rule` ("A licensee who breaches
        any duty under Article 10 is liable to a fine"; "有下列情形之一的，处…罚款：（一）违反本法
        第三十四条…": the citing point and the clause holding it are read together): the penalty
        for breaking it."""
        within: dict[str, str] = {}        # the citing unit and the parts holding it, below the article
        for uid in ids:
            for src, target in self._ref_index().get(uid, ()):
                if target == rule:
                    while src != uid and "/" in src:
                        within[src] = uid
                        src = src.rsplit("/", 1)[0]
        return {within[u.id] for u in self.store.get(within) if role(u.text) == "sanction"}

    def _ref_index(self) -> dict[str, list[tuple[str, str]]]:
        """article -> (citing unit inside it, cited article), for resolved REFERENCES."""
        if self._refs is None:
            self._refs = {}
            for e in self.graph.all_edges([EdgeType.REFERENCES]):
                if e.resolved and not is_placeholder(e.target):
                    self._refs.setdefault(article_of(e.source), []).append((e.source, article_of(e.target)))
        return self._refs

    def _focus_refs(self, uid: str, focus: dict[str, str]) -> list[str]:
        """Articles cited (REFERENCES) by the part of `uid` that matched the question (its
        focus: a clause with its points, or one point) or by the clauses holding it; when no
        clause matched (the unit came from dense search or expansion), by the whole unit."""
        sub = focus.get(uid, uid)
        above = {sub}
        while "/" in sub and sub != uid:
            sub = sub.rsplit("/", 1)[0]
            above.add(sub)
        below = focus.get(uid, uid) + "/"
        return list(dict.fromkeys(t for src, t in self._ref_index().get(uid, ())
                                  if (src in above or src.startswith(below)) and t != uid))

    def _cite_chain(self, hits: list[Hit], cited: list[str], policy, hops) -> list[str]:
        """Multihop answers rest on linked provisions: besides the units within the margin,
        cite the units among the top hits that an allowed edge links to the cited ones."""
        out = list(cited)
        for h in hits[:policy.cite_max + 2]:
            if len(out) >= policy.cite_max:
                break
            if h.unit_id in out:
                continue
            linked = any(n in out and hops.get(t, 0) > 0 for n, t, _ in self.agraph.adj.get(h.unit_id, ()))
            if linked:
                out.append(h.unit_id)
        return out

    def _history(self, uid: str, versions: set[str], units: dict[str, Unit], allowed) -> list[str]:
        """Article `uid` in every version among `versions` (all when empty) that runs
        unbroken through it, newest first, along the version-alignment edges (which follow
        renumbering)."""
        chain = article_history(uid, self.graph.older_version, self.graph.newer_version)

        def inside(i: int) -> bool:
            u = self._unit(chain[i], units)
            return u is not None and (not versions or f"{u.key}@{u.version}" in versions)
        lo = hi = chain.index(uid)
        while lo > 0 and inside(lo - 1):
            lo -= 1
        while hi < len(chain) - 1 and inside(hi + 1):
            hi += 1
        return [v for v in chain[lo:hi + 1][::-1] if v == uid or allowed(units[v])]

    def _counts(self) -> list[dict]:
        if self._count_rows is None:
            self._count_rows = self.store.counts()
        return self._count_rows

    def _unit(self, uid: str, units: dict[str, Unit]) -> Unit | None:
        if uid not in units:
            found = self.store.get([uid])
            units[uid] = found[0] if found else None
        return units[uid]

    def _partners(self, uid: str, among) -> list[str]:
        """`uid`'s aligned counterparts (INHERITS / AMENDS, same instrument) that are in `among`."""
        key = uid.split("@")[0]
        return [n for n, t, _ in self.agraph.adj.get(uid, ())
                if t in ("INHERITS", "AMENDS") and n in among and n.split("@")[0] == key]

    def _pair_versions(self, hits: list[Hit], vecs: dict[str, np.ndarray], keys: set[str]) -> list[Hit]:
        """Version-difference answers come in pairs: each unit is followed by its aligned
        counterpart in the other version(s) retrieved, which takes the pair's score. When the
        best unit has no aligned counterpart, the unit most like it (cosine of the embeddings)
        among the top hits of its other versions, or of the other instrument the question
        names ("2009年食品安全法与1995年食品卫生法相比"), stands in."""
        by_id = {h.unit_id: h for h in hits}
        out, placed = [], set()
        if hits:
            top = hits[0]
            aligned = self._partners(top.unit_id, by_id)
            twins = self._twins.get(top.unit.key, set())       # the same law imported twice is no other version
            other = [h for h in hits[1:STAND_IN] if h.unit.key == top.unit.key and h.unit.version != top.unit.version
                     or h.unit.key != top.unit.key and h.unit.key in keys and h.unit.key not in twins]
            if not aligned and other:
                v = vecs.get(top.unit_id)
                best = max(other, key=lambda h: float(vecs[h.unit_id] @ v) if v is not None
                           and h.unit_id in vecs else -1.0)
                hits = [top, Hit(best.unit_id, top.score - 1e-6, best.via + " (other version)", best.unit)] + \
                       [h for h in hits[1:] if h.unit_id != best.unit_id]
                by_id = {h.unit_id: h for h in hits}
        for h in hits:
            if h.unit_id in placed:
                continue
            out.append(h)
            placed.add(h.unit_id)
            for nxt in self._partners(h.unit_id, by_id):
                if nxt not in placed:
                    partner = by_id[nxt]
                    out.append(Hit(partner.unit_id, h.score - 1e-6, partner.via + " (version pair)", partner.unit))
                    placed.add(nxt)
        return out

    def _defining(self, q: str, route: Route, keys, versions, on) -> list[Unit]:
        """Articles that define a term the question asks about ("“食品添加剂”的定义")."""
        if self.terms is None or (route.type != "definition" and not any(c in DEF_CUES for c in route.cues)):
            return []
        low = q.lower()
        found = [t for t in self.terms if t in low]
        found = [t for t in found if not any(t != o and t in o for o in found)]   # longest terms only
        ids = {article_of(uid) for t in found for uid in self.terms[t]}
        units = [u for u in self.store.get(ids) if (not keys or u.key in keys)
                 and (not versions or f"{u.key}@{u.version}" in versions or u.key not in {v.split("@")[0] for v in versions})
                 and (on is None or in_force(u, on))]
        return units[:6]

    # -- question analysis against the workspace -----------------------------------------
    def _named_instruments(self, q: str) -> set[str]:
        """Keys of instruments whose name appears in the question (longest names first)."""
        text, keys = q, set()
        for name, key in self._names:
            # alphabetic names must stand as words ("GEN" is not in "agent"); CJK names need no spaces
            pattern = re.escape(name) if not name[:1].isascii() else rf"(?<![\w-]){re.escape(name)}(?![\w-])"
            flags = 0 if name.isupper() else re.IGNORECASE
            if re.search(pattern, text, flags):
                keys.add(key)
                text = re.sub(pattern, " ", text, flags=flags)
        return keys

    def _same_content(self, keys: set[str]) -> set[str]:
        """The named instruments and any other instrument holding the same articles — one law
        imported twice, under its number and under its title — so that naming it finds both."""
        out = set(keys)
        for k in keys:
            if k not in self._twins:
                self._twins[k] = self._find_twins(k)
            out |= self._twins[k]
        return out

    def _find_twins(self, key: str) -> set[str]:
        mine = self._prints(key)
        if len(mine) < 5:
            return set()
        if self._article_counts is None:
            self._article_counts = {}
            for row in self._counts():
                if row["kind"] == "article":
                    self._article_counts[row["key"]] = self._article_counts.get(row["key"], 0) + row["count_all"]
        twins = set()
        for other, n in self._article_counts.items():
            if other != key and 0.8 * len(mine) <= n <= 1.25 * len(mine):
                theirs = self._prints(other)
                if len(mine & theirs) >= 0.6 * min(len(mine), len(theirs)):
                    twins.add(other)
        return twins

    def _prints(self, key: str) -> set[str]:
        """Fingerprints of an instrument's articles: the start of each text, spaces normalised."""
        return {" ".join(u.text.split())[:200] for u in self.store.where(f"key = {quote(key)} AND kind = 'article'")}

    def _named_versions(self, route: Route, keys: set[str]) -> set[str]:
        """Versions the question names by year ("2015年食品安全法"), as 'key@version'."""
        if not route.years:
            return set()
        out = set()
        docs = [d for d in self.documents if not keys or d.key in keys]
        for d in docs:
            years = {d.version[:4], str(d.effective_from.year) if d.effective_from else "",
                     d.attr("adopted")[:4]}
            if any(str(y) in years for y in route.years):
                out.add(d.id)
        return out

    def _doc_chain(self, key: str) -> list[Unit]:
        """The versions (document units) of one instrument, oldest first."""
        return sorted((d for d in self.documents if d.key == key),
                      key=lambda d: (d.effective_from or dt.date.min, d.version))

    def _versions_between(self, versions: set[str]) -> set[str]:
        """For a comparison of two versions that are not consecutive ("2021年…与2008年…相比"):
        the versions in between, through which the article's text went from one to the other
        (and in one of which a change first appeared)."""
        out = set()
        for key in {v.split("@")[0] for v in versions}:
            chain = [d.id for d in self._doc_chain(key)]
            at = [chain.index(v) for v in versions if v in chain]
            if len(at) >= 2:
                out |= set(chain[min(at):max(at) + 1])
        return out

    def _previous_versions(self, versions: set[str]) -> set[str]:
        """For a version-difference question naming one version: the version before it."""
        out = set()
        for key in {v.split("@")[0] for v in versions}:
            named = [v for v in versions if v.startswith(key + "@")]
            if len(named) != 1:
                continue
            ids = [d.id for d in self._doc_chain(key)]
            i = ids.index(named[0]) if named[0] in ids else -1
            if i > 0:
                out.add(ids[i - 1])
        return out

    def _direct(self, route: Route, keys, versions, on) -> tuple[list[Unit], dict[str, str]]:
        """The articles the question names; for one bound to a version not in force on `on`,
        also that article as it stood then ("2015年…适用的…2021年版第三条"), with why: {id: why}."""
        if not route.articles:
            return [], {}
        conds = []
        years = route.article_years or (None,) * len(route.articles)
        for (no, label), year in zip(route.articles, years):
            cond = f"article_no = {no} AND label = {quote(label)}"
            bound = [d for d in self.documents if year and (not keys or d.key in keys)
                     and str(year) in (d.version[:4], str(d.effective_from.year) if d.effective_from else "")]
            if bound:       # "2021年…第十一条": article 11 of the 2021 version only, whatever the date
                cond += " AND (" + " OR ".join(f"(key = {quote(d.key)} AND version = {quote(d.version)})"
                                              for d in bound) + ")"
            else:           # otherwise the article as in force on the question's date
                cond = _and(cond, time_filter(on))
            conds.append(f"({cond})")
        where = _and("kind IN ('article', 'passage')", " OR ".join(conds),
                     "key IN (" + ",".join(quote(k) for k in keys) + ")" if keys else None,
                     _version_filter(versions))
        found = self.store.where(where, 50)
        if not keys and len({u.key for u in found}) > 1:
            return [], {}   # "Rule 3.2" without an instrument: ambiguous across rulebooks, no lookup
        if not versions and not on:        # no version named: the one in force now (else the latest)
            latest: dict[tuple, Unit] = {}
            for u in found:
                k = (u.key, u.label)
                if k not in latest or (u.effective_from or dt.date.min) > (latest[k].effective_from or dt.date.min):
                    latest[k] = u
            found = list(latest.values())
        found, as_then = found[:10], {}
        for u in list(found) if on else ():
            if not in_force(u, on):
                chain = article_history(u.id, self.graph.older_version, self.graph.newer_version)
                then = next((v for v in self.store.get(chain) if in_force(v, on)), None)
                if then is not None and then.id not in {f.id for f in found}:
                    found.append(then)
                    as_then[then.id] = f"direct: {u.id} as in force on {on}"
        return found, as_then


STAND_IN = 10       # how far down the ranking a stand-in counterpart is looked for


def fuse(lex: list[Hit], sem: list[Hit], cfg: RetrievalConfig) -> list[Hit]:
    """Reciprocal rank fusion, or a weighted sum of max-normalised scores."""
    scores: dict[str, float] = {}
    units: dict[str, Unit] = {}
    via: dict[str, set] = {}
    for name, hits, weight in (("bm25", lex, cfg.weights.lexical or 0.5), ("dense", sem, cfg.weights.semantic or 0.5)):
        top = max((h.score for h in hits), default=1.0) or 1.0
        for rank, h in enumerate(hits):
            s = 1.0 / (cfg.rrf_k + rank + 1) if cfg.fusion == "rrf" else weight * h.score / top
            scores[h.unit_id] = scores.get(h.unit_id, 0.0) + s
            units[h.unit_id] = h.unit
            via.setdefault(h.unit_id, set()).add(name)
    ranked = sorted(scores, key=lambda u: (-scores[u], u))
    return [Hit(u, scores[u], "+".join(sorted(via[u])), units[u]) for u in ranked]


def _version_filter(versions: set[str]) -> str | None:
    if not versions:
        return None
    keys = {v.split("@")[0] for v in versions}
    named = " OR ".join(f"(key = {quote(v.split('@')[0])} AND version = {quote(v.split('@', 1)[1])})"
                        for v in sorted(versions))
    others = "key NOT IN (" + ",".join(quote(k) for k in sorted(keys)) + ")"
    return f"({named}) OR {others}"


def _instrument_names(documents: list[Unit]) -> list[tuple[str, str]]:
    """(name as matched, key), longest first. Abbreviations ("GEN", "PRU") stay upper-case and
    are matched case-sensitively; other alphabetic names need two words ("General" alone is
    an ordinary word); Chinese / Vietnamese titles are lower-cased."""
    names = {}
    for d in documents:
        for n in {d.title, re.sub(r"^中华人民共和国", "", d.title), *d.attr("aliases").split(";")}:
            n = n.strip()
            if len(n) < 3:
                continue
            if n.isascii() and n.isupper():
                names[n] = d.key
            elif not n.isascii() or len(n.split()) >= 2:
                names[n.lower()] = d.key
    return sorted(names.items(), key=lambda kv: -len(kv[0]))


def guess_language(text: str) -> str:
    if any("\u4e00" <= ch <= "\u9fff" for ch in text):
        return "zh"
    if any(ch in "ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ" for ch in text.lower()):
        return "vi"
    return "en"

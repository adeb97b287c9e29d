"""Versions side by side: an article's aligned counterparts, version-comparison pairs in the
ranking, and an article's history through every version."""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

import numpy as np

from ..core.records import EdgeType, Hit, Unit
from ..link.versions import PART, PART_EXTRACTOR, PART_LEAD, article_history, grams
from ..parse.languages import han_pairs
from .expand import article_of

STAND_IN = 10       # how far down the ranking a stand-in counterpart is looked for


def partners(agraph, uid: str, among) -> list[str]:
    """`uid`'s aligned counterparts (INHERITS / AMENDS, same instrument) that are in `among`
    (one-to-one: the article graph leaves out merges and splits, see `parts`)."""
    key = uid.split("@")[0]
    return [n for n, t, _ in agraph.neighbours(uid)
            if t in ("INHERITS", "AMENDS") and n in among and n.split("@")[0] == key]


def aligned_elsewhere(agraph, uid: str, other: str) -> bool:
    """Is `uid` aligned, through any number of version steps of its instrument (INHERITS / AMENDS),
    with an article of `other`'s version that is not `other` itself? (The alignment is one to one.)"""
    key, doc, seen, todo = uid.split("@")[0], other.split("/")[0], {uid}, [uid]
    while todo:
        for n, t, _ in agraph.neighbours(todo.pop()):
            if t not in ("INHERITS", "AMENDS") or n in seen or n.split("@")[0] != key:
                continue
            if n.split("/")[0] == doc:
                return n != other
            seen.add(n)
            todo.append(n)
    return False


def parts(graph, uid: str) -> list[tuple[str, str]]:
    """The articles `uid` was merged with or split from across a version step (AMENDS edges of
    status merged / split, link/versions.parts), either way: (that article, the one of the two
    holding the other's text -- the article merged into, or the article split from)."""
    return [(e.target if e.source == uid else e.source, e.source if e.evidence == "merged" else e.target)
            for e in graph.edges_of(uid, (EdgeType.AMENDS,), "both")
            if e.extractor == PART_EXTRACTOR]


def pair_versions(agraph, hits: list[Hit], vecs: dict[str, np.ndarray], keys: frozenset[str],
                  twins: set[str]) -> list[Hit]:
    """Version-difference answers come in pairs: each unit is followed by its aligned
    counterpart in the other version(s) retrieved, which takes the pair's score. When the
    best unit has no aligned counterpart, the unit most like it (cosine of the embeddings)
    among the top hits of its other versions, or of the other instrument the question
    names ("2009年食品安全法与1995年食品卫生法相比"), stands in -- not an article of its own instrument
    aligned with another of the best unit's version (`aligned_elsewhere`); when its counterpart is one part
    of an article a revision split, the part asked about takes that version's place (`split_part`).
    `twins`: instruments holding the same law as the best unit's (no other version of it)."""
    by_id = {h.unit_id: h for h in hits}
    out, placed, split = [], set(), None
    if hits:
        top = hits[0]
        split = split_part(agraph, hits)
        # an article of another version of it -- one to one: not one aligned with another of the best unit's
        # version -- or of another instrument the question names
        other = [] if partners(agraph, top.unit_id, by_id) else \
            [h for h in hits[1:STAND_IN] if h.unit.key == top.unit.key and h.unit.version != top.unit.version
             and not aligned_elsewhere(agraph, h.unit_id, top.unit_id)
             or h.unit.key != top.unit.key and h.unit.key in keys and h.unit.key not in twins]
        if other:
            v = vecs.get(top.unit_id)
            best = max(other, key=lambda h: float(vecs[h.unit_id] @ v) if v is not None
                       and h.unit_id in vecs else -1.0)
            hits = [top, Hit(best.unit_id, top.score - 1e-6, best.via.noted("other version"), best.unit)] + \
                   [h for h in hits[1:] if h.unit_id != best.unit_id]
            by_id = {h.unit_id: h for h in hits}
    for h in hits:
        if h.unit_id in placed:
            continue
        out.append(h)
        placed.add(h.unit_id)
        if split is not None and h.unit_id == hits[0].unit_id:     # the part of a split article asked about
            out.append(Hit(split.unit_id, h.score - 1e-6, split.via.noted("split part"), split.unit))
            placed.add(split.unit_id)
        for nxt in partners(agraph, h.unit_id, by_id):
            if split is not None and h.unit_id == hits[0].unit_id and \
                    nxt.split("/")[0] == split.unit_id.split("/")[0]:
                continue                    # that version's place beside the best unit is the split part's
            if nxt not in placed:
                partner = by_id[nxt]
                out.append(Hit(partner.unit_id, h.score - 1e-6, partner.via.noted("version pair"), partner.unit))
                placed.add(nxt)
    return out


def split_part(agraph, hits: list[Hit]) -> Hit | None:
    """An article split in two by a revision whose alignment took one part for its counterpart and called
    the other added ("职业学校…职业培训机构的设立，必须符合下列基本条件" became one article on schools and one on
    training institutions): an unaligned article (no counterpart in the best unit's version) of a version
    whose counterpart of the best unit ranks below it, holding at least PART of the best unit's text
    (character grams) and PART_LEAD of it more than the counterpart alone (link/versions.py's shares for a
    split, not refitted), is the part the question is about. None when there is no such article."""
    top = hits[0]
    mates = partners(agraph, top.unit_id, {h.unit_id for h in hits})
    held = grams(top.unit.text or "") if top.unit is not None else set()
    if not mates or not held:
        return None
    by_id = {h.unit_id: h for h in hits}
    first = min(i for i, h in enumerate(hits) if h.unit_id in mates)
    for h in hits[1:first]:
        mate = next((m for m in mates if m.split("/")[0] == h.unit_id.split("/")[0]), None)
        if mate is None or h.unit is None or by_id[mate].unit is None \
                or aligned_elsewhere(agraph, h.unit_id, top.unit_id) or partners(agraph, h.unit_id, {top.unit_id}):
            continue
        theirs, mine = grams(by_id[mate].unit.text or "") & held, grams(h.unit.text or "") & held
        # it holds a part of the older article (PART of its text), and a part the counterpart does not hold
        # (PART_LEAD more of it together): two halves, not one article and another sharing its stock phrases
        if len(mine) >= PART * len(held) and len(mine | theirs) - len(theirs) >= PART_LEAD * len(held):
            return h
    return None


def history(graph, uid: str, versions: frozenset[str], unit: Callable[[str], Unit | None],
            allows: Callable[[Unit | None], bool]) -> list[str]:
    """Article `uid` in every version among `versions` (all when empty) that runs unbroken
    through it, newest first, along the version-alignment edges (which follow renumbering)."""
    chain = article_history(uid, graph.older_version, graph.newer_version)

    def inside(i: int) -> bool:
        u = unit(chain[i])
        return u is not None and (not versions or f"{u.key}@{u.version}" in versions)
    lo = hi = chain.index(uid)
    while lo > 0 and inside(lo - 1):
        lo -= 1
    while hi < len(chain) - 1 and inside(hi + 1):
        hi += 1
    return [v for v in chain[lo:hi + 1][::-1] if v == uid or allows(unit(v))]


def changed_at(ids: set[str], spans: dict[str, tuple[str, ...]], older: Callable[[str], str | None],
               newer: Callable[[str], str | None], changed_step: Callable[[str, str], bool],
               keep: frozenset[str] = frozenset(), prefer: Callable[[str, str], bool] | None = None) -> set[str]:
    """Of `ids`, those changed between the versions a question compares: for an instrument
    with a span (its versions from the older compared one to the newer, in order), a unit of a
    version in the span stays only if, walking its versions (`older` / `newer`: id -> the
    aligned article of the previous / next version) to both ends, some step changed it
    (`changed_step(a, b)`) or it has no counterpart there (added or removed). Units of other
    versions and instruments, and those in `keep` (named by the question) with their versions in
    the span, stay ("2008年版和2011年版第二十四条有什么不同": that article is compared, changed or
    not); so do all of an instrument's units when none of them changed (nothing to tell them
    apart). With `prefer` (a stricter step test: a change of substance), the units it finds
    changed stand alone when there are any."""
    def doc(uid: str) -> str:
        return uid.split("/")[0]

    def changed(uid: str, span: tuple[str, ...], step: Callable[[str, str], bool]) -> bool:
        for walk, end in ((older, span[0]), (newer, span[-1])):
            last = uid
            for a, b in span_steps(walk, uid, span):
                if step(a, b):
                    return True
                last = b
            if doc(last) != end:            # no counterpart on the way: added or removed
                return True
        return False
    out: set[str] = set()
    held: dict[str, tuple[set[str], set[str], set[str]]] = {}   # key -> (units in the span, changed, in substance)
    keep = set(keep) | {b for uid in keep for walk in (older, newer)
                        for _, b in span_steps(walk, uid, spans.get(uid.split("@")[0], ()))}
    for uid in ids:
        key = uid.split("@")[0]
        span = spans.get(key)
        if span is None or doc(uid) not in span or uid in keep:
            out.add(uid)
            continue
        units, moved, firm = held.setdefault(key, (set(), set(), set()))
        units.add(uid)
        if changed(uid, span, changed_step):
            moved.add(uid)
            if prefer is not None and changed(uid, span, prefer):
                firm.add(uid)
    for units, moved, firm in held.values():
        out |= firm or moved or units
    return out


def added_or_removed(ids, spans: dict[str, tuple[str, ...]], older: Callable[[str], str | None],
                     newer: Callable[[str], str | None], which: str,
                     changed_step: Callable[[str, str], bool] | None = None) -> set[str]:
    """Of `ids` (articles of the versions in `spans`), those a step of the span added (`which` =
    "added": of a version after the first, with no counterpart in the version before) or removed
    ("removed": of a version before the last, with none in the version after). "2021年版新增了
    哪些条文" asks for the provisions themselves, which the version alignment tells
    (link/versions.py). "changed" (the whole step asked: "what did the 2016 revision change"):
    the articles of the span's last version that a step of the span changed (`changed_step`)
    or added, and those of its first version that it removed."""
    out = set()
    for uid in ids:
        key, doc = uid.split("@")[0], uid.split("/")[0]
        span = spans.get(key, ())
        if doc not in span:
            continue
        at = span.index(doc)
        if which == "changed":
            if at == len(span) - 1 and at > 0:
                steps = list(span_steps(older, uid, span))
                if not steps or steps[-1][1].split("/")[0] != span[0] or \
                        changed_step is not None and any(changed_step(a, b) for a, b in steps):
                    out.add(uid)
            elif at == 0 and len(span) > 1:
                steps = list(span_steps(newer, uid, span))
                if not steps or steps[-1][1].split("/")[0] != span[-1]:
                    out.add(uid)
        elif which == "added" and at > 0 and (older(uid) or "").split("/")[0] != span[at - 1]:
            out.add(uid)
        elif which == "removed" and at < len(span) - 1 and (newer(uid) or "").split("/")[0] != span[at + 1]:
            out.add(uid)
    return out


def span_steps(walk: Callable[[str], str | None], uid: str, span: tuple[str, ...]):
    """The version steps (a, b) from `uid` along `walk` (older / newer: id -> the aligned unit of
    the previous / next version), as long as the next version is one of `span`."""
    cur, seen = uid, {uid}
    while (nxt := walk(cur)) is not None and nxt not in seen and nxt.split("/")[0] in span:
        yield cur, nxt
        seen.add(nxt)
        cur = nxt


def what_changed(graph, uid: str, span: tuple[str, ...]) -> str:
    """The text the steps of a version comparison inserted into or deleted from the article
    holding `uid`, over the versions of `span` (the `inserted` / `deleted` of the version edges
    between its aligned articles, link/versions.py), fragments joined by " | "."""
    out = []
    for walk in (graph.older_version, graph.newer_version):
        for a, b in span_steps(walk, article_of(uid), span):
            e = graph.version_edge(a, b)
            if e is not None:
                attrs = dict(e.attrs)
                out += [attrs.get("inserted", ""), attrs.get("deleted", "")]
    return " | ".join(x for x in out if x)


def by_change(hits: list[Hit], spans: dict[str, tuple[str, ...]], graph, topic: str,
              weight: float) -> tuple[list[Hit], dict[str, float]]:
    """Version comparison of Chinese text: each hit of a compared span gains `weight` x the share
    of the topic's character pairs found in what the span's steps changed in its article
    (`what_changed`), and the hits are ranked again. Returns the ranking and each hit's gain
    (none without a span). The stored changes are character-level fragments: a change of one
    character (三十日 → 十五日) forms no pair and is not seen; other languages' fragments would need
    their own words and function-word lists, and the value was chosen on Chinese sets only."""
    want = han_pairs(topic)
    if not spans or not want:          # no span, or a topic with no Chinese: nothing moves
        return hits, {}
    gains = {}
    for h in hits:
        span = spans.get(h.unit.key) if h.unit else None
        if span and h.unit_id.split("/")[0] in span:
            share = len(want & han_pairs(what_changed(graph, h.unit_id, span))) / len(want)
            if share:
                gains[h.unit_id] = weight * share
    ranked = sorted((replace(h, score=h.score + gains.get(h.unit_id, 0.0)) for h in hits),
                    key=lambda h: (-h.score, h.unit_id))
    return ranked, gains

"""Versions of an instrument: article alignment, diffs, and what was in force when.

Consecutive versions of one key are aligned article by article:
- same number, same text           -> inherited  (INHERITS newer -> older)
- same text up to form             -> inherited, with formal_change = true on the edge: the
                                      versions differ only in punctuation width (，/ ,), quote
                                      style (“” / 「」 / ""), whitespace or Unicode composition
- same number, changed text        -> amended    (AMENDS newer -> older, with a diff)
- other number, text matched       -> renumbered (INHERITS if the text is the same, else AMENDS)
- no counterpart                   -> added (in the newer) / removed (from the older)
- a removed article whose text went into one article of the newer version, or an added one
  whose text came out of one article of the older version -> merged / split (AMENDS with
  that status and extractor `version-part`, beside the one-to-one edge: a comparison cites
  every part; not walked in expansion nor taken for an article's counterpart; see `parts`)
Text similarity is the Dice coefficient of character bigrams (language-neutral: works
for Chinese without segmentation); diffs come from difflib.
"""
from __future__ import annotations

import datetime as dt
import difflib
import math
import re
import unicodedata
from dataclasses import dataclass
from itertools import groupby

from ..core.records import Edge, EdgeType, Unit
from ..parse.languages import has_han
from ..parse.text import visible
from .substance import operations, substance

SIMILAR = 0.55          # renumbered or rewritten articles must be at least this similar
SAME_NUMBER = 0.30      # an article keeping its number may change more before it counts as new
EMBED_COS = 0.955       # full revisions: left-over articles whose embeddings are this close ...
EMBED_FLOOR = 0.25      # ... and that still share this much text are the same provision rewritten
ALIGN_EXTRACTOR = "version-align"   # the extractor of one-to-one version edges
PART_EXTRACTOR = "version-part"     # ... and of merged / split ones
PART_STATUS = ("merged", "split")
VERSION_EXTRACTORS = (ALIGN_EXTRACTOR, PART_EXTRACTOR)
PART = 0.55             # merged / split: at least this share of an article's distinctive text lies in
PART_LEAD = 0.08        # one article of the other version, this much more than in any other,
PART_MIN = 25           # and the article has at least this many grams (see `parts`)
# PART was read off the hand check of every candidate at 0.5 or more in nine zh laws
# (benchmarks/handcheck/version_parts.csv): 53 of 59 right at 0.5, 45 of 46 at 0.55; PART_LEAD
# keeps out a text spread evenly over two articles; PART_MIN, short closing articles.


@dataclass(frozen=True)
class Change:
    status: str                 # inherited | amended | renumbered | added | removed | merged | split
    old: str | None
    new: str | None
    similarity: float = 0.0
    inserted: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    formal: bool = False        # the texts differ in form only (see `formal`)


def _norm(text: str) -> str:
    """Without whitespace and invisible format characters (a zero-width space left by typesetting)."""
    return re.sub(r"\s+", "", visible(text))


# quote styles and the ideographic full stop, to one form each (NFKC already folds full-width
# ASCII punctuation, digits and letters to their half-width forms)
_FORM = str.maketrans({"“": '"', "”": '"', "„": '"', "「": '"', "」": '"', "『": '"', "』": '"', "〝": '"',
                       "〞": '"', "‘": "'", "’": "'", "‚": "'", "。": "."})


def _form(text: str) -> str:
    return unicodedata.normalize("NFKC", text).translate(_FORM)


def formal(text: str) -> str:
    """The text without what legislators' typesetting changes between versions and readers do
    not: Unicode composition and width (NFKC), quote style, the full stop, whitespace, invisible
    format characters (a zero-width space)."""
    return _norm(_form(text))


def _formal_words(text: str) -> str:
    """`formal`, but alphabetic text keeps one space between words (its diff is by word)."""
    return formal(text) if has_han(text) else " ".join(visible(_form(text)).split())


def _bigrams(text: str) -> set[str]:
    t = _norm(text)
    return {t[i:i + 2] for i in range(len(t) - 1)} or {t}


def similarity(a: str, b: str) -> float:
    x, y = _bigrams(a), _bigrams(b)
    return 2 * len(x & y) / (len(x) + len(y)) if x or y else 1.0


def text_diff(old: str, new: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(inserted spans, deleted spans); words for alphabetic text, characters for Chinese."""
    cjk = has_han(old + new)
    a, b = (list(_norm(old)), list(_norm(new))) if cjk else (visible(old).split(), visible(new).split())
    joiner = "" if cjk else " "
    ins, dels = [], []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op in ("delete", "replace"):
            dels.append(joiner.join(a[i1:i2]))
        if op in ("insert", "replace"):
            ins.append(joiner.join(b[j1:j2]))
    return tuple(ins), tuple(dels)


def align(old: list[Unit], new: list[Unit], vectors: dict | None = None) -> list[Change]:
    """Align the articles of two versions (lists of article units). `vectors` (unit id ->
    normalised embedding), when given, matches what text overlap alone leaves over."""
    changes: list[Change] = []
    left = {u.id: u for u in old}
    right = {u.id: u for u in new}
    # 1. identical text up to form, preferring the same number and then the same form
    by_text: dict[str, list[Unit]] = {}
    for u in old:
        by_text.setdefault(formal(u.text), []).append(u)
    for n in new:
        cands = [o for o in by_text.get(formal(n.text), []) if o.id in left]
        if not cands:
            continue
        o = min(cands, key=lambda c: (c.label != n.label, _norm(c.text) != _norm(n.text)))
        del left[o.id], right[n.id]
        form = _norm(o.text) != _norm(n.text)
        ins, dels = text_diff(o.text, n.text) if form else ((), ())
        changes.append(Change("inherited" if o.label == n.label else "renumbered", o.id, n.id, 1.0, ins, dels, form))
    # 2. changed text: best pairs first, same number favoured
    pairs = []
    for n in right.values():
        for o in left.values():
            s = similarity(o.text, n.text)
            floor = SAME_NUMBER if o.label == n.label else SIMILAR
            if s >= floor:
                pairs.append((s + (0.2 if o.label == n.label else 0.0), s, o, n))
    for _, s, o, n in sorted(pairs, key=lambda p: -p[0]):
        if o.id in left and n.id in right:
            del left[o.id], right[n.id]
            ins, dels = text_diff(o.text, n.text)
            changes.append(Change("amended" if o.label == n.label else "renumbered", o.id, n.id, s, ins, dels))
    # 3. rewritten in a full revision: close in meaning, still sharing some text
    if vectors:
        pairs = []
        for n in right.values():
            for o in left.values():
                if o.id in vectors and n.id in vectors:
                    cos = float(vectors[o.id] @ vectors[n.id])
                    if cos >= EMBED_COS and similarity(o.text, n.text) >= EMBED_FLOOR:
                        pairs.append((cos, o, n))
        for cos, o, n in sorted(pairs, key=lambda p: -p[0]):
            if o.id in left and n.id in right:
                del left[o.id], right[n.id]
                ins, dels = text_diff(o.text, n.text)
                changes.append(Change("amended" if o.label == n.label else "renumbered", o.id, n.id,
                                      similarity(o.text, n.text), ins, dels))
    changes += [Change("removed", o.id, None) for o in left.values()]
    changes += [Change("added", None, n.id) for n in right.values()]
    return changes + parts(changes, old, new)


def grams(text: str) -> set[str]:
    """Character bigrams for Chinese, word bigrams otherwise (letter bigrams say little)."""
    if has_han(text):
        return _bigrams(text)
    words = re.findall(r"\w+", text.lower())
    return {f"{a} {b}" for a, b in zip(words, words[1:])}


def parts(changes: list[Change], old: list[Unit], new: list[Unit]) -> list[Change]:
    """Articles merged or split between two versions. A removed article whose distinctive text
    (grams weighted by inverse frequency among both versions' articles, so that the stock
    phrases of penalties and duties count little) lies at least PART inside one newer article
    -- and PART_LEAD more than inside any other -- was merged into it ("merged"); an added
    article whose text lies so inside one older article was split out of it ("split"). Only
    into or out of an article that changed: an article inherited unchanged absorbed nothing."""
    text = {u.id: u.text for u in old + new}
    held = {uid: grams(t) for uid, t in text.items()}
    df: dict[str, int] = {}
    for g in held.values():
        for x in g:
            df[x] = df.get(x, 0) + 1
    n_docs = len(held) + 1
    idf = {x: math.log(n_docs / (c + 0.5)) for x, c in df.items()}

    def inside(a: str, b: str) -> float:
        total = sum(idf[x] for x in held[a])
        return sum(idf[x] for x in held[a] & held[b]) / total if total > 0 else 0.0

    unchanged = {x for c in changes if c.status in ("inherited", "renumbered") and c.similarity >= 1.0
                 for x in (c.old, c.new)}
    out = []
    for c in changes:
        lone = c.old if c.status == "removed" else c.new if c.status == "added" else None
        if lone is None or len(held[lone]) < PART_MIN:
            continue
        others = [u.id for u in (new if c.status == "removed" else old) if u.id not in unchanged]
        ranked = sorted(((inside(lone, o), o) for o in others), reverse=True)
        if not ranked or ranked[0][0] < PART:
            continue
        if len(ranked) > 1 and ranked[0][0] - ranked[1][0] < PART_LEAD:
            continue
        share, other = ranked[0]
        o, n = (lone, other) if c.status == "removed" else (other, lone)
        ins, dels = text_diff(text[o], text[n])
        out.append(Change(PART_STATUS[0] if c.status == "removed" else PART_STATUS[1], o, n, round(share, 3), ins, dels))
    return out


def version_edges(changes: list[Change], sizes: dict[tuple[str, str], int] | None = None) -> list[Edge]:
    """`sizes`: (old, new) -> what the change is beyond the step's renamings (see
    link/substance.py), recorded on the AMENDS edge when known."""
    edges, sizes = [], sizes or {}
    for c in changes:
        if c.old is None or c.new is None:
            continue
        part = c.status in PART_STATUS
        same = c.similarity >= 1.0 and not part
        attrs = [("status", c.status), ("similarity", f"{c.similarity:.3f}")]
        if c.formal:
            attrs.append(("formal_change", "true"))
        if not same and not part and (c.old, c.new) in sizes:
            attrs.append(("substance", str(sizes[(c.old, c.new)])))
        if not same or c.formal:
            attrs += [("inserted", " | ".join(c.inserted)[:1000]), ("deleted", " | ".join(c.deleted)[:1000])]
        edges.append(Edge(c.new, c.old, EdgeType.INHERITS if same else EdgeType.AMENDS,
                          evidence=c.status, confidence=round(c.similarity, 3),
                          extractor=PART_EXTRACTOR if part else ALIGN_EXTRACTOR,
                          attrs=tuple(attrs)))
    return edges


def align_corpus(units: list[Unit], vectors: dict | None = None,
                 bodies=None) -> tuple[list[Edge], dict[str, dict[str, int]]]:
    """Align consecutive versions of every key among `units`; returns edges and counts per step.
    `bodies`: a text -> the spans of the public bodies it names (link/substance.py reads a Chinese edit
    inside one as a renaming; the workspace passes the entity rules', which sit above this stage)."""
    docs = sorted((u for u in units if u.kind == "document"),
                  key=lambda d: (d.key, d.effective_from or dt.date.min, d.version))
    articles: dict[str, list[Unit]] = {}
    for u in units:
        if u.kind in ("article", "passage"):
            articles.setdefault(f"{u.key}@{u.version}", []).append(u)
    edges, counts = [], {}
    for _, group in groupby(docs, key=lambda d: d.key):
        versions = list(group)
        for older, newer in zip(versions, versions[1:]):
            changes = align(articles.get(older.id, []), articles.get(newer.id, []), vectors)
            edges += version_edges(changes, step_substance(changes, articles.get(older.id, []) +
                                                           articles.get(newer.id, []), bodies))
            step = f"{older.id} -> {newer.version}"
            counts[step] = {s: sum(c.status == s for c in changes)
                            for s in ("inherited", "amended", "renumbered", "added", "removed", *PART_STATUS)}
    return edges, counts


def step_substance(changes: list[Change], units: list[Unit], bodies=None) -> dict[tuple[str, str], int]:
    """(old, new) -> the size of each one-to-one amendment of a step beyond its renamings."""
    text = {u.id: _formal_words(u.text) for u in units}
    ops = {(c.old, c.new): operations(text[c.old], text[c.new], bodies) for c in changes
           if c.old in text and c.new in text and c.status in ("amended", "renumbered") and c.similarity < 1.0}
    olds = {c.old.split("/")[0] for c in changes if c.old}
    news = {c.new.split("/")[0] for c in changes if c.new}
    older = " ".join(t for uid, t in text.items() if uid.split("/")[0] in olds)
    newer = " ".join(t for uid, t in text.items() if uid.split("/")[0] in news)
    return substance(ops, older, newer)


# -- time ----------------------------------------------------------------------------
def in_force(unit: Unit, on: dt.date) -> bool:
    """Whether `unit` applies on `on` (from its effective date, until the day it stops)."""
    starts = unit.effective_from is None or unit.effective_from <= on
    return starts and (unit.effective_to is None or on < unit.effective_to)


def version_in_force(documents: list[Unit], key: str, on: dt.date) -> Unit | None:
    """The version (document unit) of instrument `key` that applied on `on`, if any."""
    live = [d for d in documents if d.key == key and d.kind == "document" and in_force(d, on)]
    return max(live, key=lambda d: d.effective_from or dt.date.min) if live else None


def article_history(unit_id: str, older_of, newer_of) -> list[str]:
    """Every version of one article, oldest first, through the version edges both ways
    (`older_of` / `newer_of`: id -> id or None). Cycle-safe."""
    chain = article_chain(unit_id, older_of)
    seen, newer = set(chain), newer_of(unit_id)
    while newer and newer not in seen:
        chain.append(newer)
        seen.add(newer)
        newer = newer_of(newer)
    return chain


def article_chain(unit_id: str, older_of) -> list[str]:
    """The versions of one article, oldest first. `older_of(id)` returns the id of the
    previous version (through INHERITS / AMENDS version edges) or None. Cycle-safe."""
    chain, seen, current = [], set(), unit_id
    while current and current not in seen:
        seen.add(current)
        chain.append(current)
        current = older_of(current)
    return chain[::-1]

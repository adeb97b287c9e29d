"""Versions of an instrument: article alignment, diffs, and what was in force when.

Consecutive versions of one key are aligned article by article:
- same number, same text           -> inherited  (INHERITS newer -> older)
- same text up to form             -> inherited, with formal_change = true on the edge: the
                                      versions differ only in punctuation width (，/ ,), quote
                                      style (“” / 「」 / ""), whitespace or Unicode composition
- same number, changed text        -> amended    (AMENDS newer -> older, with a diff)
- other number, text matched       -> renumbered (INHERITS if the text is the same, else AMENDS)
- no counterpart                   -> added (in the newer) / removed (from the older)
Text similarity is the Dice coefficient of character bigrams (language-neutral: works
for Chinese without segmentation); diffs come from difflib.
"""
from __future__ import annotations

import datetime as dt
import difflib
import re
import unicodedata
from dataclasses import dataclass
from itertools import groupby

from ..core.records import Edge, EdgeType, Unit

SIMILAR = 0.55          # renumbered or rewritten articles must be at least this similar
SAME_NUMBER = 0.30      # an article keeping its number may change more before it counts as new
EMBED_COS = 0.955       # full revisions: left-over articles whose embeddings are this close ...
EMBED_FLOOR = 0.25      # ... and that still share this much text are the same provision rewritten


@dataclass(frozen=True)
class Change:
    status: str                 # inherited | amended | renumbered | added | removed
    old: str | None
    new: str | None
    similarity: float = 0.0
    inserted: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    formal: bool = False        # the texts differ in form only (see `formal`)


def _norm(text: str) -> str:
    return re.sub(r"\s+", "", text)


# quote styles and the ideographic full stop, to one form each (NFKC already folds full-width
# ASCII punctuation, digits and letters to their half-width forms)
_FORM = str.maketrans({"“": '"', "”": '"', "„": '"', "「": '"', "」": '"', "『": '"', "』": '"', "〝": '"',
                       "〞": '"', "‘": "'", "’": "'", "‚": "'", "。": "."})


def formal(text: str) -> str:
    """The text without what legislators' typesetting changes between versions and readers do
    not: Unicode composition and width (NFKC), quote style, the full stop, whitespace."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text).translate(_FORM))


def _bigrams(text: str) -> set[str]:
    t = _norm(text)
    return {t[i:i + 2] for i in range(len(t) - 1)} or {t}


def similarity(a: str, b: str) -> float:
    x, y = _bigrams(a), _bigrams(b)
    return 2 * len(x & y) / (len(x) + len(y)) if x or y else 1.0


def text_diff(old: str, new: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(inserted spans, deleted spans); words for alphabetic text, characters for Chinese."""
    cjk = any("\u4e00" <= ch <= "\u9fff" for ch in old + new)
    a, b = (list(_norm(old)), list(_norm(new))) if cjk else (old.split(), new.split())
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
    return changes


def version_edges(changes: list[Change]) -> list[Edge]:
    edges = []
    for c in changes:
        if c.old is None or c.new is None:
            continue
        same = c.similarity >= 1.0
        attrs = [("status", c.status), ("similarity", f"{c.similarity:.3f}")]
        if c.formal:
            attrs.append(("formal_change", "true"))
        if not same or c.formal:
            attrs += [("inserted", " | ".join(c.inserted)[:1000]), ("deleted", " | ".join(c.deleted)[:1000])]
        edges.append(Edge(c.new, c.old, EdgeType.INHERITS if same else EdgeType.AMENDS,
                          evidence=c.status, confidence=round(c.similarity, 3),
                          extractor="version-align", attrs=tuple(attrs)))
    return edges


def align_corpus(units: list[Unit], vectors: dict | None = None) -> tuple[list[Edge], dict[str, dict[str, int]]]:
    """Align consecutive versions of every key among `units`; returns edges and counts per step."""
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
            edges += version_edges(changes)
            step = f"{older.id} -> {newer.version}"
            counts[step] = {s: sum(c.status == s for c in changes)
                            for s in ("inherited", "amended", "renumbered", "added", "removed")}
    return edges, counts


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

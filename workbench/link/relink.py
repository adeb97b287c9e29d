"""Resolving the stored citations of a workspace: all of them, or only what a new corpus can change.

A full relink (`workbench relink`) resolves every corpus's citations against every unit id.
After an ingest, only some corpora can resolve differently than before:

- the new corpus itself;
- corpora with a citation edge into an instrument the new corpus holds a version of (a
  citation resolves to the version in force when the citing text took effect, which may now
  be one of the new versions);
- corpora with an unresolved citation (a placeholder) naming an instrument the new corpus
  holds, by one of the names the resolver reads (key, title, aliases, number);
- corpora whose documents say they are read with one of those instruments;
- every corpus, when the workspace holds codified (pháp điển) articles: they stand for
  articles of other instruments, so a citation resolved through one may resolve to the source
  law itself once that law is in, and the other way round.

A re-ingest that drops an instrument counts the instruments the corpus held before as well.

Each of those corpora is resolved against the ids of the instruments its citations can name
(its own documents, the instruments found by name, those it is read with), not against every
unit id; and the documents are looked up by the names and keys involved (label-list indexes on
the document rows, `relink_touched`), not read all: adding a corpus costs time in what it
touches, not in the size of the workspace.
"""
from __future__ import annotations

from pathlib import Path

from ..core.records import DOCUMENTS, Filter, Problem
from .store import load_citations
from .cycles import cycle_problems
from .resolve import PLACEHOLDER, Resolver, document_names, lookup_names, read_with_names
from .run import resolve_citations

CODIFICATION = Filter(kinds=("document",), has_attr='"doc_kind": "codification"')
CODIFIED = Filter(kinds=("article",), any_of=(Filter(label_contains="."), Filter(has_attr="source_instrument")))


def relink(store, graph, folder: Path, corpus: str | None = None, before=()) -> dict[str, list[Problem]]:
    """Resolve the citations of every corpus (`corpus` None) or of the corpora the new
    `corpus` can change; replace their citation edges. Returns the problems per corpus
    resolved, and amendment cycles (which may span corpora) under "graph". `before`: the
    corpus's document units before this ingest (a re-ingest may have dropped some)."""
    files = {f.stem: f for f in sorted(Path(folder).glob("*.jsonl"))}
    if not files:
        return {}
    if corpus is not None and getattr(store, "catalogued", False) and not store.count(CODIFICATION):
        return relink_touched(store, graph, files, corpus, before)
    docs = store.where(DOCUMENTS)
    codified = codified_articles(store, docs)
    todo = sorted(files) if corpus is None else sorted(affected(corpus, docs, codified, graph, before) & set(files))
    names = Resolver(docs, set())                       # instrument names -> keys (no ids needed)
    every = store.ids() if corpus is None else None
    problems: dict[str, list[Problem]] = {}
    for name in todo:
        citations = load_citations(files[name])
        sources = {u.id: u for u in store.get({c.source for c in citations})}
        ids = every if every is not None else store.ids_matching(Filter(keys=tuple(sorted(
            reachable(citations, sources.values(), names, docs, {u.key for u in codified})))))
        edges, problems[name] = resolve_citations(citations, sources, Resolver(docs, ids, codified, names))
        graph.replace_corpus(name, edges, "links")
    problems["graph"] = cycle_problems(graph)
    return problems


def relink_touched(store, graph, files: dict[str, Path], corpus: str, before=()) -> dict[str, list[Problem]]:
    """`relink` after an ingest, reading only the documents it touches (a workspace whose
    document rows carry their names, store `catalogued`, and holding no codification): the new
    corpus's; those read with it; those named by the citations of each corpus resolved again;
    and every version of the instruments reached. Same edges as reading them all: every
    document known by a name looked up is read, in storage order, so the first one known by a
    name still wins."""
    mine = store.where(Filter(kinds=("document",), corpus=corpus)) + list(before)
    own = sorted({n for d in mine for n in document_names(d)})
    todo = {corpus} | graph.corpora_linking(tuple(sorted({f"{d.key}@" for d in mine})), PLACEHOLDER, own)
    if own:
        todo |= {d.corpus for d in store.where(Filter(kinds=("document",), reads_with=tuple(own)))}
    problems: dict[str, list[Problem]] = {}
    for name in sorted(todo & set(files)):
        citations = load_citations(files[name])
        sources = {u.id: u for u in store.get({c.source for c in citations})}
        docs, keys, names = documents_reached(store, citations, sources.values())
        ids = store.ids_matching(Filter(keys=tuple(sorted(keys))))
        edges, problems[name] = resolve_citations(citations, sources, Resolver(docs, ids, (), names))
        graph.replace_corpus(name, edges, "links")
    problems["graph"] = cycle_problems(graph)
    return problems


def documents_reached(store, citations, sources) -> tuple[list, set[str], Resolver]:
    """The documents a corpus's citations can resolve through, read by name and key (see
    `reachable`), the instrument keys they resolve into, and their name catalogue."""
    wanted = {n for c in citations if c.instrument for n in lookup_names(c.instrument)}
    keys = {u.key for u in sources}
    docs: list = []
    while True:         # the instruments named, those read with them, and so on
        either = tuple(f for f in (Filter(names=tuple(sorted(wanted))), Filter(keys=tuple(sorted(keys))))
                       if f.names or f.keys)       # an empty one would match every row
        docs = store.where(Filter(kinds=("document",), any_of=either)) if either else []
        names = Resolver(docs, set())
        found = keys | {k for k in map(names.find_key, (c.instrument for c in citations if c.instrument)) if k}
        more = {n for d in docs if d.key in found for n in read_with_names(d)} - wanted
        found |= {k for d in docs if d.key in found for x in d.attr("read_with").split(";") if x
                  for k in [names.find_key(x)] if k}
        if not more and found == keys:
            return docs, keys, names
        wanted, keys = wanted | more, found


def codified_articles(store, docs) -> list:
    """The codified articles: only a corpus holding a codification (a document of kind
    "codification", pháp điển) has them, so only its documents are searched (a scan of every
    article's label otherwise: a second at a million units)."""
    corpora = {d.corpus for d in docs if d.attr("doc_kind") == "codification"}
    keys = tuple(sorted({d.key for d in docs if d.corpus in corpora}))
    return store.where(Filter(keys=keys, any_of=(CODIFIED,))) if keys else []


def affected(corpus: str, docs, codified, graph, before=()) -> set[str]:
    """The corpora whose citations may resolve differently now that `corpus` is in (see above)."""
    mine = [d for d in docs if d.corpus == corpus] + list(before)
    if codified or any(d.attr("doc_kind") == "codification" for d in docs):
        return {d.corpus for d in docs}
    keys = {d.key for d in mine}
    names = {n for d in mine for n in document_names(d)}
    out = {corpus} | graph.corpora_linking(tuple(f"{k}@" for k in sorted(keys)), PLACEHOLDER, sorted(names))
    finder = Resolver(mine, set())
    for d in docs:
        if d.corpus not in out and any(finder.find_key(n) for n in d.attr("read_with").split(";") if n):
            out.add(d.corpus)
    return out


def reachable(citations, sources, names: Resolver, docs, codified_keys: set[str] = frozenset()) -> set[str]:
    """Instrument keys a corpus's citations can resolve into: the citing units' own, those
    found by name, those their documents are read with (and those read with them, and so on),
    and the codifications (which stand for articles of other instruments)."""
    keys = {u.key for u in sources} | codified_keys
    for c in citations:
        if c.instrument:
            key = names.find_key(c.instrument)
            if key:
                keys.add(key)
    while True:         # those read with them, and so on
        more = {k for d in docs if d.key in keys
                for k in map(names.find_key, filter(None, d.attr("read_with").split(";"))) if k} - keys
        if not more:
            return keys
        keys |= more

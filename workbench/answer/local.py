"""LOCAL context as the evidence of an answer (entity-centric GraphRAG's query-focused context):
the entities the question names, their relations aggregated across documents and the
sentences that support them, instead of the retrieved provisions composed in reading order.

The model reads the LOCAL text (entities, relations, sources with unit ids) followed by the
source units as evidence blocks, so a citation it writes is validated as usual. The extractive
answer cites the source units in the order LOCAL ranks its sources (shared words with the
question, then confidence), as many as the retrieval would have cited -- so the two modes
differ only in which provisions they rest on. A question naming no entity of the workspace
has no LOCAL context: `local_evidence` returns None and `ask` composes as usual (and says so);
so does a dated question none of whose LOCAL sources was in force on the date. What the model
reads is cut to its context budget (`fit`).
"""
from __future__ import annotations

import datetime as dt
import re

from ..core.records import Block, Evidence
from ..link.versions import in_force
from ..retrieve.expand import article_of

MODES = ("compose", "local")
LOCAL_CHARS = 4000          # the LOCAL text's budget in characters (entities/subgraph.local_context)


def local_evidence(wb, question: str, count: int, as_of: dt.date | None = None,
                   max_chars: int = LOCAL_CHARS) -> tuple[Evidence, list[str]] | None:
    """(evidence, cited article ids) from the LOCAL context of the question, or None."""
    index = wb.entities
    centers, text = index.local_context(question, max_chars=max_chars)
    if not centers:
        return None
    snippets = index.sources(centers, question)         # in the order LOCAL ranks its sources
    shown = set(re.findall(r"^- \[([^\]]+)\]", text, flags=re.M))      # the sources the text lists
    by_article: dict[str, list] = {}
    for s in snippets:
        if s.unit_id in shown:
            by_article.setdefault(article_of(s.unit_id), []).append(s)
    units = {u.id: u for u in wb.store.get(list(by_article))}
    if as_of is not None:               # only what was in force on the date
        by_article = {a: f for a, f in by_article.items() if a in units and in_force(units[a], as_of)}
        if not by_article:
            return None
    blocks = []
    for art, found in by_article.items():
        u = units.get(art)
        heading = f"{u.key} {u.label}".strip() if u else art
        body = " ".join(dict.fromkeys(s.text for s in found))
        blocks.append(Block(art, "EVIDENCE", heading, body, u, via="LOCAL context"))
    context = text.split("\n\nSources")[0]          # entities and relations; the sources are the blocks
    cited = list(by_article)[:max(count, 1)]
    return Evidence(blocks, as_of, context=context), cited


def fit(ev: Evidence, budget: int, tokens) -> Evidence:
    """The evidence cut to `budget` tokens (`tokens`: text -> approximate count): the last
    blocks go first (they are the least relevant), then the context is shortened."""
    from dataclasses import replace as _replace
    blocks, dropped = list(ev.blocks), []
    size = lambda bs, ctx: tokens(ctx) + sum(tokens(b.heading + " " + b.text) for b in bs)  # noqa: E731
    while len(blocks) > 1 and size(blocks, ev.context) > budget:
        dropped.append(blocks.pop().unit_id)
    context = ev.context
    while context and size(blocks, context) > budget:
        context = context[:int(len(context) * 0.8)]
    return _replace(ev, blocks=blocks, context=context, dropped=list(ev.dropped) + dropped, budget=budget,
                    used=size(blocks, context))

"""A workspace written before the current written form (core/orthography.py) brought to it, on
`workbench relink`: text stored decomposed is composed (with its full-text tokens made again, a list
item's with its list's lead-in), and every other row's tokens take one Vietnamese tone placement
(tokens are lower-cased words, so the stored ones are mapped as the text would be). Only changed rows
are written. `FORM` is recorded in workspace.json; `workbench info` warns of a workspace without it."""
from __future__ import annotations

import unicodedata
from dataclasses import replace

from ..core.orthography import one_form
from ..core.records import Filter

FORM = 2        # 2: composed text, one Vietnamese tone placement in the tokens; before: 1


def refresh_text(store) -> int:
    """Bring the stored text and tokens to FORM; returns how many rows changed."""
    import pyarrow as pa
    from .lance import lead_ins
    from .tokenize import search_text
    rows = store.table.search().select(["id", "corpus", "text", "title", "search_text"]) \
        .limit(max(store.count(), 1)).to_list()
    composed = lambda s: unicodedata.is_normalized("NFC", s or "")  # noqa: E731
    full: dict[str, tuple[str, str, str]] = {}
    for corpus in sorted({r["corpus"] for r in rows if not (composed(r["text"]) and composed(r["title"]))}):
        units = [replace(u, text=unicodedata.normalize("NFC", u.text or ""), title=unicodedata.normalize("NFC", u.title or ""))
                 for u in store.where(Filter(corpus=corpus))]
        leads = lead_ins(units)
        full.update({u.id: (u.text, u.title, search_text(f"{u.title}\n{leads.get(u.id, '')}\n{u.text}", u.language))
                     for u in units})
    tokens = {r["id"]: t for r in rows if r["id"] not in full
              for t in (one_form(r["search_text"] or ""),) if t != (r["search_text"] or "")}
    if full:
        store.table.merge_insert("id").when_matched_update_all().execute(pa.table(
            {"id": list(full), "text": [v[0] for v in full.values()], "title": [v[1] for v in full.values()],
             "search_text": [v[2] for v in full.values()]}))
    if tokens:
        store.table.merge_insert("id").when_matched_update_all().execute(
            pa.table({"id": list(tokens), "search_text": list(tokens.values())}))
    if full or tokens:
        store.reindex()
    return len(full) + len(tokens)

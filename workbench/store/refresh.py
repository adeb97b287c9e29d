"""A workspace written before the current written form (core/orthography.py) brought to it, on
`workbench relink`: text stored decomposed is composed (with its full-text tokens made again, a list
item's with its list's lead-in), and every other row's tokens take one Vietnamese tone placement
(tokens are lower-cased words, so the stored ones are mapped as the text would be). Only changed rows
are written (the defined terms' lookup keys are made again beside it, `TermStore.refresh_norms`). `FORM` is
recorded in workspace.json; `workbench info` warns of a workspace without it."""
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
    nfc = lambda s: s if s is None else unicodedata.normalize("NFC", s)  # noqa: E731
    stored = {r["id"]: r for r in rows}
    full: dict[str, tuple[str, str, str]] = {}
    for corpus in sorted({r["corpus"] for r in rows if not (composed(r["text"]) and composed(r["title"]))}):
        units = [replace(u, text=nfc(u.text), title=nfc(u.title)) for u in store.where(Filter(corpus=corpus))]
        leads = lead_ins(units)          # a list item is indexed with its list's lead-in, as at ingest
        for u in units:
            tokens = search_text(f"{u.title}\n{leads.get(u.id, '')}\n{u.text}", u.language)
            was = stored[u.id]
            if (u.text, u.title, tokens) != (was["text"], was["title"], was["search_text"]):
                full[u.id] = (u.text, u.title, tokens)
    mapped = {r["id"]: t for r in rows if r["id"] not in full
              for t in (one_form(r["search_text"] or ""),) if t != (r["search_text"] or "")}
    if full:
        column = lambda i: pa.array([v[i] for v in full.values()], pa.string())  # noqa: E731
        store.table.merge_insert("id").when_matched_update_all().execute(pa.table(
            {"id": pa.array(list(full), pa.string()), "text": column(0), "title": column(1), "search_text": column(2)}))
    if mapped:
        store.table.merge_insert("id").when_matched_update_all().execute(
            pa.table({"id": list(mapped), "search_text": list(mapped.values())}))
    if full or mapped:
        store.reindex()
    return len(full) + len(mapped)

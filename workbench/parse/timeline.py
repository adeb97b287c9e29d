"""When each version stops applying: at the next version of the same instrument, at the
start of an instrument that replaces it, or on its repeal date."""
from __future__ import annotations

import datetime as dt
from dataclasses import replace
from itertools import groupby

from ..core.records import DocumentMeta


def close_versions(docs: list[DocumentMeta], repealed: dict[str, dt.date] | None = None
                   ) -> list[DocumentMeta]:
    """Return the documents with `effective_to` filled in (an explicit one is kept)."""
    repealed = repealed or {}
    ends: dict[str, dt.date] = {}
    by_key = sorted(docs, key=lambda d: (d.key, d.effective_from or dt.date.min))
    for key, group in groupby(by_key, key=lambda d: d.key):
        versions = list(group)
        for older, newer in zip(versions, versions[1:]):
            if newer.effective_from:
                ends[older.doc_id] = newer.effective_from
        last = versions[-1]
        for other in docs:       # an instrument that replaces this one ends its last version
            if key in other.replaces and other.effective_from:
                current = ends.get(last.doc_id)
                ends[last.doc_id] = min(current, other.effective_from) if current else other.effective_from
    out = []
    for d in docs:
        end = d.effective_to or repealed.get(d.doc_id) or ends.get(d.doc_id)
        out.append(replace(d, effective_to=end))
    return out

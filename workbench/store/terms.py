"""Defined terms in LanceDB (collection `terms`): term -> defining unit."""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from .lance import _lancedb, quote


class TermStore:
    """Defined terms (collection `terms`): term -> defining unit."""
    NAME = "terms"

    def __init__(self, path: str | Path):
        import pyarrow as pa
        self.db = _lancedb().connect(str(path))
        self.schema = pa.schema([("norm", pa.string()), ("term", pa.string()), ("unit_id", pa.string()),
                                 ("corpus", pa.string()), ("language", pa.string()),
                                 ("definition", pa.string())])
        names = self.db.list_tables()
        names = set(names.tables if hasattr(names, "tables") else names)
        self.table = (self.db.open_table(self.NAME) if self.NAME in names
                      else self.db.create_table(self.NAME, schema=self.schema))

    def replace_corpus(self, corpus: str, terms) -> None:
        import pyarrow as pa
        from ..link.terms import norm_term
        self.table.delete(f"corpus = {quote(corpus)}")
        if terms:
            self.table.add(pa.table({
                "norm": [norm_term(t.term) for t in terms], "term": [t.term for t in terms],
                "unit_id": [t.unit_id for t in terms], "corpus": [corpus] * len(terms),
                "language": [t.language for t in terms], "definition": [t.definition for t in terms]},
                schema=self.schema))

    def delete_under(self, corpus: str, documents: Sequence[str]) -> None:
        """Delete the terms defined by units of these document versions of a corpus."""
        for d in documents:
            self.table.delete(f"corpus = {quote(corpus)} AND (unit_id = {quote(d)} OR "
                              f"starts_with(unit_id, {quote(d + '/')}))")

    def lookup(self, term: str, limit: int = 20) -> list[dict]:
        """Exact matches of the normalised term first, then terms that contain it."""
        from ..link.terms import norm_term
        n = norm_term(term)
        if not n:
            return []
        exact = self.table.search().where(f"norm = {quote(n)}").limit(limit).to_list()
        like = n.replace("%", "").replace("_", "")
        more = self.table.search().where(f"norm LIKE {quote('%' + like + '%')}").limit(limit).to_list() \
            if like else []                 # "%" alone names no term: it must not list them all
        seen, out = set(), []
        for r in exact + more:
            if r["unit_id"] not in seen:
                seen.add(r["unit_id"])
                out.append(r)
        return out[:limit]

    def refresh_norms(self) -> int:
        """The lookup keys of a workspace written before made again (`norm_term`: one written form), on
        `workbench relink`; returns how many keys changed."""
        from ..link.terms import norm_term
        n = max(self.count(), 1)
        changed = {old: new for old in set(self.table.search().select(["norm"]).limit(n).to_arrow()["norm"].to_pylist())
                   if old is not None and (new := norm_term(old)) != old}
        for old, new in changed.items():
            self.table.update(where=f"norm = {quote(old)}", values={"norm": new})
        return len(changed)

    def count(self) -> int:
        return self.table.count_rows()

    def all(self) -> dict[str, list[str]]:
        """normalised term -> ids of its defining units."""
        n = max(self.count(), 1)
        t = self.table.search().select(["norm", "unit_id"]).limit(n).to_arrow()
        out: dict[str, list[str]] = {}
        for norm, uid in zip(t["norm"].to_pylist(), t["unit_id"].to_pylist()):
            if len(norm) >= 2:
                out.setdefault(norm, []).append(uid)
        return out

"""A `Filter` (core/records.py) as a LanceDB condition: DataFusion SQL, written here and
nowhere else, for the unit store (lance.py) and the other tables of the workspace."""
from __future__ import annotations

from ..core.records import Filter


def quote(value: str) -> str:
    """A string literal for a LanceDB filter."""
    return "'" + str(value).replace("'", "''") + "'"


def in_list(column: str, values) -> str:
    return f"{column} IN (" + ",".join(quote(v) for v in values) + ")"


def _and(*parts: str | None) -> str | None:
    parts = [p for p in parts if p]
    return " AND ".join(f"({p})" for p in parts) if parts else None


def sql(f: Filter | str | None) -> str | None:
    """A `Filter` as a LanceDB (DataFusion SQL) condition; a string is taken as SQL already
    (the CLI's own conditions); None is no condition."""
    if f is None or isinstance(f, str):
        return f
    parts = []
    if f.kinds:
        parts.append(in_list("kind", f.kinds))
    if f.ids:
        parts.append(in_list("id", f.ids))
    if f.under:
        parts.append(" OR ".join(f"starts_with(id, {quote(i + '/')})" for i in f.under))
    if f.keys:
        parts.append(in_list("key", f.keys))
    if f.corpus is not None:
        parts.append(f"corpus = {quote(f.corpus)}")
    if f.article_no is not None:
        parts.append(f"article_no = {int(f.article_no)}")
    if f.label is not None:
        parts.append(f"label = {quote(f.label)}")
    if f.label_contains is not None:
        parts.append(f"label LIKE {quote('%' + f.label_contains + '%')}")
    if f.has_attr is not None:
        parts.append(f"attrs LIKE {quote('%' + f.has_attr + '%')}")
    if f.embedded is not None:
        parts.append(f"embedded = {'true' if f.embedded else 'false'}")
    if f.roles:
        parts.append(in_list("role", f.roles))
    if f.documents:
        parts.append(" OR ".join(f"(key = {quote(k)} AND version = {quote(v)})"
                                 for k, v in (d.split("@", 1) for d in f.documents)))
    if f.in_force is not None:
        d = f"date '{f.in_force.isoformat()}'"
        parts.append(f"(effective_from IS NULL OR effective_from <= {d}) AND "
                     f"(effective_to IS NULL OR effective_to > {d})")
    if f.versions:
        keys = sorted({v.split("@")[0] for v in f.versions})
        named = " OR ".join(f"(key = {quote(v.split('@')[0])} AND version = {quote(v.split('@', 1)[1])})"
                            for v in sorted(f.versions))
        parts.append(f"({named}) OR " + "key NOT IN (" + ",".join(quote(k) for k in keys) + ")")
    if f.names:
        parts.append("array_has_any(names, [" + ",".join(quote(n) for n in f.names) + "])")
    if f.reads_with:
        parts.append("array_has_any(read_with, [" + ",".join(quote(n) for n in f.reads_with) + "])")
    if f.any_of:
        subs = [sql(sub) for sub in f.any_of]
        if all(subs):                   # a sub-filter that sets nothing lets every row through
            parts.append(" OR ".join(f"({sub})" for sub in subs))
    return _and(*parts)

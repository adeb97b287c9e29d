"""Build a unit tree from a stream of headings and text lines.

Every parser (Chinese, Vietnamese, English, ...) recognises headings in its own
grammar and calls `TreeBuilder.open(...)`; lines that are not headings go to
`TreeBuilder.add_text(...)`. The builder assigns the ids of the scheme in
`../shared/corpora/README.md`, parents, line spans and CONTAINS edges, so that
all parsers agree on ids.

Id scheme (doc = "<key>@<version>"):
  part       doc/pt<N>              chapter  doc/ch<N> or doc/pt<N>/ch<N>
  section    <chapter>/s<N>         subsection <section>/ss<N>
  article    doc/a<N>               (global within a document, whatever its chapter)
  clause     <article>/c<M>         point    <clause>/p<K>  (or <article>/p<K> without clauses)
  subpoint   <point>/<K>            passage  doc/r<label>
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..core.records import DocumentMeta, Edge, EdgeType, ParseResult, Problem, Unit

LEVEL = {"document": 0, "part": 1, "chapter": 2, "section": 3, "subsection": 4,
         "article": 5, "passage": 5, "clause": 6, "point": 7, "subpoint": 8}
_PREFIX = {"part": "pt", "chapter": "ch", "section": "s", "subsection": "ss",
           "article": "a", "passage": "r", "clause": "c", "point": "p", "subpoint": ""}
# Units whose text gathers the text of everything below them.
_GATHERS = {"article", "passage", "clause", "point", "subpoint"}


@dataclass
class _Open:
    kind: str
    id: str
    label: str
    title: str
    article_no: int | None
    line_start: int
    line_end: int
    parent_id: str | None
    ordinal: int
    lines: list[str] = field(default_factory=list)
    children: int = 0


class TreeBuilder:
    """Collects units for one document version. Not thread-safe; one per document."""

    def __init__(self, meta: DocumentMeta):
        self.meta = meta
        self.result = ParseResult()
        self._stack: list[_Open] = []
        self._seen: set[str] = set()
        self._ordinal = 0
        self._doc = self._push("document", meta.doc_id, "", meta.title, None, 1, None)

    # -- building -----------------------------------------------------------------
    def open(self, kind: str, label: str, line: int, title: str = "",
             article_no: int | None = None, text: str = "") -> str:
        """Open a unit of `kind` numbered `label` at `line`; returns its id."""
        level = LEVEL[kind]
        while len(self._stack) > 1 and LEVEL[self._stack[-1].kind] >= level:
            self._close()
        parent = self._stack[-1]
        uid = self._make_id(kind, label, parent, line)
        node = self._push(kind, uid, label, title, article_no, line, parent.id)
        parent.children += 1
        if text:
            self.add_text(text, line)
        return node.id

    def close(self, kind: str) -> None:
        """Close the innermost open unit of `kind`, and every unit inside it."""
        if self.inside(kind):
            while self._stack[-1].kind != kind:
                self._close()
            self._close()

    def add_text(self, text: str, line: int) -> None:
        """Append a line of body text to the innermost open unit (and the units that gather it)."""
        text = text.strip()
        if not text:
            return
        for node in self._stack:
            if node.kind in _GATHERS or node is self._stack[-1]:
                node.lines.append(text)
                node.line_end = max(node.line_end, line)

    def current(self, kind: str | None = None) -> _Open | None:
        """The innermost open unit (of `kind`, if given)."""
        for node in reversed(self._stack):
            if kind is None or node.kind == kind:
                return node
        return None

    def inside(self, kind: str) -> bool:
        return self.current(kind) is not None

    def problem(self, line: int, reason: str, severity: str = "warning") -> None:
        self.result.problems.append(Problem(self.meta.source_file, line, reason, severity))

    def finish(self) -> ParseResult:
        while self._stack:
            self._close()
        return self.result

    # -- internals ----------------------------------------------------------------
    def _make_id(self, kind: str, label: str, parent: _Open, line: int) -> str:
        doc = self.meta.doc_id
        if kind in ("article", "passage"):
            base = f"{doc}/{_PREFIX[kind]}{label}"
        elif kind == "part":
            base = f"{doc}/pt{label}"
        elif kind == "chapter":
            base = f"{parent.id}/ch{label}" if parent.kind == "part" else f"{doc}/ch{label}"
        elif kind == "point" and parent.kind == "subsection":
            base = f"{parent.id}/p{label}"
        else:
            base = f"{parent.id}/{_PREFIX[kind]}{label}"
        uid, n = base, 2
        while uid in self._seen:
            uid = f"{base}~{n}"
            n += 1
        if uid != base:
            self.problem(line, f"duplicate {kind} number {label!r}; kept as {uid}")
        self._seen.add(uid)
        return uid

    def _push(self, kind, uid, label, title, article_no, line, parent_id) -> _Open:
        self._ordinal += 1
        node = _Open(kind, uid, label, title, article_no, line, line, parent_id, self._ordinal)
        self._stack.append(node)
        return node

    def _close(self) -> None:
        node = self._stack.pop()
        m = self.meta
        heading_text = node.title if node.kind not in _GATHERS else ""
        text = "\n".join(node.lines) if node.lines else heading_text
        attrs = ()
        if node.kind == "document":
            text = "\n".join([m.title, *node.lines]).strip()
            attrs = _document_attrs(m)
        unit = Unit(
            id=node.id, key=m.key, version=m.version, kind=node.kind, label=node.label,
            title=node.title, text=text, language=m.language, article_no=node.article_no,
            effective_from=m.effective_from, effective_to=m.effective_to,
            source_file=m.source_file, line_start=node.line_start, line_end=node.line_end,
            parent_id=node.parent_id, ordinal=node.ordinal, corpus=m.corpus, attrs=attrs)
        self.result.units.append(unit)
        if node.parent_id:
            self.result.edges.append(Edge(node.parent_id, node.id, EdgeType.CONTAINS,
                                          extractor="structure"))


def _document_attrs(m: DocumentMeta) -> tuple[tuple[str, str], ...]:
    """What the manifest says of a document version, kept on its document unit."""
    pairs = [("doc_kind", m.kind), ("adopted", m.adopted.isoformat() if m.adopted else ""),
             ("replaces", ";".join(m.replaces)), ("amends", ";".join(m.amends)), ("issuer", m.issuer)]
    return tuple((k, v) for k, v in pairs if v)

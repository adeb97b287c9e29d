"""The list of articles at the end of a pháp điển topic file ("## Danh sách điều khoản"):
read it, tell a title from the paragraph it runs into, and add the articles only the list has
(see phapdien.py)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.records import DocumentMeta, Edge, EdgeType, ParseResult, Unit
from .vi import PD_NUMBER, RE_ARTICLE, clean_line, parse_heading


@dataclass(frozen=True)
class ListEntry:
    kind: str                      # article, chapter or section
    label: str                     # pháp điển number "45.4.LQ.1", or the heading's number
    text: str                      # what follows: the title, often with the first paragraph
    line: int
    chapter: str | None = None     # labels of the chapter / section it is listed under
    section: str | None = None


def read_listing(lines: list[str], start: int) -> list[ListEntry]:
    out, chapter, section = [], None, None
    for i in range(start, len(lines)):
        s = clean_line(lines[i])
        head = parse_heading(s) if s else None
        if head and head.kind in ("chapter", "section"):
            chapter, section = (head.label, None) if head.kind == "chapter" else (chapter, head.label)
            out.append(ListEntry(head.kind, head.label, head.title, i + 1, chapter, section))
            continue
        m = RE_ARTICLE.match(s)
        if m and re.fullmatch(PD_NUMBER, m.group(1)):
            out.append(ListEntry("article", m.group(1), m.group(2).strip(), i + 1, chapter, section))
    return out


def split_title(text: str, first_line: str = "", strict: bool = False) -> str:
    """The title in a list line 'Chính sách … y tế 1. Nhà nước đóng …': before the body's
    first line when known, else before a first khoản '1.' / điểm 'a)', else all of it
    ("" if `strict`: the title cannot be told from the paragraph)."""
    probe = first_line[:30]
    if probe and text.find(probe) > 0:
        return text[:text.find(probe)].strip()
    m = re.search(r"\s(?:1\.|a\))\s", text)
    return text[:m.start()].strip() if m else ("" if strict else text)


def add_listing_units(result: ParseResult, listing: list[ListEntry], meta: DocumentMeta) -> None:
    """Articles only in the list become units holding their list line, under their listed
    chapter / section (made from the list too when the body lacks it)."""
    units = result.units
    by_id = {u.id: u for u in units}
    have = {u.label for u in units if u.kind == "article"}
    chapters = {u.label: u.id for u in units if u.kind == "chapter" and "~" not in u.id}
    sections = {(by_id[u.parent_id].label if u.parent_id in by_id else None, u.label): u.id
                for u in units if u.kind == "section" and "~" not in u.id}
    titles_only = _titles_only(listing, by_id, meta)
    ordinal = max((u.ordinal for u in units), default=0)

    def add(kind: str, label: str, title: str, text: str, e: ListEntry, parent: str) -> str:
        nonlocal ordinal
        ordinal += 1
        uid = f"{parent}/{'s' if kind == 'section' else 'ch'}{label}" if kind != "article" \
            else f"{meta.doc_id}/a{label}"
        units.append(Unit(
            id=uid, key=meta.key, version=meta.version, kind=kind, label=label, title=title,
            text=text, language=meta.language, effective_from=meta.effective_from,
            source_file=meta.source_file, line_start=e.line, line_end=e.line, parent_id=parent,
            ordinal=ordinal, corpus=meta.corpus, attrs=(("text_source", "listing"),)))
        result.edges.append(Edge(parent, uid, EdgeType.CONTAINS, extractor="structure"))
        return uid

    for e in listing:
        if e.kind == "chapter" and e.label not in chapters:
            chapters[e.label] = add("chapter", e.label, e.text, e.text, e, meta.doc_id)
        elif e.kind == "section" and (e.chapter, e.label) not in sections:
            parent = chapters.get(e.chapter, meta.doc_id)
            sections[(e.chapter, e.label)] = add("section", e.label, e.text, e.text, e, parent)
        elif e.kind == "article" and e.label not in have:
            have.add(e.label)
            parent = sections.get((e.chapter, e.section)) or chapters.get(e.chapter) or meta.doc_id
            title = e.text if titles_only else split_title(e.text, strict=True)
            add("article", e.label, title, e.text, e, parent)


def _titles_only(listing: list[ListEntry], by_id: dict, meta: DocumentMeta) -> bool:
    """Does this file's list give bare titles (not titles run into the first paragraph)?"""
    pairs = [(e.text, by_id[f"{meta.doc_id}/a{e.label}"].title) for e in listing
             if e.kind == "article" and f"{meta.doc_id}/a{e.label}" in by_id]
    return sum(a == b for a, b in pairs) * 2 > len(pairs)

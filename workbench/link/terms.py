"""Defined terms: "本法所称X，是指…", "X là …", "'X' means …" -> (term, defining unit).

Terms go to their own LanceDB collection (`terms`), so "what does X mean" finds the
defining unit by the term itself rather than by similarity.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.orthography import one_form
from ..core.records import Unit

ZH = [re.compile(r"(?:所称|所指)(?:的)?[“\"]?([^，,。；“”\"]{1,20}?)[”\"]?[，,]?(?:是指|指|包括)"),
      re.compile(r"^(?:[（(][一二三四五六七八九十]+[）)])?[“\"]?([^，,。；：:“”\"（(]{1,16}?)[”\"]?[，,：:](?:是指|指)")]
VI = [re.compile(r"^(?:\d+\.\s*|[a-zđ]\)\s*)?([^.:;,()]{2,60}?)\s+là\s+", re.IGNORECASE)]
EN = [re.compile(r"[‘'“\"]([^’'”\"]{1,60})[’'”\"]\s+(?:means|includes|refers to|has the meaning)"),
      re.compile(r"^(?:\([a-z0-9]+\)\s*)?(?:the\s+)?([A-Z][A-Za-z \-]{1,50}?)\s+means\s")]


@dataclass(frozen=True)
class Term:
    term: str
    unit_id: str
    language: str
    definition: str


def norm_term(term: str) -> str:
    """A term as looked up: quotes and extra spaces dropped, lower-cased, in one written form
    (core/orthography.py: "hoà giải viên" is "hòa giải viên")."""
    return one_form(re.sub(r"\s+", " ", term.strip().strip("“”\"'‘’")).lower())


def extract_terms(unit: Unit) -> list[Term]:
    """Definitions in the unit's own lines (clauses and points define; articles repeat them)."""
    if unit.kind not in ("clause", "point", "subpoint", "passage") and not (
            unit.kind == "article" and "\n" not in unit.text):
        return []
    patterns = {"zh": ZH, "vi": VI, "en": EN}.get(unit.language[:2], EN)
    first = unit.text.split("\n")[0].strip()
    found = []
    for rx in patterns:
        for m in rx.finditer(first):
            term = m.group(1).strip()
            if term and not re.search(r"\d{2,}|第.+条|所称|所指", term):
                found.append(Term(term, unit.id, unit.language, first[:300]))
    return list({norm_term(t.term): t for t in found}.values())

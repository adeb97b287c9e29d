"""The statute grammar for each language."""
from __future__ import annotations

import re
from typing import Callable

from ..core.records import DocumentMeta, ParseResult

Parser = Callable[[str, DocumentMeta], ParseResult]


def parser_for(language: str) -> Parser:
    lang = (language or "").lower().split("-")[0]
    if lang == "zh":
        from .zh import parse_zh
        return parse_zh
    if lang == "vi":
        from .vi import parse_vi
        return parse_vi
    if lang == "en":
        from .en import parse_en
        return parse_en
    raise ValueError(f"no statute grammar for language {language!r}; supported: zh, vi, en")


def has_words(text: str | None) -> bool:
    """Does `text` hold a word (letters or digits, in any script): something to search for?"""
    return re.search(r"\w", text or "") is not None


def has_han(text: str) -> bool:
    """Does the text hold a Chinese (CJK unified) character? Chinese is compared by
    character, other languages by word."""
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def guess_language(text: str) -> str:
    if has_han(text):
        return "zh"
    if any(ch in "ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ" for ch in text.lower()):
        return "vi"
    return "en"


HAN_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")     # as store/tokenize.RE_RUN


def han_pairs(text: str) -> set[str]:
    """Pairs of adjacent Chinese characters, never across punctuation, a space or anything
    else that is not Chinese (" | " between diff fragments)."""
    return {run[i:i + 2] for run in HAN_RUN.findall(text) for i in range(len(run) - 1)}

"""Language-aware tokens for full-text search and BM25.

Chinese is segmented with jieba (search mode, so 食品安全法 also yields 食品 / 安全), and each
character but a function word is a token as well: a question paraphrasing the law ("搜身" for
"搜查他人身体", "扣下" for "扣押") still shares characters with it where it shares no word (the
usual word + character indexing of Chinese retrieval);
Vietnamese keeps syllables (lower-cased, diacritics kept, since they change meaning; one
tone placement, core/orthography.py: "thoả thuận" finds "thỏa thuận");
English is lower-cased and Snowball-stemmed with PyStemmer. Mixed text is handled
run by run, so an English rule number inside Chinese text stays one token.
"""
from __future__ import annotations

import logging
import re
from functools import lru_cache

from ..core.orthography import one_form

# a number with its dotted or dashed parts ("3.2.1a", "12-CP"), not the start of a word glued to it ("5.Thoả")
RE_RUN = re.compile(r"([\u3400-\u9fff\uf900-\ufaff]+)|([0-9]+(?:[.\-][0-9A-Za-z]+(?![^\W\d_\u3400-\u9fff]))*)|(\w+)",
                    re.UNICODE)


@lru_cache(maxsize=1)
def _jieba():
    import jieba
    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()
    return jieba


@lru_cache(maxsize=1)
def _stemmer():
    import Stemmer
    return Stemmer.Stemmer("english")


def tokens(text: str, language: str = "", query: bool = False) -> list[str]:
    """Tokens of `text` for lexical search; the same function serves queries and documents
    (`query`: a question's interrogatives and yes-no words -- 什么, 如何, 有何, 是否 -- are left out,
    words and characters: 如 and 何 would match 如实 and 任何, 是否 every "审查是否符合")."""
    out: list[str] = []
    stem = language.startswith("en")
    for cjk, number, word in RE_RUN.findall(one_form(text or "")):
        if cjk:
            words = [(w, a, b) for w, a, b in _jieba().tokenize(cjk, mode="search") if w.strip()]
            # a question's own words ask, they name nothing of the law: dropped, with their characters
            asking = {i for m in ZH_QUESTION.finditer(cjk) for i in range(m.start(), m.end())} if query else set()
            out.extend(w for w, a, b in words if not asking & set(range(a, b)))
            # each character once, besides the words: not one that is a word already, nor a function word
            skip = {a for w, a, b in words if b - a == 1} | asking
            out.extend(ch for i, ch in enumerate(cjk) if i not in skip and ch not in ZH_STOP)
        elif number:
            out.append(number.lower())
        else:
            w = word.lower()
            out.append(_stemmer().stemWord(w) if stem and w.isascii() else w)
    return out


# Chinese function words: they carry no subject, yet a question's colloquial ones ("使用了")
# match where the law happens to use them ("履行了" — and 了 is rare there, so it weighs
# much). Dropped from queries only as words; the index keeps every word (and, like queries, no
# function word as a character).
ZH_STOP = frozenset("的 了 吗 呢 吧 啊 呀 把 被 给 在 是 也 都 就 还 着 过 和 与 及 或 而 要 会 能 可".split())
# interrogatives and yes-no words (closed classes), wherever jieba puts them ("有何变化", "第几条"):
# 何 only as a question word (not 任何), 几 not in 几乎, 哪 not in 哪怕
ZH_WH = re.compile(r"什么|哪(?!怕)|如何|为何|有何|(?<!任)何(?=[时种处在])|怎|多少|几(?!乎)")
ZH_QUESTION = re.compile(ZH_WH.pattern + r"|是否|有没有|有无")


def query_text(text: str, language: str = "") -> str:
    """A query's tokens for the full-text index: as `search_text`, without Chinese function words."""
    return " ".join(t for t in tokens(text, language, query=True) if t not in ZH_STOP)


def search_text(text: str, language: str = "") -> str:
    """The tokens joined by spaces: what the full-text index stores."""
    return " ".join(tokens(text, language))

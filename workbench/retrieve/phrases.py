"""How much of a question's wording a provision holds word for word.

Questions about a provision often restate its wording ("出厂未经肉品品质检验的生猪产品"), and BM25,
a bag of words and characters, gives a provision restating the phrase hardly more than a longer
one sharing its words scattered (a list of offences naming the same party and goods). The phrase
cover is the share of the question's topic lying in runs of at least `MIN_RUN` tokens found
contiguous in the provision -- the phrase part of a term-proximity model. Chinese is read by
character, after dropping punctuation, spaces and a bracketed alternative of one or two
characters after a word ("屠宰厂（场）", "观测站（点）": the law's way of naming two things at once,
the question naming one); every other language (Vietnamese, English) by lower-cased word.

MIN_RUN is set by language, not fitted: four Chinese characters (two words), three words. Known
limit: a number is read digit by digit in Chinese ("第3条规定" shares the run "3条规定" with
"第13条规定"; named articles are matched by direct lookup, not here). Other languages are read in one
written form (core/orthography.py: composed letters, one Vietnamese tone placement), as BM25 reads them.
"""
from __future__ import annotations

import re

from ..core.orthography import one_form
from ..parse.languages import HAN_RUN

MIN_RUN = {"zh": 4, "other": 3}
HAN = HAN_RUN.pattern.rstrip("+")            # one Chinese character, as the tokenizer reads them
ALTERNATIVE = re.compile(rf"(?<={HAN})[（(]{HAN}{{1,2}}[）)]")
NOT_TEXT = re.compile(rf"(?!{HAN})[^0-9A-Za-z]")
TITLE = re.compile(r"《[^》]*》")             # an instrument's name is matched by the named bonus, not here
WORD = re.compile(r"\w+", re.UNICODE)


def sequence(text: str, language: str) -> tuple:
    """What runs are made of: characters (Chinese) or lower-cased words."""
    if _chinese(language):
        return tuple(NOT_TEXT.sub("", ALTERNATIVE.sub("", TITLE.sub("", text or ""))))
    return tuple(w.lower() for w in WORD.findall(one_form(text or "")))     # one Vietnamese tone placement


def cover(topic: tuple, text: tuple, language: str) -> float:
    """Share of `topic` (a `sequence`) lying in runs of at least MIN_RUN tokens that occur in `text`."""
    run = MIN_RUN["zh" if _chinese(language) else "other"]
    n = len(topic)
    if n < run or len(text) < run:
        return 0.0
    grams = _grams(text, run)
    hay = _joined(text)
    covered = [False] * n
    end = 0                                  # where the last run found ends
    for i in range(n - run + 1):
        if topic[i:i + run] not in grams:
            continue
        # extend the run while it still occurs as one piece; topic[i:end] lies inside the last
        # run, so it occurs already: each position is extended past once (linear in the topic)
        j = max(end, i + run)
        while j < n and _joined(topic[i:j + 1]) in hay:
            j += 1
        covered[i:j] = [True] * (j - i)
        end = j
    return sum(covered) / n


def covers(topic: str, texts: dict[str, str], language: str) -> dict[str, float]:
    """`cover` of the topic in each text (id -> share), zero where nothing is held."""
    t = sequence(topic, language)
    out = {}
    for uid, text in texts.items():
        share = cover(t, sequence(text, language), language)
        if share:
            out[uid] = share
    return out


def _chinese(language: str | None) -> bool:
    return (language or "").lower().startswith("zh")


def _grams(seq: tuple, run: int) -> set:
    return {seq[i:i + run] for i in range(len(seq) - run + 1)}


def _joined(seq: tuple) -> str:
    return "\x1f" + "\x1f".join(seq) + "\x1f"

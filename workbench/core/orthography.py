"""One written form for text that Unicode or a spelling convention lets be written two ways,
so that a question and a provision meaning the same letters compare equal.

- Unicode: composed and decomposed letters ("ủ" as one code point, or "u" + hook + ...; files
  saved on macOS come decomposed) are the same text -- NFC.
- Vietnamese tone placement: two conventions put the tone of a final oa / oe / uy on either
  vowel (hoà / hòa, khoẻ / khỏe, uỷ / ủy); the first vowel is kept (the placement of the legal
  texts in the shared corpora: 99.7 % of such syllables in ALQAC 2022's laws, 96 % in its 2023
  passages, by a one-off count). "qu" + y keeps its tone on y in both conventions (quý), so it is
  left alone.
"""
from __future__ import annotations

import re
import unicodedata

_TONE = "\u0300\u0301\u0303\u0309\u0323"        # grave, acute, tilde, hook above, dot below
# matched on the decomposed form: the pair, its tone, and after it no letter (an open syllable) nor
# another mark (the dot below of "hoặc" comes before its breve: "oă" is no such pair)
VI_TONE = re.compile(rf"(?<![qQ])([oO][aAeE]|[uU][yY])([{_TONE}])(?![^\W\d_]|[\u0300-\u036f])")


# the other placement as composed text shows it (a tone on the a / e of oa, oe or on the y of uy): text in NFC
# without one is in its form already, which most text is -- a scan instead of two normalisations
_OTHER = re.compile("[oO][àáảãạÀÁẢÃẠèéẻẽẹÈÉẺẼẸ]|[uU][ỳýỷỹỵỲÝỶỸỴ]")


def one_form(text: str) -> str:
    """`text` in NFC with one Vietnamese tone placement (case kept)."""
    if text.isascii() or (unicodedata.is_normalized("NFC", text) and not _OTHER.search(text)):
        return text
    nfd = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFC", VI_TONE.sub(lambda m: m.group(1)[0] + m.group(2) + m.group(1)[1], nfd))

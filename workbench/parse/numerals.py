"""Chinese numerals to integers: 一百零二 -> 102, 两千 -> 2000, 十 -> 10, 〇 -> 0."""
from __future__ import annotations

_DIGITS = {"零": 0, "〇": 0, "○": 0, "Ｏ": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4,
           "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_DIGITS.update({str(i): i for i in range(10)} | {chr(0xFF10 + i): i for i in range(10)})   # "第1十条": mixed forms
_UNITS = {"十": 10, "百": 100, "千": 1000}
_BIG = {"万": 10_000, "亿": 100_000_000}
CN_NUM = "零〇○一二两三四五六七八九十百千万0-9０-９"


FULL_WIDTH_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")


def cn_to_int(text: str) -> int:
    """Convert a Chinese or (full-width) arabic numeral; raises ValueError if it is neither."""
    s = text.strip()
    if not s:
        raise ValueError("empty numeral")
    ascii_digits = s.translate(FULL_WIDTH_DIGITS)
    if ascii_digits.isdigit():
        return int(ascii_digits)
    total, section, digit = 0, 0, None
    for ch in s:
        if ch in _DIGITS:
            digit = _DIGITS[ch]
        elif ch in _UNITS:
            section += (1 if digit is None else digit) * _UNITS[ch]
            digit = None
        elif ch in _BIG:
            section += digit or 0
            total += section * _BIG[ch]
            section, digit = 0, None
        else:
            raise ValueError(f"not a Chinese numeral: {text!r}")
    if digit is not None:
        # 一百五 means 150 in speech, but statutes always write 一百五十; a lone digit is units.
        section += digit
    return total + section

"""Dates as written in statutes: 2009年2月28日, 01/01/2022, 2009-06-01."""
from __future__ import annotations

import datetime as dt
import re

from .numerals import FULL_WIDTH_DIGITS, cn_to_int

RE_ZH_DATE = re.compile(r"([0-9０-９〇○零一二三四五六七八九]{4})年([0-9０-９一二三四五六七八九十]{1,3})月"
                        r"([0-9０-９一二三四五六七八九十]{1,3})日")
RE_DMY = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")
RE_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")


def year_number(s: str) -> int:
    """A four-digit year in any digits: ASCII, full-width, or Chinese written digit by digit (二〇〇九)."""
    if s.isdigit() or s.translate(FULL_WIDTH_DIGITS).isdigit():
        return cn_to_int(s)
    return int("".join(str(cn_to_int(c)) for c in s))   # 二〇〇九 digit by digit


def zh_dates(text: str) -> list[dt.date]:
    out = []
    for y, m, d in RE_ZH_DATE.findall(text):
        try:
            out.append(dt.date(year_number(y), cn_to_int(m), cn_to_int(d)))
        except ValueError:
            continue
    return out


def parse_date(value) -> dt.date | None:
    """A date from a TOML date, 'YYYY-MM-DD', 'DD/MM/YYYY' or '2009年2月28日'; None if absent."""
    if value is None or value == "":
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    s = str(value).strip()
    for rx, order in ((RE_ISO, "ymd"), (RE_DMY, "dmy")):
        m = rx.search(s)
        if m:
            parts = dict(zip(order, map(int, m.groups())))
            return dt.date(parts["y"], parts["m"], parts["d"])
    found = zh_dates(s)
    if found:
        return found[0]
    raise ValueError(f"not a date: {value!r} (write YYYY-MM-DD)")

"""The date a question states: a calendar day or month in the written forms of Chinese, Vietnamese
and English questions (and ISO / year-first figures), read in turn; asked about the time before
it ("之前", "before", "trước ngày"), the day before."""
from __future__ import annotations

import datetime as dt
import re

from ..parse.dates import zh_dates

RE_ZH_MONTH = re.compile(r"((?:19|20)\d{2})年(\d{1,2})月(?!\d{1,2}日)")
RE_VI_DATE = re.compile(r"ngày\s+(\d{1,2})[/\-](\d{1,2})[/\-](\d{4})|(\d{1,2})/(\d{1,2})/(\d{4})")
# the written Vietnamese date of laws and letters ("ngày 15 tháng 3 năm 2015", "mùng 5 tháng 3 năm 2015"), and a
# month ("tháng 3 năm 2015", "tháng 3/2015": its first day, as a Chinese month) -- not the start of a document
# number ("3/2015/NĐ-CP": a month's year is followed by no "/")
RE_VI_LONG_DATE = re.compile(r"(?:ngày|mùng|mồng)\s+(\d{1,2})\s+tháng\s+(\d{1,2})\s+năm\s+((?:19|20)\d{2})(?!\d)",
                             re.IGNORECASE)
RE_VI_MONTH = re.compile(r"(?<!ngày )(?<!mùng )(?<!mồng )(?<!\d )tháng\s+(\d{1,2})\s*(?:năm\s+|/\s*)((?:19|20)\d{2})(?![\d/])",
                         re.IGNORECASE)
# a year-first date in figures, one separator throughout ("2015.3.15", "2015/3/15"), standing alone: not part of a
# path, a version string or a dotted number ("v2020.1.1", "/2015/3/15/", "Rule 2019.1.35", "Section 2019.1.3")
RE_YMD = re.compile(r"(?<![\w./§-])(?<!Rule )(?<!Section )(?<!Article )(?<!Điều )"
                    r"((?:19|20)\d{2})([./])(\d{1,2})\2(\d{1,2})(?!\d|[./]\d|/\w)", re.IGNORECASE)
RE_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
MONTHS = {m: i + 1 for i, m in enumerate(["january", "february", "march", "april", "may", "june", "july",
                                           "august", "september", "october", "november", "december"])}
RE_EN_DATE = re.compile(r"\b(?:(\d{1,2})\s+)?(" + "|".join(MONTHS) + r")\s+(?:(\d{1,2}),?\s+)?(\d{4})\b",
                        re.IGNORECASE)

# a date the question asks about the time before: "2022年8月1日之前", "before 1 August 2022", "trước ngày
# 1/8/2022" -- the law of the day before (not 以前, which in Chinese statutes may include the day)
BEFORE_DATE = re.compile(r"\d{4}\s*年\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*日)?\s*之?前(?!后)|"
                         r"\bbefore (?:the )?(?:\d{1,2}(?:st|nd|rd|th)? \w+,? \d{4}|\w+ \d{1,2}(?:st|nd|rd|th)?,? \d{4}|"
                         r"\w+ \d{4}|\d{4}-\d{2}-\d{2})|\btrước ngày\s*\d[\d/.-]*\d{4}|"
                         r"\btrước (?:ngày|mùng|mồng)\s+\d{1,2}\s+tháng\s+\d{1,2}\s+năm\s+\d{4}|\btrước tháng\s+\d{1,2}\s*(?:năm\s+|/)\d{4}|"
                         r"\d{4}([./])\d{1,2}\1\d{1,2}\s*之?前(?!后)|\b(?:before|trước ngày) \d{4}([./])\d{1,2}\2\d{1,2}",
                         re.IGNORECASE)


def question_date(q: str) -> dt.date | None:
    """A calendar date stated in the question (a month alone means its first day), read in the
    forms of `_DATE_FORMS` in turn; a date that does not exist ("31 February 2016") is no date,
    and the next match is read instead. Asked about the time before it (BEFORE_DATE), the day before."""
    try:
        date = _question_date(q)
    except (ValueError, OverflowError):
        return None
    if date is not None and any(_question_date(m.group()) == date for m in BEFORE_DATE.finditer(q)):
        return date - dt.timedelta(days=1)     # "before" is said of the date read, not of another one
    return date


def _vi_date(m) -> dt.date:
    d, mo, y = [int(x) for x in (m.groups()[:3] if m.group(1) else m.groups()[3:])]
    return dt.date(y, mo, d)


# the written forms of a date, most explicit first; a form whose match is no real date ("31 tháng 2") gives way to the next
_DATE_FORMS = (
    (RE_ISO, lambda m: dt.date(*map(int, m.groups()))),
    (RE_VI_DATE, _vi_date),
    (RE_VI_LONG_DATE, lambda m: dt.date(int(m.group(3)), int(m.group(2)), int(m.group(1)))),
    (RE_VI_MONTH, lambda m: dt.date(int(m.group(2)), int(m.group(1)), 1)),
    (RE_ZH_MONTH, lambda m: dt.date(int(m.group(1)), int(m.group(2)), 1)),
    (RE_EN_DATE, lambda m: dt.date(int(m.group(4)), MONTHS[m.group(2).lower()], int(m.group(1) or m.group(3) or 1))),
    (RE_YMD, lambda m: dt.date(int(m.group(1)), int(m.group(3)), int(m.group(4)))),
)


def _question_date(q: str) -> dt.date | None:
    found = zh_dates(q)
    if found:
        return found[0]
    for rx, read in _DATE_FORMS:
        for m in rx.finditer(q):
            try:
                return read(m)
            except ValueError:
                continue
    return None

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

# a part of a year ("2016年初", "2015年底", "2018年下半年", "early 2016", "the second half of 2018", "cuối năm 2015"):
# the middle of that part (a design choice, as mid_year is for a year alone) -- the least explicit form, read last
_PART_DAY = {"初": (2, 1), "底": (12, 1), "末": (12, 1), "上半年": (4, 1), "下半年": (10, 1), "春": (4, 15),
             "夏": (7, 15), "秋": (10, 15), "early": (2, 1), "beginning": (2, 1), "start": (2, 1), "late": (12, 1),
             "end": (12, 1), "mid": (7, 1), "first half": (4, 1), "second half": (10, 1), "spring": (4, 15),
             "summer": (7, 15), "autumn": (10, 15), "fall": (10, 15), "đầu": (2, 1), "cuối": (12, 1), "giữa": (7, 1),
             "nửa đầu": (4, 1), "nửa cuối": (10, 1)}
# (not a version made then: "2018年初修订的", "the late 2018 revision"; nor "2016年初次 / 初诊 / 初版", "春节", "末次")
_NOT_FACTS = r"(?!\s*(?:修订|修正|修改|版(?!权)))"
RE_YEAR_PART = re.compile(r"((?:19|20)\d{2})\s*年\s*(?:的)?(?:年)?(初(?![始诊版次步审犯级中一二三四五六七八九十])|底(?![线价层稿])|"
                          rf"末(?![次尾位])|上半年|下半年|春(?![节运])|夏|秋)(?:季|天)?{_NOT_FACTS}|"
                          r"\b(early|late|mid|(?:the )?(?:beginning|start|end|first half|second half)|spring|summer|autumn|fall)"
                          r"(?:-| of | )(?:the year )?((?:19|20)\d{2})\b"
                          r"(?!\s+(?:amendments?|revisions?|versions?|act|rules|regulations?|code|decree|circular)\b)|"
                          r"\b(nửa đầu|nửa cuối|đầu|cuối|giữa) năm ((?:19|20)\d{2})\b(?!\s*(?:sửa đổi|ban hành))", re.IGNORECASE)


def _year_part(m) -> dt.date:
    year = m.group(1) or m.group(4) or m.group(6)
    part = (m.group(2) or m.group(3) or m.group(5)).lower().removeprefix("the ")
    return dt.date(int(year), *_PART_DAY[part])


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
    (RE_YEAR_PART, _year_part),
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

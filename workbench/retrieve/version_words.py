"""Versions and years written in words, rewritten as the digits the router reads.

- A year in Chinese numerals ("二〇一二年三月", "二零二一年修订") or in full-width digits
  ("２０１２年") is written in ASCII digits.
- A version named by its place in the instrument's history: the original ("最初的条例",
  "首次公布的版本", "the original version", "as originally made", "phiên bản đầu tiên") or
  the N-th revision ("第二次修订后", "第三次修正前", "the second amendment", "lần sửa đổi thứ hai")
  of the instrument the question names: the year of that version (its label, else its entry into
  force) takes the words' place ("1997年版", "2011年修订后"), so that a version named by its place
  is scoped like one named by its year.

The N-th revision is the (N+1)-th version of the instrument's chain (the first being the
original): how a State Council regulation counts ("…第一次修订 …第二次修订"). A law of the NPC
counts full revisions (修订) and amendments (修正) apart; the catalog holds versions, not the kind
of each step, so there the count runs over all steps -- right when the corpus holds every version
and all steps are of one kind. Nothing is rewritten when the question names no instrument, or
several with different histories, or when the instrument has fewer versions than the number."""
from __future__ import annotations

import re

from ..parse.numerals import cn_to_int

_CN_DIGIT = "〇○零一二三四五六七八九"
CN_YEAR = re.compile(rf"([{_CN_DIGIT}]{{4}})(?=\s*年)")
FULL_WIDTH = str.maketrans("０１２３４５６７８９", "0123456789")

_ORDINAL_EN = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
               "ninth": 9, "tenth": 10}
_ORDINAL_VI = {"nhất": 1, "thứ nhất": 1, "đầu tiên": 1, "thứ hai": 2, "thứ ba": 3, "thứ tư": 4, "thứ năm": 5,
               "thứ sáu": 6, "thứ bảy": 7}
# the first version: "最初版本", "最早的文本", "最初的《条例》", "首次公布时", "制定时的版本" (not "原始记录", "最早的时间")
_ORIGINAL_ZH = r"(?:最初|最早|原始)的?(?:版本|文本)|(?:最初|最早)版(?![权画])|" \
               r"(?:首次|第一次|最初)(?:公布|发布|颁布|制定|施行)(?:时|的)?(?:版本|文本)?|(?:制定|颁布)时的?(?:版本|文本)?"
_ORIGINAL_BEFORE_NAME_ZH = r"(?:最初|最早)的?(?=《|条例|办法|规定{names})"
ORIGINAL_EN = re.compile(r"\b(?:the|its) (?:original|first) (?:version|text)\b|"
                         r"\bas (?:originally|first) (?:enacted|made|issued|published|adopted)\b", re.IGNORECASE)
ORIGINAL_VI = re.compile(r"\b(?:phiên bản|văn bản|bản) (?:đầu tiên|gốc|ban đầu)\b", re.IGNORECASE)
# the N-th revision: "第二次修订", "第三次修正后" (a revision of the law -- not "第一次股东会")
NTH_ZH = re.compile(r"第([一二三四五六七八九十]{1,3}|\d{1,2})次(修订|修正|修改)(?!案)")
# a version named by the day it was made: "2008年5月25日修订的《条例》", "1997年12月19日发布的条例",
# "《条例》2008年5月25日修订前" -- the day of its making, not of the facts (nor of its entry into force)
_MADE_DAY = r"((?:19|20)\d{2})\s*年\s*\d{1,2}\s*月\s*\d{1,2}\s*日"
_REVISED = r"(?:第[一二三四五六七八九十]{1,3}次)?(?:修订|修正|修改)(?!案)"
_ISSUED = r"(?:公布|发布|颁布|通过|制定)"
NTH_EN = re.compile(rf"\b(?:the|its) ({'|'.join(_ORDINAL_EN)}) (amendment|revision)\b", re.IGNORECASE)
NTH_VI = re.compile(rf"\b(?:lần )?(sửa đổi|sửa đổi, bổ sung) lần ({'|'.join(_ORDINAL_VI)})\b", re.IGNORECASE)


def ascii_years(question: str) -> str:
    """Years in Chinese numerals or full-width digits, in ASCII digits."""
    q = question.translate(FULL_WIDTH)
    return CN_YEAR.sub(lambda m: "".join(str(cn_to_int(c)) for c in m.group(1)), q)


def _year(version) -> str | None:
    label = version.version[:4]
    if label.isdigit():
        return label
    return str(version.effective_from.year) if version.effective_from else None


def spelled_versions(question: str, catalog, keys: set[str]) -> str:
    """`question` with its versions named by place (the original, the N-th revision of an
    instrument of `keys`) written as years; unchanged when that is not one version."""
    chains = [catalog.chain(k) for k in keys]
    chains = [c for c in chains if c]
    if not chains:
        return question

    def year_of(index: int) -> str | None:
        years = {_year(c[index]) if index < len(c) else None for c in chains}
        return years.pop() if len(years) == 1 else None     # twins agree; different histories: unread

    def nth(n: int, write) -> str | None:
        y = year_of(n) if n >= 1 else None
        return write(y) if y else None
    q = made_on(question, catalog.names_of(set(keys)))
    first = year_of(0)
    if first and len(chains[0]) > 1:
        names = "".join("|" + re.escape(n) for n in catalog.names_of(keys) if not n[:1].isascii())
        q = re.sub(f"{_ORIGINAL_ZH}|{_ORIGINAL_BEFORE_NAME_ZH.format(names=names)}", f"{first}年版", q)
        q = ORIGINAL_EN.sub(f"the {first} version", q)
        q = ORIGINAL_VI.sub(f"phiên bản năm {first}", q)
    q = NTH_ZH.sub(lambda m: nth(_number(m.group(1)), lambda y: f"{y}年{m.group(2)}") or m.group(0), q)
    q = NTH_EN.sub(lambda m: nth(_ORDINAL_EN[m.group(1).lower()], lambda y: f"the {y} {m.group(2)}") or m.group(0), q)
    q = NTH_VI.sub(lambda m: nth(_ORDINAL_VI[m.group(2).lower()], lambda y: f"{m.group(1)} năm {y}") or m.group(0), q)
    return q


def made_on(question: str, names: list[str]) -> str:
    """A version named by the day it was made, as its year: revised on a day ("2008年5月25日修订的《…》",
    "《…》2008年5月25日修订前" -> "2008年修订…") or issued on a day ("1997年12月19日发布的《…》" -> "1997年版《…》"),
    when the instrument's name is written next to it -- an order issued on a day ("政府2019年6月15日发布命令")
    is a fact, not a version."""
    names = [n for n in names if n in question]
    if not names:
        return question
    name = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    q = re.sub(rf"{_MADE_DAY}(?=\s*{_REVISED}\s*(?:后|前|时)?的?\s*《?(?:{name}))", r"\1年", question)
    q = re.sub(rf"(?<=(?:{name}))(》?\s*){_MADE_DAY}(?=\s*{_REVISED})", r"\1\2年", q)
    return re.sub(rf"{_MADE_DAY}\s*{_ISSUED}(?:时|的)*(?=\s*《?(?:{name}))", r"\1年版", q)


def _number(s: str) -> int:
    return int(s) if s.isdigit() else cn_to_int(s)

"""Versions and years written in words, rewritten as the digits the router reads.

- A year in Chinese numerals ("二〇一二年三月", "二零二一年修订") is written in ASCII digits, and so is
  every full-width digit ("２０１２年", "第１２条").
- A version of an instrument named by its place in the instrument's history -- the original
  ("最初的《条例》", "《条例》最初版本", "《条例》首次公布时", "the original version of the Act", "the Act as
  originally made", "phiên bản đầu tiên của Luật …") or the N-th revision ("《条例》第二次修订后", "the
  second amendment of the Act", "Luật … sửa đổi lần thứ hai") -- or by the day it was made ("2008年5月25日修订的
  《条例》", "1997年12月19日发布的条例") takes the year of that version (its label, else its entry into
  force) in place of the words ("1997年版", "2011年修订后"), so that it is scoped like a version named by its year.
  Every form needs the instrument's name written next to it: "原始记录", "公司章程第二次修订后", "the original
  version of the record", "the First Amendment", "bản gốc của giấy phép" name no version of a law.

The N-th revision is the (N+1)-th version of the instrument's chain (the first being the
original): how a State Council regulation counts ("…第一次修订 …第二次修订"). A law of the NPC
counts full revisions (修订) and amendments (修正) apart; the catalog holds versions, not the kind
of each step, so there the count runs over all steps -- right when the corpus holds every version
and all steps are of one kind. Nothing is rewritten when the question names no instrument, or
several with different histories, or when the instrument has fewer versions than the number."""
from __future__ import annotations

import re

from ..parse.dates import year_number
from ..parse.numerals import FULL_WIDTH_DIGITS, cn_to_int

_CN_DIGIT = "〇○零一二三四五六七八九"
CN_YEAR = re.compile(rf"([{_CN_DIGIT}]{{4}})(?=\s*年)")

_ORDINAL_EN = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
               "ninth": 9, "tenth": 10}
_ORDINAL_VI = {"nhất": 1, "thứ nhất": 1, "đầu tiên": 1, "thứ hai": 2, "thứ ba": 3, "thứ tư": 4, "thứ năm": 5,
               "thứ sáu": 6, "thứ bảy": 7}
_CN_ORDINAL = r"([一二三四五六七八九十]{1,3}|\d{1,2})"
# the first version, written after the name ("《条例》最初版本", "条例首次公布时", "条例制定时") or before it
# ("最初的《条例》", "首次公布的条例")
_ORIGINAL_AFTER_ZH = r"(?:的)?(?:(?:最初|最早)的?(?:版本|文本|版(?![权画]))|(?:首次|第一次|最初)(?:公布|发布|颁布|制定|施行)" \
                     r"(?:时(?![间期])(?:的(?:版本|文本))?|的(?:版本|文本))|(?:制定|颁布)时(?![间期])(?:的(?:版本|文本))?)"
_ORIGINAL_BEFORE_ZH = r"(?:最初|最早|(?:首次|第一次|最初)(?:公布|发布|颁布|制定)|(?:制定|颁布)时)的?(?:版本|文本)?的?"
# the N-th revision, after the name ("《条例》第二次修订后", "条例的第三次修正") or before it ("第二次修订后的《条例》")
_NTH_ZH = rf"第{_CN_ORDINAL}次(修订|修正|修改)(?!案|草案)"
# ... and, the question naming one instrument, an ordinal away from its name ("…第二次修订后与第三次修订后有何不同"):
# a revision (修订 / 修正, not 修改) of no charter, contract or agreement
_NTH_ALONE_ZH = rf"(?<!章程)(?<!合同)(?<!协议)(?<!规则)第{_CN_ORDINAL}次(修订|修正)(?!案|草案)"
# a version named by the day it was made: the day of its making, not of the facts (nor of its entry into force)
_MADE_DAY = r"((?:19|20)\d{2})\s*年\s*\d{1,2}\s*月\s*\d{1,2}\s*日"
_REVISED = rf"(?:第[一二三四五六七八九十]{{1,3}}次)?(?:修订|修正|修改)(?!案)"
_ISSUED = r"(?:公布|发布|颁布|通过|制定)"
# a name followed by more of a title is another instrument ("…条例实施办法")
_NAME_END = r"(?!实施|办法|细则)"


def ascii_years(question: str) -> str:
    """Years in Chinese numerals in ASCII digits; every full-width digit too."""
    return CN_YEAR.sub(lambda m: str(year_number(m.group(1))), question.translate(FULL_WIDTH_DIGITS))


def _year(version) -> str | None:
    label = version.version[:4]
    if label.isdigit():
        return label
    return str(version.effective_from.year) if version.effective_from else None


def spelled_versions(question: str, catalog, keys: set[str]) -> str:
    """`question` with the versions of the instruments of `keys` named by place or by their making
    day written as years; unchanged when that is not one version."""
    chains = [c for c in (catalog.chain(k) for k in sorted(keys)) if c]
    names = sorted({n for n in catalog.names_of(set(keys)) if n.lower() in question.lower()}, key=len, reverse=True)
    if not chains or not names:
        return question

    def year_of(index: int) -> str | None:
        years = {_year(c[index]) if index < len(c) else None for c in chains}
        return years.pop() if len(years) == 1 else None     # twins agree; different histories: unread
    zh = "|".join(re.escape(n) for n in names if not n[:1].isascii())
    other = "|".join(re.escape(n) for n in names if n[:1].isascii())
    q = made_on(question, zh) if zh else question
    first = year_of(0) if min(len(c) for c in chains) > 1 else None
    if zh:
        name = rf"(《?(?:{zh})》?){_NAME_END}"
        if first:
            q = re.sub(rf"{name}{_ORIGINAL_AFTER_ZH}", rf"\g<1>{first}年版", q)
            q = re.sub(rf"{_ORIGINAL_BEFORE_ZH}(?={name})", f"{first}年版", q)

        def nth(m, g: int, before: str = "") -> str:       # groups g, g + 1: the ordinal and the word
            n = cn_to_int(m.group(g))
            y = year_of(n) if n >= 1 else None
            return f"{before}{y}年{m.group(g + 1)}" if y else m.group(0)
        # "2011年第二次修订": the year already names it -- the ordinal goes
        q = re.sub(rf"((?:19|20)\d{{2}})\s*年\s*第[一二三四五六七八九十\d]{{1,3}}次(?=修订|修正|修改)", r"\1年", q)
        q = re.sub(rf"{name}(的)?{_NTH_ZH}", lambda m: nth(m, 3, m.group(1) + (m.group(2) or "")), q)
        q = re.sub(rf"{_NTH_ZH}(?=(?:后|前|之后|之前)?的\s*{name})", lambda m: nth(m, 1), q)
        if len(keys) == 1 or len({tuple(_year(d) for d in c) for c in chains}) == 1:
            q = re.sub(_NTH_ALONE_ZH, lambda m: nth(m, 1), q)
    if other:
        name = rf"(?:the )?(?:{other})"
        if first:
            q = re.sub(rf"\b(?:the|its) (?:original|first) (?:version|text) of ({name})",
                       rf"the {first} version of \1", q, flags=re.IGNORECASE)
            q = re.sub(rf"({name})(,?) as (?:originally|first) (?:enacted|made|issued|published|adopted)\b(,?)",
                       lambda m: f"{m.group(1)} in its {first} version" + ("" if m.group(2) else m.group(3)), q,
                       flags=re.IGNORECASE)
            q = re.sub(rf"\b(?:phiên bản|văn bản|bản) (?:đầu tiên|gốc|ban đầu) (của )?({name})",
                       rf"phiên bản năm {first} \1\2", q, flags=re.IGNORECASE)
        q = re.sub(rf"\b(the|its) ({'|'.join(_ORDINAL_EN)}) (amendment|revision) (of|to) ({name})",
                   lambda m: (f"{m.group(1)} {y} {m.group(3)} {m.group(4)} {m.group(5)}"
                              if (y := year_of(_ORDINAL_EN[m.group(2).lower()])) else m.group(0)), q, flags=re.IGNORECASE)
        q = re.sub(rf"({name}) (?:được )?(sửa đổi|sửa đổi, bổ sung) lần ({'|'.join(_ORDINAL_VI)})\b",
                   lambda m: (f"{m.group(1)} {m.group(2)} năm {y}" if (y := year_of(_ORDINAL_VI[m.group(3).lower()]))
                              else m.group(0)), q, flags=re.IGNORECASE)
    return q


def made_on(question: str, name: str) -> str:
    """A version named by the day it was made, as its year: revised on a day ("2008年5月25日修订的《…》",
    "《…》2008年5月25日修订前" -> "2008年修订…") or issued on a day ("1997年12月19日发布的《…》" -> "1997年版《…》"),
    the instrument's name (`name`: a pattern of its names) written next to it -- an order issued on a day
    ("政府2019年6月15日发布命令") is a fact, not a version."""
    q = re.sub(rf"{_MADE_DAY}(?=\s*{_REVISED}\s*(?:后|前|时)?的?\s*《?(?:{name}){_NAME_END})", r"\1年", question)
    q = re.sub(rf"((?:{name})》?\s*){_MADE_DAY}(?=\s*{_REVISED})", r"\1\2年", q)
    return re.sub(rf"{_MADE_DAY}\s*{_ISSUED}(?:时|的)*(?=\s*《?(?:{name}){_NAME_END})", r"\1年版", q)


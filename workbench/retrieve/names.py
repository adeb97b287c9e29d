"""Instruments a Chinese question names in forms their titles do not hold verbatim, and articles it
attributes to an instrument the workspace does not hold.

Chinese legal writing shortens a long title by keeping some of its characters in their order and
the kind of instrument at the end: 刑事诉讼法 -> 刑诉法, 最高人民法院关于适用《刑事诉讼法》的解释 ->
刑诉法解释, 最高人民法院关于审理非法集资刑事案件…的解释 -> 非法集资(司法)解释. `abbreviated` reads such a
name: the characters before a kind word (解释, 规定, 条例, 办法, 细则, 决定, 法; "司法解释" is a 解释) that
occur in that order in the title of exactly one instrument of that kind -- in at most MAX_CHUNKS runs, at
least MIN_CHARS of them, or two that begin the title's own words (民诉法) -- or, failing that, a stretch of at
least MIN_RUN characters found whole in one such title ("食品安全犯罪司法解释": 食品安全). A stretch ending a
title is its tail, which Catalog.named reads already (with its rule that 环境保护法 is no short name of
海洋环境保护法): not read here. An issuer's or a title's form words (BOILER) are no part of the name, and the
kinds that are common nouns too (COMMON: 决定, 规定, 办法) are read only inside 《》.

`outside_articles`: "刑法第三百三十九条" in a question about a judicial interpretation of 刑法 names an
article of 刑法; when the workspace holds no instrument so named -- nor one whose name ends with or shortens
to it (`held`) -- that number is no article of the instruments it holds (a direct lookup by number would
take another instrument's Art. 339).
"""
from __future__ import annotations

import re

# the kinds of instrument a Chinese name ends in (法典 before 法, so 民法典 ends in its kind)
KIND_WORDS = "法典|法|条例|办法|规定|细则|解释|决定"
KIND = re.compile(r"(?:司法)?(解释|规定|条例|办法|细则|决定|法)")
MIN_CHARS = 3       # a shorter stretch names an instrument only by its first characters (民诉法), below
MAX_CHUNKS = 3      # 刑诉法 in 刑事诉讼法: 刑 | 诉 | 法 -- the usual shortening keeps a character of each word
MIN_RUN = 4         # characters of a title found whole: a four-character word or more
MAX_HEAD = 12       # characters before the kind word that may belong to the name
# what stands before a kind word without naming an instrument: the instrument itself ("本法", "该条例"), its
# version ("2019年条例", "修订后的规定", "现行解释"), a determiner, or the verb or preposition governing it
# ("依照条例第十条", "违反规定")
SELF = re.compile(r"(?:本|该|此|这|其|新|旧|原|现行|这部|那部|这个|这一|上述|前述|年|版|后的?|前的?|当时的?|有关|相关|的|"
                  r"依照|按照|依据|根据|按|依|照|据|违反|适用|参照|比照|是|在|了|和|与|及|或)(?:司法)?$")
# words every title of a kind may hold, naming its issuer or its form rather than its subject: not read as
# part of a shortened name ("最高人民法院对非法集资是怎么规定的" names no provision of that court)
BOILER = re.compile(r"中华人民共和国|最高人民法院|最高人民检察院|人民法院|人民检察院|国务院|全国人民代表大会|常务委员会|"
                    r"适用法律|具体应用法律|若干问题|关于")
# kinds that are also common nouns ("行政处罚决定", "有关规定", "处理办法"): read as a shortened name only
# inside book-title marks
COMMON = ("决定", "规定", "办法")


def _chunks(stretch: str, title: str) -> int:
    """The runs in which `stretch`'s characters occur, in order, in `title` (leftmost), or 0 if they do not."""
    at, runs, last = 0, 0, -2
    for ch in stretch:
        i = title.find(ch, at)
        if i < 0:
            return 0
        runs += i != last + 1
        last, at = i, i + 1
    return runs


def abbreviated(text: str, names: list[tuple[str, str]]) -> set[str]:
    """Keys of the instruments `text` names by a shortened title (module doc)."""
    return {k for _, k in shortened(text, names)}


def shortened(text: str, names: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(the shortened name as written, e.g. "非法集资司法解释", its instrument's key) for each one in `text`."""
    out, bare = [], None
    for run in re.finditer(r"《?[\u4e00-\u9fff]+", text):
        s, marked = run.group().lstrip("《"), run.group().startswith("《")
        for m in KIND.finditer(s):
            kind, head = m.group(1), s[max(0, m.start() - MAX_HEAD):m.start()]
            head = BOILER.split(head)[-1]           # what follows the issuer's or the form's words
            bare = bare if bare is not None else [(_bare(n), k) for n, k in names if not n.isascii()]
            titles = [(t, k) for t, k in bare if t.endswith(kind)]
            if not titles or len(head) < 2 or SELF.search(head) or (kind in COMMON and not marked):
                continue
            found, start = _by_order(head, kind, titles)
            if not found:
                found, start = _by_run(head, kind, titles)
            if len(found) == 1:
                out.append((head[start:] + m.group(0), next(iter(found))))
    return out


def _bare(title: str) -> str:
    """A title without its closing mark and a qualifier in brackets after its kind ("…办法（试行）")."""
    return re.sub(r"[（(][^（）()]{1,6}[）)]$", "", title.rstrip("》"))


def _by_order(head: str, kind: str, titles: list[tuple[str, str]]) -> tuple[set[str], int]:
    """The instruments whose title holds the longest stretch ending `head` in order, and where it starts: at
    least MIN_CHARS characters, or two that begin the title's own words as the usual shortening does (民诉法 for
    民事诉讼法, 个保法 for 个人信息保护法; not 环保法 for 海洋环境保护法)."""
    for i in range(len(head) - 1):          # the longest stretch first
        stretch = head[i:]
        keys = {k for n, k in titles if not n.endswith(stretch + kind)
                and 0 < _chunks(stretch, n[:-len(kind)]) <= MAX_CHUNKS
                and (len(stretch) >= MIN_CHARS or BOILER.split(n)[-1].startswith(stretch[0]))}
        if keys:
            return keys, i
    return set(), 0


def _by_run(head: str, kind: str, titles: list[tuple[str, str]]) -> tuple[set[str], int]:
    """The instruments whose title holds the longest run of `head` whole, and where that run starts (the
    name as written runs from there to the kind word: "食品安全犯罪司法解释")."""
    for size in range(len(head), MIN_RUN - 1, -1):
        for i in range(len(head) - size + 1):
            keys = {k for n, k in titles if head[i:i + size] in n and not n.endswith(head[i:i + size] + kind)}
            if keys:
                return keys, i
    return set(), 0


# the words right before an article number, ending in a kind of instrument ("…刑法", "《刑法》", "…司法解释")
NAMED_BEFORE = re.compile(rf"(《[^》]{{1,40}}》|[\u4e00-\u9fff]{{1,20}}?(?:{KIND_WORDS}))$")
KIND_END = re.compile(rf"(?:司法)?(?:{KIND_WORDS})$")


def outside_articles(question: str, matches, named, titles=()) -> set[tuple[int, str]]:
    """The article references of `matches` ((ref, start, end), route.article_matches) written right after
    the name of an instrument that neither `named` (Catalog.named) finds nor any of `titles` (the held
    instruments' names) ends with or shortens (`held`) -- not after the kind word alone or a reference to
    the instrument itself or its version (SELF: "本法第十条", "该司法解释第五条", "2019年条例第三条"). A number
    written both ways is kept."""
    outside, inside = set(), set()
    for ref, start, _ in matches:
        before = question[max(0, start - 24):start]
        m = NAMED_BEFORE.search(before)
        body = KIND_END.sub("", m.group(1).strip("《》")) if m else ""
        if body and not SELF.search(body) and not named(m.group(1)) and not held(m.group(1).strip("《》"), titles):
            outside.add(ref)
        else:
            inside.add(ref)
    return outside - inside


def held(written: str, titles) -> bool:
    """Does a held instrument's name end with the end of `written` ("…刑法" and 中华人民共和国刑法), or shorten
    to it (two characters or more before the kind kept in order: "民诉法" and 中华人民共和国民事诉讼法, "个保法")?
    Generous on purpose: an article so written is looked up as before."""
    kind = KIND_END.search(written)
    if kind is None:
        return False
    word = kind.group(0).replace("司法", "")
    ends = [t.rstrip("》") for t in titles if not t.isascii() and t.rstrip("》").endswith(word)]
    stem = BOILER.split(written[:kind.start()])[-1]
    for i in range(len(stem)):
        tail = stem[i:]
        if any(t.endswith(tail + word) or len(tail) >= 2 and 0 < _chunks(tail, t[:-len(word)]) <= MAX_CHUNKS
               for t in ends):
            return True
    return False

"""The instruments a workspace holds: their names, their versions in order, and instruments
imported twice (one law under its number and again under its title)."""
from __future__ import annotations

import datetime as dt
import re
from collections import Counter

from ..core.orthography import one_form
from ..core.records import Filter, Unit
from .names import abbreviated

TWIN_MIN_ARTICLES = 5       # an instrument needs this many articles to be compared for a twin
TWIN_SIZE = (0.8, 1.25)     # a twin holds between these shares of the instrument's articles ...
TWIN_SHARED = 0.6           # ... and shares the opening of this share of the smaller one's articles
POLITY = re.compile(r"[国省市区县州]$")    # the issuer a short name drops: a country or region (阿尔登共和国, 上海市)
SHORT_NAME_HEAD = 3         # a title named by its end needs this many characters before its kind ("许可法", "管理条例"
                            # are too general; "诊所许可法" is not) -- a design value, not tuned on questions


def by_instrument(versions) -> dict[str, list[str]]:
    """'key@version' ids grouped by instrument key."""
    out: dict[str, list[str]] = {}
    for v in versions:
        out.setdefault(v.split("@")[0], []).append(v)
    return out


PLURAL = r"(?:s|es)?"      # an English title in the plural names its versions together


class Catalog:
    """Document units of a workspace, read once, with what retrieval asks of them."""

    def __init__(self, store, documents: list[Unit]):
        self.store, self.documents = store, documents
        # (name as matched, key), longest first; in one written form, as questions are read (core/orthography.py)
        self.names = [(one_form(n), k) for n, k in instrument_names(documents)]
        self._twins: dict[str, set[str]] = {}
        self._chains: dict[str, list[Unit]] | None = None
        self._article_counts: dict[str, int] | None = None
        self._prints: dict[str, frozenset[str]] | None = None
        self._count_rows: list[dict] | None = None
        self._ends: dict[str, list[tuple[str, str]]] | None = None     # last character -> Chinese names ending in it
        self._longest = 0                                               # ... and the longest of them

    def counts(self) -> list[dict]:
        """store.counts(), read once."""
        if self._count_rows is None:
            self._count_rows = self.store.counts()
        return self._count_rows

    def has_parts(self) -> bool:
        """Does the workspace hold clauses or points?"""
        return any(row["kind"] in ("clause", "point") for row in self.counts())

    # -- names ----------------------------------------------------------------------------
    def named(self, q: str) -> set[str]:
        """Keys of instruments whose name appears in the question (longest names first); when none does,
        those it names by a shortened title (names.abbreviated)."""
        text, keys = q, set()
        low = q.lower()
        for (name, key), pattern in zip(self.names, self._patterns()):
            if name.lower() not in low:             # cheap test first: most names are not in the question
                continue
            if pattern.search(text):
                keys.add(key)
                text = pattern.sub(" ", text)
        keys |= self._title_ends(text)
        return keys or abbreviated(text, self.names)    # "刑诉法解释", "非法集资司法解释" (names.py)

    def _title_ends(self, text: str) -> set[str]:
        """Instruments named by the end of their Chinese title, the issuing country or region before it
        dropped ("诊所许可法" for 阿尔登共和国诊所许可法, "物业管理条例" for 上海市物业管理条例): in each run of
        Chinese text, the longest stretch ending in a kind of instrument (法, 条例, 办法, 规定, 细则) with at
        least SHORT_NAME_HEAD characters before it that ends the title of one instrument only, what the title
        holds before it ending in a polity (国, 省, 市, 区, 县, 州). "环境保护法" is another law than
        海洋环境保护法, not its short name; a stretch ending several titles ("实施条例") names none."""
        if self._ends is None:
            self._ends = {}
            for n, key in self.names:
                if not n.isascii():
                    self._ends.setdefault(n[-1], []).append((n, key))
            self._longest = max((len(n) for n, _ in self.names if not n.isascii()), default=0)
        out: set[str] = set()
        for run in re.finditer(r"[\u4e00-\u9fff]+", text):
            for kind in re.finditer(r"法|条例|办法|规定|细则", run.group()):
                end = kind.end()
                for start in range(max(0, end - self._longest), kind.start() - SHORT_NAME_HEAD + 1):
                    tail = run.group()[start:end]
                    keys = {k for n, k in self._ends.get(tail[-1], ())
                            if n.endswith(tail) and n != tail and POLITY.search(n[:-len(tail)])}
                    if keys:
                        if len(keys) == 1:
                            out |= keys
                        break
        return out

    def _patterns(self) -> list:
        """One compiled pattern per name, made once (a workspace has thousands of names, more
        than re's cache holds). Alphabetic names must stand as words ("GEN" is not in "agent"),
        in the plural too ("the 2012 and 2018 Clinic Licensing Acts"); CJK names need no spaces;
        an all-capitals name matches in capitals only."""
        if getattr(self, "_compiled", None) is None:
            self._compiled = [re.compile(re.escape(name) if not name[:1].isascii()
                                         else rf"(?<![\w-]){re.escape(name)}{PLURAL if name[-1:].isalpha() else ''}(?![\w-])",
                                         0 if name.isupper() else re.IGNORECASE) for name, _ in self.names]
        return self._compiled

    def names_of(self, keys: set[str]) -> list[str]:
        return [n for n, k in self.names if k in keys]

    # -- versions -------------------------------------------------------------------------
    def chain(self, key: str) -> list[Unit]:
        """The versions (document units) of one instrument, oldest first (grouped by key once:
        a question naming hundreds of instruments asks for hundreds of chains)."""
        if self._chains is None:
            chains: dict[str, list[Unit]] = {}
            for d in self.documents:
                chains.setdefault(d.key, []).append(d)
            self._chains = {k: sorted(v, key=lambda d: (d.effective_from or dt.date.min, d.version))
                            for k, v in chains.items()}
        return list(self._chains.get(key, ()))

    def versions_in(self, years, keys: set[str]) -> set[str]:
        """Versions of `keys` (of any instrument when empty) named by one of `years`: the year of
        their label, entry into force or adoption, as 'key@version'. A year that stamps several
        versions of one instrument names one of them: the text that year left in force -- the last of
        them in force by its end (LawRefBook holds 民诉法解释 of 2022-04-01 and 2022-04-02, editions of
        one amendment, the first in force for no day), leaving aside one that another year of the
        question names alone (a version made in 2020 and in force from 2021 is the "2021" one)."""
        out = set()
        for key in {d.key for d in self.documents if not keys or d.key in keys}:
            stamped = {y: [d for d in self.chain(key) if str(y) in _stamps(d)] for y in years}
            alone = {ds[0].id for ds in stamped.values() if len(ds) == 1}
            for y, ds in stamped.items():
                if len(ds) > 1:         # several: not one another year names alone, then in force by the year's end
                    ds = [d for d in ds if d.id not in alone] or ds
                    end = dt.date(int(y), 12, 31)
                    ds = [d for d in ds if d.effective_from is None or d.effective_from <= end] or ds
                out.update(d.id for d in ds[-1:])
        return out

    def bound(self, year: int | None, keys: set[str]) -> list[Unit]:
        """Versions whose label or entry-into-force year is `year` ("2021年…第十一条")."""
        return [d for d in self.documents if year and (not keys or d.key in keys)
                and str(year) in _stamps(d, adopted=False)]

    def between(self, versions: set[str]) -> set[str]:
        """For a comparison of two versions that are not consecutive: the versions from the
        first named to the last, through which the text went from one to the other."""
        out = set()
        for key in {v.split("@")[0] for v in versions}:
            chain = [d.id for d in self.chain(key)]
            at = [chain.index(v) for v in versions if v in chain]
            if len(at) >= 2:
                out |= set(chain[min(at):max(at) + 1])
        return out

    def previous(self, versions: set[str]) -> set[str]:
        """For an instrument named in one version only: the version before it (that ever applied: an
        edition superseded before it took effect -- in force for no day -- is not what a revision changed)."""
        out = set()
        for key, named in by_instrument(versions).items():
            if len(named) != 1:
                continue
            ids = [d.id for d in self.chain(key) if d.id == named[0] or _applied(d)]
            i = ids.index(named[0]) if named[0] in ids else -1
            if i > 0:
                out.add(ids[i - 1])
        return out

    # -- one law imported twice -----------------------------------------------------------
    def same_content(self, keys: set[str]) -> set[str]:
        """The named instruments and any other instrument holding the same articles — one law
        imported twice, under its number and under its title — so that naming it finds both."""
        out = set(keys)
        for k in keys:
            if k not in self._twins:
                self._twins[k] = self.find_twins(k)
            out |= self._twins[k]
        return out

    def known_twins(self, key: str) -> set[str]:
        """Twins of `key` found so far (by `same_content`)."""
        return self._twins.get(key, set())

    def find_twins(self, key: str) -> set[str]:
        """The instruments holding the same articles as `key` (not remembered: `same_content` is
        what retrieval uses)."""
        prints = self._all_prints()
        mine = prints.get(key, frozenset())
        if len(mine) < TWIN_MIN_ARTICLES:
            return set()
        if self._article_counts is None:
            self._article_counts = {}
            for row in self.counts():
                if row["kind"] == "article":
                    self._article_counts[row["key"]] = self._article_counts.get(row["key"], 0) + row["count_all"]
        lo, hi = TWIN_SIZE
        shared = Counter(other for p in mine for other in self._holders[p] if other != key)
        return {other for other, n in shared.items()
                if lo * len(mine) <= self._article_counts.get(other, 0) <= hi * len(mine)
                and n >= TWIN_SHARED * min(len(mine), len(prints[other]))}

    def _all_prints(self) -> dict[str, frozenset[str]]:
        """Fingerprints of every instrument's articles (the start of each text, spaces
        normalised), read in one pass on first use, with the instruments holding each print."""
        if self._prints is None:
            rows = self.store.frame(Filter(kinds=("article",)), columns=["key", "text"])
            found: dict[str, set[str]] = {}
            for k, text in zip(rows["key"].to_list(), rows["text"].to_list()):
                found.setdefault(k, set()).add(" ".join(text.split())[:200])
            self._prints = {k: frozenset(v) for k, v in found.items()}
            self._holders: dict[str, list[str]] = {}
            for k, ps in self._prints.items():
                for p in ps:
                    self._holders.setdefault(p, []).append(k)
        return self._prints


def instrument_names(documents: list[Unit]) -> list[tuple[str, str]]:
    """(name as matched, key), longest first. Abbreviations ("GEN", "PRU") stay upper-case and
    are matched case-sensitively; other alphabetic names need two words ("General" alone is
    an ordinary word); Chinese / Vietnamese titles are lower-cased."""
    names = {}
    for d in documents:
        for n in {d.title, re.sub(r"^中华人民共和国", "", d.title), *d.attr("aliases").split(";")}:
            n = n.strip()
            if len(n) < 3:
                continue
            if n.isascii() and n.isupper():
                names[n] = d.key
            elif not n.isascii() or len(n.split()) >= 2:
                names[n.lower()] = d.key
    return sorted(names.items(), key=lambda kv: -len(kv[0]))


def _stamps(d: Unit, adopted: bool = True) -> set[str]:
    """The years a version may be named by: of its label, its entry into force, its adoption (unless
    `adopted` is False: an article bound to a year, "2021年…第十一条", is of the version labelled or in force then)."""
    return {d.version[:4], str(d.effective_from.year) if d.effective_from else ""} | \
        ({d.attr("adopted")[:4]} if adopted else set())


def _applied(d: Unit) -> bool:
    """Was version `d` ever in force (not replaced on or before the day it took effect)?"""
    return d.effective_from is None or d.effective_to is None or d.effective_to > d.effective_from

"""Where the answer may come from: the instruments named, the versions that count, the date
that filters, resolved against the workspace under the question type's policy."""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from ..core.records import Filter, Unit
from ..link.versions import in_force
from .catalog import Catalog, by_instrument
from .plan import Plan, year_before_name
from .route import RE_YEAR_VERSION, Policy, mid_year


@dataclass(frozen=True)
class Scope:
    kinds: tuple[str, ...]                 # unit kinds retrieved (articles, passages)
    keys: frozenset[str] = frozenset()     # instruments named (empty: any)
    versions: frozenset[str] = frozenset() # 'key@version': those instruments in these versions only
    on: dt.date | None = None              # only units in force on this date
    prefer_now: bool = False               # favour units in force today (no date, no version named)
    named: frozenset[str] = frozenset()    # the versions the question names ('key@version')

    def version_ok(self, u: Unit) -> bool:
        return not self.versions or f"{u.key}@{u.version}" in self.versions or \
            u.key not in {v.split("@")[0] for v in self.versions}

    def allows(self, u: Unit | None) -> bool:
        """May `u` be a hit: a kind retrieved, in force on the date, in a version that counts."""
        if u is None or u.kind not in self.kinds:
            return False
        if self.on and not in_force(u, self.on):
            return False
        return self.version_ok(u)

    def filter(self, named: bool = True, kinds: bool = True) -> Filter:
        """The scope as a store filter; `named`: only the instruments named; `kinds`: only the
        kinds retrieved."""
        return Filter(kinds=self.kinds if kinds else (), in_force=self.on, versions=tuple(sorted(self.versions)),
                      keys=tuple(sorted(self.keys)) if named else ())


def make_scope(plan: Plan, policy: Policy, catalog: Catalog, kinds: tuple[str, ...],
               as_of: str | None = None) -> Scope:
    """`as_of` (YYYY-MM-DD) is the caller's date, which wins over one in the question."""
    route = plan.route
    on = dt.date.fromisoformat(as_of) if as_of else route.as_of
    versions = catalog.versions_in(route.years, set(plan.keys)) if policy.versions == "named" and route.years \
        else set()
    if route.before and versions and route.type != "version_diff":    # "2022年修正前": the version before that one
        marked = catalog.versions_in(route.before, set(plan.keys))
        earlier = catalog.previous(marked)
        if earlier:                                             # (none before the first version)
            versions = (versions - marked) | earlier
    # one year, no date, not the current law asked for: the year a rule below may read as the year of the facts
    year = route.years[0] if policy.time_filter == "current" and on is None and len(route.years) == 1 \
        and not route.current else None
    if versions and year and route.type != "version_diff" and _penalised_then(plan, year):
        # the year of the facts whose penalty is asked names a version that was not yet in force then ("In
        # 2018 a licensee …" under an Act whose 2018 version took effect in 2019): the version in force that
        # mid-year judges them -- a version's year is when it was made, not when it applied
        then = _then(catalog, {v.split("@")[0] for v in versions}, year, latest=False)
        versions = {v for v in versions if v.split("@")[0] not in {t.split("@")[0] for t in then}} | then
    if route.type == "version_diff" and route.current and versions:     # "2007年…和现行…相比": the latest too
        versions |= {catalog.chain(k)[-1].id for k in {v.split("@")[0] for v in versions}}
    if route.previous and plan.keys and not route.years and not versions:
        # "修订前", "the previous version" of a named instrument: the version before the latest -- compared
        # with the latest ("新旧条例有何不同", "how does it differ from the previous one")
        chains = [c for c in (catalog.chain(k) for k in plan.keys) if len(c) >= 2]
        versions = {c[-2].id for c in chains} | \
            ({c[-1].id for c in chains} if route.type == "version_diff" or route.current else set())
    named = frozenset(versions)
    if route.type == "version_diff":
        named_keys = [v.split("@")[0] for v in versions]
        if route.history:       # "追溯…的修改历程" naming one version: from the first version up to it
            versions |= {catalog.chain(k)[0].id for k in set(named_keys) if named_keys.count(k) == 1}
        versions |= catalog.previous(versions) | catalog.between(versions)
    hard_time = on if policy.time_filter == "as_of" or (on and as_of) else None
    if year and not plan.keys and (versions or _penalised_then(plan, year)):
        # no instrument named, one year, naming a version of some ("2009年某屠宰厂…") or written as the
        # year of the facts whose penalty is asked ("In 2016 a clinic opened without a licence. What
        # fine applied?"): the year dates the facts -- every other instrument in the version in force
        # that mid-year, not in all its versions
        dated = {v.split("@")[0] for v in versions}
        versions |= _then(catalog, {d.key for d in catalog.documents} - dated, year, latest=False)
    if year and not versions and plan.keys and _dates(plan, year):
        # an instrument named and one year naming none of its versions ("2009年，某屠宰厂…依照《生猪屠宰管理条例》
        # 应如何处罚"): the year dates the facts, and facts are judged by the law in force when they
        # happened (行政处罚法 2021 art. 37) -- each named instrument in the version in force that mid-year
        # (the latest, if none was)
        versions = _then(catalog, plan.keys, year, latest=True)
    if policy.time_filter == "current" and on is None and not versions:
        # no date, no version named: the law as it stands (the latest version of a named
        # instrument, or whatever is in force today)
        if plan.keys:
            versions = {catalog.chain(k)[-1].id for k in plan.keys}
        else:
            hard_time = dt.date.today()
    prefer_now = policy.time_filter == "prefer_current" and on is None and not versions
    return Scope(tuple(kinds), plan.keys, frozenset(versions), hard_time, prefer_now, named)


def _then(catalog: Catalog, keys, year: int, latest: bool) -> set[str]:
    """The versions of `keys` in force in the middle of `year` (route.mid_year); `latest`: an
    instrument with none in force then is read in its latest version (else left unrestricted)."""
    out = set()
    for chain in filter(None, (catalog.chain(k) for k in keys)):
        out |= {d.id for d in chain if in_force(d, mid_year(year))} or ({chain[-1].id} if latest else set())
    return out


_DATED_YEAR = r"(?<!\d){y}\s*年|\bin\s+{y}\b|năm\s+{y}\b"
# a year in the title of an instrument the catalog did not match ("Bộ luật Hình sự năm 2017": the title's
# words run up to it, no preposition or clause word between; "2015年《…》")
_TITLE_YEAR = r"(?:Bộ luật|Luật|Nghị định|Thông tư|Pháp lệnh|Hiến pháp|Nghị quyết) [A-ZĐÂĂÊÔƠƯ]\S*" \
              r"(?: (?!vào|từ|trong|đến|thì|khi|mà|nếu|được|bị|phải|đã|của|và|năm)\S+){{0,6}} năm\s+{y}\b|" \
              r"(?<!\d){y}\s*年\s*(?:的)?《|《[^》]*》\s*[（(]\s*{y}"
# the facts go on now ("still operates today", "现在仍继续营业"): the law of today, not of the year they began
NOW = re.compile(r"\b(?:now|today|currently|still)\b|现在|目前|如今|至今|仍(?:然|在)?|hiện nay|hiện tại|vẫn", re.IGNORECASE)


def _penalised_then(plan: Plan, year: int) -> bool:
    """Is `year` the year of facts whose penalty the question asks (`_dates`), facts that do not go on
    now (NOW)?"""
    return plan.route.sanction and _dates(plan, year) and not NOW.search(plan.question)


def _dates(plan: Plan, year: int) -> bool:
    """Is `year` written as the year of something in the question ("2009年", "in 2016", "năm 2015"),
    not an amount ("违法所得2000元") nor part of the name of an instrument it names ("… Regulations 2015",
    "Bộ luật Hình sự năm 2017")?"""
    q = plan.question
    for name in plan.names:
        if str(year) in name and name in q:
            q = q.replace(name, " ")
        # the year written just before the name names the version ("2015年食品安全法", "the 2012 Clinic Licensing Act")
        q = re.sub(year_before_name(year, name), " ", q, flags=re.IGNORECASE)
    q = re.sub(_TITLE_YEAR.format(y=year), " ", q)
    q = RE_YEAR_VERSION.sub(lambda m: " " if m.group(1) == str(year) else m.group(), q)    # "2018年版", "2019年修订的"
    return re.search(_DATED_YEAR.format(y=year), q, re.IGNORECASE) is not None


def span_of(scope: Scope, catalog: Catalog) -> dict[str, tuple[str, ...]]:
    """For each instrument a version comparison names, the versions it spans, oldest first:
    from the version before the one named, when it names one ("what did the 2021 revision
    change"), else from the oldest to the newest it names, the versions between included
    ("与2019年版相比，2023年版…有何变化")."""
    out = {}
    for key, named in by_instrument(scope.named).items():
        chain = [d.id for d in catalog.chain(key)]
        at = sorted(chain.index(n) for n in named if n in chain)
        if len(at) == 1 and at[0] > 0:
            out[key] = tuple(chain[at[0] - 1:at[0] + 1])
        elif len(at) > 1:
            out[key] = tuple(chain[at[0]:at[-1] + 1])
    return out

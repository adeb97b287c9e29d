"""Check a Chinese version-aware question set (default benchmarks/questions/zh_versions.jsonl) against its corpora.

    python benchmarks/questions/check_zh_versions.py [QUESTIONS.jsonl] [--corpora DIR]
        [--corpus NAME ...] [--min-questions N] [--min-per-category N]

DIR defaults to $WORKBENCH_CORPORA or ../shared/corpora next to the repository. --corpus
(repeatable) names the corpus folders under DIR whose units gold ids may point to; without
it: zh-food-safety, zh-pig-slaughter and zh-animal-quarantine. For example, the second set:

    python benchmarks/questions/check_zh_versions.py benchmarks/questions/zh_versions_2.jsonl \
        --corpus zh-lawrefbook --corpus zh-pig-slaughter --corpus zh-animal-quarantine

For every line it checks that
  - the fields are there and well typed, ids are unique, `category` is one of
    precise / version_diff / reasoning / temporal;
  - every gold id is a unit of one of the named corpora;
  - `evidence` has one quote per gold id and each quote is a substring of that unit's
    text (all whitespace removed on both sides);
  - temporal items have `as_of`, the date is written in the question (2009年3月15日) and
    every gold unit's version is in force on it (effective_from <= as_of < effective_to);
  - `as_of` appears only on temporal items;
  - outside temporal items, every gold unit belongs to a version whose year the question
    names (a dated version such as 2022-09-02 is named by its year, 2022年), or to the
    version currently in force (no year named -> current law);
  - version_diff gold spans at least two versions; reasoning gold has at least two units;
and overall that there are at least 64 questions and at least 14 per category (change with
--min-questions / --min-per-category).
Exits 1 naming each bad line, 2 when the corpora cannot be found.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO))

CORPORA = ("zh-food-safety", "zh-pig-slaughter", "zh-animal-quarantine")
CATEGORIES = ("precise", "version_diff", "reasoning", "temporal")
MIN_TOTAL, MIN_PER_CATEGORY = 64, 14
_WS = re.compile(r"\s+")


def _norm(s: str) -> str:
    return _WS.sub("", s)


def _default_corpora() -> Path:
    env = os.environ.get("WORKBENCH_CORPORA")
    return Path(env) if env else (REPO.parent / "shared" / "corpora")


def _version_year(version: str) -> str:
    """The year a question names for a version: "2015" -> "2015", "2022-09-02" -> "2022"."""
    m = re.match(r"\d{4}", str(version))
    return m.group(0) if m else str(version)


def load_units(corpora_dir: Path, corpora: tuple[str, ...] = CORPORA) -> dict:
    from workbench.parse.detect import load_corpus
    units = {}
    for name in corpora:
        parsed = load_corpus(corpora_dir / name)
        for u in parsed.result.units:
            units[u.id] = u
    return units


def check(path: Path, units: dict, corpora: tuple[str, ...] = CORPORA,
          min_total: int = MIN_TOTAL, min_per_category: int = MIN_PER_CATEGORY
          ) -> tuple[list[str], list[dict]]:
    errors: list[str] = []
    items: list[dict] = []
    seen: dict[str, int] = {}
    for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip():
            continue
        where = f"{path.name}:{lineno}"

        def bad(msg: str) -> None:
            errors.append(f"{where} ({item.get('id', '?')}): {msg}")

        try:
            item = json.loads(raw)
        except json.JSONDecodeError as e:
            item = {}
            bad(f"not JSON: {e}")
            continue
        items.append(item)
        for field, typ in (("id", str), ("question", str), ("category", str),
                           ("gold", list), ("answer", str), ("evidence", list)):
            if not isinstance(item.get(field), typ) or not item.get(field):
                bad(f"missing or empty `{field}`")
        if not isinstance(item.get("gold"), list) or not isinstance(item.get("evidence"), list):
            continue
        qid, cat, q = item.get("id", ""), item.get("category"), item.get("question", "")
        if qid in seen:
            bad(f"duplicate id (first on line {seen[qid]})")
        seen[qid] = lineno
        if cat not in CATEGORIES:
            bad(f"category {cat!r} not in {CATEGORIES}")
        gold, evidence = item["gold"], item["evidence"]
        if len(set(gold)) != len(gold):
            bad("duplicate gold ids")
        if len(evidence) != len(gold):
            bad(f"{len(evidence)} evidence quotes for {len(gold)} gold ids (need one per gold id)")
        found = []
        for i, gid in enumerate(gold):
            u = units.get(gid)
            if u is None:
                bad(f"gold id {gid!r} is not a unit of {', '.join(corpora)}")
                continue
            found.append(u)
            if i < len(evidence):
                quote = evidence[i]
                if not isinstance(quote, str) or not _norm(quote):
                    bad(f"evidence[{i}] is empty")
                elif _norm(quote) not in _norm(u.text):
                    bad(f"evidence[{i}] {quote[:30]!r}... is not in the text of {gid}")

        as_of = item.get("as_of")
        date = None
        if as_of is not None:
            try:
                date = dt.date.fromisoformat(as_of)
            except (TypeError, ValueError):
                bad(f"as_of {as_of!r} is not YYYY-MM-DD")
            if date and f"{date.year}年{date.month}月{date.day}日" not in q:
                bad(f"as_of {as_of} is not stated in the question as {date.year}年{date.month}月{date.day}日")
        if cat == "temporal":
            if as_of is None:
                bad("temporal item without as_of")
            elif date:
                for u in found:
                    if u.effective_from is None or date < u.effective_from or (
                            u.effective_to is not None and date >= u.effective_to):
                        bad(f"{u.id} ({u.effective_from} .. {u.effective_to}) is not in force on {as_of}")
        elif as_of is not None:
            bad("as_of is only for temporal items")
        else:
            for u in found:
                year = _version_year(u.version)
                if u.effective_to is not None and f"{year}年" not in q:
                    bad(f"{u.id} is not the current version and the question does not name {year}年")
        if cat == "version_diff" and len({(u.key, u.version) for u in found}) < 2:
            bad("version_diff gold must cover at least two versions")
        if cat == "reasoning" and len(gold) < 2:
            bad("reasoning gold needs at least two units")

    counts = Counter(it.get("category") for it in items)
    if len(items) < min_total:
        errors.append(f"{path.name}: {len(items)} questions, need at least {min_total}")
    for c in CATEGORIES:
        if counts[c] < min_per_category:
            errors.append(f"{path.name}: {counts[c]} {c} questions, need at least {min_per_category}")
    return errors, items


def summary(items: list[dict], units: dict, corpora: tuple[str, ...] = CORPORA) -> str:
    by_cat = Counter(it.get("category") for it in items)
    by_corpus: Counter = Counter()
    for it in items:
        for c in {units[g].corpus for g in it.get("gold", []) if g in units}:
            by_corpus[c] += 1
    lines = [f"{len(items)} questions"]
    lines.append("  by category: " + ", ".join(f"{c}={by_cat[c]}" for c in CATEGORIES))
    lines.append("  by corpus:   " + ", ".join(f"{c}={by_corpus[c]}" for c in corpora))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("questions", nargs="?", default=str(HERE / "zh_versions.jsonl"))
    ap.add_argument("--corpora", default=str(_default_corpora()),
                    help="folder holding the corpus folders (default: $WORKBENCH_CORPORA or ../shared/corpora)")
    ap.add_argument("--corpus", action="append", metavar="NAME",
                    help="corpus folder whose units gold ids may name; repeatable "
                         f"(default: {' '.join(CORPORA)})")
    ap.add_argument("--min-questions", type=int, default=MIN_TOTAL, metavar="N",
                    help=f"fewest questions the file must hold (default {MIN_TOTAL})")
    ap.add_argument("--min-per-category", type=int, default=MIN_PER_CATEGORY, metavar="N",
                    help=f"fewest questions per category (default {MIN_PER_CATEGORY})")
    args = ap.parse_args(argv)
    corpora_dir = Path(args.corpora)
    corpora = tuple(dict.fromkeys(args.corpus)) if args.corpus else CORPORA
    # a manifest corpus has corpus.toml; a bulk folder (zh-lawrefbook) is found by its importer
    missing = [c for c in corpora if not (corpora_dir / c).is_dir()]
    if missing:
        print(f"corpora not found under {corpora_dir}: {', '.join(missing)}", file=sys.stderr)
        return 2
    units = load_units(corpora_dir, corpora)
    errors, items = check(Path(args.questions), units, corpora,
                          args.min_questions, args.min_per_category)
    for e in errors:
        print(e, file=sys.stderr)
    print(summary(items, units, corpora))
    if errors:
        print(f"FAILED: {len(errors)} problem(s)", file=sys.stderr)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())

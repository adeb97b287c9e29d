"""ALQAC legal corpora (Vietnamese): `alqac2022/law.json` and `alqac2023/legal_passages.json`.

Both are JSON lists of laws: {"id": law_id, "articles": [{"id": "5", "text": "Title\\n\\nbody"}]}.
Each law becomes one document, key = a slug of its law_id ("91/2015/QH13" -> "91-2015-qh13",
"Luật Viên chức 2010" -> "luat-vien-chuc-2010"), version "current" (the ALQAC year is not
a version of the law; it is kept as the document attr "alqac_year"). Article texts are
split into khoản / điểm by the rules of vi.py; the first line is the title unless it
reads as body text (Hiến pháp 2013 articles have no titles). `alqac_unit_id` maps a gold
(law_id, article_id) pair to its unit id. A law_id found in both years is kept once,
from 2023.
"""
from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import replace
from pathlib import Path

from ..core.engine import parse_each
from ..core.errors import CorpusError
from ..core.records import DocumentMeta, ParseResult, Problem
from . import CorpusParse
from .text import read_text, visible
from .tree import TreeBuilder
from .vi import RE_CLAUSE, RE_POINT, body_line

VERSION = "current"
FILES = (("alqac2022", "law.json"), ("alqac2023", "legal_passages.json"))
# "Điều 115" inside another article's text: ALQAC merged two articles
RE_INNER_ARTICLE = re.compile(r"^Điều\s+\d+[a-zđ]?(?:\.|$)")
KINDS = (("hiến pháp", "constitution"), ("bộ luật", "code"), ("vbhn", "consolidation"),
         ("luật", "law"))


def law_key(law_id: str) -> str:
    """A stable, URL-safe key: lower case ASCII, runs of anything else -> '-'."""
    s = unicodedata.normalize("NFD", law_id.replace("đ", "d").replace("Đ", "D"))
    s = "".join(c for c in s if not unicodedata.combining(c)).lower()
    return re.sub(r"[^a-z0-9]+", "-", s).strip("-")


def alqac_unit_id(law_id: str, article_id: str) -> str:
    """The unit id of a gold (law_id, article_id) pair."""
    return f"{law_key(law_id)}@{VERSION}/a{str(article_id).strip()}"


def import_alqac(path: str | Path) -> CorpusParse:
    """`path`: an alqac2022 / alqac2023 folder, one of their JSON files, or the folder
    holding both years (then 2023 wins for a law_id found in both)."""
    root = Path(path)
    out = CorpusParse(name=root.stem if root.is_file() else root.name, language="vi",
                      source=str(root))
    laws: dict[str, tuple[str, Path, dict, list[int]]] = {}
    for year, file in _sources(root):
        for law, lines in _laws(file, out.result.problems):
            old = laws.get(law["id"])
            if old is not None:
                out.result.problems.append(Problem(str(file), lines[0], f"law {law['id']!r} is "
                                                   f"also in {old[0]}; kept the {year} one"))
            laws[law["id"]] = (year, file, law, lines)
    keys: dict[str, str] = {}
    jobs, steps = [], []            # parsed on the ingest engine (core/engine.py); problems stay in order
    for law_id, (year, file, law, lines) in laws.items():
        key = law_key(law_id)
        if keys.setdefault(key, law_id) != law_id:
            steps.append(Problem(str(file), lines[0], f"law {law_id!r} has the "
                                 f"same key {key!r} as {keys[key]!r}; skipped", "error"))
            continue
        meta = DocumentMeta(key=key, version=VERSION, title=law_id, language="vi",
                            kind=_kind(law_id), source_file=str(file), corpus=out.name)
        out.documents.append(meta)
        jobs.append((parse_law, (law, meta, year, lines)))
        steps.append(len(jobs) - 1)
    results = parse_each(jobs)
    for step in steps:
        if isinstance(step, Problem):
            out.result.problems.append(step)
        elif isinstance(results[step], CorpusError):
            raise results[step]
        else:
            out.result.extend(results[step])
    return out


def _sources(root: Path) -> list[tuple[str, Path]]:
    if not root.exists():
        raise CorpusError(str(root), 0, "no such file or folder")
    if root.is_file():
        year = next((y for y, name in FILES if name == root.name), root.parent.name)
        return [(year, root)]
    found = [(year, root / name) for year, name in FILES if (root / name).exists()]
    found += [(year, root / year / name) for year, name in FILES if (root / year / name).exists()]
    if not found:
        raise CorpusError(str(root), 0, "no ALQAC file here: expected law.json, "
                          "legal_passages.json, or alqac2022/ and alqac2023/ folders")
    return found


def _laws(file: Path, problems: list[Problem]):
    """(law, line numbers of its "id" entries: the law's, then each article's), in order."""
    raw = read_text(file)
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as e:
        raise CorpusError(str(file), e.lineno, f"not valid JSON: {e.msg}") from None
    if not isinstance(data, list):
        raise CorpusError(str(file), 1, "expected a JSON list of laws")
    id_lines = iter([i + 1 for i, line in enumerate(raw.splitlines())
                     if re.match(r'^\s*"id"\s*:', line)])
    for law in data:
        if not isinstance(law, dict) or "id" not in law or not isinstance(law.get("articles"), list):
            problems.append(Problem(str(file), 0, "a law without 'id' and 'articles'; skipped"))
            continue
        yield law, [next(id_lines, 0) for _ in range(1 + len(law["articles"]))]


def _kind(law_id: str) -> str:
    low = law_id.lower()
    return next((kind for word, kind in KINDS if word in low), "law")


def parse_law(law: dict, meta: DocumentMeta, year: str, lines: list[int]) -> ParseResult:
    b = TreeBuilder(meta)
    previous = None
    for article, line in zip(law["articles"], lines[1:]):
        aid, text = str(article.get("id", "")).strip(), article.get("text")
        if not aid or not isinstance(text, str):
            b.problem(line, f"article without 'id' or 'text' in {meta.title!r}; skipped")
            continue
        _check_gap(b, previous, aid, line)
        previous = aid
        title, body = split_article(text)
        b.open("article", aid, line, title=title, article_no=int(aid) if aid.isdigit() else None)
        if not body:
            b.problem(line, f"article {aid} of {meta.title!r} has a title and no text")
        for s in body:
            if RE_INNER_ARTICLE.match(s):
                b.problem(line, f"article {aid} of {meta.title!r} holds the heading {s!r}: "
                          "ALQAC merged articles here; kept as text")
            body_line(b, s, line)
    result = b.finish()
    result.units = [replace(u, attrs=(("law_id", meta.title), ("alqac_year", year)))
                    if u.kind == "document" else u for u in result.units]
    return result


def split_article(text: str) -> tuple[str, list[str]]:
    """'Title\\n\\nbody…' -> ('Title', body lines). The first line is no title when it
    starts with a khoản / điểm or ends like a sentence."""
    lines = [s.strip() for s in visible(text).splitlines() if s.strip()]     # no soft hyphen inside a word
    if not lines:
        return "", []
    first = lines[0]
    if RE_CLAUSE.match(first) or RE_POINT.match(first) or first[-1] in ".;:!?":
        return "", lines
    return first, lines[1:]


def _check_gap(b: TreeBuilder, previous: str | None, aid: str, line: int) -> None:
    if previous and previous.isdigit() and aid.isdigit() and int(aid) != int(previous) + 1:
        b.problem(line, f"article ids jump from {previous} to {aid}", "info")

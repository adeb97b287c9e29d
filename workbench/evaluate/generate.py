"""Benchmark generation: multi-hop questions from paths in the graph.

A hop is one REFERENCES, AMENDS, INHERITS or REPLACES edge between two different
articles (or passages). Citations sit on clauses and points, so between hops a path may
move inside one article (CONTAINS, article <-> its clauses) without counting a hop: step
i+1 starts in the article where step i ended. Every step is a real graph edge and
hop_count = len(path). Edges to whole documents (document-level REPLACES, references to
an instrument) name no article to ask about and are left out, as are references inside
one article. Paths follow edge direction (citing -> cited, newer -> older version), visit
an article once, have 2-4 hops and cross instruments or versions (touch two documents).

Reasoning types (a version chain gives a tracing or difference question and a temporal one):
- amendment_tracing       version edges, two or more of them AMENDS          -> version_diff
- version_difference      version edges, one AMENDS among INHERITS steps     -> version_diff
                          (the ends' text differs; unchanged chains are skipped)
- temporal_applicability  version edges; a date in the oldest version        -> temporal
- cross_reference         REFERENCES and version edges; templates per shape  -> reasoning
                          (RV: cite then follow versions, VR, VRV; other shapes are skipped)
Gold: the articles on the path; for temporal questions only the article in force on the
date (retrieval with as_of filters the other versions out).
"""
from __future__ import annotations

import calendar
import datetime as dt
import json
import random
import re
import tomllib
from collections import Counter
from pathlib import Path
from typing import Callable, Iterable

from .bench_import import write_jsonl  # noqa: F401  (the same JSONL writer)
from ..retrieve.expand import article_of
from ..link.resolve import is_placeholder
from ..core.records import Edge, EdgeType, Filter, Unit
from ..link.versions import PART_EXTRACTOR, in_force, text_diff, version_in_force

INFERRED = "implicit-duty"     # link/duties.py: inferred, not stated; never a path of a gold question
HOPS = (EdgeType.REFERENCES, EdgeType.AMENDS, EdgeType.INHERITS, EdgeType.REPLACES)
CATEGORY = {"amendment_tracing": "version_diff", "version_difference": "version_diff",
            "temporal_applicability": "temporal", "cross_reference": "reasoning"}
ABBR = {"amendment_tracing": "at", "version_difference": "vd", "temporal_applicability": "ta", "cross_reference": "xr"}
TEMPLATES = Path(__file__).parents[1] / "prompts" / "question_templates.toml"
_CN = "零一二三四五六七八九"


def doc_of(unit_id: str) -> str:
    return unit_id.split("/")[0]


def key_of(unit_id: str) -> str:
    return unit_id.split("@")[0]


# -- paths -------------------------------------------------------------------------------
def hop_edges(edges: Iterable[Edge], docs: set[str] | None = None) -> list[Edge]:
    """The edges a path may take: one per (article, type, article), documents `docs` only;
    AMENDS / INHERITS only between versions of one instrument (version steps)."""
    best: dict[tuple, Edge] = {}
    for e in sorted(edges, key=lambda e: (e.source, e.target, e.type.value)):
        a, b = article_of(e.source), article_of(e.target)
        if e.type not in HOPS or not e.resolved or is_placeholder(e.target) or a == b or \
                e.extractor in (INFERRED, PART_EXTRACTOR):     # a merge or split is no article's own history
            continue
        if "/" not in a or "/" not in b or (docs is not None and not (doc_of(a) in docs and doc_of(b) in docs)):
            continue
        if e.type in (EdgeType.AMENDS, EdgeType.INHERITS) and key_of(a) != key_of(b):
            continue          # an amendment act's edge to the law it amends is not a version step
        best.setdefault((a, e.type, b), e)
    return list(best.values())


def articles(path: tuple[Edge, ...]) -> list[str]:
    return [article_of(path[0].source)] + [article_of(e.target) for e in path]


def enumerate_paths(edges: Iterable[Edge], min_hops: int = 2, max_hops: int = 4,
                    docs: set[str] | None = None, per_start: int = 200) -> list[tuple[Edge, ...]]:
    """Every simple path of min_hops..max_hops hops that touches at least two documents,
    at most `per_start` from one start article (dense citation graphs stay bounded).
    A hand-written DFS, not igraph's get_all_simple_paths: that returns vertex paths (two typed
    edges between the same articles become one) in its own order, and its max_results counts
    paths before the two-document test, so `per_start` could only cut after enumerating every
    path -- the same paths, but 10-150x slower on a dense graph."""
    out_of: dict[str, list[Edge]] = {}
    for e in hop_edges(edges, docs):
        out_of.setdefault(article_of(e.source), []).append(e)
    paths: list[tuple[Edge, ...]] = []

    def walk(path: list[Edge], seen: list[str], found: list) -> None:
        if len(found) >= per_start:
            return
        if len(path) >= min_hops and len({doc_of(a) for a in seen}) > 1:
            found.append(tuple(path))
        if len(path) < max_hops:
            for e in out_of.get(seen[-1], ()):
                if article_of(e.target) not in seen:
                    walk(path + [e], seen + [article_of(e.target)], found)

    for start in sorted(out_of):
        found: list[tuple[Edge, ...]] = []
        for e in out_of[start]:
            walk([e], [start, article_of(e.target)], found)
        paths += found
    return paths


def path_key(path: tuple[Edge, ...]) -> str:
    return "|".join(f"{e.source}>{e.type.value}>{e.target}" for e in path)


def reasoning_types(path: tuple[Edge, ...], text: dict[str, str]) -> list[str]:
    types = {e.type for e in path}
    if EdgeType.REFERENCES in types:
        return ["cross_reference"]
    arts, changes = articles(path), sum(e.type == EdgeType.AMENDS for e in path)
    ins, dels = text_diff(text.get(arts[-1], ""), text.get(arts[0], ""))
    if changes >= 2:
        return ["amendment_tracing", "temporal_applicability"]
    if ins or dels:                           # one change among unchanged (inherited) steps
        return ["version_difference", "temporal_applicability"]
    return ["temporal_applicability"]         # unchanged throughout: only when it applied


# -- questions ---------------------------------------------------------------------------
def to_cn(n: int) -> str:
    """An integer (< 10000) as a Chinese numeral the way statutes write it: 10 十, 101 一百零一."""
    if n < 10:
        return _CN[n]
    if n < 20:
        return "十" + (_CN[n % 10] if n % 10 else "")
    out, zero = "", False
    for value, unit in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        digit = n // value % 10
        if digit:
            out += ("零" if zero else "") + _CN[digit] + unit
            zero = False
        elif out:
            zero = True
    return out


def load_templates(path: str | Path = TEMPLATES) -> dict:
    return tomllib.loads(Path(path).read_text(encoding="utf-8"))


class _Writer:
    """Names articles, versions and dates in one language's format."""

    def __init__(self, fmt: dict, docs: dict[str, Unit]):
        self.fmt, self.docs = fmt, docs

    def year(self, u: Unit) -> str:
        d = self.docs[doc_of(u.id)]
        if re.fullmatch(r"\d{4}", d.version[:4]):
            return d.version[:4]
        return str(d.effective_from.year) if d.effective_from else d.version

    def title(self, u: Unit) -> str:
        d = self.docs[doc_of(u.id)]
        t = re.sub(self.fmt["strip_title"], "", d.title) if self.fmt["strip_title"] else d.title
        return t or d.key

    def article(self, u: Unit) -> str:
        main, _, sub = u.label.partition("-")
        cn = to_cn(int(main)) if main.isdigit() else u.label
        if sub.isdigit():
            return self.fmt["article_sub"].format(cn=cn, sub=to_cn(int(sub)), label=u.label)
        return self.fmt["article"].format(cn=cn, label=u.label)

    def ref(self, u: Unit) -> str:
        return self.fmt["ref"].format(year=self.year(u), title=self.title(u), article=self.article(u), label=u.label)

    def date(self, on: dt.date) -> str:
        return self.fmt["date"].format(y=on.year, m=on.month, d=on.day, month=calendar.month_name[on.month])


def question_row(rtype: str, path: tuple[Edge, ...], units: dict[str, Unit], docs: dict[str, Unit],
                 templates: dict, seed: int = 0) -> dict | None:
    """One question from one path, or None when the path cannot be asked about."""
    arts = articles(path)
    if any(a not in units or doc_of(a) not in docs for a in arts):
        return None
    start, end = units[arts[0]], units[arts[-1]]
    lang = start.language if start.language in templates["format"] else "en"
    w = _Writer(templates["format"][lang], docs)
    rng = random.Random(f"{seed}:{rtype}:{path_key(path)}")
    shape = re.sub(r"(.)\1+", r"\1", "".join("R" if e.type == EdgeType.REFERENCES else "V" for e in path))
    choices = [t for t in templates.get(rtype, {}).get(lang, []) if t.get("shape", shape) == shape]
    if not choices:
        return None
    template = rng.choice(choices)
    gold, as_of, on = arts, None, None
    if rtype == "temporal_applicability":
        on = _date_in(end, rng)
        live = version_in_force(list(docs.values()), end.key, on) if on else None
        if on is None or live is None or live.id != doc_of(end.id) or not in_force(end, on):
            return None
        gold, as_of = [end.id], on.isoformat()
    years = list(dict.fromkeys(w.year(units[a]) for a in arts))
    refs = [e for e in path if e.type == EdgeType.REFERENCES]
    ref_doc = units[article_of(refs[0].source)] if refs else end
    values = {"start": w.ref(start), "end": w.ref(end), "start_article": w.article(start),
              "end_article": w.article(end), "start_year": w.year(start), "end_year": w.year(end),
              "title": w.title(start), "end_doc": w.fmt["doc"].format(year=w.year(end), title=w.title(end)),
              "ref_doc": w.fmt["doc"].format(year=w.year(ref_doc), title=w.title(ref_doc)),
              "refs": w.fmt["chain"].join(w.article(units[article_of(e.target)]) for e in refs),
              "years": w.fmt["sep"].join(years),
              "date": w.date(on) if on else ""}
    row = {"id": "", "question": template["text"].format(**values), "category": CATEGORY[rtype]}
    if as_of:
        row["as_of"] = as_of
    row.update(gold=gold, answer=w.ref(end) if as_of else " → ".join(w.ref(units[a]) for a in arts),
               reasoning_type=rtype, hop_count=len(path),
               path=[[e.source, e.type.value, e.target] for e in path], language=lang, template=template["id"])
    return row


def _date_in(u: Unit, rng: random.Random) -> dt.date | None:
    if u.effective_from is None or u.effective_to is None or u.effective_to <= u.effective_from:
        return None
    return u.effective_from + dt.timedelta(days=rng.randrange((u.effective_to - u.effective_from).days))


# -- sampling and the entry points -------------------------------------------------------
def build(paths: list[tuple[Edge, ...]], units: dict[str, Unit], docs: dict[str, Unit],
          max_questions: int = 300, seed: int = 0, templates: dict | None = None,
          llm: Callable[[str], str] | None = None, progress: bool = False) -> list[dict]:
    """Questions for the paths, sampled round-robin over (reasoning type, hops), stable order.
    `progress`: bars over the paths and over the model's rewordings."""
    from tqdm.auto import tqdm
    templates = templates or load_templates()
    text = {i: u.text for i, u in units.items()}
    strata: dict[tuple, list[dict]] = {}
    asked: set[str] = set()
    for path in tqdm(sorted(paths, key=path_key), desc="paths -> questions", unit="path", disable=not progress):
        for rtype in reasoning_types(path, text):
            row = question_row(rtype, path, units, docs, templates, seed)
            if row and row["question"] not in asked:
                asked.add(row["question"])
                strata.setdefault((rtype, len(path)), []).append(row)
    rng, queues = random.Random(seed), []
    for k in sorted(strata):
        rng.shuffle(strata[k])
        queues.append(strata[k])
    picked: list[dict] = []
    while len(picked) < max_questions and any(queues):
        for q in queues:
            if q and len(picked) < max_questions:
                picked.append(q.pop())
    picked.sort(key=lambda r: (r["reasoning_type"], r["hop_count"], json.dumps(r["path"])))
    n = Counter()
    for row in picked:
        n[row["reasoning_type"]] += 1
        row["id"] = f"gen-{row['language']}-{ABBR[row['reasoning_type']]}-{n[row['reasoning_type']]:03d}"
    if llm is not None:
        picked = [rewrite(r, units, llm, templates["llm"])
                  for r in tqdm(picked, desc="rewording", unit="question", disable=not progress)]
    return picked


def rewrite(row: dict, units: dict[str, Unit], llm: Callable[[str], str], prompts: dict) -> dict:
    """The LLM's rewording of the question, kept only if it still needs every gold unit."""
    try:
        question = llm(prompts["rewrite"].format(question=row["question"], language=row["language"])).strip()
    except Exception:                  # a model that fails on one row does not cost the run
        return row
    if not question:
        return row
    evidence = "\n".join(f"[{i}] {g}: {units[g].text[:600] if g in units else ''}"
                         for i, g in enumerate(row["gold"], 1))
    for n in range(1, len(row["gold"]) + 1):
        try:
            reply = llm(prompts["verify"].format(question=question, evidence=evidence, n=n)).strip().lower()
        except Exception:
            return row
        if not reply.startswith(("yes", "是", "có")):
            return row
    return {**row, "question": question, "template_question": row["question"]}


def generate(wb, corpora: list[str] | None = None, max_questions: int = 300, seed: int = 0,
             llm: Callable[[str], str] | None = None, templates: dict | None = None,
             progress: bool = False) -> list[dict]:
    """Questions from the graph of a workspace (only the given corpora, if any)."""
    docs = {d.id: d for d in wb.store.where(Filter(kinds=("document",))) if not corpora or d.corpus in corpora}
    paths = enumerate_paths(wb.graph.all_edges(HOPS), docs=set(docs))
    units = {u.id: u for u in wb.store.get({a for p in paths for a in articles(p)})}
    return build(paths, units, docs, max_questions, seed, templates, llm, progress)


def counts(rows: list[dict]) -> dict[str, dict]:
    return {"reasoning_type": dict(sorted(Counter(r["reasoning_type"] for r in rows).items())),
            "hop_count": dict(sorted(Counter(r["hop_count"] for r in rows).items())),
            "type_and_hops": dict(sorted(Counter(f"{r['reasoning_type']}/{r['hop_count']}"
                                                 for r in rows).items()))}

"""Evaluation: benchmark files, metrics, paired significance tests, tables and figures.

Benchmark format (JSON lines): id, question, category, optional as_of (YYYY-MM-DD),
gold (unit ids), optional answer. Metrics per question: recall@1/5/10, MRR, hit@1,
nDCG@10 and MAP@10 (binary relevance; AP@10 divides by every gold unit, as trec_eval's
map_cut.10 does) and citation precision / recall / F1 / F2 of the set the system would
cite. Each summary also carries `macro_f2`: F2 of the precision and recall averaged over
questions (ALQAC's and COLIEE's task-1 formula). Gold and retrieved ids are compared at article level by default
(`match="article"`: a clause counts as its article), or exactly (`match="exact"`).
Systems are compared with paired two-sided Wilcoxon signed-rank tests (scipy), with
effect size r = |z| / sqrt(n).
"""
from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..core.errors import CorpusError
from ..core.records import Question
from ..parse.languages import has_words
from ..retrieve.expand import article_of

METRICS = ("recall@1", "recall@5", "recall@10", "mrr", "hit@1", "ndcg@10", "map@10",
           "citation_p", "citation_r", "citation_f1", "citation_f2")



VALIDATION_SHARE = 30      # percent of a development set held out from tuning (by question id)


def split_of(qid: str) -> str:
    """'validation' for about VALIDATION_SHARE % of question ids, 'tuning' for the rest: a
    fixed function of the id (SHA-1), so every development set splits the same way, in every
    run, without a file to keep. Parameters are fitted on the tuning part only; the validation
    part is reported beside it."""
    return "validation" if int(hashlib.sha1(qid.encode("utf-8")).hexdigest()[:8], 16) % 100 < VALIDATION_SHARE \
        else "tuning"


def load_benchmark(path: str | Path, split: str | None = None) -> list[Question]:
    """Questions of a JSON-lines benchmark; `split` ("tuning" / "validation") keeps one part.
    A row may name its split; otherwise `split_of(id)` decides."""
    out, seen = [], set()
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise CorpusError(str(path), 0, "no such benchmark file") from None
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            q = Question(str(row["id"]), row["question"], row.get("category", "all"),
                         tuple(row["gold"]), row.get("as_of"), row.get("answer"),
                         row.get("split") or split_of(str(row["id"])))
        except (json.JSONDecodeError, KeyError, TypeError) as e:
            raise CorpusError(str(path), n, f"not a benchmark line ({e}); need id, question, gold") from None
        if not q.gold or not isinstance(row["gold"], list) or not all(isinstance(g, str) and g for g in q.gold):
            raise CorpusError(str(path), n, f"gold {row['gold']!r}: give a non-empty list of unit ids")
        if not isinstance(q.question, str) or not has_words(q.question):
            raise CorpusError(str(path), n, "question has no words: give the question text")
        if q.as_of is not None and not _is_iso_date(q.as_of):
            raise CorpusError(str(path), n, f"as_of {q.as_of!r} is not a date: give YYYY-MM-DD (e.g. "
                              '"as_of": "2020-01-31"), or leave as_of out')
        if q.split not in ("tuning", "validation"):
            raise CorpusError(str(path), n, f"split {q.split!r}: use tuning or validation")
        if q.id in seen:
            raise CorpusError(str(path), n, f"duplicate question id {q.id}")
        seen.add(q.id)
        if split is None or q.split == split:
            out.append(q)
    return out


def missing_gold(questions: list[Question], ids: set[str]) -> list[tuple[str, str]]:
    """(question id, gold id) of every gold id the workspace does not hold: it can only score 0."""
    return [(q.id, g) for q in questions for g in q.gold if g not in ids]


def missing_gold_warning(questions: list[Question], ids: set[str], workspace: str = "", show: int = 3) -> str:
    """One line naming how many gold ids are not in the workspace and the first few (with their
    question ids); '' when every gold id is there."""
    missing = missing_gold(questions, ids)
    if not missing:
        return ""
    firsts = ", ".join(f"{g} (question {qid})" for qid, g in missing[:show])
    more = f" and {len(missing) - show} more" if len(missing) > show else ""
    where = f" {workspace}" if workspace else ""
    return (f"warning: {len(missing)} gold ids of {len({qid for qid, _ in missing})} questions are not in the "
            f"workspace{where} and score 0: {firsts}{more}; check the benchmark's ids, or ingest the corpus "
            "that holds them")


def _is_iso_date(value) -> bool:
    """Whether `value` is a YYYY-MM-DD string naming a real day."""
    import datetime as dt
    import re
    if not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        return False
    try:
        dt.date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _norm(ids, match: str, names: dict[str, str] | None = None) -> list[str]:
    if names:
        ids = [names.get(k, k) + sep + rest for k, sep, rest in (i.partition("@") for i in ids)]
    ids = [article_of(i) for i in ids] if match == "article" else list(ids)
    return list(dict.fromkeys(ids))


def twin_names(wb) -> dict[str, str]:
    """One name for each instrument held twice in the workspace (a law imported under its
    number and under its title: the retriever's twin test, same articles at the same paths),
    so that a unit of either copy scores as the gold unit at that path of the other, and the
    copies count once in a ranking. Twins are joined into groups (a test that holds one way
    only still joins them), each named by its smallest key. The catalog's own memory of twins
    is left as retrieval left it, so scoring does not change what retrieval knows. Empty when
    no instrument is held twice."""
    catalog = wb.retriever.catalog
    keys = sorted({row["key"] for row in catalog.counts()})
    root = {k: k for k in keys}

    def find(k: str) -> str:
        while root.setdefault(k, k) != k:
            root[k] = root[root[k]]
            k = root[k]
        return k
    for key in keys:
        for other in catalog.find_twins(key):
            a, b = find(key), find(other)
            if a != b:
                root[max(a, b)] = min(a, b)
    groups: dict[str, list[str]] = {}
    for k in list(root):
        groups.setdefault(find(k), []).append(k)
    return {k: name for name, members in groups.items() if len(members) > 1 for k in members}


def score_question(ranked: list[str], cited: list[str], gold: list[str], match: str = "article",
                   names: dict[str, str] | None = None) -> dict:
    """Ranking and citation metrics of one question; `names` (twin_names) makes the copies of an
    instrument held twice one."""
    ranked, cited, gold = _norm(ranked, match, names), _norm(cited, match, names), set(_norm(gold, match, names))
    rel = [1 if r in gold else 0 for r in ranked]
    first = next((i for i, r in enumerate(rel) if r), None)
    dcg = sum(r / math.log2(i + 2) for i, r in enumerate(rel[:10]))
    idcg = sum(1 / math.log2(i + 2) for i in range(min(len(gold), 10)))
    ap = sum(sum(rel[:k + 1]) / (k + 1) for k in range(min(len(rel), 10)) if rel[k]) / len(gold)
    hit_c = len(set(cited) & gold)
    p = hit_c / len(cited) if cited else 0.0
    r = hit_c / len(gold) if gold else 0.0
    return {"recall@1": sum(rel[:1]) / len(gold), "recall@5": sum(rel[:5]) / len(gold),
            "recall@10": sum(rel[:10]) / len(gold), "mrr": 1 / (first + 1) if first is not None else 0.0,
            "hit@1": float(bool(rel[:1] and rel[0])), "ndcg@10": dcg / idcg if idcg else 0.0, "map@10": ap,
            "citation_p": p, "citation_r": r, "citation_f1": f_beta(p, r, 1.0), "citation_f2": f_beta(p, r, 2.0)}


def f_beta(p: float, r: float, beta: float) -> float:
    """(1 + b²) P R / (b² P + R): beta = 2 weighs recall four times as much as precision."""
    b2 = beta * beta
    return (1 + b2) * p * r / (b2 * p + r) if p + r else 0.0


def mean_metrics(rows: list[dict]) -> dict:
    """Each metric averaged over questions, and `macro_f2`: F2 of the averaged citation
    precision and recall (ALQAC / COLIEE task 1), which is not the average of per-question F2."""
    out = {m: float(np.mean([r[m] for r in rows])) if rows else 0.0 for m in METRICS}
    out["macro_f2"] = f_beta(out["citation_p"], out["citation_r"], 2.0)
    return out


def wilcoxon(a: list[float], b: list[float]) -> dict:
    """Paired two-sided Wilcoxon signed-rank test with effect size r."""
    from scipy.stats import wilcoxon as _w
    diffs = np.asarray(a) - np.asarray(b)
    n = int(np.count_nonzero(diffs))
    if n == 0:
        return {"p": 1.0, "r": 0.0, "n": 0, "median_diff": 0.0}
    res = _w(a, b, zero_method="wilcox", alternative="two-sided", method="approx")
    z = float(getattr(res, "zstatistic", 0.0) or 0.0)
    return {"p": float(res.pvalue), "r": abs(z) / math.sqrt(n), "n": n, "median_diff": float(np.median(diffs))}


@dataclass
class Evaluation:
    benchmark: str
    questions: list[Question]
    per_question: dict[str, list[dict]] = field(default_factory=dict)   # system -> rows
    latency_ms: dict[str, list[float]] = field(default_factory=dict)
    match: str = "article"                       # how ids were compared (score_question)
    twins: dict[str, str] = field(default_factory=dict)   # twin_names of the workspace

    def summary(self) -> dict:
        systems = {}
        cats = sorted({q.category for q in self.questions})
        splits = sorted({q.split for q in self.questions})
        for name, rows in self.per_question.items():
            systems[name] = {
                "overall": mean_metrics(rows),
                "by_category": {c: mean_metrics([r for r, q in zip(rows, self.questions) if q.category == c])
                                for c in cats},
                "by_split": {s: mean_metrics([r for r, q in zip(rows, self.questions) if q.split == s])
                             for s in splits},
                "latency_ms_p50": float(np.median(self.latency_ms.get(name, [0]))),
            }
        names = list(self.per_question)
        tests = {}
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                tests[f"{a} vs {b}"] = {m: wilcoxon([r[m] for r in self.per_question[a]],
                                                     [r[m] for r in self.per_question[b]]) for m in METRICS}
        per_question = {name: [{"id": q.id, "category": q.category, "split": q.split, "gold": list(q.gold),
                                **{k: v for k, v in r.items() if k != "id"}}
                               for r, q in zip(rows, self.questions)]
                        for name, rows in self.per_question.items()}
        return {"benchmark": self.benchmark, "questions": len(self.questions), "match": self.match, "twins": self.twins,
                "categories": {c: sum(q.category == c for q in self.questions) for c in cats},
                "splits": {s: sum(q.split == s for q in self.questions) for s in splits},
                "systems": systems, "tests": tests, "per_question": per_question}


def dumps(summary: dict) -> str:
    """The summary as JSON: indented, except that each per-question row takes one line (a
    large benchmark has thousands of them)."""
    per = summary.get("per_question")
    head = json.dumps({k: v for k, v in summary.items() if k != "per_question"}, ensure_ascii=False, indent=1)
    if per is None:
        return head
    systems = ",\n".join(f"  {json.dumps(name, ensure_ascii=False)}: [\n"
                         + ",\n".join("   " + json.dumps(row, ensure_ascii=False) for row in rows) + "\n  ]"
                         for name, rows in per.items())
    return head[:-2] + ',\n "per_question": {\n' + systems + "\n }\n}"


def split_table(summary: dict, metrics=("recall@5", "mrr", "map@10", "hit@1", "citation_f1")) -> str:
    """Each system's metrics on the tuning and the validation part."""
    splits = summary.get("splits", {})
    head = "| system | " + " | ".join(f"{m} {s} ({n})" for m in metrics for s, n in splits.items()) + " |"
    lines = [head, "|" + "---|" * (len(metrics) * len(splits) + 1)]
    for name, s in summary["systems"].items():
        lines.append(f"| {name} | " + " | ".join(f"{s['by_split'][sp][m]:.3f}" for m in metrics for sp in splits) + " |")
    return "\n".join(lines)


def table(summary: dict, metrics=METRICS + ("macro_f2",)) -> str:
    head = "| system | " + " | ".join(metrics) + " | p50 ms |"
    lines = [head, "|" + "---|" * (len(metrics) + 2)]
    for name, s in summary["systems"].items():
        lines.append(f"| {name} | " + " | ".join(f"{s['overall'][m]:.3f}" for m in metrics)
                     + f" | {s['latency_ms_p50']:.0f} |")
    return "\n".join(lines)


def category_table(summary: dict, metric: str = "recall@5") -> str:
    cats = list(summary["categories"])
    lines = [f"| {metric} | " + " | ".join(f"{c} ({summary['categories'][c]})" for c in cats) + " |",
             "|" + "---|" * (len(cats) + 1)]
    for name, s in summary["systems"].items():
        lines.append(f"| {name} | " + " | ".join(f"{s['by_category'][c][metric]:.3f}" for c in cats) + " |")
    return "\n".join(lines)


def tests_table(summary: dict, against: str, metrics=("recall@5", "mrr", "hit@1", "citation_f1")) -> str:
    """Wilcoxon tests of `against` with every other system: p-value, effect size r and n (the
    questions where the two differ); "no difference" when they score the same everywhere."""
    from .stats import format_p

    def cell(res: dict) -> str:
        if not res.get("n", 1):
            return "no difference"
        return f"{format_p(res['p'])}, r = {res['r']:.2f}, n = {res['n']}"
    lines = ["| comparison | " + " | ".join(f"{m}: p, r, n" for m in metrics) + " |", "|" + "---|" * (len(metrics) + 1)]
    for pair, res in summary["tests"].items():
        if against in pair.split(" vs "):
            lines.append(f"| {pair} | " + " | ".join(cell(res[m]) for m in metrics) + " |")
    return "\n".join(lines)


SYSTEMS = ("bm25", "dense", "hybrid", "graph", "graph-vihermes", "graph-fuse", "graph-flat", "graph-off")


def system_config(name: str, base):
    """A RetrievalConfig for a system name: a mode, 'graph-vihermes' (0.7 semantic / 0.3
    proximity), or 'graph-fuse' / 'graph-flat' / 'graph-off' (RetrievalConfig.unstructured)."""
    from dataclasses import replace as _replace
    from ..core.config import Weights
    if name == "graph-vihermes":
        return _replace(base, mode="graph", weights=Weights.vihermes())
    if name in ("graph-fuse", "graph-flat", "graph-off"):      # graph mode, one way with unstructured questions
        return _replace(base, mode="graph", unstructured=name.split("-")[1])
    if name in ("bm25", "dense", "hybrid", "graph"):
        return _replace(base, mode=name)
    raise ValueError(f"unknown system {name!r}: choose from {', '.join(SYSTEMS)}")


def run_eval(wb, questions: list[Question], systems: list[str], benchmark: str = "",
             match: str = "article", progress: bool = True) -> Evaluation:
    """Every system on every question in one run; the query is embedded once and shared,
    and latency is measured without the query embedding."""
    import time
    from dataclasses import replace as _replace
    from tqdm.auto import tqdm
    base = wb.config.retrieval
    configs = {s: system_config(s, base) for s in systems}
    names = twin_names(wb)
    ev = Evaluation(benchmark, questions, {s: [] for s in systems}, {s: [] for s in systems}, match, names)
    for q in tqdm(questions, desc="questions", disable=not progress):
        qvec = wb.embedder.embed_queries([q.question])[0]
        for name, cfg in configs.items():
            cfg = _replace(cfg, as_of=q.as_of) if q.as_of else cfg
            t = time.perf_counter()
            result = wb.retrieve(q.question, cfg, qvec)
            ev.latency_ms[name].append((time.perf_counter() - t) * 1000 - result.embed_ms)
            ranked = [h.unit_id for h in result.hits]
            row = score_question(ranked, result.cited, list(q.gold), match, names)
            row.update(id=q.id, ranked=ranked[:10], cited=list(result.cited))
            ev.per_question[name].append(row)
    return ev

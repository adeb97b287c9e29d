"""Entity-level questions: multi-vector search against unit-only search, and LOCAL context
against the composed evidence as the context of an answer.

Questions: benchmarks/questions/entities.jsonl (108: 36 per workspace zh / alqac / obliqa; two
parts, tuning / validation). 72 name their instrument (kinds entity, relation, document); 36 name
none and have gold in two or more instruments (cross-entity, cross-relation, cross-document).
Gold written from the law texts (grep and reading), not from any system's output.

1. Search. unit-only = hybrid over the units (BM25 + dense, reciprocal rank fusion, the best
   flat system on these workspaces); multi-vector = units + entities + relations + document
   summaries + defined terms (workbench/entities/collections.py), each non-unit hit standing
   for its units. Scored at article level with versions ignored ("food-safety-law@2015/a57"
   and "@2009/a57" are one provision: the questions ask about the law, not a version; a rule's
   paragraphs "(1)" and the passages numbered like the one before them ("~2": a continuation, or
   rarely a second provision under one number) are the rule; copies of one instrument are one), and at
   document level (instrument keys, first occurrence). Recall@10, MRR, Wilcoxon on per-question
   values, per kind and per part. Nothing here was tuned: RRF_K and UNITS_PER_HIT are design
   values set before the questions were run.
2. Answers. Citation precision / recall / F1 of the extractive answer (`ask`, backend
   extractive) with evidence = compose (graph retrieval's provisions) and = local (LOCAL
   context of the entities the question names), on the entity questions and on the zh
   version-aware development set (benchmarks/questions/zh_versions.jsonl).

    .venv/bin/python benchmarks/entities.py [--only zh,alqac,obliqa] [--no-answers]
Needs the workspaces of benchmarks/retrieval.py; (re)builds their collections first.
Result: benchmarks/results/entities.json
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
WS = ROOT / "benchmarks" / "workspace-retrieval"
QUESTIONS = ROOT / "benchmarks" / "questions" / "entities.jsonl"
ZH_DEV = ROOT / "benchmarks" / "questions" / "zh_versions.jsonl"
K = 30          # hits taken from each list before scoring the top 10
RULE_PART = re.compile(r"(?:\.\([^()/]*\))+$|~\d+$")
KINDS = ("entity", "relation", "document", "cross-entity", "cross-relation", "cross-document")


def unversioned(uid: str, copies: dict[str, str] | None = None) -> str:
    from workbench.retrieve.expand import article_of
    art = article_of(uid)
    key, _, rest = art.partition("@")
    key = (copies or {}).get(key, key)
    # a paragraph "(1)" or a passage numbered like the one before it ("~2": mostly a continuation) counts as the rule
    return RULE_PART.sub("", key + ("/" + rest.split("/", 1)[1] if "/" in rest else ""))


def copies_of(wb) -> dict[str, str]:
    """Instruments held twice under two keys (the same article texts; e.g. a code ingested under
    its number and under its title) -> one key for both (the smallest), so that finding either
    copy counts as finding the instrument."""
    import hashlib
    rows = wb.store.db.open_table("units").to_lance().to_table(columns=["key", "kind", "text"]).to_pylist()
    texts: dict[str, list[str]] = {}
    for r in rows:
        if r["kind"] == "article":
            texts.setdefault(r["key"], []).append(r["text"] or "")
    by_sig: dict[str, list[str]] = {}
    for key, ts in texts.items():
        by_sig.setdefault(hashlib.sha1("\x00".join(sorted(ts)).encode()).hexdigest(), []).append(key)
    return {k: min(keys) for keys in by_sig.values() if len(keys) > 1 for k in keys}


def scores(ranked: list[str], gold: list[str]) -> dict:
    ranked = list(dict.fromkeys(ranked))
    gold = set(gold)
    first = next((i for i, r in enumerate(ranked) if r in gold), None)
    return {"recall@10": len(gold & set(ranked[:10])) / len(gold), "mrr": 1 / (first + 1) if first is not None else 0.0}


def citation(cited: list[str], gold: list[str], copies: dict[str, str] | None = None) -> dict:
    c, g = {unversioned(u, copies) for u in cited}, {unversioned(u, copies) for u in gold}
    p = len(c & g) / len(c) if c else 0.0
    r = len(c & g) / len(g) if g else 0.0
    return {"citation_p": p, "citation_r": r, "citation_f1": 2 * p * r / (p + r) if p + r else 0.0}


def mean(rows: list[dict], keys) -> dict:
    return {k: round(statistics.fmean(r[k] for r in rows), 3) for k in keys} if rows else {}


def search_run(wb, questions: list[dict]) -> list[dict]:
    from workbench.entities.collections import units_of
    copies = copies_of(wb)
    out = []
    for q in questions:
        t = time.perf_counter()
        only = wb.search_all(q["question"], K, ("units",))
        t1 = time.perf_counter()
        multi = wb.search_all(q["question"], K)
        t2 = time.perf_counter()
        unit_rank = [h.id for h in only]
        systems = {"unit-only": unit_rank, "multi-vector": units_of(multi, unit_rank)}
        row = {"id": q["id"], "kind": q["kind"], "part": q["part"],
               "collections": [h.collection for h in multi[:10]],
               "ms": {"unit-only": (t1 - t) * 1000, "multi-vector": (t2 - t1) * 1000}}
        gold_u = [unversioned(u, copies) for u in q["gold_units"]]
        gold_d = [copies.get(d, d) for d in q.get("gold_documents") or sorted({u.split("@")[0] for u in q["gold_units"]})]
        for name, ranked in systems.items():
            units = [unversioned(u, copies) for u in ranked]
            docs = [u.split("/")[0] for u in units]
            row[name] = {"unit": scores(units, gold_u), "document": scores(docs, gold_d)}
        out.append(row)
    return out


def summarise(rows: list[dict]) -> dict:
    from workbench.evaluate.metrics import wilcoxon
    out = {}
    groups = {"all": rows}
    for kind in KINDS:
        groups[kind] = [r for r in rows if r["kind"] == kind]
    groups["cross (all)"] = [r for r in rows if r["kind"].startswith("cross")]
    groups["named (all)"] = [r for r in rows if not r["kind"].startswith("cross")]
    for part in ("tuning", "validation"):
        groups[part] = [r for r in rows if r["part"] == part]
    for g, rs in groups.items():
        if not rs:
            continue
        entry = {"n": len(rs)}
        for level in ("unit", "document"):
            for metric in ("recall@10", "mrr"):
                a = [r["multi-vector"][level][metric] for r in rs]
                b = [r["unit-only"][level][metric] for r in rs]
                entry[f"{level} {metric}"] = {"unit-only": round(statistics.fmean(b), 3),
                                              "multi-vector": round(statistics.fmean(a), 3),
                                              "wilcoxon": {k: round(v, 4) for k, v in wilcoxon(a, b).items()}}
        out[g] = entry
    return out


def answers_run(wb, questions: list[dict]) -> dict:
    """Extractive answers with both evidence modes; gold from each question's gold units."""
    from dataclasses import replace
    rows = []
    cfg = replace(wb.config.retrieval, mode="graph")
    copies = copies_of(wb)
    for q in questions:
        result = wb.retrieve(q["question"], cfg)
        row = {"id": q["id"], "part": q.get("part") or q.get("split", "")}
        for mode in ("compose", "local"):
            a = wb.ask(q["question"], cfg, "extractive", result=result, evidence=mode)
            row[mode] = citation(a.citations, q["gold_units"], copies)
            row[mode + "_fallback"] = bool(mode == "local" and a.tried)
        rows.append(row)
    keys = ("citation_p", "citation_r", "citation_f1")
    return {"n": len(rows), "compose": mean([r["compose"] for r in rows], keys),
            "local": mean([r["local"] for r in rows], keys),
            "local_fell_back": sum(r["local_fallback"] for r in rows)}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="zh,alqac,obliqa")
    ap.add_argument("--no-answers", action="store_true")
    args = ap.parse_args()
    from workbench.evaluate.metrics import split_of
    from workbench.workbench import Workbench
    questions = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]
    out = {"questions": len(questions), "search": {}, "answers": {}, "build": {}}
    path = ROOT / "benchmarks" / "results" / "entities.json"
    if path.exists():
        out = {**out, **{k: v for k, v in json.loads(path.read_text()).items() if k in ("search", "answers", "build")}}
    every = []
    for ws in args.only.split(","):
        wb = Workbench.open(WS / ws)
        t = time.perf_counter()             # (re)built from the current rules; cached texts are not embedded again
        built = wb.build_collections()
        out["build"][ws] = {"seconds": round(time.perf_counter() - t, 1), **built}
        mine = [q for q in questions if q["workspace"] == ws]
        rows = search_run(wb, mine)
        every += rows
        out["search"][ws] = {"summary": summarise(rows), "per_question": rows,
                             "p50_ms": {s: round(statistics.median(r["ms"][s] for r in rows), 1)
                                        for s in ("unit-only", "multi-vector")}}
        if not args.no_answers:
            out["answers"][ws] = answers_run(wb, mine)
            if ws == "zh":
                dev = [json.loads(line) for line in ZH_DEV.read_text(encoding="utf-8").splitlines() if line.strip()]
                dev = [{"id": d["id"], "question": d["question"], "gold_units": d["gold"], "part": split_of(d["id"])}
                       for d in dev]
                out["answers"]["zh_dev"] = answers_run(wb, dev)
        print(ws, json.dumps(out["search"][ws]["summary"]["all"], ensure_ascii=False))
        path.write_text(json.dumps(out, ensure_ascii=False, indent=1))
    if set(args.only.split(",")) == {"zh", "alqac", "obliqa"}:
        out["search"]["all"] = {"summary": summarise(every)}
        path.write_text(json.dumps(out, ensure_ascii=False, indent=1))
    print(json.dumps({k: v for k, v in out["answers"].items()}, ensure_ascii=False))
    print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

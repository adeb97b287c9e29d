"""Chinese citation extraction (workbench/link/zh.py, zh_amend.py) on the real corpora.

1. AMENDS operations of the 刑法 修正案 against benchmarks/gold/xingfa_amendments.jsonl
   (written by hand, one line per operation of every act in zh-lawrefbook/laws/刑法).
   An extracted operation matches a gold one on act + op + target, the target being the
   amended unit as "<instrument key><path>" ("刑法/a151/c3"): the version is left out, since
   it is whichever 刑法 version the resolver finds in force, and the path is the one the
   text names (before the resolver falls back to an existing ancestor). Matching is
   one-to-one (multiset); new_label and the citing item are checked on the matched pairs.
2. For each zh corpus: REFERENCES / AMENDS / REPEALS edges after `link_units`, unresolved
   ones (placeholders for instruments not in the corpus) and the most cited missing names.
3. AMENDS operations per 修正案 act (all of them, gold or not).

    .venv/bin/python benchmarks/extract_zh.py       # prints the dict run() returns
"""
from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
GOLD = ROOT / "benchmarks" / "gold" / "xingfa_amendments.jsonl"
CORPORA = ("zh-food-safety", "zh-pig-slaughter", "zh-animal-quarantine", "zh-planning", "zh-lawrefbook")
TYPES = ("REFERENCES", "AMENDS", "REPEALS")


def load_gold(path: Path = GOLD) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def corpus_counts(units) -> dict:
    from workbench.link.resolve import is_placeholder
    from workbench.link.run import link_units
    t = time.perf_counter()
    edges, problems = link_units(units)
    out = {"units": len(units), "seconds": round(time.perf_counter() - t, 2), "problems": len(problems)}
    missing = Counter()
    for kind in TYPES:
        typed = [e for e in edges if e.type.value == kind]
        out[kind] = {"edges": len(typed), "unresolved": sum(not e.resolved for e in typed),
                     "from_text": sum(e.extractor == "zh" for e in typed)}
        missing.update(dict(e.attrs).get("instrument", e.target) for e in typed if is_placeholder(e.target))
    out["most_cited_missing"] = missing.most_common(8)
    # "《动物检疫管理办法》同时废止" in a new version of that same 办法: the resolver picks the
    # citing version itself, not the one before it (a resolver limitation, counted here)
    out["repeals_own_key"] = sum(e.type.value == "REPEALS" and e.target.split("@")[0] == e.source.split("@")[0]
                                 for e in edges)
    return out


def amendment_ops(units) -> tuple[list, dict]:
    """(act, op, target, new_label, source) of every AMENDS operation read from a 刑法 修正案,
    and the number of operations per 修正案 act (刑法 and 宪法)."""
    from workbench.link.resolve import Resolver
    from workbench.link.run import extract_citations
    resolver = Resolver([u for u in units if u.kind == "document"], {u.id for u in units})
    ops, per_act = [], Counter()
    for c in extract_citations(units):
        if c.type.value != "AMENDS" or c.extractor != "zh":
            continue
        act = c.source.split("@")[0]
        if "修正案" in act:
            per_act[f"{act} {c.op}"] += 1
        key = resolver.find_key(c.instrument) or c.instrument
        if act.startswith("刑法修正案"):
            ops.append((act, c.op, f"{key}{c.path()}", c.new_label, c.source))
    return ops, dict(sorted(per_act.items()))


def score(gold: list[dict], ops: list) -> dict:
    acts = {g["act"] for g in gold}
    predicted = [o for o in ops if o[0] in acts]
    pool = Counter((o[0], o[1], o[2]) for o in predicted)
    found = Counter((g["act"], g["op"], g["target"]) for g in gold)
    matched = sum((pool & found).values())
    misses = list((found - pool).elements())
    extra = list((pool - found).elements())
    labels_gold = Counter((g["act"], g["op"], g["target"], g["new_label"]) for g in gold)
    labels_pred = Counter(o[:4] for o in predicted)
    items = Counter((g["act"], g["op"], g["target"], g["item"]) for g in gold)
    items_pred = Counter((o[0], o[1], o[2], _item(o[4])) for o in predicted)
    return {"acts": len(acts), "gold": len(gold), "extracted": len(predicted), "matched": matched,
            "recall": round(matched / len(gold), 4) if gold else None,
            "precision": round(matched / len(predicted), 4) if predicted else None,
            "new_label_agrees": sum((labels_gold & labels_pred).values()),
            "item_agrees": sum((items & items_pred).values()),
            "missed": misses[:20], "spurious": extra[:20]}


def _item(source: str) -> int:
    """刑法修正案（七）@2009-02-28/a12 -> 12; the document (an act without items) -> 0."""
    tail = source.split("/")[-1]
    return int(tail[1:]) if tail[:1] == "a" and tail[1:].isdigit() else 0


def xingfa(folder: Path = SHARED / "zh-lawrefbook" / "laws" / "刑法") -> dict:
    """The gold score from the 刑法 folder alone (刑法 and its 修正案): what the test checks."""
    from workbench.parse.detect import load_corpus
    ops, _ = amendment_ops(load_corpus(folder).result.units)
    return score(load_gold(), ops)


def run() -> dict:
    from workbench.parse.detect import load_corpus
    if not SHARED.exists():
        return {"skipped": f"needs {SHARED}"}
    out: dict = {"corpora": {}}
    for name in CORPORA:
        parsed = load_corpus(SHARED / name)
        out["corpora"][name] = corpus_counts(parsed.result.units)
        if name == "zh-lawrefbook":
            ops, per_act = amendment_ops(parsed.result.units)
            out["xingfa_gold"] = score(load_gold(), ops)
            out["amendment_ops_per_act"] = per_act
            out["xingfa_ops_total"] = len(ops)
    return out


if __name__ == "__main__":
    print(json.dumps(run(), ensure_ascii=False, indent=1))

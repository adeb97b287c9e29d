"""Score the entity and relation hand-check sheets (benchmarks/entity_sample.py draws them).

Precision is read from the judgements in the sheets (`correct`): strict (y only) and lenient
(y or b: the right entity with a boundary error), per type and per confidence band. The first
sheets (`entities_{lang}.csv`, `relations_{lang}.csv`) judged the first rules and were then used
to rewrite them: their figures describe the first rules. The `*_validation.csv` sheets (seed
29) were drawn from the rules after one rewrite and judged blind; the vi and en rules were then
rewritten once more on them (zh only through the shared definitions code), and the
`*_validation2.csv` sheets (seed 31), drawn from those and judged blind, measure the current
rules of that round; the rules were rewritten once more on those errors (by principle, see
tests/test_entity_rules.py), and the `*_validation3.csv` sheets (seed 37), drawn from the
rewritten rules and judged blind, measured them; the vi and en rules were rewritten once more on
the seed-37 errors (zh unchanged), and the vi and en `*_validation4.csv` sheets (seed 41), drawn
from those and judged blind, measure the current vi and en rules; the zh relation rules were
rewritten once on the seed-37 errors and `relations_zh_validation4.csv` (seed 47), drawn from
them and judged blind, measured them; the relation rules of every language were then rewritten
once more (zh modifiers, vi heads of bodies, the agent of an issuing verb) and the
`relations_*_validation5.csv` sheets (seed 53), drawn from those and judged blind, measure the
current zh and vi relation rules; the en relation rules took one more principle (phrases
modifying a noun or participle) and `relations_en_validation6.csv` (seed 59) measures them
(entities: zh seed 37, vi and en seed 41). Round 7 (`*_validation7.csv`, seed 61) judged the
relation rules of every language after one more rewrite, and round 8 (`entities_vi_validation8.csv`,
seed 67) the vi entity rules after theirs, and round 9 (`entities_vi_validation9.csv`, seed 71)
the vi entity rules after one more rewrite (head-initial names: where a name ends). Recall is always that of the current rules. With `--current`, every judged row is also looked up in what the current
extractor produces for that unit: `kept` (the same mention or relation is still produced),
`gone` (no longer produced) or `changed` (the unit now yields an overlapping mention of another
span or type) -- how a rule change moved the judged rows, before a fresh sample is judged.
Recall: each entity a reader listed for a provision (`entity_recall_*.csv`) is found when the
extractor yields a mention in that unit with the same normalised surface (strict) or an
overlapping one (lenient; type not compared).

    .venv/bin/python benchmarks/entities_handcheck.py [--langs zh,vi,en] [--sheets entities,relations] [--current]
Result: benchmarks/results/entities_handcheck.json (without --current)
"""
from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
HC = ROOT / "benchmarks" / "handcheck"
WS = ROOT / "benchmarks" / "workspace-retrieval"
WORKSPACE = {"zh": "zh", "vi": "alqac", "en": "obliqa"}


def rows(name: str) -> list[dict]:
    path = HC / name
    return list(csv.DictReader(open(path, encoding="utf-8"))) if path.exists() else []


def precision(judged: list[dict], lenient=("y", "b")) -> dict:
    marks = [r["correct"].strip().lower() for r in judged if r["correct"].strip()]
    if not marks:
        return {"n": 0}
    return {"n": len(marks), "strict": round(sum(m == "y" for m in marks) / len(marks), 3),
            "lenient": round(sum(m in lenient for m in marks) / len(marks), 3), "marks": dict(Counter(marks))}


def summarise(judged: list[dict], by: str) -> dict:
    out = {"all": precision(judged)}
    for part in ("tuning", "validation"):
        out[part] = precision([r for r in judged if r.get("part") == part])
    groups = defaultdict(list)
    for r in judged:
        groups[r[by]].append(r)
    out["by_" + by] = {k: precision(v) for k, v in sorted(groups.items())}
    bands = defaultdict(list)
    for r in judged:
        c = float(r["confidence"])
        bands["<0.6" if c < 0.6 else "0.6-0.8" if c < 0.8 else ">=0.8"].append(r)
    out["by_confidence"] = {k: precision(v) for k, v in sorted(bands.items())}
    # the two kinds of pattern entities/extract.py grades: a name in a closed form (a title, a level
    # prefix, a fixed head: 0.85 and over) and one whose end was found by scanning (below); the
    # threshold is the extractor's own grading, not fitted on the sheets (`workbench entities --min-confidence`)
    out["by_form"] = {"closed (>=0.85)": precision([r for r in judged if float(r["confidence"]) >= CLOSED]),
                      "scanned (<0.85)": precision([r for r in judged if float(r["confidence"]) < CLOSED])}
    return out


CLOSED = 0.85


# the sheet suffixes: the first rules, then the blind rounds 1-12 (round 7, seed 61: relations of
# every language; round 8, seed 67, round 9, seed 71, and round 10, seed 73, round 11, seed 79, round 12, seed 83: vi entities)
ROUNDS = ["", *(f"_validation{i if i > 1 else ''}" for i in range(1, 13))]


def recall(lang: str, mentions_of, suffix: str = "") -> dict:
    from workbench.entities.extract import normalise
    found = strict = lenient = 0
    for r in rows(f"entity_recall_{lang}{suffix}.csv"):
        hand = [h.rsplit("|", 1)[0].strip() for h in r["hand"].split(";") if h.strip()]
        got = [normalise(m.surface) for m in mentions_of(r["unit_id"])]
        for h in hand:
            found += 1
            n = normalise(h)
            strict += n in got
            lenient += any(n in g or g in n for g in got)
    return {"entities": found, "strict": round(strict / found, 3) if found else None,
            "lenient": round(lenient / found, 3) if found else None}


def current_status(lang: str, index, sheet: str, suffix: str = "") -> Counter:
    """How the judged rows fare under the current extractor (see the module doc)."""
    from workbench.entities.extract import normalise
    by_unit = defaultdict(list)
    for m in index.mentions:
        by_unit[m.unit_id].append(m)
    rel_by_unit = defaultdict(set)
    names = {e.id: normalise(e.name) for e in index.entities.values()}
    for r in index.relations:
        rel_by_unit[r.unit_id].add((names.get(r.subject, r.subject), r.type, names.get(r.object, r.object)))
    out = Counter()
    for r in rows(f"{sheet}_{lang}{suffix}.csv"):
        mark = r["correct"].strip().lower() or "?"
        if sheet == "entities":
            ms = by_unit[r["unit_id"]]
            same = any(m.type == r["type"] and normalise(m.surface) == normalise(r["surface"]) for m in ms)
            near = any(normalise(r["surface"]) in normalise(m.surface) or normalise(m.surface) in normalise(r["surface"])
                       for m in ms)
        else:
            key = (normalise(r["subject"]), r["type"], normalise(r["object"]))
            same = key in rel_by_unit[r["unit_id"]]
            near = any(k[1] == r["type"] for k in rel_by_unit[r["unit_id"]])
        out[(mark, "kept" if same else "changed" if near else "gone")] += 1
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--langs", default="zh,vi,en")
    ap.add_argument("--sheets", default="entities,relations")
    ap.add_argument("--current", action="store_true", help="compare the judged rows with the current extractor")
    ap.add_argument("--against", default="", help="with --current: the sheet suffix to compare (_validation3)")
    ap.add_argument("--workspaces", type=Path, default=WS,
                    help="folder holding the zh, alqac and obliqa workspaces (default benchmarks/workspace-retrieval)")
    args = ap.parse_args()
    from workbench.workbench import Workbench
    result = {}
    for lang in args.langs.split(","):
        wb = Workbench.open(args.workspaces / WORKSPACE[lang])
        index = wb.entities
        by_unit = defaultdict(list)
        for m in index.mentions:
            by_unit[m.unit_id].append(m)
        res = {}
        for sheet in args.sheets.split(","):
            judged = rows(f"{sheet}_{lang}.csv")
            res[sheet] = summarise(judged, "type")          # the first rules (tuning material)
            for suffix in ROUNDS[1:]:           # the blind rounds (see the docstring); missing sheets: empty
                res[sheet + suffix] = summarise(rows(f"{sheet}_{lang}{suffix}.csv"), "type")
            if sheet == "entities":             # what `--min-confidence` keeps: entities by their surest mention
                best = index.confidence()
                for suffix in ROUNDS:
                    judged = rows(f"{sheet}_{lang}{suffix}.csv")
                    res[sheet + suffix]["by_entity_form"] = {
                        "kept at 0.85": precision([r for r in judged if best.get(r["entity_id"], 0.0) >= CLOSED]),
                        "left out": precision([r for r in judged if best.get(r["entity_id"], 0.0) < CLOSED])}
            if args.current:
                status = current_status(lang, index, sheet, args.against)
                print(f"{lang} {sheet}: " + ", ".join(f"{m}/{s} {n}" for (m, s), n in sorted(status.items())))
        res["recall"] = recall(lang, lambda uid: by_unit[uid])
        res["recall_validation"] = recall(lang, lambda uid: by_unit[uid], "_validation")
        res["recall_validation2"] = recall(lang, lambda uid: by_unit[uid], "_validation2")
        res["recall_validation3"] = recall(lang, lambda uid: by_unit[uid], "_validation3")
        res["recall_validation4"] = recall(lang, lambda uid: by_unit[uid], "_validation4")
        res["inventory"] = {"entities": len(index.entities), "mentions": len(index.mentions),
                            "entities_closed_form": sum(c >= CLOSED for c in index.confidence().values()),
                            "relations": len(index.relations), "aggregated": len(index.aggregated)}
        result[lang] = res
        for sheet in args.sheets.split(","):
            print(f"{lang} {sheet} strict / lenient precision: " + "; ".join(
                f"{'first rules' if not x else 'round ' + str(i)} {res[sheet + x]['all'].get('strict')} / "
                f"{res[sheet + x]['all'].get('lenient')}" for i, x in enumerate(ROUNDS) if res[sheet + x]['all'].get('strict') is not None))
        print(f"{lang} recall of the current rules on the recall sheets: {res['recall']}, "
              f"{res['recall_validation']}, {res['recall_validation2']}, {res['recall_validation3']}, "
              f"{res['recall_validation4']}; inventory: {res['inventory']}")
    if not args.current:
        out = ROOT / "benchmarks" / "results" / "entities_handcheck.json"
        out.write_text(json.dumps(result, ensure_ascii=False, indent=1))
        print(f"wrote {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

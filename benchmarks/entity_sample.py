"""Draw the hand-check sheets for entities and relations (workbench/entities/), per language.

For zh (zh-food-safety + zh-pig-slaughter + zh-animal-quarantine), vi (vi-alqac) and en
(en-adgm), from the workspaces of benchmarks/retrieval.py, with a fixed seed (23):

- benchmarks/handcheck/entities_{lang}.csv: 100 distinct entities, one random mention each,
  shown in its sentence with the mention in [[...]]. A reader fills `correct`:
  y  -- the marked span is an entity of the stated type and its boundaries are right;
  b  -- an entity of that type, but the span is cut short or runs on (boundary error);
  t  -- an entity, wrong type;
  n  -- not an entity (a common noun, a fragment, an action).
  Precision counts y only; the strict-vs-lenient gap is reported from b.
- benchmarks/handcheck/relations_{lang}.csv: 100 relations (one per aggregated relation,
  random supporting unit), with the evidence sentence. `correct` y when the sentence states
  that relation between the two entities (subject and object in the right places), n otherwise.
- benchmarks/handcheck/entity_recall_{lang}.csv: 15 provisions with their full text; the
  reader lists in `hand` every authority, party, instrument and document named in the text
  (`surface|type; ...`) without seeing what the extractor found.

The first sheets (seed 23) judged the first version of the rules, and all their rows were
then used to rewrite the rules (tuning). The `--seed 29 --suffix validation` sheets were drawn
from the rewritten rules and judged blind, by readers who had not seen the other sheets; the vi
and en rules were rewritten once more on them, and the `--seed 31 --suffix validation2`
sheets, drawn and judged blind the same way, measure the current rules.

    .venv/bin/python benchmarks/entity_sample.py [--seed 29 --suffix validation]   # keeps filled sheets
    .venv/bin/python benchmarks/entities_handcheck.py     # scores filled sheets
"""
from __future__ import annotations

import csv
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
WS = ROOT / "benchmarks" / "workspace-retrieval"
OUT = ROOT / "benchmarks" / "handcheck"
WORKSPACE = {"zh": "zh", "vi": "alqac", "en": "obliqa"}
SEED = 23
N = 100
RECALL_N = 15


def context(text: str, start: int, end: int, width: int = 90) -> str:
    a, b = max(0, start - width), min(len(text), end + width)
    return ("…" if a else "") + text[a:start] + "[[" + text[start:end] + "]]" + text[end:b] + ("…" if b < len(text) else "")


def write(path: Path, header: list[str], rows: list[list]) -> None:
    if path.exists():
        print(f"kept {path.relative_to(ROOT)} (delete it to draw again)")
        return
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    print(f"wrote {path.relative_to(ROOT)}")


def main() -> int:
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--suffix", default="", help="sheet name suffix (validation)")
    ap.add_argument("--workspaces", type=Path, default=WS,
                    help="folder holding the zh, alqac and obliqa workspaces (default benchmarks/workspace-retrieval)")
    args = ap.parse_args()
    from workbench.workbench import Workbench
    tag = f"_{args.suffix}" if args.suffix else ""
    for lang, ws in WORKSPACE.items():
        rng = random.Random(args.seed)
        idx = Workbench.open(args.workspaces / ws).entities
        by_entity: dict[str, list] = {}
        for m in idx.mentions:
            by_entity.setdefault(m.entity_id, []).append(m)
        ids = sorted(by_entity)
        rng.shuffle(ids)
        rows = []
        for i, eid in enumerate(ids[:N], 1):
            m = rng.choice(by_entity[eid])
            text = idx.units[m.unit_id].text
            rows.append([i, args.suffix or "tuning", eid, m.type, m.surface, m.unit_id,
                         round(m.confidence, 2), context(text, m.start, m.end), "", ""])
        write(OUT / f"entities_{lang}{tag}.csv",
              ["n", "part", "entity_id", "type", "surface", "unit_id", "confidence", "context", "correct", "note"], rows)

        aggs = list(idx.aggregated)
        rng.shuffle(aggs)
        by_key = {}
        for r in idx.relations:
            by_key.setdefault((r.subject, r.type, r.object), []).append(r)
        rows = []
        for i, a in enumerate(aggs[:N], 1):
            r = rng.choice(by_key[(a.subject, a.type, a.object)])
            name = lambda e: idx.entities[e].name if e in idx.entities else e
            rows.append([i, args.suffix or "tuning", name(r.subject), r.type, name(r.object),
                         r.unit_id, round(r.confidence, 2), r.evidence, "", ""])
        write(OUT / f"relations_{lang}{tag}.csv",
              ["n", "part", "subject", "type", "object", "unit_id", "confidence", "evidence", "correct", "note"], rows)

        units = sorted(u for u in idx.units if "/" in u)
        rng.shuffle(units)
        picked = [u for u in units if 80 <= len(idx.units[u].text) <= 900][:RECALL_N]
        write(OUT / f"entity_recall_{lang}{tag}.csv", ["n", "unit_id", "text", "hand"],
              [[i, u, idx.units[u].text, ""] for i, u in enumerate(picked, 1)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

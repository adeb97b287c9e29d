"""Provision roles (workbench/parse/roles.py) against hand labels, per language.

benchmarks/handcheck/roles_{zh,vi,en}.csv: 100 units each, drawn at random (seed 13; 50
articles and 50 clauses, or 100 passages for en-adgm) from the benchmark workspaces
(zh: zh-food-safety + zh-pig-slaughter + zh-animal-quarantine; vi: vi-alqac; en: en-adgm),
labelled by a reader who had the label guide and the unit text only, not the classifier's
output. Rows 1-50 are the tuning part (the cues were adjusted on its errors), rows 51-100 the
validation part (never looked at while writing cues).

    .venv/bin/python benchmarks/roles.py     # needs the workspaces of benchmarks/retrieval.py
Result: benchmarks/results/roles.json (accuracy, per-role precision / recall, confusions).
"""
from __future__ import annotations

import csv
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
WS = ROOT / "benchmarks" / "workspace-retrieval"
WORKSPACE = {"zh": "zh", "vi": "alqac", "en": "obliqa"}


def scores(pairs: list[tuple[str, str]]) -> dict:
    """Accuracy and per-role precision / recall / support of (hand, auto) pairs."""
    from workbench.parse.roles import ROLES
    out = {"n": len(pairs), "accuracy": sum(h == a for h, a in pairs) / len(pairs), "roles": {}}
    for role in ROLES:
        tp = sum(h == a == role for h, a in pairs)
        auto = sum(a == role for _, a in pairs)
        hand = sum(h == role for h, _ in pairs)
        out["roles"][role] = {"hand": hand, "auto": auto, "precision": tp / auto if auto else None,
                              "recall": tp / hand if hand else None}
    return out


def part_of(store, unit) -> str:
    """The heading of the chapter (section, part) holding `unit`, as the store classifies it."""
    from workbench.parse.roles import enclosing_parts
    chain = [unit]
    while chain[-1].parent_id and (up := store.get([chain[-1].parent_id])):
        chain.append(up[0])
    return enclosing_parts(chain).get(unit.id, "")


def main() -> int:
    from workbench.parse.roles import provision_role
    from workbench.store.lance import LanceUnitStore
    result = {}
    for lang, ws in WORKSPACE.items():
        rows = list(csv.DictReader(open(ROOT / "benchmarks" / "handcheck" / f"roles_{lang}.csv", encoding="utf-8")))
        dim = json.loads((WS / ws / "workspace.json").read_text())["dim"]
        store = LanceUnitStore(WS / ws / "lance", dim)
        units = {u.id: u for u in store.get([r["id"] for r in rows])}
        parts = {uid: part_of(store, u) for uid, u in units.items()}
        pairs = {"tuning": [], "validation": []}
        confusions = Counter()
        for r in rows:
            u = units[r["id"]]
            auto = provision_role(u.text, u.title, u.language or lang, u.kind, parts[u.id])
            pairs[r["part"]].append((r["role"], auto))
            if auto != r["role"]:
                confusions[f"{r['role']} -> {auto}"] += 1
        result[lang] = {part: scores(p) for part, p in pairs.items()}
        result[lang]["all"] = scores(pairs["tuning"] + pairs["validation"])
        result[lang]["confusions"] = dict(confusions.most_common(8))
        print(f"{lang}: accuracy tuning {result[lang]['tuning']['accuracy']:.2f}, "
              f"validation {result[lang]['validation']['accuracy']:.2f}")
    print()
    print("| language | role | hand | auto | precision | recall |")
    print("|---|---|---|---|---|---|")
    for lang, got in result.items():
        for role, s in got["all"]["roles"].items():
            if s["hand"] or s["auto"]:
                f = lambda x: "—" if x is None else f"{x:.2f}"  # noqa: E731
                print(f"| {lang} | {role} | {s['hand']} | {s['auto']} | {f(s['precision'])} | {f(s['recall'])} |")
    (ROOT / "benchmarks" / "results" / "roles.json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

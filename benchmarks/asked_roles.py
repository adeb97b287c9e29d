"""What a question asks for (workbench/retrieve/asked.py `asked_roles`) against hand labels.

benchmarks/questions/asked_roles.jsonl: 150 questions (50 zh, 50 en, 50 vi) written by a
writer who read law texts only, never the router's code, each labelled with the provision
roles it asks for (sanction, obligation, prohibition, definition, procedure, scope; none),
about a sixth of them traps (a role word that is not what is asked) or two roles at once.
Odd ids are the tuning part, even ids the validation part (see asked_roles.md).

    .venv/bin/python benchmarks/asked_roles.py [--show]    # --show lists every miss
Result: benchmarks/results/asked_roles.json (per language and part: exact-set accuracy,
per-role precision / recall; 'reasoning' = a sanction asked, which routes a question to role
citing).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
QUESTIONS = ROOT / "benchmarks" / "questions" / "asked_roles.jsonl"
OUT = ROOT / "benchmarks" / "results" / "asked_roles.json"
ROLES = ("sanction", "obligation", "prohibition", "definition", "procedure", "scope")


def scores(rows: list[tuple[set, set]]) -> dict:
    """Exact-set accuracy and per-role precision / recall of (hand, auto) role sets."""
    out = {"n": len(rows), "exact": round(sum(h == a for h, a in rows) / len(rows), 3) if rows else None,
           "roles": {}}
    for role in ROLES:
        tp = sum(role in h and role in a for h, a in rows)
        auto = sum(role in a for _, a in rows)
        hand = sum(role in h for h, _ in rows)
        out["roles"][role] = {"hand": hand, "auto": auto,
                              "precision": round(tp / auto, 3) if auto else None,
                              "recall": round(tp / hand, 3) if hand else None}
    return out


def main(argv: list[str]) -> int:
    from workbench.retrieve.asked import asked_roles
    questions = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]
    result, misses = {}, []
    for q in questions:
        auto = set(asked_roles(q["question"]))
        hand = set(q["roles"])
        q["_pair"] = (hand, auto)
        if auto != hand:
            misses.append((q["id"], q["split"], sorted(hand), sorted(auto), q["question"]))
    for lang in ("zh", "en", "vi", "all"):
        for part in ("tuning", "validation", "all"):
            rows = [q["_pair"] for q in questions if lang in ("all", q["language"]) and part in ("all", q["split"])]
            result[f"{lang}/{part}"] = scores(rows)
    OUT.write_text(json.dumps({"questions": str(QUESTIONS.relative_to(ROOT)), "scores": result}, ensure_ascii=False,
                              indent=1), encoding="utf-8")
    print(f"{'set':<16} {'n':>3} {'exact':>6}  " + "  ".join(f"{r[:5]:>11}" for r in ROLES) + "   (precision/recall)")
    for key, s in result.items():
        cells = []
        for r in ROLES:
            p, rc = s["roles"][r]["precision"], s["roles"][r]["recall"]
            cells.append(f"{'-' if p is None else f'{p:.2f}':>5}/{'-' if rc is None else f'{rc:.2f}':<5}")
        print(f"{key:<16} {s['n']:>3} {s['exact']:>6}  " + "  ".join(cells))
    if "--show" in argv:
        for m in misses:
            print(*m, sep=" | ")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

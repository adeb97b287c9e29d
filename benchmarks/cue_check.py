"""How many development questions each routing cue matches (workbench/retrieve/route.py), so a
phrase fitted to one question shows up: a cue matching one question or none of the development
questions, over all of them (zh, zh2 … zh14, generated zh, ALQAC, ObliQA, the asked-role set; with the
comparison forms of plan.py), is listed
for review.

    .venv/bin/python benchmarks/cue_check.py
Result: benchmarks/results/cue_check.json (count per cue; the cues matching 0 or 1 question)
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
WS = ROOT / "benchmarks" / "workspace-retrieval"
SETS = {"zh": ROOT / "benchmarks/questions/zh_versions.jsonl", "zh2": ROOT / "benchmarks/questions/zh_versions_2.jsonl",
        "zh3": ROOT / "benchmarks/questions/zh_versions_3.jsonl", "zh4": ROOT / "benchmarks/questions/zh_versions_4.jsonl",
        "zh5": ROOT / "benchmarks/questions/zh_versions_5.jsonl", "zh6": ROOT / "benchmarks/questions/zh_versions_6.jsonl",
        "zh7": ROOT / "benchmarks/questions/zh_versions_7.jsonl", "zh8": ROOT / "benchmarks/questions/zh_versions_8.jsonl",
        "zh9": ROOT / "benchmarks/questions/zh_versions_9.jsonl", "zh10": ROOT / "benchmarks/questions/zh_versions_10.jsonl",
        "zh11": ROOT / "benchmarks/questions/zh_versions_11.jsonl", "zh12": ROOT / "benchmarks/questions/zh_versions_12.jsonl",
        "zh13": ROOT / "benchmarks/questions/zh_versions_13.jsonl", "zh14": ROOT / "benchmarks/questions/zh_planning.jsonl",
        "generated": ROOT / "benchmarks/questions/generated_zh.jsonl",
        "alqac": WS / "alqac/alqac_questions.jsonl", "obliqa": WS / "obliqa/obliqa_questions.jsonl",
        "asked_roles": ROOT / "benchmarks/questions/asked_roles.jsonl"}


def main() -> int:
    from workbench.retrieve import asked, party, plan, route
    groups = {"DIFF_CUES": route.DIFF_CUES, "TIME_CUES": route.TIME_CUES, "COMPARE_CUES": route.COMPARE_CUES,
              "HISTORY_CUES": route.HISTORY_CUES, "DEF_CUES": route.DEF_CUES, "CURRENT_CUES": route.CURRENT_CUES,
              "CURRENT_NOW": (route.CURRENT_NOW,), "PAIR (party: two parties asked)": (party._PAIR,),
              **{f"ASKED[{k}]": v for k, v in route.ASKED.items()}, "BODY": (route.BODY,), "DUTY_OF": (route.DUTY_OF,),
              "MEANING": (route.MEANING,), "NAME_ASKED": (route.NAME_ASKED,),
              "FACT_PENALTY (not asked)": (asked.FACT_PENALTY,), "ASKS_PERIOD": (asked.ASKS_PERIOD,), "BEAR (not asked)": (asked.BEAR,),
              "ASKED_CHANGE": (route.ASKED_CHANGE,), "CHANGE_VERB": (route.CHANGE_VERB,),
              "VERSION_NAMED": (route.VERSION_NAMED,), "ALL_VERSIONS": (route.ALL_VERSIONS,),
              "ADDED": (route.ADDED,), "REMOVED": (route.REMOVED,), "BEFORE_DATE": (route.BEFORE_DATE,),
              "BEFORE_REVISION": (route.BEFORE_REVISION,), "THEN": (route.THEN,), "REVISION": (route.REVISION,),
              "WENT_THROUGH": (route.WENT_THROUGH,), "LAW_REVISED": (route.LAW_REVISED,),
              "WHEN_CHANGED": (route.WHEN_CHANGED,), "PREVIOUS": (route.PREVIOUS,), "COUNTERPART": (route.COUNTERPART,),
              "PREVIOUS_AND_NOW": (route.PREVIOUS_AND_NOW,), "BOTH (plan)": (plan.BOTH,), "SAME (plan)": (plan.SAME,),
              "PARTY_RULES (no law's version)": (route.PARTY_RULES,), "LAW_NAMED": (route.LAW_NAMED,)}
    questions = []
    for name, path in SETS.items():
        if path.exists():
            questions += [(name, json.loads(line)["question"]) for line in path.read_text(encoding="utf-8").splitlines()
                          if line.strip()]
    counts, rare = {}, []
    for group, cues in groups.items():
        for cue in cues:
            label = cue.pattern if isinstance(cue, re.Pattern) else cue
            hits = [n for n, q in questions
                    if (cue.search(q.lower()) if isinstance(cue, re.Pattern) else route._cue(cue, q.lower()))]
            counts[f"{group}: {label}"] = len(hits)
            if len(hits) <= 1:
                rare.append({"group": group, "cue": label, "questions": len(hits), "sets": sorted(set(hits))})
    out = {"questions": len(questions), "per_set": {n: sum(1 for s, _ in questions if s == n) for n in SETS},
           "counts": counts, "rare": rare}
    (ROOT / "benchmarks/results/cue_check.json").write_text(json.dumps(out, ensure_ascii=False, indent=1))
    print(f"{len(questions)} questions; {len(rare)} cues match at most one:")
    for r in rare:
        print(f"  {r['group']:<22} {r['cue']!r:<28} {r['questions']} {r['sets']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Edge extraction measured against gold, all in one run:

- REFERENCES on ObliQA-XRef (en-adgm): recall against 1,627 gold pairs; precision from the
  hand-checked sample in benchmarks/handcheck/en_adgm_precision.csv       (extract_en.py)
- AMENDS operations of the 刑法 修正案 (zh-lawrefbook) against hand-written gold, plus edge
  counts for every zh corpus                                                 (extract_zh.py)
- pháp điển notes as gold REFERENCES / AMENDS (vi-phapdien-yte), ALQAC counts (extract_vi.py)
- version alignment counts for zh-food-safety and zh-pig-slaughter (every step), with the
  20 pairs in benchmarks/handcheck/version_alignment.csv checked by hand

    .venv/bin/python benchmarks/extraction.py        # writes benchmarks/results/extraction.json
"""
from __future__ import annotations

import csv
import importlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
SHARED = ROOT.parent / "shared" / "corpora"
RESULTS = ROOT / "benchmarks" / "results" / "extraction.json"


def alignment() -> dict:
    from workbench.parse.detect import load_corpus
    from workbench.link.versions import align_corpus
    out = {}
    for corpus in ("zh-food-safety", "zh-pig-slaughter", "zh-animal-quarantine"):
        _, counts = align_corpus(load_corpus(SHARED / corpus).result.units)
        out[corpus] = counts
    rows = list(csv.DictReader(open(ROOT / "benchmarks" / "handcheck" / "version_alignment.csv", encoding="utf-8")))
    out["hand_checked_pairs"] = len(rows)
    out["hand_checked_correct"] = sum(r["verdict"] == "correct" for r in rows)
    return out


def main() -> int:
    if not SHARED.exists():
        print(f"needs {SHARED}", file=sys.stderr)
        return 2
    result = {"date": time.strftime("%Y-%m-%d")}
    for name in ("extract_en", "extract_zh", "extract_vi"):
        t = time.perf_counter()
        try:
            result[name] = importlib.import_module(name).run()
        except ModuleNotFoundError as e:
            result[name] = {"missing": str(e)}
        result[name]["seconds"] = round(time.perf_counter() - t, 1)
        print(name, json.dumps(result[name], ensure_ascii=False, indent=1)[:3000], flush=True)
    result["alignment"] = alignment()
    print("alignment", json.dumps(result["alignment"], ensure_ascii=False, indent=1))
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

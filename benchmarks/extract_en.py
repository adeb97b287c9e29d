"""English citation extraction on the ADGM rulebooks, against ObliQA-XRef's cross-references.

Imports ../shared/corpora/en-adgm, runs `link_units` on every unit and compares the
REFERENCES edges with `obliqa-xref-crossrefs.csv` (1,627 rows: 986 Internal and 574
External with a target passage, 67 "Outsource" pointing outside ADGM with none).

Matching rule (strict). Two passages of one document are *the same provision* when their
labels are equal or one is the other followed by sub-paragraph segments only
("19.10.1" ~ "19.10.1.(1)" ~ "19.10.1.(1).(a)"; never "3.5" ~ "3.5.1", "Part 4" ~
"Part 4.33" or a Guidance note ~ its rule). A gold pair (source S, target T) is found when
some edge goes from S or a sub-paragraph passage of S to a passage that is the same
provision as T (T itself, a sub-paragraph of T, or the rule T is a sub-paragraph of). Gold
endpoints are mapped with obliqa.PassageIndex (uuid first); a target stored only as its
clauses ("19.10.1" -> "19.10.1.(1)", ...) is any of them. Recall counts the 1,560 rows with
a target; Outsource rows are reported apart (is there a placeholder edge from the source?).

Precision comes from hand-checked samples of 100 edges drawn by `handcheck_sample`, each
judged by reading the source and target text: benchmarks/handcheck/en_adgm_precision.csv
(random.Random(7)) and en_adgm_precision_seed19.csv (random.Random(19), drawn after guidance
notes' "paragraph N" was resolved to their own paragraphs). en_adgm_guidance_paragraphs.csv
lists the guidance citations of their own paragraphs that were once resolved to the FSMR
section of that number: the report counts how many now reach the right paragraph and how many
wrong edges remain.

    python benchmarks/extract_en.py          # prints the numbers as JSON
"""
from __future__ import annotations

import csv
import json
import random
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "corpora"
HANDCHECK = ROOT / "benchmarks" / "handcheck" / "en_adgm_precision.csv"
HANDCHECKS = {7: HANDCHECK, 19: ROOT / "benchmarks" / "handcheck" / "en_adgm_precision_seed19.csv"}
GUIDANCE = ROOT / "benchmarks" / "handcheck" / "en_adgm_guidance_paragraphs.csv"
sys.path.insert(0, str(ROOT))   # run from a checkout without installing

from workbench.link.resolve import is_placeholder  # noqa: E402
from workbench.link.run import link_units  # noqa: E402
from workbench.parse.obliqa import XREF_NAME, PassageIndex, import_obliqa  # noqa: E402
from workbench.core.records import EdgeType  # noqa: E402

_SUBS = re.compile(r"(?:\.\([^()]*\))+")


def same_provision(a: str, b: str) -> bool:
    """Equal, or one is the other plus sub-paragraph segments ".(1)", ".(a)" only."""
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    return long_.startswith(short) and bool(_SUBS.fullmatch(long_[len(short):]))


def inside(a: str, b: str) -> bool:
    """a is b or a sub-paragraph passage of b."""
    return a == b or (a.startswith(b) and bool(_SUBS.fullmatch(a[len(b):])))


def load(folder: Path = SHARED / "en-adgm"):
    corpus = import_obliqa(folder)
    t = time.perf_counter()
    edges, problems = link_units(corpus.result.units)
    return corpus, [e for e in edges if e.type == EdgeType.REFERENCES], problems, time.perf_counter() - t


def gold_rows(folder: Path = SHARED / "en-adgm") -> list[dict]:
    with open(folder / XREF_NAME, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def match(corpus, edges, rows) -> list[dict]:
    """Each gold row with 'source', 'targets' (unit ids) and 'found' (bool or None: no target)."""
    index = PassageIndex.of(corpus.result.units)
    by_source: dict[str, list[str]] = defaultdict(list)
    for e in edges:
        by_source[e.source].append(e.target)
    below: dict[str, list[str]] = defaultdict(list)           # passage -> its sub-paragraph passages
    for uid in by_source:
        for cut in range(len(uid) - 1, 0, -1):
            if uid[cut] == "." and inside(uid, uid[:cut]):
                below[uid[:cut]].append(uid)
    out = []
    for r in rows:
        src = index.resolve(int(r["SourceDocumentID"]), r["SourcePassageID"], r["SourcePassage"],
                            r["SourceID"])
        sources = [src, *below.get(src, [])] if src else []
        if not r["TargetDocumentID"].strip():
            hit = any(is_placeholder(t) for s in sources for t in by_source.get(s, []))
            out.append({**r, "source": src, "targets": [], "found": None, "placeholder": hit})
            continue
        targets = index.resolve_all(int(r["TargetDocumentID"]), r["TargetPassageID"],
                                    r["TargetPassage"], r["TargetID"])
        found = any(same_provision(t, g) for s in sources for t in by_source.get(s, []) for g in targets)
        out.append({**r, "source": src, "targets": targets, "found": found})
    return out


def handcheck_sample(edges, n: int = 100, seed: int = 7) -> list:
    """The edges checked by hand: `n` drawn uniformly with random.Random(seed) from all
    REFERENCES edges in a fixed order (sorted by source, target, type, evidence)."""
    return random.Random(seed).sample(sorted(edges, key=lambda e: e.key), n)


def guidance_pairs(edges, path: Path = GUIDANCE) -> dict | None:
    """The guidance notes' own-paragraph citations: right target present, wrong one absent."""
    if not path.is_file():
        return None
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    have = {(e.source, e.target) for e in edges}
    return {"pairs": len(rows), "right_target": sum((r["source"], r["target"]) in have for r in rows),
            "wrong_target_left": sum((r["source"], r["wrong_target"]) in have for r in rows)}


def precision(edges=(), path: Path = HANDCHECK, seed: int = 7) -> dict | None:
    """Precision from the hand-checked sample (verdict column: correct / wrong), and how many
    of its rows are still in today's sample (if not all, the check is stale: redo it)."""
    if not path.is_file():
        return None
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    correct = sum(r["verdict"] == "correct" for r in rows)
    out = {"checked": len(rows), "correct": correct, "precision": round(correct / len(rows), 4) if rows else None}
    if edges:
        today = {(e.source, e.target) for e in handcheck_sample(edges, len(rows), seed)}
        out["rows_in_current_sample"] = sum((r["source"], r["target"]) in today for r in rows)
    return out


def run(folder: Path = SHARED / "en-adgm") -> dict:
    t = time.perf_counter()
    corpus, edges, problems, link_s = load(folder)
    matched = match(corpus, edges, gold_rows(folder))

    def recall(kind: str | None) -> dict:
        rows = [m for m in matched if m["found"] is not None and (kind is None or m["ReferenceType"] == kind)]
        found = sum(m["found"] for m in rows)
        return {"gold": len(rows), "found": found, "recall": round(found / len(rows), 4) if rows else None}

    outsource = [m for m in matched if m["found"] is None]
    placeholders = sum(is_placeholder(e.target) for e in edges)
    resolved = sum(e.resolved for e in edges)
    return {
        "corpus": "en-adgm", "matching": "source = gold source or its sub-paragraph passage; target "
                                         "= gold target up to sub-paragraph segments (same provision)",
        "overall": recall(None), "internal": recall("Internal"), "external": recall("External"),
        "outsource": {"gold": len(outsource), "with_placeholder_edge": sum(m["placeholder"] for m in outsource)},
        "edges": len(edges), "resolved": resolved, "resolved_fraction": round(resolved / len(edges), 4),
        "placeholders": placeholders, "unresolved_in_workspace": len(edges) - resolved - placeholders,
        "self_citations_dropped": sum("cites itself" in p.reason for p in problems),
        "precision_hand_checked": precision(edges),
        "precision_hand_checked_seed19": precision(edges, HANDCHECKS[19], 19),
        "guidance_own_paragraphs": guidance_pairs(edges),
        "seconds": {"link": round(link_s, 1), "total": round(time.perf_counter() - t, 1)},
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=1))

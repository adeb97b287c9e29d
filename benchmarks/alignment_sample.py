"""Draw the 20 version-alignment pairs that were checked by hand (benchmarks/handcheck/
version_alignment.csv): 12 from zh-food-safety 2009 -> 2015, 8 from zh-pig-slaughter 2016 -> 2021,
non-identical pairs only, random.Random(3). Prints them for reading; the verdicts in the CSV
were written by a person reading both texts.

    .venv/bin/python benchmarks/alignment_sample.py            # the 20 pairs of the hand check
    .venv/bin/python benchmarks/alignment_sample.py --formal   # changes of form only, per corpus,
                                                               # and the 10 formal pairs of the CSV
                                                               # -> benchmarks/results/alignment_formal.json
    .venv/bin/python benchmarks/alignment_sample.py --parts    # merged / split candidates (share >= 0.5)
                                                               # of the zh and zh2 retrieval workspaces
                                                               # (benchmarks/retrieval.py builds them), as
                                                               # the rows of handcheck/version_parts.csv"""
from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared" / "corpora"


def sample():
    from workbench.parse.detect import load_corpus
    from workbench.link.versions import align
    rng, out, by = random.Random(3), [], {}
    for corpus, old, new, n in (("zh-food-safety", "food-safety-law@2009", "food-safety-law@2015", 12),
                                ("zh-pig-slaughter", "pig-slaughter-regulation@2016",
                                 "pig-slaughter-regulation@2021", 8)):
        units = load_corpus(SHARED / corpus).result.units
        by.update({u.id: u for u in units})
        arts = lambda d: [u for u in units if u.kind == "article" and u.id.startswith(d + "/")]  # noqa: E731
        changes = [c for c in align(arts(old), arts(new)) if c.old and c.new
                   and c.status not in ("inherited", "merged", "split")]     # one-to-one pairs, as drawn
        out += rng.sample(changes, n)
    return out, by


if __name__ == "__main__" and "--formal" not in sys.argv and "--parts" not in sys.argv:
    changes, by = sample()
    for c in changes:
        print(f"## {c.status} {c.old} -> {c.new} {c.similarity:.2f}")
        print("  OLD:", by[c.old].text[:200].replace("\n", " "))
        print("  NEW:", by[c.new].text[:200].replace("\n", " "))


def formal_changes(corpora=("zh-lawrefbook", "zh-food-safety", "zh-pig-slaughter", "zh-animal-quarantine",
                            "vi-phapdien-yte"), n: int = 10, seed: int = 7) -> dict:
    """Per corpus, version-alignment edges by type and how many are changes of form only
    (INHERITS with formal_change = true: AMENDS before normalised diffs); and `n` of those
    pairs drawn with random.Random(seed) for reading (the 10 formal rows of the CSV)."""
    from workbench.parse.detect import load_corpus
    from workbench.link.versions import ALIGN_EXTRACTOR, align_corpus
    out, pool = {}, []
    for corpus in corpora:
        units = load_corpus(SHARED / corpus).result.units
        edges, _ = align_corpus(units)
        edges = [e for e in edges if e.extractor == ALIGN_EXTRACTOR]    # one-to-one (no merges / splits)
        formal = [e for e in edges if dict(e.attrs).get("formal_change")]
        out[corpus] = {"INHERITS": sum(e.type.value == "INHERITS" for e in edges),
                       "AMENDS": sum(e.type.value == "AMENDS" for e in edges), "formal_change": len(formal)}
        pool += formal if corpus == corpora[0] else []
    return {"counts": out, "sample": [(e.target, e.source, dict(e.attrs)["inserted"], dict(e.attrs)["deleted"])
                                      for e in random.Random(seed).sample(pool, min(n, len(pool)))]}


if __name__ == "__main__" and "--formal" in sys.argv:
    import json
    result = formal_changes()
    out = ROOT / "benchmarks" / "results" / "alignment_formal.json"
    out.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    print(json.dumps(result["counts"], ensure_ascii=False, indent=1), f"\nresults: {out}")
    for old, new, ins, dels in result["sample"]:
        print(f"{old} -> {new}\n   inserted: {ins[:80]}\n   deleted:  {dels[:80]}")


def part_candidates(workspaces=("zh2", "zh"), floor: float = 0.5) -> list[dict]:
    """Merged / split article pairs (link/versions.parts) between consecutive versions in the
    retrieval workspaces' corpora, at a share of `floor` or more (below the PART threshold, so
    that the sheet shows what the threshold keeps out); aligned without embeddings; each pair once."""
    import datetime as dt
    from itertools import groupby
    from workbench.core.records import Filter
    from workbench.link import versions
    from workbench.workbench import Workbench
    versions.PART, rows, seen = floor, [], set()
    for name in workspaces:
        wb = Workbench.open(ROOT / "benchmarks" / "workspace-retrieval" / name, create=False)
        arts: dict[str, list] = {}
        for u in wb.store.where(Filter(kinds=("article",))):
            arts.setdefault(f"{u.key}@{u.version}", []).append(u)
        docs = sorted(wb.store.where(Filter(kinds=("document",))),
                      key=lambda d: (d.key, d.effective_from or dt.date.min, d.version))
        for _, group in groupby(docs, key=lambda d: d.key):
            vs = list(group)
            for older, newer in zip(vs, vs[1:]):
                old, new = arts.get(older.id, []), arts.get(newer.id, [])
                text = {u.id: u.text for u in old + new}
                for c in versions.align(old, new):
                    if c.status in versions.PART_STATUS and (c.old, c.new) not in seen:
                        seen.add((c.old, c.new))
                        rows.append({"status": c.status, "old": c.old, "new": c.new, "share": c.similarity,
                                     "old_text": text[c.old][:300], "new_text": text[c.new][:300]})
    return rows


if __name__ == "__main__" and "--parts" in sys.argv:
    import csv
    w = csv.DictWriter(sys.stdout, ["status", "old", "new", "share", "old_text", "new_text"])
    w.writeheader()
    w.writerows(part_candidates())

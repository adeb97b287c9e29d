"""Draw the 20 version-alignment pairs that were checked by hand (benchmarks/handcheck/
version_alignment.csv): 12 from zh-food-safety 2009 -> 2015, 8 from zh-pig-slaughter 2016 -> 2021,
non-identical pairs only, random.Random(3). Prints them for reading; the verdicts in the CSV
were written by a person reading both texts."""
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
        changes = [c for c in align(arts(old), arts(new)) if c.old and c.new and c.status != "inherited"]
        out += rng.sample(changes, n)
    return out, by


if __name__ == "__main__":
    changes, by = sample()
    for c in changes:
        print(f"## {c.status} {c.old} -> {c.new} {c.similarity:.2f}")
        print("  OLD:", by[c.old].text[:200].replace("\n", " "))
        print("  NEW:", by[c.new].text[:200].replace("\n", " "))

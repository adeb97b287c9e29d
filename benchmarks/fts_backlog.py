"""What a backlog of rows outside the full-text index does to BM25 scores (store/lance.py FOLD_SHARE).

LanceDB searches rows added after the FTS index was built by a flat scan beside the index; the
scan scores with statistics of its own. This builds one table of N random texts indexed whole and
one indexed on the first N*(1-share) rows with the rest added after, runs the same queries on both
and reports the largest relative score difference and whether the top-10 set differs (row order
among equal scores is left aside: it differs between any two builds), per share —
with the added rows left outside the index (a flat scan) and folded in (`optimize_indices`).

    .venv/bin/python benchmarks/fts_backlog.py [--texts 1200] [--shares 0.01,0.05,0.17]
Result: benchmarks/results/fts_backlog.json
"""
from __future__ import annotations

import argparse
import json
import random
import shutil
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def table(folder: Path, texts: list[str], indexed: int, fold: bool = False):
    import lancedb
    import pyarrow as pa
    from lancedb.index import FTS
    db = lancedb.connect(str(folder))
    t = db.create_table("t", pa.table({"id": list(range(indexed)), "text": texts[:indexed]}))
    t.create_index("text", config=FTS(base_tokenizer="whitespace", with_position=False))
    if indexed < len(texts):
        t.add(pa.table({"id": list(range(indexed, len(texts))), "text": texts[indexed:]}))
        if fold:                                   # what the store did before: fold the rows into the index
            t.to_lance().optimize.optimize_indices()
            t.checkout_latest()
    return t


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--texts", type=int, default=1200)
    ap.add_argument("--shares", default="0.01,0.05,0.17")
    ap.add_argument("--queries", type=int, default=50)
    args = ap.parse_args()
    rng = random.Random(1)
    words = [f"w{i}" for i in range(300)]
    texts = [" ".join(rng.choices(words, k=rng.randint(5, 40))) for _ in range(args.texts)]
    queries = [" ".join(rng.sample(words, rng.randint(1, 3))) for _ in range(args.queries)]
    out = {"texts": args.texts, "queries": len(queries), "shares": {}}
    with tempfile.TemporaryDirectory() as tmp:
        whole = table(Path(tmp) / "whole", texts, len(texts))
        ref = {q: whole.search(q, query_type="fts").limit(10).to_list() for q in queries}
        for share, fold in [(float(x), f) for x in args.shares.split(",") for f in (False, True)]:
            folder = Path(tmp) / f"s{share}{fold}"
            mixed = table(folder, texts, round(len(texts) * (1 - share)), fold)
            worst, changed = 0.0, 0
            for q in queries:
                got = mixed.search(q, query_type="fts").limit(10).to_list()
                a = {r["id"]: r["_score"] for r in ref[q]}
                worst = max([worst] + [abs(r["_score"] - a[r["id"]]) / a[r["id"]] for r in got if r["id"] in a])
                changed += {r["id"] for r in got} != {r["id"] for r in ref[q]}     # order among ties aside
            key = f"{share} {'folded' if fold else 'flat scan'}"
            out["shares"][key] = {"max_relative_score_change": round(worst, 4), "queries_with_another_top10_set": changed}
            shutil.rmtree(folder, ignore_errors=True)
            print(key, out["shares"][key], flush=True)
    res = ROOT / "benchmarks" / "results" / "fts_backlog.json"
    res.write_text(json.dumps(out, indent=1))
    print(f"wrote {res.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

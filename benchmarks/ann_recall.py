"""What the vector index costs in recall and saves in time: IVF-HNSW vs exact search.

For real questions embedded with the workspace's model, the top-k of the store's indexed
search (LanceUnitStore.search_vector, with its refine step) is compared with the exact
(brute-force) top-k under the same pre-filter; both timed through the same call.

    .venv/bin/python benchmarks/ann_recall.py [--workspace benchmarks/workspace-retrieval/obliqa] [--n 200]
Writes benchmarks/results/ann_recall.json.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    from workbench.evaluate.bench_import import obliqa_questions
    from workbench.workbench import Workbench
    ap = argparse.ArgumentParser()
    ap.add_argument("--workspace", default=str(ROOT / "benchmarks" / "workspace-retrieval" / "obliqa"))
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--k", default="10,50")
    args = ap.parse_args()
    wb = Workbench.open(args.workspace)
    if not wb.store.has_vector_index() and not wb.store.index_vectors():      # built only when missing
        print("the workspace is below the index threshold; nothing to compare")
        return 1
    pool = [r["question"] for r in obliqa_questions(ROOT.parent / "shared" / "corpora" / "en-adgm").rows]
    qs = random.Random(5).sample(pool, min(args.n, len(pool)))
    vecs = wb.embedder.embed_queries(qs)
    where = "kind IN ('article', 'passage')"
    out = {"workspace": args.workspace, "questions": len(qs),
           "embedded_units": wb.store.count("embedded = true"), "k": {}}
    for k in (int(x) for x in args.k.split(",")):
        def search(v, exact: bool):
            t = time.perf_counter()
            ids = [h.unit_id for h in wb.store.search_vector(v, k, where, exact=exact)]
            return ids, (time.perf_counter() - t) * 1000
        search(vecs[0], True), search(vecs[0], False)              # warm-up
        rec, t_ann, t_exact, top1 = [], [], [], []
        for v in vecs:
            exact, te = search(v, True)
            ann, ta = search(v, False)
            rec.append(len(set(exact) & set(ann)) / len(exact))
            top1.append(float(exact[:1] == ann[:1]))
            t_exact.append(te)
            t_ann.append(ta)
        out["k"][k] = {"recall_vs_exact": statistics.fmean(rec), "same_top1": statistics.fmean(top1),
                       "exact_p50_ms": statistics.median(t_exact), "ann_p50_ms": statistics.median(t_ann)}
        r = out["k"][k]
        print(f"k={k:<3} recall vs exact {r['recall_vs_exact']:.3f}  same top-1 {r['same_top1']:.3f}  "
              f"exact p50 {r['exact_p50_ms']:.1f} ms  index p50 {r['ann_p50_ms']:.1f} ms")
    path = ROOT / "benchmarks" / "results" / "ann_recall.json"
    path.write_text(json.dumps(out, indent=1), encoding="utf-8")
    print(f"written: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Where the gold of a question naming a rule or instrument lies: the named article, a provision citing it,
another provision of the named instrument, or elsewhere (tuning part only).

    .venv/bin/python benchmarks/named_gold.py WS QUESTIONS LANG
"""
import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import sys, json, collections
from workbench.evaluate.metrics import load_benchmark
from workbench.retrieve.plan import make_plan
from workbench.retrieve.scope import make_scope
from workbench.retrieve.route import load_policies
from workbench.retrieve.seeds import lookup
from workbench.workbench import Workbench
ws, qfile, lang = sys.argv[1], sys.argv[2], sys.argv[3]
wb = Workbench.open(ws, create=False); r = wb.retriever
cfg = wb.config.retrieval
qs = load_benchmark(qfile, "tuning")
idx = r.ref_index()
cnt = collections.Counter()
for q in qs:
    p = make_plan(q.question, lang, r.catalog, r.terms)
    if not (p.keys or p.route.articles):
        continue
    pol = load_policies(cfg.policies)[p.type]
    sc = make_scope(p, pol, r.catalog, cfg.kinds, cfg.as_of)
    direct, _ = lookup(r, p, sc)
    dids = {u.id for u in direct}
    keys = set(sc.keys)
    kinds = []
    for g in q.gold:
        key = g.split("@")[0]
        cites = {t for _, t in idx.get(g, ())}
        k = ("named-article" if g in dids else "cites-named-article" if cites & dids else
             "in-named-instrument" if key in keys else "cites-named-instrument" if any(t.split("@")[0] in keys for t in cites)
             else "other")
        kinds.append(k)
    grp = ("rule" if p.route.articles else "-") + "/" + ("book" if keys else "-") + ("/direct" if dids else "")
    for k in kinds:
        cnt[(grp, k)] += 1
for k, v in sorted(cnt.items()):
    print(k, v)

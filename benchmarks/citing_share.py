"""Graph mode on the tuning questions that name a rule or instrument, for several shares of Weights.citing.

    .venv/bin/python benchmarks/citing_share.py WS QUESTIONS LANG 0,0.5,1.0
"""
import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import sys, json
from dataclasses import replace
from workbench.evaluate.metrics import load_benchmark, score_question
from workbench.retrieve.plan import make_plan
from workbench.core.config import Weights
from workbench.workbench import Workbench
ws, qfile, lang = sys.argv[1], sys.argv[2], sys.argv[3]
shares = [float(x) for x in sys.argv[4].split(",")]
wb = Workbench.open(ws, create=False); r = wb.retriever
qs = [q for q in load_benchmark(qfile, "tuning")]
sel = [q for q in qs if (lambda p: p.keys or p.route.articles)(make_plan(q.question, lang, r.catalog, r.terms))]
print(len(sel), "of", len(qs), "name something")
base = wb.config.retrieval
for sh in shares:
    cfg = replace(base, mode="graph", weights=replace(Weights(), citing=sh), weights_set=("citing",))
    tot = {"mrr": 0, "recall@10": 0, "citation_f1": 0}
    for q in sel:
        c = replace(cfg, as_of=q.as_of) if q.as_of else cfg
        res = wb.retrieve(q.question, c)
        s = score_question([h.unit_id for h in res.hits], res.cited, list(q.gold))
        for k in tot: tot[k] += s[k]
    print(sh, {k: round(v / len(sel), 3) for k, v in tot.items()}, flush=True)

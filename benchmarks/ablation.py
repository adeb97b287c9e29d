"""Ablations of graph mode: each component off in turn, on every development set, one table.

Components (RetrievalConfig.ablate): routing (every question takes the precise policy),
direct (no direct article lookup or defined-term seeds), roles (no asked role: no role
bonus, no role-based citing), expansion (no hops along any edge), pairing (no version
pairing, named-version citing, changed-at restriction or change match), change (no change_match: version
comparisons do not prefer the article whose change touches the topic); and each re-rank part that is
not 0 set to 0 (semantic, lexical, proximity, edge, support, direct, current, role, named, phrase,
citing; and within, 0 but for English), held at 0 in every language and question type (weights_set).

    .venv/bin/python benchmarks/ablation.py [--sets zh,zh2,…,zh9,alqac,obliqa,sample] [--per-set 100]
        [--variants 'graph (all on),re-rank citing,re-rank within' --out FILE] [--out ablation.json]
    .venv/bin/python benchmarks/ablation.py --table whole|tuning|validation [--out ablation.json]
Needs the workspaces of benchmarks/retrieval.py. Each set is its whole development set (tuning
and validation parts together), sampled with a fixed stride to at most --per-set questions; every
variant is scored on the whole sample and on its tuning and validation parts apart (only the
tuning part may choose a setting). Result: benchmarks/results/<--out> (written after each set) and
the table of the whole sets; `--table` prints a table of a result file already written and stops.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
WS = ROOT / "benchmarks" / "workspace-retrieval"
SETS = ["zh", *(f"zh{i}" for i in range(2, 15)), "alqac", "obliqa", "sample"]     # every development set, in table order
PARTS = ("routing", "direct", "roles", "expansion", "pairing", "change")
KEYS = ("recall@5", "mrr", "hit@1", "citation_f1")
WEIGHTS = ("semantic", "lexical", "proximity", "edge", "support", "direct", "current", "role", "named", "phrase",
           "citing", "within")


def set_elsewhere(policies=None) -> set[str]:
    """The weights a language or a question type of the policies file sets above 0 (`within`: 0 by default,
    1 for English): ablated too, where the default is 0."""
    from workbench.retrieve.route import language_weights, load_policies
    tables = [*language_weights(policies).values(), *(p.weights for p in load_policies(policies).values())]
    return {k for t in tables for k, v in t.items() if v}


def load(name: str, per_set: int):
    from workbench.evaluate.metrics import load_benchmark
    from retrieval import QUESTIONS
    path = ROOT / "benchmarks/questions" / QUESTIONS[name] if name in QUESTIONS else \
        {"sample": ROOT / "corpora/sample/benchmark.jsonl"}.get(name) or WS / name / f"{name}_questions.jsonl"
    qs = sorted(load_benchmark(path), key=lambda q: q.id)
    return qs[::max(1, len(qs) // per_set)][:per_set]


def variants(base):
    yield "graph (all on)", base
    for p in PARTS:
        yield f"− {p}", replace(base, ablate=(p,))
    w, elsewhere = base.weights, set_elsewhere(base.policies)
    for name in WEIGHTS:
        if getattr(w, name) or name in elsewhere:        # weights_set: 0 holds in every language and type
            yield f"− re-rank {name}", replace(base, weights=replace(w, **{name: 0.0}),
                                               weights_set=tuple(sorted({*base.weights_set, name})))


def main() -> int:
    import workbench.retrieve.retriever as retriever
    from workbench.evaluate.metrics import mean_metrics, score_question, twin_names
    from workbench.workbench import Workbench
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--per-set", type=int, default=300)
    ap.add_argument("--out", help="file name under benchmarks/results (default ablation.json)")
    ap.add_argument("--variants", help="only these variants, comma-separated, each named as in the table without its "
                    "'− ' ('graph (all on),re-rank citing,re-rank within'); needs --out (a subset is no full table)")
    ap.add_argument("--merge", help="result files under benchmarks/results, comma-separated, joined in that order "
                    "into --out (runs split over processes by --sets)")
    ap.add_argument("--table", choices=("whole", "tuning", "validation"),
                    help="print the table of a result file already written (--out) and stop")
    args = ap.parse_args()
    wanted = {v.strip() for v in (args.variants or "").split(",") if v.strip()}
    if args.variants is not None:
        from workbench.core.config import RetrievalConfig
        known = {label.removeprefix("− ") for label, _ in variants(RetrievalConfig(mode="graph"))}
        unknown = sorted(wanted - known)
        problem = (f"{unknown[0]!r} is no variant; give names among {sorted(known)}" if unknown else
                   "name at least one variant" if not wanted else
                   "give --out FILE too (a subset is no full table)" if not args.out else "")
        if problem:
            print(f"ablation.py: --variants {args.variants!r}: {problem}", file=sys.stderr)
            return 2
    if args.merge:
        if not args.out:
            print("ablation.py: --merge needs --out FILE (the joined result)", file=sys.stderr)
            return 2
        joined: dict = {}
        for part in (p.strip() for p in args.merge.split(",") if p.strip()):
            path = ROOT / "benchmarks" / "results" / part
            if not path.is_file():
                print(f"ablation.py: --merge: {path} does not exist; give result files written by --out", file=sys.stderr)
                return 2
            try:
                got = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as e:
                print(f"ablation.py: --merge: {path}: not a result file ({e})", file=sys.stderr)
                return 2
            twice = sorted(set(got) & set(joined))
            if twice:
                print(f"ablation.py: --merge: {path}: set {twice[0]!r} is in an earlier file too; merge runs of "
                      "different sets", file=sys.stderr)
                return 2
            joined.update(got)
        (ROOT / "benchmarks" / "results" / args.out).write_text(json.dumps(joined, indent=1), encoding="utf-8")
        table(joined)
        return 0
    if args.table:
        out = json.loads((ROOT / "benchmarks" / "results" / (args.out or "ablation.json")).read_text(encoding="utf-8"))
        table(out, None if args.table == "whole" else args.table)
        return 0
    missing = [name for name in args.sets.split(",") if not (WS / name / "workspace.json").is_file()]
    if missing:     # checked before any set runs: a long run does not stop at its last set
        print(f"ablation.py: --sets: no workspace for {', '.join(missing)} under {WS}; build it with "
              f"`.venv/bin/python benchmarks/retrieval.py --only {','.join(missing)}` first", file=sys.stderr)
        return 2
    retriever.QUERY_CACHE = 8192
    out, t0 = {}, time.time()
    for name in args.sets.split(","):
        wb = Workbench.open(WS / name, create=False)
        qs = load(name, args.per_set)
        base = replace(wb.config.retrieval, mode="graph")
        names = twin_names(wb)
        out[name] = {"questions": len(qs)}
        for label, cfg in variants(base):
            if wanted and label.removeprefix("− ") not in wanted:
                continue
            rows, parts = [], []
            for q in qs:
                r = wb.retrieve(q.question, replace(cfg, as_of=q.as_of) if q.as_of else cfg)
                rows.append(score_question([h.unit_id for h in r.hits], r.cited, list(q.gold), names=names))
                parts.append(q.split)
            m = mean_metrics(rows)
            out[name][label] = {k: m[k] for k in KEYS}
            for part in ("tuning", "validation"):     # each part on its own: only the tuning part chooses
                mine = [row for row, p in zip(rows, parts) if p == part]
                if mine:
                    mp = mean_metrics(mine)
                    out[name][label][part] = {"n": len(mine), **{k: mp[k] for k in KEYS}}
            print(f"{name} {label}: cit F1 {m['citation_f1']:.3f} MRR {m['mrr']:.3f} ({time.time() - t0:.0f}s)",
                  flush=True)
        result = ROOT / "benchmarks" / "results" / (args.out or "ablation.json")
        result.write_text(json.dumps(out, indent=1), encoding="utf-8")      # after each set
    table(out)
    return 0


def table(out: dict, part: str | None = None) -> None:
    """Markdown: citation F1 / MRR per set and variant (`part`: the tuning or validation part only)."""
    sets = sorted(out, key=lambda s: (SETS.index(s) if s in SETS else len(SETS), s))     # runs merged in any order
    labels = [k for k in out[sets[0]] if k != "questions"]
    cell = lambda m: f"{m['citation_f1']:.3f} / {m['mrr']:.3f}"      # noqa: E731
    size = lambda s: out[s]["graph (all on)"].get(part, {}).get("n", 0) if part else out[s]["questions"]  # noqa: E731
    print(f"\n{part or 'whole sets'}\n| variant | " + " | ".join(f"{s} ({size(s)})" for s in sets) + " |")
    print("|---|" + "---|" * len(sets))
    for label in labels:
        cells = [cell(out[s][label][part] if part else out[s][label])
                 if label in out[s] and (not part or part in out[s][label]) else "—" for s in sets]
        print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    sys.exit(main())

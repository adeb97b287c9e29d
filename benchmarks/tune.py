"""Fit graph-mode parameters on the *tuning* parts of the development sets; never on validation.

Coordinate search: each parameter in turn takes each value of its grid with the others held
at their current best; the best value is kept (a change must beat the current objective by
more than MIN_GAIN). The objective weighs every development set equally (the English set is
not allowed to outvote the others by its size): the mean over sets of
(MRR + citation F1) / 2, on the tuning part of each set (`evaluate.metrics.split_of`). The
larger sets are sampled (every question id sorted, a fixed stride) so one evaluation takes
about two minutes; the sample is fixed across the search.

    .venv/bin/python benchmarks/tune.py [--sets zh,zh2,zh3,zh4,zh5,zh6,alqac,obliqa] [--per-set 200] [--rounds 1]
Needs the workspaces of benchmarks/retrieval.py. Stage 1 searched the settings (`--only sub_lexical,policy.cite_refs,...`, results/tune_stage1.json;
its weight trials were void: weights passed in the RetrievalConfig replaced the per-type ones,
so only its settings were kept), stage 2 the re-rank weights from stage 1's choice
(results/tune_stage2.json), stage 3 `weights.citing` from stage 2's choice
(`--only weights.citing --out benchmarks/results/tune_stage3.json`). Result: the --out file (the
search path, the chosen values, the objective per set); the chosen values are then written
by hand into workbench/core/config.py (Weights, RetrievalConfig) and
workbench/retrieve/policies.toml, and the validation parts are measured by retrieval.py.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
import tomllib
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
WS = ROOT / "benchmarks" / "workspace-retrieval"
MIN_GAIN = 0.002           # a value must beat the current best by this much (noise on ~500 questions)

# parameter -> grid (the first value of each grid is not special: the current default is
# the starting point). weights.* are re-rank weights; policy.* set a field of every
# question type's policy that has it (policy.reasoning.* only that type's).
GRID = {
    # stage 1 (results/tune_stage1.json): retrieval and citing settings
    "sub_lexical": [0.6, 0.8, 1.0],
    "policy.cite_refs": [0.0, 0.7, 0.9],
    "policy.reasoning.cite_margin": [0.2, 0.35, 0.5],
    "unstructured": ["off", "fuse", "flat"],
    # stage 2 (results/tune_stage2.json): the re-rank weights
    "weights.lexical": [0.1, 0.2, 0.35],
    "weights.semantic": [0.35, 0.5, 0.7],
    "weights.support": [0.0, 0.1, 0.2, 0.35, 0.5],     # 0 and 0.1 added in stage 7 (results/tune_stage7.json)
    "weights.direct": [0.5, 1.0, 1.5],
    "weights.proximity": [0.0, 0.1, 0.2],
    "weights.edge": [0.0, 0.05, 0.15],
    "weights.current": [0.0, 0.15, 0.3],
    "weights.role": [0.0, 0.05, 0.15],
    "weights.named": [0.0, 0.25, 0.5, 1.0],
    # stage 3 (results/tune_stage3.json): standing of provisions citing what a question names
    "weights.citing": [0.0, 0.5, 1.0],
    # stage 6 (results/tune_stage6.json): each type's citing margin and the comparison's change bonus
    "policy.precise.cite_margin": [0.05, 0.1, 0.2],
    "policy.temporal.cite_margin": [0.05, 0.1, 0.2],
    "policy.version_diff.cite_margin": [0.06, 0.12, 0.2],
    "policy.version_diff.change_match": [0.0, 0.1, 0.2],
    "policy.reasoning.cite_max": [2, 3, 4],
}


def questions(name: str, per_set: int):
    from workbench.evaluate.metrics import load_benchmark
    from retrieval import QUESTIONS
    path = ROOT / "benchmarks/questions" / QUESTIONS[name] if name in QUESTIONS else WS / name / f"{name}_questions.jsonl"
    qs = sorted(load_benchmark(path, "tuning"), key=lambda q: q.id)
    stride = max(1, len(qs) // per_set)
    return qs[::stride][:per_set]


def policies_file(base: dict, overrides: dict, folder: Path) -> str | None:
    """A policies TOML with `overrides` applied: policy.<field> or policy.<type>.<field> set a
    policy field; weights.<part> changes a re-rank default, as if Weights had that default:
    every type's own weights (policies.toml `weights`, e.g. support = 0 for precise) still win, and
    such a trial value also outranks the per-language weights ([language.en]), which are copied as bundled.
    (Weights passed in RetrievalConfig would replace the per-type ones: the caller's win.)"""
    if not overrides:
        return None
    data = json.loads(json.dumps(base))
    for name, value in overrides.items():
        parts = name.split(".")[1:]
        for qtype, pol in data.items():
            if qtype == "language":     # per-language weights stay as bundled (a type's own weights outrank them)
                continue
            if name.startswith("weights."):
                pol["weights"] = {parts[0]: value, **pol.get("weights", {})}
            elif len(parts) == 1 and parts[0] in pol or len(parts) == 2 and parts[0] == qtype:
                pol[parts[-1]] = value
    lines = []
    for lang, table in data.get("language", {}).items():
        lines.append(f"[language.{lang}]")
        lines += [f"{k} = " + "{ " + ", ".join(f"{a} = {b}" for a, b in v.items()) + " }" for k, v in table.items()]
        lines.append("")
    for qtype, pol in data.items():
        if qtype == "language":
            continue
        lines.append(f"[{qtype}]")
        for k, v in pol.items():
            if isinstance(v, dict):
                v = "{ " + ", ".join(f"{a} = {b}" for a, b in v.items()) + " }"
            elif isinstance(v, str):
                v = json.dumps(v)
            elif isinstance(v, bool):
                v = "true" if v else "false"
            lines.append(f"{k} = {v}")
        lines.append("")
    path = folder / f"policies-{abs(hash(json.dumps(overrides, sort_keys=True)))}.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    return str(path)


def language_policies(folder: Path, language: str):
    """(semantic, lexical[, other weights]) -> a policies file: the bundled one with its
    [language.<language>] table (if any) replaced by that point, written once per point (weights_zh.py, weights_en.py,
    weights_vi.py, kfold_zh.py)."""
    from workbench.retrieve.route import POLICIES
    bundled = Path(POLICIES).read_text(encoding="utf-8")
    table = f"[language.{language}]"
    if table in bundled:
        head, _, rest = bundled.partition(table)
        tail = rest.split("\n[", 1)
        bundled = head + ("[" + tail[1] if len(tail) > 1 else "")

    def path(semantic: float, lexical: float, **more: float) -> str:
        extra = "".join(f", {k} = {v}" for k, v in sorted(more.items()))
        out = folder / f"p-{language}-{semantic}-{lexical}{extra.replace(', ', '-').replace(' = ', '')}.toml"
        if not out.exists():
            out.write_text(bundled.rstrip("\n") +
                           f"\n\n{table}\nweights = {{ semantic = {semantic}, lexical = {lexical}{extra} }}\n",
                           encoding="utf-8")
        return str(out)
    return path


def weight_grid(run, semantic: tuple, lexical: tuple, base: tuple[float, float], validation: bool) -> dict:
    """A semantic x lexical grid of one language's re-rank weights (weights_zh.py, weights_vi.py):
    `run(split, (semantic, lexical))` -> metrics with an "objective"; every point on the tuning
    part; the best kept only if it beats `base` (the shared weights) by more than MIN_GAIN; then,
    with `validation`, the shared and the chosen points once on the validation part."""
    result = {"grid": []}
    for sem in semantic:
        for lex in lexical:
            got = run("tuning", (sem, lex))
            result["grid"].append({"semantic": sem, "lexical": lex, **got})
            print(sem, lex, got["objective"], flush=True)
    at_base = next(g for g in result["grid"] if (g["semantic"], g["lexical"]) == base)
    best = max(result["grid"], key=lambda g: g["objective"])
    keep = best["objective"] > at_base["objective"] + MIN_GAIN
    result["chosen"] = {"semantic": best["semantic"], "lexical": best["lexical"]} if keep else None
    if validation:
        result["validation"] = {"shared": run("validation", base)}
        if keep:
            result["validation"]["chosen"] = run("validation", (best["semantic"], best["lexical"]))
    print(json.dumps({k: v for k, v in result.items() if k != "grid"}, indent=1))
    return result


def config_for(base, values: dict, base_policies: dict, folder: Path):
    from workbench.core.config import Weights
    top = {k: v for k, v in values.items() if "." not in k}
    pol = {k: v for k, v in values.items() if k.startswith(("policy.", "weights.")) and v != _default(k)}
    return replace(base, mode="graph", weights=Weights(), **top, policies=policies_file(base_policies, pol, folder))


def _default(name: str):
    from workbench.core.config import Weights
    return getattr(Weights(), name.split(".", 1)[1]) if name.startswith("weights.") else object()


def objective(m: dict[str, float]) -> float:
    """What the tuning scripts maximise for a question or a set: (MRR + citation F1) / 2."""
    return (m["mrr"] + m["citation_f1"]) / 2


def score_questions(wb, questions, cfg) -> list[dict[str, float]]:
    """Graph retrieval of each question under `cfg` (at the question's date, if any): its
    metrics (score_question), in the order of `questions`."""
    from workbench.evaluate.metrics import score_question, twin_names
    if str(wb.path) not in _TWINS:
        _TWINS[str(wb.path)] = twin_names(wb)
    rows = []
    for q in questions:
        r = wb.retrieve(q.question, replace(cfg, as_of=q.as_of) if q.as_of else cfg)
        rows.append(score_question([h.unit_id for h in r.hits], r.cited, list(q.gold), names=_TWINS[str(wb.path)]))
    return rows


_TWINS: dict[str, dict[str, str]] = {}     # twin_names of each workspace, by its path


def score_set(wb, questions, cfg, keys) -> dict[str, float]:
    """The mean of each metric in `keys` over `score_questions`, rounded to 4 places."""
    rows = score_questions(wb, questions, cfg)
    return {k: round(sum(x[k] for x in rows) / len(rows), 4) for k in keys}


def evaluate(benches: dict, cfg) -> dict[str, float]:
    out = {}
    for name, (wb, qs) in benches.items():
        got = score_set(wb, qs, cfg, ("mrr", "citation_f1"))
        out[name] = objective(got)
    return out


def main() -> int:
    import workbench.retrieve.retriever as retriever
    from workbench.workbench import Workbench
    from workbench.retrieve.route import POLICIES
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", default="zh,zh2,zh3,alqac,obliqa")
    ap.add_argument("--per-set", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--only", help="comma-separated parameters to search (default: all of GRID)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "tune.json"))
    args = ap.parse_args()
    retriever.QUERY_CACHE = 8192           # every question and topic vector kept across the search
    folder = WS / "tune"
    folder.mkdir(parents=True, exist_ok=True)
    benches = {}
    for name in args.sets.split(","):
        wb = Workbench.open(WS / name, create=False)
        benches[name] = (wb, questions(name, args.per_set))
        print(f"{name}: {len(benches[name][1])} tuning questions", flush=True)
    base = next(iter(benches.values()))[0].config.retrieval
    base_policies = tomllib.loads(POLICIES.read_text(encoding="utf-8"))
    from workbench.core.config import Weights
    current = {}
    for k in GRID:
        if k.startswith("weights."):
            current[k] = getattr(Weights(), k.split(".", 1)[1])
        elif k.startswith("policy."):
            parts = k.split(".")[1:]
            pol = base_policies[parts[0]] if len(parts) == 2 else base_policies["precise"]
            current[k] = pol.get(parts[-1], 0.0)
        else:
            current[k] = getattr(base, k)
    params = args.only.split(",") if args.only else list(GRID)
    t0 = time.time()
    per_set = evaluate(benches, config_for(base, current, base_policies, folder))
    best = sum(per_set.values()) / len(per_set)
    path = [{"values": dict(current), "per_set": per_set, "objective": best, "kept": True}]
    print(f"start {best:.4f} {per_set}", flush=True)
    for _ in range(args.rounds):
        for k in params:
            for v in GRID[k]:
                if v == current[k]:
                    continue
                trial = dict(current, **{k: v})
                per_set = evaluate(benches, config_for(base, trial, base_policies, folder))
                obj = sum(per_set.values()) / len(per_set)
                kept = obj > best + MIN_GAIN
                path.append({"values": trial, "per_set": per_set, "objective": obj, "kept": kept})
                print(f"{k}={v}: {obj:.4f} {'KEPT' if kept else ''} {per_set} ({time.time() - t0:.0f}s)", flush=True)
                if kept:
                    best, current = obj, trial
    result = {"objective": "mean over sets of (MRR + citation F1) / 2, tuning parts",
              "sets": {n: len(qs) for n, (_, qs) in benches.items()}, "min_gain": MIN_GAIN,
              "chosen": current, "best": best, "path": path, "seconds": round(time.time() - t0)}
    Path(args.out).write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    print(json.dumps({"chosen": current, "best": best}, ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

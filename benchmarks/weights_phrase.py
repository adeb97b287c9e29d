"""The phrase weight of the re-rank (retrieve/phrases.py) by language: a grid on tuning parts only,
graph mode, objective tune.py's ((MRR + citation F1) / 2), every other weight held.

- zh: `Weights.phrase` (workbench/core/config.py) over the tuning parts of the twelve zh
  version-aware sets, each set weighing as much as the others;
- en: `phrase` of [language.en] (policies.toml) over the ObliQA tuning part;
- vi: `phrase` of [language.vi] over the ALQAC tuning part.

A value is adopted only if it beats the best value before it in the grid by more than tune.py's MIN_GAIN
(0 is the form without the phrase part). With --validation, 0 and the best value once on the
validation parts.

    .venv/bin/python benchmarks/weights_phrase.py [--languages zh,en,vi] [--validation]
Needs the workspaces of benchmarks/retrieval.py. Result: benchmarks/results/weights_phrase.json.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from tune import MIN_GAIN, language_policies, objective, score_set  # noqa: E402
WS = ROOT / "benchmarks" / "workspace-retrieval"
QUESTIONS = ROOT / "benchmarks" / "questions"
ZH_SETS = ["zh"] + [f"zh{i}" for i in range(2, 13)]
GRID = {"zh": (0.0, 0.15, 0.3, 0.5), "en": (0.0, 0.3, 0.6, 1.0), "vi": (0.0, 0.15, 0.3, 0.6, 1.0, 1.5)}
KEYS = ("recall@5", "recall@10", "mrr", "hit@1", "citation_f1")


def benches(language: str) -> dict[str, tuple[Path, Path]]:
    """set name -> (workspace, questions file)."""
    if language == "zh":
        return {s: (WS / s, QUESTIONS / ("zh_versions.jsonl" if s == "zh" else f"zh_versions_{s[2:]}.jsonl"))
                for s in ZH_SETS}
    name = {"en": "obliqa", "vi": "alqac"}[language]
    return {name: (WS / name, WS / name / f"{name}_questions.jsonl")}


def main() -> int:
    from workbench.core.config import RetrievalConfig, Weights
    from workbench.evaluate.metrics import load_benchmark
    from workbench.retrieve.route import language_weights
    from workbench.workbench import Workbench
    ap = argparse.ArgumentParser()
    ap.add_argument("--languages", default="zh,en,vi")
    ap.add_argument("--validation", action="store_true", help="also run 0 and the chosen value on the validation parts")
    args = ap.parse_args()
    out_path = ROOT / "benchmarks" / "results" / "weights_phrase.json"
    result = json.loads(out_path.read_text(encoding="utf-8")) if out_path.exists() else {}
    folder = Path(tempfile.mkdtemp())
    # the other weights of each language's table in the bundled policies.toml, held while the phrase weight moves
    held = {lang: {k: v for k, v in w.items() if k != "phrase"} for lang, w in language_weights().items()}
    for language in args.languages.split(","):
        sets = {name: (Workbench.open(ws, create=False), qf) for name, (ws, qf) in benches(language).items()}
        policies = language_policies(folder, language) if language in held else None

        def config(value: float) -> RetrievalConfig:
            if policies is None:
                return RetrievalConfig(mode="graph", weights=Weights(phrase=value))
            return RetrievalConfig(mode="graph", policies=policies(**held[language], phrase=value))

        def run(split: str, value: float) -> dict:
            per_set = {name: score_set(wb, load_benchmark(qf, split=split), config(value), KEYS)
                       for name, (wb, qf) in sets.items()}
            mean = {k: round(sum(m[k] for m in per_set.values()) / len(per_set), 4) for k in KEYS}
            return {**mean, "objective": round(objective(mean), 4), "sets": per_set}

        grid = []
        for value in GRID[language]:
            got = run("tuning", value)
            grid.append({"phrase": value, **got})
            print(language, value, got["objective"], flush=True)
        chosen = grid[0]
        for point in grid[1:]:
            if point["objective"] > chosen["objective"] + MIN_GAIN:
                chosen = point
        entry = {"grid": grid, "chosen": chosen["phrase"]}
        if args.validation:
            entry["validation"] = {str(v): run("validation", v) for v in dict.fromkeys((0.0, chosen["phrase"]))}
        result[language] = entry
        print(language, "chosen", chosen["phrase"], flush=True)
        out_path.write_text(json.dumps(result, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

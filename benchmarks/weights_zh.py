"""The Chinese re-rank weights ([language.zh] in workbench/retrieve/policies.toml): a grid of the
semantic and lexical weights on the tuning parts of the three zh version-aware sets, graph mode;
the objective is tune.py's (the mean over sets of (MRR + citation F1) / 2, each set weighing the
same); a point is adopted only if it beats the shared weights by more than tune.py's MIN_GAIN.
Then the shared and the chosen weights once on the validation parts.

    .venv/bin/python benchmarks/weights_zh.py [--validation]
Needs the zh, zh2 and zh3 workspaces of benchmarks/retrieval.py. Each point is run with a
policies file whose [language.zh] table holds that point (the type's own weights still apply).
Result: benchmarks/results/weights_zh.json.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
WS = ROOT / "benchmarks" / "workspace-retrieval"
sys.path.insert(0, str(ROOT / "benchmarks"))
from retrieval import QUESTIONS  # noqa: E402
from tune import language_policies, objective, score_set, weight_grid  # noqa: E402
SETS = {name: QUESTIONS[name] for name in ("zh", "zh2", "zh3")}
SEMANTIC, LEXICAL = (0.5, 0.35, 0.2), (0.2, 0.3, 0.4)
KEYS = ("recall@5", "mrr", "hit@1", "citation_f1")


def shared() -> tuple[float, float]:
    """The Weights() defaults: what zh questions get without a [language.zh] table."""
    from workbench.core.config import Weights
    return Weights().semantic, Weights().lexical


def main() -> int:
    from workbench.core.config import RetrievalConfig
    from workbench.evaluate.metrics import load_benchmark
    from workbench.workbench import Workbench
    ap = argparse.ArgumentParser()
    ap.add_argument("--validation", action="store_true", help="also run the shared and chosen points on the validation parts")
    args = ap.parse_args()
    policies = language_policies(Path(tempfile.mkdtemp()), "zh")
    benches = {name: Workbench.open(WS / name, create=False) for name in SETS}
    base = shared()

    def run(split: str, point: tuple[float, float]) -> dict:
        out = {}
        for name, wb in benches.items():
            out[name] = score_set(wb, load_benchmark(ROOT / "benchmarks" / "questions" / SETS[name], split=split),
                                  RetrievalConfig(mode="graph", policies=policies(*point)), KEYS)
        out["objective"] = round(sum(objective(v) for v in out.values()) / len(benches), 4)
        return out

    result = weight_grid(run, SEMANTIC, LEXICAL, base, args.validation)
    (ROOT / "benchmarks" / "results" / "weights_zh.json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

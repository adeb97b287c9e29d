"""The Vietnamese re-rank weights ([language.vi] in workbench/retrieve/policies.toml): a grid of
the semantic and lexical weights on the ALQAC (2022 + 2023 train) tuning part, graph mode; the
objective is tune.py's ((MRR + citation F1) / 2); a point is adopted only if it beats the shared
weights by more than tune.py's MIN_GAIN. Then the shared and the chosen weights once on the
validation part. (tune.py's coordinate search, which moves one weight for every language at
once, found lexical 0.35 better than 0.2 only through ALQAC: the zh sets were flat or lower.)

    .venv/bin/python benchmarks/weights_vi.py [--validation]
Needs the ALQAC workspace of benchmarks/retrieval.py. Each point is run with a policies file
whose [language.vi] table holds that point (the type's own weights still apply).
Result: benchmarks/results/weights_vi.json.
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
from tune import language_policies, objective, score_set, weight_grid  # noqa: E402
WS = ROOT / "benchmarks" / "workspace-retrieval" / "alqac"
SEMANTIC, LEXICAL = (0.5, 0.35), (0.2, 0.35, 0.5, 0.7, 1.0, 1.5)
KEYS = ("recall@5", "recall@10", "mrr", "hit@1", "citation_f1")


def main() -> int:
    from workbench.core.config import RetrievalConfig, Weights
    from workbench.evaluate.metrics import load_benchmark
    from workbench.workbench import Workbench
    ap = argparse.ArgumentParser()
    ap.add_argument("--validation", action="store_true", help="also run the shared and chosen points on the validation part")
    args = ap.parse_args()
    wb = Workbench.open(WS, create=False)
    policies = language_policies(Path(tempfile.mkdtemp()), "vi")
    base = (Weights().semantic, Weights().lexical)

    def run(split: str, point: tuple[float, float]) -> dict:
        out = score_set(wb, load_benchmark(WS / "alqac_questions.jsonl", split=split),
                        RetrievalConfig(mode="graph", policies=policies(*point)), KEYS)
        out["objective"] = round(objective(out), 4)
        return out

    result = weight_grid(run, SEMANTIC, LEXICAL, base, args.validation)
    (ROOT / "benchmarks" / "results" / "weights_vi.json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

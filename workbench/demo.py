"""The end-to-end demo on the bundled sample corpus: ingest, ask, show evidence, write figures."""
from __future__ import annotations

from pathlib import Path

from .config import Config, IngestConfig
from .views import evidence_figure, workspace_figure
from .workbench import Workbench

SAMPLE = Path(__file__).resolve().parents[1] / "corpora" / "sample"
QUESTIONS = [
    "What is the penalty for breaching the duty to keep patient records?",
    "诊所执业许可证的有效期是多久？",
]


def run_demo(workspace: str | Path = "workspace-demo", figures: str | Path = "figures",
             sample: Path = SAMPLE, k: int = 5) -> int:
    wb = Workbench.open(workspace, Config(IngestConfig(progress=True)))
    print(f"== ingest into {wb.path} (embedder {wb.embedder.name})")
    for corpus in (sample, sample / "zh"):
        report = wb.ingest(corpus)
        print("  " + report.summary())
        for p in report.problems[:5]:
            print(f"    {p}")
    figs = [workspace_figure(wb.info(), Path(figures) / "demo_workspace.png")]
    for n, question in enumerate(QUESTIONS, 1):
        print(f"\n== question: {question}")
        results = {}
        for mode in ("bm25", "dense"):
            hits = wb.search(question, mode, k, where="kind IN ('article', 'clause', 'point', 'passage')")
            results[mode] = hits
            print(f"  -- top {k} evidence, {mode}")
            for rank, h in enumerate(hits, 1):
                u = h.unit
                dates = f"{u.effective_from or '?'}..{u.effective_to or ''}"
                print(f"  {rank}. {h.score:7.3f}  {h.unit_id:<38} [{dates}]  {' '.join(u.text.split())[:70]}")
        figs.append(evidence_figure(question, results, Path(figures) / f"demo_evidence_{n}.png"))
    print("\n== figures: " + ", ".join(str(f) for f in figs))
    print("Answers with citations and graph-expanded evidence are not built yet (see the README).")
    return 0

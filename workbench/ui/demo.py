"""The end-to-end demo on the bundled sample corpus: ingest, ask, show evidence, write figures."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..core.config import Config, IngestConfig
from ..evaluate.metrics import load_benchmark, run_eval, table
from ..answer.ask import print_answer
from .views import evidence_figure, metrics_figure, save, workspace_figure
from ..workbench import Workbench

SAMPLE = Path(__file__).resolve().parents[2] / "corpora" / "sample"
QUESTIONS = [
    "What is the penalty for breaching the duty to keep patient records?",
    "Which licence validity period applied on 15 December 2018?",
    "2018年诊所许可法与2012年相比，许可证有效期有什么变化？",
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
    figs = [save(workspace_figure(wb.info()), Path(figures) / "demo_workspace.png")]
    base = replace(wb.config.retrieval, top_k=k)
    for n, question in enumerate(QUESTIONS, 1):
        print(f"\n== question: {question}")
        results = {}
        for mode in ("bm25", "graph"):
            result = wb.retrieve(question, replace(base, mode=mode))
            results[mode] = result.hits
            head = f"  -- {mode}"
            if result.route:
                head += f" (routed as {result.route.type}" + (f", as of {result.route.as_of}" if result.route.as_of else "") + ")"
            print(head)
            for rank, h in enumerate(result.hits, 1):
                u = h.unit
                mark = "*" if h.unit_id in result.cited else " "
                print(f"  {mark}{rank}. {h.score:6.3f}  {h.unit_id:<36} [{u.effective_from or '?'}..{u.effective_to or ''}]"
                      f"  {' '.join(u.text.split())[:60]}")
                if mode == "graph" and h.via.kind not in ("seed", "candidate"):
                    print(f"        why: {h.via}")
        figs.append(save(evidence_figure(question, results), Path(figures) / f"demo_evidence_{n}.png"))
        print("  (* = the evidence the system would cite)\n")
        # the first question goes through the configured backends (Ollama if it runs with a capable
        # model, else extractive; the bundled tiny model only when asked for); the others are
        # answered extractively, which needs no model
        print_answer(wb.ask(question, replace(base, mode="graph"), None if n == 1 else "extractive"))
    print("\n== the sample benchmark, every system on the same 24 questions")
    summary = run_eval(wb, load_benchmark(sample / "benchmark.jsonl"), ["bm25", "dense", "hybrid", "graph"],
                       "sample", progress=False).summary()
    print(table(summary, ("recall@5", "mrr", "hit@1", "citation_f1")))
    figs.append(save(metrics_figure(summary), Path(figures) / "demo_eval_sample.png"))
    print("\n== figures: " + ", ".join(str(f) for f in figs))
    return 0

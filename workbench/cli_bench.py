"""CLI commands over benchmarks: `eval` (retrieval systems side by side on a benchmark),
`failures` and `compare` (reading its result files: where a system loses, what changed between two runs),
`import-benchmark` (ALQAC or ObliQA questions to the evaluation JSONL) and
`generate-benchmark` (multi-hop questions from paths in the graph). `open_workspace(args)`
is cli.py's: the --workspace of the command."""
from __future__ import annotations

import sys
from pathlib import Path

from .core.errors import WorkbenchError


def add_parsers(sub, default_ws: str, positive) -> None:
    """`eval` and `import-benchmark` (`generate-benchmark` comes later in the list: add_generate_parser)."""
    s = sub.add_parser("eval", help="run retrieval systems side by side on a benchmark (JSONL)")
    s.add_argument("benchmark")
    s.add_argument("--systems", default="bm25,dense,hybrid,graph")
    s.add_argument("--workspace", default=default_ws)
    s.add_argument("--json", help="write the full results (metrics, categories, tests) here")
    s.add_argument("--figure", help="figure path (default figures/eval_<benchmark>.png)")
    s.add_argument("--match", choices=["article", "exact"], default="article",
                   help="compare ids at article level (default) or exactly")
    s.add_argument("--limit", type=positive, help="only the first N questions")
    s.add_argument("--split", choices=["tuning", "validation"], help="only the tuning or the validation part "
                   "of a development set (by question id; default: both, reported side by side)")

    s = sub.add_parser("failures", help="where a system loses on a benchmark: per category, questions by kind of "
                       "failure (missed, wrong first, one too many / few) and the citation F1 lost")
    s.add_argument("results", nargs="+", metavar="RESULT", help="result files written by `workbench eval --json` "
                   "(several: their questions counted together)")
    _reading_args(s)
    s.add_argument("--list", action="store_true", help="also list the question ids of each kind")

    s = sub.add_parser("compare", help="two runs of one benchmark, question by question: means with paired "
                       "Wilcoxon tests, and the questions that moved")
    s.add_argument("before", help="a result file written by `workbench eval --json`")
    s.add_argument("after", help="another, of the same benchmark")
    _reading_args(s)

    s = sub.add_parser("import-benchmark", help="convert ALQAC or ObliQA questions to the evaluation JSONL")
    s.add_argument("format", choices=["alqac", "obliqa"])
    s.add_argument("path", help="a question file (ALQAC question / train / test, ObliQA train / dev / test) or a "
                   "folder holding them")
    s.add_argument("--out", required=True)
    s.add_argument("--laws", help="ALQAC: the laws folder (default: found beside or above PATH)")
    s.add_argument("--rulebooks", help="ObliQA: the folder or zip of the rulebooks (default: beside PATH)")
    s.add_argument("--problems", type=int, default=20, help="how many unmapped questions to list (default 20)")


def _reading_args(s) -> None:
    s.add_argument("--system", default="graph", help="the system to read (default graph)")
    s.add_argument("--split", choices=["tuning", "validation"], help="only the tuning or the validation part")


def add_generate_parser(sub, default_ws: str, positive) -> None:
    s = sub.add_parser("generate-benchmark", help="multi-hop questions from paths in the graph (JSONL for eval)")
    s.add_argument("--workspace", default=default_ws)
    s.add_argument("--corpus", nargs="+", action="extend", metavar="NAME", help="only these corpora (default: all)")
    s.add_argument("--max", type=positive, default=300, help="at most N questions (default 300)")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--out", default="benchmarks/questions/generated.jsonl")
    s.add_argument("--llm", metavar="BACKEND", help="ollama[:model] | llamacpp[:file.gguf]: reword each template "
                   "question and keep the rewording only if the model judges every gold unit needed")


def cmd_eval(args, open_workspace) -> int:
    from .evaluate.metrics import (SYSTEMS, category_table, dumps, load_benchmark, missing_gold_warning, run_eval,
                                   split_table, table, tests_table)
    from .ui.views import metrics_figure, save
    systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    unknown = [s for s in systems if s not in SYSTEMS]
    if unknown or not systems:
        raise WorkbenchError(f"--systems {args.systems!r}: unknown {', '.join(unknown) or 'empty list'}; "
                             f"choose from {', '.join(SYSTEMS)}")
    wb = open_workspace(args)
    questions = load_benchmark(args.benchmark, args.split)[:args.limit]
    if warning := missing_gold_warning(questions, wb.store.ids(), args.workspace):   # they can only score 0
        print(warning, file=sys.stderr, flush=True)
    summary = run_eval(wb, questions, systems, Path(args.benchmark).stem, args.match).summary()
    print(table(summary), end="\n\n")
    print(category_table(summary, "recall@5"))
    if len(summary["splits"]) > 1:
        print("\n" + split_table(summary))
    best = "graph" if "graph" in systems else systems[-1]
    if len(systems) > 1:
        print("\n" + tests_table(summary, best))
    figure = save(metrics_figure(summary), args.figure or Path("figures") / f"eval_{Path(args.benchmark).stem}.png")
    print(f"\nfigure: {figure}")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(dumps(summary), encoding="utf-8")
        print(f"results: {args.json}")
    return 0


def cmd_failures(args) -> int:
    from .evaluate.diagnose import KINDS, failures, failures_table, join, load_result
    found = []
    for path in args.results:
        result = load_result(path)
        _warn_stale(path, result)
        found.append(failures(result, args.system, args.split, path))
    found = join(found)
    print(failures_table(found))
    if args.list:
        for cat, cells in sorted(found.items()):
            for kind in KINDS[1:]:
                if kind in cells:
                    print(f"\n{cat}, {kind}: " + " ".join(cells[kind]["ids"]))
    return 0


def cmd_compare(args) -> int:
    from .evaluate.diagnose import compare, compare_table, load_result
    before, after = load_result(args.before), load_result(args.after)
    print(compare_table(compare(before, after, args.system, args.split, (args.before, args.after))))
    return 0


def _warn_stale(path: str, result: dict) -> None:
    from .evaluate.diagnose import stale
    if stale(result):
        print(f"note: {path} does not record how its run matched ids: read at article level with every "
              "instrument on its own (a law held twice counts as two); run `workbench eval` again to record it",
              file=sys.stderr)


def cmd_import_benchmark(args) -> int:
    from .evaluate.bench_import import alqac_questions, obliqa_questions, write_jsonl
    got = alqac_questions(args.path, args.laws) if args.format == "alqac" else \
        obliqa_questions(args.path, args.rulebooks)
    for problem in got.problems[:args.problems]:
        print(f"  {problem}", file=sys.stderr)
    if len(got.problems) > args.problems:
        print(f"  ... {len(got.problems) - args.problems} more (--problems N)", file=sys.stderr)
    if not got.rows:
        raise WorkbenchError(f"{args.path}: no question with gold to write; nothing written to {args.out}")
    print(f"{len(got.rows)} questions -> {write_jsonl(got.rows, args.out)}"
          + (f"; {len(got.problems)} problems listed above" if got.problems else ""))
    return 0


def cmd_generate_benchmark(args, open_workspace) -> int:
    from .evaluate.generate import counts, generate, write_jsonl
    wb = open_workspace(args)
    llm = None
    if args.llm:
        from .answer.llm import make_llm
        model = make_llm(args.llm, wb.config.llm)
        model.check()
        llm = lambda prompt: model.chat([{"role": "user", "content": prompt}]).text   # noqa: E731
    rows = generate(wb, args.corpus, args.max, args.seed, llm)
    print(f"{len(rows)} questions -> {write_jsonl(rows, args.out)}")
    for name, by in counts(rows).items():
        print(f"  by {name}: " + ", ".join(f"{k} {n}" for k, n in by.items()))
    return 0 if rows else 1

"""`workbench` command line: ingest, info, search, demo (benchmark commands in cli_bench.py, entities
in cli_entities.py, the ingest engine in cli_engine.py)."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from .core.errors import WorkbenchError
from .store.remote import is_remote

DEFAULT_WS = "workspace"


class Parser(argparse.ArgumentParser):
    """argparse with its errors on one line (the usage is one `--help` away), exit code 2."""

    def error(self, message):
        print(f"{self.prog}: error: {message} (see {self.prog} --help)", file=sys.stderr)
        sys.exit(2)


def iso_date(text: str) -> str:
    import datetime as dt
    try:
        return dt.date.fromisoformat(text).isoformat()
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date: give YYYY-MM-DD") from None


def positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give a whole number of at least 1")
    return n


def main(argv: list[str] | None = None) -> int:
    p = Parser(prog="workbench", description="Graph-grounded legal QA workbench.")
    p.add_argument("--config", help="TOML file with [ingest], [graph], [retrieval], [llm] settings")
    p.add_argument("--debug", action="store_true", help="show the traceback of an unexpected error")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)

    s = sub.add_parser("ingest", help="parse, embed and store a corpus (re-ingesting is idempotent)")
    s.add_argument("paths", nargs="+", metavar="PATH", help="corpus folder or corpus.toml")
    s.add_argument("--workspace", default=DEFAULT_WS)
    s.add_argument("--problems", type=int, default=20, help="how many problems to print (default 20)")
    s.add_argument("--cache", help="embedding cache folder shared between workspaces (default: in the workspace)")
    s.add_argument("--wait", type=float, nargs="?", const=float("inf"), metavar="SECONDS",
                   help="when another process is writing the workspace, wait for it (up to SECONDS; "
                        "default: fail after a few seconds)")
    s.add_argument("--follow-symlinks", action="store_true",
                   help="read files that symbolic links in the corpus folder lead to outside it (default: refuse)")
    s.add_argument("--replace", action="store_true",
                   help="take over instrument versions already stored from another corpus (default: refuse)")
    from .cli_engine import add_engine_args
    add_engine_args(s, positive)

    s = sub.add_parser("info", help="counts by corpus, instrument, kind and edge type")
    s.add_argument("--workspace", default=DEFAULT_WS)
    s.add_argument("--json", action="store_true", help="print the counts as JSON")
    s.add_argument("--unresolved", type=int, default=20, metavar="N",
                   help="list N unresolved references with their citing unit (default 20)")

    s = sub.add_parser("search", help="lexical (bm25) or dense search over stored units")
    s.add_argument("query")
    s.add_argument("--mode", choices=["bm25", "dense"], default="bm25")
    s.add_argument("-k", type=positive, default=10)
    s.add_argument("--workspace", default=DEFAULT_WS)
    s.add_argument("--kind", help="only units of this kind (article, clause, passage, ...)")

    s = sub.add_parser("relink", help="classify roles, extract citations and align versions again from the stored "
                                      "units, resolve them "
                                      "(after upgrading the extractors; nothing is re-embedded)")
    s.add_argument("--workspace", default=DEFAULT_WS)
    s.add_argument("--wait", type=float, nargs="?", const=float("inf"), metavar="SECONDS",
                   help="when another process is writing the workspace, wait for it (up to SECONDS)")

    from .cli_bench import add_generate_parser, add_parsers as add_bench_parsers
    add_bench_parsers(sub, DEFAULT_WS, positive)

    s = sub.add_parser("in-force", help="which version of an instrument applied on a date")
    s.add_argument("key")
    s.add_argument("date", type=iso_date, help="YYYY-MM-DD")
    s.add_argument("--workspace", default=DEFAULT_WS)

    s = sub.add_parser("history", help="the versions of one article, oldest first, with what changed")
    s.add_argument("unit_id")
    s.add_argument("--workspace", default=DEFAULT_WS)

    s = sub.add_parser("define", help="units that define a term")
    s.add_argument("term")
    s.add_argument("--workspace", default=DEFAULT_WS)

    from .cli_entities import add_parsers
    add_parsers(sub, DEFAULT_WS, positive)
    s = sub.add_parser("ask", help="answer a question with citations and the reasoning chain")
    s.add_argument("question")
    s.add_argument("--workspace", default=DEFAULT_WS)
    s.add_argument("--backend", help="ollama[:model] | llamacpp[:file.gguf] | extractive "
                                     "(default: [llm] backends in order: ollama, llamacpp, extractive)")
    s.add_argument("--mode", default="graph", choices=["bm25", "dense", "hybrid", "graph"])
    s.add_argument("-k", type=positive, default=10, help="evidence units retrieved (default 10)")
    s.add_argument("--as-of", type=iso_date, help="YYYY-MM-DD: only evidence in force that day")
    s.add_argument("--evidence", default="compose", choices=["compose", "local"],
                   help="compose: the retrieved provisions (default); local: the LOCAL context of the entities named")
    s.add_argument("--json", action="store_true", help="print the answer record as JSON")

    s = sub.add_parser("serve-llm", help="serve the Ollama API from a local GGUF model (llama.cpp in process)")
    s.add_argument("--model", help="GGUF file (default: the bundled SmolLM2-135M-Instruct)")
    s.add_argument("--name", default="smollm2:135m", help="model name clients ask for")
    s.add_argument("--port", type=int, default=11434)

    s = sub.add_parser("serve", help="the REST API over one workspace (OpenAPI at /openapi.json, docs at /docs)")
    s.add_argument("--workspace", default=DEFAULT_WS)
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    s.add_argument("--port", type=int, default=8000)

    s = sub.add_parser("demo", help="ingest the bundled sample corpus, ask, show evidence, write figures")
    s.add_argument("--workspace", default="workspace-demo")
    s.add_argument("--figures", default="figures")

    add_generate_parser(sub, DEFAULT_WS, positive)

    s = sub.add_parser("lab", help="start JupyterLab on the notebooks (notebooks/)")
    s.add_argument("--dir", help="folder to serve (default: the repository's notebooks/)")
    s.add_argument("--port", type=int, help="port (default: JupyterLab's, 8888 or the next free one)")
    s.add_argument("--no-browser", action="store_true", help="do not open a browser")

    args = p.parse_args(argv)
    try:
        code = COMMANDS[args.command](args)
        sys.stdout.flush()                # a reader gone before the end (`| head`) shows here, not at exit
        return code
    except WorkbenchError as e:
        if args.debug:
            raise
        print(f"error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:               # `workbench info | head`: the reader has gone; what is left goes nowhere
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as e:
        if args.debug:
            raise
        print(f"error: unexpected {type(e).__name__}: {e} (run with --debug for the traceback, and please "
              "report it)", file=sys.stderr)
        return 1


def _open(args, write: bool = False):
    """The --workspace of a command; only writing commands (ingest) may start a new one."""
    from dataclasses import replace
    from .core.config import Config
    from .workbench import Workbench
    config = Config.load(args.config)
    if getattr(args, "cache", None):
        config = replace(config, ingest=replace(config.ingest, cache_dir=args.cache))
    return Workbench.open(args.workspace, config, create=write)


def cmd_ingest(args) -> int:
    from .cli_engine import ingest_engine
    from .core.config import Config
    from .store.lock import writing
    Config.load(args.config)             # a bad config writes nothing, not even the workspace folder
    engine = ingest_engine(args)         # --engine ray: Ray missing, no cluster at --address: the same
    with writing(args.workspace, args.wait), engine:   # the lock first: refused before Ray starts
        return _ingest(args)


def _ingest(args) -> int:
    wb = _open(args, write=True)
    failed = 0
    for path in args.paths:
        try:
            report = wb.ingest(path, follow_symlinks=args.follow_symlinks, replace=args.replace)
        except WorkbenchError as e:       # this corpus could not be read at all; go on with the next
            print(f"error: {e}", file=sys.stderr)
            failed += 1
            continue
        print(report.summary())
        secs = report.seconds
        files = f"states/{wb.remote_head[0]['state']}/" if wb.remote else ""    # s3://: store/remote.py
        print(f"  parse {secs['parse']:.1f}s, embed {secs['embed']:.1f}s, store {secs['store']:.1f}s; "
              f"report: {wb.location}/{files}reports/{report.corpus}.json")
        for problem in report.problems[:args.problems]:
            print(f"  {problem}", file=sys.stderr)
        if len(report.problems) > args.problems:
            print(f"  ... {len(report.problems) - args.problems} more in the report", file=sys.stderr)
    return 2 if failed else 0          # a corpus that could not be read at all is bad input


def cmd_info(args) -> int:
    if not is_remote(args.workspace) and not Path(args.workspace).exists():
        raise WorkbenchError(f"no workspace at {args.workspace}: run `workbench ingest PATH --workspace "
                             f"{args.workspace}` first")
    info = _open(args).info()
    if args.json:
        print(json.dumps(info, ensure_ascii=False, indent=1))
        return 0
    print(f"workspace {info['workspace']} (embedder {info['embedder']})")
    for inst in info["instruments"]:
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(inst["units_by_kind"].items()))
        print(f"  {inst['corpus']:<22} {inst['key']}@{inst['version']}: {kinds}")
    for corpus, counts in info["edges_by_corpus"].items():
        print(f"  edges of {corpus}: " + ", ".join(f"{t} {n}" for t, n in counts.items()))
    print("edges: " + ", ".join(f"{t} {n}" for t, n in info["edges_by_type"].items())
          + f"; defined terms: {info['terms']}")
    unresolved = info["unresolved"]
    print(f"unresolved references: {len(unresolved)}")
    for e in unresolved[:args.unresolved]:
        print(f"  {e['source']} -{e['type']}-> {e['target']}   ({e['evidence']})")
    if len(unresolved) > args.unresolved:
        print(f"  ... {len(unresolved) - args.unresolved} more (--unresolved N, or --json)")
    if info["pending"]:
        print(f"warning: {info['pending']}")
    for problem in info["inconsistencies"]:
        print(f"warning: {problem}")
    return 0


def cmd_search(args) -> int:
    from .core.records import Filter
    wb = _open(args)
    where = Filter(kinds=(args.kind,)) if args.kind else None
    for rank, hit in enumerate(wb.search(args.query, args.mode, args.k, where=where), 1):
        text = " ".join(hit.unit.text.split())[:100]
        print(f"{rank:>2}. {hit.score:7.3f}  {hit.unit_id}  {text}")
    return 0


def cmd_relink(args) -> int:
    from .store.lock import writing
    wb = _open(args)
    with writing(args.workspace, args.wait):
        problems = wb.reextract()
    for corpus, found in problems.items():
        print(f"{corpus}: {len(found)} problems")
    print("edges: " + ", ".join(f"{t} {n}" for t, n in wb.graph.counts().items()))
    return 0


def cmd_eval(args) -> int:
    from .cli_bench import cmd_eval
    return cmd_eval(args, _open)


def cmd_import_benchmark(args) -> int:
    from .cli_bench import cmd_import_benchmark
    return cmd_import_benchmark(args)


def cmd_in_force(args) -> int:
    import datetime as dt
    doc = _open(args).version_in_force(args.key, dt.date.fromisoformat(args.date))
    if doc is None:
        print(f"no version of {args.key} was in force on {args.date}")
        return 1
    print(f"{doc.id}  in force {doc.effective_from} .. {doc.effective_to or 'now'}  {doc.title}")
    return 0


def cmd_history(args) -> int:
    wb = _open(args)
    if not wb.store.get([args.unit_id]):
        raise WorkbenchError(f"{args.unit_id}: no such unit in {args.workspace}; find its id with "
                             "`workbench search`")
    for step in wb.changes(args.unit_id):
        line = step["unit_id"]
        if step["effective_from"] is not None:
            line += f"  [{step['effective_from']}..{step['effective_to'] or ''}]"
        if step["status"]:
            line += f"  {step['status']}"
        if step["form_only"]:
            line += "  (form only)"
        elif step["substance"] == 0:
            line += "  (renaming made throughout the revision only)"
        if step["inserted"] or step["deleted"]:
            line += f"  +[{step['inserted'][:60]}] -[{step['deleted'][:60]}]"
        print(line)
    return 0


def cmd_define(args) -> int:
    for row in _open(args).define(args.term):
        print(f"{row['unit_id']}  {row['term']}: {row['definition'][:100]}")
    return 0


def cmd_entities(args) -> int:
    from .cli_entities import cmd_entities
    return cmd_entities(args, _open(args))


def cmd_traverse(args) -> int:
    from .cli_entities import cmd_traverse
    return cmd_traverse(args, _open(args))


def cmd_ask(args) -> int:
    from dataclasses import asdict, replace
    from .answer.ask import print_answer
    wb = _open(args)
    if not wb.info()["instruments"]:
        raise WorkbenchError(f"the workspace {args.workspace} holds no corpus; run "
                             f"`workbench ingest corpora/sample --workspace {args.workspace}` first")
    rcfg = replace(wb.config.retrieval, mode=args.mode, top_k=args.k, as_of=args.as_of)
    answer = wb.ask(args.question, rcfg, args.backend, evidence=args.evidence)
    if args.json:
        rec = {k: v for k, v in asdict(answer).items() if k != "evidence"}
        rec["evidence"] = [{"unit_id": b.unit_id, "tag": b.tag, "heading": b.heading, "truncated": b.truncated}
                           for b in answer.evidence.blocks] if answer.evidence else []
        rec["evidence_dropped"] = answer.evidence.dropped if answer.evidence else []
        print(json.dumps(rec, ensure_ascii=False, indent=1, default=str))
    else:
        print_answer(answer)
    return 0


def cmd_serve_llm(args) -> int:
    import time
    from .dev.ollama_api import OllamaAPIServer
    with OllamaAPIServer(args.model, args.name, port=args.port) as srv:
        print(f"Ollama API at {srv.url} serving {srv.name} ({srv.path}); Ctrl-C stops", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 0


def cmd_serve(args) -> int:
    import socket
    import uvicorn
    from .api.app import create_app
    from .core.config import Config
    if not 0 < args.port < 65536:
        raise WorkbenchError(f"--port {args.port}: give a port between 1 and 65535")
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((args.host, args.port))
        except OSError as e:
            raise WorkbenchError(f"--host {args.host} --port {args.port}: cannot listen there ({e.strerror}); "
                                 "give another --port") from None
    app = create_app(args.workspace, Config.load(args.config))
    print(f"workbench API on http://{args.host}:{args.port} (docs: /docs) over {args.workspace}; Ctrl-C stops",
          flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


def cmd_failures(args) -> int:
    from .cli_bench import cmd_failures
    return cmd_failures(args)


def cmd_compare(args) -> int:
    from .cli_bench import cmd_compare
    return cmd_compare(args)


def cmd_demo(args) -> int:
    from .ui.demo import run_demo
    return run_demo(args.workspace, args.figures)


def cmd_generate_benchmark(args) -> int:
    from .cli_bench import cmd_generate_benchmark
    return cmd_generate_benchmark(args, _open)


def cmd_lab(args) -> int:
    from .ui.notebook import launch
    return launch(args.dir, args.port, not args.no_browser)

COMMANDS = {"ingest": cmd_ingest, "info": cmd_info, "search": cmd_search, "eval": cmd_eval, "relink": cmd_relink,
            "failures": cmd_failures, "compare": cmd_compare,
            "import-benchmark": cmd_import_benchmark, "in-force": cmd_in_force,
            "history": cmd_history, "define": cmd_define, "entities": cmd_entities, "entity": cmd_entities, "traverse": cmd_traverse, "demo": cmd_demo, "ask": cmd_ask,
            "serve-llm": cmd_serve_llm, "serve": cmd_serve,
            "generate-benchmark": cmd_generate_benchmark, "lab": cmd_lab}


if __name__ == "__main__":
    sys.exit(main())

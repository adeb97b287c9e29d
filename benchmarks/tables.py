"""Markdown tables from committed retrieval results (what README and docs/benchmarks.md show).

    .venv/bin/python benchmarks/tables.py benchmarks/results/retrieval_alqac.json [--full] [--splits] [--categories]
    .venv/bin/python benchmarks/tables.py --write zh,zh2,zh3,zh4,sample   # rewrite those sets' tables in README and docs
    .venv/bin/python benchmarks/tables.py --readme zh6,zh7                # README only: short table, tuning / validation line
    .venv/bin/python benchmarks/tables.py --overview zh,zh2,zh3           # one table of every set's tuning / validation figures

`--write` finds each set's tables after its command line (`retrieval.py --only NAME`) in
docs/benchmarks.md (overall, every metric; then tuning / validation parts; then by category;
then the paired Wilcoxon tests of graph mode against the others, each only if the table is there) and after its heading in the README (the short table).
"""
from __future__ import annotations

import argparse
import json
import re
import sys

SHORT = ("recall@5", "recall@10", "mrr", "map@10", "hit@1", "ndcg@10", "citation_f1", "macro_f2")
FULL = ("recall@1",) + SHORT[:6] + ("citation_p", "citation_r", "citation_f1", "macro_f2")
NAMES = {"recall@1": "R@1", "recall@5": "R@5", "recall@10": "R@10", "mrr": "MRR", "map@10": "MAP@10",
         "hit@1": "Hit@1", "ndcg@10": "nDCG@10", "citation_p": "cit. P", "citation_r": "cit. R",
         "citation_f1": "cit. F1", "macro_f2": "macro-F2"}


def table(summary: dict, metrics, latency: bool = False) -> str:
    head = ["system"] + [NAMES[m] for m in metrics] + (["p50 ms"] if latency else [])
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, s in summary["systems"].items():
        cells = [f"{s['overall'].get(m, float('nan')):.3f}" for m in metrics]
        if latency:
            cells.append(f"{s['latency_ms_p50']:.0f}")
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def _grouped(summary: dict, groups: str, per: str, head: str, metrics) -> str:
    """One row per group (part or category) and system: `summary[groups]` names the groups and
    their sizes, `per` the key of each system's figures for them."""
    rows = [f"| {head} | system | " + " | ".join(NAMES[m] for m in metrics) + " |", "|" + "---|" * (len(metrics) + 2)]
    for group, n in summary.get(groups, {}).items():
        for name, s in summary["systems"].items():
            got = s[per][group]
            rows.append(f"| {group} ({n}) | {name} | " + " | ".join(f"{got[m]:.3f}" for m in metrics) + " |")
    return "\n".join(rows)


def splits(summary: dict, metrics=("recall@5", "mrr", "map@10", "hit@1", "citation_f1", "macro_f2")) -> str:
    return _grouped(summary, "splits", "by_split", "part", metrics)


def categories(summary: dict, metrics=("recall@5", "mrr", "map@10", "hit@1", "citation_f1", "macro_f2")) -> str:
    return _grouped(summary, "categories", "by_category", "group", metrics)


def wilcoxon(summary: dict, metrics=("recall@1", "recall@5", "recall@10", "mrr", "hit@1", "ndcg@10",
                                          "citation_p", "citation_r", "citation_f1")) -> str:
    """Graph mode against each other system: paired Wilcoxon p (and effect size r) per metric."""
    tests = summary.get("tests", {})
    rows = ["| graph vs | " + " | ".join(NAMES[m] for m in metrics) + " |", "|" + "---|" * (len(metrics) + 1)]
    for name in summary["systems"]:
        got = tests.get(f"graph vs {name}") or tests.get(f"{name} vs graph")
        if name == "graph" or not got:
            continue
        cells = [re.sub(r"e-0*", "e-", f"{got[m]['p']:.2g}") + f" ({abs(got[m]['r']):.2f})" for m in metrics]
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


README_HEADS = {"zh": "**zh version-aware set**", "zh2": "**Second zh version-aware set**",
                "zh3": "**Third zh version-aware set**", "zh4": "**Fourth zh version-aware set**",
                "zh5": "**Fifth zh version-aware set**", "zh6": "**Sixth zh version-aware set**",
                "zh7": "**Seventh zh version-aware set**", "zh8": "**Eighth zh version-aware set**",
                "zh9": "**Ninth zh version-aware set", "zh10": "**Tenth zh version-aware set**",
                "zh11": "**Eleventh zh version-aware set**", "zh12": "**Twelfth zh version-aware set**",
                "zh13": "**Thirteenth zh version-aware set**", "zh14": "**Planning, land and surveying laws**",
                "alqac": "**ALQAC 2022 + 2023 train**", "sample": "**Sample benchmark**"}


def _tables_after(text: str, start: int, tables: list[str]) -> str:
    """The markdown tables following `start`, in order, replaced by `tables` (each one only when
    the next table has the same header, so a table the document does not show is skipped)."""
    pos = start
    for new in tables:
        at = text.find("\n|", pos)
        if at < 0:
            break
        end = at + 1
        while end < len(text) and text.startswith("|", end):
            end = text.find("\n", end) + 1 or len(text)
        old = text[at + 1:end].rstrip("\n")
        if old.split("\n")[0] != new.split("\n")[0]:
            continue
        text = text[:at + 1] + new + text[at + 1 + len(old):]
        pos = at + 1 + len(new)
    return text


_N = r"\d\.\d{3}"
PARTS_LINE = re.compile(rf"Tuning / validation parts \((\d+) / (\d+) questions\), graph: R@5 {_N} / {_N}, "
                        rf"MRR {_N} / {_N}, Hit@1 {_N} / {_N}, cit\. F1 {_N} / {_N}(?P<f2>, macro-F2 {_N} / {_N})?\.")


def parts_line(summary: dict, f2: bool = False) -> str:
    """"Tuning / validation parts (62 / 25 questions), graph: R@5 … / …, MRR …, Hit@1 …, cit. F1 …" (and
    macro-F2 when `f2`)."""
    by = summary["systems"]["graph"]["by_split"]
    n = summary.get("splits", {})
    cells = ", ".join(f"{NAMES[m]} {by['tuning'][m]:.3f} / {by['validation'][m]:.3f}"
                      for m in ("recall@5", "mrr", "hit@1", "citation_f1") + (("macro_f2",) if f2 else ()))
    return f"Tuning / validation parts ({n.get('tuning', 0)} / {n.get('validation', 0)} questions), graph: {cells}."


def write_readme(names: list[str]) -> None:
    """The README only: each set's short table and its tuning / validation line after its heading (the
    docs keep each set's first run and the tables of the run that changed it, see docs/benchmarks.md)."""
    from pathlib import Path
    readme = Path(__file__).resolve().parents[1] / "README.md"
    r = readme.read_text(encoding="utf-8")
    for name in names:
        if name not in README_HEADS:
            print(f"tables.py: --readme {name}: no README heading known for it; use one of {', '.join(README_HEADS)}",
                  file=sys.stderr)
            raise SystemExit(2)
        summary = json.loads((readme.parent / "benchmarks" / "results" / f"retrieval_{name}.json").read_text(encoding="utf-8"))
        at = r.index(README_HEADS[name])
        r = _tables_after(r, at, [table(summary, SHORT)])
        m = PARTS_LINE.search(r, at)
        nxt = r.find("\n**", at + 1)
        by = summary["systems"]["graph"].get("by_split", {})
        if m and (nxt < 0 or m.start() < nxt) and {"tuning", "validation"} <= set(by):
            r = r[:m.start()] + parts_line(summary, bool(m.group("f2"))) + r[m.end():]
    readme.write_text(r, encoding="utf-8")


def overview(names: list[str]) -> str:
    """One row per set: graph mode's tuning / validation figures and the flat systems' cit. F1."""
    rows = ["| set | questions (tuning / validation) | graph cit. F1 | graph R@5 | graph MRR | graph Hit@1 | bm25 cit. F1 | hybrid cit. F1 |",
            "|" + "---|" * 8]
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    for name in names:
        s = json.loads((root / "benchmarks" / "results" / f"retrieval_{name}.json").read_text(encoding="utf-8"))
        by, n = s["systems"]["graph"].get("by_split", {}), s.get("splits", {})
        if not {"tuning", "validation"} <= set(by):
            rows.append(f"| {name} | (no tuning / validation parts) | | | | | | |")
            continue
        cell = lambda m: f"{by['tuning'][m]:.3f} / {by['validation'][m]:.3f}"  # noqa: E731
        rows.append(f"| {name} | {n.get('tuning', 0)} / {n.get('validation', 0)} | {cell('citation_f1')} | {cell('recall@5')} | "
                    f"{cell('mrr')} | {cell('hit@1')} | {s['systems']['bm25']['overall']['citation_f1']:.3f} | "
                    f"{s['systems']['hybrid']['overall']['citation_f1']:.3f} |")
    return "\n".join(rows)


# the sets whose docs/benchmarks.md section holds their current tables (the other sets' sections keep their
# first run's tables, a record not to be overwritten: their current figures are in the README and the overview)
WRITE_SETS = ("zh", "zh2", "alqac", "sample")


def write(names: list[str]) -> None:
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    docs = root / "docs" / "benchmarks.md"
    d = docs.read_text(encoding="utf-8")
    for name in names:
        summary = json.loads((root / "benchmarks" / "results" / f"retrieval_{name}.json").read_text(encoding="utf-8"))
        d = _tables_after(d, d.index(f"retrieval.py --only {name}`"),
                          [table(summary, FULL, True), splits(summary), categories(summary), wilcoxon(summary)])
    docs.write_text(d, encoding="utf-8")
    write_readme([n for n in names if n in README_HEADS])


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("results", nargs="?")
    ap.add_argument("--full", action="store_true", help="every metric and the latency (docs/benchmarks.md)")
    ap.add_argument("--splits", action="store_true", help="the tuning / validation parts")
    ap.add_argument("--categories", action="store_true", help="per category")
    ap.add_argument("--write", help=f"sets ({','.join(WRITE_SETS)}) whose tables to rewrite in README and docs")
    ap.add_argument("--readme", help="sets whose README table and tuning / validation line to rewrite (README only)")
    ap.add_argument("--overview", help="sets to list in one table of graph mode's tuning / validation figures")
    args = ap.parse_args()
    if args.write:
        names = [n.strip() for n in args.write.split(",") if n.strip()]
        other = [n for n in names if n not in WRITE_SETS]
        if other:
            print(f"tables.py: --write {','.join(other)}: docs/benchmarks.md keeps that set's first-run tables; "
                  f"--write takes {', '.join(WRITE_SETS)} (use --readme for the README table)", file=sys.stderr)
            return 2
        write(names)
        return 0
    if args.readme:
        write_readme(args.readme.split(","))
        return 0
    if args.overview:
        print(overview(args.overview.split(",")))
        return 0
    summary = json.loads(open(args.results, encoding="utf-8").read())
    print(table(summary, FULL if args.full else SHORT, args.full))
    if args.splits:
        print()
        print(splits(summary))
    if args.categories:
        print()
        print(categories(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())

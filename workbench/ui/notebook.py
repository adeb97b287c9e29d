"""Notebook support and `workbench lab`.

The notebooks in `notebooks/` stay thin: a parameters cell, then calls into the package.
What they call that is not retrieval or evaluation proper lives here: opening (and, the
first time, ingesting) a workspace, reading the ingest reports, degree and citation counts,
HTML tables and side-by-side diffs (statistics over evaluations are in `evaluate/stats.py`).
`launch()` starts JupyterLab on the notebooks.
"""
from __future__ import annotations

import datetime as dt
import difflib
import html
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Iterable, Sequence

from ..parse.languages import has_han


ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "corpora" / "sample"
NOTEBOOKS = ROOT / "notebooks"
SHARED = ROOT.parent / "shared" / "corpora"


# -- workspace ----------------------------------------------------------------------------
def corpus_paths(spec: str | Path | Sequence[str | Path]) -> list[Path]:
    """Corpus folders from a list, or from one string of paths separated by os.pathsep (':'),
    or by spaces when it holds no os.pathsep (the forms an environment variable can carry)."""
    if isinstance(spec, Path):
        spec = [spec]
    elif isinstance(spec, str):
        spec = [p for p in spec.split(os.pathsep)] if os.pathsep in spec else spec.split()
        spec = [p.strip() for p in spec if p.strip()]
    return [Path(p).expanduser() for p in spec]


def open_workspace(corpora: str | Path | Sequence[str | Path], workspace: str | Path = "workspace-notebooks",
                   config=None, progress: bool = True):
    """The Workbench at `workspace`, with every corpus of `corpora` ingested: a corpus the
    workspace already holds (same folder) is not ingested again. Returns the Workbench.
    `progress`: a bar over the corpora to ingest and one over the units to embed."""
    from ..core.config import Config, IngestConfig
    from ..workbench import Workbench
    config = config or Config(IngestConfig(progress=progress))
    wb = Workbench.open(workspace, config)
    held = {str(Path(p).resolve()) for p in (wb.meta or {}).get("corpora", {}).values()}
    todo = []
    for corpus in corpus_paths(corpora):
        if not corpus.exists():
            raise FileNotFoundError(f"no corpus at {corpus} (cwd {Path.cwd()}): set CORPORA in the parameters cell")
        if str(corpus.resolve()) not in held:
            todo.append(corpus)
    if todo:
        from tqdm.auto import tqdm
        bar = tqdm(todo, desc="ingesting", unit="corpus", disable=not progress)
        for corpus in bar:
            bar.set_postfix_str(corpus.name)
            report = wb.ingest(corpus)
            bar.write(report.summary())
    return wb


def ingest_reports(wb) -> list[dict]:
    """The parse/ingest report of every corpus in the workspace (WORKSPACE/reports/*.json)."""
    return [json.loads(f.read_text(encoding="utf-8")) for f in sorted((Path(wb.path) / "reports").glob("*.json"))]


# -- graph statistics -----------------------------------------------------------------------
def degrees(wb, types: Iterable[str] | None = None, resolved_only: bool = True) -> dict[str, list[int]]:
    """Per edge type, the total degree (in + out) of every unit that has at least one edge of that type."""
    return wb.graph.degrees(types, resolved_only)


def most_cited(wb, n: int = 10, types: Iterable[str] = ("REFERENCES",)) -> list[dict]:
    """The units cited most (incoming edges of `types`, counted at article level, resolved only)."""
    from ..retrieve.expand import article_of
    wanted = set(types)
    counts: Counter = Counter()
    citing: dict[str, set] = {}
    for e in wb.graph.all_edges():
        if e.type.value in wanted and e.resolved and e.extractor != "implicit-duty":   # stated citations only
            target, source = article_of(e.target), article_of(e.source)
            if target != source:
                counts[target] += 1
                citing.setdefault(target, set()).add(source)
    top = counts.most_common(n)
    units = {u.id: u for u in wb.store.get([uid for uid, _ in top])}
    return [{"unit": uid, "cited": k, "citing units": len(citing[uid]),
             "title": (units[uid].title if uid in units else ""),
             "text": " ".join((units[uid].text if uid in units else "").split())[:90]} for uid, k in top]


# -- HTML for notebooks ----------------------------------------------------------------------
def show_html(markup: str):
    from IPython.display import HTML, display
    display(HTML(markup))


def side_by_side(old, new, title_old: str = "", title_new: str = "") -> str:
    """Two versions of a unit side by side, deletions struck through in red on the left and
    insertions in green on the right (words for alphabetic text, characters for Chinese,
    as in versions.text_diff)."""
    a_text, b_text = getattr(old, "text", old) or "", getattr(new, "text", new) or ""
    cjk = has_han(a_text + b_text)
    a, b = (list(a_text), list(b_text)) if cjk else (a_text.split(" "), b_text.split(" "))
    sep = "" if cjk else " "
    left, right = [], []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        x, y = html.escape(sep.join(a[i1:i2])), html.escape(sep.join(b[j1:j2]))
        if op == "equal":
            left.append(x)
            right.append(y)
        else:
            if x:
                left.append(f"<del style='background:#fdd;color:#900'>{x}</del>")
            if y:
                right.append(f"<ins style='background:#dfd;color:#060;text-decoration:none'>{y}</ins>")
    col = ("<td style='vertical-align:top;text-align:left;white-space:pre-wrap;width:50%;padding:6px;"
           "border:1px solid #ddd'>{}</td>")
    t_old = html.escape(title_old or getattr(old, "id", "old"))
    t_new = html.escape(title_new or getattr(new, "id", "new"))
    return (f"<table style='width:100%;font-size:12px;border-collapse:collapse'>"
            f"<tr><th style='text-align:left'>{t_old}</th><th style='text-align:left'>{t_new}</th></tr>"
            f"<tr>{col.format(sep.join(left))}{col.format(sep.join(right))}</tr></table>")


# -- versions -----------------------------------------------------------------------------------
def in_force_table(wb, key: str, dates: Iterable[str | dt.date]):
    """Which version of instrument `key` applied on each date (a polars DataFrame)."""
    import polars as pl
    rows = []
    for d in dates:
        on = dt.date.fromisoformat(d) if isinstance(d, str) else d
        doc = wb.version_in_force(key, on)
        rows.append({"date": on.isoformat(), "version in force": doc.id if doc else "(none)",
                     "from": str(doc.effective_from) if doc else "", "until": str(doc.effective_to or "") if doc else ""})
    return pl.DataFrame(rows, schema=["date", "version in force", "from", "until"])


# -- JupyterLab ---------------------------------------------------------------------------------
def lab_command(notebook_dir: str | Path | None = None, port: int | None = None, open_browser: bool = True,
                extra: Sequence[str] = ()) -> list[str]:
    folder = Path(notebook_dir) if notebook_dir else (NOTEBOOKS if NOTEBOOKS.exists() else Path.cwd())
    cmd = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={folder}"]
    if port:
        cmd.append(f"--ServerApp.port={port}")
    if not open_browser:
        cmd.append("--no-browser")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--ServerApp.allow_root=True")      # containers and CI machines often run as root
    return cmd + list(extra)


def launch(notebook_dir: str | Path | None = None, port: int | None = None, open_browser: bool = True,
           extra: Sequence[str] = ()) -> int:
    """Start JupyterLab on the notebooks (blocks until it is stopped)."""
    try:
        import jupyterlab  # noqa: F401
    except ImportError:
        print("error: JupyterLab is not installed: run `make setup` (or `pip install -e .`)", file=sys.stderr)
        return 2
    cmd = lab_command(notebook_dir, port, open_browser, extra)
    print("starting: " + " ".join(cmd))
    try:
        return subprocess.call(cmd)
    except KeyboardInterrupt:
        return 0

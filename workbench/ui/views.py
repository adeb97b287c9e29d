"""Figures (matplotlib). Every function returns a `matplotlib.figure.Figure` built with the
object API (no pyplot state, nothing left open); a notebook shows it with `display(fig)`
(it renders itself as PNG, whatever the matplotlib backend), and `save(fig, path)` writes it.

    fig = metrics_figure(summary)
    save(fig, "figures/eval.png")
    display(fig)
"""
from __future__ import annotations

import functools
import io
import math
from pathlib import Path

from matplotlib.figure import Figure

from ..core.records import Hit
from ..evaluate.stats import format_p

__all__ = ["Fig", "ci_figure", "degree_figure", "evidence_figure", "format_p", "heatmap_figure",
           "metrics_figure", "save", "shorten", "timeline_figure", "workspace_figure"]

DPI = 110
LEGEND = dict(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)  # beside the axes


class Fig(Figure):
    """A Figure that shows itself in Jupyter: IPython calls `_repr_png_` (matplotlib's Figure
    has none; only the inline backend registers a PNG formatter, not the Agg one)."""

    def _repr_png_(self) -> bytes:
        buf = io.BytesIO()
        self.savefig(buf, format="png", dpi=DPI, bbox_inches="tight")
        return buf.getvalue()


def _figure(figsize) -> Fig:
    return Fig(figsize=figsize, layout="constrained")


def save(fig: Figure, path: str | Path) -> Path:
    """Write `fig` as PNG (creating the folder) and return the path. A figure from this module
    is not registered with pyplot, so there is nothing to close and it can still be displayed;
    a pyplot figure passed in is closed."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
    if getattr(fig.canvas, "manager", None) is not None:
        import matplotlib.pyplot as plt
        plt.close(fig)
    return path


def shorten(text: str, width: int = 80) -> str:
    """`text` on one line, cut to at most `width` characters; a cut text ends with "…"."""
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[:width - 1].rstrip() + "…"


@functools.lru_cache(maxsize=None)
def _charmap(fname: str) -> frozenset:
    from matplotlib.ft2font import FT2Font
    try:
        return frozenset(FT2Font(fname).get_charmap())
    except Exception:  # noqa: BLE001 - an unreadable font covers nothing
        return frozenset()


def _font_for(text: str):
    """FontProperties of an installed font that draws every character of `text` (the default
    font first), or None when no installed font does (e.g. Chinese without a CJK font)."""
    from matplotlib import font_manager as fm
    need = {ord(c) for c in text if not c.isspace()}
    default = fm.findfont(fm.FontProperties())
    others = {f.fname for f in fm.fontManager.ttflist if "LastResort" not in f.fname}  # draws only boxes
    for fname in [default] + sorted(others - {default}):
        if need <= _charmap(fname):
            return fm.FontProperties(fname=fname)
    return None


def workspace_figure(info: dict) -> Fig:
    """Units by kind for each instrument version, and edges by type (`Workbench.info()`)."""
    insts = info["instruments"]
    kinds = sorted({k for i in insts for k in i["units_by_kind"]})
    fig = _figure((13, 0.45 * len(insts) + 2.8))
    ax1, ax2 = fig.subplots(1, 2, width_ratios=[3, 1])
    labels = [f"{i['key']}@{i['version']}" for i in insts]
    left = [0] * len(insts)
    for kind in kinds:
        vals = [i["units_by_kind"].get(kind, 0) for i in insts]
        ax1.barh(labels, vals, left=left, label=kind)
        left = [a + b for a, b in zip(left, vals)]
    ax1.invert_yaxis()
    ax1.set_title("Units by kind per instrument version")
    ax1.set_xlabel("units (count)")
    ax1.set_ylabel("instrument@version")
    ax1.tick_params(axis="y", labelsize=8)
    if kinds:
        ax1.legend(title="unit kind", **LEGEND)
    edges = info["edges_by_type"]
    ax2.bar(range(len(edges)), list(edges.values()), color="tab:gray")
    ax2.set_xticks(range(len(edges)), list(edges), rotation=45, ha="right", fontsize=8)
    ax2.set_title("Edges by type")
    ax2.set_xlabel("edge type")
    ax2.set_ylabel("edges (count)")
    fig.suptitle(f"Workspace: {len(insts)} instrument versions, {sum(edges.values())} edges")
    return fig


def evidence_figure(question: str, results: dict[str, list[Hit]], width: int = 90) -> Fig:
    """Top evidence per retrieval mode with its score; the question (cut to `width`
    characters, ending with "…" when cut) is the title."""
    fig = _figure((6.5 * max(len(results), 1), 4.0))
    axes = fig.subplots(1, max(len(results), 1), squeeze=False)[0]
    for ax, (mode, hits) in zip(axes, results.items()):
        ax.barh([h.unit_id for h in hits], [h.score for h in hits], color="tab:blue")
        ax.invert_yaxis()
        ax.set_title(f"{mode} (top {len(hits)})")
        ax.tick_params(axis="y", labelsize=8)
        ax.set_xlabel("retrieval score")
        ax.set_ylabel("unit id (rank order)")
    text = shorten(question, width)
    font = _font_for(text)
    if font is None:
        fig.suptitle("Evidence per retrieval mode (the question's script has no installed font)", fontsize=10)
    else:
        fig.suptitle(f"Evidence per retrieval mode: {text}", fontsize=10, fontproperties=font)
    return fig


def metrics_figure(summary: dict, metrics=("recall@5", "recall@10", "mrr", "map@10", "hit@1", "citation_f1",
                                           "macro_f2"), by_category=("recall@5", "macro_f2")) -> Fig:
    """Overall metrics per system, and one panel per metric in `by_category` (a name or a
    tuple of names) per question category (`Evaluation.summary()`)."""
    import numpy as np
    systems = list(summary["systems"])
    first = summary["systems"][systems[0]]["overall"] if systems else {}
    metrics = [m for m in metrics if m in first]
    per_cat = [m for m in ((by_category,) if isinstance(by_category, str) else by_category) if m in first]
    cats = list(summary["categories"])
    fig = _figure((15 + 4 * max(len(per_cat) - 1, 0), 4.6))
    axes = fig.subplots(1, 1 + len(per_cat),
                        width_ratios=[max(len(metrics), 1)] + [max(len(cats), 2)] * len(per_cat))
    ax1 = axes[0] if per_cat else axes
    width = 0.8 / max(len(systems), 1)
    x = np.arange(len(metrics))
    for i, name in enumerate(systems):
        ax1.bar(x + i * width, [summary["systems"][name]["overall"][m] for m in metrics], width,
                label=name, color=f"C{i % 10}")
    ax1.set_xticks(x + width * (len(systems) - 1) / 2, metrics, rotation=30, ha="right")
    ax1.set_ylim(0, 1.05)
    ax1.set_xlabel("metric")
    ax1.set_ylabel("score (0–1, mean over questions)")
    ax1.set_title("Overall")
    x = np.arange(len(cats))
    for ax, metric in zip(axes[1:] if per_cat else [], per_cat):
        for i, name in enumerate(systems):
            ax.bar(x + i * width, [summary["systems"][name]["by_category"][c][metric] for c in cats], width,
                   label=name, color=f"C{i % 10}")
        ax.set_xticks(x + width * (len(systems) - 1) / 2, [f"{c} ({summary['categories'][c]})" for c in cats],
                      rotation=30, ha="right")
        ax.set_ylim(0, 1.05)
        ax.set_xlabel("question category (questions)")
        ax.set_ylabel(f"{metric} (0–1)")
        ax.set_title(f"{metric} by category")
    if systems:
        (axes[-1] if per_cat else ax1).legend(title="system", **LEGEND)
    fig.suptitle(f"{summary['benchmark']}: {summary['questions']} questions, {len(systems)} systems")
    return fig


# -- notebooks: degrees, timelines, confidence intervals, sweeps --------------------------------
def degree_figure(degrees: dict[str, list[int]]) -> Fig:
    """Degree distribution per edge type (units with at least one edge of that type),
    as a complementary cumulative distribution (log y; log x too when degrees reach 20)."""
    import numpy as np
    fig = _figure((8.5, 4.2))
    ax = fig.subplots()
    top = 1
    for etype, values in degrees.items():
        if not values:
            continue
        d = np.asarray(values)
        ks = np.unique(d)
        ax.plot(ks, [(d >= k).mean() for k in ks], "o-", ms=4, label=f"{etype} ({len(d)} units, max {d.max()})")
        top = max(top, int(d.max()))
    if top >= 20:
        ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("degree x (edges in + out)")
    ax.set_ylabel("share of units with degree ≥ x")
    ax.set_title("Degree distribution by edge type")
    if ax.get_legend_handles_labels()[0]:
        ax.legend(title="edge type", **LEGEND)
    return fig


def timeline_figure(versions: list, marks: dict[str, object] | None = None, title: str = "") -> Fig:
    """When each version applied: one bar per unit (with .id, .effective_from, .effective_to),
    open-ended versions drawn to today (hatched); `marks` {label: date} are vertical lines."""
    import datetime as dt
    import matplotlib.dates as mdates
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    today = dt.date.today()
    marks = marks or {}
    fig = _figure((10, 0.55 * len(versions) + 2.0))
    ax = fig.subplots()
    starts = [v.effective_from or dt.date(1990, 1, 1) for v in versions]
    ends = [v.effective_to or today for v in versions]
    for i, (v, s, e) in enumerate(zip(versions, starts, ends)):
        ax.barh(i, mdates.date2num(e) - mdates.date2num(s), left=mdates.date2num(s), height=0.5,
                color=f"C{i % 10}", alpha=0.85, hatch="" if v.effective_to else "//")
        ax.text(mdates.date2num(s), i - 0.33, f" {s} → {v.effective_to or 'in force'}", fontsize=8, va="bottom")
    for n, (label, on) in enumerate(marks.items()):
        on = dt.date.fromisoformat(on) if isinstance(on, str) else on
        ax.axvline(mdates.date2num(on), color="k", ls="--", lw=1)
        ax.text(mdates.date2num(on), len(versions) - 0.4 + 0.3 * n, f" {label}", fontsize=8)
    ax.set_yticks(range(len(versions)), [v.id for v in versions], fontsize=9)
    ax.xaxis_date()
    ax.set_ylim(len(versions) - 0.2 + 0.3 * len(marks), -0.7)
    ax.set_xlabel("date (in force from → to)")
    ax.set_ylabel("version (unit id)")
    ax.set_title(title or "Versions in force over time")
    handles = [Patch(facecolor="0.7", label="ended (effective_to set)"),
               Patch(facecolor="0.7", hatch="//", label=f"open-ended, drawn to today ({today})")]
    if marks:
        handles.append(Line2D([], [], color="k", ls="--", lw=1, label="dates marked"))
    ax.legend(handles=handles, **LEGEND)
    return fig


def ci_figure(cis: dict[str, dict[str, tuple[float, float, float]]], metric: str = "recall@5",
              title: str = "") -> Fig:
    """Grouped bars per category (one colour per system) with confidence intervals:
    `cis` is {system: {category: (mean, lo, hi)}} (stats.category_cis)."""
    import numpy as np
    systems = list(cis)
    cats = list(next(iter(cis.values()))) if cis else []
    fig = _figure((max(8.5, 1.6 * len(cats) + 4), 4.4))
    ax = fig.subplots()
    width = 0.8 / max(len(systems), 1)
    x = np.arange(len(cats))
    for i, name in enumerate(systems):
        m = np.array([cis[name][c][0] for c in cats])
        lo = np.array([cis[name][c][1] for c in cats])
        hi = np.array([cis[name][c][2] for c in cats])
        ax.bar(x + i * width, m, width, label=name, yerr=[m - lo, hi - m], capsize=3, color=f"C{i % 10}")
    ax.set_xticks(x + width * (len(systems) - 1) / 2, cats)
    ax.set_ylim(0, 1.1)
    ax.set_xlabel("question category")
    ax.set_ylabel(f"{metric} (mean, 0–1)")
    ax.set_title(title or f"{metric} by category (error bars: 95% bootstrap CI)")
    if systems:
        ax.legend(title="system", **LEGEND)
    return fig


def heatmap_figure(grid, rows: list, cols: list, row_label: str = "hops", col_label: str = "weight",
                   title: str = "", metric: str = "score", vmin: float = 0.0, vmax: float = 1.0) -> Fig:
    """A grid of scores (rows x cols) as a heat map with the value in each cell. The colour
    range is fixed, [vmin, vmax] = [0, 1] for a metric in [0, 1] unless given, and stated on
    the colour bar (arrows mark values outside it)."""
    import numpy as np
    g = np.asarray(grid, dtype=float).reshape(len(rows), len(cols))
    fig = _figure((1.2 * len(cols) + 3.5, 0.7 * len(rows) + 2.2))
    ax = fig.subplots()
    im = ax.imshow(g, cmap="viridis", aspect="auto", vmin=vmin, vmax=vmax)
    mid = (vmin + vmax) / 2
    for i in range(g.shape[0]):
        for j in range(g.shape[1]):
            v = g[i, j]
            ax.text(j, i, "n/a" if math.isnan(v) else f"{v:.3f}", ha="center", va="center", fontsize=8,
                    color="white" if not math.isnan(v) and v < mid else "black")
    ax.set_xticks(range(len(cols)), [str(c) for c in cols])
    ax.set_yticks(range(len(rows)), [str(r) for r in rows])
    ax.set_xlabel(col_label)
    ax.set_ylabel(row_label)
    ax.set_title(title or f"{metric} by {row_label} × {col_label}")
    low = bool(np.nanmin(g) < vmin) if g.size and not np.isnan(g).all() else False
    high = bool(np.nanmax(g) > vmax) if g.size and not np.isnan(g).all() else False
    extend = {(False, False): "neither", (True, False): "min", (False, True): "max", (True, True): "both"}[low, high]
    cbar = fig.colorbar(im, ax=ax, extend=extend)
    cbar.set_label(f"{metric} (colour range {vmin:g}–{vmax:g})")
    return fig

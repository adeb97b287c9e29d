"""Figures (matplotlib, written to files; no display needed)."""
from __future__ import annotations

from pathlib import Path

from ..core.records import Hit


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def workspace_figure(info: dict, path: str | Path) -> Path:
    """Units by kind for each instrument version, and edges by type."""
    plt = _plt()
    insts = info["instruments"]
    kinds = sorted({k for i in insts for k in i["units_by_kind"]})
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 0.45 * len(insts) + 2.5),
                                   gridspec_kw={"width_ratios": [3, 1]})
    labels = [f"{i['key']}@{i['version']}" for i in insts]
    left = [0] * len(insts)
    for kind in kinds:
        vals = [i["units_by_kind"].get(kind, 0) for i in insts]
        ax1.barh(labels, vals, left=left, label=kind)
        left = [a + b for a, b in zip(left, vals)]
    ax1.set_title("Units by kind per instrument version")
    ax1.legend(fontsize=8, ncol=len(kinds), loc="upper center", bbox_to_anchor=(0.5, -0.06))
    ax1.invert_yaxis()
    edges = info["edges_by_type"]
    ax2.bar(list(edges), list(edges.values()), color="tab:gray")
    ax2.set_title("Edges by type")
    ax2.tick_params(axis="x", rotation=45)
    fig.tight_layout()
    return _save(fig, path)


def evidence_figure(question: str, results: dict[str, list[Hit]], path: str | Path) -> Path:
    """Top evidence per retrieval mode with its score."""
    plt = _plt()
    fig, axes = plt.subplots(1, len(results), figsize=(6.5 * len(results), 3.8))
    axes = [axes] if len(results) == 1 else list(axes)
    for ax, (mode, hits) in zip(axes, results.items()):
        ax.barh([h.unit_id for h in hits], [h.score for h in hits], color="tab:blue")
        ax.invert_yaxis()
        ax.set_title(f"{mode}")
        ax.tick_params(axis="y", labelsize=8)
        ax.set_xlabel("score")
    fig.suptitle(question if question.isascii() else "evidence per mode", fontsize=10)
    fig.tight_layout()
    return _save(fig, path)


def _save(fig, path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    _plt().close(fig)
    return path


def metrics_figure(summary: dict, path: str | Path,
                   metrics=("recall@5", "recall@10", "mrr", "map@10", "hit@1", "citation_f1", "macro_f2")) -> Path:
    """Overall metrics per system, and recall@5 per question category."""
    import numpy as np
    plt = _plt()
    systems = list(summary["systems"])
    cats = list(summary["categories"])
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(15, 4.2), gridspec_kw={"width_ratios": [len(metrics), max(len(cats), 2)]})
    width = 0.8 / len(systems)
    x = np.arange(len(metrics))
    for i, name in enumerate(systems):
        ax1.bar(x + i * width, [summary["systems"][name]["overall"][m] for m in metrics], width, label=name)
    ax1.set_xticks(x + width * (len(systems) - 1) / 2, metrics)
    ax1.set_ylim(0, 1.05)
    ax1.set_title(f"{summary['benchmark']} ({summary['questions']} questions)")
    ax1.legend(fontsize=8)
    x = np.arange(len(cats))
    for i, name in enumerate(systems):
        ax2.bar(x + i * width, [summary["systems"][name]["by_category"][c]["recall@5"] for c in cats], width, label=name)
    ax2.set_xticks(x + width * (len(systems) - 1) / 2, [f"{c} ({summary['categories'][c]})" for c in cats])
    ax2.set_ylim(0, 1.05)
    ax2.set_title("recall@5 by category")
    fig.tight_layout()
    return _save(fig, path)


# -- notebooks: degrees, timelines, confidence intervals, sweeps --------------------------------
def degree_figure(degrees: dict[str, list[int]], path: str | Path) -> Path:
    """Degree distribution per edge type (units with at least one edge of that type),
    as a complementary cumulative distribution (log y; log x too when degrees reach 20)."""
    import numpy as np
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7, 4.2))
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
    ax.set_xlabel("degree (in + out)")
    ax.set_ylabel("share of units with degree ≥ x")
    ax.set_title("Degree distribution by edge type")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return _save(fig, path)


def timeline_figure(versions: list, path: str | Path, marks: dict[str, object] | None = None,
                    title: str = "") -> Path:
    """When each version applied: one bar per unit (with .id, .effective_from, .effective_to),
    open-ended versions drawn to today; `marks` {label: date} are drawn as vertical lines."""
    import datetime as dt
    import matplotlib.dates as mdates
    plt = _plt()
    today = dt.date.today()
    fig, ax = plt.subplots(figsize=(9, 0.55 * len(versions) + 1.6))
    starts = [v.effective_from or dt.date(1990, 1, 1) for v in versions]
    ends = [v.effective_to or today for v in versions]
    for i, (v, s, e) in enumerate(zip(versions, starts, ends)):
        ax.barh(i, mdates.date2num(e) - mdates.date2num(s), left=mdates.date2num(s), height=0.5,
                color=f"C{i % 10}", alpha=0.85, hatch="" if v.effective_to else "//")
        ax.text(mdates.date2num(s), i - 0.33, f" {s} → {v.effective_to or 'in force'}", fontsize=8, va="bottom")
    for n, (label, on) in enumerate((marks or {}).items()):
        on = dt.date.fromisoformat(on) if isinstance(on, str) else on
        ax.axvline(mdates.date2num(on), color="k", ls="--", lw=1)
        ax.text(mdates.date2num(on), len(versions) - 0.4 + 0.3 * n, f" {label}", fontsize=8)
    ax.set_yticks(range(len(versions)), [v.id for v in versions], fontsize=9)
    ax.invert_yaxis()
    ax.xaxis_date()
    ax.set_ylim(len(versions) - 0.2 + 0.3 * len(marks or {}), -0.7)
    ax.set_title(title or "Versions in force over time")
    fig.tight_layout()
    return _save(fig, path)


def ci_figure(cis: dict[str, dict[str, tuple[float, float, float]]], path: str | Path, metric: str = "recall@5",
              title: str = "") -> Path:
    """Grouped bars per category (one colour per system) with confidence intervals:
    `cis` is {system: {category: (mean, lo, hi)}} (lab.category_cis)."""
    import numpy as np
    plt = _plt()
    systems = list(cis)
    cats = list(next(iter(cis.values()))) if cis else []
    fig, ax = plt.subplots(figsize=(max(7, 1.6 * len(cats) + 2), 4.2))
    width = 0.8 / max(len(systems), 1)
    x = np.arange(len(cats))
    for i, name in enumerate(systems):
        m = np.array([cis[name][c][0] for c in cats])
        lo = np.array([cis[name][c][1] for c in cats])
        hi = np.array([cis[name][c][2] for c in cats])
        ax.bar(x + i * width, m, width, label=name, yerr=[m - lo, hi - m], capsize=3)
    ax.set_xticks(x + width * (len(systems) - 1) / 2, cats)
    ax.set_ylim(0, 1.1)
    ax.set_ylabel(metric)
    ax.set_title(title or f"{metric} by category (95% bootstrap CI)")
    ax.legend(fontsize=8, ncol=min(len(systems), 5))
    fig.tight_layout()
    return _save(fig, path)


def heatmap_figure(grid, rows: list, cols: list, path: str | Path, row_label: str = "hops",
                   col_label: str = "weight", title: str = "") -> Path:
    """A grid of scores (rows x cols) as a heat map with the value in each cell."""
    import numpy as np
    plt = _plt()
    g = np.asarray(grid, dtype=float)
    fig, ax = plt.subplots(figsize=(1.1 * len(cols) + 2.5, 0.7 * len(rows) + 1.8))
    im = ax.imshow(g, cmap="viridis", aspect="auto", vmin=np.nanmin(g), vmax=np.nanmax(g))
    for i in range(g.shape[0]):
        for j in range(g.shape[1]):
            ax.text(j, i, f"{g[i, j]:.3f}", ha="center", va="center", fontsize=8,
                    color="white" if g[i, j] < (np.nanmin(g) + np.nanmax(g)) / 2 else "black")
    ax.set_xticks(range(len(cols)), [str(c) for c in cols])
    ax.set_yticks(range(len(rows)), [str(r) for r in rows])
    ax.set_xlabel(col_label)
    ax.set_ylabel(row_label)
    ax.set_title(title)
    fig.colorbar(im, ax=ax)
    fig.tight_layout()
    return _save(fig, path)

"""Figures (matplotlib, written to files; no display needed)."""
from __future__ import annotations

from pathlib import Path

from .records import Hit


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


def metrics_figure(summary: dict, path: str | Path, metrics=("recall@5", "mrr", "hit@1", "citation_f1")) -> Path:
    """Overall metrics per system, and recall@5 per question category."""
    import numpy as np
    plt = _plt()
    systems = list(summary["systems"])
    cats = list(summary["categories"])
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 4.2))
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

"""Reading evaluation results (the JSON `workbench eval --json` writes): where a system loses, by
question category and kind of failure (`failures`), and what changed between two runs of one
benchmark, question by question with paired tests (`compare`). Both read the result files only.

Kinds of failure of one question, from its ranked and cited ids (compared as the run compared
them: at article level unless the run matched exactly, copies of an instrument held twice as one):

- right: every gold unit cited and nothing else (citation F1 = 1);
- missed: no gold unit among the first five ranked -- a retrieval miss, whatever was cited;
- wrong first: a gold unit ranks in the first five, but the first cited unit is not gold;
- one too many: the first cited is gold, every gold unit is cited, and more besides;
- one too few: the first cited is gold, everything cited is gold, a gold unit is left out;
- mixed: the first cited is gold, one left out and one wrongly added.
"""
from __future__ import annotations

import json
from pathlib import Path

from ..core.errors import WorkbenchError
from .metrics import _norm, wilcoxon
from .stats import format_p

KINDS = ("right", "missed", "wrong first", "one too many", "one too few", "mixed")
COMPARED = ("recall@5", "recall@10", "mrr", "hit@1", "citation_f1")


def load_result(path: str | Path) -> dict:
    """An evaluation result file, checked: one clear error naming the file otherwise."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise WorkbenchError(f"{p}: no such file; give a result written by `workbench eval --json`") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise WorkbenchError(f"{p}: not JSON ({e}); give a result written by `workbench eval --json`") from None
    if not isinstance(data, dict) or not isinstance(data.get("per_question"), dict) or not data["per_question"]:
        raise WorkbenchError(f"{p}: no per-question results; give a result written by `workbench eval --json`")
    return data


def rows_of(result: dict, system: str, split: str | None, source: str = "") -> list[dict]:
    """The per-question rows of one system (and one split, if given)."""
    per = result["per_question"]
    if system not in per:
        raise WorkbenchError(f"{source or 'result'}: no system {system!r}; it holds {', '.join(per)} (--system)")
    return [r for r in per[system] if split is None or r.get("split") == split]


def kind_of(row: dict, match: str = "article", names: dict[str, str] | None = None) -> str:
    """The kind of failure of one per-question row (module docstring)."""
    if row.get("citation_f1", 0.0) >= 1.0 - 1e-9:
        return "right"
    gold = set(_norm(row["gold"], match, names))
    ranked, cited = _norm(row.get("ranked", []), match, names), _norm(row.get("cited", []), match, names)
    if not gold & set(ranked[:5]):
        return "missed"
    if not cited or cited[0] not in gold:
        return "wrong first"
    extra, left = any(c not in gold for c in cited), bool(gold - set(cited))
    return "mixed" if extra and left else "one too many" if extra else "one too few"


def failures(result: dict, system: str = "graph", split: str | None = None, source: str = "") -> dict:
    """Per category and kind: how many questions, and the citation F1 they lose (1 - F1, summed)."""
    match, names = result.get("match", "article"), result.get("twins") or None
    out: dict[str, dict[str, dict]] = {}
    for row in rows_of(result, system, split, source):
        cell = out.setdefault(row.get("category", "all"), {}).setdefault(kind_of(row, match, names),
                                                                          {"n": 0, "lost": 0.0, "ids": []})
        cell["n"] += 1
        cell["lost"] += 1.0 - row.get("citation_f1", 0.0)
        cell["ids"].append(row["id"])
    return out


def join(founds: list[dict]) -> dict:
    """The `failures` of several result files counted together (several benchmarks of one kind)."""
    out: dict[str, dict[str, dict]] = {}
    for found in founds:
        for cat, cells in found.items():
            for k, c in cells.items():
                t = out.setdefault(cat, {}).setdefault(k, {"n": 0, "lost": 0.0, "ids": []})
                t["n"] += c["n"]
                t["lost"] += c["lost"]
                t["ids"] += c["ids"]
    return out


def failures_table(found: dict) -> str:
    """Markdown: categories as rows, kinds as columns; each cell 'questions (F1 lost)'."""
    lines = ["| category | questions | " + " | ".join(KINDS) + " | cit. F1 |", "|" + "---|" * (len(KINDS) + 3)]
    for cat in sorted(found) + (["all"] if len(found) > 1 else []):
        cells = found[cat] if cat != "all" else join([{"all": c} for c in found.values()])["all"]
        n = sum(c["n"] for c in cells.values())
        lost = sum(c["lost"] for c in cells.values())
        shown = [f"{cells[k]['n']}" + (f" ({cells[k]['lost']:.1f})" if k != "right" else "") if k in cells else "0"
                 for k in KINDS]
        lines.append(f"| {cat} | {n} | " + " | ".join(shown) + f" | {1 - lost / n:.3f} |")
    return "\n".join(lines)


def compare(before: dict, after: dict, system: str = "graph", split: str | None = None,
            sources: tuple[str, str] = ("before", "after")) -> dict:
    """Two runs of one benchmark, question by question (the questions both hold): each metric's
    mean before and after with a paired Wilcoxon test, and the questions whose citation F1 or MRR
    moved."""
    a = {r["id"]: r for r in rows_of(before, system, split, sources[0])}
    b = {r["id"]: r for r in rows_of(after, system, split, sources[1])}
    ids = [i for i in a if i in b]
    if not ids:
        raise WorkbenchError(f"{sources[0]} and {sources[1]}: no question in common for {system!r}"
                             + (f" in the {split} part" if split else "") + "; compare two runs of one benchmark")
    metrics = {}
    for m in COMPARED:
        x, y = [a[i].get(m, 0.0) for i in ids], [b[i].get(m, 0.0) for i in ids]
        metrics[m] = {"before": sum(x) / len(ids), "after": sum(y) / len(ids), **wilcoxon(y, x)}
    moved = [{"id": i, "category": a[i].get("category", "all"), "split": a[i].get("split", ""),
              **{f"{m} before": a[i].get(m, 0.0) for m in ("citation_f1", "mrr")},
              **{f"{m} after": b[i].get(m, 0.0) for m in ("citation_f1", "mrr")}}
             for i in ids if any(abs(a[i].get(m, 0.0) - b[i].get(m, 0.0)) > 1e-9 for m in ("citation_f1", "mrr"))]
    return {"questions": len(ids), "only before": len(a) - len(ids), "only after": len(b) - len(ids),
            "metrics": metrics, "moved": moved}


def compare_table(found: dict) -> str:
    """Markdown: the means before and after with the paired test, then the questions that moved."""
    def test(r: dict) -> str:
        return "no difference" if not r["n"] else f"{format_p(r['p'])}, n = {r['n']}"
    lines = [f"{found['questions']} questions in both runs"
             + (f" ({found['only before']} only before, {found['only after']} only after)"
                if found["only before"] or found["only after"] else ""),
             "", "| metric | before | after | Wilcoxon |", "|---|---|---|---|"]
    lines += [f"| {m} | {r['before']:.3f} | {r['after']:.3f} | {test(r)} |" for m, r in found["metrics"].items()]
    up = [r for r in found["moved"] if _gain(r) > 0]
    down = [r for r in found["moved"] if _gain(r) < 0]
    for title, rows in (("up", up), ("down", down)):
        lines += ["", f"{title}: {len(rows)}"]
        lines += [f"  {r['id']} ({r['category']}{', ' + r['split'] if r['split'] else ''}): cit. F1 "
                  f"{r['citation_f1 before']:.2f} -> {r['citation_f1 after']:.2f}, MRR {r['mrr before']:.2f} -> "
                  f"{r['mrr after']:.2f}" for r in rows]
    return "\n".join(lines)


def _gain(r: dict) -> float:
    """Up or down: citation F1 first, MRR when F1 did not move."""
    d = r["citation_f1 after"] - r["citation_f1 before"]
    return d if abs(d) > 1e-9 else r["mrr after"] - r["mrr before"]

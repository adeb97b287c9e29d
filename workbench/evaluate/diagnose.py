"""Reading evaluation results (the JSON `workbench eval --json` writes): where a system loses, by
question category and kind of failure (`failures`), and what changed between two runs of one
benchmark, question by question with paired tests (`compare`). Both read the result files only.

Kinds of failure of one question, from its ranked and cited ids (compared as the run compared
them: at article level unless the run matched exactly, copies of an instrument held twice as one):

- right: every gold unit cited and nothing else (citation F1 = 1);
- missed: no gold unit among the first five ranked (recall@5 = 0) -- a retrieval miss, whatever was cited;
- wrong first: a gold unit ranks in the first five, but the first cited unit is not gold, or nothing is cited;
- one too many: the first cited is gold, every gold unit is cited, and at least one more besides;
- one too few: the first cited is gold, everything cited is gold, at least one gold unit left out;
- mixed: the first cited is gold, some gold left out and some other unit cited -- and a row whose ids
  agree with its gold although its F1 is below 1 (a file read without the twin names its run used).
"""
from __future__ import annotations

import json
from pathlib import Path

from ..core.errors import WorkbenchError
from .metrics import _norm, wilcoxon
from .stats import format_p

KINDS = ("right", "missed", "wrong first", "one too many", "one too few", "mixed")
TOTAL = "(all categories)"     # the total row: not a category name ("all" is the category of unlabelled questions)
COMPARED = ("recall@5", "recall@10", "mrr", "hit@1", "citation_f1")


def load_result(path: str | Path) -> dict:
    """An evaluation result file, checked: one clear error naming the file otherwise."""
    p = Path(path)
    fix = "give a result written by `workbench eval --json`"
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise WorkbenchError(f"{p}: no such file; {fix}") from None
    except OSError as e:
        raise WorkbenchError(f"{p}: cannot be read ({e.strerror or e}); {fix}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise WorkbenchError(f"{p}: not JSON ({e}); {fix}") from None
    per = data.get("per_question") if isinstance(data, dict) else None
    if not isinstance(per, dict) or not per:
        raise WorkbenchError(f"{p}: no per-question results; {fix}")
    for system, rows in per.items():
        bad = "not a list of questions" if not isinstance(rows, list) else next(
            (f"question {n} has no {key!r}" for n, row in enumerate(rows, 1)
             for key in ("id", "gold") if not isinstance(row, dict) or key not in row), "")
        if bad:
            raise WorkbenchError(f"{p}: per_question[{system!r}]: {bad}; {fix}")
    if not isinstance(data.get("twins", {}), dict) or data.get("match", "article") not in ("article", "exact"):
        raise WorkbenchError(f"{p}: 'twins' must map instrument keys to names and 'match' be article or exact; {fix}")
    return data


def stale(result: dict) -> bool:
    """A result written before result files recorded how ids were matched and the workspace's twin
    instruments: read at article level, every instrument on its own."""
    return "match" not in result or "twins" not in result


def rows_of(result: dict, system: str, split: str | None, source: str = "") -> list[dict]:
    """The per-question rows of one system (and one split, if given); an error when none is left."""
    per = result["per_question"]
    if system not in per:
        raise WorkbenchError(f"{source or 'result'}: no system {system!r}; it holds {', '.join(per)} (--system)")
    rows = [r for r in per[system] if split is None or r.get("split") == split]
    if not rows:
        raise WorkbenchError(f"{source or 'result'}: no question of {system!r}"
                             + (f" in the {split} part (--split)" if split else ""))
    return rows


def kind_of(row: dict, match: str = "article", names: dict[str, str] | None = None) -> str:
    """The kind of failure of one per-question row (module docstring). Whether a gold unit ranks in
    the first five is the row's own recall@5 when it has one (the run ranked more than the ten ids a
    row keeps), else read from its ranked ids."""
    if row.get("citation_f1", 0.0) >= 1.0 - 1e-9:
        return "right"
    gold = set(_norm(row["gold"], match, names))
    cited = _norm(row.get("cited", []), match, names)
    found = row["recall@5"] > 0 if "recall@5" in row else bool(gold & set(_norm(row.get("ranked", []), match, names)[:5]))
    if not found:
        return "missed"
    if not cited or cited[0] not in gold:
        return "wrong first"
    extra, left = any(c not in gold for c in cited), bool(gold - set(cited))
    return "one too many" if extra and not left else "one too few" if left and not extra else "mixed"


def failures(result: dict, system: str = "graph", split: str | None = None, source: str = "") -> dict:
    """Per category and kind: how many questions, and the citation F1 they lose (1 - F1, summed)."""
    match, names = result.get("match", "article"), result.get("twins") or None
    out: dict[str, dict[str, dict]] = {}
    for row in rows_of(result, system, split, source):
        _tally(out, row.get("category", "all"), kind_of(row, match, names),
               {"n": 1, "lost": 1.0 - row.get("citation_f1", 0.0), "ids": [row["id"]]})
    return out


def _tally(out: dict, cat: str, kind: str, cell: dict) -> None:
    """Add one cell (questions, F1 lost, their ids) to out[cat][kind]."""
    t = out.setdefault(cat, {}).setdefault(kind, {"n": 0, "lost": 0.0, "ids": []})
    t["n"] += cell["n"]
    t["lost"] += cell["lost"]
    t["ids"] += cell["ids"]


def join(founds: list[dict]) -> dict:
    """The `failures` of several result files counted together (several benchmarks of one kind)."""
    out: dict[str, dict[str, dict]] = {}
    for found in founds:
        for cat, cells in found.items():
            for k, c in cells.items():
                _tally(out, cat, k, c)
    return out


def failures_table(found: dict) -> str:
    """Markdown: categories as rows, kinds as columns; each cell 'questions (F1 lost)'."""
    lines = ["| category | questions | " + " | ".join(KINDS) + " | cit. F1 |", "|" + "---|" * (len(KINDS) + 3)]
    for cat in sorted(found) + ([TOTAL] if len(found) > 1 else []):
        cells = found[cat] if cat != TOTAL else join([{TOTAL: c} for c in found.values()])[TOTAL]
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
    for key in ("match", "twins"):          # a file older than these keys is taken as scored like the other
        if key in before and key in after and before[key] != after[key]:
            raise WorkbenchError(f"{sources[0]} and {sources[1]}: ids were compared differently ({key!r}); "
                                 "compare two runs scored the same way")
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

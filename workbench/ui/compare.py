"""Two retrievals side by side: result A (pinned) and result B (the current settings), with
how each unit moved between them, what changed in the settings, and — when the question has
gold units — the metric deltas (the same metrics `workbench eval` reports)."""
from __future__ import annotations

import html
from dataclasses import fields

import polars as pl

from ..evaluate.metrics import score_question

METRICS = ("recall@5", "mrr", "hit@1", "citation_f1")


def moves(a, b) -> pl.DataFrame:
    """One row per unit in A or B: its rank in each (null when absent) and the move from A
    to B: "↑2" (up two places), "↓1", "=", "new" (only in B), "dropped" (only in A)."""
    ra = {h.unit_id: i for i, h in enumerate(a.hits, 1)}
    rb = {h.unit_id: i for i, h in enumerate(b.hits, 1)}
    rows = []
    for uid in list(rb) + [u for u in ra if u not in rb]:
        x, y = ra.get(uid), rb.get(uid)
        move = "new" if x is None else "dropped" if y is None else "=" if x == y else (f"↑{x - y}" if y < x else f"↓{y - x}")
        rows.append({"unit_id": uid, "rank_a": x, "rank_b": y, "move": move,
                     "cited_a": uid in set(a.cited), "cited_b": uid in set(b.cited)})
    schema = {"unit_id": pl.String, "rank_a": pl.Int64, "rank_b": pl.Int64, "move": pl.String,
              "cited_a": pl.Boolean, "cited_b": pl.Boolean}
    return pl.DataFrame(rows, schema=schema, orient="row") if rows else pl.DataFrame(schema=schema)


def metric_deltas(a, b, gold: list[str], match: str = "article") -> pl.DataFrame:
    """The question's metrics for A and B and B − A."""
    sa = score_question([h.unit_id for h in a.hits], list(a.cited), gold, match)
    sb = score_question([h.unit_id for h in b.hits], list(b.cited), gold, match)
    return pl.DataFrame([{"metric": m, "a": float(sa[m]), "b": float(sb[m]), "delta": float(sb[m] - sa[m])}
                         for m in METRICS if m in sa])


def settings_diff(ca, cb) -> list[str]:
    """The settings that differ between two RetrievalConfigs, as 'name: a → b'."""
    out = []
    for f in fields(ca):
        x, y = getattr(ca, f.name), getattr(cb, f.name)
        if x == y:
            continue
        if f.name == "weights":
            out += [f"weight {w.name}: {getattr(x, w.name):g} → {getattr(y, w.name):g}" for w in fields(x)
                    if getattr(x, w.name) != getattr(y, w.name)]
        else:
            none = "policy" if f.name == "hops" else "all" if f.name == "edge_types" else "default"
            out.append(f"{f.name}: {_short(x, none)} → {_short(y, none)}")
    return out


def _short(v, none: str = "default") -> str:
    if v is None:
        return none
    if isinstance(v, tuple) and v and isinstance(v[0], tuple):
        return ", ".join(f"{k} {n}" for k, n in v)
    if isinstance(v, tuple):
        return ", ".join(map(str, v)) or "none"
    return str(v)


def compare_html(a, b, question_a: str, question_b: str, config_a, config_b, gold: list[str] | None = None) -> str:
    """A and B side by side with the moves, the settings changed and, with gold, metric deltas."""
    table = moves(a, b)
    changed = settings_diff(config_a, config_b)
    if question_a != question_b:
        changed.insert(0, f"question: {question_a} → {question_b}")
    head = ("<div class='wb-compare' style='font-size:12px;line-height:1.4;white-space:normal'>"
            f"<div><b>A</b> pinned; <b>B</b> the current settings. Changed: "
            f"{html.escape('; '.join(changed)) if changed else 'nothing'}</div>")
    if gold:
        d = metric_deltas(a, b, gold)
        head += ("<table class='deltas'><tr><th>metric</th><th>A</th><th>B</th><th>B − A</th></tr>"
                 + "".join(f"<tr><td>{r['metric']}</td><td>{r['a']:.3f}</td><td>{r['b']:.3f}</td>"
                           f"<td style='color:{'#1a7f37' if r['delta'] > 0 else '#b00020' if r['delta'] < 0 else '#333'}'>"
                           f"{r['delta']:+.3f}</td></tr>" for r in d.iter_rows(named=True)) + "</table>")
    counts = table["move"].map_elements(lambda m: m[0] if m[0] in "↑↓" else m, return_dtype=pl.String).value_counts()
    summary = ", ".join(f"{n} {m}" for m, n in sorted(counts.iter_rows()))
    rows = "".join(
        f"<tr data-unit='{html.escape(r['unit_id'], quote=True)}' class='move-{'up' if r['move'][0] == '↑' else 'down' if r['move'][0] == '↓' else r['move'].replace('=', 'same')}'>"
        f"<td>{r['rank_a'] or ''}{'★' if r['cited_a'] else ''}</td><td>{r['rank_b'] or ''}{'★' if r['cited_b'] else ''}</td>"
        f"<td class='move'>{r['move']}</td><td style='font-family:monospace;overflow-wrap:anywhere'>"
        f"{html.escape(r['unit_id'])}</td></tr>" for r in table.iter_rows(named=True))
    return (head + f"<div>moves: {html.escape(summary) or 'none'}</div>"
            "<style>.wb-compare td,.wb-compare th{text-align:left!important;padding:1px 6px}"
            ".wb-compare tr.move-up td.move{color:#1a7f37}.wb-compare tr.move-down td.move{color:#b00020}"
            ".wb-compare tr.move-new td.move{color:#0550ae;font-weight:bold}.wb-compare tr.move-dropped td{color:#999}</style>"
            "<table class='moves'><tr><th>rank A</th><th>rank B</th><th>move</th><th>unit</th></tr>"
            f"{rows}</table></div>")

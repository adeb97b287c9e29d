"""The evidence of one retrieval as the panel shows it: why each unit is there, in words, and
the re-rank's score parts under their full names (each with its formula on hover).

The table is built to be read in a narrow box (a laptop at 1280×800): four columns (rank,
unit, score, why it is here) and, under each row, a line with the score's parts — nothing
that needs a horizontal scroll bar to be seen.
"""
from __future__ import annotations

import html

FORMULA = {     # what each re-rank part measures (retrieve/rerank.py), shown on hover
    "semantic": "semantic weight × cosine with the topic, min-max over the candidates",
    "lexical": "lexical weight × BM25 (article or its best clause) / the best BM25",
    "proximity": "proximity weight / (1 + graph distance from a seed)",
    "edge": "edge weight × prior of the last edge type on its path",
    "support": "support weight × best linked candidate's base score / the best, × that edge's prior",
    "direct": "bonus: the question names this article (or it defines a term asked about)",
    "current": "bonus: in force today (no date or version named)",
    "role": "bonus: its provision role is what the question asks for",
    "named": "bonus: an instrument the question names",
    "citing": "bonus: cites an article or instrument the question names (a share of that bonus)",
    "within": "share of the named bonus for a provision citing a rule named without its instrument, in that instrument",
    "phrase": "phrase weight × share of the question's topic it holds word for word (runs of 4 characters / 3 words)",
    "change": "version comparison: change_match × share of the topic in what the compared steps changed here",
}
FOUND = {"bm25": "BM25", "dense": "dense", "bm25+dense": "BM25 + dense (fused)", "hybrid": "BM25 + dense (fused)"}


def _fmt(x: float) -> str:
    return f"{x:.3f}".rstrip("0").rstrip(".") if x else "0"


def short_id(uid: str, home: str = "") -> str:
    """`k@v/a10` as `a10` when it lies in the document `home` (`k@v`), else in full."""
    doc, _, rest = uid.partition("/")
    return rest if home and doc == home and rest else uid


def provenance(hit, rank: int) -> str:
    """Why a hit is in the list, in words: the seed's source and ranks, the direct lookup it
    stands for, or the edges walked from a seed ("reached: a10 -REFERENCES-> a16")."""
    via, u = hit.via, hit.unit
    notes = "".join(f" ({n})" for n in via.notes)
    if via.path:
        home = via.path[0].frm.partition("/")[0]
        steps = short_id(via.path[0].frm, home) + "".join(f" {link.arrow} {short_id(link.to, home)}"
                                                          for link in via.path)
        return f"reached: {steps}{notes}"
    if via.kind == "direct":
        what = f"{u.label or u.id.rpartition('/')[2]} in the {u.version} version" if u is not None else hit.unit_id
        then = f", standing for {via.detail}" if via.detail else ""
        return f"seed: direct lookup of {what}{then}{notes}"
    if via.kind in ("seed", "candidate"):
        found = via.detail or "the fused BM25 + dense search"
        return (f"seed: {found}" if via.kind == "seed" else f"candidate (not expanded from): {found}") + notes
    if via.kind in FOUND:
        return f"{FOUND[via.kind]} rank {rank}{notes}"
    return f"{via}" or "—"


def evidence_table(result, selected: str | None = None, max_text: int = 110, clickable: bool = False) -> str:
    """The ranked evidence as HTML: rank (★ cited), unit (id, instrument version, start of its
    text), score, why it is here; a second line per unit with the score's parts."""
    comps = getattr(result, "components", {}) or {}
    cited = set(getattr(result, "cited", ()) or ())
    head = "<tr><th>#</th><th>unit</th><th>score</th><th>why it is here</th></tr>"
    rows = []
    for rank, h in enumerate(result.hits, 1):
        u = h.unit
        parts = comps.get(h.unit_id, {})
        comp = " ".join(f"<span class='part' title='{html.escape(FORMULA.get(k, k))}'>{k} {_fmt(v)}</span>"
                        for k, v in parts.items() if v)
        text = " ".join((u.text if u else "").split())
        where = (f"{u.kind}{' · ' + u.role if u.role else ''} · in force {u.effective_from or '?'} – "
                 f"{u.effective_to or 'now'}") if u else ""
        cls = " ".join(c for c in ("cited" if h.unit_id in cited else "", "selected" if h.unit_id == selected else "") if c)
        uid = html.escape(h.unit_id, quote=True)
        rows.append(
            f"<tr class='hit {cls}' data-unit='{uid}'>"
            f"<td class='rank'>{rank}{'&nbsp;★' if h.unit_id in cited else ''}</td>"
            f"<td class='unit' title='{html.escape(text[:800], quote=True)}'><div class='uid'>{html.escape(h.unit_id)}</div>"
            f"<div class='meta'>{html.escape(where)}</div>"
            f"<div class='txt'>{html.escape(text[:max_text])}{'…' if len(text) > max_text else ''}</div></td>"
            f"<td class='score'>{h.score:.3f}</td><td class='via'>{html.escape(provenance(h, rank))}</td></tr>")
        if comp:
            rows.append(f"<tr class='parts {cls}' data-parts='{uid}'><td></td><td colspan='3' class='comp'>{comp}</td></tr>")
    if not rows:
        rows.append("<tr><td colspan='4'>no evidence found</td></tr>")
    route = getattr(result, "route", None)
    caption = (f"routed as <b>{html.escape(route.type)}</b>" + (f", as of {route.as_of}" if route.as_of else "")
               if route else "flat retrieval (no routing)")
    order = ("★ = cited — the cited units lead the ranking, in the order they are cited, then the rest by score"
             if cited and route else "ranked by score")
    return (f"<div class='wb-evidence'><style>"
            ".wb-evidence{max-width:100%;overflow-x:auto;line-height:1.35;white-space:normal}"
            ".wb-evidence table{border-collapse:collapse;font-size:12px;width:100%;table-layout:fixed}"
            ".wb-evidence th{text-align:left!important}"
            ".wb-evidence td,.wb-evidence th{padding:2px 5px;text-align:left!important;vertical-align:top;"
            "line-height:1.35;overflow-wrap:anywhere}"
            ".wb-evidence col.rank{width:34px}.wb-evidence col.score{width:50px}.wb-evidence col.via{width:38%}"
            ".wb-evidence tr.hit td{border-top:1px solid #e3e3e3}.wb-evidence tr.cited td{background:#fff4d6}"
            ".wb-evidence tr.selected td{background:#dbe9ff!important}"
            ".wb-evidence tr.hit{cursor:pointer}"
            ".wb-evidence div.uid{font-family:monospace;font-size:11px}"
            ".wb-evidence div.meta{color:#555;font-size:11px}"
            ".wb-evidence div.txt{color:#666;font-size:11px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}"
            ".wb-evidence td.via{font-size:11px}"
            ".wb-evidence td.comp{font-size:11px;color:#333;padding-bottom:4px}"
            ".wb-evidence span.part{display:inline-block;margin-right:8px;white-space:nowrap;"
            "border-bottom:1px dotted #999}</style>"
            f"<div class='caption' style='font-size:12px;margin:2px 0'>{len(result.hits)} units, {caption}; {order}. "
            f"{'Click a unit for its details; ' if clickable else ''}Hover a unit for its text, a score part "
            f"for its formula.</div>"
            f"<table><colgroup><col class='rank'><col class='unit'><col class='score'><col class='via'></colgroup>"
            f"{head}{''.join(rows)}</table></div>")

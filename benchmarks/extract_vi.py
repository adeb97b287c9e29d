"""Vietnamese citation extraction (workbench/link/vi.py) on the real corpora.

1. vi-phapdien-yte. Gold REFERENCES: the "(Điều này có nội dung liên quan đến Điều X …)"
   notes, kept by the parser as the article attr `related` (article -> pháp điển article
   X). A gold pair is found when a text edge (extractor "vi-citation") runs from the
   article or a unit inside it to X or a unit inside X. Only pairs whose X is in the
   corpus can be found. The text extractor never sees the notes (vi.py strips them); the
   same notes also become "phapdien-note" edges, counted apart.
   `text_states_it` bounds what any text reader could find: the article's text (notes
   stripped) names "Điều n", n being X's source article, and names X's source
   instrument, by số hiệu or by name or as "… này" when both share it.
   Gold AMENDS: the source notes' "được sửa đổi, bổ sung bởi Điều 1 Nghị định số …"
   (attr `amended_by`: article <- amending instrument). Reported: how many amending
   instruments the workspace holds (as a document, or as the source of codified
   articles), how many any text edge names (a placeholder counts when its instrument is
   the same số hiệu), and how many gold pairs a text AMENDS edge reproduces.
2. vi-alqac: REFERENCES / AMENDS / REPLACES / REPEALS edges and their resolved fraction.

    .venv/bin/python benchmarks/extract_vi.py       # prints the dict run() returns
"""
from __future__ import annotations

import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
TEXT, NOTE = "vi-citation", "phapdien-note"
TYPES = ("REFERENCES", "AMENDS", "REPLACES", "REPEALS")


def _inside(uid: str, top: str) -> bool:
    return uid == top or uid.startswith(top + "/")


def _top_article(uid: str, articles: set[str]) -> str | None:
    while uid not in articles and "/" in uid:
        uid = uid.rsplit("/", 1)[0]
    return uid if uid in articles else None


def edge_counts(edges) -> dict:
    from workbench.link.resolve import is_placeholder
    out, missing = {}, Counter()
    for kind in TYPES:
        typed = [e for e in edges if e.type.value == kind]
        out[kind] = {"edges": len(typed), "resolved": sum(e.resolved for e in typed),
                     "resolved_fraction": round(sum(e.resolved for e in typed) / len(typed), 4) if typed else None,
                     "resolved_via_phapdien_source": sum(e.resolved and dict(e.attrs).get("via") == "phapdien-source"
                                                         for e in typed),
                     "unresolved_placeholders": sum(is_placeholder(e.target) for e in typed),
                     "unresolved_not_placeholders": sum(not e.resolved and not is_placeholder(e.target) for e in typed)}
        missing.update(dict(e.attrs).get("instrument", e.target) for e in typed if is_placeholder(e.target))
    out["most_cited_missing"] = missing.most_common(6)
    return out


def phapdien(units) -> dict:
    from workbench.link.resolve import source_number
    from workbench.link.run import link_units
    from workbench.link.vi import text_citations
    t = time.perf_counter()
    edges, problems = link_units(units)
    seconds = round(time.perf_counter() - t, 2)
    text = [e for e in edges if e.extractor == TEXT]
    notes = [e for e in edges if e.extractor == NOTE]
    leaks = sum("nội dung liên quan" in e.evidence or "bởi Điều" in e.evidence for e in text)
    articles = {u.id: u for u in units if u.kind == "article"}
    by_label = {u.label: u for u in articles.values()}

    # -- REFERENCES against the related notes -------------------------------------------
    found_from: dict[str, set] = {}
    for e in text:
        if e.type.value == "REFERENCES" and e.resolved:
            top = _top_article(e.source, set(articles))
            if top:
                found_from.setdefault(top, set()).add(_top_article(e.target, set(articles)))
    gold = [(a.id, x) for a in articles.values() for x in filter(None, a.attr("related").split(";"))]
    in_corpus = [(a, by_label[x].id) for a, x in gold if x in by_label]
    found = [(a, x) for a, x in in_corpus if x in found_from.get(a, ())]
    names = {source_number(u.attr("source_instrument")): re.split(r"\s+ngày\s+", u.attr("source_title"))[0]
             for u in articles.values() if u.attr("source_title")}
    stated = [(a, x) for a, x in in_corpus if _states(articles[a], articles[x], names)]
    ref_text = [e for e in text if e.type.value == "REFERENCES"]
    predicted_pairs = {(a, x) for a, xs in found_from.items() for x in xs if x and x != a}
    gold_pairs = set(in_corpus)
    noted = {a for a, _ in gold}
    references = {
        "gold_pairs": len(gold), "gold_in_corpus": len(in_corpus), "found": len(found),
        "recall_in_corpus": round(len(found) / len(in_corpus), 4) if in_corpus else None,
        "text_states_it": len(stated),
        "found_of_stated": sum(p in set(stated) for p in found),
        "text_edges": len(ref_text),
        "text_resolved_fraction": round(sum(e.resolved for e in ref_text) / len(ref_text), 4) if ref_text else None,
        "text_resolved_via_source_index": sum(e.resolved and dict(e.attrs).get("via") == "phapdien-source"
                                             for e in ref_text),
        # article-to-article pairs the text gives for articles that carry notes, and how
        # many of them the notes also state (the notes are not exhaustive: a floor)
        "text_pairs_from_noted_articles": len({p for p in predicted_pairs if p[0] in noted}),
        "of_which_in_notes": len(predicted_pairs & gold_pairs),
        "examples_missed": [(a, x) for a, x in in_corpus if (a, x) not in set(found)][:5],
    }

    # -- AMENDS against the amended_by notes ----------------------------------------------
    gold_amends = [(a.id, source_number(item)) for a in articles.values()
                   for item in a.attr("amended_by").split(";") if source_number(item)]
    amending = {n for _, n in gold_amends}
    docs = {source_number(u.attr("number") or u.title) for u in units if u.kind == "document"} - {""}
    codified = {source_number(u.attr("source_instrument")) for u in articles.values()} - {""}
    named_by_text = {source_number(dict(e.attrs).get("instrument", "") or e.target) for e in text}
    amends_text = [e for e in text if e.type.value == "AMENDS"]
    source_of = {u.id: source_number(u.attr("source_instrument")) for u in articles.values()}
    reproduced = [(a, n) for a, n in gold_amends
                  if any(_inside(e.target, a) and source_of.get(_top_article(e.source, set(articles)) or "") == n
                         for e in amends_text)]
    amends = {
        "gold_pairs": len(gold_amends), "amending_instruments": len(amending),
        "in_workspace_as_document": len(amending & docs),
        "in_workspace_as_codified_source": len(amending & codified),
        "named_by_text_edges": len(amending & named_by_text),
        "text_amends_edges": len(amends_text),
        "gold_pairs_reproduced": len(reproduced),
    }
    notes_out = {"edges": len(notes), "REFERENCES_resolved": sum(e.resolved for e in notes
                                                                 if e.type.value == "REFERENCES"),
                 "AMENDS": sum(e.type.value == "AMENDS" for e in notes)}
    return {"units": len(units), "seconds": seconds, "problems": len(problems),
            "note_lines_leaked_into_text_edges": leaks, "text": edge_counts(text),
            "references_vs_related_notes": references, "amends_vs_amended_by_notes": amends,
            "note_edges": notes_out,
            "units_with_text_citations": sum(bool(text_citations(u)) for u in articles.values())}


def _states(a, x, names: dict) -> bool:
    """Does the text of article `a` (notes stripped) name x's source article and instrument
    (by số hiệu, by name, or as "… này" when a and x come from the same instrument)?"""
    from workbench.link.phapdien_notes import is_note_line
    from workbench.link.resolve import source_number
    body = "\n".join(s for s in a.text.split("\n") if not is_note_line(s))
    art = x.attr("source_article").replace("Điều", "").strip()
    if not art or not re.search(rf"(?i:điều)\s+{re.escape(art)}(?!\w)", body):
        return False
    number = source_number(x.attr("source_instrument"))
    if not number:
        return False
    if number == source_number(a.attr("source_instrument")) and re.search(r"(?<!\w)này(?!\w)", body):
        return True
    flat = body.lower().replace("đ", "d")
    return number in flat or bool(names.get(number)) and names[number].lower() in body.lower()


def alqac(units) -> dict:
    from workbench.link.run import link_units
    t = time.perf_counter()
    edges, problems = link_units(units)
    return {"units": len(units), "seconds": round(time.perf_counter() - t, 2), "problems": len(problems),
            "text": edge_counts([e for e in edges if e.extractor == TEXT])}


def run() -> dict:
    from workbench.parse.detect import load_corpus
    if not SHARED.exists():
        return {"skipped": f"needs {SHARED}"}
    out = {}
    out["vi-phapdien-yte"] = phapdien(load_corpus(SHARED / "vi-phapdien-yte").result.units)
    out["vi-alqac"] = alqac(load_corpus(SHARED / "vi-alqac").result.units)
    return out


if __name__ == "__main__":
    print(json.dumps(run(), ensure_ascii=False, indent=1))

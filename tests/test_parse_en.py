"""English statutes and rulebooks (parse_en) and the ObliQA / ADGM importer."""
from __future__ import annotations

from pathlib import Path

import pytest

from workbench.parse.en import parse_en
from workbench.core.records import DocumentMeta

ADGM = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "en-adgm"

HEALTH_ACT = """\
# Health Act 2020
An Act to make provision about public health.

# PART 1 — PRELIMINARY
Chapter 1: General
Article 1. Short title
This Act may be cited as the Health Act 2020.
Article 2
Definitions
In this Act—
"Minister" means the Minister responsible for health;
(a) in relation to a hospital, ...
PART II
Article 12 — Duties of the Authority
(1) The Minister shall ensure that—
(a) hospitals are inspected;
(b) records are kept.
(2) The Authority must—
(a) publish a plan, which—
(i) covers five years; and
(ii) is reviewed each year;
(b) consult the public;
(c) three;
(d) four;
(e) five;
(f) six;
(g) seven;
(h) eight;
(i) nine; and
(j) ten.
Section 4 applies to this Article.
Article 12A
1. The Authority may delegate.
2. A delegation must be in writing.
"""

RULEBOOK = """\
1 INTRODUCTION
1.1 Application
1.1.1 This Rulebook applies to every Authorised Person.
1.1.2 Guidance
(1) A Person must—
(a) do one thing;
(b) do another.
2 GENERAL
2.1 Scope
2.1.1 The Rules in this chapter apply to Insurers.
2.1.1A An inserted Rule.
"""


def _meta(key="health-act", version="2020", title="Health Act 2020") -> DocumentMeta:
    return DocumentMeta(key=key, version=version, title=title, language="en",
                        source_file=f"{key}.txt")


def _units(text: str, meta: DocumentMeta | None = None) -> dict:
    result = parse_en(text, meta or _meta())
    assert not result.problems, result.problems
    return {u.id: u for u in result.units}


@pytest.fixture(scope="module")
def act() -> dict:
    return _units(HEALTH_ACT)


def test_parts_chapters_articles(act):
    assert act["health-act@2020/pt1"].title == "PRELIMINARY"
    assert act["health-act@2020/pt1/ch1"].title == "General"
    assert act["health-act@2020/a1"].title == "Short title"
    assert act["health-act@2020/a1"].parent_id == "health-act@2020/pt1/ch1"
    assert act["health-act@2020/a12"].parent_id == "health-act@2020/pt2"   # Part II -> 2
    assert act["health-act@2020/a12"].article_no == 12


def test_preamble_and_markdown(act):
    doc = act["health-act@2020"]
    preamble = "An Act to make provision about public health."
    assert doc.text.splitlines() == ["Health Act 2020", preamble]
    assert not any("#" in u.title for u in act.values())


def test_title_on_next_line_and_definitions_stay_text(act):
    a2 = act["health-act@2020/a2"]
    assert a2.title == "Definitions"
    assert '"Minister" means the Minister responsible for health;' in a2.text


def test_clauses_points_subpoints(act):
    base = "health-act@2020/a12"
    assert act[f"{base}/c1"].kind == "clause"
    assert act[f"{base}/c2/pb"].text == "(b) consult the public;"
    assert act[f"{base}/c2/pa/1"].kind == "subpoint"
    assert act[f"{base}/c2/pa/2"].text == "(ii) is reviewed each year;"
    assert act[f"{base}/c2/pa/2"].parent_id == f"{base}/c2/pa"
    assert act[f"{base}/c2/pi"].kind == "point"          # (i) after (h) is a letter
    assert act[f"{base}/c2/pj"].label == "j"
    assert f"{base}/c2/ph/1" not in act
    assert "(ii) is reviewed each year;" in act[base].text   # articles gather their text


def test_prose_is_not_a_heading(act):
    assert "Section 4 applies to this Article." in act["health-act@2020/a12/c2/pj"].text
    assert not any(u.kind == "section" for u in act.values())


def test_article_with_letter_suffix_and_numbered_clauses(act):
    a = act["health-act@2020/a12A"]
    assert (a.label, a.article_no) == ("12A", 12)
    assert act["health-act@2020/a12A/c2"].text == "2. A delegation must be in writing."


def test_dotted_rules():
    units = _units(RULEBOOK, _meta("gen", "current", "General Rulebook"))
    rule = units["gen@current/a1.1.1"]
    assert (rule.kind, rule.label, rule.article_no) == ("article", "1.1.1", None)
    assert rule.text == "This Rulebook applies to every Authorised Person."
    assert rule.parent_id == "gen@current/ch1/s1.1"
    assert units["gen@current/ch1/s1.1"].title == "Application"
    assert units["gen@current/a1.1.2"].title == "Guidance"
    assert units["gen@current/a1.1.2/c1/pb"].text == "(b) do another."
    assert units["gen@current/ch2"].title == "GENERAL"
    assert units["gen@current/a2.1.1A"].parent_id == "gen@current/ch2/s2.1"


def test_sections_without_articles_are_articles():
    text = "SECTION 1 Short title\nThis Act is the Tiny Act.\nSection 2 Duties\n(1) Be kind.\n"
    units = _units(text, _meta("tiny-act", "1999", "Tiny Act"))
    assert units["tiny-act@1999/a2"].title == "Duties"
    assert units["tiny-act@1999/a2/c1"].text == "(1) Be kind."


def test_roman_part_and_no_articles_problem():
    result = parse_en("Part IV — Miscellaneous\nNothing here.\n", _meta())
    assert "health-act@2020/pt4" in {u.id for u in result.units}
    assert len(result.problems) == 1 and "no articles" in result.problems[0].reason


# -- the real ADGM folder ----------------------------------------------------------

@pytest.fixture(scope="module")
def adgm():
    if not (ADGM / "StructuredRegulatoryDocuments.zip").is_file():
        pytest.skip(f"ADGM corpus not found at {ADGM}")
    from workbench.parse.obliqa import import_obliqa
    return import_obliqa(ADGM)


@pytest.mark.shared
def test_adgm_counts(adgm):
    units = adgm.result.units
    assert len(adgm.documents) == 40
    assert sum(u.kind == "passage" for u in units) == 13_732
    assert len({u.id for u in units}) == len(units)
    assert sum("duplicate passage" in p.reason for p in adgm.result.problems) == 29


@pytest.mark.shared
def test_adgm_passage_units(adgm):
    from workbench.parse.obliqa import obliqa_unit_id
    units = {u.id: u for u in adgm.result.units}
    uid = obliqa_unit_id(1, "9.3.1B.Guidance.5.")
    assert uid == "adgm-1@current/r9.3.1B.Guidance.5"
    u = units[uid]
    assert (u.kind, u.label, u.article_no, u.parent_id) == ("passage", "9.3.1B.Guidance.5", 9,
                                                            "adgm-1@current")
    assert u.attr("passage_id") == "9.3.1B.Guidance.5." and u.attr("document_id") == "1"
    assert u.source_file == "StructuredRegulatoryDocuments.zip:1.json"
    assert "outsourcing obligations in GEN 3.3.31" in u.text
    assert units["adgm-17@current"].title == "FINANCIAL SERVICES AND MARKETS REGULATIONS 2015"


@pytest.mark.shared
def test_adgm_every_gold_passage_maps(adgm):
    import json

    from workbench.parse.obliqa import PassageIndex, obliqa_unit_id
    ids = {u.id for u in adgm.result.units}
    index = PassageIndex.of(adgm.result.units)
    gold = [p for q in json.loads((ADGM / "ObliQA_dev.json").read_text("utf-8"))
            for p in q["Passages"]]
    assert len(gold) == 3677
    assert all(obliqa_unit_id(p["DocumentID"], p["PassageID"]) in ids for p in gold)
    assert all(index.resolve(p["DocumentID"], p["PassageID"], p["Passage"]) for p in gold)


@pytest.mark.shared
def test_adgm_xref_endpoints(adgm):
    from workbench.parse.obliqa import check_gold
    counts = check_gold(adgm, ADGM)
    assert counts["gold_unresolved"] == 0
    assert counts["xref_source_unresolved"] == 0
    assert counts["xref_target_external"] == 67          # outside ADGM: no target passage
    # whole rules stored only as their clauses ('19.10.1' -> '19.10.1.(1)' ...)
    assert counts["xref_target_unresolved"] == counts["xref_target_as_clauses"] == 36

"""English citations (workbench/link/en.py): hand-made units, linked with link_units."""
from __future__ import annotations

import time

import pytest

from workbench.link.en import extract
from workbench.link.run import link_units
from workbench.core.records import EdgeType, Unit

from conftest import ROOT, shared_corpus


def document(key: str, title: str = "", version: str = "current", **attrs: str) -> Unit:
    return Unit(f"{key}@{version}", key, version, "document", title=title, language="en",
                attrs=tuple(attrs.items()))


def passage(doc: str, label: str, text: str = "") -> Unit:
    key, version = doc.split("@")
    return Unit(f"{doc}/r{label}", key, version, "passage", label=label, text=text, language="en",
                parent_id=doc)


def article(doc: str, path: str, text: str = "", kind: str = "article") -> Unit:
    key, version = doc.split("@")
    return Unit(f"{doc}/{path}", key, version, kind, text=text, language="en")


def rulebook(key: str, labels: list[str], aliases: str = "", texts: dict[str, str] | None = None) -> list[Unit]:
    """A document with a passage for each label (empty unless `texts` gives its text)."""
    doc = f"{key}@current"
    out = [document(key, aliases=aliases) if aliases else document(key)]
    return out + [passage(doc, label, (texts or {}).get(label, "")) for label in labels]


def links(units: list[Unit]) -> set[tuple[str, str]]:
    edges, _ = link_units(units)
    return {(e.source, e.target) for e in edges if e.type == EdgeType.REFERENCES}


def targets(units: list[Unit], source: str) -> set[str]:
    return {t for s, t in links(units) if s == source}


COBS = "adgm-3@current"


# -- internal references ------------------------------------------------------------

def test_internal_rules_lists_and_sub_paragraphs():
    units = rulebook("adgm-3", ["19.10.1", "19.10.2", "3.2.1", "3.2.1.(a)", "3.2.4", "19.10.1.(3)",
                                "19.10.1.(4)"])
    units.append(passage(COBS, "5.1.1", "Subject to Rule 19.10.2, Rules 3.2.1 and 3.2.4 and "
                                        "Rule 3.2.1(a) apply, as does Rule 19.10.1 (3) and (4)."))
    assert targets(units, f"{COBS}/r5.1.1") == {f"{COBS}/r{x}" for x in (
        "19.10.2", "3.2.1", "3.2.4", "3.2.1.(a)", "19.10.1.(3)", "19.10.1.(4)")}


def test_sub_paragraph_that_has_no_passage_falls_back_to_its_rule():
    units = rulebook("adgm-3", ["6.1.1", "6.1.2"], texts={"6.1.2": "A business risk assessment under Rule 6.1.1(b)(iii)."})
    edges, _ = link_units(units)
    (e,) = [e for e in edges if e.type == EdgeType.REFERENCES]
    assert e.target == f"{COBS}/r6.1.1" and e.resolved and e.confidence < 0.9


def test_ranges_are_filled_in():
    labels = [f"6.2.{n}" for n in range(7, 12)]
    units = rulebook("adgm-11", labels + ["1.1"], texts={"1.1": "as required by Rule 6.2.7 to 6.2.10."})
    assert targets(units, "adgm-11@current/r1.1") == {f"adgm-11@current/r6.2.{n}" for n in (7, 8, 9, 10)}


def test_chapters_parts_appendices_and_guidance_paragraphs():
    units = rulebook("adgm-13", ["4", "4.1", "4.1.1", "APP4", "APP4.A4.6", "APP4.A4.7", "1.1"],
                     texts={"1.1": "See Chapter 4, App4 and Sections A4.6 to A4.7."})
    units += rulebook("adgm-28", ["187)", "188)", "193)"], texts={"193)": "see paragraphs 187 to 188 above"})
    assert targets(units, "adgm-13@current/r1.1") == {
        "adgm-13@current/r4", "adgm-13@current/rAPP4", "adgm-13@current/rAPP4.A4.6", "adgm-13@current/rAPP4.A4.7"}
    assert targets(units, "adgm-28@current/r193)") == {"adgm-28@current/r187)", "adgm-28@current/r188)"}


# -- external references --------------------------------------------------------------

def test_gen_and_pru_list_gives_three_citations_with_their_instruments():
    text = "An Authorised Person must comply with GEN 3.3.31 and 3.3.32 and PRU 6.8."
    cites = extract(passage("adgm-1@current", "9.3.1B.Guidance.5", text))
    assert [(c.instrument, c.article) for c in cites] == [("GEN", "3.3.31"), ("GEN", "3.3.32"), ("PRU", "6.8")]
    assert {c.extractor for c in cites} == {"en-citation"}
    units = [*rulebook("adgm-7", ["3.3.31", "3.3.32.(1)", "3.3.32.(2)"], aliases="GEN;General Rulebook"),
             *rulebook("adgm-13", ["6.8"], aliases="PRU"), document("adgm-1"),
             passage("adgm-1@current", "9.3.1B.Guidance.5", text)]
    assert targets(units, "adgm-1@current/r9.3.1B.Guidance.5") == {
        "adgm-7@current/r3.3.31", "adgm-7@current/r3.3.32.(1)",   # a rule stored only as its clauses
        "adgm-13@current/r6.8"}


def test_sections_of_named_regulations_find_structured_passage_labels():
    fsmr = rulebook("adgm-17", ["Part 1.5", "Part 4.33", "Part 4.33.(1)", "Part 12.Chapter 4", "Schedule 1.5"],
                    aliases="FSMR;Financial Services and Markets Regulations")
    text = ("Section 5 of the Financial Services and Markets Regulations applies, and section 33(1) of "
            "FSMR, and chapter 4 of Part 12 of FSMR.")
    units = fsmr + [document("adgm-27"), passage("adgm-27@current", "1.1", text)]
    assert targets(units, "adgm-27@current/r1.1") == {
        "adgm-17@current/rPart 1.5", "adgm-17@current/rPart 4.33.(1)", "adgm-17@current/rPart 12.Chapter 4"}


def test_article_of_a_named_act_and_its_points():
    act = "clinic-licensing-act@2012"
    units = [document("clinic-licensing-act", "Clinic Licensing Act", "2012"),
             article(act, "a6"), article(act, "a6/c1", kind="clause"), article(act, "a6/c1/pa", kind="point"),
             article(act, "a6/c1/pc", kind="point"), article(act, "a6/c1/pd", kind="point"), article(act, "a7"),
             document("decree", "Decree", "2013"),
             article("decree@2013", "a3/c1", "In accordance with Article 7 of the Clinic Licensing Act and "
                     "point (a) of Clause 1 of Article 6 of the Clinic Licensing Act, and points (c) and (d) "
                     "of Clause 1 of Article 6 of the Clinic Licensing Act.", kind="clause")]
    assert targets(units, "decree@2013/a3/c1") == {f"{act}/a7", f"{act}/a6/c1/pa", f"{act}/a6/c1/pc",
                                                   f"{act}/a6/c1/pd"}


def test_article_with_clause_and_point_internal():
    doc = "act@1"
    units = [document("act", "Act", "1"), article(doc, "a12"), article(doc, "a12/c2", kind="clause"),
             article(doc, "a12/c2/pb", kind="point"), article(doc, "a3", "As required by Article 12(2)(b).")]
    assert targets(units, f"{doc}/a3") == {f"{doc}/a12/c2/pb"}


def test_unknown_instrument_becomes_a_placeholder():
    units = [document("adgm-17"), passage("adgm-17@current", "Part 13.168.(5)",
                                          "an application under section 8 of the Insolvency Regulations")]
    edges, _ = link_units(units)
    (e,) = [e for e in edges if e.type == EdgeType.REFERENCES]
    assert e.target == "ref:insolvencyregulations/a8" and not e.resolved


def test_guidance_reads_unqualified_sections_in_the_instrument_it_is_read_with():
    units = [*rulebook("adgm-17", ["Part 16.198"], aliases="FSMR"), document("adgm-23", read_with="FSMR"),
             passage("adgm-23@current", "4.1.3", "restrictions equivalent to those in section 198")]
    assert targets(units, "adgm-23@current/r4.1.3") == {"adgm-17@current/rPart 16.198"}


def test_that_act_is_the_act_named_before_and_a_year_is_the_version():
    units = [document("clinic-licensing-act", "Clinic Licensing Act", "2012"),
             document("clinic-licensing-act", "Clinic Licensing Act", "2018"),
             *[article(f"clinic-licensing-act@{v}", f"a{n}") for v in ("2012", "2018") for n in (8, 11)],
             document("circular", "Circular", "2020"),
             article("circular@2020", "a1", "This Circular aligns the Decree with the Clinic Licensing Act "
                     "2018, in particular with Article 8 (validity) and Article 11 (telemedicine) of that Act."),
             article("circular@2020", "a2", "A licence is valid in accordance with Article 8 of the Act.")]
    got = links(units)
    assert {t for s, t in got if s == "circular@2020/a1"} == {
        "clinic-licensing-act@2018/a8", "clinic-licensing-act@2018/a11"}
    assert not [t for s, t in got if s == "circular@2020/a2"]        # "the Act": a defined short name


# -- relative references ---------------------------------------------------------------

def test_relative_references_in_rulebook_passages():
    units = rulebook("adgm-3", ["19", "19.10", "19.10.1", "19.10.1.(1)", "19.10.1.(2)", "19.10.1.(a)"],
                     texts={"19.10.1.(2)": "Paragraph (a) of this Rule, this Rule, this section, this "
                                           "Chapter and the preceding clause apply."})
    assert targets(units, f"{COBS}/r19.10.1.(2)") == {f"{COBS}/r{x}" for x in (
        "19.10.1.(a)", "19.10.1", "19.10", "19", "19.10.1.(1)")}


def test_relative_references_in_statutes_from_the_unit_that_holds_the_text():
    doc = "act@1"
    units = [document("act", "Act", "1"), article(doc, "a8"), article(doc, "a8/c1", "1. A licence.", "clause"),
             article(doc, "a8/c1/pb", "(b) a point.", "point"),
             article(doc, "a8/c2", "2. The period in Clause 1 of this Article; paragraph (b) of the preceding "
                     "clause; subsection (1).", "clause"),
             article(doc, "a9", "Article 9\n1. See the preceding clause.\n2. x."),    # gathered: not its own
             article(doc, "a9/c1", "1. See the preceding clause.", "clause")]         # clause 1: no preceding
    got = links(units)
    assert {t for s, t in got if s == f"{doc}/a8/c2"} == {f"{doc}/a8/c1", f"{doc}/a8/c1/pb"}
    assert not [t for s, t in got if s.startswith(f"{doc}/a9")]


def test_guidance_paragraphs_are_its_own_unless_the_regulations_are_named():
    """A guidance note read with FSMR: "paragraph 146(b)" is its own paragraph 146 (item b when
    stored), "section 146" and "paragraph 146 of FSMR" are FSMR's; "paragraph 198(1)(a)" of a
    guidance without a paragraph 198 is FSMR section 198(1); a bare "paragraph 31" it does not
    hold is left unresolved, never read as section 31."""
    fsmr = rulebook("adgm-17", ["Part 12.Chapter 3.146", "Part 16.198", "Part 16.198.(1)", "Part 4.31"],
                    aliases="FSMR;Financial Services and Markets Regulations")
    guidance = [document("adgm-19", read_with="FSMR")] + [passage("adgm-19@current", label, text) for label, text in [
        ("146)", "Paragraph one hundred forty-six."), ("166)", "Stablecoins."), ("166).b)", "an item"),
        ("152)", "As set out in paragraph 146(b), and in paragraph 166(b)."),
        ("153)", "Under section 146 of the Regulations, see also paragraph 146 of FSMR."),
        ("154)", "A firm meeting paragraphs 198(1)(a) and (b) and the criteria in paragraph 31."),
        ("155)", "See paras 146 and 166(b), and para. 146 again.")]]
    units = fsmr + guidance
    assert targets(units, "adgm-19@current/r152)") == {"adgm-19@current/r146)", "adgm-19@current/r166).b)"}
    assert targets(units, "adgm-19@current/r153)") == {"adgm-17@current/rPart 12.Chapter 3.146"}
    assert targets(units, "adgm-19@current/r155)") == {"adgm-19@current/r146)", "adgm-19@current/r166).b)"}
    edges, _ = link_units(units)
    resolved = {e.target for e in edges if e.source == "adgm-19@current/r154)" and e.resolved}
    assert resolved == {"adgm-17@current/rPart 16.198.(1)"}                # not Part 4.31
    bare = [e for e in edges if e.source == "adgm-19@current/r154)" and e.evidence == "paragraph 31"]
    assert bare and not any(e.resolved for e in bare)


def test_relative_fsmr_subsection_and_schedule_paragraph():
    units = rulebook("adgm-17", ["Part 4.33.(1)", "Part 4.33.(2)", "Part 1.8", "Schedule 1.Part 2.Chapter 1.8",
                                 "Schedule 1.Part 2.Chapter 1.9"],
                     texts={"Part 4.33.(2)": "An application under subsection (1).",
                            "Schedule 1.Part 2.Chapter 1.9": "The exclusion in paragraph 8 applies."})
    assert targets(units, "adgm-17@current/rPart 4.33.(2)") == {"adgm-17@current/rPart 4.33.(1)"}
    assert targets(units, "adgm-17@current/rSchedule 1.Part 2.Chapter 1.9") == {
        "adgm-17@current/rSchedule 1.Part 2.Chapter 1.8"}


# -- what is not a citation --------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "as shown in Table 1.1.4 below", "a fee of USD 3.5 million", "under the Companies Regulations 2015",
    "PART 3 - CRCOM. Categorisation", "A2.1.3\tQuorum", "using SAML 2.0 or OpenID", "see IFRS 9",
    "INFORMATION ABOUT THE ISSUER 1.1 General"])
def test_things_that_are_not_citations(text):
    cites = extract(passage(COBS, "1.1", text))
    assert all(c.instrument for c in cites) if "Regulations 2015" in text else not cites


# -- the real corpus ---------------------------------------------------------------------

@pytest.mark.shared
def test_obliqa_xref_recall():
    shared_corpus("en-adgm")
    import sys
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import extract_en
    t = time.perf_counter()
    result = extract_en.run()
    assert time.perf_counter() - t < 60
    assert result["overall"]["recall"] >= 0.90, result
    assert result["internal"]["recall"] >= 0.90 and result["external"]["recall"] >= 0.85, result
    assert result["resolved_fraction"] >= 0.9, result


@pytest.mark.shared
def test_obliqa_document_names_come_from_their_own_text():
    from workbench.parse.obliqa import import_obliqa
    docs = {u.id: u for u in import_obliqa(shared_corpus("en-adgm")).result.units if u.kind == "document"}
    names = {d: docs[f"adgm-{d}@current"].attr("aliases").split(";") for d in (3, 7, 10, 13, 17, 22)}
    assert names[3][0] == "COBS" and names[7][0] == "GEN" and names[10][0] == "MIR" and names[13][0] == "PRU"
    assert "FSMR" in names[17] and "Financial Services and Markets Regulations" in names[17]
    assert "CMC" in names[22]
    assert docs["adgm-30@current"].attr("read_with").split(";")[:2] == ["FSMR", "MKT"]
    assert not docs["adgm-13@current"].attr("read_with")         # a rulebook says nothing of the kind

"""Entities of law (workbench/entities): extraction per language, relations by role,
cross-document aggregation, traversal strategies, subgraphs and the local context."""
from __future__ import annotations

import datetime as dt
import math

import pytest

from workbench.core.records import Unit
from workbench.entities.aggregate import aggregate, filter_relations
from workbench.entities.extract import Entity, aliases, extract, extract_all, normalise
from workbench.entities.relations import Relation, relations_all
from workbench.entities.subgraph import local_context, subgraph
from workbench.entities.traverse import bfs, build_graph, confidence_weighted, shortest_path

D = dt.date


def unit(uid: str, language: str, role: str, text: str, effective: dt.date | None = None, line: int = 0,
         title: str = "") -> Unit:
    doc, _, label = uid.partition("/")
    key, _, version = doc.partition("@")
    return Unit(id=uid, key=key, version=version, kind="article", label=label, text=text, language=language,
                role=role, effective_from=effective, line_start=line, line_end=line, title=title)


ZH = [
    unit("animal@2007/a10", "zh", "obligation", "货主应当持有动物检疫合格证明。", D(2008, 1, 1), 40),
    unit("animal@2021/a10", "zh", "obligation", "货主应当持有动物检疫合格证明。", D(2021, 5, 1), 44),
    unit("animal@2007/a42", "zh", "permission",
         "经营者可以向县级以上人民政府兽医主管部门申请检疫，由县级以上人民政府兽医主管部门出具动物检疫合格证明。", D(2008, 1, 1)),
    unit("animal@2007/a70", "zh", "sanction",
         "经营者违反本法规定，未取得动物检疫合格证明的，由县级以上人民政府兽医主管部门责令改正，处一千元以上一万元以下罚款。",
         D(2008, 1, 1)),
    unit("animal@2007/a2", "zh", "definition", "本法所称动物检疫合格证明，是指动物卫生监督机构出具的证明文件。", D(2008, 1, 1)),
    unit("pig@2016/a8", "zh", "obligation", "生猪定点屠宰厂（场）应当查验县级以上人民政府兽医主管部门出具的检疫证明。", D(2016, 8, 1)),
    unit("pig@2016/a20", "zh", "sanction",
         "生猪定点屠宰厂（场）违反《中华人民共和国动物防疫法》，出借生猪定点屠宰证书的，由县级以上人民政府兽医主管部门处二万元以上五万元以下罚款。",
         D(2016, 8, 1)),
]
VI = [
    unit("kcb@2009/a1", "vi", "obligation", "Cơ sở khám bệnh, chữa bệnh phải có giấy phép hoạt động.", D(2011, 1, 1)),
    unit("kcb@2023/a1", "vi", "obligation", "Cơ sở khám bệnh, chữa bệnh phải có giấy phép hoạt động.", D(2024, 1, 1)),
    unit("kcb@2009/a2", "vi", "permission", "Sở Y tế có quyền cấp giấy phép hoạt động cho cơ sở khám bệnh, chữa bệnh.", D(2011, 1, 1)),
    unit("kcb@2009/a3", "vi", "definition",
         "Giấy phép hoạt động là văn bản do cơ quan nhà nước có thẩm quyền cấp cho cơ sở khám bệnh, chữa bệnh.", D(2011, 1, 1),
         title="Giải thích từ ngữ"),
    unit("nd@2016/a3", "vi", "sanction",
         "Ủy ban nhân dân cấp tỉnh xử phạt cơ sở khám bệnh, chữa bệnh vi phạm quy định của Luật Khám bệnh, chữa bệnh.", D(2016, 7, 1)),
    unit("nd@2016/a4", "vi", "obligation",
         "Tổ chức, cá nhân phải nộp hồ sơ cho Sở Y tế theo Nghị định số 109/2016/NĐ-CP.", D(2016, 7, 1)),
]
EN = [
    unit("act@2012/a5", "en", "obligation", "An Authorised Person must hold a licence issued by the Regulator.", D(2012, 7, 1)),
    unit("act@2018/a5", "en", "obligation", "An Authorised Person must hold a licence issued by the Regulator.", D(2018, 7, 1)),
    unit("act@2012/a9", "en", "sanction",
         "Where a licensee contravenes Article 6, the Regulator may impose a fine on the licensee.", D(2012, 7, 1)),
    unit("act@2012/a7", "en", "permission", "The Regulator may grant a practising certificate to an applicant.", D(2012, 7, 1)),
    unit("act@2012/a3", "en", "definition", '"clinic" means premises where medical services are provided.', D(2012, 7, 1)),
    unit("decree@2013/a4", "en", "obligation",
         "A Reporting Entity shall comply with the Clinic Licensing Act and notify the Regulator.", D(2013, 1, 1)),
    unit("decree@2013/a6", "en", "permission", "The FSRA may approve an application by a licensee.", D(2013, 1, 1)),
]
UNITS = ZH + VI + EN


def found(units) -> dict[str, str]:
    return {m.entity_id: m.type for u in units for m in extract(u)}


@pytest.fixture(scope="module")
def world():
    entities, mentions = extract_all(UNITS)
    return entities, mentions, relations_all(UNITS, mentions)


def triples(rels) -> set[tuple[str, str, str]]:
    return {(r.subject, r.type, r.object) for r in rels}


# -- extraction --------------------------------------------------------------------------------
def test_zh_entities_by_grammar():
    ids = found(ZH)
    assert ids["authority:县级以上人民政府兽医主管部门"] == "authority"
    assert ids["authority:动物卫生监督机构"] == "authority"
    assert ids["party:货主"] == "party" and ids["party:经营者"] == "party"
    assert ids["party:生猪定点屠宰厂(场)"] == "party"              # full-width brackets made half-width
    assert ids["document:动物检疫合格证明"] == "document" and ids["document:生猪定点屠宰证书"] == "document"
    assert ids["instrument:中华人民共和国动物防疫法"] == "instrument"
    assert "document:法所称动物检疫合格证明" not in ids           # 本法所称 is not part of the name
    assert not [m for m in extract(unit("x@1/a1", "zh", "obligation", "有关部门应当加强监督。")) if m.type == "authority"]


def test_vi_entities_by_grammar():
    ids = found(VI)
    assert ids["authority:sở y tế"] == "authority"
    assert ids["authority:ủy ban nhân dân cấp tỉnh"] == "authority"
    assert ids["party:cơ sở khám bệnh, chữa bệnh"] == "party"      # the comma-joined modifier stays one name
    assert ids["party:tổ chức"] == "party" and ids["party:cá nhân"] == "party"
    assert ids["document:giấy phép hoạt động"] == "document"
    assert ids["instrument:luật khám bệnh, chữa bệnh"] == "instrument"
    assert ids["instrument:nghị định số 109/2016/nđ-cp"] == "instrument"
    verb = extract(unit("x@1/a1", "vi", "obligation", "Bộ Y tế tổ chức thực hiện việc kiểm tra."))
    assert [m.entity_id for m in verb] == ["authority:bộ y tế"]      # "tổ chức" the verb is no party


def test_en_entities_by_grammar():
    ids = found(EN)
    assert ids["party:authorised person"] == "party" and ids["party:reporting entity"] == "party"
    assert ids["party:licensee"] == "party" and ids["party:applicant"] == "party"
    assert ids["authority:regulator"] == "authority" and ids["authority:fsra"] == "authority"
    assert ids["document:licence"] == "document" and ids["document:practising certificate"] == "document"
    assert ids["instrument:clinic licensing act"] == "instrument"
    assert ids["term:clinic"] == "term"
    assert not [m for m in extract(unit("x@1/a1", "en", "scope", "This Act applies to every clinic.")) if m.type == "instrument"]


def test_mentions_have_offsets_and_confidence():
    u = ZH[2]
    for m in extract(u):
        assert u.text[m.start:m.end] == m.surface and 0.0 < m.confidence <= 1.0
    strong = {m.surface: m.confidence for m in extract(EN[5])}
    assert strong["Reporting Entity"] > strong["Regulator"]          # a named phrase beats a bare head


def test_normalise_and_aliases():
    assert normalise("《中华人民共和国动物防疫法》") == "中华人民共和国动物防疫法"
    assert normalise(" Authorised   Person ") == "authorised person"
    assert normalise("Uỷ ban nhân dân") == normalise("Ủy ban nhân dân")    # two tone placements, one form
    ents = [Entity(i, i.partition(":")[0], "", (), "") for i in (
        "instrument:中华人民共和国动物防疫法", "instrument:动物防疫法", "party:authorised persons", "party:authorised person",
        "authority:the regulator", "authority:regulator", "document:licence", "party:licensee",
        "authority:县级以上地方人民政府兽医主管部门", "authority:县级以上人民政府兽医主管部门")]
    mapping = aliases(ents)
    assert mapping["instrument:中华人民共和国动物防疫法"] == "instrument:动物防疫法"
    assert mapping["party:authorised persons"] == "party:authorised person"
    assert mapping["authority:the regulator"] == "authority:regulator"
    assert "document:licence" not in mapping and "party:licensee" not in mapping
    assert "authority:县级以上地方人民政府兽医主管部门" not in mapping   # not merged unless asked
    assert aliases(ents, merge_local=True)["authority:县级以上地方人民政府兽医主管部门"] == "authority:县级以上人民政府兽医主管部门"


# -- relations ---------------------------------------------------------------------------------
def test_relations_by_role(world):
    _, _, rels = world
    t = triples(rels)
    auth = "authority:县级以上人民政府兽医主管部门"
    assert ("instrument:animal", "IMPOSES_DUTY", "party:货主") in t
    assert ("party:货主", "HAS_DUTY", "document:动物检疫合格证明") in t
    assert (auth, "SANCTIONS", "party:经营者") in t
    assert (auth, "ISSUES", "document:动物检疫合格证明") in t
    assert (auth, "SANCTIONS", "party:生猪定点屠宰厂(场)") in t
    assert ("instrument:animal", "DEFINES", "document:动物检疫合格证明") in t
    assert ("authority:sở y tế", "ISSUES", "document:giấy phép hoạt động") in t
    assert ("authority:sở y tế", "GRANTS_PERMISSION", "party:cơ sở khám bệnh, chữa bệnh") in t
    assert ("authority:ủy ban nhân dân cấp tỉnh", "SANCTIONS", "party:cơ sở khám bệnh, chữa bệnh") in t
    assert {("party:tổ chức", "HAS_DUTY", "authority:sở y tế"), ("party:cá nhân", "HAS_DUTY", "authority:sở y tế")} <= t
    assert ("instrument:kcb", "DEFINES", "document:giấy phép hoạt động") in t
    assert ("party:authorised person", "HAS_DUTY", "document:licence") in t
    assert ("authority:regulator", "ISSUES", "document:licence") in t
    assert ("authority:regulator", "SANCTIONS", "party:licensee") in t
    assert ("authority:regulator", "GRANTS_PERMISSION", "party:applicant") in t
    assert ("instrument:act", "DEFINES", "term:clinic") in t
    # the agent of "issued by the Regulator" is no duty object; a sanction lays no duty
    assert ("party:authorised person", "HAS_DUTY", "authority:regulator") not in t
    assert not [r for r in rels if r.unit_id == "animal@2007/a70" and r.type == "HAS_DUTY"]


def test_titles_join_an_instrument_to_its_mentions():
    units = [unit("dp@2021/a5", "zh", "obligation", "饲养动物的单位和个人应当依法履行动物疫病强制免疫义务。", D(2021, 5, 1)),
             unit("pig@2016/a30", "zh", "obligation", "屠宰厂（场）应当遵守《动物防疫法》。", D(2016, 8, 1))]
    titles = {"dp": "中华人民共和国动物防疫法"}
    entities, mentions = extract_all(units, titles=titles)
    t = triples(relations_all(units, mentions, titles=titles))
    assert ("instrument:动物防疫法", "IMPOSES_DUTY", "party:个人") in t
    assert ("party:屠宰厂(场)", "HAS_DUTY", "instrument:动物防疫法") in t
    law = next(e for e in entities if e.id == "instrument:动物防疫法")
    assert set(law.surfaces) == {"中华人民共和国动物防疫法", "动物防疫法"}
    assert not [e for e in entities if e.id == "instrument:中华人民共和国动物防疫法"]


def test_a_co_actor_a_rule_source_or_a_record_field_is_no_duty_object():
    """国务院卫生行政部门会同国务院有关部门制定…: the co-actor; 按照农业部规定的技术规范: the rule's
    source; 如实记录…购货者名称、地址: a field of the record; 取得卫生行政部门发放的卫生许可证: the
    licence's issuer -- none is what the duty is about.
    The product the duty is about still is."""
    units = [unit("f@2015/a20", "zh", "obligation", "国务院卫生行政部门应当会同国务院食品药品监督管理部门和国务院质量监督部门"
                                                    "制定食品安全国家标准。", D(2015, 10, 1)),
             unit("f@2015/a63", "zh", "obligation", "县级以上人民政府食品药品监督管理部门应当责令食品生产者召回已经上市销售的食品。",
                  D(2015, 10, 1)),
             unit("f@2015/a64", "zh", "obligation", "食品经营者应当向消费者提供食品的真实信息。", D(2015, 10, 1)),
             unit("f@2015/a50", "zh", "obligation", "食品经营企业应当如实记录食品的名称、规格、数量以及购货者名称、地址、联系方式等内容。",
                  D(2015, 10, 1)),
             unit("q@2010/a8", "zh", "obligation", "承运人应当按照农业部规定的技术规范对运载工具进行消毒，并查验动物检疫合格证明。",
                  D(2010, 3, 1)),
             unit("h@1995/a27", "zh", "obligation", "食品生产经营企业必须先取得卫生行政部门发放的卫生许可证。", D(1995, 10, 30))]
    entities, mentions = extract_all(units)
    names = {e.id for e in entities}
    t = triples(relations_all(units, mentions))
    duties = {(s, o) for s, ty, o in t if ty == "HAS_DUTY"}
    modifiers = {"authority:国务院食品药品监督管理部门", "authority:国务院质量监督部门", "party:购货者", "authority:农业部",
                 "authority:卫生行政部门"}
    assert modifiers <= names
    assert not {o for _, o in duties} & modifiers, duties
    assert ("party:承运人", "document:动物检疫合格证明") in duties
    agency = "authority:县级以上人民政府食品药品监督管理部门"      # a verb with its own object: the mention is the argument
    assert {(agency, "party:食品生产者"), ("party:食品经营者", "party:消费者")} <= duties, duties


def test_relation_provenance(world):
    _, _, rels = world
    r = next(r for r in rels if r.unit_id == "pig@2016/a8" and r.type == "IMPOSES_DUTY")
    assert (r.document, r.key, r.effective_from) == ("pig@2016", "pig", D(2016, 8, 1))
    assert r.evidence.startswith("生猪定点屠宰厂") and 0 < r.confidence <= 1


# -- aggregation -------------------------------------------------------------------------------
def rel(s, t, o, uid, conf, date=None, evidence="e"):
    doc = uid.split("/")[0]
    return Relation(s, t, o, uid, doc, doc.split("@")[0], date, conf, evidence)


def test_aggregate_counts_dates_and_confidence():
    rels = [rel("a", "HAS_DUTY", "b", "k1@2/a1", 0.9, D(2015, 1, 1)),
            rel("a", "HAS_DUTY", "b", "k1@1/a1", 0.6, D(2009, 6, 1)),
            rel("a", "HAS_DUTY", "b", "k1@1/a1", 0.6, D(2009, 6, 1)),      # same unit and evidence: once
            rel("a", "HAS_DUTY", "b", "k2@1/a3", 0.3, None),
            rel("a", "SANCTIONS", "c", "k2@1/a4", 0.8, D(2001, 1, 1))]
    aggs = aggregate(rels)
    duty = next(a for a in aggs if a.type == "HAS_DUTY")
    assert (duty.occurrences, duty.document_count) == (3, 2)
    assert math.isclose(duty.avg_confidence, 0.6) and duty.max_confidence == 0.9
    docs = {d.key: d for d in duty.documents}
    assert docs["k1"].first_seen == D(2009, 6, 1) and docs["k1"].versions == ("k1@1", "k1@2")
    assert docs["k2"].first_seen is None and duty.keys == ("k1", "k2")
    assert duty.unit_ids == ("k1@1/a1", "k1@2/a1", "k2@1/a3")
    assert aggs[0] is duty                                             # most widely supported first
    assert [a.type for a in filter_relations(aggs, types=["SANCTIONS"])] == ["SANCTIONS"]
    assert [a.type for a in filter_relations(aggs, min_confidence=0.7)] == ["SANCTIONS"]
    assert [a.type for a in filter_relations(aggs, min_occurrences=2)] == ["HAS_DUTY"]


def test_same_duty_in_two_versions_aggregates(world):
    _, _, rels = world
    agg = next(a for a in aggregate(rels) if (a.subject, a.type, a.object) == ("party:货主", "HAS_DUTY", "document:动物检疫合格证明"))
    assert (agg.occurrences, agg.document_count, agg.first_seen) == (2, 1, D(2008, 1, 1))
    assert agg.documents[0].versions == ("animal@2007", "animal@2021")


# -- traversal ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def small():
    return build_graph(aggregate([
        rel("A", "R", "B", "d1@1/a1", 0.9), rel("B", "R", "C", "d1@1/a2", 0.9), rel("B", "R", "C", "d2@1/a2", 0.9),
        rel("A", "R", "C", "d3@1/a1", 0.3), rel("C", "R", "D", "d2@1/a5", 0.8)]))


def test_bfs_by_depth(small):
    one = bfs(small, "A", max_depth=1)
    assert sorted(p.nodes[-1] for p in one) == ["B", "C"]
    two = {p.nodes[-1]: p for p in bfs(small, "A", max_depth=2)}
    assert two["D"].nodes == ("A", "C", "D") and two["D"].diversity == 1.0
    assert math.isclose(two["D"].total_confidence, 0.24) and two["D"].min_confidence == 0.3
    assert [p.nodes for p in bfs(small, "A", max_depth=2, max_nodes=2)] == [("A", "B")]   # the start counts
    assert bfs(small, "D", mode="out") == [] and bfs(small, "D", mode="all", max_depth=1)[0].nodes == ("D", "C")
    assert not bfs(small, "D", mode="all", max_depth=1)[0].steps[0].forward


def test_shortest_path_counts_hops(small):
    p = shortest_path(small, "A", "D", mode="out")
    assert p.nodes == ("A", "C", "D") and p.hops == 2
    assert p.diversity == 1.0 and [s.documents for s in p.steps] == [("d3",), ("d2",)]
    assert shortest_path(small, "D", "A", mode="out") is None


def test_confidence_weighted_prefers_the_surer_route(small):
    best = confidence_weighted(small, "A", "D", mode="out")[0]
    assert best.nodes == ("A", "B", "C", "D")                           # longer but 0.648 > 0.24
    assert math.isclose(best.total_confidence, 0.9 * 0.9 * 0.8) and best.min_confidence == 0.8
    assert best.diversity == 0.5                                        # d1, d2 over 4 document mentions
    assert confidence_weighted(small, "A", "D", max_depth=2) == []      # the best route is 3 hops
    assert confidence_weighted(small, "A", "D", min_confidence=0.85) == []
    ranked = confidence_weighted(small, "A", mode="out")
    assert [p.nodes[-1] for p in ranked] == ["B", "C", "D"]
    assert ranked[1].nodes == ("A", "B", "C")                           # not the direct 0.3 edge


# -- subgraph and local context ----------------------------------------------------------------
def test_cross_document_authority_is_one_node(world):
    entities, mentions, rels = world
    sg = subgraph(entities, mentions, rels, "authority:县级以上人民政府兽医主管部门", units=UNITS)
    auth = sg.node("authority:县级以上人民政府兽医主管部门")
    assert auth.is_center and auth.document_count == 2 and auth.is_cross_doc
    assert auth.mentions_per_document == {"animal@2007": 3, "pig@2016": 2}
    assert auth.primary_document == "animal@2007"
    assert sg.node("party:经营者") is not None and sg.node("party:货主") is None      # 货主 is two hops away
    holder = subgraph(entities, mentions, rels, "party:货主", units=UNITS).node("party:货主")
    assert (holder.document_count, holder.is_cross_doc) == (1, False)   # two versions, one instrument
    assert holder.mentions_per_document == {"animal@2007": 1, "animal@2021": 1}
    regulator = subgraph(entities, mentions, rels, "authority:regulator").node("authority:regulator")
    assert regulator.is_cross_doc and regulator.document_count == 2


def test_subgraph_many_centres_deduplicated(world):
    entities, mentions, rels = world
    centres = ["authority:regulator", "party:licensee", "authority:regulator"]
    sg = subgraph(entities, mentions, rels, centres, depth=1)
    ids = [n.id for n in sg.nodes]
    assert len(ids) == len(set(ids)) and sg.centers == ("authority:regulator", "party:licensee")
    assert len({(e.subject, e.type, e.object) for e in sg.edges}) == len(sg.edges)
    assert all(e.subject in ids and e.object in ids for e in sg.edges)
    wider = subgraph(entities, mentions, rels, centres, depth=2)
    assert len(wider.nodes) > len(sg.nodes)
    assert all(s.unit_id.startswith(("act@", "decree@")) for s in sg.snippets)


def test_snippets_carry_provenance(world):
    entities, mentions, rels = world
    sg = subgraph(entities, mentions, rels, "party:货主", units=UNITS)
    first = next(s for s in sg.snippets if s.unit_id == "animal@2007/a10")
    assert (first.document, first.line_start) == ("animal@2007", 40) and "货主" in first.text


def test_local_context_budget_sections_and_citations(world):
    entities, mentions, rels = world
    sg = subgraph(entities, mentions, rels, "authority:县级以上人民政府兽医主管部门", depth=2, units=UNITS)
    text = local_context(sg, "哪个部门出具检疫证明？", max_chars=700)
    assert len(text) <= 700
    assert text.index("Entities") < text.index("Relations") < text.index("Sources")
    sources = text.split("Sources\n", 1)[1].splitlines()
    assert sources and all(line.startswith("- [") for line in sources)
    assert "出具" in sources[0]                                          # the most relevant source first
    fines = local_context(sg, "罚款多少？", max_chars=700).split("Sources\n", 1)[1].splitlines()
    assert "罚款" in fines[0] and "出具" not in fines[0]                 # another query, another first source
    full = local_context(sg, "哪个部门出具检疫证明？", max_chars=100_000)
    assert len(full) > 700 and full.count("\n- [") == len(sg.snippets)
    assert len(local_context(sg, "penalty", max_chars=120)) <= 120


def test_a_workspaces_entities_from_the_command_line(sample_workspace, capsys):
    """`workbench entities` over the ingested sample: one Ministry of Health across the
    instruments that name it; an unknown id is exit 2."""
    from workbench.cli import main
    assert main(["entities", "ministry of health", "--type", "authority", "--workspace", str(sample_workspace)]) == 0
    out = capsys.readouterr().out.splitlines()
    first = out[0].split()
    assert first[0] == "authority:ministry" and "instrument(s)" in out[0]
    n_instruments = int(out[0].split(" in ")[1].split()[0])
    assert n_instruments >= 2                                     # named by the Act and by the Decree
    assert main(["entities", "--relations", "authority:no such body", "--workspace", str(sample_workspace)]) == 2
    capsys.readouterr()
    # --min-confidence: only entities with a mention that confident (0.85: named in a closed form)
    assert main(["entities", "-k", "500", "--workspace", str(sample_workspace)]) == 0
    every = [float(line.rsplit("confidence ", 1)[1]) for line in capsys.readouterr().out.splitlines()]
    assert main(["entities", "-k", "500", "--min-confidence", "0.85", "--workspace", str(sample_workspace)]) == 0
    closed = [float(line.rsplit("confidence ", 1)[1]) for line in capsys.readouterr().out.splitlines()]
    assert closed and all(c >= 0.85 for c in closed) and len(closed) == sum(c >= 0.85 for c in every) < len(every)
    assert main(["entities", "--search", "licence", "--min-confidence", "0", "--workspace", str(sample_workspace)]) == 2
    err = capsys.readouterr().err                                        # (out of range: tests/test_hostile.py)
    assert "--min-confidence" in err and len(err.strip().splitlines()) == 1, err
    # with --relations: the relations at least that confident on average
    from workbench.workbench import Workbench
    index = Workbench.open(sample_workspace, create=False).entities
    eid = max(index.entities, key=lambda e: (len(index.relations_of(e)), e))
    assert main(["entities", "--relations", eid, "-k", "500", "--workspace", str(sample_workspace)]) == 0
    every = [float(line.split("confidence ")[1].split()[0]) for line in capsys.readouterr().out.splitlines()]
    assert main(["entities", "--relations", eid, "-k", "500", "--min-confidence", "0.8",
                 "--workspace", str(sample_workspace)]) == 0
    strong = [float(line.split("confidence ")[1].split()[0]) for line in capsys.readouterr().out.splitlines()]
    assert every and len(strong) == sum(c >= 0.8 for c in every) and all(c >= 0.8 for c in strong)


def test_index_caches_are_read_only():
    """The index's cached tables (mention counts, surest confidence, forms) are handed out as
    read-only views: a caller's edit raises instead of corrupting every later search."""
    from workbench.entities.extract import Mention
    from workbench.entities.index import EntityIndex
    e = Entity("authority:监管部门", "authority", "监管部门", ("监管部门",), "zh")
    idx = EntityIndex({e.id: e}, [Mention(e.id, "authority", "监管部门", "k@1/a1", 0, 4, 0.9)] * 2, [], [], {})
    for table in (idx.counts(), idx.confidence(), idx.forms()):
        with pytest.raises(TypeError):
            table[e.id] = 0
    assert idx.counts()[e.id] == 2 and idx.counts()["party:无"] == 0 and idx.confidence()[e.id] == 0.9
    assert idx.search("监管")[0]["mentions"] == 2

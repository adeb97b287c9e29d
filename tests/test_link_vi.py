"""Vietnamese citations (workbench/link/vi.py): hand-made snippets for each pattern, a
pháp điển snippet resolving "Luật này" through the source index, and the real corpus."""
import datetime as dt
import sys
import textwrap

import pytest

from workbench.link.run import link_units
from workbench.link.vi import extract
from workbench.parse.phapdien import parse_phapdien_file
from workbench.parse.vi import parse_vi
from workbench.core.records import DocumentMeta, EdgeType

from conftest import ROOT, SHARED


def units_of(text: str, key: str = "nd", title: str = "Nghị định số 1/2024/NĐ-CP", version: str = "2024"):
    meta = DocumentMeta(key=key, version=version, title=title, language="vi",
                        effective_from=dt.date(2024, 1, 1))
    return parse_vi(textwrap.dedent(text), meta).units


def edges_of(units):
    edges, _ = link_units(units)
    return {(e.source, e.target, e.type.value) for e in edges if e.extractor == "vi-citation"}, edges


BASE = """\
    Điều 1. Phạm vi
    1. Việc cấp phép theo Điều 5.
    2. Hồ sơ theo khoản 2 Điều 5 và điểm a khoản 2 Điều 5.
    3. Trường hợp quy định tại khoản 2 Điều 5 của Luật này.
    Điều 2. Đối tượng
    1. Áp dụng các Điều 3, 4 và 5.
    2. Áp dụng từ Điều 3 đến Điều 5.
    3. Các trường hợp sau:
    a) Trường hợp tại khoản 2 Điều này;
    b) Trường hợp tại điểm a khoản này;
    đ) Trường hợp tại điểm a, b và đ khoản 1 Điều 5.
    Điều 3. Điều kiện
    1. Điều kiện chung.
    2. Các điều kiện tại Điều này và khoản này không áp dụng cho điểm a, b và c khoản 1 Điều này.
    Điều 4. Hồ sơ
    Hồ sơ gồm giấy tờ.
    Điều 5. Cấp phép
    1. Cấp phép lần đầu:
    a) Đơn;
    b) Bản sao;
    c) Bản chụp;
    d) Khác;
    đ) Ảnh.
    2. Cấp lại:
    a) Đơn đề nghị.
    """


@pytest.fixture(scope="module")
def base():
    units = units_of(BASE)
    return units, edges_of(units)[0]


def test_internal_article_clause_point(base):
    _, e = base
    assert ("nd@2024/a1/c1", "nd@2024/a5", "REFERENCES") in e
    assert ("nd@2024/a1/c2", "nd@2024/a5/c2", "REFERENCES") in e
    assert ("nd@2024/a1/c2", "nd@2024/a5/c2/pa", "REFERENCES") in e
    assert ("nd@2024/a1/c3", "nd@2024/a5/c2", "REFERENCES") in e          # "của Luật này"


def test_lettered_points_keep_their_letter(base):
    _, e = base
    for p in "abđ":
        assert ("nd@2024/a2/c3/pđ", f"nd@2024/a5/c1/p{p}", "REFERENCES") in e
    assert not any(t == "nd@2024/a5/c1/pc" for s, t, _ in e if s == "nd@2024/a2/c3/pđ")


def test_relative_references_from_the_unit_holding_the_text(base):
    _, e = base
    assert ("nd@2024/a2/c3/pa", "nd@2024/a2/c2", "REFERENCES") in e        # khoản 2 Điều này
    assert ("nd@2024/a2/c3/pb", "nd@2024/a2/c3/pa", "REFERENCES") in e     # điểm a khoản này
    assert ("nd@2024/a3/c2", "nd@2024/a3", "REFERENCES") in e              # Điều này
    # "điểm a, b và c khoản 1 Điều này" in khoản 2 of Điều 3: Điều 3 has no điểm, so the
    # resolver falls back to khoản 1; never a unit of another article
    assert ("nd@2024/a3/c2", "nd@2024/a3/c1", "REFERENCES") in e
    # "khoản này" in the khoản itself is no edge (and no self-citation problem)
    assert not any(s == t for s, t, _ in e)
    # the article reads the lines of its khoản: no article-level duplicates
    assert not any(s == "nd@2024/a2" for s, _, _ in e)


def test_lists_and_ranges(base):
    _, e = base
    for n in (3, 4, 5):
        assert ("nd@2024/a2/c1", f"nd@2024/a{n}", "REFERENCES") in e
        assert ("nd@2024/a2/c2", f"nd@2024/a{n}", "REFERENCES") in e


def test_external_instruments():
    units = units_of("""\
        Điều 1. Căn cứ
        1. Quy định chi tiết Điều 20 Luật Dược.
        2. Thực hiện theo khoản 3 Điều 7 Nghị định số 54/2017/NĐ-CP và Nghị định số 98/2021/NĐ-CP.
        3. Cơ sở theo quy định của Luật Khám bệnh, chữa bệnh.
        """) + units_of("Điều 20. Kinh doanh dược\nNội dung.\n", key="luat-duoc", title="Luật Dược",
                        version="2016")
    e, edges = edges_of(units)
    assert ("nd@2024/a1/c1", "luat-duoc@2016/a20", "REFERENCES") in e
    by_target = {x.target: x for x in edges}
    decree = by_target["ref:nghịđịnhsố54/2017/nđ-cp/a7/c3"]
    assert not decree.resolved and dict(decree.attrs)["instrument"] == "Nghị định số 54/2017/NĐ-CP"
    assert not by_target["ref:nghịđịnhsố98/2021/nđ-cp"].resolved            # a whole instrument
    assert "ref:luậtkhámbệnh,chữabệnh" in by_target


def test_amendments_replacement_and_repeal():
    units = units_of("""\
        Điều 1. Sửa đổi, bổ sung một số điều của Nghị định số 98/2021/NĐ-CP
        1. Sửa đổi, bổ sung Điều 5 như sau:
        “Điều 5. Phân loại
        Phân loại theo khoản 2 Điều 4 của Nghị định này.”
        2. Bổ sung khoản 3 vào Điều 7 như sau:
        “3. Nội dung mới.”
        3. Bãi bỏ Điều 9.
        Điều 2. Hiệu lực
        1. Nghị định này có hiệu lực từ ngày 01/01/2024 và thay thế Nghị định số 36/2016/NĐ-CP.
        2. Bãi bỏ Thông tư số 15/2015/TT-BYT.
        """)
    _, edges = edges_of(units)
    ops = {(e.source, e.target, e.type.value, dict(e.attrs).get("op"), dict(e.attrs).get("new_label"))
           for e in edges if e.extractor == "vi-citation" and e.type != EdgeType.REFERENCES}
    nd98 = "ref:nghịđịnhsố98/2021/nđ-cp"
    assert ("nd@2024/a1/c1", f"{nd98}/a5", "AMENDS", "modify", None) in ops
    assert ("nd@2024/a1/c2", f"{nd98}/a7", "AMENDS", "insert", "7/c3") in ops
    assert ("nd@2024/a1/c3", f"{nd98}/a9", "AMENDS", "delete", None) in ops
    assert ("nd@2024/a2/c1", "ref:nghịđịnhsố36/2016/nđ-cp", "REPLACES", None, None) in ops
    assert ("nd@2024/a2/c2", "ref:thôngtưsố15/2015/tt-byt", "REPEALS", None, None) in ops
    refs = {(e.source, e.target) for e in edges if e.type == EdgeType.REFERENCES}
    # "của Nghị định này" inside the new wording means the amended decree, not this one
    assert ("nd@2024/a1/c1", f"{nd98}/a4/c2") in refs
    # the amended articles are no references of this decree's own articles
    assert not any(t.startswith("nd@2024/a5") or t.startswith("nd@2024/a9") for _, t in refs)


PHAPDIEN = """\
    ---
    title: Dược
    lastedit: 2026-05-13
    ---

    ## VĂN BẢN

    Điều 45.4.LQ.1. Phạm vi điều chỉnh

    (Điều 1 Luật số 105/2016/QH13 Dược ngày 06/04/2016 của Quốc hội, có hiệu lực thi hành kể từ ngày 01/01/2017 )

    Luật này quy định về chính sách của Nhà nước về dược.

    (Điều này có nội dung liên quan đến Điều 45.4.LQ.9. Điều kiện kinh doanh)

    Điều 45.4.LQ.5. Chính sách

    (Điều 5 Luật số 105/2016/QH13, có hiệu lực thi hành kể từ ngày 01/01/2017, có nội dung được sửa đổi, bổ sung bởi Điều 1 Luật số 44/2024/QH15 có hiệu lực thi hành kể từ ngày 01/07/2025)

    1. Nhà nước ưu đãi theo Điều 1 của Luật này.

    2. Nhà nước hỗ trợ.

    Điều 45.4.LQ.9. Điều kiện kinh doanh

    (Điều 9 Luật số 105/2016/QH13, có hiệu lực thi hành kể từ ngày 01/01/2017)

    Cơ sở đáp ứng khoản 2 Điều 5 của Luật này và Điều 3 Luật này.

    Điều 45.4.NĐ.1.3. Điều kiện cơ sở

    (Điều 3 Nghị định số 54/2017/NĐ-CP Quy định chi tiết Luật dược ngày 08/05/2017 của Chính phủ, có hiệu lực thi hành kể từ ngày 01/07/2017 )

    Cơ sở theo khoản 2 Điều 5 Luật Dược và Điều 9 Luật số 105/2016/QH13.
    """


@pytest.fixture(scope="module")
def phapdien(tmp_path_factory):
    path = tmp_path_factory.mktemp("pd") / "duoc.md"
    path.write_text(textwrap.dedent(PHAPDIEN), encoding="utf-8")
    _, result = parse_phapdien_file(path, "test")
    edges, _ = link_units(result.units)
    return result.units, edges


def test_phapdien_luat_nay_resolves_through_the_source_index(phapdien):
    _, edges = phapdien
    doc = "duoc@2026-05-13"
    text = {(e.source, e.target) for e in edges if e.extractor == "vi-citation" and e.resolved}
    assert (f"{doc}/a45.4.LQ.5/c1", f"{doc}/a45.4.LQ.1") in text          # Điều 1 của Luật này
    assert (f"{doc}/a45.4.LQ.9", f"{doc}/a45.4.LQ.5/c2") in text           # khoản 2 Điều 5 …
    assert (f"{doc}/a45.4.NĐ.1.3", f"{doc}/a45.4.LQ.5/c2") in text         # … Luật Dược (by name)
    assert (f"{doc}/a45.4.NĐ.1.3", f"{doc}/a45.4.LQ.9") in text            # … Luật số 105/2016/QH13
    via = [e for e in edges if e.target == f"{doc}/a45.4.LQ.1" and e.extractor == "vi-citation"]
    assert dict(via[0].attrs)["via"] == "phapdien-source"
    # Điều 3 of the law is not codified here: a placeholder for the source law, not a fake id
    missing = [e for e in edges if e.evidence == "Điều 3 Luật này"]
    assert missing and missing[0].target == "ref:luậtsố105/2016/qh13/a3" and not missing[0].resolved


def test_phapdien_notes_are_edges_of_their_own_and_never_read_as_text(phapdien):
    _, edges = phapdien
    doc = "duoc@2026-05-13"
    notes = [e for e in edges if e.extractor == "phapdien-note"]
    assert (f"{doc}/a45.4.LQ.1", f"{doc}/a45.4.LQ.9", "REFERENCES") in {
        (e.source, e.target, e.type.value) for e in notes}
    amended = [e for e in notes if e.type == EdgeType.AMENDS]
    assert [(e.source, e.target, dict(e.attrs)["op"]) for e in amended] == [
        (f"{doc}/a45.4.LQ.5", "ref:luậtsố44/2024/qh15/a1", "amended_by")]
    text = [e for e in edges if e.extractor == "vi-citation"]
    # the related note of Điều 45.4.LQ.1 and the source notes give no text edge
    assert not any(e.source.startswith(f"{doc}/a45.4.LQ.1") for e in text)
    assert not any("liên quan" in e.evidence or "44/2024" in e.target for e in text)


def test_clauses_and_points_are_read_by_their_article(base):
    units, _ = base
    clause = next(u for u in units if u.id == "nd@2024/a1/c2")
    article = next(u for u in units if u.id == "nd@2024/a1")
    assert extract(clause) == []
    assert {c.source for c in extract(article)} == {"nd@2024/a1/c1", "nd@2024/a1/c2", "nd@2024/a1/c3"}


@pytest.mark.shared
def test_phapdien_corpus_recall_against_related_notes():
    if not SHARED.exists():
        pytest.skip(f"needs the real corpora in {SHARED} (../shared/corpora is not beside this clone)")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import extract_vi
    from workbench.parse.detect import load_corpus
    out = extract_vi.phapdien(load_corpus(SHARED / "vi-phapdien-yte").result.units)
    refs = out["references_vs_related_notes"]
    # measured 2026-06: 205 of 598 in-corpus gold pairs (0.343); text REFERENCES resolved 0.766
    assert refs["found"] >= 190 and refs["recall_in_corpus"] >= 0.31
    assert out["text"]["REFERENCES"]["resolved_fraction"] >= 0.72
    assert out["note_lines_leaked_into_text_edges"] == 0


def test_a_codification_topic_is_not_named_by_the_number_in_its_front_matter():
    """A pháp điển topic ("Dược") whose front matter lists 44/2005/QH11 (the Law on Tourism):
    repealing "Luật Du lịch số 44/2005/QH11" must not resolve to the topic."""
    from workbench.link.resolve import Resolver
    from workbench.core.records import Unit
    topic = Unit("duoc@2026", "duoc", "2026", "document", title="Dược",
                 attrs=(("doc_kind", "codification"), ("number", "44/2005/QH11")))
    law = Unit("luat-duoc@2016", "luat-duoc", "2016", "document", title="Luật Dược",
               attrs=(("number", "105/2016/QH13"),))
    r = Resolver([topic, law], {topic.id, law.id})
    assert r.find_key("Luật Du lịch số 44/2005/QH11") is None
    assert r.find_key("Luật số 105/2016/QH13") == "luat-duoc" and r.find_key("Dược") == "duoc"

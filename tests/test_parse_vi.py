"""Vietnamese statutes (vi.py), pháp điển markdown (phapdien.py) and ALQAC JSON (alqac.py)."""
from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from workbench.parse.alqac import alqac_unit_id, import_alqac, law_key, split_article
from workbench.parse.phapdien import RE_SOURCE, import_phapdien, source_attrs
from workbench.parse.vi import parse_heading, parse_vi, roman_to_int, vi_ordinal
from workbench.core.records import DocumentMeta

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
META = DocumentMeta(key="luat-x", version="2020", title="Luật X", language="vi")

LAW = """LUẬT X
Căn cứ Hiến pháp nước Cộng hòa xã hội chủ nghĩa Việt Nam;
Phần thứ nhất
NHỮNG QUY ĐỊNH CHUNG
Chương I
NHỮNG QUY ĐỊNH
CHUNG
Điều 1. Phạm vi điều chỉnh
Luật này quy định về X.
Mục 1
QUY ĐỊNH VỀ Y
Điều 5. Giải thích từ ngữ
Trong Luật này, các từ ngữ dưới đây được hiểu như sau:
1. Khoản một gồm:
a) điểm a;
b) điểm b;
c) điểm c;
d) điểm d;
đ) điểm đ:
a1) tiểu điểm;
- gạch đầu dòng.
2. Khoản hai.
1. Danh sách lồng trong khoản hai.
Chương II: TỔ CHỨC THỰC HIỆN
Điều 7. Trách nhiệm
Các cơ quan có trách nhiệm:
a) Bộ Y tế;
b) Bộ Tài chính.
Việc phối hợp thực hiện theo quy định tại
Điều 8
của Luật này.
Điều 8. Hiệu lực thi hành
Luật này có hiệu lực từ ngày 01/01/2021.
"""


@pytest.fixture(scope="module")
def law():
    result = parse_vi(LAW, META)
    return result, {u.id: u for u in result.units}


def test_numbers():
    assert roman_to_int("XIV") == 14 and roman_to_int("IX") == 9
    assert vi_ordinal(["nhất"]) == (1, 1) and vi_ordinal(["mười", "hai", "X"]) == (12, 2)
    h = parse_heading("Chương IV: QUY ĐỊNH KHÁC")
    assert (h.kind, h.label, h.title, h.roman) == ("chapter", "4", "QUY ĐỊNH KHÁC", True)
    assert parse_heading("Chương 2").label == "2"
    assert parse_heading("Chương II của Luật này quy định") is None          # prose
    assert parse_heading("Chương IV Nghị định này theo quy định của pháp luật,") is None


def test_headings_with_titles_on_the_next_lines(law):
    result, units = law
    assert units["luat-x@2020/pt1"].title == "NHỮNG QUY ĐỊNH CHUNG"
    chapter = units["luat-x@2020/pt1/ch1"]
    assert chapter.title == "NHỮNG QUY ĐỊNH CHUNG"          # two title lines joined
    assert units["luat-x@2020/pt1/ch1/s1"].title == "QUY ĐỊNH VỀ Y"
    assert units["luat-x@2020/pt1/ch2"].title == "TỔ CHỨC THỰC HIỆN"
    assert units["luat-x@2020/a1"].parent_id == "luat-x@2020/pt1/ch1"
    assert units["luat-x@2020/a5"].parent_id == "luat-x@2020/pt1/ch1/s1"
    assert "NHỮNG QUY ĐỊNH" not in units["luat-x@2020/a1"].text
    assert not result.problems


def test_article_clauses_and_points(law):
    _, units = law
    a5 = units["luat-x@2020/a5"]
    assert (a5.label, a5.article_no, a5.title) == ("5", 5, "Giải thích từ ngữ")
    assert a5.text.startswith("Trong Luật này")            # text before the first khoản
    for letter in "abcdđ":
        assert f"luat-x@2020/a5/c1/p{letter}" in units
    point = units["luat-x@2020/a5/c1/pđ"]
    assert point.label == "đ" and point.parent_id == "luat-x@2020/a5/c1"
    assert "a1) tiểu điểm;" in point.text and "- gạch đầu dòng." in point.text
    assert units["luat-x@2020/a5/c2"].text.endswith("1. Danh sách lồng trong khoản hai.")
    assert "luat-x@2020/a5/c1~2" not in units and "luat-x@2020/a5/c3" not in units


def test_points_without_clauses_attach_to_the_article(law):
    _, units = law
    assert units["luat-x@2020/a7/pa"].parent_id == "luat-x@2020/a7"
    assert units["luat-x@2020/a7/pb"].text.startswith("b) Bộ Tài chính.")


def test_text_is_never_dropped(law):
    _, units = law
    assert "Căn cứ Hiến pháp" in units["luat-x@2020"].text        # preamble on the document
    a7 = units["luat-x@2020/a7"]
    assert "Điều 8" in a7.text and "của Luật này." in a7.text     # a reference, no heading
    assert units["luat-x@2020/a8"].line_start == LAW.splitlines().index("Điều 8. Hiệu lực thi hành") + 1


def test_bare_article_numbers_and_no_articles():
    text = "Chương I\nCHẾ ĐỘ CHÍNH TRỊ\nĐiều 1\nNước Cộng hòa xã hội chủ nghĩa Việt Nam là một nước độc lập.\nĐiều 2\n1. Nhà nước."
    ids = {u.id for u in parse_vi(text, META).units}
    assert {"luat-x@2020/a1", "luat-x@2020/a2", "luat-x@2020/a2/c1"} <= ids
    result = parse_vi("Một văn bản không có điều nào.", META)
    assert [u.kind for u in result.units] == ["document"]
    assert len(result.problems) == 1 and "no articles" in result.problems[0].reason


# -- pháp điển ---------------------------------------------------------------------------
TOPIC = """---
layout: page
title: Dược
permalink: /van-ban/y-te-duoc/duoc/
lastedit: 2026-05-13
---

## THÔNG TIN VĂN BẢN

| Thuộc tính | Nội dung |
|---|---|
| **Số hiệu** | 44/2005/QH11
| **Loại văn bản** | Luật

---

## VĂN BẢN
# Dược


Chương I

NHỮNG QUY ĐỊNH CHUNG

Điều 45.4.LQ.1. Phạm vi điều chỉnh

(Điều 1 Luật số 105/2016/QH13 Dược ngày 06/04/2016 của Quốc hội, có hiệu lực thi hành kể từ ngày 01/01/2017 )

1. Luật này quy định về dược.

2. Luật này áp dụng đối với cơ quan, tổ chức:

a) trong nước;

đ) nước ngoài.

(Điều này có nội dung liên quan đến Điều 24.10.LQ.42. Trách nhiệm quản lý nhà nước; Điều 39.7.LQ.12. Các hoạt động hợp pháp)

Điều 45.4.NĐ.1.2. Giải thích từ ngữ

(Điều 2 Nghị định số 54/2017/NĐ-CP, có hiệu lực thi hành kể từ ngày 01/07/2017, có nội dung được sửa đổi, có nội dung được bổ sung bởi Điều 1 Nghị định số 88/2023/NĐ-CP có hiệu lực thi hành kể từ ngày 11/12/2023)

Trong Nghị định này, các từ ngữ được hiểu như sau.Điều 45.4.NĐ.1.3. Bãi bỏ

(Điều 3 Nghị định số 54/2017/NĐ-CP, có hiệu lực thi hành kể từ ngày 01/07/2017, bị bãi bỏ bởi Điều 9 Nghị định số 88/2023/NĐ-CP có hiệu lực thi hành kể từ ngày 11/12/2023)

Nội dung đã bị bãi bỏ.

(Điều 5 Nghị định số 54/2017/NĐ-CP, có hiệu lực thi hành kể từ ngày 01/07/2017)

1. Nội dung của điều bị mất tiêu đề.

## Danh sách điều khoản

### 45004000000000001000

Chương I NHỮNG QUY ĐỊNH CHUNG

### 4500400000000000100000100000000000000000

Điều 45.4.LQ.1. Phạm vi điều chỉnh

### 4500400000000000100000100000000000000001

Điều 45.4.NĐ.1.2. Giải thích từ ngữ

### 4500400000000000100000100000000000000002

Điều 45.4.NĐ.1.3. Bãi bỏ

### 4500400000000000100000100000000000000003

Điều 45.4.NĐ.1.5. Điều bị mất tiêu đề

### 4500400000000000100000100000000000000004

Điều 45.4.NĐ.1.6. Điều chỉ có trong danh sách
"""


@pytest.fixture(scope="module")
def topic(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pd") / "van-ban"
    (folder / "y-te-duoc").mkdir(parents=True)
    (folder / "y-te-duoc" / "duoc.md").write_text(TOPIC, encoding="utf-8")
    index = "---\ntitle: Y tế, dược\nlastedit: 2026-05-13\n---\n## VĂN BẢN\n# Y tế, dược\n\n" \
            "## Danh sách đề mục\n\n- [Dược](y-te-duoc/duoc/)\n"
    (folder / "y-te-duoc.md").write_text(index, encoding="utf-8")
    corpus = import_phapdien(folder.parent)
    return corpus, {u.id: u for u in corpus.result.units}


def test_source_note_metadata():
    m = RE_SOURCE.match("(Điều 1 Luật số 105/2016/QH13 Dược ngày 06/04/2016 của Quốc hội, "
                        "có hiệu lực thi hành kể từ ngày 01/01/2017 )")
    attrs, (start, end) = source_attrs(m)
    assert dict(attrs) == {"source_article": "Điều 1", "source_instrument": "Luật số 105/2016/QH13",
                           "source_title": "Dược ngày 06/04/2016 của Quốc hội"}
    assert (start, end) == (dt.date(2017, 1, 1), None)


def test_phapdien_topic(topic):
    corpus, units = topic
    assert [(d.key, d.version, d.kind, d.language) for d in corpus.documents] == \
        [("duoc", "2026-05-13", "codification", "vi")]
    doc = units["duoc@2026-05-13"]
    assert doc.attr("number") == "44/2005/QH11" and "Số hiệu" not in doc.text
    a1 = units["duoc@2026-05-13/a45.4.LQ.1"]
    assert (a1.label, a1.article_no, a1.title) == ("45.4.LQ.1", None, "Phạm vi điều chỉnh")
    assert a1.parent_id == "duoc@2026-05-13/ch1" and a1.effective_from == dt.date(2017, 1, 1)
    assert a1.attr("source_instrument") == "Luật số 105/2016/QH13"
    assert a1.attr("related") == "24.10.LQ.42;39.7.LQ.12"
    assert a1.text.startswith("(Điều 1 Luật số") and "(Điều này có nội dung" in a1.text
    point = units["duoc@2026-05-13/a45.4.LQ.1/c2/pđ"]
    assert point.effective_from == dt.date(2017, 1, 1)
    assert "có nội dung liên quan" not in units["duoc@2026-05-13/a45.4.LQ.1/c2"].text
    assert not corpus.result.edges or all(e.type.value == "CONTAINS" for e in corpus.result.edges)


def test_phapdien_amendments_and_repairs(topic):
    corpus, units = topic
    a2 = units["duoc@2026-05-13/a45.4.NĐ.1.2"]
    assert a2.attr("amended_by") == "Điều 1 Nghị định số 88/2023/NĐ-CP"
    assert a2.attr("changed_on") == "2023-12-11" and a2.effective_to is None
    assert a2.text.endswith("các từ ngữ được hiểu như sau.")   # the glued heading split off
    a3 = units["duoc@2026-05-13/a45.4.NĐ.1.3"]                  # whole article repealed
    assert a3.attr("repealed_by") and a3.effective_to == dt.date(2023, 12, 11)
    a5 = units["duoc@2026-05-13/a45.4.NĐ.1.5"]                  # heading restored from the list
    assert a5.title == "Điều bị mất tiêu đề" and a5.attr("heading_from") == "listing"
    assert a5.attr("source_article") == "Điều 5" and "duoc@2026-05-13/a45.4.NĐ.1.5/c1" in units
    a6 = units["duoc@2026-05-13/a45.4.NĐ.1.6"]                  # only in the list
    assert a6.attr("text_source") == "listing" and a6.parent_id == "duoc@2026-05-13/ch1"
    reasons = [(p.severity, p.reason) for p in corpus.result.problems]
    assert any(s == "info" and "index page" in r for s, r in reasons)
    assert any(s == "info" and "45.4.NĐ.1.5" in r for s, r in reasons)
    assert not [r for s, r in reasons if s != "info"]


def test_phapdien_duplicate_article_numbers(tmp_path):
    text = TOPIC.replace("Điều 45.4.NĐ.1.3. Bãi bỏ", "Điều 45.4.NĐ.1.2. Bãi bỏ", 1)
    (tmp_path / "duoc.md").write_text(text, encoding="utf-8")
    corpus = import_phapdien(tmp_path)
    ids = {u.id for u in corpus.result.units}
    assert "duoc@2026-05-13/a45.4.NĐ.1.2~2" in ids
    assert any("duplicate article" in p.reason for p in corpus.result.problems)


# -- ALQAC -----------------------------------------------------------------------------
def test_alqac_ids():
    assert law_key("91/2015/QH13") == "91-2015-qh13"
    assert law_key("Luật Viên chức 2010") == "luat-vien-chuc-2010"
    assert law_key("Luật Phòng, chống bạo lực gia đình 2022") == "luat-phong-chong-bao-luc-gia-dinh-2022"
    assert alqac_unit_id("91/2015/QH13", "5") == "91-2015-qh13@current/a5"
    assert split_article("Phạm vi điều chỉnh\n\nLuật này quy định.") == ("Phạm vi điều chỉnh", ["Luật này quy định."])
    assert split_article("Nước Việt Nam là một nước độc lập.") == ("", ["Nước Việt Nam là một nước độc lập."])
    assert split_article("1. Nhà nước.\n\n2. Nhân dân.")[0] == ""


def test_import_alqac_both_years(tmp_path):
    law = {"id": "Luật Viên chức 2010", "articles": [
        {"id": "1", "text": "Phạm vi điều chỉnh\n\nLuật này quy định về viên chức."},
        {"id": "2", "text": "Giải thích từ ngữ\n\n1. Viên chức là:\n\na) công dân;\n\nđ) khác."}]}
    for year, name, laws in (("alqac2022", "law.json", [law, {"id": "91/2015/QH13", "articles": []}]),
                             ("alqac2023", "legal_passages.json", [law])):
        (tmp_path / year).mkdir()
        (tmp_path / year / name).write_text(json.dumps(laws, ensure_ascii=False, indent=2), "utf-8")
    corpus = import_alqac(tmp_path)
    units = {u.id: u for u in corpus.result.units}
    doc = units["luat-vien-chuc-2010@current"]
    assert doc.attr("law_id") == "Luật Viên chức 2010" and doc.attr("alqac_year") == "alqac2023"
    a2 = units[alqac_unit_id("Luật Viên chức 2010", "2")]
    assert (a2.title, a2.article_no, a2.line_start > 0) == ("Giải thích từ ngữ", 2, True)
    assert "luat-vien-chuc-2010@current/a2/c1/pđ" in units
    assert any("also in alqac2022" in p.reason for p in corpus.result.problems)
    assert sorted(d.key for d in corpus.documents) == ["91-2015-qh13", "luat-vien-chuc-2010"]


# -- the real corpora in ../shared ----------------------------------------------------------
def _shared(sub: str) -> Path:
    path = SHARED / sub
    if not path.exists():
        pytest.skip(f"{path} is missing (the shared corpora live next to the repository)")
    return path


@pytest.mark.shared
def test_shared_phapdien():
    corpus = import_phapdien(_shared("vi-phapdien-yte"))
    articles = [u for u in corpus.result.units if u.kind == "article"]
    assert len(articles) > 4000
    assert sum(u.effective_from is not None for u in articles) > len(articles) / 2
    full = [u for u in articles if not u.attr("text_source")]
    assert sum(u.effective_from is not None for u in full) > 0.9 * len(full)
    assert len({u.id for u in corpus.result.units}) == len(corpus.result.units)
    assert not [p for p in corpus.result.problems if p.severity == "error"]


@pytest.mark.shared
@pytest.mark.parametrize("year, count", [("alqac2022", 1377), ("alqac2023", 2256)])
def test_shared_alqac(year, count):
    corpus = import_alqac(_shared("vi-alqac") / year)
    assert sum(u.kind == "article" for u in corpus.result.units) == count


@pytest.mark.shared
def test_shared_alqac_gold_resolves():
    root = _shared("vi-alqac")
    ids = {u.id for u in import_alqac(root).result.units}
    questions = json.loads((root / "alqac2022" / "question.json").read_text("utf-8"))
    gold = [(r["law_id"], r["article_id"]) for q in questions for r in q["relevant_articles"]]
    train = json.loads((root / "alqac2023" / "train.json").read_text("utf-8"))
    gold += [(r["law_id"], r["article_id"]) for q in train for r in q["legal_passages"]]
    assert gold and all(alqac_unit_id(law, art) in ids for law, art in gold)


def test_soft_hyphens_inside_syllables_are_dropped():
    """Sources typeset "Thông t\\u00adư", "n\\u00adước" (a soft hyphen inside a syllable): the words read whole,
    in the markdown parsers and in ALQAC's JSON articles alike."""
    from workbench.parse.alqac import split_article
    from workbench.parse.vi import clean_line
    assert clean_line("\ufeff## **Điều 1. Thông t\u00adư về n\u00adước**\u200b") == "Điều 1. Thông tư về nước"
    assert split_article("Tiêu đề\n\nCơ quan nhà n\u00adước có thẩm quyền") == ("Tiêu đề", ["Cơ quan nhà nước có thẩm quyền"])

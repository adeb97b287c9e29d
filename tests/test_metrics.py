"""Metrics against hand-computed examples, and the benchmark importers on small fixtures."""
import json

import pytest

from workbench.cli import main as cli
from workbench.core.errors import CorpusError
from workbench.evaluate.metrics import f_beta, load_benchmark, mean_metrics, score_question


def test_map_at_10_divides_by_every_gold_unit():
    # gold g1, g2, g3; relevant at ranks 1, 3 and 12 (beyond the cut-off)
    ranked = ["d@1/g1", "d@1/x1", "d@1/g2"] + [f"d@1/x{i}" for i in range(2, 10)] + ["d@1/g3"]
    s = score_question(ranked, [], ["d@1/g1", "d@1/g2", "d@1/g3"])
    # AP@10 = (P@1 + P@3) / 3 = (1 + 2/3) / 3
    assert s["map@10"] == pytest.approx((1 + 2 / 3) / 3)
    assert score_question(["d@1/x"], [], ["d@1/g"])["map@10"] == 0.0
    # clauses count as their article: a@1/a2/c1 at rank 2 is a@1/a2
    assert score_question(["a@1/a1", "a@1/a2/c1"], [], ["a@1/a2"])["map@10"] == pytest.approx(0.5)


def test_f2_weighs_recall_over_precision():
    # cited 4 units, 1 of them gold; gold has 2 units: P = 1/4, R = 1/2
    s = score_question([], ["d@1/a1", "d@1/a2", "d@1/a3", "d@1/a4"], ["d@1/a1", "d@1/a9"])
    assert s["citation_p"] == 0.25 and s["citation_r"] == 0.5
    assert s["citation_f2"] == pytest.approx(5 * 0.25 * 0.5 / (4 * 0.25 + 0.5))      # 0.41667
    assert s["citation_f1"] == pytest.approx(2 * 0.25 * 0.5 / 0.75)                 # 0.33333
    assert f_beta(0.0, 0.0, 2.0) == 0.0


def test_macro_f2_is_f2_of_the_averaged_precision_and_recall():
    a = score_question([], ["d@1/a1"], ["d@1/a1"])                 # P 1, R 1
    b = score_question([], ["d@1/a1", "d@1/a2"], ["d@1/a3"])       # P 0, R 0
    c = score_question([], ["d@1/a1", "d@1/a2"], ["d@1/a1"])       # P 1/2, R 1
    m = mean_metrics([a, b, c])
    p, r = (1 + 0 + 0.5) / 3, (1 + 0 + 1) / 3
    assert m["macro_f2"] == pytest.approx(5 * p * r / (4 * p + r))          # 0.625
    assert m["citation_f2"] == pytest.approx((1 + 0 + 5 * 0.5 / (4 * 0.5 + 1)) / 3)   # per-question mean
    assert m["macro_f2"] != pytest.approx(m["citation_f2"])


@pytest.mark.parametrize("gold, message", [([], "non-empty list"), ("d@1/a1", "non-empty list"),
                                           ([1], "non-empty list")])
def test_benchmark_gold_must_be_a_list_of_ids(tmp_path, gold, message):
    f = tmp_path / "b.jsonl"
    f.write_text(json.dumps({"id": "q1", "question": "q?", "gold": gold}) + "\n", encoding="utf-8")
    with pytest.raises(CorpusError, match=message) as e:
        load_benchmark(f)
    assert str(e.value).startswith(f"{f}:1:")


# -- importers ----------------------------------------------------------------------------------
LAWS_2022 = [{"id": "01/VBHN-VPQH", "articles": [{"id": "1", "text": "Điều 1. Phạm vi\nLuật này quy định."},
                                                 {"id": "2", "text": "Điều 2. Đối tượng\nÁp dụng cho mọi người."}]}]
LAWS_2023 = [{"id": "Luật Điện ảnh 2022", "articles": [{"id": "32", "text": "Điều 32. Phân loại phim\nT18."}]}]


@pytest.fixture()
def alqac(tmp_path):
    root = tmp_path / "vi-alqac"
    (root / "alqac2022").mkdir(parents=True)
    (root / "alqac2023").mkdir()
    (root / "alqac2022" / "law.json").write_text(json.dumps(LAWS_2022, ensure_ascii=False), encoding="utf-8")
    (root / "alqac2023" / "legal_passages.json").write_text(json.dumps(LAWS_2023, ensure_ascii=False), encoding="utf-8")
    (root / "alqac2022" / "question.json").write_text(json.dumps([     # 2022: id, text, relevant_articles
        {"id": "q-1", "text": "Luật quy định gì?", "answer": "x",
         "relevant_articles": [{"law_id": "01/VBHN-VPQH", "article_id": "1"}]},
        {"id": "q-2", "text": "Điều 99 nói gì?", "relevant_articles": [{"law_id": "01/VBHN-VPQH", "article_id": "99"}]},
    ], ensure_ascii=False), encoding="utf-8")
    (root / "alqac2023" / "train.json").write_text(json.dumps([       # 2023: example_id, statement, legal_passages
        {"example_id": "e1", "label": "No", "statement": "Người dưới 16 tuổi được xem phim T18",
         "legal_passages": [{"law_id": "Luật Điện ảnh 2022", "article_id": "32"}]}], ensure_ascii=False), encoding="utf-8")
    (root / "alqac2023" / "public_test.json").write_text(json.dumps([  # 2021-style test file: question_id
        {"question_id": "t1", "text": "Đối tượng áp dụng?",
         "relevant_articles": [{"law_id": "01/VBHN-VPQH", "article_id": "2"}]},
        {"question_id": "t2", "text": "Không có đáp án"}]), encoding="utf-8")
    return root


def test_alqac_folder_and_single_files(alqac, tmp_path, capsys):
    out = tmp_path / "q.jsonl"
    assert cli(["import-benchmark", "alqac", str(alqac), "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert {r["id"]: r["gold"] for r in rows} == {
        "alqac2022-q-1": ["01-vbhn-vpqh@current/a1"], "alqac2023-e1": ["luat-dien-anh-2022@current/a32"],
        "alqac2023-t1": ["01-vbhn-vpqh@current/a2"]}
    err = capsys.readouterr().err
    assert "alqac2022-q-2" in err and "article '99'" in err           # gold that maps to no article: named
    assert "alqac2023-t2" in err and "no gold" in err
    one = tmp_path / "one.jsonl"                                    # one test file; laws found above it
    assert cli(["import-benchmark", "alqac", str(alqac / "alqac2023" / "public_test.json"), "--out", str(one)]) == 0
    assert [json.loads(line)["id"] for line in one.read_text().splitlines()] == ["alqac2023-t1"]


def test_obliqa_split_files(tmp_path, capsys):
    import zipfile
    root = tmp_path / "adgm"
    root.mkdir()
    doc = [{"ID": "u1", "DocumentID": 3, "PassageID": "1.1", "Passage": "A firm must keep records.", "PassageTitle": ""},
           {"ID": "u2", "DocumentID": 3, "PassageID": "1.2", "Passage": "Records are kept six years.", "PassageTitle": ""}]
    with zipfile.ZipFile(root / "StructuredRegulatoryDocuments.zip", "w") as z:
        z.writestr("docs/3.json", json.dumps(doc))
    test = [{"QuestionID": "a", "Question": "How long are records kept?",
             "Passages": [{"DocumentID": 3, "PassageID": "1.2", "Passage": "Records are kept six years."}]},
            {"QuestionID": "b", "Question": "Gone?", "Passages": [{"DocumentID": 3, "PassageID": "9.9"}]}]
    (root / "ObliQA_test.json").write_text(json.dumps(test), encoding="utf-8")
    out = tmp_path / "t.jsonl"
    assert cli(["import-benchmark", "obliqa", str(root / "ObliQA_test.json"), "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["id"], r["gold"], r["category"]) for r in rows] == [("a", ["adgm-3@current/r1.2"], "1-passage")]
    err = capsys.readouterr().err                                    # gold that maps to no passage: named
    assert "b: document 3 passage '9.9' is not in the rulebooks" in err and "b: no gold" in err
    (root / "ObliQA_empty.json").write_text("[]", encoding="utf-8")  # a split with no question
    assert cli(["import-benchmark", "obliqa", str(root / "ObliQA_empty.json"), "--out", str(tmp_path / "e.jsonl")]) == 2
    assert "ObliQA_empty.json" in capsys.readouterr().err and not (tmp_path / "e.jsonl").exists()
    elsewhere = tmp_path / "split"                                   # a split file away from the rulebooks
    elsewhere.mkdir()
    (elsewhere / "ObliQA_train.json").write_text(json.dumps(test[:1]), encoding="utf-8")
    assert cli(["import-benchmark", "obliqa", str(elsewhere / "ObliQA_train.json"), "--out", str(out)]) == 2
    assert cli(["import-benchmark", "obliqa", str(elsewhere / "ObliQA_train.json"), "--out", str(out),
                "--rulebooks", str(root)]) == 0
    (root / "ObliQA_dev.json").write_text(json.dumps(test[:1]), encoding="utf-8")   # two splits: name one
    assert cli(["import-benchmark", "obliqa", str(root), "--out", str(out)]) == 2


@pytest.mark.parametrize("fmt", ["alqac", "obliqa"])
def test_import_errors_exit_2_and_write_nothing(tmp_path, capsys, fmt):
    out = tmp_path / "never.jsonl"
    assert cli(["import-benchmark", fmt, str(tmp_path / "nonexistent"), "--out", str(out)]) == 2
    assert "nonexistent" in capsys.readouterr().err and not out.exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    assert cli(["import-benchmark", fmt, str(empty), "--out", str(out)]) == 2
    assert not out.exists()
    bad = tmp_path / "bad.json"
    bad.write_text("[{", encoding="utf-8")
    assert cli(["import-benchmark", fmt, str(bad), "--out", str(out)]) == 2
    assert "bad.json" in capsys.readouterr().err and not out.exists()

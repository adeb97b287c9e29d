"""`workbench failures` and `workbench compare` (workbench/evaluate/diagnose.py): kinds of failure of
hand-made rows, counts over several files, two runs compared, bad files refused; and a real
`workbench eval --json` run over the sample corpus read back."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.core.errors import WorkbenchError
from workbench.evaluate.diagnose import compare, failures, join, kind_of

SAMPLE = Path(__file__).resolve().parents[1] / "corpora" / "sample"


def row(qid, gold, ranked, cited, f1, category="precise", split="tuning", mrr=1.0):
    return {"id": qid, "category": category, "split": split, "gold": gold, "ranked": ranked, "cited": cited,
            "citation_f1": f1, "mrr": mrr, "recall@5": 1.0, "recall@10": 1.0, "hit@1": 1.0}


@pytest.mark.parametrize("gold, ranked, cited, f1, kind", [
    (["law@1/a1"], ["law@1/a1"], ["law@1/a1/c2"], 1.0, "right"),                   # a clause counts as its article
    (["law@1/a9"], ["law@1/a1", "law@1/a2", "law@1/a3", "law@1/a4", "law@1/a5", "law@1/a9"], ["law@1/a1"], 0.0,
     "missed"),                                                                  # gold only sixth
    (["law@1/a2"], ["law@1/a1", "law@1/a2"], ["law@1/a1", "law@1/a2"], 0.67, "wrong first"),
    (["law@1/a2"], ["law@1/a2"], [], 0.0, "wrong first"),                        # nothing cited
    (["law@1/a1"], ["law@1/a1", "law@1/a2"], ["law@1/a1", "law@1/a2"], 0.67, "one too many"),
    (["law@1/a1", "law@1/a3"], ["law@1/a1"], ["law@1/a1"], 0.67, "one too few"),
    (["law@1/a1", "law@1/a3"], ["law@1/a1"], ["law@1/a1", "law@1/a2"], 0.5, "mixed"),
])
def test_kind_of_each_failure(gold, ranked, cited, f1, kind):
    assert kind_of(row("q", gold, ranked, cited, f1)) == kind


def test_exact_match_and_twin_copies_are_read_as_the_run_compared():
    r = row("q", ["law@1/a1/c2", "law@1/a2"], ["law@1/a1/c1", "law@1/a2"], ["law@1/a1/c1"], 0.0)
    assert kind_of(r) == "one too few"                           # at article level the clause is its article
    assert kind_of(r, "exact") == "wrong first"
    twin = row("q", ["civil-code@1/a5", "civil-code@1/a6"], ["bo-luat@1/a5"], ["bo-luat@1/a5"], 0.67)
    assert kind_of(twin) == "missed"                             # without the twins the copy is another law
    assert kind_of(twin, names={"bo-luat": "bo-luat", "civil-code": "bo-luat"}) == "one too few"


def test_failures_count_and_lose_per_category_and_join_over_files():
    a = {"per_question": {"graph": [row("a1", ["x@1/a1"], ["x@1/a1"], ["x@1/a1"], 1.0),
                                    row("a2", ["x@1/a2"], ["x@1/a1", "x@1/a2"], ["x@1/a1"], 0.0),
                                    row("a3", ["x@1/a2"], ["x@1/a1", "x@1/a2"], ["x@1/a1"], 0.0, split="validation")]}}
    b = {"per_question": {"graph": [row("b1", ["x@1/a2"], ["x@1/a1", "x@1/a2"], ["x@1/a1"], 0.0, category="temporal")]}}
    got = failures(a, split="tuning")
    assert got == {"precise": {"right": {"n": 1, "lost": 0.0, "ids": ["a1"]},
                               "wrong first": {"n": 1, "lost": 1.0, "ids": ["a2"]}}}
    both = join([failures(a), failures(b)])
    assert both["precise"]["wrong first"]["ids"] == ["a2", "a3"] and both["temporal"]["wrong first"]["n"] == 1
    with pytest.raises(WorkbenchError, match="no system 'dense'.*--system"):
        failures(a, "dense", source="run.json")


def test_compare_reports_means_tests_and_what_moved():
    before = {"per_question": {"graph": [row(f"q{i}", ["x@1/a1"], [], [], 0.0, mrr=0.5) for i in range(8)]
                               + [row("gone", ["x@1/a1"], [], [], 0.0)]}}
    after = {"per_question": {"graph": [row(f"q{i}", ["x@1/a1"], [], [], 1.0, mrr=1.0) for i in range(7)]
                              + [row("q7", ["x@1/a1"], [], [], 0.0, mrr=0.25), row("new", ["x@1/a1"], [], [], 1.0)]}}
    got = compare(before, after)
    assert (got["questions"], got["only before"], got["only after"]) == (8, 1, 1)
    f1 = got["metrics"]["citation_f1"]
    assert (f1["before"], f1["after"], f1["n"]) == (0.0, 7 / 8, 7) and f1["p"] < 0.05
    moved = {r["id"]: r for r in got["moved"]}
    assert set(moved) == {f"q{i}" for i in range(8)} and moved["q7"]["mrr after"] == 0.25
    with pytest.raises(WorkbenchError, match="no question in common"):
        compare(before, {"per_question": {"graph": [row("other", ["x@1/a1"], [], [], 1.0)]}})


@pytest.mark.parametrize("content, says", [(None, "no such file"), ("{not json", "not JSON"),
                                           ('{"systems": {}}', "no per-question results")])
def test_a_bad_result_file_is_one_line_and_exit_2(tmp_path, capsys, content, says):
    path = tmp_path / "run.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    for argv in (["failures", str(path)], ["compare", str(path), str(path)]):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0 and says in err and str(path) in err


def test_a_real_eval_result_is_read_back(sample_workspace, tmp_path, capsys):
    out = tmp_path / "run.json"
    bench = SAMPLE / "benchmark.jsonl"
    assert main(["eval", str(bench), "--workspace", str(sample_workspace), "--systems", "bm25,graph",
                 "--json", str(out), "--figure", str(tmp_path / "f.png")]) == 0
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["match"] == "article" and isinstance(result["twins"], dict)
    capsys.readouterr()
    assert main(["failures", str(out), "--system", "bm25", "--list"]) == 0
    shown = capsys.readouterr().out
    questions = sum(1 for line in bench.read_text(encoding="utf-8").splitlines() if line.strip())
    total = next(line for line in shown.splitlines() if line.startswith("| all |"))
    assert f"| all | {questions} |" in total
    bm25_f1 = result["systems"]["bm25"]["overall"]["citation_f1"]
    assert total.endswith(f"| {bm25_f1:.3f} |")                    # the F1 lost adds up to the run's F1
    assert main(["compare", str(out), str(out)]) == 0
    assert "no difference" in capsys.readouterr().out
    assert main(["failures", str(out), "--system", "dense"]) == 2
    assert "no system 'dense'" in capsys.readouterr().err

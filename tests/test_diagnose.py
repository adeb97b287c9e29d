"""`workbench failures` and `workbench compare` (workbench/evaluate/diagnose.py): kinds of failure of
hand-made rows, counts over several files, two runs compared, bad files refused; and a real
`workbench eval --json` run over the sample corpus read back."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.core.errors import WorkbenchError
from workbench.evaluate.diagnose import compare, failures, failures_table, join, kind_of

SAMPLE = Path(__file__).resolve().parents[1] / "corpora" / "sample"


def row(qid, gold, ranked, cited, f1, category="precise", split="tuning", mrr=1.0):
    """A per-question row as `workbench eval --json` writes it, without recall@5 (read from `ranked`)."""
    return {"id": qid, "category": category, "split": split, "gold": gold, "ranked": ranked, "cited": cited,
            "citation_f1": f1, "mrr": mrr, "recall@10": 1.0, "hit@1": 1.0}


@pytest.mark.parametrize("gold, ranked, cited, f1, kind", [
    (["law@1/a1"], ["law@1/a1"], ["law@1/a1/c2"], 1.0, "right"),
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
    r = row("q", ["law@1/a1/c2", "law@1/a2"], ["law@1/a1/c1", "law@1/a2"], ["law@1/a1/c1"], 0.67)
    assert kind_of(r) == "one too few"                           # at article level the clause is its article
    assert kind_of(r, "exact") == "wrong first"
    twin = row("q", ["civil-code@1/a5", "civil-code@1/a6"], ["bo-luat@1/a5"], ["bo-luat@1/a5"], 0.67)
    assert kind_of(twin) == "missed"                             # without the twins the copy is another law
    assert kind_of(twin, names={"bo-luat": "bo-luat", "civil-code": "bo-luat"}) == "one too few"


def test_the_runs_own_recall_decides_missed():
    # ten stored ids folding into fewer than five articles: the run, which ranked more, found the gold
    ranked = [f"law@1/a1/c{i}" for i in range(9)] + ["law@1/a2"]
    r = row("q", ["law@1/a3"], ranked, ["law@1/a1"], 0.0)
    assert kind_of(r) == "missed"
    assert kind_of({**r, "recall@5": 1.0}) == "wrong first"
    assert kind_of({**r, "ranked": ["law@1/a3"], "recall@5": 0.0}) == "missed"
    # ids agreeing with the gold at F1 below 1 (a file read without its run's twin names) are no clean kind
    assert kind_of(row("q", ["x@1/a1"], ["x@1/a1"], ["x@1/a1"], 0.5)) == "mixed"


def test_failures_count_and_lose_per_category_and_join_over_files(capsys):
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
    with pytest.raises(WorkbenchError, match="run.json: no question of 'graph' in the validation part"):
        failures(b, split="validation", source="run.json")
    # a category named "all" (unlabelled questions) is not the total row
    unlabelled = {"per_question": {"graph": [{**row("u1", ["x@1/a1"], ["x@1/a1"], ["x@1/a1"], 1.0), "category": "all"}]}}
    table = failures_table(join([failures(unlabelled), failures(b)]))
    assert "| all | 1 | 1 |" in table and "| (all categories) | 2 | 1 |" in table


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
    with pytest.raises(WorkbenchError, match="compared differently"):
        compare({**before, "match": "article"}, {**after, "match": "exact"})


def test_compare_on_the_command_line_lists_what_moved(tmp_path, capsys):
    before = {"per_question": {"graph": [row("q1", ["x@1/a1"], [], [], 0.0, mrr=0.5), row("q2", ["x@1/a1"], [], [], 1.0),
                                         row("q3", ["x@1/a1"], [], [], 1.0)]}, "match": "article", "twins": {}}
    after = {"per_question": {"graph": [row("q1", ["x@1/a1"], [], [], 1.0), row("q2", ["x@1/a1"], [], [], 0.5),
                                        row("q3", ["x@1/a1"], [], [], 1.0, mrr=0.5)]}, "match": "article", "twins": {}}
    paths = []
    for name, data in (("before.json", before), ("after.json", after)):
        paths.append(tmp_path / name)
        paths[-1].write_text(json.dumps(data), encoding="utf-8")
    assert main(["compare", *map(str, paths)]) == 0
    out = capsys.readouterr().out
    assert "up: 1\n  q1 (precise, tuning): cit. F1 0.00 -> 1.00, MRR 0.50 -> 1.00" in out
    assert "down: 2\n  q2 (precise, tuning): cit. F1 1.00 -> 0.50" in out and "q3 (precise, tuning): cit. F1 1.00 -> 1.00, MRR 1.00 -> 0.50" in out
    assert "| citation_f1 | 0.667 | 0.833 | p = " in out
    assert main(["compare", *map(str, paths), "--split", "validation"]) == 2
    assert "before.json: no question of 'graph' in the validation part" in capsys.readouterr().err


@pytest.mark.parametrize("content, says", [(None, "no such file"), ("{not json", "not JSON"), ("[1, 2]", "no per-question"),
                                           ('{"systems": {}}', "no per-question results"),
                                           ('{"per_question": {"graph": {"a": 1}}}', "not a list of questions"),
                                           ('{"per_question": {"graph": [{"id": "q"}]}}', "question 1 has no 'gold'"),
                                           ('{"per_question": {"graph": [{"id": "q", "gold": []}]}, "twins": [1]}',
                                            "'twins' must map"), ("DIR", "cannot be read")])
def test_a_bad_result_file_is_one_line_and_exit_2(tmp_path, capsys, content, says):
    path = tmp_path / "run.json"
    if content == "DIR":
        path.mkdir()
    elif content is not None:
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
    total = next(line for line in shown.splitlines() if line.startswith("| (all categories) |"))
    rows = result["per_question"]["bm25"]
    missed = sum(r["recall@5"] == 0 for r in rows)               # the run's own measure of a retrieval miss
    right = sum(r["citation_f1"] == 1 for r in rows)
    assert total.startswith(f"| (all categories) | {questions} | {right} | {missed}")
    assert missed and right < questions                          # the sample run has both kinds to show
    assert main(["compare", str(out), str(out)]) == 0
    assert "no difference" in capsys.readouterr().out
    stale = tmp_path / "old.json"                                # a result older than match / twins: read, noted
    stale.write_text(json.dumps({k: v for k, v in result.items() if k not in ("match", "twins")}), encoding="utf-8")
    assert main(["failures", str(stale), "--system", "bm25"]) == 0
    assert "old.json does not record how its run matched ids" in capsys.readouterr().err
    assert main(["failures", str(out), "--system", "dense"]) == 2
    assert "no system 'dense'" in capsys.readouterr().err

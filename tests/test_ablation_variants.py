"""benchmarks/ablation.py: every re-rank part is ablated, including those only a language sets."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from ablation import variants  # noqa: E402
from workbench.core.config import RetrievalConfig  # noqa: E402


def test_each_weight_variant_holds_its_weight_at_zero_in_every_language():
    base = RetrievalConfig(mode="graph")
    got = dict(variants(base))
    assert got["graph (all on)"] == base
    # within is 0 by default and 1 for English (policies.toml): only weights_set keeps it at 0 there
    for name in ("within", "citing", "semantic", "phrase"):
        cfg = got[f"− re-rank {name}"]
        assert getattr(cfg.weights, name) == 0.0
        assert name in cfg.weights_set
        others = {k: v for k, v in vars(cfg.weights).items() if k != name}
        assert others == {k: v for k, v in vars(base.weights).items() if k != name}
    assert got["− routing"].ablate == ("routing",) and got["− routing"].weights_set == ()


def test_variants_are_named_exactly_and_need_an_out_file(monkeypatch, capsys):
    import ablation
    for argv in (["--variants", "citing", "--out", "x.json"],          # a part of a name selects nothing
                 ["--variants", "re-rank citing"],                      # a subset would overwrite the full table
                 ["--variants", ",", "--out", "x.json"]):              # no name at all
        monkeypatch.setattr(sys, "argv", ["ablation.py", *argv])
        assert ablation.main() == 2
        assert "--variants" in capsys.readouterr().err


def test_merge_joins_result_files_in_order_and_names_a_missing_one(monkeypatch, tmp_path, capsys):
    import json

    import ablation
    results = tmp_path / "benchmarks" / "results"
    results.mkdir(parents=True)
    cell = {"citation_f1": 0.5, "mrr": 0.75}
    (results / "a.json").write_text(json.dumps({"zh": {"questions": 2, "graph (all on)": cell}}), encoding="utf-8")
    (results / "b.json").write_text(json.dumps({"alqac": {"questions": 3, "graph (all on)": cell}}), encoding="utf-8")
    monkeypatch.setattr(ablation, "ROOT", tmp_path)
    monkeypatch.setattr(sys, "argv", ["ablation.py", "--merge", "b.json,a.json", "--out", "all.json"])
    assert ablation.main() == 0
    assert list(json.loads((results / "all.json").read_text(encoding="utf-8"))) == ["alqac", "zh"]
    assert "| graph (all on) | 0.500 / 0.750 | 0.500 / 0.750 |" in capsys.readouterr().out
    for argv in (["--merge", "a.json,gone.json", "--out", "x.json"], ["--merge", "a.json"]):
        monkeypatch.setattr(sys, "argv", ["ablation.py", *argv])
        assert ablation.main() == 2
        assert "--merge" in capsys.readouterr().err
    assert not (results / "x.json").exists()


def test_merge_refuses_a_set_in_two_files_and_a_file_that_is_no_result(monkeypatch, tmp_path, capsys):
    import json

    import ablation
    results = tmp_path / "benchmarks" / "results"
    results.mkdir(parents=True)
    (results / "a.json").write_text(json.dumps({"zh": {"questions": 1}}), encoding="utf-8")
    (results / "bad.json").write_text("{not json", encoding="utf-8")
    monkeypatch.setattr(ablation, "ROOT", tmp_path)
    for argv, says in ((["--merge", "a.json,a.json"], "set 'zh' is in an earlier file too"),
                       (["--merge", "a.json,bad.json"], "bad.json: not a result file")):
        monkeypatch.setattr(sys, "argv", ["ablation.py", *argv, "--out", "all.json"])
        assert ablation.main() == 2
        assert says in capsys.readouterr().err
    assert not (results / "all.json").exists()


def test_a_set_without_its_workspace_is_refused_before_anything_runs(monkeypatch, tmp_path, capsys):
    import ablation
    (tmp_path / "zh").mkdir()
    (tmp_path / "zh" / "workspace.json").write_text("{}", encoding="utf-8")
    monkeypatch.setattr(ablation, "WS", tmp_path)
    monkeypatch.setattr(ablation, "ROOT", tmp_path)
    monkeypatch.setattr(sys, "argv", ["ablation.py", "--sets", "zh,sample", "--out", "x.json"])
    assert ablation.main() == 2
    err = capsys.readouterr().err
    assert "no workspace for sample" in err and "retrieval.py --only sample" in err and "zh," not in err

from workbench.ui.demo import run_demo


def test_demo_ingests_asks_and_writes_figures(tmp_path, capsys):
    assert run_demo(tmp_path / "ws", tmp_path / "figures") == 0
    out = capsys.readouterr().out
    assert "== question: What is the penalty" in out
    assert "clinic-licensing-act@2018/a10" in out and "routed as reasoning" in out and "| graph |" in out
    pngs = sorted(p.name for p in (tmp_path / "figures").glob("*.png"))
    assert pngs == ["demo_eval_sample.png", "demo_evidence_1.png", "demo_evidence_2.png", "demo_evidence_3.png",
                    "demo_workspace.png"]
    assert all((tmp_path / "figures" / p).stat().st_size > 10_000 for p in pngs)

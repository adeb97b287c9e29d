"""A corpus cannot make the workbench read outside its folder or write outside the workspace."""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys

import pytest

from workbench.cli import main as cli
from workbench.core.errors import CorpusError
from workbench.parse.manifest import import_manifest

from conftest import ROOT, SAMPLE

LAW = "Article 1. Scope\nThis Act applies to clinics.\n"


def corpus(tmp_path, entry_file: str, name: str = "hostile", key: str = "act", extra: str = ""):
    folder = tmp_path / "corpus"
    folder.mkdir(exist_ok=True)
    (folder / "act.txt").write_text(LAW, encoding="utf-8")
    (folder / "corpus.toml").write_text(
        f'name = "{name}"\nlanguage = "en"\n{extra}\n[[documents]]\nkey = "{key}"\nversion = "1"\n'
        f'file = "{entry_file}"\neffective = "2020-01-01"\n', encoding="utf-8")
    return folder


@pytest.fixture()
def secret(tmp_path):
    f = tmp_path / "secret.txt"
    f.write_text("Article 1. Secret\nroot:x:0:0:the password line\n", encoding="utf-8")
    return f


@pytest.mark.parametrize("how", ["dotdot", "absolute", "symlink-file", "symlink-folder"])
def test_a_manifest_cannot_read_outside_its_folder(tmp_path, secret, how):
    if how == "dotdot":
        folder = corpus(tmp_path, "../secret.txt")
    elif how == "absolute":
        folder = corpus(tmp_path, str(secret))
    elif how == "symlink-file":
        folder = corpus(tmp_path, "link.txt")
        os.symlink(secret, folder / "link.txt")
    else:
        folder = corpus(tmp_path, "outside/secret.txt")
        os.symlink(tmp_path, folder / "outside")
    parsed = import_manifest(folder)
    assert not parsed.result.units, "a file outside the corpus folder was read"
    assert [p for p in parsed.result.problems if "outside the corpus folder" in p.reason and p.line == 4]


def test_a_file_inside_the_folder_is_still_read(tmp_path):
    parsed = import_manifest(corpus(tmp_path, "act.txt"))
    assert parsed.result.units and not [p for p in parsed.result.problems if p.severity == "error"]


@pytest.mark.parametrize("name", ["../../escaped", "/tmp/escaped", "a/b", ".."])
def test_a_corpus_name_cannot_write_outside_the_workspace(tmp_path, capsys, name):
    folder = corpus(tmp_path, "act.txt", name=name)
    ws = tmp_path / "ws"
    before = set(tmp_path.rglob("*"))
    assert cli(["ingest", str(folder), "--workspace", str(ws)]) == 2
    err = capsys.readouterr().err
    assert "corpus name" in err and "corpus.toml:1" in err and "Traceback" not in err
    new = set(tmp_path.rglob("*")) - before
    assert all(p == ws or p.is_relative_to(ws) for p in new), "something was written outside the workspace"
    assert not (ws / "reports").exists()


@pytest.mark.parametrize("key", ["a/b", "x@y", 'q"uote', "sp ace"])
def test_keys_that_would_break_unit_ids_are_refused_with_the_line(tmp_path, key):
    parsed = import_manifest(corpus(tmp_path, "act.txt", key=key.replace('"', '\\"')))
    assert not parsed.result.units
    assert [p for p in parsed.result.problems if "key" in p.reason and p.line == 4 and p.severity == "error"]


@pytest.mark.parametrize("argv, names", [
    (["in-force", "act", "2015-13-01"], "argument date"),
    (["ask", "x", "--as-of", "2015-99-01"], "argument --as-of"),
    (["search", "x", "-k", "0"], "argument -k"),
    (["search", "x", "-k", "-5"], "argument -k"),
    (["eval", "B.jsonl", "--systems", "bm25,nope"], "--systems"),
    (["eval", "B.jsonl", "--limit", "0"], "argument --limit"),
    (["entities", "--min-confidence", "2"], "argument --min-confidence"),
    (["entities", "--min-confidence", "nan"], "argument --min-confidence"),
    (["traverse", "authority:x", "--min-confidence", "-0.1"], "argument --min-confidence"),
])
def test_bad_arguments_are_one_line_naming_the_argument_exit_2(tmp_path, capsys, argv, names):
    ws = tmp_path / "ws"
    try:
        code = cli([*argv, "--workspace", str(ws)])
    except SystemExit as e:               # argparse refuses the argument itself
        code = e.code
    err = capsys.readouterr().err.strip()
    assert code == 2 and names in err and err.count("\n") == 0 and "Traceback" not in err
    assert not ws.exists()


@pytest.mark.parametrize("extra, says", [
    ('replaces = "old-act"', "replaces = 'old-act': give a list"),
    ("amends = [1, 2]", "amends = [1, 2]: give a list"),
    ('repealed = "2019-01-01"', "is not after effective"),
])
def test_manifest_values_of_the_wrong_shape_are_refused_not_split(tmp_path, extra, says):
    folder = corpus(tmp_path, "act.txt")
    toml = (folder / "corpus.toml").read_text(encoding="utf-8") + extra + "\n"
    (folder / "corpus.toml").write_text(toml, encoding="utf-8")
    parsed = import_manifest(folder)
    assert not parsed.result.units and not parsed.result.edges
    assert [p for p in parsed.result.problems if says in p.reason and p.line == 4]


@pytest.mark.parametrize("setting, says", [
    ("[ingest]\nbatch_size = 'big'", "give a whole number"),
    ("[ingest]\nembed_kinds = 'article'", "give a list"),
    ("[retrieval]\ntop_k = 2.5", "give a whole number"),
    ("[graph]\nextract_citations = 'yes'", "true or false"),
    ("[llm]\nbackends = 'extractive'", "give a list"),
])
def test_config_values_of_the_wrong_type_are_refused(tmp_path, setting, says):
    from workbench.core.config import Config
    from workbench.core.errors import ConfigError
    f = tmp_path / "wb.toml"
    f.write_text(setting + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=says) as e:
        Config.load(f)
    assert str(f) in str(e.value)


def test_nul_bytes_late_in_a_file_are_removed_with_a_warning(tmp_path):
    folder = corpus(tmp_path, "act.txt")
    (folder / "act.txt").write_bytes(("Article 1. Scope\n" + "This Act applies to clinics.\n" * 300
                                      + "Article 2. More\nText\x00 with a NUL.\n").encode())
    parsed = import_manifest(folder)
    assert parsed.result.units and not any("\x00" in u.text for u in parsed.result.units)
    assert [p for p in parsed.result.problems if "NUL" in p.reason and p.line == 303 and p.severity == "warning"]


def test_a_file_with_headings_only_is_warned_about(tmp_path):
    folder = corpus(tmp_path, "act.txt")
    (folder / "act.txt").write_text("Chapter I. General\nChapter II. Licences\n", encoding="utf-8")
    parsed = import_manifest(folder)
    assert [p for p in parsed.result.problems if "act.txt" in p.file and p.severity in ("warning", "error")]


def test_an_instrument_already_stored_from_another_corpus_is_refused(sample_workspace, tmp_path, capsys):
    from workbench.workbench import Workbench
    from workbench.core.config import Config, IngestConfig
    folder = corpus(tmp_path, "act.txt", name="copy-of-sample", key="clinic-licensing-act")
    toml = (folder / "corpus.toml").read_text(encoding="utf-8").replace('version = "1"', 'version = "2012"')
    (folder / "corpus.toml").write_text(toml, encoding="utf-8")
    before = Workbench.open(sample_workspace, Config(IngestConfig(progress=False)), create=False).store.count()
    assert cli(["ingest", str(folder), "--workspace", str(sample_workspace)]) == 2
    err = capsys.readouterr().err
    assert "clinic-licensing-act@2012 already in this workspace from corpus 'sample'" in err
    assert Workbench.open(sample_workspace, Config(IngestConfig(progress=False)), create=False).store.count() == before


def test_a_symlink_out_of_the_folder_is_read_only_when_allowed(tmp_path, secret):
    folder = corpus(tmp_path, "link.txt")
    os.symlink(secret, folder / "link.txt")
    assert not import_manifest(folder).result.units
    assert import_manifest(folder, follow_symlinks=True).result.units


def test_a_folder_corpus_does_not_read_through_a_link_out_of_it(tmp_path, secret):
    """Every importer reads through parse/text.read_text, which refuses what leads outside."""
    from workbench.parse.detect import load_corpus
    from workbench.core.errors import CorpusError
    laws = tmp_path / "lawrefbook" / "laws" / "经济法"
    laws.mkdir(parents=True)
    os.symlink(secret, laws / "秘密法(2020-01-01).md")
    try:
        parsed = load_corpus(tmp_path / "lawrefbook")
    except CorpusError:
        return
    assert not any("root" in u.text for u in parsed.result.units)
    assert any("outside the corpus folder" in p.reason for p in parsed.result.problems)


def test_replace_takes_an_instrument_over_from_another_corpus(sample_workspace, tmp_path):
    import shutil
    from workbench.workbench import Workbench
    from workbench.core.config import Config, IngestConfig
    from workbench.core.records import Filter
    ws = tmp_path / "ws"
    shutil.copytree(sample_workspace, ws)
    folder = corpus(tmp_path, "act.txt", name="copy-of-sample", key="clinic-licensing-act")
    toml = (folder / "corpus.toml").read_text(encoding="utf-8").replace('version = "1"', 'version = "2012"')
    (folder / "corpus.toml").write_text(toml, encoding="utf-8")
    cfg = Config(IngestConfig(progress=False))
    old = Workbench.open(ws, cfg, create=False)
    before, taken = old.store.count(), old.store.count(Filter(under=("clinic-licensing-act@2012",)))
    assert cli(["ingest", str(folder), "--workspace", str(ws), "--replace"]) == 0
    wb = Workbench.open(ws, cfg, create=False)
    doc = wb.store.get(["clinic-licensing-act@2012"])[0]
    assert doc.corpus == "copy-of-sample"
    mine = wb.store.count(Filter(corpus="copy-of-sample"))
    assert wb.store.count() == before - taken - 1 + mine
    ids = wb.units()["id"].to_list()
    assert len(ids) == len(set(ids)) and wb.inconsistencies() == []


# -- the writer lock names its holder -----------------------------------------------------------
def test_the_lock_file_names_the_writers_pid_and_command_and_so_does_the_refusal(tmp_path, capsys):
    from workbench.store.lock import LOCK, holder
    ws = tmp_path / "ws"
    holds = ("import sys, time; from workbench.store.lock import writing\n"
             "with writing(sys.argv[1]):\n    print('held', flush=True); time.sleep(300)")
    writer = subprocess.Popen([sys.executable, "-c", holds, str(ws), "--marker-of-the-writer"],
                              stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert writer.stdout.readline().strip() == "held"
        lines = (ws / LOCK).read_text(encoding="utf-8").splitlines()
        assert lines[0] == str(writer.pid) and "--marker-of-the-writer" in lines[1] and len(lines) == 2
        assert holder(ws) == writer.pid                               # the pid is still read from line 1
        assert cli(["ingest", str(SAMPLE), "--workspace", str(ws)]) == 2
        err = capsys.readouterr().err.strip()
        assert f"pid {writer.pid}" in err and "--marker-of-the-writer" in err and err.count("\n") == 0
    finally:
        writer.kill()
        writer.wait()
    assert holder(ws) is None


# -- damaged or read-only workspaces ------------------------------------------------------------
def copy_of(sample_workspace, tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(sample_workspace, ws)
    return ws


@pytest.mark.parametrize("content", [b"{oops", b"[1, 2]", b'"text"', b"null", b"\xff\xfe\x00garbage", b""])
@pytest.mark.parametrize("command", [["info"], ["search", "licence"]])
def test_a_corrupt_workspace_json_is_one_line_naming_it_exit_2(sample_workspace, tmp_path, capsys, content, command):
    ws = copy_of(sample_workspace, tmp_path)
    (ws / "workspace.json").write_bytes(content)
    assert cli([*command, "--workspace", str(ws)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Traceback" not in err and "unexpected" not in err
    assert str(ws / "workspace.json") in err and "damaged" in err and "ingest the corpora again" in err
    assert (ws / "workspace.json").read_bytes() == content                  # left as it was


def test_a_read_only_workspace_can_be_queried_and_nothing_changes(sample_workspace, tmp_path, capsys):
    ws = copy_of(sample_workspace, tmp_path)

    def state():
        return {p: (p.stat().st_mtime_ns, p.stat().st_size) for p in [ws, *ws.rglob("*")]}
    before = state()
    for p in before:
        p.chmod(p.stat().st_mode & ~0o222)
    try:
        assert cli(["info", "--workspace", str(ws)]) == 0
        assert cli(["search", "licence", "--workspace", str(ws)]) == 0
        assert cli(["search", "licence", "--mode", "dense", "--workspace", str(ws)]) == 0
        out, err = capsys.readouterr()
        assert "clinic-licensing-act" in out and "error" not in err
        assert state() == before
    finally:
        for p in before:
            p.chmod(p.stat().st_mode | 0o200)


def test_info_flags_units_without_their_graph(sample_workspace, tmp_path, capsys):
    ws = copy_of(sample_workspace, tmp_path)
    for f in ws.glob("graph_*.parquet"):            # as a crash after the units were stored leaves it
        f.unlink()
    assert cli(["info", "--workspace", str(ws)]) == 0
    out = capsys.readouterr().out
    assert "warning: corpus sample:" in out and "units but no CONTAINS edges (re-ingest it)" in out


# -- pipes, --debug -------------------------------------------------------------------------------
def workbench_shell(args: list[str], pipe: str, tmp_path, **env):
    """Run `python -m workbench.cli ARGS | PIPE` in bash: (exit code of the workbench side, its stderr)."""
    err = tmp_path / "stderr.txt"
    line = (f"{shlex.quote(sys.executable)} -m workbench.cli {shlex.join(args)} 2>{shlex.quote(str(err))} "
            f"| {pipe} >/dev/null; exit ${{PIPESTATUS[0]}}")
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"} | env
    code = subprocess.run(["bash", "-c", line], cwd=ROOT, env=environ, timeout=300).returncode
    return code, err.read_text(encoding="utf-8")


@pytest.mark.parametrize("reader", ["head -c 10", "true"])     # true: the reader is gone before any output
def test_info_into_a_pipe_closed_early_exits_0_quietly(sample_workspace, tmp_path, reader):
    code, err = workbench_shell(["info", "--workspace", str(sample_workspace)], reader, tmp_path)
    assert code == 0 and "Traceback" not in err and "BrokenPipe" not in err and not err.strip()


def test_debug_shows_the_traceback_of_a_bad_input_and_only_then(sample_workspace, tmp_path, capsys):
    bench = tmp_path / "null.jsonl"
    bench.write_text("null\n", encoding="utf-8")
    argv = ["eval", str(bench), "--workspace", str(sample_workspace)]
    assert cli(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Traceback" not in err and f"{bench}:1" in err
    code, err = workbench_shell(["--debug", *argv], "cat", tmp_path)
    assert code == 1 and "Traceback (most recent call last)" in err and "CorpusError" in err and f"{bench}:1" in err


# -- define, encodings ---------------------------------------------------------------------------
@pytest.mark.parametrize("term", ["%", "_", "%%"])
def test_define_a_wildcard_lists_no_term(sample_workspace, capsys, term):
    assert cli(["define", term, "--workspace", str(sample_workspace)]) == 0
    out, err = capsys.readouterr()
    assert out == "" and err == ""
    assert cli(["define", "licence", "--workspace", str(sample_workspace)]) == 0     # a real term still is
    assert "licence" in capsys.readouterr().out


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom_is_decoded(tmp_path, encoding):
    from workbench.parse.text import decode
    data = LAW.encode(encoding)
    assert not data.startswith((b"\xff\xfe", b"\xfe\xff"))
    assert decode(data, "act.txt") == LAW
    folder = corpus(tmp_path, "act.txt")
    (folder / "act.txt").write_bytes(data)
    parsed = import_manifest(folder)
    assert any("clinics" in u.text for u in parsed.result.units)
    assert not [p for p in parsed.result.problems if p.severity == "error"]


# -- benchmarks -----------------------------------------------------------------------------------
def bench_file(tmp_path, *rows: str):
    f = tmp_path / "bench.jsonl"
    f.write_text("".join(r + "\n" for r in rows), encoding="utf-8")
    return f


GOOD_Q = '{"id": "q1", "question": "What does a licence need?", "gold": ["clinic-licensing-act@2018/a10"]}'


@pytest.mark.parametrize("as_of", ['"2020-13-01"', '"31/01/2020"', '"20200131"', '"2020-1-5"', '""', "2020",
                                   '["2020-01-01"]'])
def test_a_benchmark_as_of_that_is_not_a_date_is_refused_with_the_line(tmp_path, as_of):
    from workbench.evaluate.metrics import load_benchmark
    f = bench_file(tmp_path, GOOD_Q, '{"id": "q2", "question": "x?", "gold": ["a@1/a1"], "as_of": %s}' % as_of)
    with pytest.raises(CorpusError) as e:
        load_benchmark(f)
    assert e.value.file == str(f) and e.value.line == 2 and "YYYY-MM-DD" in str(e.value)
    ok = bench_file(tmp_path, GOOD_Q.replace("}", ', "as_of": "2020-02-29"}'))
    assert load_benchmark(ok)[0].as_of == "2020-02-29"


def test_eval_refuses_a_bad_as_of_with_exit_2(sample_workspace, tmp_path, capsys):
    f = bench_file(tmp_path, GOOD_Q.replace("}", ', "as_of": "2020-02-30"}'))
    assert cli(["eval", str(f), "--workspace", str(sample_workspace), "--figure", str(tmp_path / "f.png")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and f"{f}:1" in err and "YYYY-MM-DD" in err and "Traceback" not in err
    assert not (tmp_path / "f.png").exists()


@pytest.mark.parametrize("rows, says", [(None, "no such benchmark file"), (["null"], "not a benchmark line")])
def test_eval_a_missing_or_null_benchmark_is_one_line_exit_2(sample_workspace, tmp_path, capsys, rows, says):
    f = bench_file(tmp_path, *rows) if rows else tmp_path / "nowhere.jsonl"
    assert cli(["eval", str(f), "--workspace", str(sample_workspace), "--figure", str(tmp_path / "f.png")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and str(f) in err and says in err and "Traceback" not in err


def test_eval_warns_of_gold_ids_the_workspace_does_not_hold(sample_workspace, tmp_path, capsys):
    f = bench_file(tmp_path, GOOD_Q.replace('"]}', '", "no-such-act@1/a1"]}'),
                   '{"id": "q2", "question": "Who licenses clinics?", "gold": ["ghost@2/a3", "ghost@2/a4", '
                   '"ghost@2/a5"]}', '{"id": "q3", "question": "hospital", "gold": ["clinic-licensing-act@2018/a3"]}')
    argv = ["eval", str(f), "--systems", "bm25", "--workspace", str(sample_workspace),
            "--figure", str(tmp_path / "f.png")]
    assert cli(argv) == 0
    out, err = capsys.readouterr()
    warned = [line for line in err.splitlines() if "gold ids" in line]
    assert len(warned) == 1 and warned[0].startswith("warning: 4 gold ids of 2 questions are not in the workspace")
    assert "no-such-act@1/a1 (question q1)" in warned[0] and "ghost@2/a3 (question q2)" in warned[0]
    assert "and 1 more" in warned[0] and "| bm25 |" in out
    f.write_text(GOOD_Q + "\n", encoding="utf-8")                           # all there: no warning
    assert cli(argv) == 0 and "gold ids" not in capsys.readouterr().err


@pytest.mark.parametrize("argv, says", [(["ask", "", "--backend", "extractive"], "nothing to search for"),
                                        (["ask", "？？？"], "nothing to search for"),
                                        (["search", "   "], "nothing to search for"),
                                        (["define", ""], "nothing to look up")])
def test_a_question_with_no_words_is_one_line_exit_2(sample_workspace, capsys, argv, says):
    """Nothing to search for: refused in one line naming the question, not answered at random."""
    code = cli([*argv, "--workspace", str(sample_workspace)])
    err = capsys.readouterr().err.strip()
    assert code == 2 and says in err and err.count("\n") == 0 and "Traceback" not in err


def test_entity_is_the_entities_command(sample_workspace, capsys):
    assert cli(["entity", "licensing", "--workspace", str(sample_workspace)]) == 0
    assert "licensing" in capsys.readouterr().out

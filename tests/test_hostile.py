"""A corpus cannot make the workbench read outside its folder or write outside the workspace."""
from __future__ import annotations

import os

import pytest

from workbench.cli import main as cli
from workbench.parse.manifest import import_manifest

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

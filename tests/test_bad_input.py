"""Bad input gets an error naming the file (and line) and the fix; the rest still ingests."""
from pathlib import Path

import pytest

from workbench.core.errors import CorpusError
from workbench.parse.detect import load_corpus
from workbench.parse.manifest import import_manifest
from workbench.parse.text import decode

GOOD = "第一章　总则\n第一条　为了测试，制定本办法。\n第二条　本办法自公布之日起施行。\n"


def manifest(tmp_path, entries: str, files: dict[str, bytes]):
    (tmp_path / "corpus.toml").write_text('name = "bad"\nlanguage = "zh"\n' + entries, encoding="utf-8")
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    return tmp_path


def entry(key, version, file, extra=""):
    return f'\n[[documents]]\nkey = "{key}"\ntitle = "测试办法"\nversion = "{version}"\nfile = "{file}"\neffective = 2020-01-01\n{extra}'


def problems_for(parsed, needle):
    return [p for p in parsed.result.problems if needle in p.file or needle in p.reason]


def test_good_document_survives_every_kind_of_bad_neighbour(tmp_path):
    files = {"good.txt": GOOD.encode(), "empty.txt": b"", "binary.bin": bytes(range(256)) * 8,
             "gbk.txt": GOOD.encode("gbk"), "utf16.txt": GOOD.encode("utf-16")}
    entries = (entry("good", "1", "good.txt") + entry("empty", "1", "empty.txt")
               + entry("binary", "1", "binary.bin") + entry("gbk", "1", "gbk.txt")
               + entry("utf16", "1", "utf16.txt") + entry("missing", "1", "nowhere.txt")
               + '\n[[documents]]\nkey = "nofile"\nversion = "1"\n'
               + entry("good", "1", "gbk.txt"))
    parsed = import_manifest(manifest(tmp_path, entries, files))
    docs = {d.doc_id for d in parsed.documents}
    assert docs == {"good@1", "gbk@1", "utf16@1"}          # GBK and UTF-16 are decoded
    assert sum(u.kind == "article" for u in parsed.result.units) == 6
    assert problems_for(parsed, "empty.txt")[0].reason == "the file is empty"
    assert "binary" in problems_for(parsed, "binary.bin")[0].reason
    missing = problems_for(parsed, "nowhere.txt")[0]
    assert missing.file.endswith("corpus.toml") and missing.line == 39 and "does not exist" in missing.reason
    nofile = problems_for(parsed, "lacks file")[0]
    assert nofile.line == 46 and 'file = "…"' in nofile.reason
    dup = problems_for(parsed, "duplicate version label good@1")[0]
    assert "second was skipped" in dup.reason
    assert all(p.severity == "error" for p in parsed.result.problems)


def test_missing_manifest_says_what_to_do(tmp_path):
    (tmp_path / "a.bin").write_bytes(b"\x00\x01")
    with pytest.raises(CorpusError, match="corpus.toml"):
        load_corpus(tmp_path)


def test_invalid_toml_names_the_line(tmp_path):
    (tmp_path / "corpus.toml").write_text('name = "x"\n[[documents]\nkey = 1\n', encoding="utf-8")
    with pytest.raises(CorpusError) as e:
        import_manifest(tmp_path)
    assert e.value.line == 2 and "corpus.toml" in e.value.file


def test_missing_date_is_an_error_with_the_fix(tmp_path):
    entries = '\n[[documents]]\nkey = "a"\nversion = "1"\nfile = "a.txt"\n'
    parsed = import_manifest(manifest(tmp_path, entries, {"a.txt": GOOD.encode()}))
    assert not parsed.documents and "effective = YYYY-MM-DD" in parsed.result.problems[0].reason


def test_undecodable_bytes_name_the_line():
    data = "第一条　甲。\n第二条　乙。\n".encode() + b"\xff\xfe\xfa\x80\x81 broken \xc3\x28\n" * 3
    with pytest.raises(CorpusError) as e:
        decode(data, "x.txt")
    assert e.value.file == "x.txt" and e.value.line == 3 and "iconv" in str(e.value)


def test_config_file_refuses_unknown_sections_and_keys(tmp_path):
    from workbench.core.config import Config
    from workbench.core.errors import ConfigError
    f = tmp_path / "wb.toml"
    f.write_text("[retreival]\ntop_k = 5\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"wb.toml: unknown section \[retreival\]"):
        Config.load(f)
    f.write_text("[retrieval]\ntopk = 5\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"unknown setting 'topk' in \[retrieval\]"):
        Config.load(f)
    f.write_text("[retrieval.weights]\nsemantics = 1.0\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"'semantics' in \[retrieval.weights\]"):
        Config.load(f)
    f.write_text('[retrieval]\ntop_k = 5\nedge_types = ["REFERENCES"]\n[retrieval.weights]\nsemantic = 0.7\n'
                 '[retrieval.hops]\nREFERENCES = 2\n[ingest]\nembed_kinds = ["article"]\n', encoding="utf-8")
    cfg = Config.load(f)
    assert cfg.retrieval.top_k == 5 and cfg.retrieval.weights.semantic == 0.7 and cfg.retrieval.weights.lexical == 0.2
    assert cfg.retrieval.hops == (("REFERENCES", 2),) and cfg.retrieval.edge_types == ("REFERENCES",)
    assert cfg.ingest.embed_kinds == ("article",)
    assert cfg.retrieval.weights_set == ("semantic",)           # a weight written in the file holds as written
    hash(cfg)                                                    # frozen all the way down
    f.write_text('[retrieval]\nweights_set = ["semantic", "rol"]\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"weights_set names 'rol', not a weight; known: semantic"):
        Config.load(f)
    f.write_text('[retrieval]\nweights_set = []\n[retrieval.weights]\nsemantic = 0.5\n', encoding="utf-8")
    assert Config.load(f).retrieval.weights_set == ()           # the file says which hold: none
    # a table of every weight without weights_set: a setting saved before weights_set existed, read as it was meant
    from dataclasses import fields
    from workbench.core.config import RetrievalConfig, Weights
    f.write_text("[retrieval.weights]\n" + "".join(f"{w.name} = 0.5\n" for w in fields(Weights)), encoding="utf-8")
    assert Config.load(f).retrieval.weights_set == ()
    # ... and one saved then, before a weight added since (within) existed
    f.write_text("[retrieval.weights]\n" + "".join(f"{w.name} = 0.5\n" for w in fields(Weights) if w.name != "within"),
                 encoding="utf-8")
    assert Config.load(f).retrieval.weights_set == ()
    with pytest.raises(ValueError, match="'semantik' is not a re-rank weight"):
        RetrievalConfig(weights_set=("semantik",))
    assert RetrievalConfig(weights_set=("role", "lexical", "role")).weights_set == ("lexical", "role")


def test_cli_bad_config_is_one_line_and_exit_2(tmp_path, capsys):
    from workbench.cli import main
    f = tmp_path / "wb.toml"
    f.write_text("[ingest]\nembeder = 'e5'\n", encoding="utf-8")
    sample = str(Path(__file__).parents[1] / "corpora" / "sample")
    assert main(["--config", str(f), "ingest", sample, "--workspace", str(tmp_path / "ws")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "embeder" in err and "wb.toml" in err
    assert main(["--config", str(tmp_path / "nope.toml"), "ingest", sample, "--workspace", str(tmp_path / "ws")]) == 2
    assert not (tmp_path / "ws").exists()                        # nothing written for a bad config


@pytest.mark.parametrize("argv", [["info"], ["search", "licence"], ["eval", "BENCH"], ["define", "licence"],
                                  ["in-force", "x", "2020-01-01"], ["relink"]])
def test_reading_a_mistyped_workspace_is_an_error_and_creates_nothing(tmp_path, capsys, argv):
    from workbench.cli import main
    bench = Path(__file__).parents[1] / "corpora" / "sample" / "benchmark.jsonl"
    argv = [str(bench) if a == "BENCH" else a for a in argv]
    ws = tmp_path / "typo"
    assert main([*argv, "--workspace", str(ws)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "no workspace" in err and str(ws) in err
    assert not ws.exists()

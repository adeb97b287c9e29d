"""Property-based tests (hypothesis): parsers, the manifest reader, decoding, routing and
provision roles take arbitrary input without any exception other than the typed errors."""
from __future__ import annotations

import string

from hypothesis import HealthCheck, given, settings, strategies as st

from workbench.core.errors import CorpusError, WorkbenchError
from workbench.core.records import DocumentMeta
from workbench.parse.en import parse_en
from workbench.parse.roles import ROLES, provision_role
from workbench.parse.text import decode
from workbench.parse.vi import parse_vi
from workbench.parse.zh import parse_zh
from workbench.retrieve.route import TYPES, classify

# text made of the pieces statutes are built from, in three languages, plus anything at all
PIECES = ["第一条", "第十二条之一", "第二章", "第三节", "（一）", "（二）", "一、", "本法所称", "应当", "罚款",
          "Điều 1.", "Điều 12a.", "Chương II", "Mục 1", "1.", "a)", "đ)", "Khoản", "phải", "phạt tiền",
          "Article 3", "Section 4.2", "Part 5", "Chapter 1", "(1)", "(a)", "(iv)", "Rule 2.3.1", "Guidance",
          "means", "must", "\n", "\n\n", " ", "　", "\t", "\r\n", "\x00", "\ufeff", "《", "》", "：", "。"]
legal_text = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=12)), max_size=60).map("".join)
SETTINGS = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _check(result, key):
    ids = [u.id for u in result.units]
    assert len(ids) == len(set(ids))
    known = set(ids)
    assert all(u.parent_id is None or u.parent_id in known for u in result.units)
    assert all(u.id.startswith(key + "@") for u in result.units)


@SETTINGS
@given(legal_text)
def test_the_zh_parser_takes_any_text(text):
    _check(parse_zh(text, DocumentMeta("law", "2020", "法", "zh")), "law")


@SETTINGS
@given(legal_text)
def test_the_vi_parser_takes_any_text(text):
    _check(parse_vi(text, DocumentMeta("luat", "2020", "Luật", "vi")), "luat")


@SETTINGS
@given(legal_text)
def test_the_en_parser_takes_any_text(text):
    _check(parse_en(text, DocumentMeta("act", "2020", "Act", "en")), "act")


@SETTINGS
@given(st.binary(max_size=400))
def test_decoding_any_bytes_gives_text_or_a_named_error(data):
    try:
        assert isinstance(decode(data, "f.txt"), str)
    except CorpusError as e:
        assert e.file == "f.txt" and str(e)


TOML_PIECES = ['name = "c"\n', 'language = "zh"\n', "[[documents]]\n", 'key = "k"\n', 'version = "2020"\n',
               'file = "a.txt"\n', 'file = "../x"\n', 'file = "/etc/passwd"\n', 'effective = "2020-01-01"\n',
               'effective = "2020-13-45"\n', "effective = 2020-01-01\n", 'repealed = "2019-01-01"\n',
               'replaces = "x"\n', "replaces = [1, 2]\n", 'amends = ["k@2019"]\n', 'title = "T"\n', "key = 3\n",
               'version = ""\n', 'name = "../../x"\n', "[documents]\n", "= broken\n", '"\n']
toml_text = st.lists(st.one_of(st.sampled_from(TOML_PIECES), st.text(max_size=10)), max_size=25).map("".join)


@settings(max_examples=120, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(toml_text)
def test_any_manifest_parses_or_gives_a_typed_error(tmp_path, text):
    from workbench.parse.manifest import import_manifest
    folder = tmp_path / "corpus"
    folder.mkdir(exist_ok=True)
    (folder / "a.txt").write_text("第一条 应当遵守。\n", encoding="utf-8")
    (folder / "corpus.toml").write_text(text, encoding="utf-8")
    try:
        parsed = import_manifest(folder)
    except (CorpusError, WorkbenchError) as e:
        assert str(e)
        return
    for p in parsed.result.problems:
        assert p.file and p.reason
    assert all(u.source_file == "" or "passwd" not in u.source_file for u in parsed.result.units)


@SETTINGS
@given(st.one_of(legal_text, st.text(max_size=200)))
def test_any_question_is_routed(q):
    r = classify(q)
    assert r.type in TYPES
    assert all(isinstance(n, int) for n, _ in r.articles)


@SETTINGS
@given(legal_text, st.text(max_size=30), st.sampled_from(["zh", "vi", "en", "", "fr"]))
def test_any_unit_gets_a_role(text, title, language):
    assert provision_role(text, title, language) in ROLES

"""One written form: composed letters and one Vietnamese tone placement, on both sides of a search."""
import unicodedata

from workbench.core.orthography import one_form
from workbench.core.records import Unit
from workbench.entities.extract import normalise
from workbench.retrieve.phrases import covers
from workbench.store.tokenize import tokens

NFD = lambda s: unicodedata.normalize("NFD", s)  # noqa: E731


def test_one_tone_placement_for_a_final_oa_oe_uy():
    assert one_form("hoà giải, Thoả thuận, khoẻ, Uỷ ban, thuỷ sản, hoạ") == "hòa giải, Thỏa thuận, khỏe, Ủy ban, thủy sản, họa"
    # closed syllables, "qu" + y, a pair followed by a second mark, Chinese: unchanged
    for same in ("hoàn thành", "quý", "hoặc", "khoắn", "thuyền", "食品安全法", "Regulator"):
        assert one_form(same) == same
    assert normalise("hoặc") == "hoặc"           # the entity names share it (it read "họăc" before)
    assert one_form(NFD("Ủy ban nhân dân")) == "Ủy ban nhân dân"


def test_a_question_finds_the_other_spelling_word_for_word():
    assert tokens("thoả thuận hoà giải", "vi") == tokens("thỏa thuận hòa giải", "vi") == ["thỏa", "thuận", "hòa", "giải"]
    assert tokens(NFD("người sử dụng lao động"), "vi") == tokens("người sử dụng lao động", "vi")
    got = covers("các bên thoả thuận về việc", {"a": "Các bên thỏa thuận về việc bồi thường."}, "vi")
    assert got["a"] == 1.0


def test_full_text_search_and_a_workspace_made_before(tmp_path):
    """A corpus file saved decomposed, spelling the other tone placement, is found by a question in the
    usual form; a workspace written before (text decomposed, tokens in both placements, no `form` in its
    record) is warned of by `info` and brought to the current form by `relink`."""
    import json
    from workbench.core.config import Config, IngestConfig
    from workbench.workbench import Workbench
    folder = tmp_path / "luat"
    folder.mkdir()
    (folder / "corpus.toml").write_text('name = "luat"\nlanguage = "vi"\n[[documents]]\nkey = "luat-thu"\n'
                                        'title = "Luật Hoà giải thử"\nversion = "2020"\nfile = "luat.txt"\n'
                                        'effective = 2020-01-01\n', encoding="utf-8")
    (folder / "luat.txt").write_bytes(NFD("Điều 1. Thỏa thuận\nCác bên có quyền thoả thuận về mức bồi thường.\n"
                                          "Điều 2. Trả lương\nNgười sử dụng lao động phải trả lương đúng hạn.\n"
                                          "Điều 3. Thuế\nCơ quan thuế quản lý việc thu thuế.\n").encode("utf-8"))
    wb = Workbench.open(tmp_path / "ws", Config(IngestConfig(progress=False)))
    wb.ingest(folder)
    found = lambda q: [h.unit_id.split("/")[-1] for h in wb.store.search_text(q, "vi", 3)]  # noqa: E731
    assert found("thỏa thuận bồi thường")[0] == "a1" and found("người sử dụng lao động trả lương")[0] == "a2"
    assert not any("relink" in x for x in wb.inconsistencies())
    from dataclasses import replace
    for mode in ("bm25", "graph"):              # a question typed decomposed is read composed
        got = wb.retrieve(NFD("Người sử dụng lao động phải trả lương thế nào?"), replace(wb.config.retrieval, mode=mode))
        assert "/a2" in got.hits[0].unit_id, (mode, [h.unit_id for h in got.hits])
    got = wb.retrieve(NFD("Điều 3 của Luật Hòa giải thử quy định gì? Bị phạt bao nhiêu?"),
                      replace(wb.config.retrieval, mode="graph"))
    assert got.plan.route.articles and got.plan.route.asks == ("sanction",)   # its cue words read as typed
    assert set(got.plan.keys) == {"luat-thu"}          # the title, spelled "Hoà" in the corpus, named "Hòa"
    assert got.hits[0].unit_id.endswith("/a3")
    # as written before: text decomposed, tokens as the words stood, no form recorded
    a1 = next(u for u in wb.store.where(wb_filter(corpus="luat")) if u.id.endswith("/a1"))
    wb.store.table.update(where=f"id = '{a1.id}'", values={"text": NFD(a1.text), "search_text": "các bên có quyền thoả"})
    wb.store.reindex()
    meta = json.loads((tmp_path / "ws" / "workspace.json").read_text(encoding="utf-8"))
    meta.pop("form")
    (tmp_path / "ws" / "workspace.json").write_text(json.dumps(meta), encoding="utf-8")
    wb = Workbench.open(tmp_path / "ws", Config(IngestConfig(progress=False)))
    assert "a1" not in found("thỏa")
    assert any("run `workbench relink`" in x for x in wb.inconsistencies())
    from workbench.store.refresh import refresh_text
    with wb._writing():
        assert refresh_text(wb.store) == 1             # the one row written before, no other
    wb.store.table.update(where=f"id = '{a1.id}'", values={"text": NFD(a1.text), "search_text": "các bên có quyền thoả"})
    wb.reextract()
    wb = Workbench.open(tmp_path / "ws", Config(IngestConfig(progress=False)))
    assert found("thỏa")[0] == "a1" and not any("relink" in x for x in wb.inconsistencies())
    assert wb.store.get([a1.id])[0].text == a1.text             # composed again


def wb_filter(**kw):
    from workbench.core.records import Filter
    return Filter(**kw)


def test_a_decomposed_file_reads_composed(tmp_path):
    from workbench.parse.text import read_text
    f = tmp_path / "luat.txt"
    f.write_bytes(NFD("Điều 1. Ủy ban nhân dân cấp tỉnh").encode("utf-8"))
    assert read_text(f) == "Điều 1. Ủy ban nhân dân cấp tỉnh"


def test_a_defined_term_in_the_other_tone_placement_is_named():
    from workbench.retrieve.plan import _terms
    from workbench.retrieve.route import classify
    q = "Hoà giải viên là gì?"
    assert _terms(q, classify(q), {"hòa giải viên": ["k@1/a3"], "giải": ["k@1/a9"]}) == ("hòa giải viên",)


def test_a_term_is_looked_up_in_either_tone_placement(tmp_path):
    """`workbench define`: a term stored in one placement is found in the other; keys written before
    are made again by `relink` (TermStore.refresh_norms)."""
    from workbench.link.terms import Term
    from workbench.store.terms import TermStore
    store = TermStore(tmp_path / "lance")
    store.replace_corpus("c", [Term("Hoà giải viên", "k@1/a3/c1", "vi", "người được công nhận …")])
    assert [r["unit_id"] for r in store.lookup("hòa giải viên")] == ["k@1/a3/c1"]
    store.table.update(where="unit_id = 'k@1/a3/c1'", values={"norm": "hoà giải viên"})    # as written before
    assert store.lookup("hòa giải viên") == []
    assert store.refresh_norms() == 1 and [r["unit_id"] for r in store.lookup("hoà giải viên")] == ["k@1/a3/c1"]
    assert store.refresh_norms() == 0

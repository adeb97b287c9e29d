"""One written form: composed letters and one Vietnamese tone placement, on both sides of a search."""
import unicodedata

import numpy as np

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
    from workbench.store import lance
    texts = {"k@1/a1": "Các bên có quyền thoả thuận về mức bồi thường.",     # the other placement
             "k@1/a2": NFD("Người sử dụng lao động phải trả lương đúng hạn."),   # decomposed
             "k@1/a3": "Cơ quan thuế quản lý việc thu thuế."}
    units = [Unit("k@1", "k", "1", "document", text="Luật", corpus="c", language="vi")] + \
        [Unit(i, "k", "1", "article", text=t, parent_id="k@1", corpus="c", language="vi") for i, t in texts.items()]
    store = lance.LanceUnitStore(tmp_path / "lance", 8)
    store.replace_corpus("c", units, np.ones((len(units), 8), np.float32), [True] * len(units))
    found = lambda q: [h.unit_id for h in store.search_text(q, "vi", 3)]  # noqa: E731
    assert found("thỏa thuận bồi thường")[0] == "k@1/a1"
    assert found("người sử dụng lao động trả lương")[0] == "k@1/a2"
    # a workspace whose tokens were written before: `relink` (refresh_tokens) brings them to one form
    store.table.update(where="id = 'k@1/a1'", values={"search_text": "các bên có quyền thoả thuận về mức bồi thường"})
    store.reindex()
    assert "k@1/a1" not in found("thỏa")
    assert store.refresh_tokens() == 1 and found("thỏa")[0] == "k@1/a1"
    assert store.refresh_tokens() == 0


def test_a_decomposed_file_reads_composed(tmp_path):
    from workbench.parse.text import read_text
    f = tmp_path / "luat.txt"
    f.write_bytes(NFD("Điều 1. Ủy ban nhân dân cấp tỉnh").encode("utf-8"))
    assert read_text(f) == "Điều 1. Ủy ban nhân dân cấp tỉnh"

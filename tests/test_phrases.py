"""The phrase cover (retrieve/phrases.py) and its part in re-ranking."""
import numpy as np
import pytest

from workbench.core.config import Weights
from workbench.core.records import Unit
from workbench.retrieve.phrases import cover, covers, sequence
from workbench.retrieve.rerank import Signals, rerank

# two sanctions of one regulation: the list names the party and the goods; the short one restates the act
LIST = ("生猪定点屠宰厂（场）有下列情形之一的，由商务主管部门责令限期改正，处2万元以上5万元以下的罚款：（一）屠宰生猪"
        "不符合国家规定的操作规程和技术要求的；（二）未如实记录其屠宰的生猪来源和生猪产品流向的；（三）未建立或者实施肉品"
        "品质检验制度的；（四）对经肉品品质检验不合格的生猪产品未按照国家有关规定处理并如实记录处理情况的。")
ACT = ("生猪定点屠宰厂（场）出厂（场）未经肉品品质检验或者经肉品品质检验不合格的生猪产品的，由商务主管部门责令停业整顿，"
       "没收生猪产品和违法所得，并处货值金额1倍以上3倍以下的罚款。")
TOPIC = "对屠宰厂出厂未经肉品品质检验的生猪产品的处罚力度"


def test_a_provision_restating_the_question_covers_more_of_it_than_one_sharing_its_words_scattered():
    act = cover(sequence(TOPIC, "zh"), sequence(ACT, "zh"), "zh")
    listed = cover(sequence(TOPIC, "zh"), sequence(LIST, "zh"), "zh")
    # "屠宰厂出厂未经肉品品质检验的生猪产品的" (19 of 24) against "经肉品品质检验", "的生猪产品" (12 of 24)
    assert act == pytest.approx(19 / 24) and listed == pytest.approx(12 / 24)
    # runs shorter than MIN_RUN count for nothing: "屠宰厂" (3) and "处罚" are in the list too
    assert "屠宰厂" in LIST and cover(sequence("屠宰厂的处罚", "zh"), sequence(LIST, "zh"), "zh") == 0.0


def test_a_bracketed_alternative_does_not_break_the_run():
    """"出厂（场）未经" in the law, "出厂未经" in the question: one run."""
    assert sequence("出厂（场）未经检验", "zh") == tuple("出厂未经检验")
    assert cover(sequence("出厂未经检验", "zh"), sequence("出厂（场）未经检验", "zh"), "zh") == 1.0
    # a numbered item and an instrument's title are not alternatives of a word
    assert sequence("（一）屠宰", "zh") == tuple("一屠宰")
    assert sequence("依照《食品安全法》处罚", "zh") == tuple("依照处罚")


def test_words_make_the_runs_in_vietnamese_and_english():
    q = sequence("What must an Authorised Person do before it carries on a regulated activity?", "en")
    text = sequence("An Authorised Person must, before it carries on a Regulated Activity, notify the Regulator.", "en")
    share = cover(q, text, "en")
    # "an authorised person" (3) and "before it carries on a regulated activity" (7) of 13 words
    assert share == pytest.approx(10 / 13)
    # two words in a row are no run
    assert cover(sequence("the person must", "en"), sequence("a person must not", "en"), "en") == 0.0
    vi = cover(sequence("Người lao động có quyền đơn phương chấm dứt hợp đồng", "vi"),
               sequence("Người lao động có quyền đơn phương chấm dứt hợp đồng lao động", "vi"), "vi")
    assert vi == 1.0
    # a word is not matched inside a longer one, at a run's start or as it is extended
    assert cover(sequence("pay the fee", "en"), sequence("repay the feeder", "en"), "en") == 0.0
    assert cover(sequence("we pay the fee now", "en"), sequence("we pay the feeder now", "en"), "en") == 3 / 5


def test_a_long_topic_against_a_long_text_costs_little():
    """Each position of the topic is extended past once: a topic held whole in a long text is not
    searched for again from every start (that was seconds per candidate on a 200-character topic)."""
    import time
    t0 = time.perf_counter()
    for _ in range(20):
        assert cover(tuple("的" * 200), tuple("的" * 3000), "zh") == 1.0
    assert time.perf_counter() - t0 < 1.0
    # no language reads as words; a Chinese code in any case reads by character
    assert cover(sequence("pay the fee now", None), sequence("pay the fee now", None), None) == 1.0
    assert sequence("出厂未经", "ZH-Hans") == tuple("出厂未经")


def test_covers_leaves_out_what_holds_nothing():
    got = covers(TOPIC, {"act": ACT, "list": LIST, "none": "本条例自公布之日起施行。"}, "zh")
    assert set(got) == {"act", "list"} and got["act"] > got["list"]
    assert covers("", {"act": ACT}, "zh") == {}


def test_the_phrase_weight_lifts_the_provision_restating_the_question():
    units = {"reg@1/a25": Unit("reg@1/a25", "reg", "1", "article", text=LIST),
             "reg@1/a26": Unit("reg@1/a26", "reg", "1", "article", text=ACT),
             "reg@1/a1": Unit("reg@1/a1", "reg", "1", "article", text="本条例自公布之日起施行。")}
    vecs = {"reg@1/a25": np.array([1.0, 0.0]), "reg@1/a26": np.array([0.95, 0.31]), "reg@1/a1": np.array([0.0, 1.0])}
    phrase = covers(TOPIC, {u: x.text for u, x in units.items()}, "zh")
    s = Signals(units, {}, {"reg@1/a25": 10.0, "reg@1/a26": 9.0}, vecs, frozenset(), {}, phrase=phrase)
    q = np.array([1.0, 0.0])
    hits, _ = rerank(set(units), s, q, Weights(phrase=0.0), {}, False, {}, lambda uid: [])
    assert hits[0].unit_id == "reg@1/a25"              # the list, by the cosine and BM25
    hits, parts = rerank(set(units), s, q, Weights(), {}, False, {}, lambda uid: [])
    assert hits[0].unit_id == "reg@1/a26"              # the act restated, by the default weight
    assert parts["reg@1/a26"]["phrase"] == pytest.approx(Weights().phrase * phrase["reg@1/a26"])


def test_the_vihermes_weighting_has_no_phrase_part():
    """ViHERMES is 0.7 semantic + 0.3 proximity and nothing else."""
    assert Weights.vihermes().phrase == 0.0 and Weights().phrase > 0

"""Versions and years written in words (retrieve/version_words.py): read as the years they stand for."""
import datetime as dt
from types import SimpleNamespace

import pytest

from workbench.core.config import RetrievalConfig
from workbench.retrieve.version_words import ascii_years, spelled_versions


class Chains:
    """A catalog's version chains, oldest first (the only part the rewrite reads)."""
    def __init__(self, chains: dict[str, list[str]], names: dict[str, str]):
        self.chains = {k: [SimpleNamespace(version=v, effective_from=dt.date(int(v[:4]), 1, 1)) for v in vs]
                       for k, vs in chains.items()}
        self.names = names

    def chain(self, key):
        return self.chains.get(key, [])

    def names_of(self, keys):
        return [n for n, k in self.names.items() if k in keys]


PIG = Chains({"pig": ["1997", "2008", "2011", "2016", "2021"]}, {"生猪屠宰管理条例": "pig"})


def test_years_in_chinese_numerals_or_full_width_digits_are_read_as_digits():
    assert ascii_years("二〇一二年三月，某屠宰厂") == "2012年三月，某屠宰厂"
    assert ascii_years("二零二一年修订的条例") == "2021年修订的条例"
    assert ascii_years("２０１６年２月６日") == "2016年2月6日"
    assert ascii_years("第二十四条规定的三年期限") == "第二十四条规定的三年期限"      # no year: unchanged


@pytest.mark.parametrize("q, expected", [
    ("生猪屠宰管理条例第二次修订后，对注水怎么罚？", "生猪屠宰管理条例2011年修订后，对注水怎么罚？"),
    ("生猪屠宰管理条例第三次修订前后有什么变化？", "生猪屠宰管理条例2016年修订前后有什么变化？"),
    ("生猪屠宰管理条例最初版本对私屠滥宰怎么处罚？", "生猪屠宰管理条例1997年版对私屠滥宰怎么处罚？"),
    ("最初的《生猪屠宰管理条例》怎么规定？", "1997年版《生猪屠宰管理条例》怎么规定？"),
    ("最早的生猪屠宰管理条例怎么规定？", "1997年版生猪屠宰管理条例怎么规定？"),
    ("生猪屠宰管理条例首次公布时怎么规定？", "生猪屠宰管理条例1997年版怎么规定？"),
    # no such revision: five versions hold four revisions
    ("生猪屠宰管理条例第五次修订后怎么规定？", "生猪屠宰管理条例第五次修订后怎么规定？"),
    # a revision of the law, not a meeting; the original of a record, not of the law
    ("第一次股东会由谁召集？依照生猪屠宰管理条例", "第一次股东会由谁召集？依照生猪屠宰管理条例"),
    ("屠宰厂应当保存原始记录吗？依照生猪屠宰管理条例", "屠宰厂应当保存原始记录吗？依照生猪屠宰管理条例"),
    # a charter's revision, a rule of the slaughterhouse: not the law's (its name is not beside the words)
    ("公司章程第二次修订后，依照生猪屠宰管理条例是否备案？", "公司章程第二次修订后，依照生猪屠宰管理条例是否备案？"),
    ("屠宰厂最初的规定是什么？依照生猪屠宰管理条例", "屠宰厂最初的规定是什么？依照生猪屠宰管理条例"),
    ("第二次修订后的生猪屠宰管理条例怎么规定？", "2011年修订后的生猪屠宰管理条例怎么规定？"),
    ("2011年第二次修订的生猪屠宰管理条例怎么规定？", "2011年修订的生猪屠宰管理条例怎么规定？"),
    # two ordinals, one instrument: both are its revisions
    ("生猪屠宰管理条例第二次修订后与第三次修订后有何不同？", "生猪屠宰管理条例2011年修订后与2016年修订后有何不同？"),
    # when it was first published is asked, not a version; a draft; no 0th revision
    ("《生猪屠宰管理条例》首次公布的时间是哪一年？", "《生猪屠宰管理条例》首次公布的时间是哪一年？"),
    ("生猪屠宰管理条例第二次修订草案怎么写的？", "生猪屠宰管理条例第二次修订草案怎么写的？"),
    ("生猪屠宰管理条例第0次修订", "生猪屠宰管理条例第0次修订"),
])
def test_a_version_named_by_its_place_in_the_history_is_read_as_its_year(q, expected):
    assert spelled_versions(q, PIG, {"pig"}) == expected


@pytest.mark.parametrize("q, expected", [
    ("2008年5月25日修订的生猪屠宰管理条例怎么规定？", "2008年修订的生猪屠宰管理条例怎么规定？"),
    ("依照2021年6月25日修订后的《生猪屠宰管理条例》", "依照2021年修订后的《生猪屠宰管理条例》"),
    ("《生猪屠宰管理条例》2008年5月25日修订前怎么规定？", "《生猪屠宰管理条例》2008年修订前怎么规定？"),
    ("1997年12月19日发布的生猪屠宰管理条例怎么规定？", "1997年版生猪屠宰管理条例怎么规定？"),
    # a day the facts happened on, an order issued on a day: facts, not versions
    ("2019年6月15日，县政府发布命令，依照生猪屠宰管理条例怎么处理？", "2019年6月15日，县政府发布命令，依照生猪屠宰管理条例怎么处理？"),
    ("2020年3月1日修改了公司章程，依照生猪屠宰管理条例是否需要备案？", "2020年3月1日修改了公司章程，依照生猪屠宰管理条例是否需要备案？"),
    # another instrument whose title begins with the name: the county's implementing measures
    ("县政府2019年6月15日发布的生猪屠宰管理条例实施办法", "县政府2019年6月15日发布的生猪屠宰管理条例实施办法"),
])
def test_a_version_named_by_the_day_it_was_made_is_read_as_its_year(q, expected):
    """The day a version was revised or issued is not the day of the facts: "1997年12月19日发布的条例"
    (in force from 1998) is the 1997 version, and "2008年5月25日修订前" the one before 2008's."""
    assert spelled_versions(q, PIG, {"pig"}) == expected


def test_english_and_vietnamese_places_and_an_unread_history():
    act = Chains({"act": ["2012", "2018"]}, {"Clinic Licensing Act": "act"})
    assert spelled_versions("Under the original version of the Clinic Licensing Act, …", act, {"act"}) == \
        "Under the 2012 version of the Clinic Licensing Act, …"
    assert spelled_versions("Under the Clinic Licensing Act as originally made, …", act, {"act"}) == \
        "Under the Clinic Licensing Act in its 2012 version, …"
    assert spelled_versions("The Clinic Licensing Act, as originally made, required what?", act, {"act"}) == \
        "The Clinic Licensing Act in its 2012 version required what?"
    assert spelled_versions("What did the first amendment of the Clinic Licensing Act change?", act, {"act"}) == \
        "What did the 2018 amendment of the Clinic Licensing Act change?"
    assert spelled_versions("Clinic Licensing Act sửa đổi lần thứ nhất quy định gì?", act, {"act"}) == \
        "Clinic Licensing Act sửa đổi năm 2018 quy định gì?"
    # the instrument's name must stand beside the words: a record's original, a constitution's amendment
    for q in ("Keep the original version of the patient record under the Clinic Licensing Act.",
              "Does the First Amendment apply under the Clinic Licensing Act?",
              "bản gốc của giấy phép theo Clinic Licensing Act"):
        assert spelled_versions(q, act, {"act"}) == q
    # two instruments with different histories: which one's revision is meant is not said -- nothing is read
    two = Chains({"a": ["2012", "2018"], "b": ["2010", "2015"]}, {})
    assert spelled_versions("第一次修订后怎么规定？", two, {"a", "b"}) == "第一次修订后怎么规定？"
    assert spelled_versions("第一次修订后怎么规定？", two, set()) == "第一次修订后怎么规定？"


@pytest.mark.parametrize("q, doc", [
    ("《阿尔登共和国诊所许可法》最初版本规定的许可证有效期是多久？", "clinic-licensing-act-zh@2012"),
    ("After the first amendment of the Circular on the Equipment of Specialised Clinics, what equipment must a "
     "dental clinic have in each treatment room?", "equipment-circular@2017"),
    ("2012年3月1日发布的《阿尔登共和国诊所许可法》规定许可证有效期是多久？", "clinic-licensing-act-zh@2012"),
    ("二〇一五年三月，依照当时施行的《阿尔登共和国诊所许可法》，许可证有效期是多久？", "clinic-licensing-act-zh@2012"),
    ("Under the original version of the Clinic Licensing Act, how long was a licence valid?", "clinic-licensing-act@2012")])
def test_retrieval_reads_the_version_a_question_names_by_its_place(wb, q, doc):
    """End to end on the sample workspace: only the version so named is cited (without the rewrite, the
    version in force today would be: the Act of 2018, the Circular of 2022)."""
    r = wb.retrieve(q, RetrievalConfig(mode="graph"))
    assert r.cited and all(c.startswith(doc + "/") for c in r.cited), r.cited


def test_a_chinese_title_named_by_its_end(wb):
    """"诊所许可法" names 阿尔登共和国诊所许可法 (the country before it dropped); too short an end ("许可法")
    or one ending several titles names nothing."""
    catalog = wb.retriever.catalog
    assert catalog.named("依照诊所许可法，许可证有效期几年？") == {"clinic-licensing-act-zh"}
    assert catalog.named("按照修订前的诊所许可法，最高可以罚多少？") == {"clinic-licensing-act-zh"}
    assert catalog.named("许可法规定了什么？") == set()
    assert catalog.named("许可证有效期几年？") == set()
    r = wb.retrieve("按照修订前的诊所许可法，诊所许可证有效期是多久？", RetrievalConfig(mode="graph"))
    assert r.cited and all(c.startswith("clinic-licensing-act-zh@2012/") for c in r.cited), r.cited


def test_names_of_different_lengths_for_one_instrument():
    """A PRC law is held under its full title and without 中华人民共和国: both are found in a question that
    spells the full title, and every pattern built from them must still compile and match."""
    food = Chains({"food": ["2009", "2015", "2018"]}, {"中华人民共和国食品安全法": "food", "食品安全法": "food"})
    q = "依照《中华人民共和国食品安全法》2015年4月24日修订前的规定，应当建立什么制度？"
    assert spelled_versions(q, food, {"food"}) == "依照《中华人民共和国食品安全法》2015年修订前的规定，应当建立什么制度？"
    q = "中华人民共和国食品安全法第一次修订后，应当建立什么制度？"
    assert spelled_versions(q, food, {"food"}) == "中华人民共和国食品安全法2015年修订后，应当建立什么制度？"


def test_a_short_name_drops_only_a_country_or_region():
    """A title's end names it when what it drops is the issuing country or region; "环境保护法" is not
    海洋环境保护法 (a law of its own the workspace does not hold)."""
    from workbench.retrieve.catalog import Catalog
    docs = [SimpleNamespace(key=k, title=t, attr=lambda name: "") for k, t in
            (("sea", "中华人民共和国海洋环境保护法"), ("property", "上海市物业管理条例"))]
    catalog = Catalog(None, docs)
    assert catalog.named("根据环境保护法第六十条") == set()
    assert catalog.named("依照物业管理条例，业主大会如何召开？") == {"property"}
    assert catalog.named("依照海洋环境保护法") == {"sea"}



def test_a_year_holding_two_editions_names_the_last_of_them():
    """LawRefBook holds some instruments in editions days apart (民诉法解释 of 2022-04-01 and 2022-04-02, editions of
    one amendment): a question naming the year means the text that year left in force -- one version, so naming
    2022 and 2020 compares two versions, and naming 2022 alone is no comparison of two. Two years never
    collapse onto one version when each can have its own."""
    from workbench.core.records import Unit
    from workbench.retrieve.catalog import Catalog
    docs = [Unit(f"j@{v}", "j", v, "document", "", title="某解释", effective_from=dt.date.fromisoformat(v))
            for v in ("2020-12-29", "2022-04-01", "2022-04-02")]
    catalog = Catalog(None, docs)
    assert catalog.versions_in((2022,), {"j"}) == {"j@2022-04-02"}
    assert catalog.versions_in((2020, 2022), set()) == {"j@2020-12-29", "j@2022-04-02"}
    docs[1] = Unit("j@2022-04-01", "j", "2022-04-01", "document", "", title="某解释", effective_from=dt.date(2022, 4, 10),
                   effective_to=dt.date(2022, 4, 10))       # in force for no day: replaced the day it took effect
    docs[2] = Unit("j@2022-04-02", "j", "2022-04-02", "document", "", title="某解释", effective_from=dt.date(2022, 4, 10))
    assert Catalog(None, docs).previous({"j@2022-04-02"}) == {"j@2020-12-29"}    # "2022年修正前": the 2020 text
    late = [Unit("k@2020-03-01", "k", "2020-03-01", "document", "", title="某条例", effective_from=dt.date(2020, 3, 1)),
            Unit("k@2020-12-26", "k", "2020-12-26", "document", "", title="某条例", effective_from=dt.date(2021, 3, 1))]
    both = Catalog(None, late)      # the second made in 2020, in force from 2021
    assert both.versions_in((2020, 2021), {"k"}) == {"k@2020-03-01", "k@2020-12-26"}
    assert both.versions_in((2021,), {"k"}) == {"k@2020-12-26"} and both.versions_in((2020,), {"k"}) == {"k@2020-03-01"}


@pytest.mark.parametrize("q,now", [("2020年版民诉法解释和现在的版本规定有什么不一样？", True),
                                   ("和目前有效的规定相比有何不同？", True), ("最新版本的条例怎么规定的？", True),
                                   ("现行《反垄断法》如何规定？", True), ("我现在想开一家店，需要什么许可？", False),
                                   ("目前的情况下能否申请？", False), ("我现在的法律地位如何？", False),
                                   ("公司目前的办法是先停产，可以吗？", False), ("目前的解决方法是什么？", False),
                                   ("这一原则体现在的规定有哪些？", False), ("表现在的规定里有哪些？", False)])
def test_the_version_in_force_now_named_by_a_word_for_now(q, now):
    from workbench.retrieve.route import classify
    assert classify(q).current is now


@pytest.mark.parametrize("q,before", [("修改以前的办法怎么规定？", True), ("《土地管理法》修正以前，罚款是多少？", True),
                                      ("条例最近一次修订以前是怎么规定的？", True),
                                      ("控制性详细规划修改以前要组织论证吗？", False), ("设计方案修改以前已经开工的，怎么处罚？", False),
                                      ("之前我问过这个问题，罚款是多少？", False), ("根据《著作权法》，老版本的软件还受保护吗？", False)])
def test_the_version_before_named_with_yiqian_as_with_zhiqian(q, before):
    """"以前" reads as "之前" wherever a law's revision is named ("修改以前的办法", "《土地管理法》修正以前"); a plan's or a
    design's revision is none, nor an old version of a product."""
    from workbench.retrieve.route import classify
    assert classify(q).previous is before

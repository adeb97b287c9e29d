"""Instruments named by a shortened title, articles of instruments the workspace does not hold, and
years written before such names (retrieve/names.py, retrieve/plan.py)."""
from workbench.retrieve.names import abbreviated, outside_articles
from workbench.retrieve.route import article_matches

NAMES = [("最高人民法院关于适用《刑事诉讼法》的解释", "xs"),
         ("最高人民法院关于审理非法集资刑事案件具体应用法律若干问题的解释", "jz"),
         ("最高人民法院、最高人民检察院关于办理危害食品安全刑事案件适用法律若干问题的解释", "sp"),
         ("中华人民共和国海洋环境保护法", "hy"), ("海洋环境保护法", "hy"), ("保守国家秘密法实施条例", "bm")]


def test_shortened_titles_name_one_instrument():
    assert abbreviated("按《刑诉法解释》，法院会怎么处理", NAMES) == {"xs"}          # characters kept in order
    assert abbreviated("按现行非法集资司法解释，他构成什么", NAMES) == {"jz"}        # 司法解释 is a 解释
    assert abbreviated("按当时施行的食品安全犯罪司法解释", NAMES) == {"sp"}          # a run of the title
    assert abbreviated("按保密法实施条例会怎么处理", NAMES) == {"bm"}
    # two characters name a law when they begin its own words, as the usual shortening keeps them
    laws = [("中华人民共和国民事诉讼法", "msf"), ("中华人民共和国个人信息保护法", "gb"), ("中华人民共和国海洋环境保护法", "hy")]
    assert abbreviated("按民诉法第十条", laws) == {"msf"} and abbreviated("个保法怎么规定", laws) == {"gb"}
    assert abbreviated("环保法", laws) == set()           # 环境保护法 is not 海洋环境保护法
    # a qualifier after the kind ("（试行）") does not hide it
    assert abbreviated("按《网络交易监督办法》", [("网络交易监督管理办法（试行）", "wj")]) == {"wj"}


def test_no_instrument_from_words_that_name_none():
    # a title's tail is the catalog's to read (环境保护法 is another law than 海洋环境保护法), and the kind word
    # after a version, a determiner or a verb names nothing
    for q in ("依环境保护法", "按现行规定", "违反了哪些规定", "该解释第三条", "依当时的规定", "刑法第十条"):
        assert abbreviated(q, NAMES) == set(), q


def test_articles_of_an_instrument_the_workspace_does_not_hold():
    named = lambda text: {"hy"} if "海洋环境保护法" in text else set()   # noqa: E731
    out = lambda q: outside_articles(q, article_matches(q), named)    # noqa: E731
    assert out("公私财产损失达到多少，才算刑法第三百三十九条第一款说的重大损失") == {(339, "339")}
    assert out("能不能认定为《刑法》第338条的有毒物质") == {(338, "338")}
    for q in ("本解释第三条", "2019年条例第十一条", "海洋环境保护法第十条", "依照条例第十条", "第十条"):
        assert out(q) == set(), q
    assert out("根据刑法第十条和本法第十条") == set()       # the number read in the workspace's instrument too


def test_years_written_before_a_name_are_versions():
    from workbench.retrieve.plan import years_before_names

    class Names:                                   # the catalog's names, for the logic alone
        names = NAMES + [("中华人民共和国食品安全法", "fs"), ("食品安全法", "fs")]
    q = "2010年的非法集资解释里这一条，2022年新解释还保留吗？2019年公司违反规定的，按规定处理"
    assert years_before_names(q, Names()) == {"2010", "2022"}
    assert years_before_names("2018年版食品安全法和2015年食品安全法", Names()) == {"2015"}     # 2018年版: version_years
    # a year of the facts before a name further on is no version
    assert years_before_names("张某2015年开办餐馆违反食品安全法，2018年又违反食品安全法，应如何处罚？", Names()) == set()


def test_review_cases_of_names_and_articles():
    held = NAMES + [("中华人民共和国刑事诉讼法", "xsf"), ("中华人民共和国民事诉讼法", "msf"),
                    ("全国人民代表大会常务委员会关于修改《中华人民共和国行政处罚法》的决定", "amd"),
                    ("最高人民法院关于审理民间借贷案件适用法律若干问题的规定", "jd")]
    # the state's name before a law is no part of a shortened title (刑法 is not 刑事诉讼法)
    assert abbreviated("中华人民共和国刑法第十条", held) == set()
    # common nouns of a kind, and an issuer's name, name nothing
    assert abbreviated("行政机关作出行政处罚决定前应当告知哪些事项？", held) == set()
    assert abbreviated("最高人民法院对非法集资是怎么规定的？", held) == set()
    nobody = lambda text: set()      # noqa: E731
    titles = [n for n, _ in held] + ["中华人民共和国刑法"]
    out = lambda q: outside_articles(q, article_matches(q), nobody, titles)      # noqa: E731
    assert out("刑法第二百六十四条规定的盗窃罪") == set()                     # 刑法 held: looked up
    assert out("按民诉法第一百一十四条") == set()                             # a held law shortened
    for q in ("该司法解释第五条", "这一解释第五条", "这个办法第十条", "本司法解释第五条"):
        assert out(q) == set(), q
    assert outside_articles("才算刑法第三百三十九条", article_matches("才算刑法第三百三十九条"), nobody,
                            [n for n, _ in NAMES]) == {(339, "339")}

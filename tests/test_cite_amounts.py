"""The amount of a fine a law leaves open, read in the provision that sets it (retrieve/citing.py
`amount_set_by`, `AMOUNT`): pure logic over fake units."""
from workbench.core.records import Hit, Unit
from workbench.retrieve.citing import Citing


def test_a_fine_left_open_by_a_law_is_cited_with_the_regulation_setting_it():
    """"…责令交还土地，处以罚款" states no amount: the implementing regulation's article citing it and setting
    one ("依照《土地管理法》第八十一条的规定处以罚款的，罚款额为…") is read with it -- a share of gains is an
    amount too; a rule citing the article, or a sanction stating its own amount, brings nothing."""
    from types import SimpleNamespace
    from workbench.retrieve.citing import amount_set_by, refs
    from workbench.retrieve.scope import Scope
    texts = {"law@1/a81": "不按照批准的用途使用国有土地的，由自然资源主管部门责令交还土地，处以罚款。",
             "law@1/a82": "擅自出租集体土地的，责令限期改正，没收违法所得，并处罚款。",
             "law@1/a40": "违反本法第八十一条规定的，处五万元罚款。",
             "reg@1/a59": "依照《土地管理法》第八十一条的规定处以罚款的，罚款额为非法占用土地每平方米100元以上500元以下。",
             "reg@1/a60": "依照《土地管理法》第八十二条的规定处以罚款的，罚款额为违法所得的10%以上30%以下。",
             "reg@1/a12": "依照《土地管理法》第八十一条的规定，有关部门应当公告。",
             "law@1/a77": "非法占用土地的，由自然资源主管部门责令退还，可以并处罚款。",
             "reg@1/a57": "依照《土地管理法》第七十七条的规定处以罚款的，罚款额为非法占用土地每平方米100元以上1000元以下。\n"
                          "违反本条例规定，在临时用地上修建永久性建筑物的，责令限期拆除。",
             "reg@1/a57/c1": "依照《土地管理法》第七十七条的规定处以罚款的，罚款额为非法占用土地每平方米100元以上1000元以下。",
             "reg@1/a57/c2": "违反本条例规定，在临时用地上修建永久性建筑物的，责令限期拆除。",
             "reg@1/a70": "违反《土地管理法》第七十七条规定的，依照该条的规定处五万元罚款。",
             "reg@1/a80": "超过规划条件10%的，依照《土地管理法》第七十七条的规定处以罚款。",
             "reg@1/a90": "在非法占用的土地上建窑的，处非法占用土地每平方米50元罚款。"}

    class Store:
        def get(self, ids, vectors=False):
            return [Unit(i, i.split("@")[0], "1", "article", text=texts[i], language="zh") for i in ids if i in texts]
    index = {"reg@1/a59": [("reg@1/a59", "law@1/a81")], "reg@1/a60": [("reg@1/a60", "law@1/a82")],
             "reg@1/a12": [("reg@1/a12", "law@1/a81")], "law@1/a40": [("law@1/a40", "law@1/a81")],
             "reg@1/a57": [("reg@1/a57/c1", "law@1/a77")], "reg@1/a70": [("reg@1/a70", "law@1/a77")],
             "reg@1/a80": [("reg@1/a80", "law@1/a77")], "reg@1/a90": [("reg@1/a90", "law@1/a77")]}
    cited_by = {}
    for source, cited in index.items():
        for _, target in cited:
            cited_by.setdefault(target, []).append(source)
    r = SimpleNamespace(store=Store(), ref_index=lambda: index, cited_by=lambda: cited_by)
    policy = SimpleNamespace(cite_refs=0.9)
    hit = Hit("law@1/a81", 1.0, "bm25", None)
    c = Citing(r, [hit], policy, None, Scope(("article",)), None, {"law@1/a81": 1.0}, {}, {}, {})
    assert amount_set_by(c, "law@1/a81") == ["reg@1/a59"]          # not the rule a12, nor a40 (a fine for breaking it)
    # read clause by clause: the citing clause of a57 sets the amount (its second clause breaks another rule);
    # not a70 (a penalty for breaking a77), nor a80 (a share of a planning condition is no amount), nor a90
    # (a fine of its own that applies no article's penalty)
    assert amount_set_by(c, "law@1/a77") == ["reg@1/a57"]
    assert amount_set_by(c, "law@1/a82") == ["reg@1/a60"]
    assert amount_set_by(c, "law@1/a40") == []                       # states its amount
    assert refs(c, "law@1/a81", sanction=True) == ["reg@1/a59"] and refs(c, "law@1/a81") == []

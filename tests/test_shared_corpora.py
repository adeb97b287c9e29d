"""Parsing the real corpora in ../shared: article counts match the official texts."""
from collections import Counter

import pytest

from workbench.parse.detect import load_corpus

from conftest import shared_corpus

pytestmark = pytest.mark.shared

OFFICIAL = {  # (corpus, key@version): articles in the official text
    ("zh-food-safety", "food-hygiene-law@1995"): 57,
    ("zh-food-safety", "food-safety-law@2009"): 104,
    ("zh-food-safety", "food-safety-law@2015"): 154,
    ("zh-pig-slaughter", "pig-slaughter-regulation@1997"): 24,
    ("zh-pig-slaughter", "pig-slaughter-regulation@2008"): 36,
    ("zh-pig-slaughter", "pig-slaughter-regulation@2021"): 45,
    ("zh-planning", "chengxiang-guihua-fa@2019"): 70,
    ("zh-planning", "cehui-fa@2017"): 68,
    ("zh-planning", "tudi-guanli-fa@2019"): 87,
    ("zh-animal-quarantine", "animal-quarantine-measures@2002"): 28,
    ("zh-animal-quarantine", "animal-quarantine-measures@2010"): 53,
}


def articles(corpus):
    parsed = load_corpus(shared_corpus(corpus))
    return parsed, Counter(u.id.split("/")[0] for u in parsed.result.units if u.kind == "article")


@pytest.mark.parametrize("corpus", sorted({c for c, _ in OFFICIAL}))
def test_article_counts_match_official_texts(corpus):
    parsed, counts = articles(corpus)
    for (c, doc), expected in OFFICIAL.items():
        if c == corpus:
            assert counts[doc] == expected, doc
    assert not [p for p in parsed.result.problems if p.severity == "error"]


def test_versions_are_dated_and_chained():
    parsed, _ = articles("zh-food-safety")
    docs = {d.doc_id: d for d in parsed.documents}
    assert str(docs["food-hygiene-law@1995"].effective_to) == "2009-06-01"    # replaced by the 2009 law
    assert str(docs["food-safety-law@2009"].effective_to) == "2015-10-01"
    assert docs["food-safety-law@2015"].effective_to is None


def test_lawrefbook_folder_parses_every_file():
    parsed, counts = articles("zh-lawrefbook")
    assert len(parsed.documents) == 184
    criminal = [d for d in parsed.documents if d.key == "刑法"]
    assert len(criminal) == 1 and 450 <= counts[criminal[0].doc_id] <= 520
    amendment = next(d for d in parsed.documents if d.key == "刑法修正案（七）")
    assert amendment.amends == ("刑法",) and amendment.kind == "amendment"
    assert not [p for p in parsed.result.problems if p.severity == "error"]

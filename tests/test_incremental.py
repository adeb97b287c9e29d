"""Adding a corpus relinks only what it can change, with the same edges as a full relink, and
folds its rows into the existing indexes instead of rebuilding them."""
from __future__ import annotations

import shutil
import tomllib

import numpy as np
import pytest

from conftest import SAMPLE
from workbench.core.config import Config, IngestConfig
from workbench.workbench import Workbench


def _split(tmp_path):
    """The sample corpus as two corpora: "acts" (the Act in two versions, the Regulation it
    replaces) and "rules" (the Decree and circulars made under the Act, which cite it)."""
    manifest = tomllib.loads((SAMPLE / "corpus.toml").read_text(encoding="utf-8"))
    acts = {"clinic-licensing-act", "hospital-registration-regulation"}
    out = {}
    for name, keep in (("acts", lambda d: d["key"] in acts), ("rules", lambda d: d["key"] not in acts)):
        folder = tmp_path / name
        folder.mkdir()
        docs = [d for d in manifest["documents"] if keep(d)]
        lines = [f'name = "{name}"', f'language = "{manifest["language"]}"']
        for d in docs:
            shutil.copy(SAMPLE / d["file"], folder / d["file"])
            lines.append("\n[[documents]]")
            for k, v in d.items():
                lines.append(f"{k} = {v.isoformat() if hasattr(v, 'isoformat') else repr(v).replace(chr(39), chr(34))}")
        (folder / "corpus.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
        out[name] = folder
    return out


def _links(wb):
    return sorted((e.source, e.target, e.type.value, e.resolved) for e in wb.graph.all_edges()
                  if e.extractor not in ("structure", "version-align", "version-part"))


@pytest.fixture(scope="module")
def pair(tmp_path_factory, e5):
    corpora = _split(tmp_path_factory.mktemp("corpora"))
    cache = tmp_path_factory.mktemp("cache")
    wb = Workbench.open(tmp_path_factory.mktemp("ws"), Config(IngestConfig(progress=False, cache_dir=str(cache))))
    wb.ingest(corpora["rules"])                    # cites an Act the workspace does not hold yet
    placeholders = [e for e in wb.graph.all_edges() if not e.resolved]
    wb.ingest(corpora["acts"])
    return wb, corpora, placeholders


def test_a_later_corpus_resolves_the_earlier_ones_placeholders_as_a_full_relink_would(pair):
    wb, corpora, placeholders = pair
    assert any("clinic" in e.target for e in placeholders)            # the Act was missing
    incremental = _links(wb)
    assert any(s.startswith("clinic-licensing-decree@") and t.startswith("clinic-licensing-act@") and ok
               for s, t, _, ok in incremental)
    wb.relink()                                                         # every corpus, every id
    assert _links(wb) == incremental


def test_only_the_corpora_a_new_corpus_can_change_are_resolved_again(pair, monkeypatch):
    from workbench.link import relink as rl
    wb, corpora, _ = pair
    seen = []
    real = rl.resolve_citations
    monkeypatch.setattr(rl, "resolve_citations", lambda c, s, r: seen.append(len(r.ids)) or real(c, s, r))
    problems = wb.relink("acts")
    assert set(problems) == {"acts", "rules", "graph"}                   # rules cite the Act
    assert max(seen) < wb.store.count()                                 # never against every id
    seen.clear()
    assert set(wb.relink("rules")) == {"rules", "graph"}                 # nothing cites the rules


@pytest.mark.parametrize("share,fold_rows,rebuilt", [(1.0, 0, False), (0.0, 0, True), (1.0, 10**6, False)])
def test_new_rows_are_folded_into_the_indexes_until_they_are_a_large_share(pair, monkeypatch, share, fold_rows,
                                                                            rebuilt):
    """Rebuilt past REBUILD_SHARE; else folded into the full-text and scalar indexes, or left
    outside them (a flat scan) while they are few (FOLD_ROWS here, FOLD_SHARE set wide open)."""
    from workbench.store import lance
    wb, corpora, _ = pair
    monkeypatch.setattr(lance, "ANN_MIN", 10)           # the sample is smaller than the ANN threshold
    wb.store.reindex()                                  # both indexes in place
    monkeypatch.setattr(lance, "REBUILD_SHARE", share)
    monkeypatch.setattr(lance, "FOLD_ROWS", fold_rows)
    monkeypatch.setattr(lance, "FOLD_SHARE", 1.0)
    left = fold_rows > 0                                # a backlog small enough to stay outside
    built = []
    cls = type(wb.store.table)
    real = cls.create_index
    monkeypatch.setattr(cls, "create_index", lambda self, *a, **k: built.append(a[0]) or real(self, *a, **k))
    wb.ingest(corpora["rules"])                         # re-ingest: the corpus's rows deleted and added
    assert bool(built) == rebuilt, built
    indexes = {i.index_type: i.name for i in wb.store.table.list_indices()}
    for name in (indexes["FTS"], "id_idx", "kind_idx", "effective_to_idx"):     # folded, rebuilt, or left
        assert (wb.store.table.index_stats(name).num_unindexed_rows > 0) == left, name
    vector = wb.store.table.index_stats(indexes["IvfHnswSq"])
    assert (vector.num_unindexed_rows > 0) != rebuilt       # folding leaves the vector index as it was
    assert any(h.unit_id.startswith("clinic-licensing-decree@") for h in wb.search("patient records decree", "bm25", k=5))
    assert wb.store.get(["clinic-licensing-decree@2013"])[0].kind == "document"     # id filter over the backlog
    decrees = wb.store.where(lance.Filter(kinds=("article",), keys=("clinic-licensing-decree",)))
    assert decrees and all(u.key == "clinic-licensing-decree" for u in decrees)
    decree = wb.store.table.search().where("embedded = true AND starts_with(id, 'clinic-licensing-decree@')") \
        .select(["id", "vector"]).limit(1).to_list()[0]
    uid, vec = decree["id"], np.asarray(decree["vector"], dtype=np.float32)
    assert wb.store.search_vector(vec, 1)[0].unit_id == uid       # a row outside the vector index is found


def test_a_reingest_that_drops_an_instrument_relinks_the_corpora_citing_it(tmp_path, e5):
    (tmp_path / "c").mkdir()
    corpora = _split(tmp_path / "c")
    wb = Workbench.open(tmp_path / "ws", Config(IngestConfig(progress=False)))
    wb.ingest(corpora["acts"])
    wb.ingest(corpora["rules"])
    toml = corpora["acts"] / "corpus.toml"
    kept = toml.read_text(encoding="utf-8").split("\n[[documents]]")
    toml.write_text("\n[[documents]]".join(b for b in kept if 'key = "clinic-licensing-act"' in b or "name =" in b),
                    encoding="utf-8")
    wb.ingest(corpora["acts"])                                   # the Regulation is gone
    incremental = _links(wb)
    wb.relink()
    assert _links(wb) == incremental


def test_an_ingest_reads_only_the_documents_it_touches(pair, monkeypatch):
    """Relinking after an ingest looks documents up by name and key; it never reads them all."""
    from workbench.core.records import DOCUMENTS
    wb, corpora, _ = pair
    assert wb.store.catalogued
    filters = []
    real = type(wb.store).where
    monkeypatch.setattr(type(wb.store), "where", lambda self, f, limit=None: filters.append(f) or real(self, f, limit))
    wb.ingest(corpora["rules"])
    assert filters and DOCUMENTS not in filters
    assert any(f.any_of and f.any_of[0].names for f in filters)          # the Act found by the name cited
    incremental = _links(wb)
    wb.relink()
    assert _links(wb) == incremental


def test_a_workspace_without_the_names_columns_reads_every_document(tmp_path, e5, monkeypatch):
    """A workspace made before the names columns: ingests still relink as a full relink would."""
    from workbench.core.records import DOCUMENTS
    (tmp_path / "c").mkdir()
    corpora = _split(tmp_path / "c")
    wb = Workbench.open(tmp_path / "ws", Config(IngestConfig(progress=False)))
    wb.ingest(corpora["rules"])
    wb.store.table.drop_columns(["names", "read_with"])
    wb = Workbench.open(tmp_path / "ws", Config(IngestConfig(progress=False)))
    assert not wb.store.catalogued
    filters = []
    real = type(wb.store).where
    monkeypatch.setattr(type(wb.store), "where", lambda self, f, limit=None: filters.append(f) or real(self, f, limit))
    wb.ingest(corpora["acts"])
    assert DOCUMENTS in filters
    incremental = _links(wb)
    assert any(t.startswith("clinic-licensing-act@") and ok for _, t, _, ok in incremental)
    wb.relink()
    assert _links(wb) == incremental
    wb.reextract()                      # `workbench relink`: the columns added and filled
    assert wb.store.catalogued and wb.store.refresh_names() == 0
    filters.clear()
    wb.ingest(corpora["rules"])
    assert filters and DOCUMENTS not in filters
    again = _links(wb)
    wb.relink()
    assert _links(wb) == again == incremental


def test_a_corpus_citing_only_itself_is_relinked(tmp_path, e5):
    """Citations that name no other instrument: the lookup by name has nothing to look up."""
    folder = tmp_path / "alone"
    folder.mkdir()
    shutil.copy(SAMPLE / "hospital-registration-regulation-2005.txt", folder)
    manifest = tomllib.loads((SAMPLE / "corpus.toml").read_text(encoding="utf-8"))
    doc = next(d for d in manifest["documents"] if d["file"] == "hospital-registration-regulation-2005.txt")
    lines = ['name = "alone"', f'language = "{manifest["language"]}"', "\n[[documents]]"]
    lines += [f"{k} = {v.isoformat() if hasattr(v, 'isoformat') else repr(v).replace(chr(39), chr(34))}"
              for k, v in doc.items()]
    (folder / "corpus.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    wb = Workbench.open(tmp_path / "ws", Config(IngestConfig(progress=False)))
    assert wb.store.catalogued
    wb.ingest(folder)
    incremental = _links(wb)
    assert incremental and all(t.startswith("hospital-registration-regulation@") for _, t, _, _ in incremental)
    wb.relink()
    assert _links(wb) == incremental


def test_a_sub_filter_that_sets_nothing_lets_every_row_through():
    from workbench.core.records import Filter
    from workbench.store.filters import sql
    assert sql(Filter(kinds=("document",), any_of=(Filter(), Filter(keys=("a",))))) == "(kind IN ('document'))"
    assert "array_has_any(names, ['x'])" in sql(Filter(any_of=(Filter(names=("x",)), Filter(keys=("a",)))))

"""Ingest into a real LanceDB + igraph workspace with the real multilingual e5 model."""
import json

import pytest

from workbench.cli import main
from workbench.core.config import Config, IngestConfig
from workbench.workbench import Workbench

from conftest import SAMPLE


@pytest.fixture(scope="module")
def ws(tmp_path_factory):
    path = tmp_path_factory.mktemp("ws")
    wb = Workbench.open(path, Config(IngestConfig(progress=False)))
    first = [wb.ingest(SAMPLE), wb.ingest(SAMPLE / "zh")]
    return wb, first


def snapshot(wb):
    info = wb.info()
    return info["instruments"], info["edges_by_type"], wb.store.count()


def test_ingest_stores_units_vectors_and_edges(ws):
    wb, (en, zh) = ws
    assert en.embedded > 0 and zh.embedded > 0
    assert not [p for p in en.problems + zh.problems if p.severity == "error"]
    info = wb.info()
    assert set(info["corpora"]) == {"sample", "sample-zh"}       # a second corpus adds, never replaces
    versions = {(i["key"], i["version"]) for i in info["instruments"]}
    assert ("clinic-licensing-act", "2012") in versions and ("clinic-licensing-act-zh", "2018") in versions
    assert info["edges_by_type"]["CONTAINS"] == wb.store.count() - len(versions)
    unit = wb.store.get(["clinic-licensing-act@2018/a1"])[0]
    assert unit.article_no == 1 and str(unit.effective_from) == "2019-01-01"
    assert str(wb.store.get(["clinic-licensing-act@2012/a1"])[0].effective_to) == "2019-01-01"


def test_reingest_changes_nothing_and_embeds_nothing(ws):
    wb, _ = ws
    before = snapshot(wb)
    again = wb.ingest(SAMPLE)
    assert again.embedded_new == 0 and again.embedded > 0
    assert snapshot(wb) == before
    reopened = Workbench.open(wb.path, Config(IngestConfig(progress=False)))
    assert snapshot(reopened) == before


def test_lexical_and_dense_search_find_the_right_units(ws):
    wb, _ = ws
    lexical = [h.unit_id for h in wb.search("patient records", "bm25", 10)]
    assert any(i.startswith("clinic-licensing-act@") and "/a10" in i for i in lexical), lexical
    dense = wb.search("诊所执业许可证的有效期", "dense", 5)
    assert dense and all(h.unit.kind in ("article", "document", "passage") for h in dense)
    assert any(h.unit.language == "zh" for h in dense)
    assert dense[0].score >= dense[-1].score


def test_cli_info_json_and_search(ws, capsys):
    wb, _ = ws
    assert main(["info", "--workspace", str(wb.path), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    inst = next(i for i in info["instruments"] if i["key"] == "clinic-licensing-act" and i["version"] == "2018")
    assert inst["units_by_kind"]["article"] >= 8 and info["edges_by_type"]["CONTAINS"] > 0
    assert main(["search", "licence validity", "--workspace", str(wb.path), "-k", "3", "--kind", "article"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 3 and all("/a" in line for line in lines)


def test_cli_reports_a_bad_corpus_and_ingests_the_next(ws, tmp_path, capsys):
    wb, _ = ws
    (tmp_path / "junk").mkdir()
    code = main(["ingest", str(tmp_path / "junk"), str(SAMPLE / "zh"), "--workspace", str(wb.path)])
    out = capsys.readouterr()
    assert code == 2 and "corpus.toml" in out.err and "sample-zh:" in out.out


def test_other_embedder_on_same_workspace_is_refused(ws):
    wb, _ = ws
    with pytest.raises(Exception, match="built with the embedder"):
        Workbench.open(wb.path, Config(IngestConfig(embedder="st:minilm")))


def test_sentence_transformers_embedder_is_real_and_normalised():
    from workbench.store.embedders import make_embedder
    e = make_embedder("st:minilm")
    v = e.embed_passages(["Clinics must keep patient records.", "Fines for late filing."])
    q = e.embed_queries(["patient records"])[0]
    assert v.shape == (2, e.dim) == (2, 384)
    assert abs(float((v[0] ** 2).sum()) - 1) < 1e-4 and q @ v[0] > q @ v[1]


def test_cli_versions_time_and_terms(ws, capsys):
    wb, _ = ws
    w = ["--workspace", str(wb.path)]
    assert main(["in-force", "clinic-licensing-act", "2018-12-15", *w]) == 0    # adopted, not yet in force
    assert capsys.readouterr().out.startswith("clinic-licensing-act@2012 ")
    assert main(["in-force", "clinic-licensing-act", "2011-01-01", *w]) == 1
    capsys.readouterr()
    assert main(["history", "clinic-licensing-act@2018/a8", *w]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("clinic-licensing-act@2012/a8") and "amended" in lines[1] and "five" in lines[1]
    assert main(["define", "licence", *w]) == 0
    assert "/a3/c1/pd" in capsys.readouterr().out
    assert main(["info", *w]) == 0
    assert "unresolved references:" in capsys.readouterr().out


def test_relink_reextracts_without_changing_a_current_graph(ws, capsys):
    wb, _ = ws
    before = wb.graph.counts()
    assert main(["relink", "--workspace", str(wb.path)]) == 0
    assert "edges:" in capsys.readouterr().out
    assert Workbench.open(wb.path, Config(IngestConfig(progress=False))).graph.counts() == before


def test_relink_aligns_versions_again(ws, tmp_path):
    """Version alignment is read by rule too (what an amendment changed, link/substance.py):
    `workbench relink` aligns the versions again from the stored units and vectors, so a workspace
    whose version edges are gone (or were made by older rules) gets them back as ingest made them."""
    import shutil
    from collections import Counter
    copy = tmp_path / "ws"
    shutil.copytree(ws[0].path, copy)
    config = Config(IngestConfig(progress=False))
    wb = Workbench.open(copy, config, create=False)
    versions = lambda g: Counter(e for e in g.all_edges()                        # noqa: E731
                                 if e.type.name in ("AMENDS", "INHERITS") and "/" in e.source)   # between articles
    before = versions(wb.graph)
    assert before
    for corpus in {row["corpus"] for row in wb.store.counts()}:
        wb.graph.replace_corpus(corpus, [], "versions")
    wb.graph.save()
    assert not versions(Workbench.open(copy, config, create=False).graph)
    assert main(["relink", "--workspace", str(copy)]) == 0
    assert versions(Workbench.open(copy, config, create=False).graph) == before


def test_vector_index_built_for_large_tables_and_finds_nearest(tmp_path, monkeypatch):
    """Past ANN_MIN embedded rows the store searches through an IVF-HNSW index; the nearest
    neighbour of a stored vector is still that vector, and filters still apply."""
    import numpy as np
    from workbench.core.records import Unit
    from workbench.store import lance
    monkeypatch.setattr(lance, "ANN_MIN", 600)
    store = lance.LanceUnitStore(tmp_path / "lance", 32)
    rng = np.random.default_rng(0)
    vecs = rng.normal(size=(800, 32)).astype(np.float32)
    units = [Unit(f"k@1/a{i}", "k", "1", "article" if i % 2 else "clause", text=f"unit {i}", corpus="c")
             for i in range(800)]
    store.replace_corpus("c", units[:500], vecs[:500], [True] * 500)
    assert "IvfHnswSq" not in [i.index_type for i in store.table.list_indices()]     # below the threshold
    assert not store.has_vector_index()
    store.replace_corpus("c", units, vecs, [True] * 800)
    assert "IvfHnswSq" in [i.index_type for i in store.table.list_indices()]
    assert store.has_vector_index()
    hits = store.search_vector(vecs[401], 5)
    assert hits[0].unit_id == "k@1/a401" and hits[0].score > 0.99
    assert all(h.unit.kind == "clause" for h in store.search_vector(vecs[401], 5, "kind = 'clause'"))


def test_two_writers_take_turns_and_readers_always_see_a_committed_state(tmp_path):
    """A short run of benchmarks/concurrency.py: two processes re-ingesting different corpora
    (--wait) while two readers query; the end state equals a sequential ingest."""
    import importlib.util
    from pathlib import Path
    path = Path(__file__).parents[1] / "benchmarks" / "concurrency.py"
    spec = importlib.util.spec_from_file_location("concurrency", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    got = mod.run(tmp_path / "work", rounds=2, readers=2)
    assert got["writer_exit_codes"] == ["0,0", "0,0"]
    assert got["reader_errors"] == [] and got["inconsistent_reads"] == []
    assert got["queries"] > 0 and got["equal_to_sequential"], got["final"]


def test_a_crashed_write_is_rolled_back_and_readers_see_the_last_commit(ws, tmp_path):
    """What a kill -9 between the unit and graph writes leaves (a journal, new units, the
    old graph file kept): a reader sees the last committed state, `info` says so, and the
    next writer rolls it back."""
    import shutil
    from workbench.store.graph import FILES
    from workbench.store.journal import transaction
    copy = tmp_path / "ws"
    shutil.copytree(ws[0].path, copy)
    wb = Workbench.open(copy, Config(IngestConfig(progress=False)), create=False)
    units, edges = wb.store.count(), wb.graph.g.ecount()
    gen = transaction(copy, {"units": wb.store.table, "terms": wb.terms.table}, [*FILES, "workspace.json"],
                      "ingest of sample")
    gen.__enter__()                                  # ... and the process dies inside
    wb.store.table.delete("kind = 'point'")
    wb.graph.g.delete_edges(list(range(10)))
    wb.graph.save()
    reader = Workbench.open(copy, Config(IngestConfig(progress=False)), create=False)
    assert reader.store.count() == units and reader.graph.g.ecount() == edges
    assert "unfinished ingest of sample" in reader.info()["pending"]
    writer = Workbench.open(copy, Config(IngestConfig(progress=False)), create=False)
    assert "rolled back an unfinished ingest of sample" in writer._begin()
    assert writer.store.count() == units and writer.graph.g.ecount() == edges and writer.info()["pending"] is None
    assert not (copy / "journal.json").exists()


def test_a_workspace_with_a_pickled_graph_opens_and_is_migrated_by_the_next_write(ws, tmp_path):
    """Workspaces written before the Parquet graph have graph.pickle: read as it is (also by
    the server's reload stamp), replaced by the node and edge tables on the next write."""
    import shutil
    from collections import Counter
    from workbench.api.state import Shared
    from workbench.store.graph_files import EDGES, LEGACY, NODES
    copy = tmp_path / "ws"
    shutil.copytree(ws[0].path, copy)
    config = Config(IngestConfig(progress=False))
    original = Workbench.open(copy, config, create=False).graph
    original.g.write_pickle(str(copy / LEGACY))
    (copy / NODES).unlink()
    (copy / EDGES).unlink()
    server = Shared(copy, config)
    old = server.current().graph
    assert Counter(old.all_edges()) == Counter(original.all_edges()) and old.counts() == original.counts()
    stamp = server.stamp()
    Workbench.open(copy, config, create=False).reextract()          # `workbench relink`
    assert (copy / NODES).is_file() and (copy / EDGES).is_file() and not (copy / LEGACY).exists()
    assert server.stamp() != stamp and server.current().graph.counts() == original.counts()
    assert Counter(Workbench.open(copy, config, create=False).graph.all_edges()) == Counter(original.all_edges())


@pytest.mark.parametrize("damage", ["truncated", "half missing"])
def test_a_damaged_graph_file_is_one_line_naming_it(ws, tmp_path, capsys, damage):
    import shutil
    from workbench.store.graph_files import EDGES
    copy = tmp_path / "ws"
    shutil.copytree(ws[0].path, copy)
    f = copy / EDGES
    if damage == "truncated":
        f.write_bytes(f.read_bytes()[:100])
    else:
        f.unlink()
    assert main(["info", "--workspace", str(copy)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(f) in err and "unexpected" not in err, err


def test_the_embedding_cache_reads_only_the_keys_asked(tmp_path):
    """store/cache.py: vectors come back by key, in batches, without reading the whole cache."""
    import numpy as np
    from workbench.store.cache import BATCH, EmbeddingCache
    cache = EmbeddingCache(tmp_path / "lance", 4)
    items = {f"k{i}": np.full(4, i, dtype=np.float32) for i in range(BATCH + 20)}
    cache.add(items)
    got = cache.lookup([f"k{i}" for i in range(5, BATCH + 10)] + ["missing", "k'; drop"])
    assert set(got) == {f"k{i}" for i in range(5, BATCH + 10)}
    assert all(float(v[0]) == int(k[1:]) for k, v in got.items())
    assert cache.lookup([]) == {}


def test_stored_roles_read_the_chapter_holding_a_provision(tmp_path):
    """At ingest and on `relink` (refresh_roles), a provision is classified with the heading of
    the chapter holding it: a permission under 法律责任 is liability; the same text elsewhere is not."""
    import numpy as np
    from workbench.core.records import Unit
    from workbench.store import lance
    text = "消费者除要求赔偿损失外，还可以向生产者要求支付价款十倍的赔偿金。"
    units = [Unit("k@1", "k", "1", "document", text="测试法", corpus="c", language="zh"),
             Unit("k@1/ch1", "k", "1", "chapter", title="食品经营", parent_id="k@1", corpus="c", language="zh"),
             Unit("k@1/a1", "k", "1", "article", text=text, parent_id="k@1/ch1", corpus="c", language="zh"),
             Unit("k@1/ch2", "k", "1", "chapter", title="法律责任", parent_id="k@1", corpus="c", language="zh"),
             Unit("k@1/a2", "k", "1", "article", text=text, parent_id="k@1/ch2", corpus="c", language="zh"),
             Unit("k@1/a2/c1", "k", "1", "clause", text=text, parent_id="k@1/a2", corpus="c", language="zh")]
    store = lance.LanceUnitStore(tmp_path / "lance", 8)
    store.replace_corpus("c", units, np.ones((len(units), 8), np.float32), [True] * len(units))
    roles = lambda: {u.id: u.role for u in store.get(["k@1/a1", "k@1/a2", "k@1/a2/c1"])}  # noqa: E731
    assert roles() == {"k@1/a1": "permission", "k@1/a2": "sanction", "k@1/a2/c1": "sanction"}
    store.table.update(where="id = 'k@1/a2'", values={"role": "other"})
    assert store.refresh_roles() == 1 and roles()["k@1/a2"] == "sanction"
    from workbench.parse.roles import with_roles        # as ingest sets them before linking duties
    assert {u.id: u.role for u in with_roles(units) if u.id in roles()} == roles()

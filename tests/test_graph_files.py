"""The graph's files: Parquet node and edge tables, delta saves, crash safety, old formats."""
from collections import Counter

import numpy as np
import pytest
from workbench.core.records import Edge, EdgeType


def sample_graph(folder):
    """A store with every kind of edge attribute: placeholders (resolved=False), extra pairs
    with quotes and CJK, fractional confidences, several corpora and layers, deleted edges."""
    from workbench.store.graph import IGraphStore
    store = IGraphStore(folder)
    structure = [Edge("a@1", f"a@1/a{i}", EdgeType.CONTAINS, extractor="structure") for i in range(1, 6)]
    links = [Edge("a@1/a2", "a@1/a1", EdgeType.REFERENCES, evidence="第一条", confidence=0.83, extractor="zh-ref",
                  attrs=(("span", "12-15"), ("note", 'the "first" 条'))),
             Edge("a@1/a3", "ref:b/a9", EdgeType.REFERENCES, evidence="《乙法》第九条", confidence=0.5,
                  extractor="zh-ref", resolved=False, attrs=(("law", "乙法"),)),
             Edge("a@1", "ref:c", EdgeType.REPLACES, extractor="manifest", resolved=False)]
    versions = [Edge("a@2/a1", "a@1/a1", EdgeType.INHERITS, confidence=1.0, extractor="version-align",
                     attrs=(("status", "inherited"), ("similarity", "1.000"), ("formal_change", "true")))]
    store.replace_corpus("one", structure)
    store.replace_corpus("one", links, layer="links")
    store.replace_corpus("two", versions, layer="versions")
    store.delete_touching("one", ["a@1/a5"])
    return store


def same_graph(a, b):
    assert a.vcount() == b.vcount() and a.is_directed() == b.is_directed()
    assert a.get_edgelist() == b.get_edgelist()
    assert a.vs.attributes() == b.vs.attributes() and a.es.attributes() == b.es.attributes()
    for name in a.vs.attributes():
        assert a.vs[name] == b.vs[name], name
    for name in a.es.attributes():
        assert a.es[name] == b.es[name], name
        assert [type(x) for x in a.es[name]] == [type(x) for x in b.es[name]], name


def test_the_graph_round_trips_through_parquet_node_and_edge_tables(tmp_path):
    import polars as pl
    from workbench.store.graph import IGraphStore
    from workbench.store.graph_files import EDGES, LEGACY, NODES
    store = sample_graph(tmp_path)
    store.save()
    assert sorted(p.name for p in tmp_path.iterdir()) == [EDGES, NODES]
    back = IGraphStore(tmp_path)
    same_graph(store.g, back.g)
    assert back.all_edges() == store.all_edges() and back.unresolved() == store.unresolved()
    assert {e.target for e in back.unresolved()} == {"ref:b/a9", "ref:c"}
    [ref] = [e for e in back.all_edges() if e.evidence == "第一条"]
    assert ref.attrs == (("span", "12-15"), ("note", 'the "first" 条')) and ref.confidence == 0.83
    assert back.counts("one") == store.counts("one") and back.older_version("a@2/a1") == "a@1/a1"
    edges = pl.read_parquet(tmp_path / EDGES)          # plain Parquet: attributes are columns
    assert edges.columns[:2] == ["source", "target"] and {"type", "attrs", "layer"} <= set(edges.columns)
    assert pl.read_parquet(tmp_path / NODES)["name"].to_list() == store.g.vs["name"]
    empty = IGraphStore(tmp_path / "empty")                 # nothing saved yet: an empty graph
    empty.save()
    assert IGraphStore(tmp_path / "empty").g.vcount() == 0 and not (tmp_path / "empty" / LEGACY).exists()


def _values_of(store, attr: str) -> list:
    """A coded edge column of the store, decoded."""
    codes, values, _ = store._col(attr)
    return [values[c] for c in codes.tolist()]


def test_edits_after_a_load_keep_the_kept_edge_list_and_columns_in_step_with_igraph(tmp_path):
    """The store keeps the edge list read from Parquet and some attribute columns between
    calls; every edit (delete for nothing, delete, add, replace) must keep them equal to igraph's."""
    import numpy as np
    from workbench.store.graph import IGraphStore
    sample_graph(tmp_path).save()
    store = IGraphStore(tmp_path)
    assert store._ends is not None and set(store._cols) == {"corpus", "layer", "type"}   # read from the files, kept
    store.replace_corpus("absent", [])                                           # nothing to delete, nothing to add
    store.delete_touching("one", ["a@1/a2"])
    store.replace_corpus("three", [Edge("a@1/a4", "a@1/a1", EdgeType.REFERENCES, extractor="zh-ref")], "links")
    store.replace_corpus("one", [Edge("a@1", f"a@1/a{i}", EdgeType.CONTAINS, extractor="structure")
                                 for i in (1, 3)])
    assert store._ends.tolist() == [list(e) for e in store.g.get_edgelist()]
    for attr in ("corpus", "layer", "type"):
        assert _values_of(store, attr) == store.g.es[attr], attr
    assert store._names_array().to_pylist() == store.g.vs["name"]
    assert store.corpora_linking(("a@1/a1",)) == {"three"} and store.corpora_linking(("zz@",)) == set()
    assert store.corpora_linking((), "ref:", ["b/a"]) == {"one"}
    store.save()
    back = IGraphStore(tmp_path)
    same_graph(store.g, back.g)
    assert np.array_equal(back._ends, store._ends)
    back.g.add_edges([(0, 1)])                  # edited from outside: the kept copies are dropped, not misused
    back.g.es[back.g.ecount() - 1].update_attributes(type="CONTAINS", corpus="d", layer="links")
    back.replace_corpus("d", [], "links")
    assert back.g.get_edgelist() == store.g.get_edgelist()
    assert back._ends.tolist() == [list(e) for e in back.g.get_edgelist()]      # read again from igraph
    assert all(_values_of(back, a) == back.g.es[a] for a in back._cols)


def test_an_old_pickled_graph_is_read_and_replaced_by_the_next_save(tmp_path):
    from workbench.store.graph import IGraphStore
    from workbench.store.graph_files import EDGES, LEGACY, NODES
    original = sample_graph(tmp_path / "new").g
    old = tmp_path / "old"
    old.mkdir()
    original.write_pickle(str(old / LEGACY))
    store = IGraphStore(old)
    same_graph(original, store.g)
    store.save()
    assert sorted(p.name for p in old.iterdir()) == [EDGES, NODES]
    same_graph(original, IGraphStore(old).g)
    unlayered = original.copy()                              # saved before edge layers existed
    del unlayered.es["layer"]
    unlayered.write_pickle(str(tmp_path / LEGACY))
    assert set(IGraphStore(tmp_path).g.es["layer"]) == {"structure"}


def test_saves_after_small_edits_write_only_the_delta_and_read_back_the_same_graph(tmp_path, monkeypatch):
    """Random edits and saves, each save read back whole: the delta files stand for the edits
    since the base (which stays untouched), a delta past FOLD_SHARE writes a new base, and
    delta files of another save are refused rather than read as part of this graph."""
    import random
    import shutil
    from workbench.store import graph_files as gf
    from workbench.store.graph import GraphFileError, IGraphStore
    monkeypatch.setattr(gf, "FOLD_MIN", 0)
    monkeypatch.setattr(gf, "FOLD_SHARE", 0.4)
    rng = random.Random(7)
    store = IGraphStore(tmp_path)
    for c in range(6):
        store.replace_corpus(f"c{c}", [Edge(f"k{c}@1", f"k{c}@1/a{i}", EdgeType.CONTAINS, extractor="structure")
                                       for i in range(20)])
    store.save()
    model = {(f"c{c}", "structure"): [Edge(f"k{c}@1", f"k{c}@1/a{i}", EdgeType.CONTAINS, extractor="structure")
                                      for i in range(20)] for c in range(6)}
    kinds = set()
    for step in range(40):
        base_stat = [(tmp_path / n).stat().st_ino for n in (gf.NODES, gf.EDGES)]
        for _ in range(rng.choice([1, 2, 3])):          # edits igraph sees only when read or saved
            c = rng.randrange(8)
            if rng.random() < 0.5:
                n = rng.choice([0, 1, 3, 30])
                new = [Edge(f"k{c}@1/a{rng.randrange(25)}", f"k{rng.randrange(8)}@1/a{i}", EdgeType.REFERENCES,
                            evidence=f"s{step}", confidence=0.5, resolved=bool(i % 2), attrs=(("step", str(step)),))
                       for i in range(n)]
                store.replace_corpus(f"c{c}", new, layer="links")
                model[(f"c{c}", "links")] = list({e.key: e for e in new}.values())
            else:
                doc = f"k{c}@1/a{rng.randrange(20)}"
                store.delete_touching(f"c{c}", [doc])
                for key in [k for k in model if k[0] == f"c{c}"]:
                    model[key] = [e for e in model[key] if doc not in (e.source, e.target)]
            assert store.counts() == dict(sorted(Counter(e.type.value for es in model.values() for e in es).items()))
            assert store.corpora_linking(("k1@",)) == {k[0] for k, es in model.items()
                                                      if k[1] == "links" and any(e.target.startswith("k1@") for e in es)}
        store.save()
        assert sorted((e.source, e.target, e.type.value, e.evidence) for e in store.all_edges()) == \
            sorted((e.source, e.target, e.type.value, e.evidence) for es in model.values() for e in es)
        delta = (tmp_path / gf.EDGES_NEW).exists()
        unchanged = base_stat == [(tmp_path / n).stat().st_ino for n in (gf.NODES, gf.EDGES)]
        assert not delta or unchanged                   # a delta save leaves the base as it was
        kinds.add("delta" if delta else "base")
        back = IGraphStore(tmp_path)
        same_graph(store.g, back.g)
        assert np.array_equal(back._ends, np.asarray(store.g.get_edgelist()).reshape(-1, 2))
        assert back.all_edges() == store.all_edges()
        store = back if rng.random() < 0.5 else store   # go on from the read copy or the saved one
    assert kinds == {"delta", "base"}
    if not (tmp_path / gf.EDGES_NEW).exists():
        store.replace_corpus("c1", [Edge("k1@1", "x", EdgeType.REFERENCES)], layer="links")
        store.save()
    old = tmp_path / "old"
    old.mkdir()
    for n in gf.DELTA:
        shutil.copy(tmp_path / n, old / n)
    for _ in range(3):                                   # past the share: a new base, no delta
        store.replace_corpus("c9", [Edge("k9@1", f"k9@1/a{i}", EdgeType.CONTAINS) for i in range(200)])
        store.save()
    assert not any((tmp_path / n).exists() for n in gf.DELTA)
    for n in gf.DELTA:
        shutil.copy(old / n, tmp_path / n)
    with pytest.raises(GraphFileError, match="not saved together"):
        IGraphStore(tmp_path)
    (tmp_path / gf.DROPPED).unlink()
    with pytest.raises(GraphFileError, match="missing, while"):
        IGraphStore(tmp_path)


@pytest.mark.parametrize("start", ["parquet", "pickle", "delta"])
@pytest.mark.parametrize("dies", ["between the two files", "before the pickle is deleted", "before commit"])
def test_a_save_cut_short_leaves_the_last_committed_graph(tmp_path, monkeypatch, start, dies):
    """A kill -9 at any point of a save inside a transaction: readers see the committed graph,
    the next writer rolls back to it (the legacy pickle too); outside a transaction a pair
    from two saves is refused, never read as one graph."""
    from workbench.store import graph_files
    from workbench.store.graph import FILES, GraphFileError, IGraphStore
    from workbench.store.journal import committed_files, roll_back, transaction

    class Killed(BaseException):
        pass
    store = sample_graph(tmp_path)
    if start == "pickle":
        store.g.write_pickle(str(tmp_path / graph_files.LEGACY))
    else:
        store.save()
    if start == "delta":              # the committed graph is a base and a delta; so is the save cut short
        monkeypatch.setattr(graph_files, "FOLD_MIN", 0)
        monkeypatch.setattr(graph_files, "FOLD_SHARE", 1.0)
        store.replace_corpus("two", [Edge("a@2", "a@2/a1", EdgeType.CONTAINS)])
        store.save()
        assert (tmp_path / graph_files.EDGES_NEW).exists()
    before = sorted(p.name for p in tmp_path.iterdir() if p.is_file())
    committed = IGraphStore(tmp_path).g
    gen = transaction(tmp_path, {}, list(FILES), "ingest of two")
    gen.__enter__()
    store.delete_touching("one", ["a@1/a1"])
    store.replace_corpus("three", [Edge("d@1", "d@1/a1", EdgeType.CONTAINS)])
    real_replace, real_unlink = graph_files._replace, type(tmp_path).unlink
    if dies == "between the two files":
        calls = []

        def replace(tmp, dst):
            if calls:
                raise Killed
            calls.append(dst)
            real_replace(tmp, dst)
        monkeypatch.setattr(graph_files, "_replace", replace)
    elif dies == "before the pickle is deleted":
        def unlink(self, missing_ok=False):
            if self.name == graph_files.LEGACY:
                raise Killed
            real_unlink(self, missing_ok=missing_ok)
        monkeypatch.setattr(type(tmp_path), "unlink", unlink)
    try:
        store.save()
    except Killed:
        pass
    if start == "delta":
        assert (tmp_path / graph_files.EDGES_NEW).exists() and not list(tmp_path.glob("graph_edges.parquet.tmp"))
    monkeypatch.undo()
    assert (tmp_path / "journal.json").exists()
    same_graph(committed, IGraphStore(tmp_path, committed_files(tmp_path, FILES)).g)   # a reader
    if dies == "between the two files" and start != "pickle":
        with pytest.raises(GraphFileError, match="not saved together with graph_nodes.parquet"):
            IGraphStore(tmp_path)                          # the files as they are: refused, not mixed
    assert "rolled back an unfinished ingest of two" in roll_back(tmp_path, lambda name: None)
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file() and not p.name.endswith(".tmp")) == before
    same_graph(committed, IGraphStore(tmp_path).g)


def test_a_bad_or_half_missing_graph_file_is_a_clear_error(tmp_path):
    from workbench.store.graph import GraphFileError, IGraphStore
    from workbench.store.graph_files import EDGES, LEGACY, NODES
    sample_graph(tmp_path).save()
    data = (tmp_path / EDGES).read_bytes()
    (tmp_path / EDGES).write_bytes(data[: len(data) // 2])
    with pytest.raises(GraphFileError, match=f"{EDGES}: cannot be read as Parquet.*restore the workspace's graph"):
        IGraphStore(tmp_path)
    (tmp_path / EDGES).unlink()
    with pytest.raises(GraphFileError, match=f"{EDGES}: missing, while {NODES} is there"):
        IGraphStore(tmp_path)
    (tmp_path / NODES).unlink()
    (tmp_path / LEGACY).write_bytes(b"garbage\n")
    with pytest.raises(GraphFileError, match=f"{LEGACY}: cannot be read as a pickled graph"):
        IGraphStore(tmp_path)
    import pyarrow as pa
    import pyarrow.parquet as pq
    other = tmp_path / "other"
    other.mkdir()
    for name in (NODES, EDGES):                             # Parquet, but not a graph of ours
        pq.write_table(pa.table({"x": [1]}), other / name)
    with pytest.raises(GraphFileError, match="not a graph file of this workbench"):
        IGraphStore(other)


def test_coded_columns_keep_none_apart_from_values_added_later():
    from workbench.store.graph import _encode
    codes, values, lookup = _encode([None, None])          # a column igraph holds as all None
    assert values == [None] and codes.tolist() == [0, 0]
    assert lookup.setdefault("links", len(lookup)) != lookup[None]


def test_graph_files_say_a_delta_may_follow_so_an_older_reader_refuses_them(tmp_path):
    """Format 2: a base may be followed by delta files; a format-1 reader (which reads the
    base alone) refuses it rather than reading an older graph."""
    import json
    import pyarrow.parquet as pq
    from workbench.store import graph_files as gf
    sample_graph(tmp_path).save()
    for name in (gf.NODES, gf.EDGES):
        assert json.loads(pq.read_schema(tmp_path / name).metadata[gf.KEY])["format"] == 2

"""Multi-vector collections (entities/collections.py), LOCAL context as the evidence of an
answer (answer/local.py) and `workbench traverse`, on a copy of the ingested sample corpus
with the real embedding model and LanceDB."""
from __future__ import annotations

import shutil

import pytest

from workbench.cli import main
from workbench.core.errors import WorkbenchError
from workbench.entities.collections import CollectionHit, units_of
from workbench.workbench import Workbench


@pytest.fixture(scope="module")
def ws(sample_workspace, tmp_path_factory):
    path = tmp_path_factory.mktemp("collections") / "ws"
    shutil.copytree(sample_workspace, path)
    return path


def test_search_all_needs_built_collections(ws):
    wb = Workbench.open(ws)
    assert not wb.collections_built()
    with pytest.raises(WorkbenchError, match="--build-collections"):
        wb.search_all("licence", collections=("units", "relations"))
    assert {h.collection for h in wb.search_all("licence", k=4)} == {"units"}     # default: what is built
    assert main(["entities", "--search", "licence", "-k", "3", "--workspace", str(ws)]) == 0    # units only, noted
    assert main(["entities", "--search", " ", "--workspace", str(ws)]) == 2
    assert main(["entities", "health", "--search", "licence", "--workspace", str(ws)]) == 2


def test_build_is_incremental_and_search_names_collections(ws, capsys):
    wb = Workbench.open(ws)
    first = wb.build_collections()
    assert {"entities", "relations", "summaries", "terms"} == set(first) == wb.collections_built()
    assert all(first[c]["rows"] > 0 for c in ("entities", "relations", "summaries"))
    again = wb.build_collections()
    assert all(r["embedded"] == 0 for r in again.values())          # every text is in the embedding cache
    assert {c: r["rows"] for c, r in again.items()} == {c: r["rows"] for c, r in first.items()}
    hits = wb.search_all("Which authority issues a licence to a clinic?", k=60)
    kinds = {h.collection for h in hits}
    assert "units" in kinds and kinds - {"units"}, kinds                # units and at least one other collection
    stored = wb.store.ids()
    for h in hits:
        assert h.unit_ids and all(u in stored for u in h.unit_ids[:3]), h
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    only = wb.search_all("licence", k=5, collections=("units",))
    assert {h.collection for h in only} == {"units"} and len(only) == 5
    with pytest.raises(ValueError, match="unknown collections"):
        wb.search_all("licence", collections=("nope",))
    assert main(["entities", "--search", "clinic licence", "-k", "6", "--workspace", str(ws)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 6 and out[0].split()[1] in ("units", "entities", "relations", "summaries", "terms")


def test_units_of_adds_new_units_per_hit_in_unit_order():
    hits = [CollectionHit("units", "a/a1", "", 0.03, 1, ("a/a1",)),
            CollectionHit("relations", "r", "", 0.02, 1, ("a/a9", "a/a1", "a/a5", "a/a7", "a/a8")),
            CollectionHit("entities", "e", "", 0.01, 1, ("a/a5", "a/a2"))]
    # the relation adds three units it has not seen, those the unit ranking knows first (a5, then a9)
    assert units_of(hits, prefer=["a/a1", "a/a5", "a/a9"]) == ["a/a1", "a/a5", "a/a9", "a/a7", "a/a2"]


def test_local_context_as_the_evidence_of_an_answer(ws):
    wb = Workbench.open(ws)
    name = wb.entities.search("ministry of health", ("authority",), 1)[0]["name"]
    q = f"What does the {name} do?"
    local = wb.ask(q, backend="extractive", evidence="local")
    assert not local.tried and local.evidence.context.startswith("Entities")
    assert local.citations and set(local.citations) <= set(local.evidence.ids)
    assert all(f"[{c}]" in local.text for c in local.citations)
    composed = wb.ask(q, backend="extractive")
    assert composed.evidence.context == ""
    none = wb.ask("zzzz qqqq?", backend="extractive", evidence="local")     # names no entity: composed instead
    assert none.tried and "names no entity" in none.tried[0]
    with pytest.raises(ValueError, match="compose or local"):
        wb.ask(q, backend="extractive", evidence="global")


def test_traverse_from_the_command_line(ws, capsys):
    idx = Workbench.open(ws).entities
    degree = {}
    for a in idx.aggregated:
        for e in (a.subject, a.object):
            degree[e] = degree.get(e, 0) + 1
    start = max(sorted(degree), key=degree.get)                      # the best connected entity
    paths = idx.traverse(start, strategy="bfs", max_depth=2)
    assert paths
    end = paths[-1].nodes[-1]
    assert main(["traverse", start, end, "--strategy", "shortest_path", "--workspace", str(ws)]) == 0
    out = capsys.readouterr().out
    shortest = idx.traverse(start, end, strategy="shortest")[0]
    assert out.startswith(start) and f"{shortest.hops} hop(s)" in out and "document diversity" in out
    assert main(["traverse", start, "--strategy", "shortest_path", "--workspace", str(ws)]) == 2
    assert main(["traverse", "authority:nobody", "--workspace", str(ws)]) == 2
    assert main(["traverse", start, "--strategy", "confidence_weighted", "--max-depth", "2", "--workspace", str(ws)]) == 0
    assert "confidence" in capsys.readouterr().out


def test_a_unit_filter_reaches_every_collection_and_local_answers_keep_their_date(ws):
    """Under a unit filter a collection hit stands only for the units it lets through; a dated
    LOCAL answer cites only what was in force that day."""
    import datetime as dt
    from dataclasses import replace
    from workbench.core.records import Filter
    wb = Workbench.open(ws)
    assert wb.search_all("licence", k=10, where=Filter(corpus="no such corpus")) == []
    only = {u.id for u in wb.store.where(Filter(kinds=("clause",)))}
    hits = wb.search_all("licence", k=10, where=Filter(kinds=("clause",)))
    assert hits and all(set(h.unit_ids) <= only for h in hits)
    name = wb.entities.search("ministry of health", ("authority",), 1)[0]["name"]
    cfg = replace(wb.config.retrieval, mode="graph", as_of="2013-01-01")
    a = wb.ask(f"What does the {name} do?", cfg, backend="extractive", evidence="local")
    on = dt.date(2013, 1, 1)
    assert all(wb.in_force(c, on) for c in a.citations), a.citations

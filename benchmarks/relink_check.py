"""An ingest's relink against a full relink, on copies of real workspaces.

For each workspace: a copy (in a temporary folder, deleted after) gets the document `names` /
`read_with` columns computed from its stored rows (workspaces made before them lack them) and
one full relink; then, for each corpus, `Workbench.relink(corpus)` as an ingest runs it
(documents looked up by name and key: link/relink.py `relink_touched`) must re-resolve exactly
the corpora that the path reading every document names (`affected`), and leave exactly the
full relink's citation edges.

    .venv/bin/python benchmarks/relink_check.py benchmarks/workspace-retrieval/zh [...]
Writes benchmarks/results/relink_check.json.
"""
from __future__ import annotations

import datetime as dt
import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OUT = ROOT / "benchmarks" / "results" / "relink_check.json"


def add_names(dst: Path) -> None:
    import lancedb
    import pyarrow as pa
    from workbench.link.resolve import stored_names
    from workbench.store import lance
    db = lancedb.connect(str(dst / "lance"))
    t = db.open_table("units").to_arrow()
    if "names" in t.column_names:
        return
    cols = [c for c in lance._COLUMNS + ["role"] if c in t.column_names]
    units = [lance._unit(r) for r in t.select(cols).to_pylist()]
    lists = pa.list_(pa.string())
    stored = [stored_names(u) for u in units]
    t = t.append_column("names", pa.array([n for n, _ in stored], lists))
    t = t.append_column("read_with", pa.array([w for _, w in stored], lists))
    db.drop_table("units")
    db.create_table("units", t)


def check(src: Path) -> dict:
    from workbench.core.records import DOCUMENTS
    from workbench.link import relink as rl
    from workbench.workbench import Workbench
    with tempfile.TemporaryDirectory() as tmp:
        dst = Path(tmp) / "ws"
        shutil.copytree(src, dst, ignore=shutil.ignore_patterns("writing.lock"))
        add_names(dst)
        wb = Workbench.open(dst)
        wb.store.index_columns()
        links = lambda: sorted((e.source, e.target, e.type.value, e.resolved, e.evidence)  # noqa: E731
                               for e in wb.graph.all_edges() if e.extractor not in ("structure", "version-align", "version-part"))
        wb.relink()
        full = links()
        docs = wb.store.where(DOCUMENTS)
        files = {f.stem for f in (dst / "citations").glob("*.jsonl")}
        corpora, differ = sorted({d.corpus for d in docs}), []
        for c in corpora:
            expected = rl.affected(c, docs, rl.codified_articles(wb.store, docs), wb.graph) & files
            resolved = set(wb.relink(c)) - {"graph"}
            if resolved != expected or links() != full:
                differ.append({"corpus": c, "expected": sorted(expected), "resolved": sorted(resolved),
                               "same_edges": links() == full})
        return {"catalogued": wb.store.catalogued, "codification_documents": wb.store.count(rl.CODIFICATION),
                "corpora": len(corpora), "documents": len(docs), "citation_edges": len(full), "differ": differ}


def main() -> int:
    res = {"date": dt.date.today().isoformat(), "workspaces": {}}
    for ws in sys.argv[1:]:
        res["workspaces"][str(Path(ws).resolve().relative_to(ROOT))] = r = check(Path(ws))
        print(ws, {k: v for k, v in r.items() if k != "differ"}, "differences:", len(r["differ"]), flush=True)
    OUT.write_text(json.dumps(res, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 1 if any(r["differ"] for r in res["workspaces"].values()) else 0


if __name__ == "__main__":
    sys.exit(main())

"""The one place that wires a configuration to adapters."""
from __future__ import annotations

import json
import time
from dataclasses import asdict
from pathlib import Path

from .config import Config
from .embedders import make_embedder
from .errors import WorkbenchError
from .ingest import IngestReport, run_ingest
from .parse.detect import load_corpus
from .records import Hit
from .stores.graph import IGraphStore
from .stores.lance import EmbeddingCache, LanceUnitStore

META = "workspace.json"


class Workbench:
    """A workspace folder: units in LanceDB, edges in igraph, reports, all beside each other."""

    def __init__(self, path: Path, config: Config, embedder, store, graph, cache):
        self.path, self.config = path, config
        self.embedder, self.store, self.graph, self.cache = embedder, store, graph, cache

    @classmethod
    def open(cls, path: str | Path = "workspace", config: Config | None = None) -> "Workbench":
        path = Path(path)
        config = config or Config()
        meta = _read_meta(path)
        spec = config.ingest.embedder
        if meta.get("embedder_spec") and meta["embedder_spec"] != spec:
            raise WorkbenchError(f"{path} was built with the embedder {meta['embedder_spec']!r}, not "
                                 f"{spec!r}: use that embedder or a new --workspace folder")
        embedder = make_embedder(spec)
        dim = meta.get("dim") or embedder.dim
        path.mkdir(parents=True, exist_ok=True)
        _write_meta(path, {**meta, "embedder_spec": spec, "embedder": embedder.name, "dim": dim})
        return cls(path, config, embedder, LanceUnitStore(path / "lance", dim),
                   IGraphStore(path), EmbeddingCache(path / "lance", dim))

    # -- ingest -------------------------------------------------------------------
    def ingest(self, source: str | Path) -> IngestReport:
        t = time.perf_counter()
        parsed = load_corpus(source)
        report = run_ingest(parsed, self.store, self.graph, self.embedder, self.cache,
                            self.config.ingest, time.perf_counter() - t)
        reports = self.path / "reports"
        reports.mkdir(exist_ok=True)
        data = asdict(report)
        data["problems"] = [str(p) for p in report.problems]
        (reports / f"{report.corpus}.json").write_text(json.dumps(data, ensure_ascii=False, indent=1),
                                                       encoding="utf-8")
        meta = _read_meta(self.path)
        meta.setdefault("corpora", {})[report.corpus] = str(Path(source).resolve())
        _write_meta(self.path, meta)
        return report

    # -- look ---------------------------------------------------------------------
    def info(self) -> dict:
        instruments: dict[tuple, dict] = {}
        for row in self.store.counts():
            key = (row["corpus"], row["key"], row["version"])
            entry = instruments.setdefault(key, {"corpus": key[0], "key": key[1], "version": key[2],
                                                 "units_by_kind": {}})
            entry["units_by_kind"][row["kind"]] = row["count_all"]
        return {"workspace": str(self.path), "embedder": self.embedder.name,
                "corpora": sorted({k[0] for k in instruments}),
                "instruments": [instruments[k] for k in sorted(instruments)],
                "edges_by_type": self.graph.counts()}

    def search(self, query: str, mode: str = "bm25", k: int = 10, language: str = "",
               where: str | None = None) -> list[Hit]:
        if mode == "bm25":
            return self.store.search_text(query, language or _guess_language(query), k, where)
        if mode == "dense":
            return self.store.search_vector(self.embedder.embed_queries([query])[0], k, where)
        raise ValueError(f"unknown search mode {mode!r}: bm25 or dense")


def _guess_language(text: str) -> str:
    if any("\u4e00" <= ch <= "\u9fff" for ch in text):
        return "zh"
    if any(ch in "ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ" for ch in text.lower()):
        return "vi"
    return "en"


def _read_meta(path: Path) -> dict:
    f = path / META
    return json.loads(f.read_text(encoding="utf-8")) if f.exists() else {}


def _write_meta(path: Path, meta: dict) -> None:
    (path / META).write_text(json.dumps(meta, ensure_ascii=False, indent=1), encoding="utf-8")

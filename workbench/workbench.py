"""The one place that wires a configuration to adapters."""
from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from contextlib import contextmanager
import os
import time
from dataclasses import asdict
from pathlib import Path

from .core.config import Config
from .store.embedders import make_embedder
from .core.errors import QuestionError, WorkbenchError
from .store.ingest import IngestReport, run_ingest
from .parse.detect import load_corpus
from .parse.manifest import safe_name
from .link.relink import relink
from .link.duties import implicit_duties
from .link.run import extract_citations
from .link.store import CITATIONS, load_citations, save_citations
from .core.records import DOCUMENTS, Filter, Hit, Problem, Unit
from .retrieve.retriever import guess_language
from .link.versions import align_corpus, article_history, in_force, version_in_force
from .store.graph import FILES as GRAPH, IGraphStore
from .store.journal import pending, roll_back, transaction, write_file
from .store.checks import META
from .store.lock import writing
from .store.remote import is_remote, open_remote, restore_tables
from .store.lance import EmbeddingCache, LanceUnitStore, cleanup
from .store.refresh import FORM, refresh_text
from .store.snapshot import pending_note, read_committed, read_meta, write_meta
from .store.terms import TermStore

KEEP_VERSIONS = dt.timedelta(days=7)   # table versions kept after a commit (readers pinned to one)


class Workbench:
    """A workspace folder: units in LanceDB, edges in igraph, reports, all beside each other."""

    remote = None                   # store/remote.py's Remote for an s3:// workspace
    remote_head: tuple = (None, None)   # its HEAD.json and ETag as this object last read them

    def __init__(self, path: Path, config: Config, embedder, store, graph, cache, terms, lance=None):
        self.path, self.config, self.lance = path, config, lance or path / "lance"
        self.embedder, self.store, self.graph, self.cache, self.terms = embedder, store, graph, cache, terms

    @classmethod
    def open(cls, path: str | Path = "workspace", config: Config | None = None, create: bool = True,
             lance: str | None = None, tables: dict | None = None) -> "Workbench":
        """The workspace at `path` (a folder, or s3://BUCKET/PREFIX: store/remote.py); `create=False`
        refuses a folder that holds no workspace (a mistyped path) instead of starting an empty one.
        `lance`, `tables`: the LanceDB database elsewhere, read at these table versions."""
        if is_remote(path):
            return open_remote(cls, str(path), config or Config(), create)
        path = Path(path)
        lance = lance or path / "lance"
        config = config or Config()
        if not create and not (path / META).is_file():
            raise WorkbenchError(f"{path}: no workspace here (no {META}); give the --workspace you ingested "
                                 "into, or run `workbench ingest PATH --workspace DIR` first")
        meta = read_meta(path, committed=True)
        spec = config.ingest.embedder
        if meta.get("embedder_spec") and meta["embedder_spec"] != spec:
            raise WorkbenchError(f"{path} was built with the embedder {meta['embedder_spec']!r}, not "
                                 f"{spec!r}: use that embedder or a new --workspace folder")
        embedder = make_embedder(spec)
        dim = meta.get("dim") or embedder.dim
        path.mkdir(parents=True, exist_ok=True)
        updated = {**meta, "embedder_spec": spec, "embedder": embedder.name, "dim": dim,
                   **({} if (path / META).exists() else {"form": FORM})}
        if updated != meta and not (path / META).exists():   # a new workspace; opening to read writes nothing
            write_meta(path, updated)
        journal, snapshot, store, terms, graph = read_committed(path, lance, dim, tables)
        wb = cls(path, config, embedder, store, graph, EmbeddingCache(config.ingest.cache_dir or lance, dim),
                 terms, lance)
        wb.pending, wb.meta = journal, snapshot
        return wb

    # -- writing: one writer (lock.py), all or nothing (journal.py) ------------------
    def _begin(self) -> str | None:
        """Inside the writer lock, before writing: undo a write that died (its journal), and
        read the workspace as it is now."""
        path = self.path
        note = None
        if pending(path) or (path / "journal.json").exists():
            tables = {"units": self.store.db, "terms": self.terms.db}

            def table(name):
                db = tables[name]
                names = db.list_tables()
                return db.open_table(name) if name in set(names.tables if hasattr(names, "tables") else names) else None
            note = roll_back(path, table)
        if self.remote:     # the latest committed state's files, tables back to its versions
            head, etag = self.remote_head = self.remote.head()
            if head:
                self.remote.pull(head["state"], path)
        # always the latest committed state: this object may have been opened (and pinned to a
        # committed state) while another writer was still at work
        self.store = LanceUnitStore(self.lance, self.store.dim)
        self.terms = TermStore(self.lance)
        if self.remote:
            restore_tables(self.store, self.terms, self.remote_head[0], self.remote.uri)
        if self.remote or note or not self.graph.current():     # else the graph read at open is the latest
            self.graph = IGraphStore(path)
        self.pending, self._retriever = None, None
        self.recovered = note
        return note

    @contextmanager
    def _transaction(self, what: str, files: list[str]):
        """All of the block's writes, or none: an error (or Ctrl-C) rolls them back at once; a
        crash leaves the journal for the next writer."""
        try:
            with transaction(self.path, {"units": self.store.table, "terms": self.terms.table},
                             [*GRAPH, META, *files], what):
                yield
        except BaseException:
            self._begin()
            raise
        if self.remote:     # committed here: now in the bucket, for every reader
            head, etag = self.remote_head
            state = (head or {}).get("state", 0) + 1
            tables = {"units": self.store.table.version, "terms": self.terms.table.version}
            self.remote_head = {"state": state, "tables": tables}, self.remote.publish(self.path, tables, etag, state)
        for table in (self.store.table, self.terms.table):     # committed: old versions may go now
            cleanup(table, KEEP_VERSIONS)

    def _writing(self, wait: float | None = None):
        """The writer lock of a local workspace, the writer lease of an s3:// one."""
        return self.remote.lease(wait) if self.remote else writing(self.path, wait)

    @property
    def location(self) -> str:
        """Where the workspace is, as the user named it (its URI when it is in a bucket)."""
        return self.remote.uri if self.remote else str(self.path)

    # -- ingest -------------------------------------------------------------------
    def ingest(self, source: str | Path, follow_symlinks: bool = False, replace: bool = False) -> IngestReport:
        """Parse, embed, store and link one corpus, holding the workspace's writer lock.
        `follow_symlinks`: read files a symbolic link in the corpus folder leads to outside it;
        `replace`: instruments already stored from another corpus are taken over by this one."""
        with self._writing():
            self._begin()
            report = self._ingest(source, follow_symlinks, replace)
            t = time.perf_counter()
            report.problems += self._refresh_collections()
            report.seconds["collections"] = time.perf_counter() - t
            return report

    def _ingest(self, source: str | Path, follow_symlinks: bool = False, replace: bool = False) -> IngestReport:
        t = time.perf_counter()
        parsed = load_corpus(source, follow_symlinks)
        if why := safe_name(parsed.name, "corpus name"):      # it names files in the workspace
            raise WorkbenchError(f"{source}: {why}; rename the folder or set `name` in its corpus.toml")
        taken = self._taken(parsed, source, replace)
        files = [f"{CITATIONS}/{c}.jsonl" for c in sorted({parsed.name} | {u.corpus for u in taken})] + \
            [f"reports/{parsed.name}.json"]
        with self._transaction(f"ingest of {parsed.name}", files):
            for corpus in sorted({u.corpus for u in taken}):      # --replace: taken over from there
                self._drop(corpus, [u.id for u in taken if u.corpus == corpus])
            return self._store(parsed, source, time.perf_counter() - t, {u.corpus for u in taken})

    def _drop(self, corpus: str, documents: list[str]) -> None:
        """Remove document versions (units, their edges, terms and citations) from a corpus."""
        under = tuple(documents)
        self.store.delete_under(corpus, under)
        self.terms.delete_under(corpus, under)
        self.graph.delete_touching(corpus, under)
        f = self.path / CITATIONS / f"{corpus}.jsonl"
        if f.exists():
            inside = lambda uid: any(uid == d or uid.startswith(d + "/") for d in under)  # noqa: E731
            save_citations(f, [c for c in load_citations(f) if not inside(c.source)])

    def _store(self, parsed, source, parse_seconds: float, losing: set[str] = frozenset()) -> IngestReport:
        """`losing`: corpora this ingest takes instruments from (--replace), which it may empty."""
        before = self.store.where(Filter(kinds=("document",), corpus=parsed.name))   # a re-ingest may drop some
        report = run_ingest(parsed, self, parse_seconds)
        t = time.perf_counter()
        if self.config.graph.extract_citations:
            units = parsed.result.units
            save_citations(self.path / CITATIONS / f"{report.corpus}.jsonl", extract_citations(units))
        relinked = self.relink(report.corpus, before)
        report.problems += relinked.get(report.corpus, []) + relinked.get("graph", [])
        report.seconds["link"] = time.perf_counter() - t
        report.edges_by_type = self.graph.counts(report.corpus)
        self.graph.save()
        self._retriever = self._entities = None
        self._write_report(report, source, losing)
        return report

    def _taken(self, parsed, source, replace: bool) -> list[Unit]:
        """Instrument versions of this corpus already stored from another corpus: refused
        (stored twice, every hit on them would come twice), or with `replace` returned to be
        taken over."""
        ids = tuple(sorted({u.id for u in parsed.result.units if u.kind == "document"}))
        if not ids:
            return []
        taken = [u for u in self.store.where(Filter(kinds=("document",), ids=ids)) if u.corpus != parsed.name]
        if taken and not replace:
            more = f" and {len(taken) - 1} more" if len(taken) > 1 else ""
            raise WorkbenchError(f"{source}: {taken[0].id}{more} already in this workspace from corpus "
                                 f"{taken[0].corpus!r}; re-ingest that corpus instead, take them over with "
                                 "--replace, or use another --workspace")
        return taken

    def relink(self, corpus: str | None = None, before=()) -> dict[str, list[Problem]]:
        """Resolve the stored citations against what the workspace holds now, so a citation to
        an instrument ingested later becomes a resolved edge: every corpus's, or (`corpus`, the
        one just ingested) only those it can change (link/relink.py). Returns the problems per
        corpus resolved, and amendment cycles (which may span corpora) under "graph"."""
        with self._writing():
            if not self._in_transaction():
                self._begin()
            return relink(self.store, self.graph, self.path / CITATIONS, corpus, before)

    def _in_transaction(self) -> bool:
        return pending(self.path) is not None and pending(self.path)["pid"] == os.getpid()

    def reextract(self) -> dict[str, list[Problem]]:
        """Classify provision roles, extract every corpus's citations and align its versions again
        from the stored units and vectors (after the rules changed), then resolve the citations: no
        parsing, no embedding. The ingest reports keep the counts of their ingest."""
        with self._writing():
            self._begin()
            files = [f"{CITATIONS}/{c}.jsonl" for c in sorted({row["corpus"] for row in self.store.counts()})]
            with self._transaction("relink", files):
                problems = self._reextract()
                write_meta(self.path, {**read_meta(self.path), "form": FORM})
            problems.setdefault("graph", []).extend(self._refresh_collections())
            return problems

    def _reextract(self) -> dict[str, list[Problem]]:
        refresh_text(self.store)            # text, tokens and term keys in one written form (store/refresh.py)
        self.terms.refresh_norms()
        self.store.refresh_roles()          # provision roles are read by rule too
        self.store.refresh_names()          # and the names documents are looked up by
        self._entities = None               # relations are read from roles
        for corpus in sorted({row["corpus"] for row in self.store.counts()}):
            units = self.store.where(Filter(corpus=corpus))
            save_citations(self.path / CITATIONS / f"{corpus}.jsonl", extract_citations(units))
            self.graph.replace_corpus(corpus, implicit_duties(units), "duties")
            # versions aligned again with the stored vectors (what an amendment changed is read by rule too),
            # which are read only for the instruments held in more than one version
            versions = Counter(u.key for u in units if u.kind == "document")
            vectors = self.store.vectors([u.id for u in units if u.kind in ("article", "passage") and versions[u.key] > 1])
            ordered = sorted(units, key=lambda u: (u.key, u.version, u.ordinal))      # as ingest aligns them
            self.graph.replace_corpus(corpus, align_corpus(ordered, vectors, self.body_names)[0], "versions")
        problems = self.relink()
        self.graph.save()
        self._retriever = None
        return problems

    def _write_report(self, report: IngestReport, source, losing: set[str] = frozenset()) -> None:
        reports = self.path / "reports"
        reports.mkdir(exist_ok=True)
        data = asdict(report)
        data["problems"] = [str(p) for p in report.problems]
        write_file(reports / f"{report.corpus}.json", json.dumps(data, ensure_ascii=False, indent=1))
        meta = read_meta(self.path)
        # --replace may have emptied one it took instruments from (every corpus with rows has
        # document rows)
        gone = {c for c in losing if not self.store.count(Filter(kinds=("document",), corpus=c))}
        meta["corpora"] = {c: p for c, p in meta.get("corpora", {}).items() if c not in gone}
        meta["corpora"][report.corpus] = str(Path(source).resolve())
        write_meta(self.path, meta)
        self.meta = meta

    @staticmethod
    def body_names(text: str) -> list[tuple[int, int]]:
        """The public bodies a Chinese text names, by the entity rules: version alignment reads an
        edit inside one as a renaming (link/substance.py, which sits below the entities)."""
        from .entities.rules_zh import bodies
        return bodies(text)

    # -- versions and time ----------------------------------------------------------
    def version_in_force(self, key: str, on: dt.date) -> Unit | None:
        return version_in_force(self.store.where(Filter(kinds=("document",), keys=(key,))), key, on)

    def in_force(self, unit_id: str, on: dt.date) -> bool:
        units = self.store.get([unit_id])
        return bool(units) and in_force(units[0], on)

    def history(self, unit_id: str) -> list[str]:
        """The versions of one article, oldest first (through the version-alignment edges)."""
        return article_history(unit_id, self.graph.older_version, self.graph.newer_version)

    def changes(self, unit_id: str) -> list[dict]:
        """The versions of one article, oldest first: id, validity, and how each differs from
        the one before (status of the version alignment, text inserted / deleted; `form_only`:
        punctuation width, quotes or spacing only; `substance`: characters -- words in alphabetic
        text -- changed beyond the renamings the revision made throughout, 0 for an article
        amended by such a renaming only, link/substance.py; None when not recorded)."""
        chain = self.history(unit_id)
        units = {u.id: u for u in self.store.get(chain)}
        steps = []
        for older, newer in zip([None] + chain, chain):
            u = units.get(newer)
            step = {"unit_id": newer, "effective_from": u.effective_from if u else None,
                    "effective_to": u.effective_to if u else None, "status": "", "inserted": "", "deleted": "",
                    "form_only": False, "substance": None}
            edge = self.graph.version_edge(newer, older) if older else None
            if edge is not None:
                a = dict(edge.attrs)
                step.update(status=a.get("status", ""), inserted=a.get("inserted", ""), deleted=a.get("deleted", ""),
                            form_only=a.get("formal_change") == "true",
                            substance=int(a["substance"]) if a.get("substance", "").isdigit() else None)
            steps.append(step)
        return steps

    def units(self, where: Filter | None = None):
        """The units (matching a filter) as a polars DataFrame, read by LanceDB."""
        return self.store.frame(where)

    def edges(self, types=None):
        """The edges (of these types) as a polars DataFrame: source, target, type, resolved."""
        return self.graph.frame(types)

    def define(self, term: str) -> list[dict]:
        """Units that define `term` (exact term first, then terms containing it)."""
        if not (term or "").strip():         # (a wildcard, "%", is looked up literally: no term is one)
            raise QuestionError(f"term {term!r}: nothing to look up; give a term in words (e.g. licence)")
        return self.terms.lookup(term)

    # -- look ---------------------------------------------------------------------
    def info(self) -> dict:
        instruments: dict[tuple, dict] = {}
        for row in self.store.counts():
            key = (row["corpus"], row["key"], row["version"])
            entry = instruments.setdefault(key, {"corpus": key[0], "key": key[1], "version": key[2],
                                                 "units_by_kind": {}})
            entry["units_by_kind"][row["kind"]] = row["count_all"]
        corpora = sorted({k[0] for k in instruments})
        return {"workspace": self.location, "embedder": self.embedder.name,
                "corpora": corpora,
                "instruments": [instruments[k] for k in sorted(instruments)],
                "edges_by_type": self.graph.counts(),
                "edges_by_corpus": {c: self.graph.counts(c) for c in corpora},
                "terms": self.terms.count(),
                "unresolved": [{"source": e.source, "target": e.target, "type": e.type.value,
                                "evidence": e.evidence} for e in self.graph.unresolved()],
                "pending": pending_note(self.pending),
                "inconsistencies": self.inconsistencies(corpora)}

    def inconsistencies(self, corpora: list[str] | None = None) -> list[str]:
        """What does not fit together (store/checks.py); empty when all is well."""
        from .store.checks import inconsistencies
        return inconsistencies(self.store, self.graph, getattr(self, "meta", {}), corpora)

    @property
    def entities(self):
        """The workspace's entities of law (authorities, parties, instruments, documents, terms),
        their aggregated relations and the entity graph (entities/index.py), built on first use."""
        if getattr(self, "_entities", None) is None:
            from .entities.index import EntityIndex
            self._entities = EntityIndex.build(self.store, self.store.where(DOCUMENTS))
        return self._entities

    def collections_built(self) -> set[str]:
        from .entities.collections import available
        return available(self.store.db)

    def build_collections(self) -> dict:
        """(Re)build the entity, relation, summary and term vector collections (entities/collections.py)
        from the workspace as committed now; only texts not in the embedding cache are embedded."""
        with self._writing():
            self._begin()
            return self._build_collections()

    def _build_collections(self) -> dict:
        from .entities.collections import build
        self._entities = None
        return build(self)

    def _refresh_collections(self) -> list[Problem]:
        """After a committed write, rebuild the collections if built; a failure is reported."""
        self._entities = None
        if not self.collections_built():
            return []
        try:
            self._build_collections()
        except Exception as e:          # noqa: BLE001 -- the corpus is stored; say what to run
            return [Problem("collections", 0, f"the collections were not rebuilt ({type(e).__name__}: {e}); "
                            "run `workbench entities --build-collections`")]
        return []

    def search_all(self, query: str, k: int = 10, collections=None, where: Filter | None = None):
        """Multi-vector search (entities/collections.py): the units and the collections given
        (default: every one built), fused."""
        from .entities.collections import search
        return search(self, query, k, tuple(collections or ("units", *sorted(self.collections_built()))), where)

    @property
    def retriever(self):
        if getattr(self, "_retriever", None) is None:
            from .retrieve.retriever import Retriever
            self._retriever = Retriever(self.store, self.graph, self.embedder,
                                        self.store.where(DOCUMENTS), self.terms.all())
        return self._retriever

    def retrieve(self, question: str, config=None, qvec=None):
        """Ranked evidence with provenance under a RetrievalConfig (default: the workspace's)."""
        return self.retriever.retrieve(question, config or self.config.retrieval, qvec)

    def ask(self, question: str, config=None, backend: str | None = None, llm=None, on_token=None, result=None,
            evidence: str = "compose"):
        """An Answer (answer/ask.py): text, citations, reasoning chain, which backend answered;
        `evidence` "compose" (retrieved provisions) or "local" (LOCAL entity context)."""
        from .answer.ask import ask
        return ask(self, question, config, backend, llm, on_token, result, evidence)

    def search(self, query: str, mode: str = "bm25", k: int = 10, language: str = "",
               where: Filter | None = None) -> list[Hit]:
        from .retrieve.retriever import check_question
        check_question(query)
        if mode == "bm25":
            return self.store.search_text(query, language or guess_language(query), k, where)
        if mode == "dense":
            return self.store.search_vector(self.embedder.embed_queries([query])[0], k, where)
        raise ValueError(f"unknown search mode {mode!r}: bm25 or dense")


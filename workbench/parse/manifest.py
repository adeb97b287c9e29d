"""Corpora described by a `corpus.toml` manifest (format: ../shared/corpora/README.md)."""
from __future__ import annotations

import re
import unicodedata
import tomllib
from dataclasses import replace
from pathlib import Path

from ..core.engine import parse_each
from ..core.errors import CorpusError
from ..core.records import DocumentMeta, Problem
from . import CorpusParse
from .dates import parse_date
from .languages import parser_for
from .text import check_inside, confined, read_text, without_nul
from .timeline import close_versions

REQUIRED = ("key", "version", "file")
# a corpus name, instrument key or version label: it names files in the workspace and is part
# of unit ids, so no path separators, no "..", no "@", quotes or control characters
SAFE = re.compile(r"[^\W_][\w.\-+]*")


def safe_name(value: str, what: str) -> str | None:
    """Why `value` cannot be a corpus name / key / version, or None when it can."""
    value = unicodedata.normalize("NFC", value)           # names copied from macOS come decomposed
    if not SAFE.fullmatch(value) or ".." in value or len(value) > 120:
        return (f"{what} {value!r} is not a plain name: use letters, digits, '.', '-', '_' "
                "(no '/', '..', '@', quotes or spaces), at most 120 characters")
    return None


def import_manifest(path: str | Path, follow_symlinks: bool = False) -> CorpusParse:
    """Parse every document listed in a corpus.toml. A bad entry or file is reported as a
    Problem naming the manifest line or the file; the other documents still parse. Files are
    read only inside the manifest's folder (symbolic links out of it: `follow_symlinks`)."""
    path = Path(path)
    manifest = path / "corpus.toml" if path.is_dir() else path
    with confined(manifest.parent, follow_symlinks):
        return _import(manifest)


def _import(manifest: Path) -> CorpusParse:
    if not manifest.exists():
        raise CorpusError(str(manifest), 0, "no corpus.toml here: write one (see the format in "
                          "the README) or point at a folder in a known format")
    text = read_text(manifest)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        line = getattr(e, "lineno", 0) or _line_of_error(str(e))
        raise CorpusError(str(manifest), line, f"not valid TOML: {e}") from None
    name = str(data.get("name") or manifest.parent.name)
    if why := safe_name(name, "corpus name"):
        raise CorpusError(str(manifest), _line_of(text, "name"), why)
    language = str(data.get("language") or "")
    out = CorpusParse(name=name, language=language, source=str(manifest.parent))
    lines = [i + 1 for i, l in enumerate(text.splitlines()) if l.strip() == "[[documents]]"]
    docs = []
    entries = data.get("documents", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise CorpusError(str(manifest), _line_of(text, "documents"),
                          "`documents` must be a list of [[documents]] tables, one per document version")
    for i, entry in enumerate(entries):
        line = lines[i] if i < len(lines) else 0
        try:
            docs.append(_meta(entry, name, language, manifest, line))
        except CorpusError as e:
            out.result.problems.append(Problem(e.file, e.line, e.reason, "error"))
    if not docs and not out.result.problems:
        out.result.problems.append(Problem(str(manifest), 0, "the manifest lists no [[documents]]", "error"))
    docs = _drop_duplicate_versions(docs, manifest, lines, out)
    docs = close_versions(docs)
    # read here, parse on the ingest engine (core/engine.py); problems keep the document order
    jobs, slots = [], []            # slots: (meta, problems met reading it, its job or None)
    for meta in docs:
        file = manifest.parent / meta.source_file
        meta, problems = replace(meta, source_file=str(file)), []
        try:
            text = without_nul(read_text(file), str(file), problems)
        except CorpusError as e:
            slots.append((meta, problems + [Problem(e.file, e.line, e.reason, "error")], None))
            continue
        jobs.append((parser_for(meta.language), (text, meta)))
        slots.append((meta, problems, len(jobs) - 1))
    results = parse_each(jobs)
    for meta, problems, job in slots:
        out.result.problems.extend(problems)
        parsed = results[job] if job is not None else None
        if isinstance(parsed, CorpusError):
            out.result.problems.append(Problem(parsed.file, parsed.line, parsed.reason, "error"))
        elif parsed is not None:
            out.documents.append(meta)
            out.result.extend(parsed)
    return out


def _meta(entry: dict, corpus: str, language: str, manifest: Path, line: int) -> DocumentMeta:
    where = str(manifest)
    missing = [f for f in REQUIRED if not entry.get(f)]
    if missing:
        raise CorpusError(where, line, f"document entry lacks {', '.join(missing)}: add "
                          + ", ".join(f'{f} = "…"' for f in missing))
    for field in ("key", "version"):
        if why := safe_name(str(entry[field]), field):
            raise CorpusError(where, line, why)
    file = manifest.parent / str(entry["file"])
    if Path(str(entry["file"])).is_absolute() or ".." in Path(str(entry["file"])).parts:
        raise CorpusError(where, line, f"file {entry['file']!r} (key {entry['key']}) is outside the corpus folder "
                          f"{manifest.parent} (an absolute path or '..'): a corpus is read "
                          "only inside its folder; copy the file into it")
    try:
        check_inside(file)
    except CorpusError as e:
        raise CorpusError(where, line, f"file {entry['file']!r} (key {entry['key']}): {e.reason}") from None
    if not file.is_file():
        raise CorpusError(where, line, f"file {entry['file']!r} (key {entry['key']}) does not exist "
                          f"next to the manifest: fix the `file` field or add the file")
    try:
        adopted = parse_date(entry.get("adopted"))
        effective = parse_date(entry.get("effective")) or adopted
        repealed = parse_date(entry.get("repealed"))
    except ValueError as e:
        raise CorpusError(where, line, str(e)) from None
    if effective is None:
        raise CorpusError(where, line, f"{entry['key']}@{entry['version']} has no `effective` "
                          "(or `adopted`) date: add effective = YYYY-MM-DD")
    if repealed is not None and repealed <= effective:
        raise CorpusError(where, line, f"{entry['key']}@{entry['version']}: repealed {repealed} is not after "
                          f"effective {effective}: fix one of the dates")
    for field in ("replaces", "amends"):
        value = entry.get(field, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise CorpusError(where, line, f"{field} = {value!r}: give a list of instrument keys or "
                              f'key@version ids, e.g. {field} = ["other-act@2012"]')
    return DocumentMeta(
        key=str(entry["key"]), version=str(entry["version"]),
        title=str(entry.get("title", "")), language=str(entry.get("language") or language),
        kind=str(entry.get("kind", "law")), source_file=str(entry["file"]), corpus=corpus,
        adopted=adopted, effective_from=effective, effective_to=repealed,
        replaces=tuple(entry.get("replaces", ())), amends=tuple(entry.get("amends", ())),
        issuer=str(entry.get("issuer", "")))


def _drop_duplicate_versions(docs, manifest, lines, out):
    seen, kept = {}, []
    for meta in docs:
        if meta.doc_id in seen:
            out.result.problems.append(Problem(
                str(manifest), 0, f"duplicate version label {meta.doc_id} (files {seen[meta.doc_id]} "
                f"and {meta.source_file}): give each version of a key its own `version`; "
                f"the second was skipped", "error"))
            continue
        seen[meta.doc_id] = meta.source_file
        kept.append(meta)
    return kept


def _line_of(text: str, field: str) -> int:
    return next((i + 1 for i, l in enumerate(text.splitlines()) if l.strip().startswith(field)), 0)


def _line_of_error(message: str) -> int:
    m = re.search(r"line (\d+)", message)
    return int(m.group(1)) if m else 0

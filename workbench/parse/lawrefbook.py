"""Folders of Chinese statutes in markdown, as LawRefBook publishes them.

One file per instrument version. The version comes from the file name
(`会计法(2024-06-28).md` -> "2024-06-28", `tudi-guanli-fa_2019.md` -> "2019"), or else
from the latest date in the header block (the lines before `<!-- INFO END -->`).
The version starts to apply on the front matter's `effective_date`, or on the date
in "自…起施行" (in the text, else on a line of the header of its own: "2022年4月10日 施行") when
that is later than the version date, or on the version date.
Amendment acts (…修正案, 关于修改《X》的决定) record the instrument they amend.
"""
from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from ..core.engine import parse_each
from ..core.errors import CorpusError
from ..core.records import DocumentMeta, Problem
from . import CorpusParse
from .dates import parse_date, zh_dates
from .text import read_text, without_nul
from .timeline import close_versions
from .zh import INFO_END, parse_zh

RE_NAME_DATE = re.compile(r"^(.*?)[(（](\d{4}-\d{2}-\d{2})[)）]$")
RE_NAME_YEAR = re.compile(r"^(.*?)_(\d{4})$")
RE_COMMENCE = re.compile(r"自(.{6,14}?日)起(?:施行|生效)")
# the header's own line for it ("2022年4月10日 施行"), where the text states none (a judicial interpretation
# amended by a decision: 民诉法解释 2022 was adopted on 2022-03-22 and applies from 2022-04-10)
RE_COMMENCE_LINE = re.compile(r"^\s*(\d{4}\s*年\s*\d{1,2}\s*月\s*\d{1,2}\s*日)\s*起?(?:施行|生效)\s*$", re.MULTILINE)
RE_AMENDS = re.compile(r"^(?:中华人民共和国)?([^《》〈〉]+?)修正案(?:[（(][^）)]*[）)])?$")   # the title is an amendment act
RE_DECISION = re.compile(r"关于修改《(.+?)》(?:等[^《》]*)?的决定")
KINDS = (("修正案", "amendment"), ("决定", "decision"), ("解释", "interpretation"),
         ("规定", "provision"), ("条例", "regulation"), ("办法", "rule"), ("宪法", "constitution"),
         ("法", "law"))


def import_lawrefbook(path: str | Path, name: str | None = None) -> CorpusParse:
    root = Path(path)
    files = sorted(p for p in root.rglob("*.md") if not p.name.startswith(("_", "README")))
    out = CorpusParse(name=name or root.name, language="zh", source=str(root))
    if not files:
        raise CorpusError(str(root), 0, "no statute files (*.md) found in this folder")
    texts, docs = {}, []
    for file in files:
        try:
            text = without_nul(read_text(file), str(file), out.result.problems)
            meta = _meta(file, text, out.name)
        except CorpusError as e:
            out.result.problems.append(Problem(e.file, e.line, e.reason, "error"))
            continue
        texts[meta.doc_id] = _front_matter(text)[1]     # front matter blanked, line numbers kept
        docs.append(meta)
    docs = _unique(docs, out)
    docs = close_versions(docs)
    for meta, parsed in zip(docs, parse_each((parse_zh, (texts[m.doc_id], m)) for m in docs)):
        if isinstance(parsed, CorpusError):
            raise parsed
        out.documents.append(meta)
        out.result.extend(parsed)
    return out


def _meta(file: Path, text: str, corpus: str) -> DocumentMeta:
    front, body = _front_matter(text)
    header = body.split(INFO_END)[0] if INFO_END in body else "\n".join(body.splitlines()[:12])
    title = front.get("title") or _title(body) or file.stem
    stem, version = file.stem, None
    for rx in (RE_NAME_DATE, RE_NAME_YEAR):
        m = rx.match(stem)
        if m:
            stem, version = m.group(1), m.group(2)
            break
    dates = zh_dates(header)
    version_date = parse_date(version) if version and "-" in version else (max(dates) if dates else None)
    if version is None:
        if version_date is None:
            version_date = parse_date(front.get("publish"))
        if version_date is None:
            raise CorpusError(str(file), 1, "no version: put the date in the file name, "
                              "e.g. 会计法(2024-06-28).md, or a dated line before <!-- INFO END -->")
        version = version_date.isoformat()
    effective = parse_date(front.get("effective_date")) or _commencement(body, version_date) \
        or _commencement(header, version_date, RE_COMMENCE_LINE) or version_date
    return DocumentMeta(key=stem, version=version, title=title, language="zh", kind=_kind(title),
                        source_file=str(file), corpus=corpus, adopted=version_date,
                        effective_from=effective, amends=_amends(title))


def _front_matter(text: str) -> tuple[dict, str]:
    if not text.startswith("---"):
        return {}, text
    end = text.find("\n---", 3)
    if end < 0:
        return {}, text
    fields = {}
    for line in text[3:end].splitlines():
        if ":" in line:
            k, v = line.split(":", 1)
            fields[k.strip()] = v.strip().strip('"')
    # keep line numbers: blank out the front matter instead of cutting it
    return fields, "\n" * text[:end + 4].count("\n") + text[end + 4:]


def _title(body: str) -> str:
    for line in body.splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return ""


def _commencement(body: str, version_date: dt.date | None, rx: re.Pattern = RE_COMMENCE) -> dt.date | None:
    for m in rx.finditer(body):
        found = zh_dates(m.group(1))
        if found and (version_date is None or found[0] > version_date) and \
                (version_date is None or (found[0] - version_date).days < 400):
            return found[0]
    return None


def _kind(title: str) -> str:
    return next((kind for word, kind in KINDS if word in title), "law")


def _amends(title: str) -> tuple[str, ...]:
    bare = re.sub(r"^中华人民共和国", "", title)
    m = RE_AMENDS.match(bare) or RE_DECISION.search(bare)
    if not m:
        return ()
    target = re.sub(r"^中华人民共和国", "", m.group(1))
    return (target,)


def _unique(docs: list[DocumentMeta], out: CorpusParse) -> list[DocumentMeta]:
    seen, kept = set(), []
    for d in docs:
        if d.doc_id in seen:
            out.result.problems.append(Problem(d.source_file, 0, f"duplicate version {d.doc_id}; skipped", "error"))
            continue
        seen.add(d.doc_id)
        kept.append(d)
    return kept

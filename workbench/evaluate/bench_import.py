"""Turn public benchmark question files into the evaluation format (JSON lines: id,
question, category, gold, optional answer). Gold references are resolved against the
corpus the questions are asked over (ALQAC laws, ObliQA rulebooks), with the importers'
own id functions, so they match what `workbench ingest` stores; a reference that resolves
to nothing is reported with its question id, and a question left without gold is skipped.

- ALQAC: any question file — 2021/2022 (`question_id` or `id`, `text`,
  `relevant_articles`), 2023 (`example_id`, `statement`, `legal_passages`), train or
  test — or a folder, read for every such file under it. The laws are found beside the
  file or above it (`alqac2022/law.json`, `alqac2023/legal_passages.json`) or given.
- ObliQA: one split file (train / dev / test: `QuestionID`, `Question`, `Passages`) or a
  folder holding exactly one; the rulebooks (`StructuredRegulatoryDocuments.zip`) are
  found beside it or given.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import CorpusError


@dataclass
class Imported:
    rows: list[dict] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)     # "<question id>: what could not be mapped"
    seen: set[str] = field(default_factory=set)


def _read_list(path: Path) -> list:
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except json.JSONDecodeError as e:
        raise CorpusError(str(path), e.lineno, f"not valid JSON: {e.msg}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise CorpusError(str(path), 0, f"cannot be read ({e})") from None
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise CorpusError(str(path), 1, "expected a JSON list of question objects")
    return data


def _exists(path: Path) -> Path:
    if not path.exists():
        raise CorpusError(str(path), 0, "no such file or folder")
    return path


# -- ALQAC --------------------------------------------------------------------------------------
ALQAC_TEXT = ("text", "statement", "question")
ALQAC_LAW_FILES = ("law.json", "legal_passages.json")


def _is_alqac_questions(path: Path) -> bool:
    if path.name in ALQAC_LAW_FILES:
        return False
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except (ValueError, OSError):
        return False
    return isinstance(data, list) and bool(data) and isinstance(data[0], dict) \
        and any(k in data[0] for k in ALQAC_TEXT) and "articles" not in data[0]


def _alqac_laws(start: Path, laws: str | Path | None) -> Path:
    """The folder (or file) holding the laws the questions cite: given, or, up to two levels
    above `start`, the folder holding alqac20xx/ law folders, else one with law.json /
    legal_passages.json."""
    if laws is not None:
        return _exists(Path(laws))
    folder = start if start.is_dir() else start.parent
    near = (folder, *folder.parents)[:3]
    for d in near:                       # the folder of every year's laws first, then one year's
        if any(any(d.glob(f"alqac*/{f}")) for f in ALQAC_LAW_FILES):
            return d
    for d in near:
        if any((d / f).exists() for f in ALQAC_LAW_FILES):
            return d
    raise CorpusError(str(start), 0, "no ALQAC laws beside it (law.json, legal_passages.json): give --laws FOLDER")


def _alqac_prefix(path: Path) -> str:
    year = next((p for p in reversed(path.parts[:-1]) if re.fullmatch(r"alqac\d{4}", p, re.I)), None)
    return year.lower() if year else f"alqac-{path.stem}"


def alqac_questions(path: str | Path, laws: str | Path | None = None) -> Imported:
    """ALQAC questions from a file or every question file under a folder."""
    from ..parse.alqac import alqac_unit_id, import_alqac
    path = _exists(Path(path))
    files = [path] if path.is_file() else sorted(f for f in path.rglob("*.json") if _is_alqac_questions(f))
    if not files:
        raise CorpusError(str(path), 0, "no ALQAC question file here (a JSON list with text / statement)")
    known = {u.id for u in import_alqac(_alqac_laws(path, laws)).result.units if u.kind == "article"}
    out = Imported()
    for file in files:
        prefix = _alqac_prefix(file)
        for n, row in enumerate(_read_list(file), 1):
            qid = f"{prefix}-{row.get('id') or row.get('example_id') or row.get('question_id') or n}"
            text = next((row[k] for k in ALQAC_TEXT if isinstance(row.get(k), str) and row[k].strip()), None)
            refs = row.get("relevant_articles") or row.get("legal_passages") or []
            gold = []
            for ref in refs:
                uid = alqac_unit_id(str(ref.get("law_id", "")), str(ref.get("article_id", "")))
                if uid in known:
                    gold.append(uid)
                else:
                    out.problems.append(f"{qid}: law {ref.get('law_id')!r} article {ref.get('article_id')!r} "
                                        "is not in the laws")
            row_out = {"id": qid, "question": text, "category": prefix, "gold": list(dict.fromkeys(gold)),
                       "answer": row.get("answer") or row.get("label")}
            _keep(out, row_out, file, n)
    return out


def _keep(out: Imported, row: dict, file: Path, n: int) -> None:
    if not row["question"]:
        out.problems.append(f"{row['id']}: no question text ({file.name} item {n}); skipped")
    elif not row["gold"]:
        out.problems.append(f"{row['id']}: no gold that maps to a unit ({file.name} item {n}); skipped")
    elif row["id"] in out.seen:
        out.problems.append(f"{row['id']}: duplicate question id ({file.name} item {n}); skipped")
    else:
        out.seen.add(row["id"])
        out.rows.append(row)


# -- ObliQA -------------------------------------------------------------------------------------
def _obliqa_split(path: Path) -> Path:
    if path.is_file():
        return path
    found = sorted(path.glob("ObliQA*.json"))
    if len(found) != 1:
        names = ", ".join(f.name for f in found) or "none"
        raise CorpusError(str(path), 0, f"ObliQA split files here: {names}; name one file (train, dev or test)")
    return found[0]


def obliqa_questions(path: str | Path, rulebooks: str | Path | None = None) -> Imported:
    """ObliQA questions of one split; category = how many passages the question needs (1, 2, 3+)."""
    from ..parse.obliqa import ZIP_NAME, PassageIndex, import_obliqa
    split = _obliqa_split(_exists(Path(path)))
    books = _exists(Path(rulebooks)) if rulebooks is not None else split.parent
    if books.is_dir() and not (books / ZIP_NAME).is_file():
        raise CorpusError(str(split), 0, f"no {ZIP_NAME} beside it: give --rulebooks FOLDER_OR_ZIP")
    rows = _read_list(split)
    index = PassageIndex.of(import_obliqa(books).result.units)
    out = Imported()
    for n, row in enumerate(rows, 1):
        qid = str(row.get("QuestionID") or f"{split.stem}-{n}")
        gold = []
        for p in row.get("Passages") or []:
            try:
                uid = index.resolve(int(p.get("DocumentID")), str(p.get("PassageID", "")), p.get("Passage") or "")
            except (TypeError, ValueError):
                uid = None
            if uid:
                gold.append(uid)
            else:
                out.problems.append(f"{qid}: document {p.get('DocumentID')} passage {p.get('PassageID')!r} "
                                    "is not in the rulebooks")
        gold = list(dict.fromkeys(gold))
        k = len(gold)
        _keep(out, {"id": qid, "question": row.get("Question"), "gold": gold,
                    "category": "1-passage" if k == 1 else "2-passages" if k == 2 else "3+-passages"}, split, n)
    return out


def write_jsonl(rows: list[dict], path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path

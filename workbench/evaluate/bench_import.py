"""Turn public benchmark question files into the evaluation format (JSON lines:
id, question, category, gold, optional answer). Gold passages are mapped to unit ids
with the importers' own id functions, so they match what `workbench ingest` stores."""
from __future__ import annotations

import json
from pathlib import Path

from ..parse.alqac import alqac_unit_id


def alqac_questions(folder: str | Path) -> list[dict]:
    """ALQAC 2022 question.json (520 questions) and ALQAC 2023 train.json (76 statements)."""
    root = Path(folder)
    out = []
    for file, kind in (("alqac2022/question.json", "2022"), ("alqac2023/train.json", "2023")):
        path = root / file
        if not path.exists():
            continue
        for row in json.loads(path.read_text(encoding="utf-8")):
            refs = row.get("relevant_articles") or row.get("legal_passages") or []
            out.append({
                "id": f"alqac{kind}-{row.get('id') or row.get('example_id')}",
                "question": row.get("text") or row.get("statement"),
                "category": f"alqac{kind}",
                "gold": [alqac_unit_id(r["law_id"], str(r["article_id"])) for r in refs],
                "answer": row.get("answer") or row.get("label"),
            })
    return out


def obliqa_questions(folder: str | Path) -> list[dict]:
    """ObliQA development split: category = how many passages the question needs (1, 2, 3+)."""
    from ..parse.obliqa import PassageIndex, import_obliqa
    root = Path(folder)
    index = PassageIndex.of(import_obliqa(root).result.units)
    out = []
    for row in json.loads((root / "ObliQA_dev.json").read_text(encoding="utf-8")):
        gold = [index.resolve(p["DocumentID"], p["PassageID"], p.get("Passage", "")) for p in row["Passages"]]
        gold = list(dict.fromkeys(g for g in gold if g))
        n = len(gold)
        out.append({"id": row["QuestionID"], "question": row["Question"],
                    "category": "1-passage" if n == 1 else "2-passages" if n == 2 else "3+-passages",
                    "gold": gold})
    return out


def write_jsonl(rows: list[dict], path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path

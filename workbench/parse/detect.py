"""Pick the importer for a path from what is there."""
from __future__ import annotations

from pathlib import Path

from ..core.errors import CorpusError
from . import CorpusParse
from .text import confined


def load_corpus(path: str | Path, follow_symlinks: bool = False) -> CorpusParse:
    """Parse the corpus at `path`: a corpus.toml (or a folder holding one), a LawRefBook
    markdown folder, a pháp điển folder, ALQAC JSON or the ObliQA rulebooks. Nothing outside
    the corpus folder is read; symbolic links leading out of it only with `follow_symlinks`."""
    p = Path(path)
    if not p.exists():
        raise CorpusError(str(p), 0, "no such file or folder")
    root = p.parent if p.is_file() else p
    with confined(root, follow_symlinks):
        return _load(p, follow_symlinks)


def _load(p: Path, follow_symlinks: bool) -> CorpusParse:
    if p.name == "corpus.toml" or (p.is_dir() and (p / "corpus.toml").exists()):
        from .manifest import import_manifest
        return import_manifest(p, follow_symlinks)
    if p.is_dir():
        names = {c.name for c in p.iterdir()}
        if "StructuredRegulatoryDocuments.zip" in names:
            from .obliqa import import_obliqa
            return import_obliqa(p)
        if names & {"law.json", "legal_passages.json"} or any(n.startswith("alqac") for n in names):
            from .alqac import import_alqac
            return import_alqac(p)
        if "van-ban" in names or p.name == "van-ban":
            from .phapdien import import_phapdien
            return import_phapdien(p)
        if any(p.rglob("*.md")):
            from .lawrefbook import import_lawrefbook
            return import_lawrefbook(p)
    raise CorpusError(str(p), 0, "unknown corpus format: add a corpus.toml manifest (format in "
                      "../shared/corpora/README.md) listing the documents, their versions and dates")

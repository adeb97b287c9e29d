"""Reading source files: encoding detection and clear errors for what cannot be read."""
from __future__ import annotations

import os
import re
import unicodedata
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from ..core.errors import CorpusError

# invisible format characters (Unicode category Cf: zero-width space and joiners, soft hyphen, word
# joiner, direction marks, BOM): typesetting left in a source, never part of what a provision says --
# a line holding only them is blank, and two versions differing only by them differ in form only
INVISIBLE = re.compile("[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]")


def visible(text: str) -> str:
    """`text` without invisible format characters (INVISIBLE)."""
    return INVISIBLE.sub("", text)


_BOMS = ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))


def decode(data: bytes, name: str) -> str:
    """Decode bytes as UTF-8 (with or without BOM), UTF-16, or GB18030/GBK;
    anything else (binary, unknown encodings) raises CorpusError naming the file."""
    if not data.strip():
        raise CorpusError(name, 0, "the file is empty")
    for bom, enc in _BOMS:
        if data.startswith(bom):
            return data.decode(enc)
    if b"\x00" in data[:4096]:
        # UTF-16 without BOM shows NULs in every other byte; anything else is binary
        even, odd = data[0:4096:2].count(0), data[1:4096:2].count(0)
        for enc, zeros in (("utf-16-le", odd), ("utf-16-be", even)):
            if zeros > len(data[:4096]) // 4:
                try:
                    return data.decode(enc)
                except UnicodeDecodeError:
                    pass
        raise CorpusError(name, 0, "binary file (contains NUL bytes): not a text document; "
                          "remove it from the manifest or convert it to UTF-8 text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        utf8_error = e
    from charset_normalizer import from_bytes
    best = from_bytes(data).best()
    if best is not None and best.encoding and best.chaos < 0.3:
        enc = "gb18030" if best.encoding.lower() in ("gb2312", "gbk", "gb18030") else best.encoding
        return data.decode(enc)
    line = data[:utf8_error.start].count(b"\n") + 1
    raise CorpusError(name, line, f"not UTF-8 and no other encoding fits ({utf8_error.reason} "
                      f"at byte {utf8_error.start}); convert it, e.g. `iconv -f GBK -t UTF-8`")


def without_nul(text: str, file: str, problems: list) -> str:
    """The text with NUL characters (a damaged or padded file) removed, and a warning naming
    the first line that held one."""
    if "\x00" not in text:
        return text
    from ..core.records import Problem
    line = text[:text.index("\x00")].count("\n") + 1
    problems.append(Problem(file, line, f"{text.count(chr(0))} NUL characters removed (damaged or padded "
                            "file?); check the text around this line", "warning"))
    return text.replace("\x00", "")


# the corpus folder being read (parse/detect.py sets it): nothing outside it is read, and a
# symbolic link that leads outside it is refused unless the user allowed it (--follow-symlinks)
_ROOT: ContextVar[tuple[Path, Path, bool] | None] = ContextVar("corpus_root", default=None)


@contextmanager
def confined(root: str | Path, follow_symlinks: bool = False):
    """Reads inside the block must stay inside `root` (resolved), unless `follow_symlinks`."""
    token = _ROOT.set((Path(root).resolve(), Path(os.path.abspath(root)), follow_symlinks))
    try:
        yield
    finally:
        _ROOT.reset(token)


def check_inside(path: str | Path) -> None:
    """CorpusError when `path` leads outside the corpus folder being read."""
    box = _ROOT.get()
    if box is None:
        return
    root, written, follow = box
    real = Path(path).resolve()
    link = Path(os.path.abspath(path)).is_relative_to(written)     # named inside, leads outside
    if real.is_relative_to(root) or follow and link:
        return
    raise CorpusError(str(path), 0, "a symbolic link to " + str(real) + " outside the corpus folder: copy the file "
                      "into the folder, or allow links with --follow-symlinks" if link else
                      "outside the corpus folder: a corpus reads only inside its folder; copy the file into it")


def read_text(path: str | Path) -> str:
    path = Path(path)
    check_inside(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise CorpusError(str(path), 0, "file not found") from None
    except IsADirectoryError:
        raise CorpusError(str(path), 0, "is a folder, expected a text file") from None
    # composed letters (NFC): a file saved decomposed (macOS) reads as the same text, so that its
    # words match a question's and the rules' cue words
    return unicodedata.normalize("NFC", decode(data, str(path)))

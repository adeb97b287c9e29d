"""How much of an amendment is the amendment's own, and how much is a renaming made everywhere.

A revision often renames an authority or a term throughout the instrument ("道路运输管理机构"
-> "交通运输主管部门", "工商行政管理部门" -> "市场监督管理部门", "the FSA" -> "the Regulator")
in the same act as it changes a few provisions in substance. Every article naming the renamed
body is then amended in text, but only those few changed what the law says: a question asking
what a revision changed is about them.

A substitution (one difflib operation on the texts normalised for form, see
`versions.formal`: the text deleted, the text inserted) that the same version step makes in at
least SYSTEMATIC articles is the step's renaming; an article's *substance* is the number of
characters (words for alphabetic text) its other operations change. An article whose every
operation is such a renaming has substance 0 -- unless both versions keep using both names
(`transfer`: a task moved between two bodies the law keeps). Only a substitution is a renaming (text
replaced by other text): a phrase inserted or deleted throughout ("或者备案", a co-authority
dropped from every list) changes what the law says -- unless it is made inside a body's name
("交通[运输]主管部门"), which is the name replaced by another (`_in_name`). An operation touching a figure (an amount,
a period, a count) or a modal word (应当 / 可以 / 不得, shall / may / must, phải / được /
không) is never one either: raising every fine, or making every "may" a "shall", is a change of
substance however many articles it touches.
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Callable

from ..parse.languages import has_han
from ..parse.numerals import CN_NUM

# A renaming made by a revision reaches many articles; two may share a substitution by chance
# (the same clause edited in a duty and in its penalty), three seldom do. Design choice, not
# fitted: checked on the steps of 道路运输条例 2019 -> 2022 (an institutional renaming) and of the
# hand-checked alignment sample (benchmarks/handcheck/version_alignment.csv).
SYSTEMATIC = 3
# Characters either side of an edit made inside a body's name that stand for the name (`_in_name`):
# two hold the word before and after it ("交通" + 运输 + "主管"). Design choice, not fitted.
CONTEXT = 2
# what an edit inside a name may not hold: another body joined to it (、公安 / 和公安 …) or another level
# of government (市级 -> 市级以上) -- those change who acts, a renaming does not. Erring towards substance:
# a name whose own words hold 和 ("住房[和城乡]建设主管部门") is left a change of substance too.
_NOT_RENAMING = re.compile(r"[、，,和及与或]|以上|以下|级")
GAP = 2             # Chinese: changes this close are one operation (a name is rarely split by more)
_FIGURE = re.compile(rf"[{CN_NUM}]")
_MODAL = re.compile(r"应当|必须|可以|不得|禁止|严禁|\b(?:shall|must|may|not|should|phải|được|không|cấm)\b", re.IGNORECASE)


Op = tuple[str, str]
Bodies = Callable[[str], list[tuple[int, int]]]     # a text -> the (start, end) of each public body it names


def operations(old: str, new: str, bodies: Bodies | None = None) -> list[tuple[Op, tuple[Op, ...]]]:
    """(deleted, inserted) for each change between two texts already normalised for form:
    characters for Chinese, words otherwise; each with the pieces it was joined from. Chinese
    changes no more than GAP characters apart are one operation: a renamed body is one
    substitution ("道路运输管理机构" -> "交通运输主管部门"), not the pieces a character diff cuts it
    into (道路 -> 交通, + 主, 理机构 -> 部门)."""
    cjk = has_han(old + new)
    a, b = (list(old), list(new)) if cjk else (re.findall(r"\w+|[^\w\s]", old), re.findall(r"\w+|[^\w\s]", new))
    joiner, gap = ("", GAP) if cjk else (" ", 0)
    spans: list[list] = []          # [i1, i2, j1, j2, pieces]
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        piece = (joiner.join(a[i1:i2]), joiner.join(b[j1:j2]))
        if spans and i1 - spans[-1][1] <= gap and j1 - spans[-1][3] <= gap:
            spans[-1][1], spans[-1][3] = i2, j2
            spans[-1][4].append(piece)
        else:
            spans.append([i1, i2, j1, j2, [piece]])
    out = [((joiner.join(a[i1:i2]), joiner.join(b[j1:j2])), tuple(pieces)) for i1, i2, j1, j2, pieces in spans]
    if cjk and bodies is not None and any(len(p) == 1 and not (i2 > i1 and j2 > j1) for i1, i2, j1, j2, p in spans):
        found: dict[str, list[tuple[int, int]]] = {}       # the bodies named in each text, found once

        def named(text: str) -> list[tuple[int, int]]:
            if text not in found:
                found[text] = bodies(text)
            return found[text]
        out = [_in_name(old, new, span, named) or op for span, op in zip(spans, out)]
    return out


def _in_name(old: str, new: str, span: list, named) -> tuple[Op, tuple[Op, ...]] | None:
    """A Chinese insertion or deletion made inside the name of a public body ("交通[运输]主管部门",
    "农业[农村]主管部门": the body renamed by adding to its name) as the substitution of the name's
    characters around it, up to CONTEXT on each side within the name (交通主管 -> 交通运输主管), the
    edit itself kept as its one piece (its size): counted across the step's articles like any
    substitution, so that made throughout the revision it is a renaming. Inside a name: strictly
    within a span `named` gives for the text holding the edit (the entity rules' authorities, passed
    in by the workspace) -- a phrase inserted after a name ("，或者备案") is no part of it; an edit
    adding or dropping a body or a level of government (`_NOT_RENAMING`) is never a renaming."""
    i1, i2, j1, j2, pieces = span
    if len(pieces) != 1 or (i2 > i1 and j2 > j1):
        return None
    inserted = j2 > j1
    text, s, e = (new, j1, j2) if inserted else (old, i1, i2)
    if _NOT_RENAMING.search(text[s:e]):
        return None
    name = next(((a, b) for a, b in named(text) if a < s and e < b), None)
    if name is None:
        return None
    left, right = text[max(name[0], s - CONTEXT):s], text[e:min(name[1], e + CONTEXT)]
    edited = left + text[s:e] + right
    return ((left + right, edited) if inserted else (edited, left + right)), tuple(pieces)


def transfer(op: Op, reach: int, older: str, newer: str) -> bool:
    """Is a substitution made throughout a step a transfer of a task between two bodies the law keeps,
    not a renaming? A renamed body ("商务主管部门" -> "畜牧兽医行政主管部门", "the FSA" -> "the Regulator")
    is replaced wherever the law named it by a name the law did not use: its old name is (nearly) gone
    from the newer version, the new one absent from the older. When the newer version still names the
    replaced body as often as the step replaced it, and the older one already named the body put in its
    place as often, both bodies stay in the law and the step moved what one of them does to the other
    (生物安全法 2024: the approvals of human genetic resources from the 科学技术 to the 卫生健康 authority,
    both named throughout either version): that is what the revision changed in substance. "As often as
    the step replaced it" is a design choice (a name the law keeps is named again elsewhere; a leftover
    of a renamed one is named once or twice), not fitted."""
    if not older or not newer or not (_name_like(op[0]) and _name_like(op[1])):
        return False
    return _count(newer, op[0]) >= reach and _count(older, op[1]) >= reach


# A Chinese body's distinctive name (its sector: 科学技术, 卫生健康, 食品药品监督管理) has at least this many
# characters; a shorter substitution is a function word, a mark or a generic part of any name (主管 ->
# 行政, 和 -> 、), found everywhere in both versions. Design choice, not fitted.
NAME_MIN = 3


def _name_like(text: str) -> bool:
    """Could `text` be (the distinctive part of) a body's name? Chinese: NAME_MIN Han characters or more
    and nothing else; other scripts: a capitalised word ("FSA", "Regulator", "Bộ Y tế")."""
    if has_han(text):
        return len(text) >= NAME_MIN and not re.search(r"[^\u4e00-\u9fff]", text)
    return any(w[:1].isupper() for w in text.split())


def _count(text: str, piece: str) -> int:
    """Occurrences of `piece` in `text`: as characters in Chinese, as whole words otherwise ("Board" is not
    found in "Boards")."""
    if has_han(piece):
        return text.count(piece)
    return len(re.findall(rf"(?<!\w){re.escape(piece)}(?!\w)", text))


def _size(op: tuple[str, str]) -> int:
    cjk = has_han(op[0] + op[1])
    return max(len(op[0]), len(op[1])) if cjk else max(len(op[0].split()), len(op[1].split()))


def substance(ops_by_pair: dict[tuple[str, str], list[tuple[Op, tuple[Op, ...]]]],
              older: str = "", newer: str = "") -> dict[tuple[str, str], int]:
    """For the amended article pairs of one version step (pair -> its operations, each with its
    pieces), the size of what each pair changed outside the step's renamings. A joined operation
    that is no renaming as a whole counts only its pieces that are none either (a renamed body
    next to an edit of its own; two renamed bodies that only appear together here). `older` and
    `newer`: the whole text of each version (normalised as the operations' texts), when known -- a
    substitution both of whose names each version keeps using moved a task between them
    (`transfer`), which is no renaming."""
    reach: dict[Op, int] = {}
    for ops in ops_by_pair.values():
        for op in {x for whole, pieces in ops for x in (whole, *pieces)}:
            reach[op] = reach.get(op, 0) + 1

    def renaming(op: Op) -> bool:
        return reach.get(op, 0) >= SYSTEMATIC and bool(op[0]) and bool(op[1]) \
            and not _FIGURE.search(op[0] + op[1]) and not _MODAL.search(op[0] + " " + op[1]) \
            and not transfer(op, reach[op], older, newer)

    def size(whole: Op, pieces: tuple[Op, ...]) -> int:
        if renaming(whole):
            return 0
        return sum(_size(p) for p in pieces if not renaming(p)) if len(pieces) > 1 else _size(pieces[0])
    return {pair: sum(size(w, p) for w, p in ops) for pair, ops in ops_by_pair.items()}

"""Amendments in Vietnamese text (part of the "vi-citation" extractor, see vi.py).

An amending verb opening a piece of a sentence (up to ";", ":", ". " or "như sau") acts
on the chains after it:

    Sửa đổi, bổ sung Điều 5 như sau:            AMENDS a5, op modify
    Bổ sung khoản 3 vào Điều 5                  AMENDS a5, op insert, new_label "5/c3"
    Bổ sung Điều 5a vào sau Điều 5              AMENDS a5, op insert, new_label "5a"
    Bãi bỏ khoản 2 Điều 32                      AMENDS a32/c2, op delete
    … thay thế Nghị định số 36/2016/NĐ-CP       REPLACES the instrument
    Bãi bỏ Thông tư số 15/2015/TT-BYT           REPEALS the instrument
    Nghị định số 38/2012/NĐ-CP … hết hiệu lực   REPEALS the instrument
    Bãi bỏ các văn bản sau đây: a) … b) …       REPEALS each item's instrument

new_label follows zh_amend.py: the new unit's path below its document without "/a"
("5/c3"; several new units of one instruction joined by ";"). An item naming no
instrument amends the one named by the lead-in above it (the article's title "Sửa đổi,
bổ sung một số điều của Nghị định số …", or "1. Sửa đổi … của Luật X:"): `Context`.
A verb inside a sentence acts only on what follows it at once, and not when another
instrument is the subject ("Nghị định số 65/2009/NĐ-CP sửa đổi … Nghị định số 123/2003/NĐ-CP"
describes, it does not amend).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.records import EdgeType
from .vi_grammar import NUM, RE_INSTRUMENT, Chain, Here, find_chains, targets

# an amending verb, not in "đã được sửa đổi", "Luật sửa đổi, bổ sung …" (names)
RE_VERB = re.compile(r"(?<!được )(?<!đã )(?<!bị )(?<!Luật )(?<!Nghị định )(?<!Thông tư )(?<!\w)"
                     r"(?P<verb>(?i:sửa đổi,?\s+bổ sung|sửa đổi|bổ sung|bãi bỏ|hủy bỏ|thay thế))(?!\w)")
# a list marker before a verb that opens its line: "1. ", "a) ", "- "
RE_MARKER = re.compile(r"^\s*(?:\d+[a-zđ]?[.)]\s*|[a-zđ]\d?\)\s*|[-+]\s*)?$")
# words between an opening verb and its target that make it no amendment
# ("Bổ sung hồ sơ theo quy định tại khoản 2 …")
RE_NOT_AMEND = re.compile(r"(?<!\w)(?:theo|đối với|trường hợp|nếu|khi|được|phải|để|gồm|thì|"
                          r"hồ sơ|tài liệu|kinh phí|văn bản)(?!\w)")
# a verb in the middle of a sentence amends only what follows it at once ("…, bãi bỏ Điều 5")
RE_ADJACENT = re.compile(r"[\s,]*(?:(?:các|toàn bộ|một số điều của|cho)\s+)*")
RE_QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"")
# sentence pieces: an amending verb acts up to ";", ":", ". " or "như sau"
RE_SEGMENT_END = re.compile(r"[;:]|\.(?=\s|$)|\bnhư sau\b")
# "… hết hiệu lực" (what precedes it in the piece is repealed)
RE_EXPIRES = re.compile(r"(?<!\w)hết hiệu lực(?!\w)")
# "Bãi bỏ các văn bản sau đây:" / "Các Nghị định sau đây hết hiệu lực …:" (a list follows)
RE_LIST_LEAD = re.compile(r"(?i:sau đây|sau)\b[^:]*:\s*$|(?i:văn bản|nghị định|thông tư|quyết định)[^:]*:\s*$")
# "bổ sung khoản 3 vào [sau|trước] Điều 5": the place of the new unit
RE_INSERT_INTO = re.compile(r"\s+vào\s+(?:(?P<pos>sau|trước)\s+)?")


@dataclass
class Context:
    """What an amending lead-in names for the lines below it."""
    instrument: str | None = None
    article: str | None = None
    list_type: EdgeType | None = None      # REPEALS / REPLACES: each item below names one


class Amendments:
    """Mixed into vi.Reader: reads the amending side of a line. Needs `out`, `_cite` and
    `_references` from the reader."""

    def _lead(self, s: str, source: str, here: Here, ctx: Context, depth: int) -> Context | None:
        """Read a line (depth -1: the article's title, for its amendments only); return the
        context it sets for the lines below it when it is a lead-in ("…như sau:", "…:")."""
        chains = find_chains(s)
        before = len(self.out)
        taken: set[int] = set()                         # ids of the chains read as amendments
        new_ctx = None
        lead_in = depth < 0 or s.rstrip().endswith(":") or bool(re.search(r"\bnhư sau\b", s))
        for start, end in segments(s):
            piece = [c for c in chains if start <= c.start < end]
            verb = _opening_verb(s, start, end)
            named = self._amendments(s, piece, verb, source, here, ctx, taken) if verb else None
            whole = self._whole(s, start, end, piece, verb, source)
            if not lead_in:
                continue
            if verb and (named or whole or taken or not piece):
                new_ctx = Context(named or whole or ctx.instrument,
                                  _single_article(piece, taken) or ctx.article)
            repeal = verb is not None and verb[2] in ("bãi bỏ", "hủy bỏ", "thay thế") and not piece
            if not whole and RE_LIST_LEAD.search(s[start:]) and (repeal or RE_EXPIRES.search(s, start, end)):
                etype = EdgeType.REPLACES if verb and verb[2] == "thay thế" else EdgeType.REPEALS
                new_ctx = Context(ctx.instrument, ctx.article, etype)
        if depth >= 0:
            self._references(s, source, here, ctx, skip=taken, chains=chains)
        else:
            del self.out[before:]                      # a title names, its text cites
        return new_ctx

    def _amendments(self, s, piece, verb, source, here, ctx, taken) -> str | None:
        """AMENDS citations for the chains of one piece after its verb; returns the
        instrument they amend when one is named (for the lines below a lead-in)."""
        v_start, v_end, word, opening = verb
        named = None
        skip_next = False
        for i, c in enumerate(piece):
            if skip_next:
                skip_next = False
                continue
            if c.start < v_end:
                continue
            gap = _gap(s, v_end, c.start, piece, taken)
            if not _accepts(gap, opening):
                continue
            taken.add(id(c))
            instrument = c.instrument if c.instrument or c.self_named else ctx.instrument
            named = named or c.instrument
            if word == "bổ sung" and not re.search(r"cụm từ|nội dung|\btừ\b", gap):
                into = RE_INSERT_INTO.match(s, c.end)
                nxt = piece[i + 1] if i + 1 < len(piece) else None
                anchor = nxt if into and nxt is not None and nxt.start == into.end() else None
                if anchor is not None:
                    taken.add(id(anchor))
                    skip_next = True
                    instrument = anchor.instrument if anchor.instrument or anchor.self_named else instrument
                    named = named or anchor.instrument
                self._inserts(c, anchor, into and into.group("pos"), instrument, source, here, ctx,
                              _evidence(s, v_start, anchor or c))
                continue
            op = "delete" if word in ("bãi bỏ", "hủy bỏ") else "modify"
            for a, cl, p in targets(c, here, None if c.instrument else ctx.article):
                self._cite(source, _evidence(s, v_start, c), EdgeType.AMENDS, instrument, a, cl, p, op=op)
        return named

    def _inserts(self, c: Chain, anchor: Chain | None, pos: str | None, instrument, source, here, ctx,
                 evidence: str):
        """'Bổ sung khoản 3 vào Điều 5' -> AMENDS /a5, op insert, new_label '5/c3'. As in
        zh_amend.py, new_label is the new unit's path below its document without '/a', and
        the target is the place named ("vào [sau] …"), else the new unit itself."""
        level = next((k for k in "pca" if k in c.levels), None)
        if level is None:
            return
        upper = {k: v for k, v in c.levels.items() if k != level}
        if not upper and anchor is not None:          # "vào Điều 5"; "vào sau khoản 1": its parent
            upper = {k: v for k, v in anchor.levels.items() if not (pos and k == _lowest(anchor))}
        article = (upper.get("a") or [None])[0]
        if level != "a" and article is None:
            article = ctx.article or (here.article if instrument is None else None)
            if article is None:
                return
        clause = (upper.get("c") or [None])[0] if level == "p" else None
        place = targets(anchor, here, ctx.article)[:1] if anchor is not None else []
        new = [{"a": (x, None, None), "c": (article, x, None), "p": (article, clause, x)}[level]
               for x in c.levels[level]]
        a, cl, p = place[0] if place else new[0]
        self._cite(source, evidence, EdgeType.AMENDS, instrument, a, cl, p, op="insert",
                   new_label=";".join(n[0] + (f"/c{n[1]}" if n[1] else "") + (f"/p{n[2]}" if n[2] else "")
                                      for n in new))

    def _whole(self, s, start, end, piece, verb, source) -> str | None:
        """Whole instruments replaced, repealed or amended in one piece; returns the first."""
        mentions = [m for m in RE_INSTRUMENT.finditer(s, start, end)
                    if not any(c.chain_end <= m.start() < c.end for c in piece)]
        expires = RE_EXPIRES.search(s, start, end)
        if expires and not verb:
            first = next((m for m in mentions if m.start() < expires.start() and re.search(NUM, m.group(0))), None)
            if first is not None:
                self._cite(source, first.group(0), EdgeType.REPEALS, first.group(0))
                return first.group(0)
            return None
        if not verb or not mentions:
            return None
        v_start, v_end, word, opening = verb
        after = [m for m in mentions if m.start() >= v_end]
        if not after or not _accepts(_gap(s, v_end, after[0].start(), piece, set()), opening, whole=True):
            return None
        gap = RE_QUOTED.sub("", s[v_end:after[0].start()])
        if any(c.start < after[0].start() and c.start >= v_end for c in piece):
            return None                               # "Bãi bỏ Điều 5 … của Thông tư số …"
        if word == "thay thế":
            etype, op = EdgeType.REPLACES, None
        elif not opening and word != "bãi bỏ":
            return None                                # "… và sửa đổi Hiến pháp": no whole amendment
        elif word in ("bãi bỏ", "hủy bỏ"):
            partial = re.search(r"quy định|nội dung|cụm từ", gap)
            etype, op = (EdgeType.AMENDS, "delete") if partial else (EdgeType.REPEALS, None)
        else:
            etype, op = EdgeType.AMENDS, "modify"
        items = [after[0]] + [m for m in after[1:] if etype != EdgeType.AMENDS and re.search(NUM, m.group(0))]
        for m in items:
            self._cite(source, m.group(0), etype, m.group(0), op=op)
        return after[0].group(0)

    def _list_item(self, s: str, source: str, ctx: Context) -> bool:
        """An item under "Bãi bỏ các văn bản sau đây:": its first instrument."""
        m = RE_INSTRUMENT.search(s)
        if m is None or not RE_MARKER.match(s[:m.start()]) and len(s[:m.start()].strip()) > 3:
            return False
        self._cite(source, m.group(0), ctx.list_type, m.group(0))
        self._references(s[:m.start()] + " " * len(m.group(0)) + s[m.end():], source,
                         Here.of(source), ctx)
        return True


def segments(s: str) -> list[tuple[int, int]]:
    out, start = [], 0
    for m in RE_SEGMENT_END.finditer(s):
        out.append((start, m.start()))
        start = m.end()
    out.append((start, len(s)))
    return [(a, b) for a, b in out if b > a]


def _opening_verb(s: str, start: int, end: int):
    """(start, end, verb in lower case, opens the piece?) of the last amending verb of
    s[start:end] that is followed by something, or None."""
    verbs = list(RE_VERB.finditer(s, start, end))
    if not verbs:
        return None
    first = verbs[0]
    opening = bool(RE_MARKER.match(s[start:first.start()]))
    v = first if opening else verbs[-1]
    if not opening and RE_INSTRUMENT.search(s, start, v.start()):
        return None                                    # "Nghị định số 65/2009 sửa đổi … Nghị định số 123/2003"
    word = re.sub(r"\s+", " ", v.group("verb").lower())
    word = "sửa đổi" if word.startswith("sửa đổi") else word
    return v.start(), v.end(), word, opening and v is first


def _gap(s: str, a: int, b: int, piece: list[Chain], taken: set) -> str:
    """The text between a verb and its target, without quotations and amended chains."""
    text = s[a:b]
    for c in piece:
        if id(c) in taken and a <= c.start and c.end <= b:
            text = text.replace(s[c.start:c.end], " ")
    return RE_QUOTED.sub(" ", text)


def _accepts(gap: str, opening: bool, whole: bool = False) -> bool:
    if opening:
        return len(gap) <= 80 and not RE_NOT_AMEND.search(gap)
    return bool(RE_ADJACENT.fullmatch(gap)) or (whole and re.fullmatch(r"\s*(?:cho\s+)?", gap) is not None)


def _evidence(s: str, verb_start: int, last: Chain) -> str:
    """'Sửa đổi, bổ sung Điều 5', or the chain alone when the verb is far."""
    return s[verb_start:last.end].strip() if last.end - verb_start <= 160 else last.text


def _lowest(c: Chain) -> str | None:
    return next((k for k in "pca" if k in c.levels), None)


def _single_article(piece: list[Chain], taken: set) -> str | None:
    arts = [a for c in piece if id(c) in taken for a in c.levels.get("a", [])]
    return arts[0] if len(arts) == 1 else None

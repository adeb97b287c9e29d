"""AMENDS operations in Chinese amendment acts (修正案, 关于修改《X》的决定).

The source of an operation is the act's item unit (a1 for "一、…"; the article for the
宪法 form "第三条 宪法第十条…"; the document unit when an act has no items). The new
text an item quotes is masked first, so that only the instruction is read:

    将刑法第一百五十一条第三款修改为：“…”            modify   a151/c3
    在刑法第十七条后增加一条，作为第十七条之一：“…”    insert   a17, new_label "17-1"
    在刑法第二百九十九条中增加一款作为第二款：“…”      insert   a299, new_label "299/c2"
    增加一款作为第四款：“…”                          insert   (the article named before)
    增加一条，作为《解释》第七条：“…”                  insert   a7 (no place named: the new unit)
    原第三款作为第四款，修改为：“…”                  modify   a375/c3, new_label "375/c4"
    删去刑法第一百九十九条 / 删去第二条中的“…”         delete a199 / modify a2
    宪法第十条第四款“…”修改为：“…” / 宪法序言…          modify a10/c4 / the document

new_label is the new unit's id path below its document without the leading "/a":
"17-1" (article), "299/c2" (clause), "62/c1/p7" (point; items of an article with a single
unnumbered paragraph sit in its clause 1, as the parser numbers them). An item without
an instrument of its own ("将第五条修改为") amends the act's target (`amends`); in a
decision that amends several instruments, "一、修改《X》" names the one that follows.
Renumbering alone ("原第二款作为第三款") is not an operation.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..core.records import EdgeType, Unit
from . import Citation
from .resolve import norm_name
from .zh_grammar import BARE_NAMES, N, QUOTE, RE_TOK, RUN, strip_state, targets

RE_ACT = re.compile(r"^(.+?)修正案(?:[（(][^（）()]*[）)])?$")        # 刑法修正案（七）, 宪法修正案（1988年）
RE_DECISION = re.compile(r"关于修改《(.+?)》(?:等[^《》]*)?的决定$")   # …关于修改《X》(等N件…)的决定


def amended_by(name: str) -> tuple[str, ...]:
    """The instrument an amendment act amends, from its title or key (() if it is no such act)."""
    bare = strip_state(re.sub(r"[（(]\d{4}-\d{2}-\d{2}[）)]$", "", name or ""))
    m = RE_ACT.match(bare) or RE_DECISION.search(bare)
    return (strip_state(m.group(1)),) if m else ()


# 宪法第六十七条全国人民代表大会常务委员会职权第二十项: words naming the list, before its item
WORDS = rf"(?:(?!作为|改为|修改)[\u4e00-\u9fff]){{1,20}}?(?=第[（(]?{N}[）)]?[款项])"


@lru_cache(maxsize=64)
def _ops_regex(extra: tuple[str, ...]) -> re.Pattern:
    names = "|".join(re.escape(n) for n in sorted({*BARE_NAMES, *extra}, key=len, reverse=True))
    ins = rf"(?:《[^《》]{{1,80}}》|{names})"          # the instrument an instruction names
    return re.compile("|".join([
        # 一、修改《X》 / 十七、《X》 (a line of its own): in a decision amending several
        # instruments, what follows changes X
        rf"(?P<sw>(?:^|\n)(?:{N}、)?(?:修改(?=《)|(?=《[^《》]{{1,80}}》[：:]?[ \t]*(?:\n|$)))"
        rf"(?P<sw_ins>《[^《》]{{1,80}}》))",
        # 宪法序言第七自然段… / 将引言修改为: the text before the articles (on the document unit)
        rf"(?P<pre>(?:将|把)?(?P<pre_ins>{ins})?(?:序言|引言))",
        # [在][刑法]第十七条后增加一条，作为第十七条之一 / …第二百九十九条中增加一款作为第二款 /
        # 宪法第六十二条“…”中增加一项，作为第七项 / 增加一款作为第四款 / 增加一条，作为《解释》第七条
        rf"(?P<ins>(?:在)?(?P<ins_ins>{ins})?(?P<ins_at>{RUN})?(?:{QUOTE})?(?:后|之后|中)?"
        rf"增加{N}(?P<ins_kind>条|款|项)[，,]?(?:分别)?(?:作为)?(?:{ins})?(?P<ins_new>{RUN}))",
        # 删去[刑法]第一百九十九条 / 删去第五十条第二款 / 删去第二条中的“…” (words only: modify)
        rf"(?P<del>(?:删去|删除)(?P<del_ins>{ins})?(?P<del_at>{RUN})(?P<del_words>中的?|末尾的?|规定的|(?=“))?)",
        # [将][刑法][原]第X条[第Y款][：][“old”][中的“…”][，][作为第Z款，]修改为[第W条] / …增加规定 / …后增写
        rf"(?P<mod>(?:将|把)?(?P<mod_ins>{ins})?(?P<mod_old>原)?(?P<mod_at>{RUN}|该条|该款)[：:]?(?:{QUOTE})?"
        rf"(?:中的?|条首部分|开始部分|末尾的?|{WORDS})?(?P<mod_sub>{RUN})?(?:{QUOTE}(?:[和、，,]?{QUOTE})*)?[，,]?"
        rf"(?:(?:作为|改为)(?P<mod_new>{RUN})[，,]?)?(?:合并)?(?:相应)?"
        rf"(?:修改为(?P<mod_new2>{RUN})?|增加规定|[后前]?增写))",
        # 原第二款作为第三款 / 第七项至第十五项相应改为第八项至第十六项: renumbering, no operation
        rf"(?P<ren>原?{RUN}(?:相应)?(?:作为|改为|调整为){RUN})",
        # “…”修改为 / 这一自然段相应修改为 / 在“…”前增写: more change to the unit named before
        rf"(?P<more>(?:{QUOTE}|这一(?:自然段|款|条|项))(?:相应)?修改为|在{QUOTE}[前后]增写)",
    ]))


@dataclass
class _Context:
    instrument: str | None
    art: str | None = None
    clause: str | None = None
    document: bool = False          # the last unit named was the preamble / the whole document


def amendments(unit: Unit, skeleton: str, amends: tuple[str, ...]) -> tuple[list[Citation], list[tuple[int, int]]]:
    """The operations of one item (`skeleton`: its text with quotations masked), and the
    spans they cover (so that they are not read again as references)."""
    versions = dict(a.partition("@")[::2] for a in amends)       # a manifest may say "key@version"
    amends = tuple(versions)
    ctx = _Context(amends[0] if amends else None)
    out: dict[tuple, Citation] = {}
    spans = []
    for m in _ops_regex(amends).finditer(skeleton):
        spans.append(m.span())
        text = unit.text[m.start():m.end()].strip()
        kind = m.lastgroup              # the alternative that matched (its group closes last)
        if kind == "sw":
            ctx = _Context(_name(m.group("sw_ins"), amends))
            continue
        if kind == "ren":
            continue
        named = m.group(f"{kind}_ins") if kind in ("pre", "ins", "del", "mod") else None
        if named:
            ctx.instrument = _name(named, amends)
        if ctx.instrument is None:
            continue
        for op, triple, new, end in _operations(kind, m, ctx):
            # several units inserted at one place: each gets the evidence up to its own label
            evidence = unit.text[m.start():end].strip() if end else text
            c = _citation(unit, evidence, ctx.instrument, op, triple, new, versions.get(ctx.instrument) or None)
            out.setdefault((c.instrument, c.path(), op, new), c)
    return list(out.values()), spans


def _operations(kind: str, m: re.Match, ctx: _Context):
    """Yield (op, (article, clause, point) or None for the whole document, new_label,
    end of the evidence or None for the whole match)."""
    if kind == "pre":
        ctx.document, ctx.art, ctx.clause = True, None, None
        yield "modify", None, None, None
    elif kind == "more":
        if ctx.document:
            yield "modify", None, None, None
        elif ctx.art:
            yield "modify", (ctx.art, ctx.clause, None), None, None
    elif kind == "ins":
        anchor = targets(m.group("ins_at"), ctx.art, ctx.clause)[-1] if m.group("ins_at") else \
            (None if m.group("ins_kind") == "条" else (ctx.art, ctx.clause, None))
        news = targets(m.group("ins_new"), anchor[0] if anchor else None, anchor[1] if anchor else None)
        ends = [m.start("ins_new") + t.end() for t in RE_TOK.finditer(m.group("ins_new"))]
        for i, new in enumerate(news):
            end = ends[i] if len(ends) == len(news) and len(news) > 1 else None
            # the target is the unit named as the place ("第十七条后", "第二百九十九条中"); when
            # none is named ("增加一条，作为第七条"), the new unit itself
            yield "insert", (anchor[0], None, None) if anchor and anchor[0] else new, _label(new), end
            if m.group("ins_kind") == "条":
                ctx.art, ctx.clause = new[0], None
            else:
                ctx.art = anchor[0] if anchor else None
        ctx.document = False
    elif kind == "del":
        op = "modify" if m.group("del_words") is not None else "delete"
        for t in _relative(m.group("del_at"), ctx):
            yield op, t, None, None
    elif kind == "mod":
        at = m.group("mod_at")
        found = [(ctx.art, ctx.clause if at == "该款" else None, None)] if at in ("该条", "该款") \
            else _relative(at, ctx)
        if m.group("mod_sub"):
            found = [s for t in found for s in targets(m.group("mod_sub"), t[0], t[1])]
        new = m.group("mod_new") or m.group("mod_new2")
        relabel = targets(new, found[-1][0], found[-1][1]) if new and found and found[-1][0] else []
        for i, t in enumerate(found):
            if t[0] is not None:
                yield "modify", t, _label(relabel[i]) if i < len(relabel) else None, None


def _relative(run: str, ctx: _Context) -> list[tuple]:
    """Targets of a run; one that starts below the article ("原第三款") is in the article named before."""
    found = [t for t in targets(run, ctx.art, ctx.clause) if t[0] is not None]
    if found:
        ctx.art, ctx.clause, ctx.document = found[-1][0], found[-1][1], False
    return found


def _label(t: tuple) -> str | None:
    art, clause, point = t
    if art is None:
        return None
    if point:
        return f"{art}/c{clause or 1}/p{point}"
    return f"{art}/c{clause}" if clause else art


def _name(written: str, amends: tuple[str, ...]) -> str:
    """《解释》 in a decision amending 《关于…的解释》 is that one; other names stay as written."""
    name = written.strip("《》")
    bare = norm_name(name)
    for a in amends:
        if bare and norm_name(a).endswith(bare):
            return a
    return name


def _citation(unit: Unit, text: str, instrument: str, op: str, t: tuple | None, new: str | None,
              version: str | None) -> Citation:
    art, clause, point = t or (None, None, None)
    return Citation(source=unit.id, text=text, type=EdgeType.AMENDS, instrument=instrument,
                    article=art, clause=clause or ("1" if point else None), point=point,
                    op=op, new_label=new, confidence=0.9, extractor="zh", version=version)

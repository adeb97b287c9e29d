"""Evidence as a lawyer reads it, under a token budget.

Order: each retrieved article in rank order, with the other versions of the same article
beside it in date order ([ORIGINAL] ... [AMENDED <date>]), amending provisions after the
provision they amend ([AMENDED BY]), and provisions reached through a citation right
after the provision that cites them ([REFERENCED]). Clause hits are folded into their
article (the article text holds its clauses). Each block carries its instrument, version
and validity dates.

Budget: blocks are admitted by priority (cited units first, then by rank) while they
fit; the first block that does not fit is cut at a sentence end if at least a third of
it fits (marked "[…]"), and every later block is dropped and listed in `dropped`.
"""
from __future__ import annotations

import datetime as dt
import re

from ..retrieve.expand import article_of
from ..core.records import Block, Evidence, Hit, Unit, Via

CJK = re.compile(r"[\u3000-\u9fff\uf900-\ufaff]")
SENTENCE_END = re.compile(r"(?<=[。；！？;!?])|(?<=\.)\s+|\n+")


def approx_tokens(text: str) -> int:
    """A tokenizer-free estimate that errs high for small vocabularies: a CJK character ~2.2 tokens
    (SmolLM2's BPE), other text ~3.2 characters per token."""
    cjk = len(CJK.findall(text))
    return int(cjk * 2.2 + (len(text) - cjk) / 3.2) + 1


ARTICLE = {"zh": "第{}条", "vi": "Điều {}", "en": "Article {}"}
IN_FORCE = {"zh": "施行 {} 至 {}", "vi": "hiệu lực {} – {}", "en": "in force {} – {}"}
IN_FORCE_FROM = {"zh": "自 {} 起施行", "vi": "hiệu lực từ {}", "en": "in force from {}"}


def heading(u: Unit, titles: dict[str, str]) -> str:
    """Instrument, version, validity dates and the unit's title or number, in the unit's language."""
    lang = u.language if u.language in ARTICLE else "en"
    doc = titles.get(u.id.split("/")[0], u.key)
    span = (IN_FORCE[lang].format(u.effective_from or "?", u.effective_to) if u.effective_to
            else IN_FORCE_FROM[lang].format(u.effective_from or "?"))
    where = u.title or (ARTICLE[lang].format(u.label) if u.label else u.kind)
    return f"{doc} ({u.version}; {span}) {where}".strip()


def last_edge(via: Via) -> str:
    """The last edge of a path "seed -AMENDS-> x <-REFERENCES- y": "<-REFERENCES-" (or "")."""
    return via.last.arrow if via.last else ""


def _tag(h: Hit, u: Unit, versions: list[Unit]) -> str:
    edge = last_edge(h.via)
    if edge == "-AMENDS->":          # reached from the amending provision: this is what it amends
        return "ORIGINAL"
    if edge == "<-AMENDS-":
        return "AMENDED BY"
    if len(versions) > 1:
        return "ORIGINAL" if versions[0].id == u.id else f"AMENDED {u.effective_from or u.version}"
    if edge == "-REFERENCES->":      # the provision before it on the path cites this one
        return "REFERENCED"
    if edge == "<-REFERENCES-":      # this one cites the provision before it (a sanction citing its duty)
        return "CITES"
    return "EVIDENCE"


def compose(hits: list[Hit], cited: list[str], titles: dict[str, str], budget: int,
            as_of: dt.date | None = None, older=lambda uid: None) -> Evidence:
    """`hits` in rank order (each with its unit), `cited` the ids the retriever would cite,
    `older(uid)` the previous version of a unit (version alignment), or None."""
    arts: dict[str, Hit] = {}
    for h in hits:                                    # fold clauses into their article
        a = article_of(h.unit_id)
        arts.setdefault(a, h)
    units = {a: h.unit for a, h in arts.items() if h.unit is not None and h.unit.id == a}
    cited_art = {article_of(c) for c in cited}
    # versions of one article: same instrument key and article label
    family: dict[str, list[Unit]] = {}
    root: dict[str, str] = {}
    for u in units.values():
        r, seen = u.id, {u.id}
        while (prev := older(r)) and prev not in seen:      # cycle-safe walk to the first version
            seen.add(prev)
            r = prev
        root[u.id] = r
        family.setdefault(r, []).append(u)
    for fam in family.values():
        fam.sort(key=lambda u: (u.effective_from or dt.date.min, u.version))
    # reading order: rank order by version family (versions together in date order); a family
    # reached through a citation goes right after the family that cites it
    groups: list[str] = []
    for a in arts:
        if a in units and root[a] not in groups:
            groups.append(root[a])
    for a in list(arts):
        if a not in units or "REFERENCES" not in last_edge(arts[a].via):
            continue
        src = article_of(arts[a].via.last.frm)            # the unit just before the last edge
        g, sg = root[a], root.get(src)
        if sg and sg != g and groups.index(g) > groups.index(sg):
            groups.remove(g)
            groups.insert(groups.index(sg) + 1, g)
    order = [v.id for g in groups for v in family[g]]
    # admission by priority under the budget
    priority = [a for a in arts if a in cited_art] + [a for a in arts if a not in cited_art]
    priority += [a for a in order if a not in priority]
    admitted: dict[str, str] = {}
    used, dropped, full = 0, [], False
    for a in priority:
        u = units.get(a)
        if u is None:
            continue
        head = heading(u, titles)
        cost = approx_tokens(head) + approx_tokens(u.text) + 12
        if not full and used + cost <= budget:
            admitted[a], used = u.text, used + cost
            continue
        room = budget - used - approx_tokens(head) - 12
        if not full and room >= cost / 3:
            admitted[a] = cut(u.text, room)
            used = budget
        else:
            dropped.append(a)
        full = True
    blocks = []
    for a in order:
        if a not in admitted:
            continue
        u, h = units[a], arts[a]
        text = admitted[a]
        blocks.append(Block(a, _tag(h, u, family[root[a]]), heading(u, titles), text, u,
                            truncated=text != u.text, via=str(h.via)))
    return Evidence(blocks, as_of, dropped, budget, used)


def cut(text: str, tokens: int) -> str:
    """The longest run of whole sentences within `tokens` (separators kept), marked as cut;
    a first sentence longer than that is cut at the characters that fit."""
    out, start = "", 0
    for m in SENTENCE_END.finditer(text):
        piece = text[start:m.end()]
        if approx_tokens(out + piece) > tokens:
            break
        out, start = out + piece, m.end()
    else:
        if approx_tokens(out + text[start:]) <= tokens:
            out = text
    if not out.strip():
        out = text[:1]
        for i in range(1, len(text) + 1):
            if approx_tokens(text[:i]) > tokens:
                break
            out = text[:i]
    return out.rstrip() + " […]"

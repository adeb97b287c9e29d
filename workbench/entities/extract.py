"""Entity mentions in a unit's text, by rule, for zh / vi / en, and merging of obvious variants.

Types: `authority` (public bodies: governments, departments, ministries, courts, regulators),
`party` (those regulated: 经营者, doanh nghiệp, Authorised Person, licensee), `instrument`
(laws and rules named in the text: 《…》, "Luật …", "Nghị định số …", "the … Regulations"),
`document` (certificates, licences, permits) and, in definition provisions, `term` (a defined
term that is none of the others). The cues are the grammar of legal drafting in each language
-- the heads a name ends in (部门 / 机构 / 人民政府, 者 / 人 / 企业, 许可证 / 证明; "Bộ", "Sở",
"Ủy ban", "giấy phép"; capitalised phrases ending in Authority / Court / Regulations) and the
level prefixes of the state (县级以上人民政府, 国务院, cấp tỉnh) -- not names taken from examples.

Confidence (per mention) is set by pattern strength: a closed form (《title》, a numbered
instrument, a court) 0.95; a level prefix or a fixed head phrase with its name (县级以上人民政府
X部门, "Ủy ban nhân dân cấp tỉnh", "Financial Services Regulator") 0.85-0.9; a head with a
modifier found by scanning to the nearest function word 0.6-0.75; a bare generic head (许可证,
"licence", "the court") 0.5-0.6. Where mentions overlap the more confident, then longer, wins.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, replace

from ..core.orthography import one_form
from ..core.records import Unit
from ..parse.roles import role_of
from . import rules_en, rules_vi, rules_zh
from .definitions import defined_spans, genus, heading_of  # noqa: F401  (defined_spans: re-exported)

TYPES = ("authority", "party", "instrument", "document", "term")


@dataclass(frozen=True)
class Mention:
    entity_id: str
    type: str
    surface: str
    unit_id: str
    start: int          # character offsets into unit.text
    end: int
    confidence: float


@dataclass(frozen=True)
class Entity:
    id: str
    type: str
    name: str                     # canonical name: the most frequent surface form
    surfaces: tuple[str, ...]
    language: str


# -- normalisation -----------------------------------------------------------------------------
_HALF = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}
_PAIRS = {"《": "》", "“": "”", '"': '"', "'": "'", "‘": "’", "(": ")", "[": "]", "「": "」", "『": "』", "〈": "〉"}


def normalise(surface: str) -> str:
    """NFC, full-width -> half-width, collapsed spaces, enclosing quotes / brackets removed,
    case-folded (a no-op on Chinese), one Vietnamese tone placement."""
    s = unicodedata.normalize("NFC", surface).translate(_HALF)
    s = re.sub(r"\s+", " ", s).strip()
    while len(s) >= 2 and _PAIRS.get(s[0]) == s[-1] and s[-1] not in s[1:-1]:
        s = s[1:-1].strip()
    return one_form(s.casefold())


def entity_id(type_: str, surface: str) -> str:
    return f"{type_}:{normalise(surface)}"


# -- mentions ----------------------------------------------------------------------------------
_BY_LANGUAGE = {"zh": rules_zh.spans, "vi": rules_vi.spans, "en": rules_en.spans}


def extract(unit: Unit, heading: str = "") -> list[Mention]:
    """The entity mentions in one unit's text, overlaps resolved (more confident, then longer,
    wins); `heading`: the title of the unit's article (definitions.defined_spans)."""
    text = unit.text or ""
    raw = _BY_LANGUAGE.get(unit.language[:2], rules_en.spans)(text)
    kept: list[tuple[str, int, int, float]] = []
    for item in sorted(raw, key=lambda r: (-r[3], r[1] - r[2], r[1])):
        if item[2] > item[1] and text[item[1]:item[2]].strip() and \
                all(item[2] <= k[1] or item[1] >= k[2] for k in kept):
            kept.append(item)
    if role_of(unit) == "definition":
        rules = _BY_LANGUAGE.get(unit.language[:2], rules_en.spans)
        for s, e in defined_spans(unit, heading):
            if all(e <= k[1] or s >= k[2] for k in kept):
                # the class its definition names, else the type the name rules give the whole term
                whole = [t for t, a, b, _ in rules(text[s:e]) if (b - a) >= 0.85 * len(text[s:e].strip())]
                kept.append((genus(text, e, unit.language[:2]) or (whole[0] if whole else "term"), s, e, 0.9))
    out = []
    for type_, s, e, conf in sorted(kept, key=lambda r: r[1]):
        surface = text[s:e].strip()
        s = text.index(surface, s)
        out.append(Mention(entity_id(type_, surface), type_, surface, unit.id, s, s + len(surface), round(conf, 3)))
    return out


def instrument_id(unit: Unit, titles: dict[str, str] | None = None, known=()) -> str:
    """The entity id of the unit's own instrument: its title when known (so 《title》 mentions
    elsewhere meet it), else its key; the variant without 中华人民共和国 / "the" when that is
    among the `known` ids (as `aliases` would merge them)."""
    own = entity_id("instrument", (titles or {}).get(unit.key) or unit.key)
    short = _alias_key(own, False)
    return short if short != own and short in known else own


def _alias_key(id_: str, merge_local: bool) -> str:
    type_, _, form = id_.partition(":")
    form = re.sub(r"^(?:中华人民共和国|the )", "", form)
    if merge_local:
        form = form.replace("级以上地方人民政府", "级以上人民政府")
    return f"{type_}:{form}"


def aliases(entities, merge_local: bool = False) -> dict[str, str]:
    """Variant id -> canonical id for obvious variants of one type: a leading 中华人民共和国 or
    "the", an English plural whose singular is also present; with `merge_local`, 县级以上地方
    人民政府X and 县级以上人民政府X (off by default: the first excludes the central level)."""
    ids = {e.id for e in entities}
    groups: dict[str, list[str]] = {}
    for id_ in sorted(ids):
        key = _alias_key(id_, merge_local)
        for singular in (re.sub(r"ies$", "y", key), re.sub(r"(?<=[a-z])s$", "", key)):
            if singular != key and (singular in ids or singular in groups):
                key = singular
                break
        groups.setdefault(key, []).append(id_)
    out = {}
    for key, members in groups.items():
        canonical = key if key in members else min(members, key=len)
        out.update({m: canonical for m in members if m != canonical})
    return out


def extract_all(units, titles: dict[str, str] | None = None, merge_local: bool = False):
    """(entities, mentions) for many units, variants merged (see `aliases`); each unit's own
    instrument is an entity too (named by its title or key) so relations can start from it."""
    by_id = {u.id: u for u in units}
    mentions = [m for u in units for m in extract(u, heading_of(u, by_id))]
    language = {u.id: u.language[:2] for u in units}
    seen: dict[str, list] = {}
    for m in mentions:
        seen.setdefault(m.entity_id, []).append((m.surface, language.get(m.unit_id, "")))
    for u in units:
        seen.setdefault(instrument_id(u, titles), []).append(((titles or {}).get(u.key) or u.key, u.language[:2]))
    entities = [Entity(i, i.partition(":")[0], "", (), "") for i in seen]
    mapping = aliases(entities, merge_local)
    merged: dict[str, list] = {}
    for id_, forms in seen.items():
        merged.setdefault(mapping.get(id_, id_), []).extend(forms)
    entities = []
    for id_, forms in merged.items():
        names = Counter(f for f, _ in forms)
        langs = Counter(lang for _, lang in forms)
        entities.append(Entity(id_, id_.partition(":")[0], names.most_common(1)[0][0], tuple(sorted(names)),
                               langs.most_common(1)[0][0]))
    mentions = [replace(m, entity_id=mapping.get(m.entity_id, m.entity_id)) for m in mentions]
    return entities, mentions

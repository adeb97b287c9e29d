"""The interactive panel of `02_ask_and_tune`: ipywidgets composed from callables.

No retrieval logic lives here. The panel reads its widgets into a `RetrievalConfig`
(`Panel.config`), hands it to a `retrieve(question, config) -> Result` callable, renders
the result with `render_view` (evidence table + pyvis subgraph, both plain HTML) and asks
an `ask(question, config, backend) -> Answer` callable for the answer. `Panel.for_workbench`
wires those callables to a `Workbench`. `render_view` is also what
`benchmarks/responsiveness.py` times.

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
from ..core.records import EXPANDABLE
from .graphview import SubGraph, evidence_subgraph, iframe, to_html

EDGE_TYPES = EXPANDABLE
QUESTION_TYPES = ("auto", "precise", "definition", "version_diff", "reasoning", "temporal")
MODES = ("graph", "hybrid", "bm25", "dense")
HOPS = ("policy", "0", "1", "2", "3", "4")
COMPONENTS = ("semantic", "lexical", "proximity", "edge", "support", "direct", "current", "role", "named")
DEFAULT_BACKENDS = ("extractive",)


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


def widget_config(base: RetrievalConfig, mode: str, top_k: int, hops: str, edge_types: Iterable[str],
                  weights: dict[str, float], as_of: dt.date | str | None, question_type: str) -> RetrievalConfig:
    """The RetrievalConfig the widgets describe. hops 'policy' keeps the routed policy's hop
    limits; a number allows that many steps along every ticked edge type. All types ticked
    means the policy's types; fewer restricts them."""
    ticked = tuple(t for t in EDGE_TYPES if t in set(edge_types))
    cfg = replace(base, mode=mode, top_k=int(top_k),
                  hops=None if hops == "policy" else tuple((t, int(hops)) for t in EDGE_TYPES),
                  edge_types=None if len(ticked) == len(EDGE_TYPES) else ticked,
                  weights=Weights(**weights),
                  as_of=(as_of.isoformat() if isinstance(as_of, dt.date) else as_of) or None,
                  question_type=None if question_type in ("auto", "", None) else question_type)
    return cfg


FORMULA = {     # what each re-rank part measures (retrieve/rerank.py), shown on hover
    "semantic": "semantic weight × cosine with the topic, min-max over the candidates",
    "lexical": "lexical weight × BM25 (article or its best clause) / the best BM25",
    "proximity": "proximity weight / (1 + graph distance from a seed)",
    "edge": "edge weight × prior of the last edge type on its path",
    "support": "support weight × best linked candidate's base score / the best, × that edge's prior",
    "direct": "bonus: the question names this article (or it defines a term asked about)",
    "current": "bonus: in force today (no date or version named)",
    "role": "bonus: its provision role is what the question asks for",
    "named": "bonus: an instrument the question names",
}


def _fmt(x: float) -> str:
    return f"{x:.3f}".rstrip("0").rstrip(".") if x else "0"


def evidence_table(result, max_text: int = 90) -> str:
    """The ranked evidence as an HTML table: unit id (with the start of its text), kind and
    provision role, score, the score's components, and why the unit is here."""
    comps = getattr(result, "components", {}) or {}
    cited = set(getattr(result, "cited", ()) or ())
    head = "<tr><th>#</th><th>unit</th><th>kind / role</th><th>score</th><th>components</th><th>why it is here</th></tr>"
    rows = []
    for rank, h in enumerate(result.hits, 1):
        u = h.unit
        parts = comps.get(h.unit_id, {})
        comp = " ".join(f"<span title='{html.escape(FORMULA.get(k, k))}'>{k}&nbsp;{_fmt(v)}</span>"
                        for k, v in parts.items() if v) \
            if parts else f"<span>{html.escape(str(h.via))} score</span>"
        text = " ".join((u.text if u else "").split())
        dates = f"in force {u.effective_from or '?'} .. {u.effective_to or 'now'}" if u else ""
        rows.append(
            f"<tr class='{'cited' if h.unit_id in cited else ''}' data-unit='{html.escape(h.unit_id)}'>"
            f"<td>{rank}{'&nbsp;★' if h.unit_id in cited else ''}</td>"
            f"<td title='{html.escape(dates)}&#10;{html.escape(text[:800])}'><div class='uid'>{html.escape(h.unit_id)}</div>"
            f"<div class='txt'>{html.escape(text[:max_text])}{'…' if len(text) > max_text else ''}</div></td>"
            f"<td>{html.escape(u.kind if u else '')}<br><i>{html.escape(u.role if u else '')}</i></td><td>{h.score:.3f}</td><td class='comp'>{comp}</td>"
            f"<td class='via'>{html.escape(str(h.via))}</td></tr>")
    if not rows:
        rows.append("<tr><td colspan='6'>no evidence found</td></tr>")
    route = getattr(result, "route", None)
    caption = (f"routed as <b>{html.escape(route.type)}</b>" + (f", as of {route.as_of}" if route.as_of else "")
               if route else "flat retrieval (no routing)")
    return (f"<div class='wb-evidence'><style>"
            ".wb-evidence table{border-collapse:collapse;font-size:12px;width:100%}"
            ".wb-evidence td,.wb-evidence th{border-bottom:1px solid #e3e3e3;padding:2px 5px;text-align:left;"
            "vertical-align:top;line-height:1.35}.wb-evidence tr.cited td{background:#fff4d6}"
            ".wb-evidence div.uid{font-family:monospace;white-space:nowrap}"
            ".wb-evidence div.txt{color:#666;font-size:11px;max-width:280px;white-space:nowrap;overflow:hidden;"
            "text-overflow:ellipsis}"
            ".wb-evidence td.via{font-family:monospace;font-size:11px;min-width:170px;max-width:260px;"
            "word-break:break-all}"
            ".wb-evidence td.comp{min-width:135px;font-size:11px}"
            ".wb-evidence td.comp span{display:inline-block;margin-right:5px;white-space:nowrap;color:#333}</style>"
            f"<div style='font-size:12px;margin:2px 0'>{len(result.hits)} units, {caption}; ★ = cited — the cited "
            f"units lead the ranking, in the order they are cited, then the rest by score; "
            f"hover a unit for its text, a component for its formula</div><table>{head}{''.join(rows)}</table></div>")


def render_view(question: str, config: RetrievalConfig, retrieve: Callable, neighbours: Callable | None = None,
                texts: Callable | None = None, graph_height: int = 520) -> View:
    """Retrieve and render: the callable behind every panel update."""
    t0 = time.perf_counter()
    result = retrieve(question, config)
    t1 = time.perf_counter()
    table = evidence_table(result)
    allowed = config.edge_types if config.edge_types is not None else EDGE_TYPES
    sub = evidence_subgraph(result.hits, getattr(result, "seeds", ()), result.cited, neighbours, allowed, texts)
    page = to_html(sub, f"{graph_height - 70}px")
    t2 = time.perf_counter()
    return View(question, config, result, table, sub, page,
                {"retrieve": (t1 - t0) * 1000, "render": (t2 - t1) * 1000, "total": (t2 - t0) * 1000})


def answer_html(answer) -> str:
    """An Answer as HTML: the answer, its citations and reasoning chain. When the answering
    model is too small to trust (capable is False), the extractive answer with its own
    citations and chain comes first, and the model's text follows as a labelled draft."""
    get = lambda name, default=None: getattr(answer, name, default)   # noqa: E731

    def items(values) -> str:
        return "".join(f"<li><code>{html.escape(str(c))}</code></li>" for c in values or []) or "<li>none</li>"

    def body(text, cites, chain) -> str:
        return (f"<div style='white-space:pre-wrap'>{html.escape(str(text or ''))}</div>"
                f"<div style='margin-top:4px'><b>citations</b><ul style='margin:0'>{items(cites)}</ul></div>"
                f"<div><b>reasoning chain</b><ul style='margin:0'>{items(chain)}</ul></div>")
    small = get("backend") not in (None, "extractive") and get("capable") is False and get("extractive")
    if small:
        main = ("<div><b>extractive answer</b> (the model is too small to trust alone; its draft is below)</div>"
                + body(get("extractive"), get("extractive_citations"), get("extractive_chain"))
                + f"<div style='margin-top:6px;color:#555'><b>draft by {html.escape(str(get('model', '')))}</b>"
                + body(get("text"), get("citations"), get("chain") if get("citations") else []) + "</div>")
    else:
        main = body(get("text"), get("citations"), get("chain"))
    flagged = get("flagged")
    if isinstance(flagged, (list, tuple)):
        flagged = ", ".join(map(str, flagged))
    flag = (f"<div style='color:#a15c00'>flagged (cited but not in the evidence, removed): "
            f"{html.escape(str(flagged))}</div>" if flagged else "")
    flag += "".join(f"<div style='color:#777;font-size:11px'>not used: {html.escape(str(t))}</div>"
                    for t in get("tried") or [])
    meta = ", ".join(x for x in (str(get("backend", "") or ""), str(get("model", "") or ""),
                                 f"{get('latency_ms'):.0f} ms" if get("latency_ms") is not None else "") if x)
    return (f"<div class='wb-answer' style='font-size:13px'>{main}{flag}"
            f"<div style='color:#777;font-size:11px'>{html.escape(meta)}</div></div>")


def _backends(wb) -> tuple[str, ...]:
    """'extractive' first (fast, deterministic), then the workbench's configured LLM backends."""
    llm = getattr(getattr(wb, "config", None), "llm", None)
    names = tuple(getattr(llm, "backends", ()) or ())
    return tuple(dict.fromkeys(DEFAULT_BACKENDS + names + ("ollama", "llamacpp")))


class Panel:
    """Question box, mode, top-k, hops, edge types, weights, as-of date, question type,
    answer backend; outputs: evidence table, subgraph, answer, errors."""

    def __init__(self, retrieve: Callable, neighbours: Callable | None = None, ask: Callable | None = None,
                 texts: Callable | None = None, question: str = "", base: RetrievalConfig | None = None,
                 backends: Iterable[str] = DEFAULT_BACKENDS, figures: str | Path | None = "figures",
                 auto_answer: bool = True):
        import ipywidgets as W
        self.retrieve, self.neighbours, self.ask, self.texts = retrieve, neighbours, ask, texts
        self.base = base or RetrievalConfig()
        self.figures = Path(figures) if figures else None
        self.view: View | None = None
        self.errors: list[str] = []
        self.updates = 0
        b = self.base
        narrow = W.Layout(width="270px")
        desc = {"description_width": "95px"}
        self.question = W.Text(value=question, placeholder="Ask a question about the loaded law, then press Enter",
                               description="question", continuous_update=False,
                               layout=W.Layout(width="100%"), style=desc)
        self.mode = W.Dropdown(options=MODES, value=b.mode, description="mode", layout=narrow, style=desc)
        self.top_k = W.IntSlider(value=b.top_k, min=1, max=30, description="top-k", continuous_update=False,
                                 layout=narrow, style=desc)
        self.hops = W.SelectionSlider(options=HOPS, value="policy", description="hops", continuous_update=False,
                                      layout=narrow, style=desc)
        self.qtype = W.Dropdown(options=QUESTION_TYPES, value=b.question_type or "auto", description="question type",
                                layout=narrow, style=desc)
        self.as_of = W.DatePicker(value=dt.date.fromisoformat(b.as_of) if b.as_of else None, description="as of",
                                  layout=narrow, style=desc)
        self.backend = W.Dropdown(options=tuple(backends), value=tuple(backends)[0], description="answer by",
                                  layout=narrow, style=desc)
        ticked = set(b.edge_types) if b.edge_types is not None else set(EDGE_TYPES)
        self.edge_boxes = {t: W.Checkbox(value=t in ticked, description=t, indent=False,
                                         layout=W.Layout(width="150px")) for t in EDGE_TYPES}
        self.weight_sliders = {f.name: W.FloatSlider(value=getattr(b.weights, f.name), min=0.0, max=1.5, step=0.05,
                                                     description=f.name, continuous_update=False, readout_format=".2f",
                                                     layout=narrow, style=desc)
                               for f in fields(Weights)}
        self.reset = W.Button(description="reset weights", layout=W.Layout(width="120px"))
        self.vihermes = W.Button(description="ViHERMES", tooltip="0.7 semantic + 0.3 proximity",
                                 layout=W.Layout(width="120px"))
        self.answer_button = W.Button(description="answer", button_style="primary", layout=W.Layout(width="120px"))
        self.status = W.HTML(layout=W.Layout(width="100%"))
        self.error = W.HTML(layout=W.Layout(width="100%"))
        self.error.add_class("wb-error")
        self.table = W.HTML(layout=W.Layout(width="100%", overflow="auto"))
        self.table.add_class("wb-table")
        self.graph = W.HTML(layout=W.Layout(width="100%"))
        self.graph.add_class("wb-graph")
        self.answer = W.HTML(layout=W.Layout(width="100%"))
        self.answer.add_class("wb-answer-area")
        self.auto_answer = auto_answer

        controls = W.HBox([
            W.VBox([self.mode, self.top_k, self.hops, self.qtype, self.as_of, self.backend]),
            W.VBox([W.HTML("<b>edge types</b>"), *self.edge_boxes.values()]),
            W.VBox([W.HTML("<b>re-rank weights</b>"), *self.weight_sliders.values(),
                    W.HBox([self.reset, self.vihermes])]),
        ], layout=W.Layout(flex_flow="row wrap"))
        outputs = W.HBox([
            W.VBox([W.HTML("<b>evidence</b>"), self.table], layout=W.Layout(width="55%", min_width="480px")),
            W.VBox([W.HTML("<b>subgraph</b>"), self.graph], layout=W.Layout(width="45%", min_width="420px")),
        ], layout=W.Layout(flex_flow="row wrap", width="100%"))
        self.widget = W.VBox([self.question, controls, W.HBox([self.answer_button, self.status]), self.error,
                              outputs, W.HTML("<b>answer</b>"), self.answer])
        self.widget.add_class("wb-panel")

        for w in (self.question, self.mode, self.top_k, self.hops, self.qtype, self.as_of,
                  *self.edge_boxes.values(), *self.weight_sliders.values()):
            w.observe(self.update, names="value")
        self.backend.observe(self._answer, names="value")
        self.answer_button.on_click(self._answer)
        self.reset.on_click(lambda _: self.set_weights(Weights()))
        self.vihermes.on_click(lambda _: self.set_weights(Weights.vihermes()))
        if question:
            self.update()

    @classmethod
    def for_workbench(cls, wb, question: str = "", **kw) -> "Panel":
        """A panel on a Workbench: retrieval through `wb.retrieve` (the question embedded once
        per question, not per widget change), edges from the retriever's article graph,
        answers from `wb.ask` when the workbench has it."""
        @lru_cache(maxsize=64)
        def qvec(q: str):
            return wb.embedder.embed_queries([q])[0]

        def retrieve(q, cfg):
            return wb.retrieve(q, cfg, None if cfg.mode == "bm25" else qvec(q))

        def neighbours(uid):
            return wb.retriever.neighbours(uid)

        def texts(ids):
            return {u.id: u.text for u in wb.store.get(ids)}

        ask = getattr(wb, "ask", None)
        kw.setdefault("backends", _backends(wb))
        kw.setdefault("base", wb.config.retrieval)
        return cls(retrieve, neighbours, ask, texts, question, **kw)

    # -- reading the widgets --------------------------------------------------------
    def config(self) -> RetrievalConfig:
        return widget_config(self.base, self.mode.value, self.top_k.value, self.hops.value,
                             [t for t, box in self.edge_boxes.items() if box.value],
                             {k: s.value for k, s in self.weight_sliders.items()},
                             self.as_of.value, self.qtype.value)

    def save_config(self, path: str | Path) -> Path:
        """The widgets' settings as a TOML config file (`workbench --config FILE`, or `load_config`)."""
        from ..core.config import retrieval_toml
        path = Path(path)
        path.write_text(retrieval_toml(self.config()), encoding="utf-8")
        return path

    def load_config(self, path: str | Path) -> RetrievalConfig:
        """Set the widgets from a config file's [retrieval] section (one update)."""
        from ..core.config import Config
        cfg = Config.load(path).retrieval
        with self._held():
            self.mode.value, self.top_k.value = cfg.mode, cfg.top_k
            self.qtype.value = cfg.question_type or "auto"
            self.as_of.value = dt.date.fromisoformat(cfg.as_of) if cfg.as_of else None
            hops = {str(n) for _, n in cfg.hops} if cfg.hops else set()
            self.hops.value = next(iter(hops)) if len(hops) == 1 and hops <= set(HOPS) else "policy"
            ticked = set(cfg.edge_types) if cfg.edge_types is not None else set(EDGE_TYPES)
            for t, box in self.edge_boxes.items():
                box.value = t in ticked
            for name, slider in self.weight_sliders.items():
                slider.value = getattr(cfg.weights, name)
        self.base = replace(self.base, **{f: getattr(cfg, f) for f in ("candidates", "seed_k", "cap", "sub_lexical",
                                                                      "unstructured", "policies", "edge_prior")})
        self.update()
        return self.config()

    def set_weights(self, weights: Weights) -> None:
        """Move every weight slider at once, with one update."""
        with self._held():
            for name, slider in self.weight_sliders.items():
                slider.value = getattr(weights, name)
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
        try:
            cfg = self.config()
            view = render_view(question, cfg, self.retrieve, self.neighbours, self.texts)
        except Exception as e:        # shown in the panel, not lost in a log
            self._show_error("retrieval", e)
            return
        self.view = view
        self.updates += 1
        self.error.value = ""
        self.table.value = view.table_html
        self.graph.value = iframe(view.graph_html, 540)
        if self.figures is not None:
            try:
                self.figures.mkdir(parents=True, exist_ok=True)
                (self.figures / "panel_subgraph.html").write_text(view.graph_html, encoding="utf-8")
            except OSError as e:
                self._show_error("saving the subgraph", e)
        self.status.value = (f"<span class='wb-status' data-updates='{self.updates}'>update {self.updates}: "
                             f"retrieval {view.ms['retrieve']:.0f} ms, render {view.ms['render']:.0f} ms; "
                             f"graph {html.escape(view.subgraph.signature())}</span>")
        if self.auto_answer and self.backend.value == "extractive":
            self._answer()
        else:
            self.answer.value = "<i>press “answer” for an answer from this backend</i>"

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
            view = getattr(self, "view", None)
            same = view is not None and view.question == question and view.config == self.config()
            kw = {"result": view.result} if same and _takes_result(self.ask) else {}
            self.answer.value = answer_html(self.ask(question, self.config(), backend=self.backend.value, **kw))
        except Exception as e:
            self.answer.value = "<i>no answer (see the error above)</i>"
            self._show_error(f"answer ({self.backend.value})", e)

    def _show_error(self, where: str, e: Exception) -> None:
        tb = "".join(traceback.format_exception(type(e), e, e.__traceback__)[-3:])
        self.errors.append(f"{where}: {e}")
        self.error.value = (f"<div style='color:#b00020;border:1px solid #b00020;padding:4px;font-size:12px'>"
                            f"<b>{html.escape(where)} failed:</b> {html.escape(type(e).__name__)}: {html.escape(str(e))}"
                            f"<details><summary>traceback</summary><pre>{html.escape(tb)}</pre></details></div>")
        self.status.value = "<i>failed — see the error</i>"

    def _ipython_display_(self):
        from IPython.display import display
        display(self.widget)


def _takes_result(fn) -> bool:
    """Whether an ask callable accepts an already computed retrieval `result`."""
    import inspect
    try:
        return "result" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False

"""The panel's widgets and their layout (ui/panel.py wires them to its callbacks): a CSS grid
that fits 1280×800, with the question and a tool bar on top, the settings on the left (an
accordion: retrieval and edge types, re-rank weights, save / load), the evidence (with an
A / B comparison tab, and an entities tab when the panel has entities) in the middle, the
subgraph and the clicked unit's details on the right, the answer below."""
from __future__ import annotations

from dataclasses import fields
from typing import Callable, Iterable

from ..core.config import Weights
from ..core.records import EXPANDABLE
from .detail import detail_html
from .evidence import FORMULA

EDGE_TYPES = EXPANDABLE
QUESTION_TYPES = ("auto", "precise", "definition", "version_diff", "reasoning", "temporal")
MODES = ("graph", "hybrid", "bm25", "dense")
HOPS = ("policy", "0", "1", "2", "3", "4")


def build(panel, question: str, backends: Iterable[str], gold: Iterable[str],
          entities: Callable[[], object] | None) -> None:
    """Make the widgets of `panel` (its attributes: the controls, the output areas, `tabs`) and
    lay them out in `panel.widget`; `panel.base` gives the controls their first values."""
    import ipywidgets as W
    b = panel.base
    narrow, desc = W.Layout(width="230px"), {"description_width": "88px"}
    button = lambda text, tip="", **kw: W.Button(description=text, tooltip=tip, layout=W.Layout(width="auto"), **kw)  # noqa: E731
    panel.question = W.Text(value=question, placeholder="Ask a question about the loaded law, then press Enter",
                            description="question", continuous_update=False, layout=W.Layout(width="100%"),
                            style={"description_width": "62px"})
    panel.mode = W.Dropdown(options=MODES, value=b.mode, description="mode", layout=narrow, style=desc)
    panel.top_k = W.IntSlider(value=b.top_k, min=1, max=30, description="top-k", continuous_update=False,
                              layout=narrow, style=desc)
    panel.hops = W.SelectionSlider(options=HOPS, value="policy", description="hops", continuous_update=False,
                                   layout=narrow, style=desc)
    panel.hops_info = W.HTML(layout=W.Layout(width="230px"))
    panel.qtype = W.Dropdown(options=QUESTION_TYPES, value=b.question_type or "auto", description="type",
                             tooltip="question type: auto = as the router reads the question",
                             layout=narrow, style=desc)
    panel.as_of = W.Text(value=b.as_of or "", placeholder="YYYY-MM-DD", description="as of", continuous_update=False,
                         layout=narrow, style=desc)
    panel.backend = W.Dropdown(options=tuple(backends), value=tuple(backends)[0], description="answer by",
                               layout=narrow, style=desc)
    ticked = set(b.edge_types) if b.edge_types is not None else set(EDGE_TYPES)
    panel.edge_boxes = {t: W.Checkbox(value=t in ticked, description=t, indent=False, layout=W.Layout(width="110px"))
                        for t in EDGE_TYPES}
    panel.weight_sliders = {f.name: W.FloatSlider(value=getattr(b.weights, f.name), min=0.0, max=1.5, step=0.05,
                                                  description=f.name, continuous_update=False, readout_format=".2f",
                                                  tooltip=FORMULA.get(f.name, ""), layout=narrow, style=desc)
                            for f in fields(Weights)}
    panel.reset = button("reset weights")
    panel.vihermes = button("ViHERMES", "0.7 semantic + 0.3 proximity")
    panel.config_path = W.Text(value="retrieval.toml", description="file", layout=narrow, style={"description_width": "30px"})
    panel.save_button, panel.load_button = button("save setting"), button("load setting")
    panel.answer_button = button("answer", "answer with the chosen backend", button_style="primary")
    panel.pin_button = button("pin as A", "keep this result; change settings to compare")
    panel.export_button = button("export evidence", "CSV + Parquet of the evidence, the subgraph page, the setting")
    panel.expand_button = button("expand neighbours", "draw the selected unit's neighbours", disabled=True)
    panel.status, panel.error = W.HTML(), W.HTML(layout=W.Layout(width="100%"))
    panel.error.add_class("wb-error")
    panel.selection = W.Text(layout=W.Layout(display="none"))
    panel.selection.add_class("wb-select")
    panel.table = W.HTML(layout=W.Layout(width="100%", max_height="620px", overflow="auto"))
    panel.table.add_class("wb-table")
    panel.gold = W.Text(value=", ".join(gold), placeholder="gold unit ids, comma-separated (optional)",
                        description="gold", continuous_update=False, layout=W.Layout(width="98%"),
                        style={"description_width": "40px"})
    panel.compare = W.HTML("<i>pin a result as A, then change a setting: B is compared with it here</i>")
    panel.compare.add_class("wb-compare-area")
    panel.graph, panel.detail = W.HTML(layout=W.Layout(width="100%")), W.HTML(detail_html(None))
    panel.graph.add_class("wb-graph")
    panel.detail.add_class("wb-detail-area")
    panel.answer = W.HTML(layout=W.Layout(width="100%"))
    panel.answer.add_class("wb-answer-area")

    boxes = W.GridBox(list(panel.edge_boxes.values()), layout=W.Layout(grid_template_columns="112px 112px"))
    controls = W.Accordion(children=[
        W.VBox([panel.mode, panel.top_k, panel.hops, panel.hops_info, panel.qtype, panel.as_of, panel.backend,
                W.HTML("<b>edge types</b>"), boxes]),
        W.VBox([*panel.weight_sliders.values(), W.HBox([panel.reset, panel.vihermes])]),
        W.VBox([panel.config_path, W.HBox([panel.save_button, panel.load_button])]),
    ], titles=("retrieval", "re-rank weights", "save / load setting"), selected_index=0,
        layout=W.Layout(grid_area="controls", width="270px"))
    from .entitytab import EntityTab
    panel.entity_tab = EntityTab(entities) if entities is not None else None
    tabs = [panel.table, W.VBox([panel.gold, panel.compare])] + ([panel.entity_tab.widget] if panel.entity_tab else [])
    panel.tabs = W.Tab(children=tabs, titles=("evidence", "compare A / B", "entities")[:len(tabs)],
                       layout=W.Layout(grid_area="center", min_width="0"))
    right = W.VBox([W.HTML("<b>subgraph</b> — click a node for its details"), panel.graph,
                    panel.expand_button, panel.detail], layout=W.Layout(grid_area="graph", min_width="0"))
    header = W.VBox([panel.question, W.HBox([panel.answer_button, panel.pin_button, panel.export_button, panel.status],
                                            layout=W.Layout(flex_flow="row wrap", align_items="center")),
                     panel.error, panel.selection], layout=W.Layout(grid_area="header"))
    footer = W.VBox([W.HTML("<b>answer</b>"), panel.answer], layout=W.Layout(grid_area="footer"))
    controls.add_class("wb-settings")
    panel.widget = W.GridBox([header, controls, panel.tabs, right, footer], layout=W.Layout(
        width="100%", grid_gap="6px 10px", grid_template_columns="270px minmax(0, 5fr) minmax(0, 4fr)",
        grid_template_rows="auto auto auto",
        grid_template_areas='"header header header" "controls center graph" "footer footer footer"'))
    panel.widget.add_class("wb-panel")

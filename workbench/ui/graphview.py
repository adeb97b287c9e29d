"""The evidence subgraph of one retrieval as a self-contained pyvis (vis-network) page.

`evidence_subgraph` is pure: from the ranked hits, the seeds and a neighbour function
(the retriever's article-level adjacency) it builds the nodes and typed edges to draw —
every hit, the units on the path that brought a hit in (`Hit.via`), and the edges among
them of the allowed types. `to_html` renders that with pyvis, JavaScript in line
(`cdn_resources="in_line"`, the only mode that renders offline), edges coloured by type,
seeds highlighted, a legend, and the unit text in each node's tooltip. `show` writes the
page under `figures/` and returns an object Jupyter displays inline (an iframe with the
page as `srcdoc`).
"""
from __future__ import annotations

import hashlib
import html as _html
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from ..core.records import Via

EDGE_COLOURS = {
    "REFERENCES": "#1f77b4",   # blue
    "AMENDS": "#d62728",       # red
    "INHERITS": "#2ca02c",     # green
    "REPLACES": "#9467bd",     # purple
    "REPEALS": "#8c564b",      # brown
    "RELATED_TO": "#7f7f7f",   # grey
    "DEFINES": "#bcbd22",      # olive
    "CONTAINS": "#c7c7c7",
}
SEED_COLOUR, HIT_COLOUR, PATH_COLOUR, CITED_BORDER = "#ffb000", "#9ecae1", "#e6e6e6", "#08306b"
NEIGHBOUR_COLOUR = "#c7e9c0"     # a unit added by "expand neighbours"

# one step of a provenance path: "a -TYPE-> b" (a links to b) or "a <-TYPE- b" (b links to a)

_TEMPLATES = None
Neighbours = Callable[[str], Iterable[tuple[str, str, str]]]   # unit id -> (other, type, "->" | "<-")


@dataclass
class Node:
    id: str
    role: str                  # "seed" | "hit" | "path" | "neighbour" (added by expanding a node)
    rank: int | None = None    # 1-based rank among the hits, None for path-only units
    score: float | None = None
    cited: bool = False
    via: str = ""
    text: str = ""
    kind: str = ""


@dataclass
class SubGraph:
    nodes: list[Node] = field(default_factory=list)
    edges: list[tuple[str, str, str, bool]] = field(default_factory=list)   # (source, target, type, on a path)

    def edge_counts(self) -> dict[str, int]:
        return dict(sorted(Counter(t for _, _, t, _ in self.edges).items()))

    def signature(self) -> str:
        """A short description that changes whenever what is drawn changes: the counts, and a
        fingerprint of the nodes (id, role, rank, cited) and edges (two drawings with the same
        counts but other units differ)."""
        drawn = repr(([(n.id, n.role, n.rank, n.cited) for n in self.nodes], sorted(self.edges)))
        return (f"nodes={len(self.nodes)} edges={len(self.edges)} "
                + ",".join(f"{t}:{n}" for t, n in self.edge_counts().items())
                + f" #{hashlib.sha1(drawn.encode('utf-8')).hexdigest()[:8]}")


def path_edges(via: Via) -> list[tuple[str, str, str]]:
    """The (source, target, type) edges of a provenance path such as
    'k@v/a10 <-REFERENCES- k@v/a15 -AMENDS-> k@w/a15'; [] for 'seed', 'bm25', 'direct' ..."""
    return [link.edge for link in via.path]


def evidence_subgraph(hits, seeds: Iterable[str] = (), cited: Iterable[str] = (),
                      neighbours: Neighbours | None = None, edge_types: Iterable[str] | None = None,
                      texts: Callable[[list[str]], dict[str, str]] | None = None,
                      expanded: Iterable[str] = (), per_node: int = 25) -> SubGraph:
    """Nodes: the hits, the seeds among them, the units on their provenance paths, and the
    neighbours (edges of the allowed types, at most `per_node` each) of every unit in
    `expanded`. Edges: the path edges, plus every edge `neighbours` knows between two drawn
    units whose type is in `edge_types` (None: any type)."""
    allowed = set(edge_types) if edge_types is not None else None
    seeds, cited = set(seeds), set(cited)
    nodes: dict[str, Node] = {}
    for rank, h in enumerate(hits, 1):
        u = getattr(h, "unit", None)
        nodes[h.unit_id] = Node(h.unit_id, "seed" if h.unit_id in seeds else "hit", rank, float(h.score),
                                h.unit_id in cited, str(h.via), u.text if u is not None else "",
                                u.kind if u is not None else "")
    edges: dict[tuple[str, str, str], bool] = {}
    for h in hits:
        for s, t, typ in path_edges(h.via):
            for uid in (s, t):
                if uid not in nodes:
                    nodes[uid] = Node(uid, "seed" if uid in seeds else "path")
            edges[(s, t, typ)] = True
    if neighbours is not None:
        for uid in expanded:
            if uid not in nodes:
                nodes[uid] = Node(uid, "neighbour")
            near = [(o, typ) for o, typ, _ in neighbours(uid) or () if allowed is None or typ in allowed]
            for other, _ in near[:per_node]:
                nodes.setdefault(other, Node(other, "neighbour"))
        for uid in list(nodes):
            for other, typ, arrow in neighbours(uid) or ():
                if other not in nodes or (allowed is not None and typ not in allowed):
                    continue
                key = (uid, other, typ) if arrow == "->" else (other, uid, typ)
                edges.setdefault(key, False)
    missing = [n.id for n in nodes.values() if not n.text]
    if texts is not None and missing:
        found = texts(missing)
        for n in nodes.values():
            n.text = n.text or found.get(n.id, "")
    return SubGraph(list(nodes.values()), [(s, t, typ, on) for (s, t, typ), on in sorted(edges.items())])


def _label(uid: str, rank: int | None, docs: set[str] | None = None) -> str:
    """'3. a10', naming the version ('@2018') when the drawn units span several versions of
    one instrument and the instrument ('food-safety@2018') when they span several instruments."""
    doc, _, rest = uid.partition("/")
    key, _, version = doc.partition("@")
    if len(key) > 24:
        key = key[:22] + "…"
    head = f"{rank}. " if rank else ""
    if not rest:
        return f"{head}{key}@{version}"
    docs = docs if docs is not None else {doc}
    keys = {d.partition("@")[0] for d in docs}
    where = "" if len(docs) <= 1 else f"\n@{version}" if len(keys) == 1 else f"\n{key}@{version}"
    return f"{head}{rest}{where}"


def _tooltip(n: Node, limit: int = 700) -> str:
    lines = [n.id]
    if n.rank:
        lines.append(f"rank {n.rank}, score {n.score:.3f}" + (" — cited" if n.cited else ""))
    elif n.role == "neighbour":
        lines.append("a neighbour of an expanded unit (not ranked)")
    else:
        lines.append("on the path to a hit (not itself ranked)")
    if n.via and n.via not in ("seed",):
        lines.append(f"why: {n.via}")
    text = " ".join((n.text or "").split())
    if text:
        lines.append("")
        lines.append(text[:limit] + ("…" if len(text) > limit else ""))
    # vis-network shows titles as text, but pyvis's popup mode sets them as innerHTML: no
    # markup from a unit's text may survive, so angle brackets become look-alikes
    return "\n".join(lines).replace("<", "‹").replace(">", "›")


# clicking a node tells the page around the frame (the panel) which unit it was; a message
# {wbFocus: id} from that page selects and centres the node. The frame is sandboxed, so
# messages are the only way across.
_LINK = """<script>
(function () {
  function hook() {
    if (typeof network === "undefined" || !network) { setTimeout(hook, 50); return; }
    network.on("click", function (p) {
      if (p.nodes && p.nodes.length) { parent.postMessage({wb: "select", id: p.nodes[0]}, "*"); }
    });
    window.addEventListener("message", function (e) {
      var d = e.data;
      if (d && d.wbFocus && nodes.get(d.wbFocus)) {
        network.selectNodes([d.wbFocus]);
        network.focus(d.wbFocus, {scale: 1.1, animation: {duration: 300}});
        document.body.dataset.focused = d.wbFocus;
      }
    });
    var selected = SELECTED;
    if (selected && nodes.get(selected)) { network.selectNodes([selected]); document.body.dataset.focused = selected; }
    document.body.dataset.ready = "1";
  }
  hook();
})();
</script>"""


def to_html(sub: SubGraph, height: str = "520px", title: str = "", selected: str | None = None) -> str:
    """A standalone HTML page (vis-network in line; no network needed); `selected`: a node
    shown selected."""
    from pyvis.network import Network
    global _TEMPLATES
    net = Network(height=height, width="100%", directed=True, cdn_resources="in_line", bgcolor="#ffffff")
    # one template environment for every page: jinja then compiles pyvis's template and the
    # in-line vis-network script once, not on every render (60 ms -> a few ms)
    if _TEMPLATES is None:
        _TEMPLATES = net.templateEnv
    net.templateEnv = _TEMPLATES
    docs = {n.id.partition("/")[0] for n in sub.nodes}
    for n in sub.nodes:
        colour = {"seed": SEED_COLOUR, "hit": HIT_COLOUR, "path": PATH_COLOUR, "neighbour": NEIGHBOUR_COLOUR}[n.role]
        size = 14 + (12 * (n.score or 0) / max((m.score or 0) for m in sub.nodes) if n.rank and n.score
                     and max((m.score or 0) for m in sub.nodes) > 0 else 0)
        net.add_node(n.id, label=_label(n.id, n.rank, docs), title=_tooltip(n), shape="dot", size=size,
                     color={"background": colour, "border": CITED_BORDER if n.cited else "#555555",
                            "highlight": {"background": colour, "border": "#000000"}},
                     borderWidth=4 if n.cited else 1, font={"size": 14})
    for s, t, typ, on_path in sub.edges:
        net.add_edge(s, t, color=EDGE_COLOURS.get(typ, "#333333"), title=typ, width=3.5 if on_path else 1.5,
                     dashes=not on_path, arrows="to")
    net.set_options("""{
      "physics": {"solver": "forceAtlas2Based", "stabilization": {"iterations": 300, "fit": true},
                  "forceAtlas2Based": {"gravitationalConstant": -60, "springLength": 110}},
      "interaction": {"hover": true, "tooltipDelay": 120},
      "edges": {"smooth": {"type": "dynamic"}}
    }""")
    page = net.generate_html(notebook=False)
    # the template also links Bootstrap from a CDN, which this page does not need (and offline cannot load)
    page = re.sub(r'<link[^>]*cdn\.jsdelivr\.net[^>]*/>\s*', "", page)
    page = re.sub(r'<script\s+src="https://cdn\.jsdelivr\.net[^"]*"[^>]*>\s*</script>\s*', "", page, flags=re.S)
    page = re.sub(r"<center>\s*<h1>\s*</h1>\s*</center>\s*", "", page)
    meta = f'<meta name="wb-graph" content="{_html.escape(sub.signature())}">'
    style = ("<style>body{margin:0;font-family:sans-serif} .card{border:0!important}"
             " #mynetwork{border:0!important;float:none!important}"
             " div.vis-tooltip{white-space:pre-wrap!important;max-width:460px;font-size:12px}"
             " .wb-legend{font-size:12px;padding:4px 6px;line-height:1.7}"
             " .wb-legend span.sw{display:inline-block;width:22px;height:4px;margin:0 4px 2px 10px;vertical-align:middle}"
             " .wb-legend span.dot{display:inline-block;width:11px;height:11px;border-radius:6px;margin:0 4px 0 10px;"
             "vertical-align:middle;border:1px solid #555}</style>")
    page = page.replace("<head>", "<head>\n" + meta + style, 1)
    page = page.replace("<body>", "<body>\n" + legend_html(sub, title), 1)
    link = _LINK.replace("SELECTED", json.dumps(selected).replace("<", "\\u003c"))
    return page.replace("</body>", link + "\n</body>", 1) if "</body>" in page else page + link


def legend_html(sub: SubGraph, title: str = "") -> str:
    counts = sub.edge_counts()
    parts = [f'<div class="wb-legend">{_html.escape(title) + " — " if title else ""}'
             f'<span class="dot" style="background:{SEED_COLOUR}"></span>seed'
             f'<span class="dot" style="background:{HIT_COLOUR}"></span>hit'
             f'<span class="dot" style="background:{PATH_COLOUR}"></span>on a path'
             + (f'<span class="dot" style="background:{NEIGHBOUR_COLOUR}"></span>neighbour'
                if any(n.role == "neighbour" for n in sub.nodes) else "") +
             f'<span class="dot" style="background:#fff;border:3px solid {CITED_BORDER}"></span>cited<br>']
    for typ in EDGE_COLOURS:
        if typ in counts:
            parts.append(f'<span class="sw" style="background:{EDGE_COLOURS[typ]}"></span>{typ} ({counts[typ]})')
    if not counts:
        parts.append('<span style="margin-left:10px;color:#777">no edges between these units</span>')
    parts.append(' <span style="color:#777;margin-left:10px">thick = the path that brought a hit in</span></div>')
    return "".join(parts)


def iframe(page: str, height: int = 600) -> str:
    """The page inside an iframe (srcdoc), for an HTML widget or an IPython HTML display;
    sandboxed (scripts run, but not with the notebook's origin)."""
    return (f'<iframe class="wb-graph-frame" sandbox="allow-scripts" srcdoc="{_html.escape(page, quote=True)}" '
            f'style="width:100%;height:{height}px;border:1px solid #ddd" frameborder="0"></iframe>')


def save(page: str, path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding="utf-8")
    return path


def show(sub_or_page: SubGraph | str, path: str | Path = "figures/subgraph.html", height: int = 600,
         title: str = ""):
    """Write the page under figures/ and return an IPython HTML object that shows it inline."""
    from IPython.display import HTML
    page = sub_or_page if isinstance(sub_or_page, str) else to_html(sub_or_page, f"{height - 60}px", title)
    save(page, path)
    return HTML(f"<div>{iframe(page, height)}</div>")   # (a bare iframe makes IPython warn)


def result_subgraph(wb, result, edge_types: Iterable[str] | None = None) -> SubGraph:
    """The evidence subgraph of a `Result` from `Workbench.retrieve`."""
    return evidence_subgraph(result.hits, result.seeds, result.cited, wb.retriever.neighbours,
                             edge_types, texts=lambda ids: {u.id: u.text for u in wb.store.get(ids)})


def path_subgraph(paths: Iterable[Iterable[tuple[str, str, str]]], texts: Callable[[list[str]], dict[str, str]] | None = None,
                  level: Callable[[str], str] | None = None) -> SubGraph:
    """Paths of (source, type, target) steps as a subgraph: the first unit of each path is a
    seed, the others path units; `level` maps ids (e.g. expand.article_of, so a clause's
    citation is drawn from its article)."""
    level = level or (lambda uid: uid)
    nodes: dict[str, Node] = {}
    edges: dict[tuple[str, str, str], bool] = {}
    for path in paths:
        steps = [(level(s), typ, level(t)) for s, typ, t in path]
        for i, (s, typ, t) in enumerate(steps):
            for uid in (s, t):
                nodes.setdefault(uid, Node(uid, "seed" if i == 0 and uid == s else "path"))
            edges[(s, t, typ)] = True
    if texts is not None and nodes:
        found = texts(list(nodes))
        for n in nodes.values():
            n.text = found.get(n.id, "")
    return SubGraph(list(nodes.values()), [(s, t, typ, True) for (s, t, typ) in sorted(edges)])

"""What the panel does beyond showing a result: select a unit (detail pane, row highlighted),
expand a node's neighbours, pin a result as A and compare the current one (B) with it, export
the evidence and the setting. A mixin of `Panel`; it reads the panel's widgets and view."""
from __future__ import annotations

import html
from pathlib import Path

from .compare import compare_html, moves
from .detail import detail_html
from .evidence import evidence_table, provenance
from .graphview import iframe


class Exploring:
    def select(self, uid: str) -> None:
        """Show one unit's details, highlight its evidence row; what a click on a node or a row does."""
        self.selected = uid
        hits = self.view.result.hits if self.view else []
        rank = next((i for i, h in enumerate(hits, 1) if h.unit_id == uid), None)
        try:
            d = self.details(uid) if self.details else None
        except Exception as e:
            self._show_error("unit details", e)
            return
        self.detail.value = detail_html(d, uid, rank, provenance(hits[rank - 1], rank) if rank else "")
        self.expand_button.disabled = d is None or self.neighbours is None
        self.expand_button.description = f"expand neighbours of {uid.rpartition('/')[2] or uid}"
        if self.view is not None:
            self.table.value = self.view.table_html = evidence_table(self.view.result, uid, clickable=True)
        self._safely("entities", self._refresh_entities)

    def expand(self) -> int:
        """Draw the selected unit's neighbours (of the ticked edge types); returns how many units were added."""
        if not self.selected or self.view is None:
            return 0
        if self.selected not in self.expanded:
            self.expanded.append(self.selected)
        n = len(self.view.subgraph.nodes)
        sub, page = self._draw(self.view.result, self.view.config, self.neighbours, self.texts, self.graph_height,
                         self.expanded, self.selected)
        self.view.subgraph, self.view.graph_html = sub, page
        self.graph.value = iframe(page, self.graph_height)
        self.status.value = (f"<span class='wb-status' data-updates='{self.updates}'>expanded "
                             f"{html.escape(self.selected)}: {len(sub.nodes) - n} unit(s) added; "
                             f"graph {html.escape(sub.signature())}</span>")
        return len(sub.nodes) - n

    def _refresh_entities(self) -> None:
        """Fill the entities tab (only while it is open: the entity index is built on first use)."""
        tab = getattr(self, "entity_tab", None)
        if tab is None or self.view is None or self.tabs.selected_index != 2:
            return
        if self.selected:
            tab.for_units([self.selected], self.selected)
        else:
            tab.for_units([h.unit_id for h in self.view.result.hits], f"the {len(self.view.result.hits)} units shown")

    def pin(self) -> None:
        """Keep the current result as A; every later update is compared with it."""
        self.pinned = self.view
        self._refresh_compare()
        self.tabs.selected_index = 1

    def _refresh_compare(self) -> None:
        a, b = self.pinned, self.view
        if a is None or b is None:
            return
        gold = [g.strip() for g in self.gold.value.replace(";", ",").split(",") if g.strip()]
        self.compare.value = compare_html(a.result, b.result, a.question, b.question, a.config, b.config, gold)

    def export(self) -> dict[str, Path]:
        """Write the evidence (CSV and Parquet, via polars), the subgraph page, the setting and,
        with A pinned, the comparison into the export folder; numbered, never overwritten."""
        if self.exports is None:
            raise ValueError("no export folder: create the panel with Panel(..., exports=DIR)")
        if self.view is None:
            raise ValueError("nothing to export yet: ask a question first")
        from ..core.config import retrieval_toml
        from .frames import hits
        self.exports.mkdir(parents=True, exist_ok=True)
        n = 1 + max((int(p.stem.rpartition("_")[2]) for p in self.exports.glob("evidence_*.csv")
                     if p.stem.rpartition("_")[2].isdigit()), default=0)
        out = {"csv": self.exports / f"evidence_{n:03d}.csv", "parquet": self.exports / f"evidence_{n:03d}.parquet",
               "graph": self.exports / f"subgraph_{n:03d}.html", "setting": self.exports / f"setting_{n:03d}.toml"}
        frame = hits(self.view.result)
        frame.write_csv(out["csv"])
        frame.write_parquet(out["parquet"])
        out["graph"].write_text(self.view.graph_html, encoding="utf-8")
        out["setting"].write_text(retrieval_toml(self.view.config), encoding="utf-8")
        if self.pinned is not None:
            out["compare"] = self.exports / f"compare_{n:03d}.csv"
            moves(self.pinned.result, self.view.result).write_csv(out["compare"])
        self.status.value = "exported: " + ", ".join(f"<code>{html.escape(p.name)}</code>" for p in out.values()) + \
            f" in <code>{html.escape(str(self.exports))}</code>"
        return out

    def save_graph(self, path: str | Path) -> Path:
        """The current subgraph page as a file (it opens offline in any browser)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.view.graph_html if self.view else "", encoding="utf-8")
        return path

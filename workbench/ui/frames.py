"""polars DataFrames of what the workbench produces, for analysis in a notebook and export
(`.write_csv`, `.write_parquet`): a retrieval's hits, an evaluation (overall, per category,
per split, per question), the units and edges of a workspace, an article's history.

    from workbench.ui import frames
    frames.hits(wb.retrieve("…"))           # or result.to_polars()
    frames.evaluation(summary)["per_question"].filter(pl.col("system") == "graph")
    wb.units(Filter(kinds=("article",)))    # straight from LanceDB (to_polars)
    wb.edges(("REFERENCES",))               # from igraph's edge list, as columns
"""
from __future__ import annotations

import polars as pl

from ..core.records import Result


def hits(result: Result) -> pl.DataFrame:
    """One row per hit, in rank order: why it is there (`via`: how it was found and the path
    walked), whether it is cited, the unit's instrument / version / validity and, in graph
    mode, the score parts of the re-rank (one column each). Built by `Result.to_polars`."""
    return result.to_polars()


def evaluation(summary: dict) -> dict[str, pl.DataFrame]:
    """An evaluation summary (`run_eval(...).summary()` or a results JSON) as tables:
    `overall` (system × metric, with the median latency), `by_category`, `by_split`
    (system, group, metrics) and `per_question` (system, question, metrics, gold, ranked, cited)."""
    overall = pl.DataFrame([{"system": s, **v["overall"], "latency_ms_p50": v.get("latency_ms_p50")}
                            for s, v in summary["systems"].items()])
    out = {"overall": overall}
    for part in ("by_category", "by_split"):
        rows = [{"system": s, "group": g, **m} for s, v in summary["systems"].items() for g, m in v.get(part, {}).items()]
        out[part] = pl.DataFrame(rows) if rows else pl.DataFrame(schema={"system": pl.String, "group": pl.String})
    rows = [{"system": s, **r} for s, qs in summary.get("per_question", {}).items() for r in qs]
    out["per_question"] = pl.DataFrame(rows, infer_schema_length=None) if rows else pl.DataFrame(
        schema={"system": pl.String, "id": pl.String})
    return out


def edges(graph, types=None) -> pl.DataFrame:
    """Every edge (of these types) as columns: source, target, type, resolved — from igraph's
    edge list without a record per edge (the graph store's `frame`)."""
    return graph.frame(types)


def history(wb, unit_id: str) -> pl.DataFrame:
    """One article's versions, oldest first, with validity and what changed from the one before."""
    rows = wb.changes(unit_id)
    schema = {"unit_id": pl.String, "effective_from": pl.Date, "effective_to": pl.Date, "status": pl.String,
              "inserted": pl.String, "deleted": pl.String, "form_only": pl.Boolean, "substance": pl.Int64}
    return pl.DataFrame(rows, schema=schema, orient="row") if rows else pl.DataFrame(schema=schema)


def overall(summary: dict, metrics=("recall@5", "recall@10", "mrr", "map@10", "hit@1", "ndcg@10",
                                    "citation_f1", "macro_f2")) -> pl.DataFrame:
    """One row per system: the metrics (rounded to 3 places) and the median latency."""
    return evaluation(summary)["overall"].select(
        "system", *[pl.col(m).round(3) for m in metrics if m in evaluation(summary)["overall"].columns],
        pl.col("latency_ms_p50").round(0).alias("p50 ms"))


def by_category(summary: dict, metric: str = "recall@5") -> pl.DataFrame:
    """Systems × categories for one metric (the category's size in its column name)."""
    sizes = summary.get("categories", {})
    long = evaluation(summary)["by_category"]
    if long.is_empty() or metric not in long.columns:
        return pl.DataFrame(schema={"system": pl.String})
    wide = long.select("system", "group", pl.col(metric).round(3)).pivot(on="group", index="system", values=metric)
    return wide.rename({g: f"{g} ({sizes[g]})" for g in wide.columns if g in sizes})


def tests(summary: dict, against: str, metrics=("recall@5", "mrr", "hit@1", "citation_f1")) -> pl.DataFrame:
    """Paired Wilcoxon tests of `against` with every other system, one row per pair and metric:
    p-value, effect size r, n (questions where the two differ), and the p-value in words."""
    from ..evaluate.stats import format_p
    rows = [{"comparison": pair, "metric": m, "p": res[m].get("p"), "r": res[m].get("r"), "n": res[m].get("n"),
             "reads": "no difference" if not res[m].get("n", 1) else format_p(res[m]["p"])}
            for pair, res in summary.get("tests", {}).items() if against in pair.split(" vs ") for m in metrics if m in res]
    schema = {"comparison": pl.String, "metric": pl.String, "p": pl.Float64, "r": pl.Float64, "n": pl.Int64,
              "reads": pl.String}
    return pl.DataFrame(rows, schema=schema, orient="row") if rows else pl.DataFrame(schema=schema)


def write(tables: dict[str, pl.DataFrame], folder, stem: str) -> list:
    """Each table as CSV and Parquet: `folder/stem_name.csv|.parquet`; returns the paths."""
    from pathlib import Path
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, df in tables.items():
        flat = df.with_columns(      # CSV has no lists: "a; b; c"; a struct as JSON
            [pl.col(c).list.eval(pl.element().cast(pl.String)).list.join("; ") if isinstance(t, pl.List)
             else pl.col(c).struct.json_encode() for c, t in df.schema.items() if t.is_nested()])
        for ext, writer in (("csv", flat.write_csv), ("parquet", df.write_parquet)):
            path = folder / f"{stem}_{name}.{ext}"
            writer(path)
            paths.append(path)
    return paths


def export_button(tables, folder, stem: str, description: str = "export"):
    """A button that writes `tables()` (a callable returning name -> DataFrame) with `write`
    and says where; returns the widget (display it)."""
    import html

    import ipywidgets as W
    button = W.Button(description=description, icon="download")
    said = W.HTML()

    def click(_):
        try:
            paths = write(tables(), folder, stem)
            said.value = "wrote " + ", ".join(f"<code>{html.escape(str(p))}</code>" for p in paths)
        except Exception as e:          # shown, not lost in a log
            said.value = f"<span style='color:#b00020'>export failed: {html.escape(str(e))}</span>"
    button.on_click(click)
    return W.HBox([button, said])


def sweep(result: dict) -> pl.DataFrame:
    """`evaluate.stats.sweep`'s grid as a long table: one row per (hops, weight value), best first."""
    rows = [(h, v, round(result["grid"][i][j], 4)) for i, h in enumerate(result["hops"])
            for j, v in enumerate(result["values"])]
    return pl.DataFrame(rows, schema={"hops": pl.Int64, result["weight"]: pl.Float64, result["metric"]: pl.Float64},
                        orient="row").sort(result["metric"], descending=True)

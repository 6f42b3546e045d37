"""The report as ONE self-contained HTML file: tables, plus inline SVG plots where a picture reads faster."""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from repozero.kernel import __version__
from repozero.orchestrator.report import svg
from repozero.orchestrator.report.compute import parse_point
from repozero.orchestrator.report.depth_breadth import depth_breadth_figs
from repozero.orchestrator.report.estimates import Estimate
from repozero.orchestrator.report.fmt import cell_detail, cell_main
from repozero.orchestrator.report.model import Report, Row, Share, Table
from repozero.orchestrator.report.render_md import run_fields
from repozero.orchestrator.report.selectors import POOLED
from repozero.orchestrator.report.tables import FAILURE_CATEGORIES

__all__ = ["render_html"]

STYLE = """
body{font:14px/1.45 system-ui,sans-serif;color:#1b1b1b;margin:0;background:#f6f7f9}
main{max-width:1240px;margin:0 auto;padding:24px}
h1{margin:0 0 4px}h2{margin:32px 0 6px;font-size:19px}
section{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:4px 18px 18px;margin:18px 0}
.meta,.caption{color:#555;margin:4px 0 12px}
.scroll{overflow-x:auto}
table{border-collapse:collapse;margin:10px 0;min-width:50%}
th,td{border:1px solid #dde1e6;padding:5px 9px;text-align:left;vertical-align:top}
thead th{background:#eef1f5}
tr.grp th{background:#f6f7f9;font-weight:600;color:#444}
td .v{font-variant-numeric:tabular-nums;white-space:nowrap;font-weight:600}
td .d{color:#666;font-size:11.5px;white-space:nowrap}
td.none{color:#999}
td.text .v,td.count .v{font-weight:400}
.note{background:#fff6db;border:1px solid #e8c95a;border-radius:6px;padding:8px 12px;margin:8px 0}
.figs{display:flex;flex-wrap:wrap;gap:14px;margin:8px 0;align-items:flex-start}
svg.chart{border:1px solid #e5e7eb;border-radius:6px;max-width:100%;height:auto}
.figs svg.chart{flex:1 1 680px;max-width:min(100%,980px)}
"""

FAILURE_COLORS = {
    "passed": "#2e8b57",
    "no_executable": "#7f8c8d",
    "cheat": "#8e44ad",
    "whitebox_fail": "#b7950b",
    "runtime_error": "#c0392b",
    "mismatch": "#dc7633",
}


def _cell(cell: object, row: Row) -> str:
    main = cell_main(cell, row)  # type: ignore[arg-type]
    detail = cell_detail(cell, row)  # type: ignore[arg-type]
    css = f' class="{"none" if cell is None else row.unit}"'
    small = f'<div class="d">{escape(detail)}</div>' if detail else ""
    return f'<td{css}><div class="v">{escape(main)}</div>{small}</td>'


def _table(columns: list[str], rows: list[Row]) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in ["", *columns])
    body, group = [], ""
    for row in rows:
        if row.group and row.group != group:
            group = row.group
            body.append(f'<tr class="grp"><th colspan="{len(columns) + 1}">{escape(group)}</th></tr>')
        body.append(f"<tr><th>{escape(row.label)}</th>{''.join(_cell(c, row) for c in row.cells)}</tr>")
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'


def _runs_table(report: Report) -> str:
    rows = [Row(label=name, cells=list(values), unit="text") for name, values in run_fields(report.runs)]
    return _table([r.label for r in report.runs], rows)


def _pct(cell: object) -> tuple[float | None, float | None]:
    return (100 * cell.mean, 100 * cell.std) if isinstance(cell, Estimate) else (None, None)


def _bars(table: Table, title: str) -> str:
    rows = [r for r in table.rows if r.unit == "rate"]
    series = table.columns
    values = [[_pct(r.cells[s])[0] for r in rows] for s in range(len(series))]
    errors = [[_pct(r.cells[s])[1] for r in rows] for s in range(len(series))]
    return svg.grouped_bars(
        title, [r.label for r in rows], series, values, errors, y_label="% (± clustered std)"
    )


def _ace_lines(table: Table, metric: str) -> str:
    by_key = {r.key: r for r in table.rows}
    rounds = sorted({int(r.key.split("/")[0].removeprefix("round ")) for r in table.rows})
    totals = [by_key.get(f"round {r}/{metric}/all") for r in rounds]
    values, errors = [], []
    for s in range(len(table.columns)):
        pairs = [_pct(row.cells[s]) if row else (None, None) for row in totals]
        values.append([p[0] for p in pairs])
        errors.append([p[1] for p in pairs])
    name = "PR" if metric == "pr" else "SR"
    xs = [f"round {r}" for r in rounds]
    return svg.line_chart(
        f"{name} after each ACE round (all samples)", xs, table.columns, values, errors, x_label="ACE round"
    )


def _summary_figs(table: Table) -> list[str]:
    pr = next(r for r in table.rows if r.key == "pr/all")
    items = [
        (100 * c.mean, 100 * c.lo, 100 * c.hi, 100 * c.iid_lo, 100 * c.iid_hi)
        if isinstance(c, Estimate)
        else None
        for c in pr.cells
    ]
    figs = [svg.intervals("PR with 95% intervals: clustered vs i.i.d.", table.columns, items)]
    pass_rows = [r for r in table.rows if r.key.startswith("pass@")]
    if len(pass_rows) > 1:
        values = [[_pct(r.cells[s])[0] for r in pass_rows] for s in range(len(table.columns))]
        errors = [[_pct(r.cells[s])[1] for r in pass_rows] for s in range(len(table.columns))]
        xs = [r.key.split("/")[0] for r in pass_rows]
        figs.append(
            svg.line_chart(
                "pass@k (k ≥ 2: upper bound of a selector)", xs, table.columns, values, errors, x_label="k"
            )
        )
    return figs


def _failure_fig(table: Table) -> str:
    parts = [r for r in table.rows if r.unit == "share"]
    fractions = [
        [cell.fraction if isinstance(cell := r.cells[s], Share) else 0.0 for r in parts]
        for s in range(len(table.columns))
    ]
    colors = [FAILURE_COLORS.get(r.label, "#95a5a6") for r in parts]
    return svg.stacked_bars(
        "Outcome of scored episodes", table.columns, [r.label for r in parts], fractions, colors
    )


def _cost_figs(table: Table) -> list[str]:
    pr = table.rows[0]
    figs = []
    for label, fmt, x_label in (
        ("USD / episode", "${:.3g}", "USD per episode"),
        ("tokens / episode", "{:,.0f}", "tokens per episode"),
    ):
        row = next(r for r in table.rows if r.label == label)
        points = [
            (name, float(x), *_pct(p))
            for name, x, p in zip(table.columns, row.cells, pr.cells, strict=True)
            if isinstance(x, int | float) and isinstance(p, Estimate)
        ]
        if any(p[1] > 0 for p in points):
            figs.append(svg.scatter(f"Pass rate against {x_label}", points, x_label=x_label, x_format=fmt))  # type: ignore[arg-type]
    return figs


_KINDS = (
    ("ace/", "ACE rounds (Oracle-assisted)", "", "round "),
    ("best/", "best of k: pass@k (upper bound)", "7 4", "k = "),
    (f"select/{POOLED}/", f"best of k, selector: {POOLED}", "2 3", "k = "),
)


def _compute_figs(table: Table) -> list[str]:
    """Compute-matched curves: pass rate against mean tokens, and against $, per run and kind of spend."""
    lines: dict[str, list[svg.Curve]] = {"tokens": [], "usd": []}
    for s, column in enumerate(table.columns):
        for prefix, kind, dash, x_name in _KINDS:
            points = [
                (p, x_name + r.key.removeprefix(prefix))
                for r in table.rows
                if r.key.startswith(prefix) and (p := parse_point(r.cells[s])) is not None
            ]
            if points:
                name = f"{column}: {kind}" if len(table.columns) > 1 else kind
                lines["tokens"].append((name, s, dash, [(p[1], p[0], label) for p, label in points]))
                lines["usd"].append((name, s, dash, [(p[2], p[0], label) for p, label in points]))
    figs = []
    if lines["tokens"]:
        figs.append(
            svg.curves(
                "Pass rate against tokens per sample",
                lines["tokens"],
                x_label="tokens per sample",
                x_format="{:,.0f}",
            )
        )
    if any(x > 0 for *_, points in lines["usd"] for x, _, _ in points):
        figs.append(
            svg.curves(
                "Pass rate against $ per sample", lines["usd"], x_label="USD per sample", x_format="${:.3g}"
            )
        )
    return figs


FIGURES: dict[str, Callable[[Table], list[str]]] = {
    "summary": _summary_figs,
    "pr_by_difficulty": lambda t: [_bars(t, "Pass rate by subset × difficulty")],
    "sr_by_difficulty": lambda t: [_bars(t, "Success rate by subset × difficulty")],
    "pr_by_category": lambda t: [_bars(t, "Pass rate by category")],
    "ace_pr": lambda t: [_ace_lines(t, "pr")],
    "ace_sr": lambda t: [_ace_lines(t, "sr")],
    "failures": lambda t: [_failure_fig(t)],
    "cost": _cost_figs,
    "compute": _compute_figs,
    "depth_breadth": depth_breadth_figs,
}


def _section(table: Table) -> str:
    figs = FIGURES.get(table.id, lambda t: [])(table)
    fig_html = f'<div class="figs">{"".join(figs)}</div>' if figs else ""
    return (
        f'<section id="{escape(table.id)}"><h2>{escape(table.title)}</h2>'
        f'<p class="caption">{escape(table.caption)}</p>{fig_html}{_table(table.columns, table.rows)}</section>'
    )


def render_html(report: Report) -> str:
    """The whole report as one HTML document with no external references."""
    notes = "".join(f'<div class="note">⚠ {escape(n)}</div>' for n in report.notes)
    meta = (
        f"{len(report.runs)} run(s) · rates in percent · repozero {escape(__version__)} · "
        f"bootstrap {report.settings.resamples} resamples, seed {report.settings.seed}"
    )
    parts = [
        '<!doctype html><html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>RepoZero report</title><style>{STYLE}</style></head><body><main>",
        f'<h1>RepoZero report</h1><p class="meta">{meta}</p>',
        f'<section id="runs"><h2>Runs</h2>{notes}{_runs_table(report)}</section>',
        *(_section(t) for t in report.tables),
        f'<section id="method"><h2>Method</h2><p>{escape(report.settings.method)}</p>',
        f"<p>Failure categories, in precedence: {escape(', '.join(FAILURE_CATEGORIES))}.</p></section>",
        "</main></body></html>\n",
    ]
    return "".join(parts)

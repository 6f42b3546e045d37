"""Small inline SVG charts (bars, lines, stacked bars, scatter, intervals): no assets, no dependencies."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

__all__ = ["PALETTE", "Curve", "curves", "grouped_bars", "intervals", "line_chart", "scatter", "stacked_bars"]

PALETTE = ("#3366cc", "#dc7633", "#2e8b57", "#8e44ad", "#c0392b", "#16a085", "#7f8c8d", "#b7950b")
FONT = 'font-family="system-ui, sans-serif" font-size="12"'
LEFT, TOP, RIGHT = 56, 34, 24
PLOT_H = 200
MIN_W = 720
"""Charts are at least this wide (two side by side on a wide page; scaled down on a narrow one)."""
CHAR_W = 7.2
"""An upper estimate of a character's width at the charts' 12 px font, to size what holds text."""

Num = float | None


def _svg(width: int, height: int, title: str, body: list[str]) -> str:
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}" {FONT}>'
        f"<title>{escape(title)}</title>"
        f'<rect width="{width}" height="{height}" fill="#fff"/>'
        f'<text x="{LEFT}" y="18" font-size="14" font-weight="600">{escape(title)}</text>'
    )
    return head + "".join(body) + "</svg>"


def _text_w(text: str) -> float:
    return CHAR_W * len(text)


def _legend_w(series: Sequence[str], offset: float = 18) -> int:
    """The width a legend of `series` needs (its longest name after the swatch), margins included."""
    return int(LEFT + offset + max((_text_w(s) for s in series), default=0) + RIGHT)


def _text(x: float, y: float, text: str, anchor: str = "middle", extra: str = "") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" {extra}>{escape(text)}</text>'


def _y_axis(width: int, vmax: float, label: str, ticks: int = 5) -> list[str]:
    out = []
    for i in range(ticks + 1):
        value = vmax * i / ticks
        y = TOP + PLOT_H - PLOT_H * i / ticks
        out.append(f'<line x1="{LEFT}" x2="{width - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" stroke="#e3e3e3"/>')
        out.append(_text(LEFT - 6, y + 4, f"{value:g}", "end", 'fill="#555"'))
    out.append(_text(14, TOP + PLOT_H / 2, label, "middle", f'transform="rotate(-90 14 {TOP + PLOT_H / 2})"'))
    return out


def _y(value: float, vmax: float) -> float:
    return TOP + PLOT_H - PLOT_H * max(min(value, vmax), 0.0) / vmax


def _legend(series: Sequence[str], y: float, colors: Sequence[str] = PALETTE) -> list[str]:
    out = []
    for i, name in enumerate(series):
        yy = y + 18 * i
        out.append(
            f'<rect x="{LEFT}" y="{yy - 10:.1f}" width="12" height="12" fill="{colors[i % len(colors)]}"/>'
        )
        out.append(_text(LEFT + 18, yy, name, "start"))
    return out


def _label_lines(x: float, y: float, label: str) -> str:
    parts = label.split(" · ")
    spans = "".join(
        f'<tspan x="{x:.1f}" dy="{0 if i == 0 else 14}">{escape(p)}</tspan>' for i, p in enumerate(parts)
    )
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="middle" fill="#333">{spans}</text>'


def _error_bar(x: float, lo: float, hi: float, vmax: float, color: str = "#222", width: float = 1.2) -> str:
    y1, y2 = _y(lo, vmax), _y(hi, vmax)
    return (
        f'<path d="M{x:.1f} {y1:.1f}V{y2:.1f}M{x - 4:.1f} {y1:.1f}h8M{x - 4:.1f} {y2:.1f}h8" '
        f'stroke="{color}" stroke-width="{width}" fill="none"/>'
    )


def grouped_bars(
    title: str,
    groups: Sequence[str],
    series: Sequence[str],
    values: Sequence[Sequence[Num]],
    errors: Sequence[Sequence[Num]],
    *,
    y_label: str = "%",
    vmax: float = 100.0,
) -> str:
    """One bar per (group, series) with ± error bars; values[s][g] (None draws nothing)."""
    bar = 16 if len(series) > 2 else 22
    label_w = max((_text_w(part) for g in groups for part in g.split(" · ")), default=0) + 12
    group_w = max(bar * len(series) + 24, 84, label_w, (MIN_W - LEFT - RIGHT) / max(len(groups), 1))
    width = int(LEFT + RIGHT + group_w * len(groups))
    body = _y_axis(width, vmax, y_label)
    for g, group in enumerate(groups):
        x0 = LEFT + g * group_w + (group_w - bar * len(series)) / 2
        for s in range(len(series)):
            value, err = values[s][g], errors[s][g]
            if value is None:
                continue
            x, y = x0 + s * bar, _y(value, vmax)
            body.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar - 2}" height="{TOP + PLOT_H - y:.1f}" '
                f'fill="{PALETTE[s % len(PALETTE)]}"><title>{escape(series[s])}: {value:.1f}</title></rect>'
            )
            if err:
                body.append(_error_bar(x + (bar - 2) / 2, value - err, value + err, vmax))
        body.append(_label_lines(LEFT + g * group_w + group_w / 2, TOP + PLOT_H + 16, group))
    legend_y = TOP + PLOT_H + 54
    body += _legend(series, legend_y)
    return _svg(max(width, _legend_w(series)), int(legend_y + 18 * len(series)), title, body)


def line_chart(
    title: str,
    xs: Sequence[str],
    series: Sequence[str],
    values: Sequence[Sequence[Num]],
    errors: Sequence[Sequence[Num]],
    *,
    x_label: str,
    y_label: str = "%",
    vmax: float = 100.0,
) -> str:
    """One line per series over categorical xs, with ± error bars at each point."""
    step = max(110.0, max((_text_w(x) for x in xs), default=0) + 12, (MIN_W - LEFT - RIGHT) / max(len(xs), 2))
    width = int(LEFT + RIGHT + step * max(len(xs), 2))
    body = _y_axis(width, vmax, y_label)
    for i, x_name in enumerate(xs):
        body.append(_text(LEFT + step / 2 + i * step, TOP + PLOT_H + 16, x_name, "middle", 'fill="#333"'))
    body.append(_text(LEFT + (width - LEFT - RIGHT) / 2, TOP + PLOT_H + 34, x_label, "middle", 'fill="#555"'))
    for s, name in enumerate(series):
        color = PALETTE[s % len(PALETTE)]
        points = [
            (LEFT + step / 2 + i * step, v, errors[s][i]) for i, v in enumerate(values[s]) if v is not None
        ]
        if len(points) > 1:
            path = " ".join(
                f"{'M' if j == 0 else 'L'}{x:.1f} {_y(v, vmax):.1f}" for j, (x, v, _) in enumerate(points)
            )
            body.append(f'<path d="{path}" stroke="{color}" stroke-width="2.5" fill="none"/>')
        for x, v, err in points:
            if err:
                body.append(_error_bar(x, v - err, v + err, vmax, color, 1))
            body.append(
                f'<circle cx="{x:.1f}" cy="{_y(v, vmax):.1f}" r="4" fill="{color}"><title>{escape(name)}: {v:.1f}</title></circle>'
            )
    legend_y = TOP + PLOT_H + 58
    body += _legend(series, legend_y)
    return _svg(max(width, _legend_w(series)), int(legend_y + 18 * len(series)), title, body)


def stacked_bars(
    title: str,
    rows: Sequence[str],
    parts: Sequence[str],
    fractions: Sequence[Sequence[float]],
    colors: Sequence[str],
) -> str:
    """One horizontal bar per row split into parts (fractions[row][part], summing to 1)."""
    row_h = 30
    bar_w = max(MIN_W - LEFT - RIGHT, max((_text_w(r) for r in rows), default=0))
    width = int(LEFT + RIGHT + bar_w)
    body = []
    for r, name in enumerate(rows):
        y = TOP + 8 + r * (row_h + 22)
        body.append(_text(LEFT, y - 4, name, "start", 'fill="#333"'))
        x = float(LEFT)
        for p, part in enumerate(parts):
            w = bar_w * fractions[r][p]
            if w <= 0:
                continue
            body.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{row_h}" fill="{colors[p]}">'
                f"<title>{escape(part)}: {100 * fractions[r][p]:.1f}%</title></rect>"
            )
            if w > 34:
                body.append(
                    _text(
                        x + w / 2, y + row_h / 2 + 4, f"{100 * fractions[r][p]:.0f}%", "middle", 'fill="#fff"'
                    )
                )
            x += w
    legend_y = TOP + 22 + len(rows) * (row_h + 22)
    body += _legend(parts, legend_y, colors)
    return _svg(max(width, _legend_w(parts)), int(legend_y + 18 * len(parts)), title, body)


def _nice_axis(top: float) -> tuple[float, int]:
    """A round axis maximum at or above `top`, and how many equal steps make round ticks."""
    if top <= 0:
        return 1.0, 4
    scale = 10 ** math.floor(math.log10(top))
    for mult, steps in ((1, 5), (2, 4), (2.5, 5), (5, 5), (10, 5)):
        if top <= mult * scale:
            return mult * scale, steps
    return 10 * scale, 5


def scatter(
    title: str,
    points: Sequence[tuple[str, float, float, float]],
    *,
    x_label: str,
    y_label: str = "PR %",
    x_format: str = "{:g}",
    vmax: float = 100.0,
) -> str:
    """Labelled points (name, x, y, y error), x from 0 to a round number above the largest x."""
    width = max(MIN_W, _legend_w([p[0] for p in points]))
    xmax, ticks = _nice_axis(max((p[1] for p in points), default=0.0) * 1.08)
    span = width - LEFT - RIGHT - 30
    body = _y_axis(width - 30, vmax, y_label)
    for i in range(ticks + 1):
        value = xmax * i / ticks
        body.append(
            _text(LEFT + span * i / ticks, TOP + PLOT_H + 21, x_format.format(value), "middle", 'fill="#555"')
        )
    body.append(_text(LEFT + span / 2, TOP + PLOT_H + 38, x_label, "middle", 'fill="#555"'))
    for i, (name, x, y, err) in enumerate(points):
        cx = LEFT + span * x / xmax
        color = PALETTE[i % len(PALETTE)]
        if err:
            body.append(_error_bar(cx, y - err, y + err, vmax, color, 1))
        body.append(
            f'<circle cx="{cx:.1f}" cy="{_y(y, vmax):.1f}" r="6" fill="{color}"><title>{escape(name)}</title></circle>'
        )
    legend_y = TOP + PLOT_H + 58
    body += _legend([p[0] for p in points], legend_y)
    return _svg(width, int(legend_y + 18 * len(points)), title, body)


Curve = tuple[str, int, str, Sequence[tuple[float, float, str]]]
"""(legend name, colour index, dash pattern ("" solid), points (x, y, point label))."""


def curves(
    title: str, lines: Sequence[Curve], *, x_label: str, x_format: str = "{:g}", vmax: float = 100.0
) -> str:
    """Lines over a numeric x from 0 (spend), each point marked and labelled on hover; dashes tell kinds
    of line apart, colours tell runs apart."""
    width = max(MIN_W, _legend_w([line[0] for line in lines], 30))
    xmax, ticks = _nice_axis(max((x for *_, pts in lines for x, _, _ in pts), default=0.0) * 1.05)
    span = width - LEFT - RIGHT
    body = _y_axis(width, vmax, "PR %")
    for i in range(ticks + 1):
        label = x_format.format(xmax * i / ticks)
        body.append(_text(LEFT + span * i / ticks, TOP + PLOT_H + 21, label, "middle", 'fill="#555"'))
    body.append(_text(LEFT + span / 2, TOP + PLOT_H + 38, x_label, "middle", 'fill="#555"'))
    for name, color_index, dash, points in lines:
        color = PALETTE[color_index % len(PALETTE)]
        xy = [(LEFT + span * x / xmax, _y(y, vmax), f"{name}, {label}: {y:.1f}%") for x, y, label in points]
        path = " ".join(f"{'M' if j == 0 else 'L'}{x:.1f} {y:.1f}" for j, (x, y, _) in enumerate(xy))
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        body.append(f'<path d="{path}" stroke="{color}" stroke-width="2.2" fill="none"{dashes}/>')
        body += [
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{color}"><title>{escape(t)}</title></circle>'
            for x, y, t in xy
        ]
    legend_y = TOP + PLOT_H + 58
    for i, (name, color_index, dash, _) in enumerate(lines):
        yy = legend_y + 18 * i
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        body.append(
            f'<line x1="{LEFT}" x2="{LEFT + 24}" y1="{yy - 4}" y2="{yy - 4}" stroke="{PALETTE[color_index % len(PALETTE)]}" '
            f'stroke-width="2.2"{dashes}/>'
        )
        body.append(_text(LEFT + 30, yy, name, "start"))
    return _svg(width, int(legend_y + 18 * len(lines)), title, body)


def intervals(
    title: str, rows: Sequence[str], items: Sequence[tuple[float, float, float, float, float] | None]
) -> str:
    """A forest plot: per row the mean, its clustered interval (thick) and the i.i.d. interval (thin)."""
    row_h = 44
    scale = max(MIN_W - LEFT - 40, max((_text_w(r) for r in rows), default=0))
    width = int(LEFT + scale + 40)  # the last tick ("100%") is centred on the axis's end: room beside it
    body = []
    for i in range(6):
        x = LEFT + scale * i / 5
        body.append(
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{TOP}" y2="{TOP + row_h * len(rows)}" stroke="#e3e3e3"/>'
        )
        body.append(_text(x, TOP + row_h * len(rows) + 14, f"{20 * i}%", "middle", 'fill="#555"'))
    for r, (name, item) in enumerate(zip(rows, items, strict=True)):
        y = TOP + r * row_h
        body.append(_text(LEFT, y + 12, name, "start", 'fill="#333"'))
        if item is None:
            continue
        mean, lo, hi, iid_lo, iid_hi = (LEFT + scale * v / 100 for v in item)
        color = PALETTE[r % len(PALETTE)]
        body.append(
            f'<line x1="{iid_lo:.1f}" x2="{iid_hi:.1f}" y1="{y + 34}" y2="{y + 34}" stroke="{color}" stroke-width="2"/>'
        )
        body.append(
            f'<line x1="{lo:.1f}" x2="{hi:.1f}" y1="{y + 24}" y2="{y + 24}" stroke="{color}" stroke-width="7"/>'
        )
        body.append(f'<circle cx="{mean:.1f}" cy="{y + 24}" r="5" fill="#111"/>')
    foot = TOP + row_h * len(rows) + 34
    body.append(
        _text(
            LEFT,
            foot,
            "thick: clustered 95% interval (libraries, then samples) · thin: i.i.d. 95% interval",
            "start",
            'fill="#555"',
        )
    )
    return _svg(width, int(foot + 10), title, body)

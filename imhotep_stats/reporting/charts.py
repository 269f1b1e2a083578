"""Self-contained SVG charts for the HTML report (no network, no JavaScript).

Small and dependency-free on purpose: a report must open anywhere, offline, from a CI
artifact. Each function takes plain lists and returns an ``<svg>`` string.
"""

from __future__ import annotations

import math
from html import escape

from imhotep_stats.reporting.palette import SEATS, source_colour

# Series that are neither seats nor sources (bots, lineups, point-of-view series): one
# palette of their own, so that no colour means a seat on one chart and a bot on the next.
PALETTE = ["#4d4d4d", "#8e6bb8", "#d1495b", "#3b8ea5", "#9c755f", "#bab0ac"]
NEUTRAL = "#5b6b7f"  # bars that need no colour to tell them apart
FONT_SIZE = 14
FONT = f'font-family="system-ui, sans-serif" font-size="{FONT_SIZE}"'
CHAR_W = 0.57 * FONT_SIZE  # about the width of one character at that size, for legends
WIDTH = 440
"""A chart's natural width (viewBox units). Charts scale down to the page (``_open``): on a
390 px phone a chart gets about 368 px, so its FONT_SIZE text draws at 14 x 368 / 440, above
the 11 px the browser test asks (tests/test_html_browser.py). A wider chart shrinks its text
below that on a phone: use this width, and more height rather than more width."""


def _nice_max(v: float) -> float:
    if v <= 0:
        return 1.0
    for step in (0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000):
        if v <= step * 5:
            return step * (int(v / step) + 1)
    return v * 1.1


def _nice_axis(v: float, most: int = 5) -> tuple[float, int]:
    """(step, ticks) with step 1, 2, 2.5 or 5 x 10^k and ticks * step >= v, ticks <= most:
    axis labels read as round numbers (0, 10, 20, 30%), not 12% or 38%."""
    if v <= 0:
        return 1.0, 1
    k = math.floor(math.log10(v / most))
    for base in (1, 2, 2.5, 5, 10, 20, 25, 50):
        step = base * 10.0**k
        ticks = math.ceil(v / step - 1e-9)
        if ticks <= most:
            return step, max(ticks, 1)
    return v / most, most  # pragma: no cover - the loop always returns


def _tick(v: float, step: float, percent: bool) -> str:
    """An axis label with as many decimals as the step needs."""
    x, st = (v * 100, step * 100) if percent else (v, step)
    digits = 0 if abs(st - round(st)) < 1e-9 else (1 if abs(st * 10 - round(st * 10)) < 1e-9
                                                   else 2)
    return f"{x:.{digits}f}" + ("%" if percent else "")


def _open(width: int, height: int, title: str, left: int) -> list[str]:
    """The ``<svg>`` element and the bold title every chart starts with."""
    # viewBox + max-width: the chart scales down with the page (phones) and never overflows
    return [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" style="max-width: 100%; height: auto" '
            f'role="img" aria-label="{escape(title)}" {FONT}>',
            f'<text x="{min(left, 10)}" y="18" font-weight="bold">{escape(title)}</text>']


def _title_legend(names: list[str], width: int, colours: list[str] | None = None,
                  title: str = "", left: int = 0) -> tuple[list[str], int]:
    """A legend right-aligned on the title line, so it never covers the data; on a line of
    its own under the title when the two do not fit side by side. Returns the legend and
    the height it adds above the plot (0 or one line)."""
    colours = colours or [PALETTE[j % len(PALETTE)] for j in range(len(names))]
    need = sum(14 + CHAR_W * len(name) + 10 for name in names)
    below = min(left, 10) + CHAR_W * 1.05 * len(title) + 16 + need > width - 20
    y = 18 + (LINE if below else 0)
    out = []
    x = width - 20
    for j, name in reversed(list(enumerate(names))):
        x -= 14 + CHAR_W * len(name) + 10
        out.append(f'<rect x="{x:.1f}" y="{y - 9}" width="10" height="10" '
                   f'fill="{colours[j]}"/><text x="{x + 14:.1f}" y="{y}">'
                   f'{escape(name)}</text>')
    return out, (LINE if below else 0)


LINE = 20  # a line of chart text


def _x_title(text: str, x: float, y: float, width: int) -> str:
    """The x axis's title, what the axis measures in words: centred on ``x``, moved in as
    far as it must to stay inside the chart."""
    half = CHAR_W * len(text) / 2 + 4
    x = max(half, min(x, width - half))
    return f'<text class="x-title" x="{x:.1f}" y="{y:.1f}" text-anchor="middle">{escape(text)}</text>'


def _y_grid(step: float, ticks: int, y, left: int, plot_w: float, percent: bool,
            stroke: str = "#ddd", baseline: str | None = None) -> list[str]:
    """Horizontal grid lines at 0, step, ..., ticks * step, labelled on the left;
    ``y`` maps a value to its pixel row. ``baseline``: another colour for the zero line."""
    out = []
    for k in range(ticks + 1):
        v = step * k
        colour = baseline if k == 0 and baseline else stroke
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                   f'stroke="{colour}"/><text x="{left - 6}" y="{y(v) + 4:.1f}" '
                   f'text-anchor="end">{_tick(v, step, percent)}</text>')
    return out


def interval_bars(labels: list[str], values: list[float], lows: list[float], highs: list[float],
                  *, title: str, reference: float | None = None, percent: bool = True,
                  width: int = WIDTH, colours: list[str] | None = None,
                  y_label: str = "win rate", x_label: str = "") -> str:
    """Vertical bars with 95% interval whiskers and an optional reference line (fair share).
    ``colours``: per bar (seats pass the seat palette); one neutral colour otherwise;
    ``x_label``: what the bars are (seats, lineups, points behind), under their labels."""
    n = max(len(labels), 1)
    h, top, bottom, left = 260 + (LINE if x_label else 0), 30, 40 + (LINE if x_label else 0), 62
    plot_w, plot_h = width - left - 20, h - top - bottom
    step, ticks = _nice_axis(max([*highs, *values, reference or 0, 0.01]))
    vmax = step * ticks
    y = lambda v: top + plot_h * (1 - v / vmax)  # noqa: E731
    bw = plot_w / n * 0.6
    parts = _open(width, h, title, left) + _y_grid(step, ticks, y, left, plot_w, percent)
    parts.append(_y_title(y_label, top + plot_h / 2))
    for i, (lab, v, lo, hi) in enumerate(zip(labels, values, lows, highs, strict=True)):
        cx = left + plot_w * (i + 0.5) / n
        parts.append(f'<rect x="{cx - bw / 2:.1f}" y="{y(v):.1f}" width="{bw:.1f}" '
                     f'height="{max(y(0) - y(v), 0):.1f}" fill="{colours[i] if colours else NEUTRAL}">'
                     f'<title>{escape(lab)}: {v:.4f} [{lo:.4f}, {hi:.4f}]</title></rect>')
        parts.append(f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{y(lo):.1f}" y2="{y(hi):.1f}" '
                     f'stroke="#222" stroke-width="1.5"/>')
        for yy in (y(lo), y(hi)):
            parts.append(f'<line x1="{cx - 6:.1f}" x2="{cx + 6:.1f}" y1="{yy:.1f}" y2="{yy:.1f}" '
                         f'stroke="#222" stroke-width="1.5"/>')
        parts.append(f'<text x="{cx:.1f}" y="{h - bottom + 16}" text-anchor="middle">{escape(lab)}</text>')
    if reference is not None:
        parts.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(reference):.1f}" '
                     f'y2="{y(reference):.1f}" stroke="#c00" stroke-dasharray="5,4"/>'
                     f'<text x="{left + plot_w}" y="{y(reference) - 4:.1f}" text-anchor="end" '
                     f'fill="#c00">fair share</text>')
    if x_label:
        parts.append(_x_title(x_label, left + plot_w / 2, h - bottom + 16 + LINE, width))
    parts.append("</svg>")
    return "".join(parts)


def stacked_bars(labels: list[str], series: dict[str, list[float]], *, title: str,
                 width: int = WIDTH, keys: list[str] | None = None,
                 x_label: str = "mean points per game") -> str:
    """Horizontal stacked bars: one bar per label, one segment per series (score sources,
    coloured by source: ``keys`` are the sources' table names, in series order), on an x
    axis titled ``x_label``; the legend under it, as many names a row as fit."""
    n = max(len(labels), 1)
    row, top = 26, 30
    left = min(int(CHAR_W * max([len(x) for x in labels] + [4])) + 14, width // 3)
    colours = [source_colour(k) for k in (keys or list(series))]
    longest = max([len(name) for name in series] + [1])
    per_row = max(1, int((width - 20) // (14 + CHAR_W * longest + 10)))
    legend_rows = (len(series) + per_row - 1) // per_row
    axis_y = top + n * row
    h = axis_y + 2 * LINE + 10 + legend_rows * 18
    plot_w = width - left - 44
    totals = [sum(vals[i] for vals in series.values()) for i in range(len(labels))]
    vmax = _nice_max(max([*totals, 1]))
    parts = _open(width, h, title, left)
    step, ticks = _nice_axis(vmax, 4)
    for k in range(ticks + 1):
        v = step * k
        if v > vmax + 1e-9:
            break
        x = left + plot_w * v / vmax
        parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{axis_y + 4}" '
                     f'stroke="#e5e5e5"/><text x="{x:.1f}" y="{axis_y + 16}" '
                     f'text-anchor="middle">{_tick(v, step, False)}</text>')
    parts.append(_x_title(x_label, left + plot_w / 2, axis_y + 16 + LINE, width))
    for i, lab in enumerate(labels):
        yy = top + i * row
        parts.append(f'<text x="{left - 6}" y="{yy + 15}" text-anchor="end">{escape(lab)}</text>')
        x = left
        for j, (name, vals) in enumerate(series.items()):
            w = plot_w * vals[i] / vmax
            if w <= 0:
                continue
            parts.append(f'<rect x="{x:.1f}" y="{yy + 3}" width="{w:.1f}" height="{row - 8}" '
                         f'fill="{colours[j]}"><title>{escape(lab)} · {escape(name)}: '
                         f'{vals[i]:.2f}</title></rect>')
            x += w
        parts.append(f'<text x="{x + 4:.1f}" y="{yy + 15}">{totals[i]:.1f}</text>')
    ly = axis_y + 2 * LINE + 14
    for j, name in enumerate(series):  # from the left edge, as many a row as fit whole
        lx = 10 + (j % per_row) * ((width - 20) / per_row)
        yy = ly + (j // per_row) * 18
        parts.append(f'<rect x="{lx:.1f}" y="{yy - 10}" width="10" height="10" '
                     f'fill="{colours[j]}"/><text x="{lx + 14:.1f}" y="{yy}">{escape(name)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def histogram(series: dict[str, list[tuple[float, int]]], *, title: str, width: int = WIDTH,
              bin_width: float | None = None, y_label: str = "games", x_label: str = "points",
              colours: list[str] | None = None) -> str:
    """Overlaid step histograms: ``series`` maps a label to (bin start, count) pairs.

    Bins are ``bin_width`` wide (default: the smallest gap between bin starts). The legend
    sits on the title line, so it never covers a bar; both axes get round tick values."""
    colours = colours or [PALETTE[j % len(PALETTE)] for j in range(len(series))]
    legend, extra = (_title_legend(list(series), width, colours, title, 62) if len(series) > 1
                     else ([], 0))
    h, top, bottom, left = 266 + extra, 34 + extra, 52, 62
    plot_w, plot_h = width - left - 20, h - top - bottom
    xs = sorted({b for pts in series.values() for b, _ in pts}) or [0.0]
    bin_w = bin_width or min((b - a for a, b in zip(xs, xs[1:], strict=False)), default=1) or 1
    xmin, xmax = xs[0], xs[-1] + bin_w
    ystep, yticks = _nice_axis(max([c for pts in series.values() for _, c in pts] + [1]), 4)
    if ystep < 1:
        ystep, yticks = 1.0, max(1, yticks)
    cmax = ystep * yticks
    X = lambda v: left + plot_w * (v - xmin) / max(xmax - xmin, 1e-9)  # noqa: E731
    Y = lambda c: top + plot_h * (1 - c / cmax)  # noqa: E731
    parts = _open(width, h, title, left) + _y_grid(ystep, yticks, Y, left, plot_w, False,
                                                   stroke="#eee", baseline="#999")
    parts.append(_y_title(y_label, top + plot_h / 2))
    parts.append(_x_title(x_label, left + plot_w / 2, h - 8, width))
    xstep, xticks = _nice_axis(xmax - xmin, 6)
    first = xstep * -(-xmin // xstep)
    v = first
    while v <= xmax + 1e-9:
        parts.append(f'<line x1="{X(v):.1f}" x2="{X(v):.1f}" y1="{Y(0):.1f}" '
                     f'y2="{Y(0) + 4:.1f}" stroke="#999"/><text x="{X(v):.1f}" '
                     f'y="{h - bottom + 16}" text-anchor="middle">{_tick(v, xstep, False)}</text>')
        v += xstep
    for j, (name, pts) in enumerate(series.items()):
        color = colours[j]
        d = [f"M{X(xmin):.1f},{Y(0):.1f}"]
        for b, c in sorted(pts):
            d.append(f"H{X(b):.1f} V{Y(c):.1f} H{X(b + bin_w):.1f} V{Y(0):.1f}")
        parts.append(f'<path d="{" ".join(d)}" stroke="{color}" stroke-width="1.6" '
                     f'fill="{color}" fill-opacity="0.10"><title>{escape(name)}</title></path>')
    parts += legend
    parts.append("</svg>")
    return "".join(parts)


def _y_title(text: str, mid: float) -> str:
    """The y axis's title, turned along the axis."""
    return (f'<text class="y-title" x="14" y="{mid:.1f}" text-anchor="middle" '
            f'transform="rotate(-90 14 {mid:.1f})">{escape(text)}</text>')


def interval_rows(labels: list[str], values: list[float], lows: list[float],
                  highs: list[float], *, title: str, x_label: str, reference: float = 0.0,
                  reference_label: str = "", percent: bool = False, width: int = WIDTH,
                  colours: list[str] | None = None) -> str:
    """One row per label (full names, left), a point with its interval whiskers on a shared
    horizontal axis, and a reference line: cards, score sources, cells. Narrow pages keep
    it readable: it grows down, not sideways."""
    n = max(len(labels), 1)
    row, top, bottom = 24, 32, 46
    left = min(int(CHAR_W * max([len(x) for x in labels] + [4])) + 14, width // 2)
    plot_w = width - left - 24
    h = top + n * row + bottom
    finite = [x for x in [*lows, *highs, *values, reference] if x == x]
    lo, hi = min(finite + [0.0]), max(finite + [0.0])
    step, ticks_hi = _nice_axis(max(hi, 1e-9), 4)
    ticks_lo = math.ceil(-lo / step - 1e-9) if lo < 0 else 0
    vmin, vmax = -ticks_lo * step, ticks_hi * step
    X = lambda v: left + plot_w * (v - vmin) / max(vmax - vmin, 1e-12)  # noqa: E731
    parts = _open(width, h, title, 10)
    for k in range(-ticks_lo, ticks_hi + 1):
        v = k * step
        parts.append(f'<line x1="{X(v):.1f}" x2="{X(v):.1f}" y1="{top}" y2="{top + n * row}" '
                     f'stroke="#e5e5e5"/><text x="{X(v):.1f}" y="{top + n * row + 16}" '
                     f'text-anchor="middle">{_tick(v, step, percent)}</text>')
    parts.append(f'<line x1="{X(reference):.1f}" x2="{X(reference):.1f}" y1="{top - 4}" '
                 f'y2="{top + n * row}" stroke="#c00" stroke-dasharray="5,4"/>')
    if reference_label:
        parts.append(f'<text x="{X(reference) + 4:.1f}" y="{top + 8}" fill="#c00">'
                     f'{escape(reference_label)}</text>')
    for i, lab in enumerate(labels):
        cy = top + i * row + row / 2
        colour = colours[i] if colours else NEUTRAL
        parts.append(f'<text x="{left - 8}" y="{cy + 4:.1f}" text-anchor="end">{escape(lab)}</text>')
        v, a, b = values[i], lows[i], highs[i]
        if v != v:
            continue
        parts.append(f'<line x1="{X(a):.1f}" x2="{X(b):.1f}" y1="{cy:.1f}" y2="{cy:.1f}" '
                     f'stroke="{colour}" stroke-width="2"/>')
        parts.append(f'<circle cx="{X(v):.1f}" cy="{cy:.1f}" r="4.5" fill="{colour}">'
                     f'<title>{escape(lab)}: {_tick(v, step / 100, percent)} '
                     f'[{_tick(a, step / 100, percent)}, {_tick(b, step / 100, percent)}]'
                     '</title></circle>')
    parts.append(_x_title(x_label, left + plot_w / 2, h - 8, width))
    parts.append("</svg>")
    return "".join(parts)


def seat_colours(n: int) -> list[str]:
    return [SEATS[p % len(SEATS)] for p in range(n)]


def band_points(xs: list[str], series: dict[str, list[tuple[float, float, float]]], *,
                band: tuple[float, float], title: str, percent: bool = True,
                band_label: str = "goal", width: int = WIDTH, mark: int | None = None,
                mark_label: str = "", x_label: str = "", y_label: str = "") -> str:
    """A target against candidate values: per series a point with its interval whiskers at
    each x, over a shaded band (the goal ± margin). Series are offset a little sideways so
    their whiskers do not overlap; a legend on the title line names them."""
    legend, extra = (_title_legend(list(series), width, None, title, 62) if len(series) > 1
                     else ([], 0))
    h, top, bottom, left = 280 + extra, 34 + extra, 54, 62
    plot_w, plot_h = width - left - 20, h - top - bottom
    values = [x for pts in series.values() for p in pts for x in p if x == x]
    step, ticks = _nice_axis(max([*values, band[1], 0.01]))
    vmax = step * ticks
    y = lambda v: top + plot_h * (1 - min(max(v, 0.0), vmax) / vmax)  # noqa: E731
    n = max(len(xs), 1)
    parts = _open(width, h, title, left)
    parts.append(f'<rect x="{left}" y="{y(band[1]):.1f}" width="{plot_w}" '
                 f'height="{max(y(band[0]) - y(band[1]), 1):.1f}" fill="#1a7f37" '
                 f'fill-opacity="0.13"><title>{escape(band_label)}</title></rect>')
    parts += _y_grid(step, ticks, y, left, plot_w, percent)
    k = len(series)
    for j, (name, pts) in enumerate(series.items()):
        colour = PALETTE[j % len(PALETTE)]
        shift = (j - (k - 1) / 2) * min(12.0, plot_w / n / (k + 1))
        for i, (v, lo, hi) in enumerate(pts):
            if v != v:  # nan: no games
                continue
            cx = left + plot_w * (i + 0.5) / n + shift
            parts.append(f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{y(lo):.1f}" y2="{y(hi):.1f}" '
                         f'stroke="{colour}" stroke-width="2"/>')
            parts.append(f'<circle cx="{cx:.1f}" cy="{y(v):.1f}" r="4.5" fill="{colour}">'
                         f'<title>{escape(xs[i])}{" · " + escape(name) if name else ""}: '
                         f'{_tick(v, step / 100, percent)} [{_tick(lo, step / 100, percent)}, '
                         f'{_tick(hi, step / 100, percent)}]</title></circle>')
    for i, lab in enumerate(xs):
        cx = left + plot_w * (i + 0.5) / n
        parts.append(f'<text x="{cx:.1f}" y="{h - bottom + 16}" text-anchor="middle"'
                     + (' font-weight="bold"' if i == mark else "") + f'>{escape(lab)}</text>')
    if mark is not None:  # the value the board prints, among the candidates
        cx = left + plot_w * (mark + 0.5) / n
        parts.append(f'<line class="printed" x1="{cx:.1f}" x2="{cx:.1f}" y1="{top}" '
                     f'y2="{top + plot_h}" stroke="#333" stroke-dasharray="2,3"/>'
                     f'<text x="{cx + 4:.1f}" y="{top + 12}">{escape(mark_label)}</text>')
    if x_label:
        parts.append(_x_title(x_label, left + plot_w / 2, h - 6, width))
    if y_label:
        parts.append(_y_title(y_label, top + plot_h / 2))
    parts += legend
    parts.append("</svg>")
    return "".join(parts)

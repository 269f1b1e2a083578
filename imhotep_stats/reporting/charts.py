"""Self-contained SVG charts for the HTML report (no network, no JavaScript).

Small and dependency-free on purpose: a report must open anywhere, offline, from a CI
artifact. Each function takes plain lists and returns an ``<svg>`` string.

Any values draw: every axis comes from :func:`axis`, which draws at most ``MAX_TICKS + 1``
grid lines whatever the values (negative, all zero, one value, huge or tiny ranges); NaN
values are left out and infinite ones drawn at the axis's edge. A chart's size grows with
its rows, never with its values.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
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


MAX_TICKS = 10  # the most intervals between grid lines an axis has, whatever it is asked
LIMIT = 1e300  # finite values beyond it are drawn at it (steps stay finite floats)
_BASES = (1, 2, 2.5, 5, 10, 20, 25, 50)


def finite(values: Iterable[float]) -> list[float]:
    """The values an axis can place: NaN and infinities left out, the rest within ±LIMIT."""
    return [min(max(float(v), -LIMIT), LIMIT) for v in values if math.isfinite(v)]


def axis(values: Iterable[float], most: int = 5, zero: bool = True) -> tuple[float, int, int]:
    """A round axis over the finite ``values`` (and 0 when ``zero``): ``(step, first, last)``
    with grid lines at ``k * step`` for k from ``first`` to ``last``, the step 1, 2, 2.5 or 5
    x 10^k, so labels read 0, 10, 20, 30% and not 12% or 38%.

    ``0 < last - first <= min(most, MAX_TICKS)`` by construction, whatever the values: an
    axis never costs more than a few lines to draw."""
    most = max(1, min(int(most), MAX_TICKS))
    xs = finite(values) + ([0.0] if zero else [])
    lo, hi = (min(xs), max(xs)) if xs else (0.0, 1.0)
    size = max(abs(lo), abs(hi))
    # one value (or all equal) spans its own size; a range far below the values' size is
    # widened to where floats still tell the ticks apart
    span = max(hi - lo, size * 1e-9, 1e-250) if hi > lo else max(size, 1.0)
    k = math.floor(math.log10(span / most))
    for base in _BASES:  # the last base always fits: 50 x 10^k >= 5 span / most
        step = base * 10.0**k
        first, last = math.floor(lo / step), math.ceil(hi / step)
        if last - first <= most:
            break
    last = min(max(last, first + 1), first + most)
    return step, first, last


def scale(first: int, last: int, step: float, a: float, b: float):
    """The map from a value to a pixel: ``first * step`` to ``a``, ``last * step`` to ``b``;
    values beyond the axis (infinities too) go to its edge, NaN to its start."""
    lo, hi = first * step, last * step
    width = hi - lo

    def at(v: float) -> float:
        v = min(max(v, lo), hi) if v == v else lo
        return a + (b - a) * (v - lo) / width

    return at


def _decimals(step: float) -> int:
    """Decimals a round step needs (2.5 needs one, 0.25 two)."""
    for d in range(16):
        scaled = step * 10**d
        if abs(scaled - round(scaled)) <= 1e-9 * max(scaled, 1.0):
            return d
    return 16


def tick(v: float, step: float, percent: bool) -> str:
    """A label with as many decimals as ``step`` needs; very large or small: 4 digits."""
    if not math.isfinite(v):
        return str(v)
    x, st = (v * 100, step * 100) if percent else (v, step)
    digits = _decimals(st) if st > 0 else 2
    text = f"{x:.4g}" if digits > 8 or abs(x) >= 1e12 else f"{x:.{digits}f}"
    if float(text.rstrip("%")) == 0:
        text = text.lstrip("-")  # no "-0"
    return text + ("%" if percent else "")


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


def _y_grid(step: float, first: int, last: int, y, left: int, plot_w: float, percent: bool,
            stroke: str = "#ddd", baseline: str | None = None) -> list[str]:
    """Horizontal grid lines at ``first * step`` ... ``last * step``, labelled on the left;
    ``y`` maps a value to its pixel row. ``baseline``: another colour for the zero line."""
    out = []
    for k in range(first, last + 1):
        v = step * k
        colour = baseline if k == 0 and baseline else stroke
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                   f'stroke="{colour}"/><text x="{left - 6}" y="{y(v) + 4:.1f}" '
                   f'text-anchor="end">{tick(v, step, percent)}</text>')
    return out


def _fmt(v: float, digits: int = 4) -> str:
    return f"{v:.{digits}f}" if math.isfinite(v) else str(v)


def interval_bars(labels: list[str], values: list[float], lows: list[float], highs: list[float],
                  *, title: str, reference: float | None = None, percent: bool = True,
                  width: int = WIDTH, colours: list[str] | None = None,
                  y_label: str = "win rate", x_label: str = "") -> str:
    """Vertical bars from 0 with 95% interval whiskers and an optional reference line (fair share).
    ``colours``: per bar (seats pass the seat palette); one neutral colour otherwise;
    ``x_label``: what the bars are (seats, lineups, points behind), under their labels."""
    n = max(len(labels), 1)
    h, top, bottom, left = 260 + (LINE if x_label else 0), 30, 40 + (LINE if x_label else 0), 62
    plot_w, plot_h = width - left - 20, h - top - bottom
    ref = [] if reference is None else [reference]
    step, first, last = axis([*highs, *lows, *values, *ref, 0.01])
    y = scale(first, last, step, top + plot_h, top)
    bw = plot_w / n * 0.6
    parts = _open(width, h, title, left) + _y_grid(step, first, last, y, left, plot_w, percent)
    parts.append(_y_title(y_label, top + plot_h / 2))
    for i, (lab, v, lo, hi) in enumerate(zip(labels, values, lows, highs, strict=True)):
        cx = left + plot_w * (i + 0.5) / n
        if v == v:
            parts.append(f'<rect x="{cx - bw / 2:.1f}" y="{min(y(v), y(0)):.1f}" '
                         f'width="{bw:.1f}" height="{abs(y(0) - y(v)):.1f}" '
                         f'fill="{colours[i] if colours else NEUTRAL}">'
                         f'<title>{escape(lab)}: {_fmt(v)} [{_fmt(lo)}, {_fmt(hi)}]</title></rect>')
        if lo == lo and hi == hi:
            parts.append(f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{y(lo):.1f}" y2="{y(hi):.1f}" '
                         f'stroke="#222" stroke-width="1.5"/>')
            for yy in (y(lo), y(hi)):
                parts.append(f'<line x1="{cx - 6:.1f}" x2="{cx + 6:.1f}" y1="{yy:.1f}" '
                             f'y2="{yy:.1f}" stroke="#222" stroke-width="1.5"/>')
        parts.append(f'<text x="{cx:.1f}" y="{h - bottom + 16}" text-anchor="middle">{escape(lab)}</text>')
    if reference is not None and reference == reference:
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
    axis titled ``x_label``; the legend under it, as many names a row as fit. Segments
    with no positive finite value are not drawn."""
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
    drawn = {name: [min(v, LIMIT) if math.isfinite(v) and v > 0 else 0.0 for v in vals]
             for name, vals in series.items()}
    totals = [math.fsum(vals[i] for vals in drawn.values()) for i in range(len(labels))]
    step, first, last = axis([*totals, 1], 4)
    x_of = scale(0, last, step, left, left + plot_w)
    parts = _open(width, h, title, left)
    for k in range(first, last + 1):
        v = step * k
        x = x_of(v)
        parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{axis_y + 4}" '
                     f'stroke="#e5e5e5"/><text x="{x:.1f}" y="{axis_y + 16}" '
                     f'text-anchor="middle">{tick(v, step, False)}</text>')
    parts.append(_x_title(x_label, left + plot_w / 2, axis_y + 16 + LINE, width))
    for i, lab in enumerate(labels):
        yy = top + i * row
        parts.append(f'<text x="{left - 6}" y="{yy + 15}" text-anchor="end">{escape(lab)}</text>')
        x, acc = float(left), 0.0
        for j, (name, vals) in enumerate(drawn.items()):
            if vals[i] <= 0:
                continue
            w = x_of(acc + vals[i]) - x_of(acc)
            acc += vals[i]
            parts.append(f'<rect x="{x:.1f}" y="{yy + 3}" width="{w:.1f}" height="{row - 8}" '
                         f'fill="{colours[j]}"><title>{escape(lab)} · {escape(name)}: '
                         f'{series[name][i]:.2f}</title></rect>')
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
    points = {name: sorted((float(b), c) for b, c in pts if math.isfinite(b)
                           and math.isfinite(c)) for name, pts in series.items()}
    xs = sorted({b for pts in points.values() for b, _ in pts}) or [0.0]
    gap = min((b - a for a, b in zip(xs, xs[1:], strict=False)), default=1.0)
    bin_w = bin_width if bin_width and math.isfinite(bin_width) and bin_width > 0 else gap
    xmin, xmax = xs[0], xs[-1] + bin_w
    ystep, yfirst, ylast = axis([c for pts in points.values() for _, c in pts] + [1], 4)
    if ystep < 1:  # counts: whole numbers of games
        yfirst, ylast, ystep = math.floor(yfirst * ystep), math.ceil(ylast * ystep), 1.0
    Y = scale(yfirst, ylast, ystep, top + plot_h, top)
    xstep, xfirst, xlast = axis([xmin, xmax], 6, zero=False)
    X = scale(xfirst, xlast, xstep, left, left + plot_w)
    parts = _open(width, h, title, left) + _y_grid(ystep, yfirst, ylast, Y, left, plot_w, False,
                                                   stroke="#eee", baseline="#999")
    parts.append(_y_title(y_label, top + plot_h / 2))
    parts.append(_x_title(x_label, left + plot_w / 2, h - 8, width))
    for k in range(xfirst, xlast + 1):
        v = k * xstep
        parts.append(f'<line x1="{X(v):.1f}" x2="{X(v):.1f}" y1="{Y(0):.1f}" '
                     f'y2="{Y(0) + 4:.1f}" stroke="#999"/><text x="{X(v):.1f}" '
                     f'y="{h - bottom + 16}" text-anchor="middle">{tick(v, xstep, False)}</text>')
    for j, (name, pts) in enumerate(points.items()):
        color = colours[j]
        d = [f"M{X(xmin):.1f},{Y(0):.1f}"]
        for b, c in pts:
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
    step, first, last = axis([*lows, *highs, *values, reference], 4)
    X = scale(first, last, step, left, left + plot_w)
    parts = _open(width, h, title, 10)
    for k in range(first, last + 1):
        v = k * step
        parts.append(f'<line x1="{X(v):.1f}" x2="{X(v):.1f}" y1="{top}" y2="{top + n * row}" '
                     f'stroke="#e5e5e5"/><text x="{X(v):.1f}" y="{top + n * row + 16}" '
                     f'text-anchor="middle">{tick(v, step, percent)}</text>')
    if reference == reference:
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
        if a == a and b == b:
            parts.append(f'<line x1="{X(a):.1f}" x2="{X(b):.1f}" y1="{cy:.1f}" y2="{cy:.1f}" '
                         f'stroke="{colour}" stroke-width="2"/>')
        parts.append(f'<circle cx="{X(v):.1f}" cy="{cy:.1f}" r="4.5" fill="{colour}">'
                     f'<title>{escape(lab)}: {tick(v, step / 100, percent)} '
                     f'[{tick(a, step / 100, percent)}, {tick(b, step / 100, percent)}]'
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
    values = [x for pts in series.values() for p in pts for x in p]
    step, first, last = axis([*values, *band, 0.01])
    y = scale(first, last, step, top + plot_h, top)
    n = max(len(xs), 1)
    parts = _open(width, h, title, left)
    if band[0] == band[0] and band[1] == band[1]:
        parts.append(f'<rect x="{left}" y="{y(band[1]):.1f}" width="{plot_w}" '
                     f'height="{max(y(band[0]) - y(band[1]), 1):.1f}" fill="#1a7f37" '
                     f'fill-opacity="0.13"><title>{escape(band_label)}</title></rect>')
    parts += _y_grid(step, first, last, y, left, plot_w, percent)
    k = len(series)
    for j, (name, pts) in enumerate(series.items()):
        colour = PALETTE[j % len(PALETTE)]
        shift = (j - (k - 1) / 2) * min(12.0, plot_w / n / (k + 1))
        for i, (v, lo, hi) in enumerate(pts):
            if v != v:  # nan: no games
                continue
            cx = left + plot_w * (i + 0.5) / n + shift
            if lo == lo and hi == hi:
                parts.append(f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{y(lo):.1f}" '
                             f'y2="{y(hi):.1f}" stroke="{colour}" stroke-width="2"/>')
            parts.append(f'<circle cx="{cx:.1f}" cy="{y(v):.1f}" r="4.5" fill="{colour}">'
                         f'<title>{escape(xs[i])}{" · " + escape(name) if name else ""}: '
                         f'{tick(v, step / 100, percent)} [{tick(lo, step / 100, percent)}, '
                         f'{tick(hi, step / 100, percent)}]</title></circle>')
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

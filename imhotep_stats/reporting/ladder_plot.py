"""The ladder's picture: each bot's rating (bootstrap 95% interval) against its CPU seconds a
game, on a log axis, one series per side set (``imhotep-stats ladder plot``).

A plain SVG (no plotting library), so a docs page shows it anywhere.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from html import escape
from pathlib import Path

from imhotep_stats.reporting.charts import FONT, PALETTE, axis, scale, tick
from imhotep_stats.stats.ladder import bootstrap_ratings, read

Point = tuple[str, float, float, float, float]  # name, rating, low, high, CPU s a game


def rating_vs_cpu_svg(series: dict[str, list[Point]], title: str, width: int = 640,
                      height: int = 400) -> str:
    """One labelled dot with a vertical interval per bot and series; x: log10 CPU."""
    series = {k: [p for p in ps if _drawable(p)] for k, ps in series.items()}
    pts = [p for ps in series.values() for p in ps]
    if not pts:
        raise ValueError("no bot with a measured CPU time to plot")
    left, right, top, bottom = 60, 20, 40, 50
    pw, ph = width - left - right, height - top - bottom
    logs = [math.log10(p[4]) for p in pts]
    x0, x1 = math.floor(min(logs)), math.ceil(max(logs))
    x1 = max(x1, x0 + 1)
    every = -(-(x1 - x0) // 8)  # decades between grid lines: at most 9 lines
    to_x = scale(x0, x1, 1.0, left, left + pw)
    step, y0, y1 = axis([x for p in pts for x in p[1:4]], 8, zero=False)
    Y = scale(y0, y1, step, top + ph, top)

    def X(c: float) -> float:
        return to_x(math.log10(c))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}" {FONT}>',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="20" font-weight="bold">{escape(title)}</text>']
    for k in range(y0, y1 + 1):
        v = k * step
        label = ("+" if v > 0 else "") + tick(v, step, False)
        out.append(f'<line x1="{left}" x2="{left + pw}" y1="{Y(v):.1f}" y2="{Y(v):.1f}" '
                   f'stroke="#ddd"/><text x="{left - 6}" y="{Y(v) + 4:.1f}" '
                   f'text-anchor="end">{label}</text>')
    for e in range(x0, x1 + 1, every):
        c = 10.0 ** e
        label = f"{c:g}"
        out.append(f'<line x1="{X(c):.1f}" x2="{X(c):.1f}" y1="{top}" y2="{top + ph}" '
                   f'stroke="#eee"/><text x="{X(c):.1f}" y="{top + ph + 16}" '
                   f'text-anchor="middle">{label}</text>')
    out.append(f'<text x="{left + pw / 2}" y="{height - 10}" text-anchor="middle">CPU seconds '
               'a seat-game (one core, log scale)</text>')
    out.append(f'<text x="14" y="{top + ph / 2}" transform="rotate(-90 14 {top + ph / 2})" '
               'text-anchor="middle">rating (Elo scale, greedy = 0)</text>')
    lx = left + 10
    for j, (label, ps) in enumerate(series.items()):
        colour = PALETTE[j % len(PALETTE)]
        out.append(f'<rect x="{lx}" y="{top + 4}" width="10" height="10" fill="{colour}"/>'
                   f'<text x="{lx + 14}" y="{top + 13}">{escape(label)}</text>')
        lx += 24 + 7 * len(label)
        line = sorted(ps, key=lambda p: p[4])
        if len(line) > 1:
            d = " ".join(f"{X(p[4]):.1f},{Y(p[1]):.1f}" for p in line)
            out.append(f'<polyline points="{d}" fill="none" stroke="{colour}" '
                       'stroke-opacity="0.5"/>')
        for name, r, lo, hi, c in line:
            x = X(c) + 3 * j  # series side by side where a bot is in both
            out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{Y(lo):.1f}" y2="{Y(hi):.1f}" '
                       f'stroke="{colour}" stroke-width="1.5"/>'
                       f'<circle cx="{x:.1f}" cy="{Y(r):.1f}" r="4" fill="{colour}">'
                       f'<title>{escape(name)}: {r:+.0f} ({lo:+.0f} to {hi:+.0f}), {c:.3g} s'
                       f'</title></circle><text x="{x + 6:.1f}" y="{Y(r) - 6:.1f}">'
                       f'{escape(name)}</text>')
    out.append("</svg>")
    return "".join(out)


def plot(paths: Sequence[Path], players: int = 2) -> str:
    """The picture of ladder files: bootstrap ratings against CPU, a series per side set."""
    by_sides: dict[str, list[dict]] = defaultdict(list)
    for path in paths:
        for rec in read(path):
            if rec["players"] == players:
                by_sides[rec["sides"]].append(rec)
    series = {}
    for sides, records in sorted(by_sides.items()):
        boot = bootstrap_ratings(records)
        series[sides] = [(n, r, lo, hi, t) for n, (r, lo, hi, t) in boot.items() if t == t]
    return rating_vs_cpu_svg(series, f"Rating against CPU a game, {players} players "
                             "(bootstrap 95% intervals over games)")


def _drawable(p: Point) -> bool:
    """A measured CPU time and a finite rating and interval: a point the chart can place."""
    return p[4] > 0 and all(math.isfinite(x) for x in p[1:5])

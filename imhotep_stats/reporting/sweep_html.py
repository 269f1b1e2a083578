"""sweep.html: a sweep on one page, its answer, a sides x seat heatmap of how far each seat's
win rate is from its fair share (the cells a strong-play confirmation checked marked), and
the ranking. Self-contained like report.html (``reporting.html``)."""

from __future__ import annotations

from html import escape
from typing import Any

from imhotep_stats.reporting.document import Bullets, Charts, Heading, Para
from imhotep_stats.reporting.headline import sweep_sentences
from imhotep_stats.reporting.html import render

ROW = 18
SEAT_W = 64
LABEL_W = 150
MARK_W = 210


def _fill(d: float, scale: float) -> str:
    """Diverging: red when a seat wins more than its fair share, blue when less, white at
    the fair share; full colour at ``scale`` (twice the margin)."""
    t = max(-1.0, min(1.0, d / scale)) if scale > 0 else 0.0
    end = (207, 34, 46) if t >= 0 else (9, 105, 218)
    return "#" + "".join(f"{round(255 + (c - 255) * abs(t)):02x}" for c in end)


def confirmed_text(c: dict[str, Any]) -> str:
    """A cell's strong-play confirmation in words, or "" when none ran for it."""
    conf = c.get("confirmation")
    if not conf:
        return ""
    return f"{conf.get('bots', 'strong play')}: {conf.get('verdict_text', conf.get('verdict', ''))}"


def heatmap(cells: list[dict[str, Any]], margin: float) -> str:
    """SVG heatmap: one row a cell (in ranking order), one column a seat, the colour and
    the number the seat's win rate minus its fair share in pp; a marked row was confirmed
    with strong play."""
    rows = [c for c in cells if c.get("games")]
    seats = max((c["players"] for c in rows), default=0)
    players = {c["players"] for c in rows}
    width = LABEL_W + seats * SEAT_W + MARK_W
    height = 40 + ROW * len(rows) + 24
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" font-family="system-ui,sans-serif" '
           'font-size="11"><title>Seat win rate minus fair share, by side combination</title>',
           '<text x="4" y="14" font-size="13" font-weight="600">Seat win rate minus fair '
           "share (pp)</text>"]
    for s in range(seats):
        x = LABEL_W + s * SEAT_W + SEAT_W / 2
        out.append(f'<text x="{x:.0f}" y="34" text-anchor="middle">seat {s + 1}</text>')
    out.append(f'<text x="{LABEL_W + seats * SEAT_W + 8}" y="34">strong-play check</text>')
    for i, c in enumerate(rows):
        y = 40 + i * ROW
        label = c["sides"] + (f" {c['players']}p" if len(players) > 1 else "")
        mark = confirmed_text(c)
        weight = ' font-weight="700"' if mark else ""
        out.append(f'<text x="4" y="{y + 13}"{weight}>{"◆ " if mark else ""}'
                   f"{escape(label)}</text>")
        p0 = 1.0 / c["players"]
        for s, r in enumerate(c["win_rates"]):
            d = r - p0
            x = LABEL_W + s * SEAT_W
            out.append(f'<rect x="{x}" y="{y}" width="{SEAT_W - 2}" height="{ROW - 2}" '
                       f'fill="{_fill(d, 2 * margin)}"><title>{escape(label)} seat {s + 1}: '
                       f"{r * 100:.1f}% against {p0 * 100:.1f}%</title></rect>")
            out.append(f'<text x="{x + SEAT_W / 2 - 1:.0f}" y="{y + 12}" text-anchor="middle">'
                       f"{d * 100:+.1f}</text>")
        if mark:
            out.append(f'<text x="{LABEL_W + seats * SEAT_W + 8}" y="{y + 13}">'
                       f"{escape(mark)}</text>")
    out.append(f'<text x="4" y="{height - 6}" fill="#57606a">red ahead, blue behind (full '
               f"at ±{margin * 200:.0f} pp); ◆ confirmed with strong play; ranking order</text>")
    out.append("</svg>")
    return "".join(out)


def sweep_html(res: dict[str, Any], trust: str) -> str:
    """The whole page: answer, trust line, heatmap (``res``: ``analyze_sweep``'s result,
    cells optionally carrying a ``confirmation``)."""
    blocks = [Heading(1, f"Sweep {res['study']}: {res['cells']} cells, {res['games']:,} games"),
              Bullets([*sweep_sentences(res), trust]),
              Heading(2, "Seat gaps by side combination", "heatmap"),
              Para(f"Seat fairness within ±{res['margin'] * 100:.1f} pp: "
                   + ", ".join(f"{n} {v}" for v, n in res["verdicts"].items()) + "."),
              Charts([heatmap(res["all_cells"], res["margin"])])]
    return render(blocks, f"Sweep {res['study']}")

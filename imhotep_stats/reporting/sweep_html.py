"""sweep.html: a sweep on one page, its answer and a sides x seat heatmap of how far each
seat's win rate is from its fair share, the cells ``--confirm`` played again (with strong
play under ``--confirm-bot``) marked. Self-contained like report.html (``reporting.html``)."""

from __future__ import annotations

from html import escape
from typing import Any

from imhotep_stats.reporting import charts
from imhotep_stats.reporting.document import Bullets, Charts, Heading, Para
from imhotep_stats.reporting.headline import sweep_sentences
from imhotep_stats.reporting.html import render

ROW = 24
SEAT_W = 70
LABEL_W = 130  # "◆ D-A-C-A-A 3p" at charts.FONT_SIZE
LEFT = 24  # the y axis's title

def _fill(d: float, scale: float) -> str:
    """Diverging: red when a seat wins more than its fair share, blue when less, white at
    the fair share; full colour at ``scale`` (twice the margin)."""
    t = max(-1.0, min(1.0, d / scale)) if scale > 0 else 0.0
    end = (207, 34, 46) if t >= 0 else (9, 105, 218)
    return "#" + "".join(f"{round(255 + (c - 255) * abs(t)):02x}" for c in end)


def confirmed_text(c: dict[str, Any]) -> str:
    """A cell's confirmation (``sweep --confirm K``, with ``--confirm-bot`` strong play) in
    words, or "" when none ran for it."""
    conf = c.get("confirmation")
    if not conf:
        return ""
    return f"{conf.get('bots', conf.get('lineup', ''))}: {conf.get('verdict_text', '')}"


def with_confirmations(res: dict[str, Any]) -> list[dict[str, Any]]:
    """The sweep's ranked cells, each confirmed one carrying its ``confirmation`` row."""
    rows = {(c["sides"], c["players"]): c for c in res.get("confirm") or []}
    return [dict(c, confirmation=rows[(c["sides"], c["players"])])
            if (c["sides"], c["players"]) in rows else c for c in res["all_cells"]]


def heatmap(cells: list[dict[str, Any]], margin: float) -> str:
    """SVG heatmap: one row a cell (in ranking order), one column a seat, the colour and
    the number the seat's win rate minus its fair share in pp; a marked row (◆) was
    confirmed with strong play (``confirmations`` says how). Drawn at most charts.WIDTH
    wide in charts.FONT_SIZE text, so it stays readable on a phone."""
    rows = [c for c in cells if c.get("games")]
    seats = max((c["players"] for c in rows), default=0)
    players = {c["players"] for c in rows}
    title = "Seat win rate minus fair share (pp)"
    width = max(LEFT + LABEL_W + seats * SEAT_W + 10, int(charts.CHAR_W * len(title)) + 20)
    top = 30 + 2 * charts.LINE
    height = top + ROW * len(rows) + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" style="max-width: 100%; height: auto" role="img" '
           f'aria-label="{escape(title)}" {charts.FONT}>',
           f'<text x="10" y="18" font-weight="bold">{escape(title)}</text>',
           charts._x_title("seat (1 = start player)", LEFT + LABEL_W + seats * SEAT_W / 2,
                           30 + charts.LINE - 4, width),
           charts._y_title("sides", top + ROW * len(rows) / 2)]
    for s in range(seats):
        x = LEFT + LABEL_W + s * SEAT_W + SEAT_W / 2
        out.append(f'<text x="{x:.0f}" y="{top - 6}" text-anchor="middle">{s + 1}</text>')
    for i, c in enumerate(rows):
        y = top + i * ROW
        label = c["sides"] + (f" {c['players']}p" if len(players) > 1 else "")
        mark = confirmed_text(c)
        weight = ' font-weight="700"' if mark else ""
        out.append(f'<text x="{LEFT + 4}" y="{y + 17}"{weight}>{"◆ " if mark else ""}'
                   f"{escape(label)}</text>")
        p0 = 1.0 / c["players"]
        for s, r in enumerate(c["win_rates"]):
            d = r - p0
            x = LEFT + LABEL_W + s * SEAT_W
            out.append(f'<rect x="{x}" y="{y}" width="{SEAT_W - 2}" height="{ROW - 2}" '
                       f'fill="{_fill(d, 2 * margin)}"><title>{escape(label)} seat {s + 1}: '
                       f"{r * 100:.1f}% against {p0 * 100:.1f}%</title></rect>")
            out.append(f'<text x="{x + SEAT_W / 2 - 1:.0f}" y="{y + 16}" text-anchor="middle">'
                       f"{d * 100:+.1f}</text>")
    out.append("</svg>")
    return "".join(out)


def confirmations(cells: list[dict[str, Any]]) -> list[str]:
    """The strong-play confirmations of the marked rows, in words (under the heatmap)."""
    players = {c["players"] for c in cells if c.get("games")}
    return [f"◆ {c['sides']}" + (f" {c['players']}p" if len(players) > 1 else "")
            + f": {confirmed_text(c)}" for c in cells if c.get("games") and confirmed_text(c)]


def sweep_html(res: dict[str, Any], trust: str) -> str:
    """The whole page: answer, trust line, heatmap (``res``: ``analyze_sweep``'s result,
    cells optionally carrying a ``confirmation``)."""
    blocks = [Heading(1, f"Sweep {res['study']}: {res['cells']} cells, {res['games']:,} games"),
              Bullets([*sweep_sentences(res), trust]),
              Heading(2, "Seat gaps by side combination", "heatmap"),
              Para(f"Seat fairness within ±{res['margin'] * 100:.1f} pp: "
                   + ", ".join(f"{n} {v}" for v, n in res["verdicts"].items()) + "."),
              Charts([heatmap(with_confirmations(res), res["margin"])]),
              Para(f"Red: the seat wins more than its fair share, blue: less (full colour at "
                   f"±{res['margin'] * 200:.0f} pp); rows in ranking order; ◆ confirmed on fresh "
                   "games (--confirm K; with strong play under --confirm-bot).")]
    marked = confirmations(with_confirmations(res))
    if marked:
        blocks.append(Bullets(marked))
    return render(blocks, f"Sweep {res['study']}")

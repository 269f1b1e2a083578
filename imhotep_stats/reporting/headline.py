"""The answer first: a few plain sentences per cell, printed by ``run`` and ``report`` before
their tables (and heading report.md / report.html): the seat verdict, the seat win rates, the
score sources behind the least fair seat's edge and the score source that most separates
winners from the others.

Nothing here decides a verdict: the words come from ``figures.verdict_text`` over the
verdict ``figures.compute`` attached to each cell (the one place a cell's verdict is made).
"""

from __future__ import annotations

from typing import Any

from imhotep_stats.reporting.figures import CellInfo, ReportData, verdict_text
from imhotep_stats.reporting.palette import source_name
from imhotep_stats.reporting.trust import cell_trust
from imhotep_stats.rules.board import SITE_TITLES as SITE_NAMES
from imhotep_stats.rules.board import SITES
from imhotep_stats.stats import fmt as f
from imhotep_stats.stats.sweep import imbalance_order

MAX_CELLS = 12  # more cells (a sweep-sized study): the least balanced, then a count


def spell_sides(sides: str) -> str:
    """``D-A-C-A-A`` -> ``Market D · Pyramid A · Temple C · Burial Chamber A · Obelisks A``."""
    letters = sides.split("-")
    if len(letters) != len(SITES):
        return sides
    return " · ".join(f"{SITE_NAMES[s]} {x}" for s, x in zip(SITES, letters, strict=True))


def top_separator(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The source with the largest winner-minus-others mean (``winner_separation`` rows)."""
    rows = [r for r in rows if r["source"] != "total" and r["mean"] is not None]
    return max(rows, key=lambda r: r["mean"]) if rows else None


EDGE_SOURCES = 2  # sources named behind a seat's edge (the largest, beyond their noise)


def _points_ci(r: dict[str, Any]) -> str:
    return f"{f.signed(r['mean'], 1)} points [{f.num(r['ci_low'], 1)}, {f.num(r['ci_high'], 1)}]"


def _source_phrase(r: dict[str, Any]) -> str:
    name = source_name(r["source"])
    return f"{'the ' if r['source'] in SITES else ''}{name}, {_points_ci(r)}"


def seat_edge_sentence(data: ReportData, c: CellInfo) -> str | None:
    """Why a cell is not balanced: the seat with the largest gap, and the score sources that
    separate it from the other seats (``seat_edge``: its points minus the others' mean at
    its table, a game at a time), those whose interval excludes 0, the largest first."""
    v = c.verdict
    if v is None or v.verdict == "balanced" or "seat_edge" not in data.tables:
        return None
    s = v.largest_gap_seat
    rows = [r for r in data.rows("seat_edge", c.id) if r["seat"] == s and r["mean"] is not None]
    total = next((r for r in rows if r["source"] == "total"), None)
    if total is None:
        return None
    ahead = v.win_rates[s] >= v.expected
    word = "edge" if ahead else "deficit"
    who = "The start player" if s == 0 else f"Seat {s + 1}"
    clear = [r for r in rows if r["source"] != "total" and r["ci_low"] is not None
             and (r["ci_low"] > 0 or r["ci_high"] < 0)]
    clear.sort(key=lambda r: -abs(r["mean"]))
    along = [r for r in clear if (r["mean"] > 0) == ahead][:EDGE_SOURCES]
    against = [r for r in clear if (r["mean"] > 0) != ahead][:1]
    all_sources = f"all sources: {_points_ci(total)}"
    if not along:
        return (f"No single score source separates {who[0].lower() + who[1:]} from the "
                f"other seats beyond its noise ({all_sources} a game over their mean).")
    phrases = [_source_phrase(r) for r in along]
    phrases[0] += " a game over the other seats' mean"
    text = f"{who}'s {word} comes from " + ", and ".join(phrases)
    if against:
        text += f"; {'offset' if ahead else 'eased'} by {_source_phrase(against[0])}"
    return f"{text} ({all_sources})."


def cell_sentences(data: ReportData, c: CellInfo) -> list[str]:
    """The verdict, the seat win rates and the deciding source of one cell."""
    head = f"{c.sides}, {c.players} players, {','.join(c.lineup)} ({spell_sides(c.sides)})"
    v = c.verdict
    if v is None:
        return [f"{head}: no games."]
    out = [f"{head}: {verdict_text(v)}."]
    rates = [r["win_rate"] for r in data.rows("win_rates_seat", c.id)]
    out.append(f"Seat win rates {' / '.join(f.pct(r) for r in rates)} against a fair share "
               f"of {f.pct(v.expected)} each (seat 1 = start player; {c.games:,} games, "
               f"largest gap {f.pp(v.largest_gap)}).")
    edge = seat_edge_sentence(data, c)
    if edge:
        out.append(edge)
    top = top_separator(data.rows("winner_separation", c.id))
    if top is not None and top["mean"] > 0:
        out.append(f"What most separates winners: {source_name(top['source'])}, "
                   f"{f.num(top['mean'], 1)} points more than the others on average "
                   f"({round(100 * data.confidence)}% interval {f.num(top['ci_low'], 1)} to "
                   f"{f.num(top['ci_high'], 1)}).")
    return out


def headline_cells(data: ReportData) -> list[CellInfo]:
    """The cells the headline speaks of: all, or the least balanced of a large study."""
    if len(data.cells) > MAX_CELLS:  # data.detail: the least balanced first
        return [data.cell(cid) for cid in data.detail][:MAX_CELLS]
    return data.cells


def headline(data: ReportData) -> list[list[str]]:
    """Sentences per cell (``headline_cells``)."""
    return [cell_sentences(data, c) for c in headline_cells(data)]


def headline_text(data: ReportData) -> str:
    """The terminal form: one paragraph per cell, its trust line under the verdict, then
    how many cells were left out."""
    paras = ["\n".join([*p, cell_trust(data, c)])
             for c, p in zip(headline_cells(data), headline(data), strict=True)]
    shown = min(len(data.cells), MAX_CELLS)
    if shown < len(data.cells):
        paras.append(f"({shown} of {len(data.cells)} cells shown, the least balanced first "
                     "(as `sweep` ranks them); the tables below and report.md have them all)")
    paras += robustness_sentences(data)
    return "\n\n".join(paras) + "\n"


def robustness_sentences(data: ReportData) -> list[str]:
    """Per (sides, players) played by several lineups, whether the seat effect depends on
    the bots (the report's robustness section, ``reporting.robustness``), in one line."""
    return [f"Across lineups, {g.sides}, {g.players} players: {g.summary}."
            for g in data.robustness]


# -- sweeps ---------------------------------------------------------------------------------


def _sweep_cell(c: dict[str, Any]) -> str:
    rates = " / ".join(f.pct(r) for r in c.get("win_rates") or [])
    return (f"{c['sides']} ({spell_sides(c['sides'])}), {c['players']} players, "
            f"{c['lineup']}: {c['verdict_text']}; seat win rates {rates}, largest gap "
            f"{f.pp(c['seat_gap'])}{_gap_range(c)}")


def _gap_range(c: dict[str, Any]) -> str:
    if c.get("gap_low") is None:
        return ""
    return f" (at least {f.pp(c['gap_low'])}, at most {f.pp(c['gap_high'])})"


def sweep_sentences(res: dict[str, Any]) -> list[str]:
    """The answer first for a sweep (``stats.sweep.analyze_sweep``'s result, whose verdicts
    these only word): the least and the most balanced combination and the site whose side
    moves a seat's win rate most."""
    cells = [c for c in res.get("all_cells", []) if c.get("seat_gap") is not None]
    if not cells:
        return []
    # By confidence bounds, as the ranking: the gap shown at least, the gap allowed at most
    # (the raw extremes are the luckiest cells when each has a few hundred games).
    worst = min(cells, key=imbalance_order)
    best = min(cells, key=lambda c: (c.get("gap_high") or 0.0, c["seat_gap"], c["index"]))
    out = [f"Least balanced: {_sweep_cell(worst)}.", f"Most balanced: {_sweep_cell(best)}."]
    sites = [e for e in res.get("sites") or [] if e.get("effect") is not None]
    if sites:
        e = max(sites, key=lambda e: abs(e["effect"]))
        real = e.get("q_value") is not None and e["q_value"] <= 1 - res.get("confidence", 0.95)
        out.append(f"The side that moves a seat most: {e['site']} {e['side']} changes the "
                   f"{e['response']} by {f.pp(e['effect'], sign=True)} at {e['players']} "
                   f"players ({'beyond' if real else 'within'} its noise, q = "
                   f"{f.num(e['q_value'], 3)}).")
    return out


# -- what-ifs -------------------------------------------------------------------------------


def compare_sentences(comp, margin: float, alpha: float = 0.05) -> list[str]:
    """Per cell pair, what the paired test says (``stats.compare.seat_findings``): whether
    the what-if moves any seat's win rate, and whether a seat's change crosses the margin.
    Read off the per-game differences, never off the two runs' verdicts side by side (two
    labels differ by chance even when the what-if changes nothing)."""
    from imhotep_stats.stats.compare import seat_findings, seat_name

    pct = round(comp.confidence * 100)
    how = "confidence sequence" if comp.sequential else "interval"
    band = f"±{margin * 100:.1f} pp"

    def figure(x) -> str:
        return (f"{seat_name(x.who)} {x.diff * 100:+.1f} pp, {pct}% {how} "
                f"{x.ci_low * 100:.1f} to {x.ci_high * 100:.1f}")

    out = []
    for fd in seat_findings(comp, margin, alpha):
        big = fd.largest
        head = f"{big.whatif_cell.split('|')[0]}, {big.players} players, {big.cell.split('|')[2]}"
        if fd.moved:
            moves = (f"the what-if moves {len(fd.moved)} seat{'s' if len(fd.moved) > 1 else ''}"
                     f" ({'; '.join(figure(x) for x in fd.moved)})")
        else:
            moves = f"the what-if moves no seat detectably (largest change {figure(big)})"
        if fd.beyond:
            cross = (f"{', '.join(seat_name(x.who) for x in fd.beyond)} moves by more than "
                     f"{band}")
        elif fd.within:
            cross = f"every seat's change is shown within {band}"
        else:
            cross = f"whether a seat moves by {band} or more is not settled"
        out.append(f"{head}: {moves}; {cross} (paired test"
                   + (", asked again: valid at every look" if comp.sequential else "") + ").")
    return out

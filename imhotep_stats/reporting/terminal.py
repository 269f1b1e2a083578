"""The terminal summary ``imhotep-stats report`` prints: one line per cell with the seat
win rates and verdict, the score-source shares, bot ratings, notes and gates. The files
hold the detail; this is what a designer reads first."""

from __future__ import annotations

from tabulate import tabulate

from imhotep_stats.reporting.figures import ReportData, verdict_text
from imhotep_stats.reporting.gates import GateResult
from imhotep_stats.sim.schema import SOURCES
from imhotep_stats.stats import fmt as f

MAX_ROWS = 40  # cells listed; the rest are in the files


def _table(headers: list[str], rows: list[list[str]], align: str) -> str:
    return tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True,
                    colalign=tuple("right" if a == "r" else "left" for a in align))


def render(data: ReportData, gates: list[GateResult]) -> str:
    cells = [data.cell(cid) for cid in data.detail] if len(data.cells) > MAX_ROWS else data.cells
    cells = cells[:MAX_ROWS]
    head = (f"Balance report: {data.study}: {len(data.cells)} cell"
            f"{'s' if len(data.cells) != 1 else ''}, margin ±{f.pp(data.margin)}, "
            f"{100 * data.confidence:g}% intervals, Holm over {len(data.cells)} cell"
            f"{'s' if len(data.cells) != 1 else ''} (within) and {data.family} seat tests, "
            "seat 1 = start player"
            + (f"; {data.adaptive_games:,} of the games from adaptive allocation"
               if data.adaptive_games else "")
            + ("; sequential verdicts (anytime-valid)" if data.sequential else ""))
    rates: dict[str, list[float]] = {}
    for cid, rate in data.tables["win_rates_seat"].select("cell", "win_rate").iter_rows():
        rates.setdefault(cid, []).append(rate)
    rows = []
    for c in cells:
        v = c.verdict
        rows.append([str(c.index + 1), f"{c.sides} {c.players}p {','.join(c.lineup)}",
                     f.count(c.games), " / ".join(f.num(100 * r, 1) for r in rates.get(c.id, [])),
                     f.pp(v.largest_gap) if v else f.DASH, f.pval(v.chi2_p) if v else f.DASH,
                     f.pp(c.mdd), (verdict_text(v) if v else "no games")
                     + (" [!]" if c.notes else "")])
    parts = [head, _table(["#", "cell", "games", "seat win rates %", "largest gap", "χ² p",
                           "resolves ±", "verdict"], rows, "rlrrrrrl")]
    if len(cells) < len(data.cells):
        parts.append(f"({len(cells)} of {len(data.cells)} cells shown, the least balanced first; "
                     "all are in summary.json and tables/)")

    shares: dict[str, dict[str, float]] = {}
    for cid, src, share, mean in data.tables["points_cell"].select(
            "cell", "source", "share", "mean").iter_rows():
        if mean:
            shares.setdefault(cid, {})[src] = share
    present = {s for c in cells for s in shares.get(c.id, {})}
    used = [s for s in SOURCES if s in present]  # schema order
    if used:
        srows = [[str(c.index + 1), *[f.pct(shares.get(c.id, {}).get(s), 0) for s in used]]
                 for c in cells]
        parts.append("Share of all points by source\n" + _table(
            ["#", *[s.replace("card_", "card ").replace("_", " ") for s in used]], srows,
            "r" * (len(used) + 1)))

    ratings = data.tables["bot_ratings"]
    shown = {c.id for c in cells}
    rrows = [[str(data.cell(cid).index + 1), bot, f.signed(r, 0), f.ci_num(lo, hi, 0)]
             for cid, bot, r, lo, hi in ratings.select(
                 "cell", "bot", "rating", "ci_low", "ci_high").iter_rows() if cid in shown]
    if rrows:
        parts.append("Bot ratings (Bradley-Terry, Elo scale, mean bot = 0)\n" + _table(
            ["#", "bot", "rating", "95% CI" if data.confidence == 0.95 else "CI"], rrows,
            "rlrr"))

    by_note: dict[str, list[str]] = {}
    for c in cells:  # one line per note, naming its cells: sweeps repeat the same side
        for n in c.notes:
            by_note.setdefault(n, []).append(str(c.index + 1))
    notes = [*data.global_notes] + [
        f"cell{'s' if len(ids) > 1 else ''} {', '.join(ids)}: {n}" for n, ids in by_note.items()]
    if notes:
        parts.append("[!] " + "\n[!] ".join(notes))
    if gates:
        parts.append("\n".join(f"gate {'passed' if r.passed else 'FAILED'}: {r.gate}: "
                               f"{r.detail}" for r in gates))
    return "\n\n".join(parts) + "\n"

"""The report's content as a list of simple blocks, rendered by ``markdown`` and ``html``.

One builder, two renderers: report.md and report.html say the same things in the same
order, and the HTML adds charts (``Charts`` blocks, which Markdown skips). Inline text may
use ``**bold**`` and ```code```; renderers translate that and escape the rest.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from imhotep_stats.reporting import charts
from imhotep_stats.reporting.figures import CellInfo, ReportData, verdict_text
from imhotep_stats.reporting.gates import GateResult
from imhotep_stats.reporting.headline import headline, headline_cells, spell_sides
from imhotep_stats.reporting.palette import source_colour, source_name
from imhotep_stats.reporting.trust import report_trust
from imhotep_stats.stats import fmt as f


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    anchor: str | None = None


@dataclass(frozen=True)
class Para:
    text: str


@dataclass(frozen=True)
class Note:
    """A call-out: ``kind`` is "warning" (data caveats), "fail" or "pass" (gates)."""

    text: str
    kind: str = "warning"


@dataclass(frozen=True)
class Table:
    headers: list[str]
    rows: list[list[str]]
    align: str = ""  # per column: "l" left, "r" right (numbers), "w" left and wrapping text,
    # "W" wrapping long text; default: first left, rest right

    def aligns(self) -> str:
        n = len(self.headers)
        return (self.align or "l" + "r" * (n - 1)).ljust(n, "r")


@dataclass(frozen=True)
class Charts:
    """SVG charts shown side by side (HTML only)."""

    svgs: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Bullets:
    items: list[str]
    kind: str = ""  # "trust": the answer's trust lines (styled quieter in HTML)


@dataclass(frozen=True)
class Fold:
    """Text folded away under a one-line summary (HTML ``<details>``): the method, which a
    designer reads once, not above every answer."""

    summary: str
    text: str


Block = Heading | Para | Note | Table | Charts | Bullets | Fold

CHART_W = charts.WIDTH  # readable on a phone (charts.WIDTH); side by side on a laptop

def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _conf(data: ReportData) -> str:
    return f"{100 * data.confidence:g}%"


def _seat(s: int) -> str:
    return f"seat {s + 1}"


# --- front matter --------------------------------------------------------------------------


def _header(data: ReportData) -> list[Block]:
    m = data.manifest
    cells = len(data.cells)
    per_cell = int(m.get("games_per_cell") or max((c.games for c in data.cells), default=0))
    total = sum(c.games for c in data.cells)
    seed = (m.get("seeds") or {}).get("root", "?")
    finished = m.get("finished")
    source = m.get("config_source")
    games = f"**{_plural(cells, 'cell')}** × {per_cell:,} games"
    if data.adaptive_games:  # a sweep's extra games: cells get different numbers of games
        games += (f" + {data.adaptive_games:,} games from adaptive allocation "
                  f"({_plural(data.adaptive_rounds, 'round')}, given to cells whose seat "
                  "verdict was still inconclusive)")
    intro = (f"{games} = {total:,} games, root seed "
             f"{seed}; simulated by imhotep-stats {m.get('version', '?')}"
             + (f", finished {finished}" if finished else "") + "."
             + (f" Config: `{source}`." if source else ""))
    conf = _conf(data)
    method = (
        "Seats are numbered from 1, seat 1 being the start player (the `seat` column of "
        "`summary.json` and `tables/` counts from 0). "
        f"Win rates count a k-way shared win as 1/k, with {conf} Wilson intervals; mean points "
        f"have {conf} Student t intervals (clustered by game where one game gives a group "
        "several rows). Seat fairness per cell: chi-square against equal shares, and a verdict "
        f"at the margin ±{f.pp(data.margin)} (pp = percentage points of win rate): "
        "*balanced within* it when every seat is shown within the margin (equivalence "
        "test) and none detectably off its fair share; *within it, tilted* when every seat "
        "is shown within the margin but one is detectably off (its direction is named); "
        "*unbalanced beyond* it when a seat is shown outside the margin (minimum-effect "
        "test); otherwise *inconclusive*, with the games a verdict needs and the seat "
        "detectably off its fair share, if one is; Holm-corrected at "
        f"α = {data.alpha:g} over the {_plural(len(data.cells), 'cell')} of this report for "
        "\"balanced\" (a claim about the cell: its seats' largest equivalence p-value, no "
        f"correction across seats) and over its {_plural(data.family, 'seat test')} for the "
        "claims about a seat. *Resolves ±x*: the smallest deviation of a seat from its fair "
        "share the sample detects (80% power)."
        + (" Adaptive games went to cells after looking at their results, which makes the "
           "verdicts' nominal error rates slightly optimistic; confirm a surprising verdict "
           "with a fresh seed." if data.adaptive_games else "")
    )
    return [Para(intro), Fold("How these numbers are made (seats, intervals, the verdicts)",
                              method)]


def _answer(data: ReportData) -> list[Block]:
    """The verdict first (``headline``), one call-out per cell coloured by its verdict,
    then how far to trust it (``trust.report_trust``: bots, margin, board values)."""
    blocks: list[Block] = [Heading(2, "The answer", "answer")]
    for c, sentences in zip(headline_cells(data), headline(data), strict=True):
        kind = f"verdict v-{c.verdict.verdict}" if c.verdict else "warning"
        blocks.append(Note(" ".join(sentences), kind))
    blocks.append(Bullets(report_trust(data), "trust"))
    return blocks


def _samples(pages: list[str]) -> list[Block]:
    """Links to the game viewer pages ``run --keep-games`` kept for a cell."""
    if not pages:
        return []
    links = ", ".join(f"[game {i + 1}]({p})" for i, p in enumerate(pages))
    return [Para(f"Sample games, drawn as the board (game viewer): {links}.")]


def _gates(results: list[GateResult]) -> list[Block]:
    if not results:
        return []
    failed = [r for r in results if not r.passed]
    if failed:
        note = Note(f"**{len(failed)} of {_plural(len(results), 'balance gate')} failed**: "
                    + ", ".join(f"`{r.gate}`" for r in failed) + ".", "fail")
    else:
        note = Note(f"**All {_plural(len(results), 'balance gate')} passed.**", "pass")
    rows = [[f"`{r.gate}`", "pass" if r.passed else "**FAIL**", r.detail] for r in results]
    return [Heading(2, "Balance gates", "gates"), note,
            Table(["gate", "result", "detail"], rows, "llW")]


def _verdict_cell(v) -> str:
    """The verdict for a table; an unbalanced one in bold so it stands out."""
    if v is None:
        return "no games"
    text = verdict_text(v)
    return f"**{text}**" if v.verdict == "unbalanced" else text


def _overview(data: ReportData) -> list[Block]:
    rates: dict[str, list[dict[str, Any]]] = {}
    for r in data.tables["win_rates_seat"].iter_rows(named=True):
        rates.setdefault(r["cell"], []).append(r)
    rows = []
    for c in data.cells:
        v = c.verdict
        seat_rates = " / ".join(f.num(100 * r["win_rate"], 1) for r in rates.get(c.id, []))
        flags = []
        if any("provisional" in n for n in c.notes):
            flags.append("provisional")
        if any("overridden" in n for n in c.notes):
            flags.append("overridden")
        if any("designer values" in n for n in c.notes):
            flags.append("designer")
        rows.append([
            str(c.index + 1), c.sides, str(c.players), ", ".join(c.lineup), f.count(c.games),
            seat_rates + ("%" if seat_rates else ""),
            f.pp(v.largest_gap) if v else f.DASH, f.pval(v.chi2_p) if v else f.DASH,
            f.pp(c.mdd), _verdict_cell(v), ", ".join(flags) or f.DASH,
        ])
    blocks: list[Block] = [
        Heading(2, "Overview", "overview"),
        Table(["#", "sides", "players", "lineup", "games", "seat win rates",
               "largest gap", "χ² p", "resolves ±", "verdict", "board data"],
              rows, "rlrwrrrrrWl"),
    ]
    blocks += _across_cells(data)
    if len(data.detail) < len(data.cells):
        blocks.append(Para(
            f"Sections below for the {len(data.detail)} least balanced cells, ranked as "
            "`sweep` ranks them (by the seat gap the games show at least); all "
            f"{len(data.cells)} cells are in `summary.json` and `tables/`."))
    return blocks


def _across_cells(data: ReportData) -> list[Block]:
    """Several cells: the start player's edge in each, on one axis (by side and player
    count), so a designer sees at a glance which setups tilt toward seat 1."""
    rows = [(c, r) for c in data.cells[:40] for r in data.rows("win_rates_seat", c.id)
            if r["seat"] == 0]
    if len(rows) < 2:
        return []
    return [Charts([charts.interval_rows(
        [f"{c.sides} · {c.players}p" + (f" · {','.join(c.lineup)}" if len(
            {x.lineup for x in data.cells}) > 1 else "") for c, _ in rows],
        [r["win_rate"] - r["expected"] for _, r in rows],
        [r["ci_low"] - r["expected"] for _, r in rows],
        [r["ci_high"] - r["expected"] for _, r in rows],
        title=f"Seat 1 against its fair share, by cell ({_conf(data)} CI)",
        x_label="seat 1 win rate minus fair share (pp)", percent=True,
        reference_label="fair", colours=[charts.seat_colours(1)[0]] * len(rows),
        width=CHART_W)])]


# --- one cell ------------------------------------------------------------------------------


def _who(data: ReportData, c: CellInfo) -> list[tuple[str, str, Any]]:
    """(label, table key column, key) for the seats, then the bots of a mixed lineup."""
    out = [(_seat(s), "seat", s) for s in range(c.players)]
    if c.mixed:
        out += [(f"bot {b}", "bot", b) for b in sorted(set(c.lineup))]
    return out


def _win_rates(data: ReportData, c: CellInfo) -> list[Block]:
    seats = data.rows("win_rates_seat", c.id)
    bots = data.rows("win_rates_bot", c.id) if c.mixed else []
    rows = []
    for label, r in [(_seat(r["seat"]), r) for r in seats] + [(f"bot {r['bot']}", r)
                                                              for r in bots]:
        rows.append([label, f.count(r["games"]), f.count(r["wins"]), f.pct(r["win_rate"]),
                     f.ci_pct(r["ci_low"], r["ci_high"]), f.pct(r["expected"]),
                     f.pp(r["mdd"])])
    blocks: list[Block] = [
        Heading(3, "Win rates"),
        Table(["", "games", "wins", "win rate", f"{_conf(data)} CI", "fair share",
               "resolves ±"], rows),
    ]
    if not c.mixed:
        blocks.append(Para(f"Every seat played `{c.lineup[0]}`."))
    svgs = [charts.interval_bars(
        [_seat(r["seat"]) for r in seats], [r["win_rate"] for r in seats],
        [r["ci_low"] for r in seats], [r["ci_high"] for r in seats],
        title=f"Win rate by seat ({_conf(data)} CI)", reference=1 / c.players, width=CHART_W,
        colours=charts.seat_colours(len(seats)), x_label="seat (1 = start player)")]
    if bots:
        svgs.append(charts.interval_bars(
            [r["bot"] for r in bots], [r["win_rate"] for r in bots],
            [r["ci_low"] for r in bots], [r["ci_high"] for r in bots],
            title=f"Win rate by bot ({_conf(data)} CI)", reference=1 / c.players,
            width=CHART_W, x_label="bot (every seat it held)"))
    blocks.append(Charts(svgs))
    return blocks


def _fairness(data: ReportData, c: CellInfo) -> list[Block]:
    v = c.verdict
    if v is None:
        return [Heading(3, "Seat fairness"), Para("No games.")]
    s = v.largest_gap_seat
    text = [
        f"**Verdict: {verdict_text(v)}.**",
        f"Chi-square against equal shares: χ² = {f.num(v.chi2)}, df {v.chi2_df}, "
        f"{f.p_is(v.chi2_p)}.",
        f"Largest seat gap: {_seat(s)}, {f.pp(v.win_rates[s] - v.expected, sign=True)} "
        f"against the fair share {f.pct(v.expected)}; best minus worst seat "
        f"{f.pp(v.spread)}.",
        f"With {v.games:,} games a seat deviation of ±{f.pp(c.mdd)} is resolvable.",
    ]
    if v.verdict == "inconclusive" and v.games_needed:
        text.append(f"If the observed rates are the truth, about {v.games_needed:,} games in "
                    "all would settle the verdict.")
    rows = []
    for r in data.rows("win_rates_seat", c.id):
        rows.append([_seat(r["seat"]), f.pct(r["win_rate"]), f.pp(r["gap"], sign=True),
                     f.pval(r["p_deviation"]), f.pval(r["p_equivalence"]),
                     f.pval(r.get("p_beyond"))])
    note = (" Two seats are one test (their rates sum to 1)." if c.players == 2 else "")
    return [
        Heading(3, "Seat fairness"), Para(" ".join(text)),
        Table(["", "win rate", "gap to fair share", "p off fair share (Holm)",
               f"p within ±{f.pp(data.margin)} (seat)",
               f"p beyond ±{f.pp(data.margin)} (Holm)"], rows),
        Para("The first p-value tests whether the seat's win rate differs from its fair "
             "share, the third whether it lies beyond the margin (minimum-effect test); "
             f"both are Holm-adjusted over the report's {data.family} seat tests. The second "
             "tests whether the seat lies within the margin (equivalence). \"Balanced\" is "
             "a claim about the whole cell (every seat within), so the cell's p-value is its "
             "seats' largest, with no correction across seats (intersection-union), "
             f"Holm-adjusted over the report's {_plural(len(data.cells), 'cell')}: "
             f"{f.pval(v.p_within)}.{note}"),
    ]


def _sources_used(rows: list[dict[str, Any]]) -> list[str]:
    order: dict[str, bool] = {}
    for r in rows:
        order[r["source"]] = order.get(r["source"], False) or bool(r["mean"])
    return [s for s, used in order.items() if used]


def _sources(data: ReportData, c: CellInfo) -> list[Block]:
    who = _who(data, c)
    seat_rows = data.rows("points_seat", c.id)
    bot_rows = data.rows("points_bot", c.id) if c.mixed else []
    cell_rows = {r["source"]: r for r in data.rows("points_cell", c.id)}
    by = {("seat", r["seat"], r["source"]): r for r in seat_rows}
    by |= {("bot", r["bot"], r["source"]): r for r in bot_rows}
    used = _sources_used(seat_rows)
    shape = (data.rows("game_shape", c.id) or [{}])[0]
    totals = {(kind, key): sum(r["mean"] for r in (seat_rows if kind == "seat" else bot_rows)
                               if r[kind] == key) for _, kind, key in who}
    table_rows = []
    for src in used:
        row = [source_name(src)]
        for _, kind, key in who:
            r = by.get((kind, key, src))
            row.append(f.mean_ci(r["mean"], r["ci_low"], r["ci_high"]) if r else f.DASH)
        row.append(f.pct(cell_rows.get(src, {}).get("share")))
        table_rows.append(row)
    table_rows.append(["**total**", *[f"**{f.num(totals[(k, x)])}**" for _, k, x in who],
                       "100%" if used else f.DASH])
    blocks: list[Block] = [
        Heading(3, "Score sources"),
        Para(f"Mean points per game with {_conf(data)} intervals; *share*: the source's part "
             f"of all points scored in the cell (mean final score {f.num(shape.get('score_mean'))})."),
        Table(["source", *[w for w, _, _ in who], "share"], table_rows),
    ]
    series = {source_name(s): [by[(k, x, s)]["mean"] if (k, x, s) in by else 0.0
                                       for _, k, x in who] for s in used}
    blocks.append(Charts([charts.stacked_bars(
        [w for w, _, _ in who], series,
        title="Mean points by source" + (", by seat and bot" if c.mixed else ", by seat"),
        width=CHART_W, keys=list(used))]))
    blocks += _seat_edges(data, c, used)
    sep = data.rows("winner_separation", c.id)
    if sep:
        n = sep[0]["games"]
        rows = [[source_name(r["source"]), f.signed(r["mean"]),
                 f.ci_num(r["ci_low"], r["ci_high"])]
                for r in sep if r["source"] in used or r["source"] == "total"]
        blocks += [
            Para(f"**What separates winners**: the winner's points minus the mean of the "
                 f"players who did not win, per source, over {n:,} games (games in which "
                 "every player shared the win are left out). Sources with the largest "
                 "positive difference decide games."),
            Table(["source", "winner − others", f"{_conf(data)} CI"], rows),
        ]
        shown = [r for r in sep if r["source"] in used and r["mean"] is not None]
        if shown:
            blocks.append(Charts([charts.interval_rows(
                [source_name(r["source"]) for r in shown],
                [r["mean"] for r in shown], [r["ci_low"] for r in shown],
                [r["ci_high"] for r in shown],
                title=f"What separates winners ({_conf(data)} CI)",
                x_label="winner's points minus the others' mean (points)",
                colours=[source_colour(r["source"]) for r in shown], width=CHART_W)]))
    return blocks


def _seat_edges(data: ReportData, c: CellInfo, used: list[str]) -> list[Block]:
    """Each seat against the other seats of its table, by source (``seat_edge``): where the
    seats' points differ, which is what a seat verdict's "why" reads. The chart shows the
    seat with the largest win-rate gap."""
    rows = [r for r in data.rows("seat_edge", c.id) if r["source"] in used or
            r["source"] == "total"] if "seat_edge" in data.tables else []
    if not rows:
        return []
    by = {(r["seat"], r["source"]): r for r in rows}
    seats = sorted({r["seat"] for r in rows})
    table = []
    for src in [*used, "total"]:
        row = [f"**{source_name(src)}**" if src == "total" else source_name(src)]
        for s in seats:
            r = by.get((s, src))
            row.append(f"{f.signed(r['mean'])} {f.ci_num(r['ci_low'], r['ci_high'])}" if r
                       else f.DASH)
        table.append(row)
    blocks: list[Block] = [
        Para(f"**Each seat against the others**: a seat's points minus the mean of the other "
             f"seats' points in the same game, per source, with {_conf(data)} intervals over "
             f"{c.games:,} games: the sources where a seat's edge or deficit comes from."),
        Table(["source", *[_seat(s) for s in seats]], table),
    ]
    v = c.verdict
    s = v.largest_gap_seat if v is not None else 0
    shown = [by[(s, src)] for src in used if (s, src) in by and by[(s, src)]["mean"] is not None]
    if shown:
        blocks.append(Charts([charts.interval_rows(
            [source_name(r["source"]) for r in shown], [r["mean"] for r in shown],
            [r["ci_low"] for r in shown], [r["ci_high"] for r in shown],
            title=f"{_seat(s).capitalize()} against the other seats ({_conf(data)} CI)",
            x_label=f"{_seat(s)}'s points minus the others' mean (points)",
            colours=[source_colour(r["source"]) for r in shown], width=CHART_W)]))
    return blocks


def _bots(data: ReportData, c: CellInfo) -> list[Block]:
    if not c.mixed:
        return []
    matrix = data.rows("bot_matrix", c.id)
    ratings = data.rows("bot_ratings", c.id)
    bots = sorted(set(c.lineup))
    by = {(r["bot"], r["opponent"]): r for r in matrix}
    rows = []
    for b in bots:
        row = [b]
        for o in bots:
            r = by.get((b, o))
            row.append(f.DASH if r is None else
                       f"{f.pct(r['win_rate'])} {f.ci_pct(r['ci_low'], r['ci_high'])} "
                       f"· {f.count(r['games'])}")
        rows.append(row)
    blocks: list[Block] = [
        Heading(3, "Bot strength"),
        Para("Pairwise results: each pair of seats held by different bots in a game is one "
             "comparison, won by the better rank (a tie is half a win). Cell: row bot's win "
             f"rate against the column bot, {_conf(data)} Wilson interval · comparisons."),
        Table(["bot", *[f"vs {o}" for o in bots]], rows),
    ]
    if ratings:
        prior = any(r["prior"] for r in ratings)
        blocks += [
            Table(["bot", "rating", f"{_conf(data)} CI", "comparisons"], [
                [r["bot"], f.signed(r["rating"], 0), f.ci_num(r["ci_low"], r["ci_high"], 0),
                 f.count(r["games"])] for r in ratings]),
            Para("Bradley-Terry rating on the pairwise results (Elo-like scale: 400 points = "
                 "10:1 odds; the mean bot is 0). The comparisons of one game are not "
                 "independent, so the intervals are cluster sandwich intervals over the "
                 "games (blocks of games as clusters), not Wald intervals, which are "
                 "10-34% too narrow with 3-4 players."
                 + (" A bot never lost (or never won) here, so 0.5 pseudo-wins were added "
                    "both ways to every pair to give finite ratings." if prior else "")),
        ]
    return blocks


def _bins(values: list[tuple[float, int]], target: int = 30) -> tuple[float, float]:
    lo = min(v for v, _ in values)
    hi = max(v for v, _ in values)
    width = max(1.0, float(math.ceil((hi - lo + 1) / target)))
    return math.floor(lo / width) * width, width


def _binned(values: list[tuple[float, int]], start: float, width: float
            ) -> list[tuple[float, int]]:
    out: dict[float, int] = {}
    for v, n in values:
        b = start + math.floor((v - start) / width) * width
        out[b] = out.get(b, 0) + int(n)
    return sorted(out.items())


def _shape(data: ReportData, c: CellInfo) -> list[Block]:
    rows = data.rows("game_shape", c.id)
    if not rows:
        return []
    g = rows[0]
    figures = [
        ["final score per player: mean", f.num(g["score_mean"])],
        ["median [quartiles]", f"{f.num(g['score_median'], 1)} [{f.num(g['score_q25'], 1)}, "
                               f"{f.num(g['score_q75'], 1)}]"],
        ["10% – 90%", f"{f.num(g['score_q10'], 1)} – {f.num(g['score_q90'], 1)}"],
        ["min – max", f"{f.num(g['score_min'], 0)} – {f.num(g['score_max'], 0)}"],
        ["winning margin (winner − best other)",
         f.mean_ci(g["margin_mean"], g["margin_ci_low"], g["margin_ci_high"])],
        ["lead changes on the score track",
         f.mean_ci(g["lead_changes_mean"], g["lead_changes_ci_low"],
                   g["lead_changes_ci_high"])],
        ["game length (decisions)",
         f.mean_ci(g["decisions_mean"], g["decisions_ci_low"], g["decisions_ci_high"], 1)],
    ]
    rp = data.rows("round_points", c.id)
    by = {(r["seat"], r["round"]): r for r in rp}
    rounds = list(dict.fromkeys(r["round"] for r in rp))
    round_rows = []
    for rd in rounds:
        label = "game end" if rd == "end" else f"round {rd}"
        row = [label]
        for s in range(c.players):
            r = by.get((s, rd))
            row.append(f.mean_ci(r["mean"], r["ci_low"], r["ci_high"]) if r else f.DASH)
        row.append(f.num(g.get(f"round_{rd}")))
        round_rows.append(row)
    blocks: list[Block] = [
        Heading(3, "Game shape"),
        Table(["figure", f"value ({_conf(data)} CI)"], figures),
        Para(f"Points scored per round, mean per game with {_conf(data)} intervals (round "
             "points include immediate scoring; *game end* is the final scoring):"),
        Table(["", *[_seat(s) for s in range(c.players)], "all seats"], round_rows),
    ]
    dist = data.rows("score_distribution", c.id)
    svgs = []
    if dist:
        start, width = _bins([(r["score"], r["count"]) for r in dist])
        series = {}
        for s in range(c.players):
            series[_seat(s)] = _binned([(r["score"], r["count"]) for r in dist
                                        if r["seat"] == s], start, width)
        svgs.append(charts.histogram(series, title="Final score by seat", bin_width=width,
                                     width=CHART_W, x_label="final score (points)",
                                     colours=charts.seat_colours(c.players)))
    margins = data.rows("margin_distribution", c.id)
    if margins:
        start, width = _bins([(r["margin"], r["count"]) for r in margins])
        svgs.append(charts.histogram(
            {"margin": _binned([(r["margin"], r["count"]) for r in margins], start, width)},
            title="Winning margin (winner − best other)", bin_width=width,
            width=CHART_W, x_label="winning margin (points)"))
    blocks.append(Charts(svgs))
    return blocks


def _cell(data: ReportData, c: CellInfo, samples: list[str] | None = None) -> list[Block]:
    blocks: list[Block] = [
        Heading(2, f"{c.index + 1}. {spell_sides(c.sides)} ({c.sides}) · {c.players} players "
                f"· {', '.join(c.lineup)}", c.anchor),
        Para(f"{c.games:,} games"
             + (f" ({c.adaptive_games:,} of them from adaptive allocation)"
                if c.adaptive_games else "")
             + ". Seat 1 starts round 1; the lineup rotates through the seats "
             "game by game, so every bot sits in every seat equally often."),
    ]
    blocks += [Note(n) for n in c.notes]
    blocks += _samples(samples or [])
    for part in (_win_rates, _fairness, _sources, _bots, _shape):
        blocks += part(data, c)
    return blocks


def build(data: ReportData, gates: list[GateResult],
          samples: dict[str, list[str]] | None = None) -> list[Block]:
    """The whole report as blocks, in reading order: the answer first, the method folded
    away below it. ``samples``: per cell id, the kept game pages (relative links)."""
    blocks: list[Block] = [Heading(1, f"Balance report: {data.study}")]
    blocks += _answer(data)
    blocks += _header(data)
    blocks += _gates(gates)
    blocks += [Note(n) for n in data.global_notes]
    blocks += _overview(data)
    for cid in data.detail:
        blocks += _cell(data, data.cell(cid), (samples or {}).get(cid))
    blocks += [
        Heading(2, "Data files", "files"),
        Para("Every figure is also in `summary.json` and in `tables/` as CSV and Parquet: "
             + ", ".join(f"`{name}`" for name in data.tables) + "."),
    ]
    return blocks

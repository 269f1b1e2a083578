"""Report sections for playtesters: robustness across lineups (whole report), comebacks and card
strength (per cell). Blocks as in ``document``, which places them; kept apart so the main
document's layout can change without touching these."""

from __future__ import annotations

from imhotep_stats.reporting import charts
from imhotep_stats.reporting.document import CHART_W, Block, Charts, Heading, Note, Para, Table
from imhotep_stats.reporting.figures import CellInfo, ReportData
from imhotep_stats.reporting.robustness import first_player, lineup_name, lineup_rating
from imhotep_stats.stats import fmt as f

MIDDLE_ROUND = 3  # the comeback chart's round: half the game left to play


def _conf(data: ReportData) -> str:
    return f"{100 * data.confidence:g}%"


def robustness(data: ReportData) -> list[Block]:
    """Each (sides, players) with several lineups: verdicts side by side, strongest first."""
    if not data.robustness:
        return []
    blocks: list[Block] = [
        Heading(2, "Robustness across lineups", "robustness"),
        Para("The same sides and player count played by different lineups, strongest first "
             "(rating: the lineup's mean, Elo scale, greedy 0, measured head to head at the "
             "group's player count and sides where a table has them; each group names its "
             "table; `imhotep_stats/data/bot_ratings.toml`). Whether the seat effects differ "
             "between lineups is tested, not read off the verdict labels: a chi-square test "
             "of the seat x lineup table of wins (shared wins as fractions), Holm over the "
             "groups of this report, with the seats' trend per rating point beside it "
             "where at least three lineups have ratings. A rejection says the size of a seat's "
             "effect depends on the bots (not that the bots cause it); \"no difference "
             "detected\" comes with the difference the test could miss (80% power). "
             f"*First-player advantage*: seat 1's win rate minus its fair share, {_conf(data)} "
             "Wilson interval."),
    ]
    for g in data.robustness:
        rows, svg_rows = [], []
        for c in g.cells:
            v = c.verdict
            fp = first_player(v)
            rating = lineup_rating(c.lineup, g.ratings)
            rows.append([lineup_name(c.lineup), f.DASH if rating is None else f.signed(rating, 0),
                         f.count(c.games), v.text if v else "no games",
                         f.DASH if fp is None else f.pct(fp["win_rate"]),
                         f.DASH if fp is None else
                         f"{f.pp(fp['gap'], sign=True)} [{f.pp(fp['gap_low'], sign=True)}, "
                         f"{f.pp(fp['gap_high'], sign=True)}]"])
            if fp is not None:
                svg_rows.append((lineup_name(c.lineup), fp))
        blocks += [Heading(3, f"{g.sides} · {g.players} players"),
                   Table(["lineup", "rating", "games", "seat verdict", "seat 1 wins",
                          "first-player advantage"], rows, "lrrWrr"),
                   Para(g.ratings.words[0].upper() + g.ratings.words[1:] + ".")]
        blocks += [Note(flag[0].upper() + flag[1:] + ".") for flag in g.flags]
        if g.consistent:
            blocks.append(Para(g.summary[0].upper() + g.summary[1:] + "."))
        if svg_rows:
            p0 = 1.0 / g.players
            blocks.append(Charts([charts.interval_bars(
                [n for n, _ in svg_rows], [fp["win_rate"] for _, fp in svg_rows],
                [fp["gap_low"] + p0 for _, fp in svg_rows],
                [fp["gap_high"] + p0 for _, fp in svg_rows],
                title=f"Seat 1 win rate by lineup ({_conf(data)} CI)", reference=p0,
                width=CHART_W, y_label="seat 1 win rate", x_label="lineup")]))
    return blocks


def _rate_ci(r: dict) -> str:
    return f"{f.pct(r['win_rate'])} {f.ci_pct(r['ci_low'], r['ci_high'])}"


def comebacks(data: ReportData, c: CellInfo) -> list[Block]:
    ranks = data.rows("comebacks_rank", c.id)
    if not ranks:
        return []
    by = {(r["round"], r["rank"]): r for r in ranks}
    rounds = sorted({r["round"] for r in ranks})
    rank_ids = sorted({r["rank"] for r in ranks})
    rows = [[f"after round {rd}", *[_rate_ci(by[(rd, k)]) if (rd, k) in by else f.DASH
                                    for k in rank_ids]] for rd in rounds]
    bands = data.rows("comebacks_deficit", c.id)
    band_names = list(dict.fromkeys(r["band"] for r in sorted(bands,
                                                                key=lambda r: r["band_order"])))
    bb = {(r["round"], r["band"]): r for r in bands}
    band_rows = [[f"after round {rd}", *[
        f"{_rate_ci(bb[(rd, b)])} · {f.count(bb[(rd, b)]['rows'])}" if (rd, b) in bb
        else f.DASH for b in band_names]] for rd in rounds]
    mid = [bb[(MIDDLE_ROUND, b)] for b in band_names if (MIDDLE_ROUND, b) in bb]
    blocks: list[Block] = [
        Heading(3, "Comebacks"),
        Para("How often the player behind comes back: the chance of winning by rank on the "
             "score track after each round (rank 1 = leading or tied for the lead), then by "
             "points behind the leader, with "
             f"{_conf(data)} Wilson intervals over seat-games (· seat-games in the band)."),
        Table(["", *[f"rank {k}" for k in rank_ids]], rows),
        Table(["", *[("leading" if b == "leading" else f"{b} behind") for b in band_names]],
              band_rows),
    ]
    if mid:
        blocks.append(Charts([charts.interval_bars(
            [r["band"] for r in mid], [r["win_rate"] for r in mid],
            [r["ci_low"] for r in mid], [r["ci_high"] for r in mid],
            title=f"Win rate by points behind after round {MIDDLE_ROUND} ({_conf(data)} CI)",
            reference=1 / c.players, width=CHART_W,
            x_label=f"points behind the leader after round {MIDDLE_ROUND}")]))
    return blocks


def card_strength(data: ReportData, c: CellInfo) -> list[Block]:
    if not data.cards_recorded:
        return [Heading(3, "Card strength"),
                Para("Needs a re-run: this run did not record the cards each seat took.")]
    cards = data.rows("card_strength", c.id)
    if not cards:
        return []
    cards = sorted(cards, key=lambda r: -r["difference"])
    rows = [[r["card"].replace("_", " "), f.pct(r["take_rate"]), f.num(r["copies"]),
             _rate_ci({"win_rate": r["win_rate_took"], "ci_low": r["ci_low_took"],
                       "ci_high": r["ci_high_took"]}),
             _rate_ci({"win_rate": r["win_rate_not"], "ci_low": r["ci_low_not"],
                       "ci_high": r["ci_high_not"]}),
             f"{f.pp(r['difference'], sign=True)} [{f.pp(r['diff_low'], sign=True)}, "
             f"{f.pp(r['diff_high'], sign=True)}]"] for r in cards]
    return [
        Heading(3, "Card strength"),
        Para("Per market card: how often a seat took it (*taken*: seat-games with at least "
             "one copy; *copies*: mean per seat-game), the win rate of seats that took it "
             "against those that did not, and the difference (Newcombe interval), strongest "
             f"association first; {_conf(data)} intervals."),
        Note("Association, not cause: the players who take a card may win for other reasons "
             "(stronger positions buy more cards; some cards come out late), so a card that "
             "goes with winning is not thereby too strong."),
        Table(["card", "taken", "copies", "win rate if taken", "if not taken",
               "difference"], rows),
        Charts([charts.interval_rows(
            [r["card"].replace("_", " ") for r in cards],
            [r["win_rate_took"] for r in cards], [r["ci_low_took"] for r in cards],
            [r["ci_high_took"] for r in cards],
            title=f"Win rate of seats that took the card ({_conf(data)} CI)",
            x_label="win rate of the seats that took it", percent=True,
            reference=1 / c.players, reference_label="fair share", width=CHART_W)]),
    ]


def cell_sections(data: ReportData, c: CellInfo) -> list[Block]:
    return comebacks(data, c) + card_strength(data, c)


def extend(blocks: list[Block], data: ReportData) -> list[Block]:
    """``document.build``'s blocks with these sections added: the robustness section before
    the first cell's section (or the data files), each cell's comebacks and card strength at
    the end of its section."""
    cells = {c.anchor: c for c in data.cells}
    out: list[Block] = []
    current: CellInfo | None = None
    placed = False
    for b in blocks:
        if isinstance(b, Heading) and b.level <= 2:
            if current is not None:
                out += cell_sections(data, current)
                current = None
            if not placed and (b.anchor in cells or b.anchor == "files"):
                out += robustness(data)
                placed = True
            current = cells.get(b.anchor or "")
        out.append(b)
    if current is not None:
        out += cell_sections(data, current)
    if not placed:
        out += robustness(data)
    return out

"""The skill table of docs/skill.md: does the seat verdict, or where the points come from, move
with the bots' skill? (issue 23, deliverable 5)

For each side combination and each rung of the ladder (random, greedy, mcts400, the reference
bot), one ordinary study cell per player count, every seat the same bot, played by
``imhotep-stats run`` into ``reports/skill/<rung>-<sides>/`` (a run directory: re-running
resumes, more ``--games`` tops it up and reuses the games already played). Then, per side
combination and player count, the seat win rates and the score-source shares rung by rung, and
the seat x rung test of ``stats/lineups.py`` (do the seat shares differ between rungs? with the
rating trend where the rungs are rated on the cell's table, ``bots/ratings.py``).

    python scripts/skill_table.py --play --rungs random,greedy --games 2000
    python scripts/skill_table.py --play --rungs mcts400,expert --games 40
    python scripts/skill_table.py > table.md     # the tables from what has been played
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import polars as pl

from imhotep_stats.config import DEFAULT_MARGIN

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "reports" / "skill"
SIDES = ("A-A-A-A-A", "C-C-C-C-C", "D-D-D-D-D", "D-A-C-A-A")
RUNGS = ("random", "greedy", "mcts400", "expert")
PLAYERS = (2, 3, 4)
SEED = 0
# score sources shown, as the summary names them; the cards' sources are summed into one
SITES = ("pyramid", "temple", "burial_chamber", "obelisk", "market")
SITE_LABEL = {"pyramid": "pyr", "temple": "tem", "burial_chamber": "bur", "obelisk": "obe",
              "market": "mkt"}


def run_dir(rung: str, sides: str, players: tuple[int, ...] = PLAYERS) -> Path:
    """The run of a rung on a side combination; one with fewer player counts has its own (a
    run's cells cannot change afterwards, only its games grow)."""
    tail = "" if players == PLAYERS else "-" + "".join(map(str, players)) + "p"
    return OUT / f"{rung}-{sides}{tail}"


def play(rung: str, sides: str, games: int, workers: int, players: tuple[int, ...],
         batch_size: int | None = None) -> None:
    # the rung alone in every seat: no strong-play check beside it (the table is that check);
    # small batches for the search rungs so that a stopped run keeps most of its games
    cmd = [sys.executable, "-m", "imhotep_stats", "run", "--sides", sides,
           *[a for p in players for a in ("--players", str(p))], "--bots", rung,
           "--games", str(games), "--seed", str(SEED), "--workers", str(workers),
           "--out", str(run_dir(rung, sides, players)), "--no-strong", "-q",
           *(["--batch-size", str(batch_size)] if batch_size else [])]
    print("+", " ".join(cmd[1:]), file=sys.stderr, flush=True)
    subprocess.run(cmd, cwd=ROOT, check=True)


def cells(rung: str, sides: str) -> dict[int, dict]:
    """Per player count, from the run's shards (one row per seat and game; a cell counts once
    its batch is stored, so the finished cells of an unfinished run are read too): games,
    each seat's wins (a shared win split) with its Wilson interval, the points by source."""
    runs = [run_dir(rung, sides), *sorted(OUT.glob(f"{rung}-{sides}-*p"))]
    out: dict[int, dict] = {}
    for run in runs:  # a player count played in two runs: the one with more games counts
        for players, cell in _run_cells(run).items():
            if players not in out or cell["games"] > out[players]["games"]:
                out[players] = cell
    return out


def _run_cells(run: Path) -> dict[int, dict]:
    """Per player count of one run: its seats' win rates and its points by source, by the
    report's own aggregates over the shards stored so far, and the widest 95% interval of a
    source's share (``_share_halfwidth``)."""
    from imhotep_stats.sim.store import load_results
    from imhotep_stats.stats.aggregate import points_by_source, win_rates

    if not (run / "manifest.json").exists():
        return {}
    lf = load_results(run, allow_incomplete=True)
    seats = win_rates(lf, by=("players", "seat"))
    points = points_by_source(lf, by=("players",))
    out = {}
    for (players,), rows in seats.group_by("players"):
        src = points.filter(pl.col("players") == players)
        mean = dict(zip(src["source"], src["mean"], strict=True))
        share = dict(zip(src["source"], src["share"], strict=True))
        out[int(players)] = {
            "games": int(rows["games"][0]), "seats": rows.sort("seat").to_dicts(),
            "total": sum(mean.values()),
            "shares": {**{site: share.get(site, 0.0) for site in SITES},
                       "cards": sum(v for k, v in share.items() if k.startswith("card_"))},
            "share_pm": _share_halfwidth(lf.filter(pl.col("players") == players))}
    return out


def _share_halfwidth(lf: pl.LazyFrame) -> float:
    """The widest 95% half-width over the shown shares (the sites and the cards together):
    a share is a ratio of per-game sums (a source's points over all points of the game), its
    variance by the delta method with the game as the unit."""
    cols = [c for c in lf.collect_schema().names() if c.startswith("pts_")]
    games = lf.group_by("game").agg(pl.col(cols).sum(), pl.col("score").sum()).collect()
    total = games["score"].cast(pl.Float64)
    n = games.height
    sources = [games[f"pts_{s}"] for s in SITES if f"pts_{s}" in games.columns]
    sources.append(sum(games[c] for c in cols if c.startswith("pts_card_")))
    widest = 0.0
    for y in sources:
        y = y.cast(pl.Float64)
        r = y.sum() / total.sum()
        resid = y - r * total
        se = (resid.var() / n) ** 0.5 / total.mean()
        widest = max(widest, 1.96 * se)
    return widest


def verdict_cell(cell: dict, margin: float = DEFAULT_MARGIN) -> str:
    """The cell's seat verdict as ``run --sides S --players P`` gives it for this one cell
    (``stats.significance.seat_verdict``), short: the seat it names and its side."""
    from imhotep_stats.stats.significance import seat_verdict

    v = seat_verdict([s["wins"] for s in cell["seats"]], cell["games"], margin)
    named = "" if v.seat is None else f" (seat {v.seat + 1} {'+' if v.direction > 0 else '-'})"
    return v.verdict + named


def expert_name() -> str | None:
    """The settings the reference bot `expert` plays with, as an mcts name (the name its
    rows are played under, so that a retuned expert cannot top up their runs)."""
    from imhotep_stats.bots import make_bot
    from imhotep_stats.bots.ratings import rated_name

    iterations = make_bot("expert").spec["iterations"]
    for name in (f"mcts{iterations}-b1-s", f"mcts{iterations}"):
        if rated_name(name) == "expert":
            return name
    return None


def row_name(rung: str) -> str:
    from imhotep_stats.bots.ratings import rated_name

    is_alias = rung != "expert" and rated_name(rung) == "expert"
    return f"**expert** = {rung}" if is_alias else rung


def table(sides: str, players: int, rungs: list[str]) -> list[str]:
    from imhotep_stats.bots.ratings import basis
    from imhotep_stats.stats.lineups import lineup_test

    rated = basis(players, sides)  # the cell's own ratings table, as a run's trust line
    played = [(r, cells(r, sides).get(players)) for r in rungs]
    played = [(r, c) for r, c in played if c is not None]
    if not played:
        return []
    seats = [f"seat {s + 1}" for s in range(players)]
    head = ["bot", "games", *seats, "verdict", "points", *[SITE_LABEL[s] for s in SITES],
            "cards", "share ±"]
    lines = [f"**{sides}, {players} players**", "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    wins, games, rating = [], [], []
    for rung, cell in played:
        n = cell["games"]
        seat_txt = [f"{100 * s['win_rate']:.1f} ({100 * s['ci_low']:.0f}-{100 * s['ci_high']:.0f})"
                    for s in cell["seats"]]
        sh = cell["shares"]
        lines.append("| " + " | ".join([row_name(rung), f"{n:,}", *seat_txt, verdict_cell(cell),
                                        f"{cell['total']:.1f}",
                                        *[f"{100 * sh[s]:.0f}%" for s in SITES],
                                        f"{100 * sh['cards']:.0f}%",
                                        f"{100 * cell['share_pm']:.1f}"]) + " |")
        wins.append([s["wins"] for s in cell["seats"]])
        games.append(n)
        r = rated.rating(rung)  # the reference bot by its settings is rated as `expert`
        rating.append(None if r is None else r.value)
    lines.append("")
    lines += against_greedy(played)
    # all rungs, then the playing rungs alone (random is far from play: does the seat effect
    # move between greedy and the searches?)
    for label, keep in (("all rungs", lambda r: True), ("without random", lambda r: r != "random")):
        idx = [i for i, (r, _c) in enumerate(played) if keep(r)]
        if len(idx) < 2 or (label != "all rungs" and len(idx) == len(played)):
            continue
        t = lineup_test([wins[i] for i in idx], [games[i] for i in idx], [rating[i] for i in idx])
        trend = ("" if t.trend_p is None else
                 f"; trend with rating p = {t.trend_p:.3g} (seat {t.trend_seat + 1})")
        lines.append(f"Seat x rung test, {label}: chi-square {t.statistic:.1f} on {t.df} df, "
                     f"p = {t.p:.3g} (seat {t.seat + 1} varies most){trend}.")
        lines.append("")
    return lines


def against_greedy(played: list[tuple[str, dict]]) -> list[str]:
    """Does the seat greedy's verdict is about move with skill? Its win rate in each search
    row minus greedy's, with Newcombe's 95% interval (``stats.playtest.newcombe``): the
    seat the verdict names, else the seat with greedy's largest gap."""
    import numpy as np

    from imhotep_stats.stats.playtest import newcombe
    from imhotep_stats.stats.significance import seat_verdict

    base = dict(played).get("greedy")
    others = [(r, c) for r, c in played if r not in ("random", "greedy")]
    if base is None or not others:
        return []
    v = seat_verdict([s["wins"] for s in base["seats"]], base["games"], DEFAULT_MARGIN)
    seat = v.largest_gap_seat if v.seat is None else v.seat
    parts = []
    for rung, cell in others:
        d, lo, hi = (float(x[0]) for x in newcombe(
            np.array([cell["seats"][seat]["wins"]]), np.array([cell["games"]]),
            np.array([base["seats"][seat]["wins"]]), np.array([base["games"]])))
        parts.append(f"{row_name(rung).replace('**', '')} {100 * d:+.1f} pp "
                     f"({100 * lo:+.1f} to {100 * hi:+.1f})")
    return [f"Seat {seat + 1} against greedy's: " + "; ".join(parts) + ".", ""]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--play", action="store_true", help="play (or top up) the runs first")
    ap.add_argument("--rungs", default=",".join(RUNGS))
    ap.add_argument("--sides", default=",".join(SIDES))
    ap.add_argument("--players", default=",".join(map(str, PLAYERS)),
                    help="player counts to play (with --play)")
    ap.add_argument("--games", type=int, default=2000, help="games per cell (with --play)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--batch-size", type=int, help="games a batch at most (with --play)")
    args = ap.parse_args()
    rungs, sides = args.rungs.split(","), args.sides.split(",")
    if args.play:
        for s in sides:
            for r in rungs:
                play(r, s, args.games, args.workers,
                     tuple(int(p) for p in args.players.split(",")), args.batch_size)
    out = []
    for s in sides:
        for p in PLAYERS:
            out += table(s, p, rungs)
    print("\n".join(out))


if __name__ == "__main__":
    main()

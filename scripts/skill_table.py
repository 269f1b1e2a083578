"""The skill table of docs/skill.md: does the seat verdict, or where the points come from, move
with the bots' skill? (issue 23, deliverable 5)

For each side combination and each rung of the ladder (random, greedy, mcts400, the reference
bot), one ordinary study cell per player count, every seat the same bot, played by
``imhotep-stats run`` into ``reports/skill/<rung>-<sides>/`` (a run directory: re-running
resumes, more ``--games`` tops it up and reuses the games already played). Then, per side
combination and player count, the seat win rates and the score-source shares rung by rung, and
the seat x rung test of ``stats/lineups.py`` (do the seat shares differ between rungs? with the
rating trend where the rungs have ratings).

    python scripts/skill_table.py --play --rungs random,greedy --games 2000
    python scripts/skill_table.py --play --rungs mcts400,expert --games 40
    python scripts/skill_table.py > table.md     # the tables from what has been played
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "reports" / "skill"
SIDES = ("A-A-A-A-A", "C-C-C-C-C", "D-D-D-D-D")
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


def play(rung: str, sides: str, games: int, workers: int, players: tuple[int, ...]) -> None:
    cmd = [str(ROOT / ".venv" / "bin" / "imhotep-stats"), "run", "--sides", sides,
           *[a for p in players for a in ("--players", str(p))], "--bots", rung,
           "--games", str(games), "--seed", str(SEED), "--workers", str(workers),
           "--out", str(run_dir(rung, sides, players)), "-q"]
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
    report's own aggregates over the shards stored so far."""
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
                       "cards": sum(v for k, v in share.items() if k.startswith("card_"))}}
    return out


def ratings() -> dict[str, float]:
    with open(ROOT / "imhotep_stats" / "data" / "bot_ratings.toml", "rb") as f:
        return tomllib.load(f)["ratings"]


def table(sides: str, players: int, rungs: list[str]) -> list[str]:
    from imhotep_stats.stats.lineups import lineup_test

    rated = ratings()
    played = [(r, cells(r, sides).get(players)) for r in rungs]
    played = [(r, c) for r, c in played if c is not None]
    if not played:
        return []
    seats = [f"seat {s + 1}" for s in range(players)]
    head = ["bot", "games", *seats, "points", *[SITE_LABEL[s] for s in SITES], "cards"]
    lines = [f"**{sides}, {players} players**", "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    wins, games, rating = [], [], []
    for rung, cell in played:
        n = cell["games"]
        seat_txt = [f"{100 * s['win_rate']:.1f} ({100 * s['ci_low']:.0f}-{100 * s['ci_high']:.0f})"
                    for s in cell["seats"]]
        sh = cell["shares"]
        lines.append("| " + " | ".join([rung, f"{n:,}", *seat_txt, f"{cell['total']:.1f}",
                                        *[f"{100 * sh[s]:.0f}%" for s in SITES],
                                        f"{100 * sh['cards']:.0f}%"]) + " |")
        wins.append([s["wins"] for s in cell["seats"]])
        games.append(n)
        rating.append(rated.get(rung))
    lines.append("")
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--play", action="store_true", help="play (or top up) the runs first")
    ap.add_argument("--rungs", default=",".join(RUNGS))
    ap.add_argument("--sides", default=",".join(SIDES))
    ap.add_argument("--players", default=",".join(map(str, PLAYERS)),
                    help="player counts to play (with --play)")
    ap.add_argument("--games", type=int, default=2000, help="games per cell (with --play)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    rungs, sides = args.rungs.split(","), args.sides.split(",")
    if args.play:
        for s in sides:
            for r in rungs:
                play(r, s, args.games, args.workers,
                     tuple(int(p) for p in args.players.split(",")))
    out = []
    for s in sides:
        for p in PLAYERS:
            out += table(s, p, rungs)
    print("\n".join(out))


if __name__ == "__main__":
    main()

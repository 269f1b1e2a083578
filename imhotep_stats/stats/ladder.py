"""The skill ladder: head-to-head games between bots, and Bradley-Terry ratings from them.

``play`` plays seeded games (seeds and seat rotation as ``bots.evaluate``: game i seats
``lineup[(s + i) % k]`` at seat s) in a process pool and appends one JSON line per game to
a file; games already in the file are skipped, so an interrupted ladder run resumes, and a
file is the same whatever the number of workers (lines are written in game order).
``report`` reads such files and prints Markdown: per file, each bot's win rate (Wilson 95%),
mean points and CPU seconds a game; then Bradley-Terry ratings (``stats.rating``, Elo scale)
from every pair of seats of every game, one table per side set, with Wald intervals and with
bootstrap intervals over whole games (anchored at greedy = 0). ``plot`` draws those ratings
against CPU a game (``ladder_plot``).

    python -m imhotep_stats.stats.ladder play --lineup mcts400,greedy --players 2 \\
        --sides A-A-A-A-A --games 1000 --workers 2 --out ladder/mcts400-greedy-2p-A.jsonl
    python -m imhotep_stats.stats.ladder report ladder/*.jsonl
    python -m imhotep_stats.stats.ladder plot ladder/*.jsonl --out docs/ladder.svg
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from time import process_time

from imhotep_stats.bots.evaluate import wilson
from imhotep_stats.stats.rating import bradley_terry, pairwise_from_ranks

BOOTSTRAP = 1000  # resamples of games for the rating intervals
ANCHOR = "greedy"  # rated 0, as data/bot_ratings.toml
CHUNK = 2  # games per task (and per write: a slow search game is not lost when stopped)


class Timed:
    """A bot whose ``choose`` adds up the CPU seconds it takes (``cpu``): a rating against
    CPU per game needs each seat's own cost, not the game's wall time."""

    def __init__(self, bot) -> None:
        self.bot = bot
        self.cpu = 0.0

    def choose(self, view, legal, rng):
        t = process_time()
        a = self.bot.choose(view, legal, rng)
        self.cpu += process_time() - t
        return a


def _play(args: tuple) -> list[dict]:
    """Games [start, stop) of a lineup, one record each."""
    from imhotep_stats.bots import make_bot
    from imhotep_stats.engine.game import Game
    from imhotep_stats.engine.play import bot_rng, chance_seed, play_game

    lineup, sides, players, seed, start, stop = args
    k = len(lineup)
    out = []
    for i in range(start, stop):
        names = [lineup[(s + i) % k] for s in range(players)]
        bots = [Timed(make_bot(n)) for n in names]
        g = Game(players, sides, seed=chance_seed(seed, i))
        r = play_game(g, bots, [bot_rng(seed, i, s) for s in range(players)])
        out.append({"game": i, "sides": "-".join(g.sides), "players": players, "seed": seed,
                    "bots": names, "totals": r.totals, "ranks": r.ranks,
                    "win_share": r.win_share, "cpu": [round(b.cpu, 4) for b in bots]})
    return out


def play(lineup: Sequence[str], sides: str, players: int, games: int, seed: int,
         workers: int, out: Path) -> int:
    """Play the games of ``range(games)`` not yet in ``out``; append them in game order."""
    done = {rec["game"] for rec in read(out)} if out.exists() else set()
    todo = [i for i in range(games) if i not in done]
    chunks = [todo[a:a + CHUNK] for a in range(0, len(todo), CHUNK)]
    jobs = [(list(lineup), sides, players, seed, c[0], c[-1] + 1) for c in chunks]
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a", encoding="utf-8") as f:
        results = ProcessPoolExecutor(workers).map(_play, jobs) if workers > 1 \
            else map(_play, jobs)
        for records in results:  # in job order
            for rec in records:
                f.write(json.dumps(rec) + "\n")
            f.flush()
    return len(todo)


def read(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def head_to_head(records: list[dict]) -> list[tuple]:
    """Per bot: (name, seat-games, win rate, Wilson low, high, mean points, mean CPU
    seconds a seat-game or None where the file has no timings)."""
    seats: dict[str, int] = defaultdict(int)
    wins: dict[str, float] = defaultdict(float)
    points: dict[str, float] = defaultdict(float)
    cpu: dict[str, list[float]] = defaultdict(list)
    for rec in records:
        for name, share, total in zip(rec["bots"], rec["win_share"], rec["totals"], strict=True):
            seats[name] += 1
            wins[name] += share
            points[name] += total
        for name, t in zip(rec["bots"], rec.get("cpu", ()), strict=False):
            cpu[name].append(t)
    out = []
    for name in sorted(seats, key=lambda n: -wins[n] / seats[n]):
        lo, hi = wilson(wins[name], seats[name])
        t = sum(cpu[name]) / len(cpu[name]) if cpu[name] else None
        out.append((name, seats[name], wins[name] / seats[name], lo, hi,
                    points[name] / seats[name], t))
    return out


def bootstrap_ratings(records: list[dict], reps: int = BOOTSTRAP, seed: int = 0,
                      anchor: str = ANCHOR) -> dict[str, tuple[float, float, float, float]]:
    """Per bot: (rating, 2.5%, 97.5% bootstrap percentiles, mean CPU seconds a seat-game
    or nan). Bradley-Terry on every pair of seats (``prior`` 0.5 pseudo-wins), refitted to
    ``reps`` resamples of whole games, so an interval counts the games, not the seat pairs
    (a 4-player game gives six comparisons that are not independent). Anchored at
    ``anchor`` = 0 where it played, else at the mean."""
    import numpy as np

    names = sorted({b for r in records for b in r["bots"]})
    if anchor in names:
        names.remove(anchor)
        names.insert(0, anchor)
    per_game = np.stack([pairwise_from_ranks([list(zip(r["bots"], r["ranks"], strict=True))],
                                             names).wins for r in records])
    how = "first" if names[0] == anchor else "mean"

    def fit(w):
        return bradley_terry(w, names, anchor=how, prior=0.5).rating

    point = fit(per_game.sum(axis=0))
    rng = np.random.default_rng(seed)
    draws = []
    for _ in range(reps):
        pick = rng.integers(0, len(records), len(records))
        try:
            draws.append(fit(per_game[pick].sum(axis=0)))
        except ValueError:  # a resample in which two groups never met: skip it
            continue
    lo, hi = np.percentile(np.array(draws), [2.5, 97.5], axis=0)
    cost = {name: t for name, *_, t in head_to_head(records)}
    return {n: (float(point[i]), float(lo[i]), float(hi[i]),
                float("nan") if cost[n] is None else cost[n]) for i, n in enumerate(names)}


def report(paths: Sequence[Path]) -> str:
    lines = ["### Head to head", "",
             "| file | players | sides | bot | seat-games | win rate (95% CI) | mean points "
             "| CPU s a game |", "|---|---|---|---|---|---|---|---|"]
    by_sides: dict[str, list[dict]] = defaultdict(list)
    for path in paths:
        records = read(path)
        if not records:
            continue
        first = records[0]
        for name, n, w, lo, hi, pts, t in head_to_head(records):
            cost = "" if t is None else f"{t:.2f}"
            lines.append(f"| {path.name} | {first['players']} | {first['sides']} | {name} | {n} "
                         f"| {100 * w:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}) | {pts:.1f} "
                         f"| {cost} |")
        by_sides[first["sides"]].extend(records)
    for sides, records in sorted(by_sides.items()):
        pairs = pairwise_from_ranks([list(zip(r["bots"], r["ranks"], strict=True))
                                     for r in records])
        try:
            rating = bradley_terry(pairs.wins, pairs.names, prior=0.5)
        except ValueError as exc:
            lines += ["", f"Ratings on {sides}: not identified ({exc})."]
            continue
        boot = bootstrap_ratings(records)
        games = defaultdict(int)
        for r in records:
            for name in set(r["bots"]):
                games[name] += 1
        lines += ["", f"### Bradley-Terry ratings, sides {sides} (Elo scale, mean 0, 95% Wald "
                  "intervals; every pair of seats of every game is one comparison; then "
                  f"anchored at {ANCHOR} = 0 with 95% bootstrap intervals over "
                  f"{BOOTSTRAP} resamples of games)", "",
                  "| bot | rating | 95% interval | comparisons | games | rating, "
                  f"{ANCHOR} = 0 | bootstrap 95% | CPU s a seat-game |",
                  "|---|---|---|---|---|---|---|---|"]
        for i in sorted(range(len(rating.names)), key=lambda i: -rating.rating[i]):
            name = rating.names[i]
            b, lo, hi, t = boot[name]
            cost = "" if t != t else f"{t:.2f}"
            lines.append(f"| {name} | {rating.rating[i]:+.0f} | "
                         f"{rating.ci_low[i]:+.0f} to {rating.ci_high[i]:+.0f} | "
                         f"{int(rating.games[i])} | {games[name]} | {b:+.0f} | "
                         f"{lo:+.0f} to {hi:+.0f} | {cost} |")
    return "\n".join(lines) + "\n"


def plot(paths: Sequence[Path], players: int = 2) -> str:
    """The SVG of ``ladder_plot``: bootstrap ratings against CPU, a series per side set."""
    from imhotep_stats.stats.ladder_plot import rating_vs_cpu_svg

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


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m imhotep_stats.stats.ladder",
                                 description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play (or resume) head-to-head games into a JSON Lines file")
    p.add_argument("--lineup", required=True, help="bot names, comma-separated (rotated)")
    p.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    p.add_argument("--sides", default="A-A-A-A-A")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", type=Path, required=True)
    r = sub.add_parser("report", help="Markdown tables from JSON Lines files")
    r.add_argument("files", type=Path, nargs="+")
    g = sub.add_parser("plot", help="an SVG of rating against CPU a game, per side set")
    g.add_argument("files", type=Path, nargs="+")
    g.add_argument("--out", type=Path, required=True)
    g.add_argument("--players", type=int, default=2, help="only games of this many players")
    args = ap.parse_args(argv)
    if args.command == "plot":
        args.out.write_text(plot(args.files, args.players), encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)
        return 0
    if args.command == "play":
        from imhotep_stats.bots import BotSpecError, make_bot

        lineup = [n.strip() for n in args.lineup.split(",") if n.strip()]
        try:
            for name in lineup:
                make_bot(name)
        except BotSpecError as exc:
            print(f"--lineup: {exc}", file=sys.stderr)
            return 1
        n = play(lineup, args.sides, args.players, args.games, args.seed, args.workers, args.out)
        print(f"{n} games played into {args.out}", file=sys.stderr)
        return 0
    sys.stdout.write(report(args.files))
    return 0


if __name__ == "__main__":
    sys.exit(main())

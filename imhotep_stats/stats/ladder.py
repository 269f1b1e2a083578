"""The skill ladder: head-to-head games between bots, and Bradley-Terry ratings from them.

``play`` plays seeded games (seeds and seat rotation as ``bots.evaluate``: game i seats
``lineup[(s + i) % k]`` at seat s) in a process pool and appends one JSON line per game to
a file; games already in the file are skipped, so an interrupted ladder run resumes, and a
file is the same whatever the number of workers (lines are written in game order).
``report`` reads such files and prints Markdown: per file, each bot's win rate (Wilson 95%)
and mean points; then Bradley-Terry ratings (``stats.rating``, Elo scale, 95% cluster
sandwich intervals over games) from every pair of seats of every game, one table per side
set and player count (files with different player counts are not pooled into one fit).
The ratings add ``--prior`` pseudo-wins (default ``DEFAULT_PRIOR``) both ways to every
pair that met, so that a bot that never won or never lost still gets a finite rating; the
table says how many. A bot rated from the prior alone (random, which never wins) moves
the others' ratings less, the smaller the prior; ``--prior 0`` fits the data alone and
says so when that is impossible.

    python -m imhotep_stats.stats.ladder play --lineup mcts400,greedy --players 2 \\
        --sides A-A-A-A-A --games 1000 --workers 2 --out ladder/mcts400-greedy-2p-A.jsonl
    python -m imhotep_stats.stats.ladder report ladder/*.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from imhotep_stats.bots.evaluate import wilson
from imhotep_stats.stats.rating import Pairwise, bradley_terry, pairwise_from_ranks

CHUNK = 10  # games per task: a few seconds of work with search bots
DEFAULT_PRIOR = 0.5  # pseudo-wins per pair and direction (see the module docstring)


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
        bots = [make_bot(n) for n in names]
        g = Game(players, sides, seed=chance_seed(seed, i))
        r = play_game(g, bots, [bot_rng(seed, i, s) for s in range(players)])
        out.append({"game": i, "sides": "-".join(g.sides), "players": players, "seed": seed,
                    "bots": names, "totals": r.totals, "ranks": r.ranks,
                    "win_share": r.win_share})
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


def head_to_head(records: list[dict]) -> list[tuple[str, int, float, float, float, float]]:
    """Per bot: (name, seat-games, win rate, Wilson low, high, mean points)."""
    seats: dict[str, int] = defaultdict(int)
    wins: dict[str, float] = defaultdict(float)
    points: dict[str, float] = defaultdict(float)
    for rec in records:
        for name, share, total in zip(rec["bots"], rec["win_share"], rec["totals"], strict=True):
            seats[name] += 1
            wins[name] += share
            points[name] += total
    out = []
    for name in sorted(seats, key=lambda n: -wins[n] / seats[n]):
        lo, hi = wilson(wins[name], seats[name])
        out.append((name, seats[name], wins[name] / seats[name], lo, hi,
                    points[name] / seats[name]))
    return out


def _game_matrix(rec: dict) -> Pairwise:
    return pairwise_from_ranks([list(zip(rec["bots"], rec["ranks"], strict=True))])


def ratings(records: list[dict], prior: float = DEFAULT_PRIOR):
    """Bradley-Terry ratings of the bots in ``records`` with game-clustered intervals."""
    pairs = pairwise_from_ranks([list(zip(r["bots"], r["ranks"], strict=True))
                                 for r in records])
    idx = {b: i for i, b in enumerate(pairs.names)}
    clusters = np.zeros((len(records), len(idx), len(idx)))
    for g, rec in enumerate(records):
        m = _game_matrix(rec)
        pos = [idx[b] for b in m.names]
        clusters[g][np.ix_(pos, pos)] = m.wins
    return bradley_terry(pairs.wins, pairs.names, prior=prior,
                         clusters=clusters if len(records) > 1 else None)


def report(paths: Sequence[Path], prior: float = DEFAULT_PRIOR) -> str:
    lines = ["### Head to head", "",
             "| file | players | sides | bot | seat-games | win rate (95% CI) | mean points |",
             "|---|---|---|---|---|---|---|"]
    by_table: dict[tuple[str, int], list[dict]] = defaultdict(list)
    for path in paths:
        records = read(path)
        if not records:
            continue
        first = records[0]
        for name, n, w, lo, hi, pts in head_to_head(records):
            lines.append(f"| {path.name} | {first['players']} | {first['sides']} | {name} | {n} "
                         f"| {100 * w:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}) | {pts:.1f} |")
        for rec in records:
            by_table[(rec["sides"], int(rec["players"]))].append(rec)
    for (sides, players), records in sorted(by_table.items()):
        try:
            rating = ratings(records, prior)
        except ValueError as exc:
            lines += ["", f"Ratings on {sides}, {players} players: not identified ({exc})."]
            continue
        lines += ["", f"### Bradley-Terry ratings, sides {sides}, {players} players (Elo "
                  "scale, mean 0, 95% intervals clustered by game; every pair of seats of "
                  f"every game is one comparison; prior {prior:g} pseudo-wins both ways per "
                  "pair)", "",
                  "| bot | rating | 95% interval | comparisons |", "|---|---|---|---|"]
        for i in sorted(range(len(rating.names)), key=lambda i: -rating.rating[i]):
            lines.append(f"| {rating.names[i]} | {rating.rating[i]:+.0f} | "
                         f"{rating.ci_low[i]:+.0f} to {rating.ci_high[i]:+.0f} | "
                         f"{int(rating.games[i])} |")
    return "\n".join(lines) + "\n"


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
    r.add_argument("--prior", type=float, default=DEFAULT_PRIOR,
                   help="pseudo-wins added both ways to every pair that met "
                        f"(default {DEFAULT_PRIOR})")
    args = ap.parse_args(argv)
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
    if args.prior < 0:
        print("--prior: must be at least 0", file=sys.stderr)
        return 1
    sys.stdout.write(report(args.files, args.prior))
    return 0


if __name__ == "__main__":
    sys.exit(main())

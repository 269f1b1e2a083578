"""The skill ladder's statistics: each bot's win rate (Wilson 95%) and mean points from
head-to-head games, and Bradley-Terry ratings (``stats.rating``, Elo scale, 95% intervals)
from every pair of seats of every game, one table per side set and player count (files with
different player counts are not pooled into one fit), with 95% cluster sandwich intervals
over games and ``--prior`` pseudo-wins (default ``DEFAULT_PRIOR``) both ways to every pair
that met, stated in the table's heading (the prior is what rates a bot that never won;
``--prior 0`` fits the data alone and says so when that is impossible); also anchored at greedy = 0
with bootstrap intervals over whole games, and each bot's CPU seconds a seat-game where the
file has them (``cpu``, one per seat; ``reporting.ladder_plot`` draws rating against it).
The games are played by
``imhotep-stats ladder play`` (``sim.headtohead``); ``imhotep-stats ladder report FILES``
prints this module's Markdown.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from imhotep_stats.sim.headtohead import read_records as read
from imhotep_stats.stats.intervals import mean_interval, wilson_interval
from imhotep_stats.stats.rating import bradley_terry, pairwise_from_ranks

if TYPE_CHECKING:
    import polars as pl

__all__ = ["DEFAULT_PRIOR", "BotSummary", "bootstrap_ratings", "bot_summaries", "head_to_head",
           "ratings", "read", "report"]

BOOTSTRAP = 1000  # resamples of games for the rating intervals
DEFAULT_PRIOR = 0.5  # pseudo-wins per pair and direction (see the module docstring)
ANCHOR = "greedy"  # rated 0, as data/bot_ratings.toml


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
        lo, hi = wilson_interval(wins[name], seats[name])
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


def ratings(records: list[dict], prior: float = DEFAULT_PRIOR):
    """Bradley-Terry ratings of the bots in ``records`` (mean 0) with game-clustered
    (sandwich) intervals: each game's pairwise matrix is one cluster."""
    import numpy as np

    pairs = pairwise_from_ranks([list(zip(r["bots"], r["ranks"], strict=True))
                                 for r in records])
    clusters = np.stack([pairwise_from_ranks([list(zip(r["bots"], r["ranks"], strict=True))],
                                             pairs.names).wins for r in records])
    return bradley_terry(pairs.wins, pairs.names, prior=prior,
                         clusters=clusters if len(records) > 1 else None)


def report(paths: Sequence[Path], prior: float = DEFAULT_PRIOR) -> str:
    lines = ["### Head to head", "",
             "| file | players | sides | bot | seat-games | win rate (95% CI) | mean points "
             "| CPU s a game |", "|---|---|---|---|---|---|---|---|"]
    by_table: dict[tuple[str, int], list[dict]] = defaultdict(list)
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
        lines += _bootstrap_table(f"{sides}, {players} players", records)
    return "\n".join(lines) + "\n"


def _bootstrap_table(sides: str, records: list[dict]) -> list[str]:
    """The ratings again, anchored at ``ANCHOR``, with bootstrap intervals over games and
    each bot's CPU seconds a seat-game."""
    boot = bootstrap_ratings(records)
    games: dict[str, int] = defaultdict(int)
    for r in records:
        for name in set(r["bots"]):
            games[name] += 1
    lines = ["", f"### The same, sides {sides}: {ANCHOR} = 0, 95% bootstrap intervals over "
             f"{BOOTSTRAP} resamples of whole games", "",
             "| bot | rating | bootstrap 95% | games | CPU s a seat-game |",
             "|---|---|---|---|---|"]
    for name, (r, lo, hi, t) in sorted(boot.items(), key=lambda kv: -kv[1][0]):
        cost = "" if t != t else f"{t:.2f}"
        # every resample the same (one bot won every game): the pseudo-wins alone set it
        spread = "(the anchor)" if name == ANCHOR else f"{lo:+.0f} to {hi:+.0f}" \
            if hi - lo > 0.5 else "none (a clean sweep)"
        lines.append(f"| {name} | {r:+.0f} | {spread} | {games[name]} | {cost} |")
    return lines


@dataclass(frozen=True)
class BotSummary:
    """One bot's results over a matchup's rows (summed over all the seats it played)."""

    name: str
    seats: int  # bot-seat-games
    wins: float  # shared wins count as fractions
    rows: pl.DataFrame  # its rows (one per game it played)

    def win_rate(self) -> tuple[float, float, float]:
        """(win rate, Wilson 95% low, high)."""
        lo, hi = wilson_interval(self.wins, self.seats)
        return self.wins / max(self.seats, 1), lo, hi

    def mean(self, *sources: str) -> tuple[float, float]:
        """(mean, half-width of its 95% t interval) of total points, or of the points from
        ``sources`` added up game by game."""
        cols = [f"pts_{s}" for s in sources] or ["score"]
        values = self.rows.select(cols).sum_horizontal().to_numpy()
        m, lo, hi = mean_interval(values)
        return m, (hi - lo) / 2 if len(values) > 1 else float("nan")


def bot_summaries(rows: pl.DataFrame) -> dict[str, BotSummary]:
    """Per bot of the rows (``sim.headtohead.matchup``), in order of first appearance."""
    out = {}
    for name in dict.fromkeys(rows["bot"].to_list()):
        mine = rows.filter(rows["bot"] == name)
        out[name] = BotSummary(name, mine.height, float(mine["win_share"].sum()), mine)
    return out

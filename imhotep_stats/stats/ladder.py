"""The skill ladder's statistics: each bot's win rate (Wilson 95%) and mean points from
head-to-head games, and Bradley-Terry ratings (``stats.rating``, Elo scale, 95% cluster
sandwich intervals over games) from every pair of seats of every game, one table per side
set and player count (files with different player counts are not pooled into one fit).
The games are played by ``imhotep-stats ladder play`` (``sim.headtohead``);
``imhotep-stats ladder report FILES`` prints this module's Markdown.

The ratings add ``--prior`` pseudo-wins (default ``DEFAULT_PRIOR``) both ways to every
pair that met, so that a bot that never won or never lost still gets a finite rating; the
table's heading says how many. A bot rated from the prior alone (random, which never
wins) moves the others' ratings less, the smaller the prior; ``--prior 0`` fits the data
alone and says so when that is impossible.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from imhotep_stats.sim.headtohead import read_records as read
from imhotep_stats.stats.intervals import mean_interval, wilson_interval
from imhotep_stats.stats.rating import Pairwise, bradley_terry, pairwise_from_ranks

if TYPE_CHECKING:
    import polars as pl

DEFAULT_PRIOR = 0.5  # pseudo-wins per pair and direction (see the module docstring)

__all__ = ["DEFAULT_PRIOR", "BotSummary", "bot_summaries", "head_to_head", "ratings", "read",
           "report"]


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
        lo, hi = wilson_interval(wins[name], seats[name])
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

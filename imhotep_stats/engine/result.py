"""A finished game's outcome: scores by source, ranks, win shares, game shape."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from imhotep_stats.rules.sources import SOURCES

if TYPE_CHECKING:
    from imhotep_stats.engine.game import Game


@dataclass
class GameResult:
    players: int
    totals: list[int]
    by_source: list[dict[str, int]]  # per seat, every source in SOURCES (0 when none)
    by_round: list[list[int]]  # per seat: points in rounds 1..rounds, then game end
    sled: list[int]
    winners: list[int]
    ranks: list[int]  # 1 = winner; tied players share the better rank
    win_share: list[float]
    decisions: int
    lead_changes: int
    margin: int
    took: list[dict[str, int]] | None = None  # per seat: market cards taken, by name

    def to_json(self) -> dict:
        return {
            "players": self.players,
            "seats": [
                {
                    "seat": p,
                    "total": self.totals[p],
                    "by_source": {k: v for k, v in self.by_source[p].items() if v},
                    "sled": self.sled[p],
                    "rank": self.ranks[p],
                    "win_share": self.win_share[p],
                }
                for p in range(self.players)
            ],
            "winners": self.winners,
        }


def best_seats(points: list, sled: list) -> list[int]:
    """The seats with the most points, then the most stones on the sled: the winners when
    ``points`` are the totals (docs/rules.md §2.5). Points may be estimates (floats)."""
    best = points[0]
    most = sled[0]
    for p in range(1, len(points)):
        x = points[p]
        if x > best or (x == best and sled[p] > most):
            best = x
            most = sled[p]
    return [p for p in range(len(points)) if points[p] == best and sled[p] == most]


def win_shares(winners: list[int], n: int) -> list[float]:
    """Each seat's share of the win: 1/k for each of k tied winners, 0 for the others."""
    share = 1.0 / len(winners)
    out = [0.0] * n
    for p in winners:
        out[p] = share
    return out


# Each source's place in a seat's row of points (tally): one dict lookup an event.
SOURCE_INDEX = {source: i for i, source in enumerate(SOURCES)}
SEATS = 4
ZERO_BY_SOURCE = dict.fromkeys(SOURCES, 0)  # never changed: copied


def tally(events: list, n: int, rounds: int) -> tuple[list, list, int]:
    """Per seat the points by source and by round (game end last), and how often the sole
    leader on the score track changed, from the score events in order."""
    if n < 1 or n > SEATS:
        raise ValueError(f"tally: 1 to {SEATS} seats, got {n}")
    width = len(SOURCES)
    points = [0] * (n * width)  # seat p's points of SOURCES[i] at p * width + i
    by_round = [[0] * (rounds + 1) for _ in range(n)]
    running = [0] * n  # each seat's points so far
    leader = -1  # the last sole leader on the score track
    changes = 0
    best = 0
    for event in events:
        seat, source, pts, rnd = event
        if seat < 0 or seat >= n:
            raise ValueError(f"score event {event!r}: no seat {seat} in a {n}-player game")
        k = seat * width + SOURCE_INDEX[source]
        points[k] += pts
        row = by_round[seat]
        row[rnd - 1] += pts  # game-end events carry round = rounds + 1: the last
        r = running[seat] = running[seat] + pts
        if pts > 0:
            if r > best:  # strictly ahead of everyone: the sole leader
                best = r
                if seat != leader:
                    changes += leader != -1
                    leader = seat
        else:  # a penalty can hand the lead to someone else: the sole best, if any
            best = running[0]
            top = 0
            ties = 1
            for q in range(1, n):
                if running[q] > best:
                    best = running[q]
                    top = q
                    ties = 1
                elif running[q] == best:
                    ties += 1
            if ties == 1 and top != leader:
                changes += leader != -1
                leader = top
    by_source = []
    sources = SOURCES
    for p in range(n):
        d = ZERO_BY_SOURCE.copy()  # every source, in SOURCES' order: 0 but those that scored
        for i in range(width):
            if points[p * width + i]:
                d[sources[i]] = points[p * width + i]
        by_source.append(d)
    return by_source, by_round, changes


def result_of(g: Game) -> GameResult:
    if not g.over:
        raise ValueError("the game is not over")
    n = g.n
    by_source, by_round, changes = tally(g.events, n, g.rounds)
    totals = list(g.totals)
    sled = list(g.sled)
    # rank: 1 + the seats ahead on (total, sled), the winners' key (docs/rules.md §2.5)
    ranks = []
    for p in range(n):
        total, on_sled = totals[p], sled[p]
        rank = 1
        for q in range(n):
            if totals[q] > total or (totals[q] == total and sled[q] > on_sled):
                rank += 1
        ranks.append(rank)
    winners = [p for p in range(n) if ranks[p] == 1]
    w = winners[0]
    return GameResult(
        players=n,
        totals=totals,
        by_source=by_source,
        by_round=by_round,
        sled=sled,
        winners=winners,
        ranks=ranks,
        win_share=win_shares(winners, n),
        decisions=g.decisions,
        lead_changes=changes,
        margin=max(totals) - max(totals[:w] + totals[w + 1:]),  # over the best of the others
        took=[dict(t) for t in g.took],
    )

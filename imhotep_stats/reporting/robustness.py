"""Robustness across lineups: the same sides and player count played by several lineups.

Which seat looks disadvantaged can depend on the bots rather than the board. For every
(sides, players) group of a report with more than one lineup, this module sets each
lineup's seat verdict side by side, strongest lineup first (the ratings of the group's own
table, ``bots.ratings.basis``: the trust line's),
with the first player's advantage (seat 1's win rate minus its fair share, Wilson
interval), and says whether the seat effects differ between lineups.

That is a test, not a comparison of verdict labels: two lineups with the same seat 4 at
-4 pp often get different labels ("unbalanced" at 4,000 games in one, "inconclusive" in
another) by chance alone, and the label comparison flagged 80% of such groups (issue 21).
``stats.lineups.lineup_test`` tests the seat x lineup table (and a trend with the lineups'
ratings); a group is ``consistent`` unless that test rejects after Holm over the groups of
the report, and only then does a flag name what differs. A group whose test finds nothing
says how large a difference it could have missed (``stats.lineups.missable``).

The words say what was tested, no more: a rejection says the *size* of a seat
effect depends on the bots (seat 4: -4 pp with greedy, pyramid and temple, -1 pp with
random), not that the effect belongs to the bots; where no lineup puts the seat on the other
side, the flag says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from imhotep_stats.bots.ratings import Basis, basis
from imhotep_stats.stats.fmt import pct, pp
from imhotep_stats.stats.intervals import wilson_interval
from imhotep_stats.stats.lineups import LineupTest, lineup_test
from imhotep_stats.stats.significance import SeatVerdict, holm


class _Cell(Protocol):  # figures.CellInfo, without importing it (figures imports this)
    id: str
    sides: str
    players: int
    lineup: tuple[str, ...]
    games: int
    verdict: SeatVerdict | None


def lineup_rating(lineup: Sequence[str], where: Basis) -> float | None:
    """Mean rating of a lineup's bots on ``where``; None if any bot is unrated there."""
    ratings = [where.rating(b) for b in lineup]
    if not lineup or any(r is None for r in ratings):
        return None
    return sum(r.value for r in ratings) / len(ratings)


def lineup_name(lineup: Sequence[str]) -> str:
    return ",".join(lineup)


def first_player(v: SeatVerdict | None) -> dict[str, float] | None:
    """Seat 1's (the start player's) win rate, its gap to the fair share and the gap's
    Wilson interval at the verdict's confidence (1 - alpha)."""
    if v is None or not v.games:
        return None
    rate = v.win_rates[0]
    low, high = wilson_interval(rate * v.games, v.games, 1.0 - v.alpha)
    return {"win_rate": rate, "gap": rate - v.expected, "gap_low": low - v.expected,
            "gap_high": high - v.expected}


@dataclass
class Group:
    """One (sides, players) played by several lineups, strongest lineup first.

    ``test`` is the seat x lineup test over the lineups with games (None if fewer than
    two have games), ``p_adjusted`` its p-value after Holm over the report's groups."""

    sides: str
    players: int
    cells: list[Any]  # figures.CellInfo, in rating order
    consistent: bool
    flags: list[str]
    test: LineupTest | None = None
    p_adjusted: float | None = None
    tested_groups: int = 1  # the Holm family: groups of the report with a test
    ratings: Basis = field(default_factory=lambda: Basis(()))  # the order's tables

    @property
    def summary(self) -> str:
        """One sentence on the test: the flag when it rejects, else "consistent"."""
        if self.test is None:
            return "fewer than two lineups with games: nothing to compare"
        if self.flags:
            return self.flags[0]
        trend = ("" if self.test.trend_p is None else
                 f"; trend with the lineups' rating {_p(self.test.trend_p)}")
        return (f"no difference detected between lineups (seat x lineup test "
                f"{_p(self.p_adjusted)}"
                f"{', Holm over the groups' if self.tested_groups > 1 else ''}{trend}); "
                f"{could_miss(self.test.missable)}")

    def to_json(self) -> dict[str, Any]:
        return {
            "sides": self.sides, "players": self.players,
            "verdicts": {lineup_name(c.lineup): (c.verdict.verdict if c.verdict else None)
                         for c in self.cells},
            "consistent": self.consistent,
            "lineups": [{"lineup": lineup_name(c.lineup), "cell": c.id,
                         "rating": lineup_rating(c.lineup, self.ratings), "games": c.games,
                         "verdict": c.verdict.verdict if c.verdict else None,
                         "text": c.verdict.text if c.verdict else None,
                         "seat": c.verdict.seat if c.verdict else None,
                         "direction": c.verdict.direction if c.verdict else None,
                         "first_player": first_player(c.verdict)}
                        for c in self.cells],
            "test": None if self.test is None else {
                **self.test.to_json(), "p_adjusted": self.p_adjusted},
            "summary": self.summary,
            "flags": self.flags,
            "ratings": {"tables": list(self.ratings.names), "words": self.ratings.words},
        }


def could_miss(missable: float | None) -> str:
    """What a test that found nothing could have missed, in words: a "no difference" is
    never said without it."""
    if missable is None or missable != missable or missable == float("inf"):
        return "too few games to detect any difference"
    return f"it could miss up to ±{missable * 100:.1f} pp in a seat's win rate between lineups"


def _p(p: float | None) -> str:
    """"p = 0.012", "p < 0.001"."""
    if p is None:
        return "p n/a"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _two_groups(gaps: list[float]) -> list[list[int]]:
    """Lineup indices split in two where the sorted gaps jump most (one group if equal)."""
    order = sorted(range(len(gaps)), key=lambda i: gaps[i])
    if len(order) < 2:
        return [order]
    jumps = [gaps[order[i + 1]] - gaps[order[i]] for i in range(len(order) - 1)]
    cut = max(range(len(jumps)), key=lambda i: jumps[i]) + 1
    return [order[:cut], order[cut:]]


def _names(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _flag(t: LineupTest, p_adj: float, names: list[str], players: int) -> str:
    """The sentence saying what the test found: the seat whose share varies most between
    lineups (largest chi-square contribution), its gap to the fair share in the lineups
    grouped where the gaps split, whether the lineups agree on its side, and the
    rating trend when it is significant too."""
    s = t.seat
    fair = 1.0 / players
    gaps = [t.rates[i][s] - fair for i in range(len(names))]
    games = t.games
    parts = []
    for grp in sorted(_two_groups(gaps), key=lambda g: min(gaps[i] for i in g)):
        gap = sum(gaps[i] * games[i] for i in grp) / sum(games[i] for i in grp)
        parts.append(f"{pp(gap, sign=True)} with {_names([names[i] for i in grp])}")
    behind, ahead = all(g <= 0 for g in gaps), all(g >= 0 for g in gaps)
    what = "deficit" if behind else "advantage" if ahead else "gap to its fair share"
    text = (f"the size of seat {s + 1}'s {what} depends on the bots (seat x lineup test "
            f"{_p(p_adj)}): {', '.join(parts)} (fair share {pct(fair)})")
    if t.trend_p is not None and t.trend_p <= t.alpha:
        per = t.slopes[t.trend_seat] * 100
        text += (f"; seat {t.trend_seat + 1}'s win rate {'rises' if per > 0 else 'falls'} "
                 f"{abs(per) * 100:.1f} pp per 100 rating points (trend test {_p(t.trend_p)})")
    if behind or ahead:
        return text + (f"; no lineup puts seat {s + 1} {'ahead' if behind else 'behind'}: "
                       "only the size differs")
    return text + "; the lineups disagree on its direction"


def groups(cells: Sequence[Any], alpha: float | None = None) -> list[Group]:
    """Every (sides, players) with more than one lineup, in the cells' order, each with
    its seat x lineup test (Holm over the groups; level ``alpha``, default the cells'
    verdict level)."""
    by: dict[tuple[str, int], list[Any]] = {}
    for c in cells:
        by.setdefault((c.sides, c.players), []).append(c)
    out = []
    for (sides, players), members in by.items():
        if len({c.lineup for c in members}) < 2:
            continue
        # Strongest first on the group's own table; lineups unrated there after, in study order.
        where = basis(players, sides)
        ordered = sorted(members, key=lambda c: (
            lineup_rating(c.lineup, where) is None, -(lineup_rating(c.lineup, where) or 0.0)))
        out.append(Group(sides, players, ordered, True, [], ratings=where))
    tested = []
    for g in out:
        live = [c for c in g.cells if c.verdict is not None and c.games > 0]
        if len(live) < 2:
            continue
        level = alpha if alpha is not None else live[0].verdict.alpha
        g.test = lineup_test(
            [[r * c.games for r in c.verdict.win_rates] for c in live],
            [c.games for c in live], [lineup_rating(c.lineup, g.ratings) for c in live], level)
        tested.append((g, live))
    for (g, live), p in zip(tested, holm([g.test.p for g, _ in tested]), strict=True):
        g.p_adjusted, g.tested_groups = p, len(tested)
        if p <= g.test.alpha:
            g.consistent = False
            g.flags = [_flag(g.test, p, [lineup_name(c.lineup) for c in live], g.players)]
    return out

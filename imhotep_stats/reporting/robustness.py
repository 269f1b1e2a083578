"""Robustness across lineups: the same sides and player count played by several lineups.

Which seat looks disadvantaged can depend on the bots rather than the board. For every
(sides, players) group of a report with more than one lineup, this module sets each
lineup's seat verdict side by side, strongest lineup first (``data/bot_ratings.toml``),
with the first player's advantage (seat 1's win rate minus its fair share, Wilson
interval), and says plainly where the lineups disagree.

Verdicts are compared by what they show: the verdict key and, for "unbalanced" or
"tilted", the seat and its direction. A group is ``consistent`` when every lineup shows the
same.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Protocol

from imhotep_stats.stats.intervals import wilson_interval
from imhotep_stats.stats.significance import SeatVerdict


class _Cell(Protocol):  # figures.CellInfo, without importing it (figures imports this)
    id: str
    sides: str
    players: int
    lineup: tuple[str, ...]
    games: int
    verdict: SeatVerdict | None


@cache
def bot_ratings() -> dict[str, float]:
    """Measured bot ratings (Elo scale, greedy 0), from data/bot_ratings.toml."""
    text = resources.files("imhotep_stats.data").joinpath("bot_ratings.toml").read_text(
        encoding="utf-8")
    return {k: float(v) for k, v in tomllib.loads(text)["ratings"].items()}


def lineup_rating(lineup: Sequence[str]) -> float | None:
    """Mean rating of a lineup's bots; None if any bot has no measured rating."""
    ratings = bot_ratings()
    if not lineup or any(b not in ratings for b in lineup):
        return None
    return sum(ratings[b] for b in lineup) / len(lineup)


def lineup_name(lineup: Sequence[str]) -> str:
    return ",".join(lineup)


def _shows(v: SeatVerdict | None) -> tuple[str, int | None, int]:
    if v is None:
        return ("no games", None, 0)
    return (v.verdict, v.seat, v.direction)


def first_player(v: SeatVerdict | None) -> dict[str, float] | None:
    """Seat 1's (the start player's) win rate, its gap to the fair share and the gap's
    Wilson interval at the verdict's confidence (1 - alpha)."""
    if v is None or not v.games:
        return None
    rate = v.win_rates[0]
    low, high = wilson_interval(rate * v.games, v.games, 1.0 - v.alpha)
    return {"win_rate": rate, "gap": rate - v.expected, "gap_low": low - v.expected,
            "gap_high": high - v.expected}


def _listed(names: list[str], last: str) -> str:
    """"a", "a and b", "a, b and c" (or "or")."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {last} {names[-1]}"


def _effect(seat: int, direction: int) -> str:
    return f"seat {seat + 1}'s {'advantage' if direction > 0 else 'deficit'}"


@dataclass
class Group:
    """One (sides, players) played by several lineups, strongest lineup first."""

    sides: str
    players: int
    cells: list[Any]  # figures.CellInfo, in rating order
    consistent: bool
    flags: list[str]

    def to_json(self) -> dict[str, Any]:
        return {
            "sides": self.sides, "players": self.players,
            "verdicts": {lineup_name(c.lineup): (c.verdict.verdict if c.verdict else None)
                         for c in self.cells},
            "consistent": self.consistent,
            "lineups": [{"lineup": lineup_name(c.lineup), "cell": c.id,
                         "rating": lineup_rating(c.lineup), "games": c.games,
                         "verdict": c.verdict.verdict if c.verdict else None,
                         "text": c.verdict.text if c.verdict else None,
                         "seat": c.verdict.seat if c.verdict else None,
                         "direction": c.verdict.direction if c.verdict else None,
                         "first_player": first_player(c.verdict)}
                        for c in self.cells],
            "flags": self.flags,
        }


def _flags(cells: list[Any]) -> list[str]:
    """Plain sentences on where the lineups disagree (none when they agree)."""
    names = {c.id: lineup_name(c.lineup) for c in cells}
    shown = {c.id: _shows(c.verdict) for c in cells}
    if len(set(shown.values())) <= 1:
        return []
    out = []
    effects = dict.fromkeys((s, d) for v, s, d in shown.values()
                            if v in ("unbalanced", "tilted") and s is not None)
    for seat, direction in effects:
        holds = [names[c.id] for c in cells if shown[c.id][1:] == (seat, direction)]
        not_ = [names[c.id] for c in cells if shown[c.id][1:] != (seat, direction)]
        out.append(f"{_effect(seat, direction)} holds for {_listed(holds, 'and')} but not for "
                   f"{_listed(not_, 'or')}: likely an effect of the bots, not the board")
    if not effects:
        out.append("the verdicts differ: " + "; ".join(
            f"{names[c.id]}: {c.verdict.text if c.verdict else 'no games'}" for c in cells))
    return out


def groups(cells: Sequence[Any]) -> list[Group]:
    """Every (sides, players) with more than one lineup, in the cells' order."""
    by: dict[tuple[str, int], list[Any]] = {}
    for c in cells:
        by.setdefault((c.sides, c.players), []).append(c)
    out = []
    for (sides, players), members in by.items():
        if len({c.lineup for c in members}) < 2:
            continue
        # Strongest first; lineups without a measured rating after, in study order.
        ordered = sorted(members, key=lambda c: (
            lineup_rating(c.lineup) is None, -(lineup_rating(c.lineup) or 0.0)))
        flags = _flags(ordered)
        out.append(Group(sides, players, ordered, not flags, flags))
    return out

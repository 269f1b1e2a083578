"""How strong each bot is: the one reader of ``data/bot_ratings.toml``.

A rating (Elo scale, greedy = 0) holds for the table it was measured at: a player count and
one side letter on every site. The file's tables are "2p-A" (``[ratings]`` with
``[intervals]``) and ``[tables."2p-C"]``, ``"2p-D"``, ``"3p-A"``, ``"3p-C"``, ``"3p-D"``
(``bot = [rating, low, high]``). A run's words rest on ``basis(players, sides)``:

- its own table when the file has one: the player count, every site on that letter;
- else the nearest player count with tables (4 players: 3 players), and there the table of
  the run's letter when every site has one, else every table of that count as a range: a
  mixed board such as D-A-C-A-A has no table, and which of them it is nearest is unknown;
- a bot missing from a table of the basis is unrated there, never borrowed from another.

Every number says which tables it comes from (``Basis.words``, ``Rating.tables``). A low of
``-inf`` marks a bound: random never beat greedy, so its rating is only "at most this".
``reference = "NAME"`` at the file's top names the reference bot; without it, the highest
rated bot of ``[ratings]`` is.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from imhotep_stats.bots.search_spec import expert_spec, spec_from_name
from imhotep_stats.bots.weights import BotSpecError

ANCHOR = "greedy"  # rated 0 on every table


@dataclass(frozen=True)
class Table:
    """One measured table: ``name`` as in the file ("3p-D"), its player count and letter;
    per bot (rating, low, high), the 95% game-level interval (None where the file gives
    none; low -inf: an upper bound only)."""

    name: str
    players: int
    letter: str
    ratings: Mapping[str, tuple[float, float | None, float | None]]


@dataclass(frozen=True)
class Rating:
    """A bot's rating on a basis: the table's, or over several tables their mean (``value``,
    to order lineups) and the range their intervals span (``low``, ``high``)."""

    value: float
    low: float | None
    high: float | None
    tables: tuple[str, ...]

    @property
    def bound(self) -> bool:
        """Only an upper bound (a bot that never won: random)."""
        return self.low == -math.inf


@dataclass(frozen=True)
class Chance:
    """How often a bot beats the reference bot head to head (the Elo curve the ratings are
    fitted on), per table of the basis: the lowest and highest. ``bound``: at most this."""

    low: float
    high: float
    bound: bool


def rated_name(bot: str) -> str:
    """The name ``bot``'s rating is filed under: a search spec with exactly the reference
    bot's settings (``mcts1900-b1-s``) plays the same games as ``expert``, so it is
    ``expert``; any other name is itself."""
    try:
        spec = spec_from_name(bot)
    except BotSpecError:
        return bot
    expert = expert_spec()
    if spec is None or {**spec, "name": ""} != {**expert, "name": ""}:
        return bot
    return expert["name"]


def _table_name(players: int, letter: str) -> str:
    return f"{players}p-{letter}"


@cache
def _file() -> dict[str, Any]:
    text = resources.files("imhotep_stats.data").joinpath("bot_ratings.toml").read_text(
        encoding="utf-8")
    return tomllib.loads(text)


@cache
def tables() -> dict[str, Table]:
    """Every table of the file, by name, "2p-A" first."""
    data = _file()
    intervals = data.get("intervals", {})
    first = {}
    for bot, r in data.get("ratings", {}).items():
        low, high = intervals.get(bot, (r, r) if bot == ANCHOR else (None, None))
        first[bot] = (float(r), low, high)
    out = {"2p-A": Table("2p-A", 2, "A", first)}
    for name, rows in data.get("tables", {}).items():
        players, letter = name.split("p-")
        rated = {ANCHOR: (0.0, 0.0, 0.0)}  # the anchor, implicit in the file's tables
        rated.update((bot, (float(r), float(lo), float(hi))) for bot, (r, lo, hi) in
                     rows.items())
        out[name] = Table(name, int(players), letter, rated)
    return out


@cache
def reference_bot() -> str | None:
    """The reference bot: the file's ``reference``, else the highest rated of [ratings]."""
    ref = _file().get("reference")
    first = tables()["2p-A"].ratings
    if isinstance(ref, str) and any(ref in t.ratings for t in tables().values()):
        return ref
    return max(first, key=lambda b: first[b][0]) if first else None


def _letters(tabs: Iterable[Table]) -> str:
    letters = list(dict.fromkeys(t.letter for t in tabs))
    return letters[0] if len(letters) == 1 else ", ".join(letters[:-1]) + " and " + letters[-1]


@dataclass(frozen=True)
class Basis:
    """The tables a run's ratings come from, and why when they are not its own (``why``:
    e.g. "no 4-player table", "no table for mixed sides"; empty when they are)."""

    tables: tuple[Table, ...]
    why: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.tables)

    @property
    def words(self) -> str:
        """Where the numbers come from, in words: "ratings of the 3-player table on D
        sides", or "ratings: the range over the 3-player tables on A, C and D sides (no
        table for mixed sides)"."""
        if not self.tables:
            return "no ratings table"
        counts = " and ".join(dict.fromkeys(f"{t.players}-player" for t in self.tables))
        why = f" ({', '.join(self.why)})" if self.why else ""
        if len(self.tables) == 1:
            return f"ratings of the {counts} table on {_letters(self.tables)} sides{why}"
        return (f"ratings: the range over the {counts} tables on {_letters(self.tables)} "
                f"sides{why}")

    def rating(self, bot: str) -> Rating | None:
        """``bot``'s rating here; None unless every table of the basis rates it."""
        bot = rated_name(bot)
        rows = [t.ratings.get(bot) for t in self.tables]
        if not rows or any(r is None for r in rows):
            return None
        lows = [r[1] for r in rows]
        highs = [r[2] for r in rows]
        return Rating(sum(r[0] for r in rows) / len(rows),
                      None if None in lows else min(lows),
                      None if None in highs else max(highs), self.names)

    def chance(self, bot: str, against: str | None = None) -> Chance | None:
        """How often ``bot`` beats ``against`` (default the reference bot) head to head,
        each table's from its own two ratings; None unless every table rates both."""
        against = against or reference_bot()
        if against is None:
            return None
        bot, against = rated_name(bot), rated_name(against)
        if self.rating(bot) is None or self.rating(against) is None:
            return None
        ps = [1.0 / (1.0 + 10.0 ** ((t.ratings[against][0] - t.ratings[bot][0]) / 400.0))
              for t in self.tables]
        bound = any(t.ratings[bot][1] == -math.inf for t in self.tables)
        return Chance(min(ps), max(ps), bound)

    def rated_elsewhere(self, bot: str) -> tuple[str, ...]:
        """The file's other tables that rate ``bot``."""
        bot = rated_name(bot)
        return tuple(n for n, t in tables().items() if bot in t.ratings and n not in self.names)


def _one(players: int, sides: str | None) -> tuple[list[Table], list[str]]:
    tabs = tables()
    counts = sorted({t.players for t in tabs.values()})
    if not counts:
        return [], []
    why = []
    near = min(counts, key=lambda c: (abs(c - players), -c))
    if near != players:
        why.append(f"no {players}-player table")
    letters = set(sides.split("-")) if sides else set()
    of_count = [t for t in tabs.values() if t.players == near]
    if len(letters) == 1:
        (letter,) = letters
        own = tabs.get(_table_name(near, letter))
        if own is not None:
            return [own], why
        why.append(f"no table for {letter} sides")
    elif sides:
        why.append("no table for mixed sides")
    return of_count, why


def basis(players: int, sides: str | None = None) -> Basis:
    """The tables a run of ``players`` on ``sides`` ("D-A-C-A-A"; None: any sides, as a
    sweep's) rests on (the module's rule)."""
    return across([(players, sides)])


def across(cells: Iterable[tuple[int, str | None]]) -> Basis:
    """The tables of several cells together (a sweep, a report): every cell's tables, and
    one range over them when they are not one table."""
    tabs: dict[str, Table] = {}
    why: dict[str, None] = {}
    for players, sides in cells:
        got, w = _one(players, sides)
        tabs.update((t.name, t) for t in got)
        why.update(dict.fromkeys(w))
    order = list(tables())
    return Basis(tuple(sorted(tabs.values(), key=lambda t: order.index(t.name))), tuple(why))

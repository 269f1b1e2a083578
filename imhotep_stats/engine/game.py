"""The game, held by the Rust core (``imhotep_stats._core.Game``), in Python: ``Game``, ``apply``, the decision (``to_move``, ``kind``, ``options``), the score
events, and the state by the engine's names (``g.sled``, ``g.hand``, ``g.sites[TEMPLE].owners``).

The core holds the game; this object reads its state through the core's export (src/state.rs)
and keeps it while the core's game is unchanged. A field written here (``g.sled[1] = 0``,
``g.sites[MARKET].display = []``, ``site.hidden()["pair"][:] = [...]``) is sent back to the
core (``_core.Game.edit``, only what changed) before the next call: the set-up of a
hand-built position (engine/scenario.py), never a move. Moves go through :func:`apply`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from imhotep_stats.engine.actions import Action, act
from imhotep_stats.engine.core import rules as core_rules
from imhotep_stats.engine.errors import IllegalAction, RulesError
from imhotep_stats.engine.kinds import CODE, NONE
from imhotep_stats.engine.setup_checks import (
    deck_names,
    is_whole,
    parse_sides,
    round_card_shapes,
)
from imhotep_stats.rules.board import SITES, Board, default_board

__all__ = ["Game", "IllegalAction", "RulesError", "apply", "legal_actions", "play_seats"]

MARKET, PYRAMID, TEMPLE, BURIAL_CHAMBER, OBELISK = range(5)


# This object's own attributes; every other attribute is a field of the core's state.
_OWN = frozenset({"board", "sides", "seed", "_core", "_rules", "_state", "_sent", "_sites",
                  "_version", "_dirty"})
# Fields the core computes or fixed at set-up: read only.
READ_ONLY = frozenset({"n", "over", "kind", "options", "events", "decisions", "expansion",
                       "prophecies", "scenario", "rounds", "stones_total", "get_stones", "took",
                       "deck_initial", "reshuffles", "chance_setup", "ship_sizes", "deck_size"})


def _flat(export: dict) -> dict:
    """The export's parts in one table per place: {"game": {...}, "sites": [{...} x 5],
    "hidden": [names x 5]}, public, hidden and flow fields together; the round cards and
    a finished Pyramid C tile as tuples."""
    game = {**export["game"], **export["hidden"]["game"], **export["flow"]["game"]}
    game["round_cards"] = [tuple(c) for c in game["round_cards"]]
    game["ship_sizes"] = tuple(game["ship_sizes"])
    sites = [{**export["sites"][i], **export["hidden"]["sites"][i], **export["flow"]["sites"][i]}
             for i in range(5)]
    prophecy = game["prophecy"]
    if prophecy is not None:  # the gods and each scarab's (god, window) as tuples
        prophecy["gods"] = tuple(prophecy["gods"])
        prophecy["placed"] = [[tuple(x) for x in seat] for seat in prophecy["placed"]]
    if "done" in sites[1]:
        sites[1]["done"] = [tuple(d) for d in sites[1]["done"]]
    return {"game": game, "sites": sites,
            "hidden": [set(export["hidden"]["sites"][i]) for i in range(5)]}


def _changes(sent: dict, now: dict) -> dict:
    """What was written in ``now`` since ``sent`` (the core's edit table)."""
    out = {k: v for k, v in now["game"].items() if sent["game"].get(k) != v}
    sites = {}
    for i in range(5):
        was, site = sent["sites"][i], now["sites"][i]
        changed = {k: v for k, v in site.items() if was.get(k) != v}
        if changed:
            sites[SITES[i]] = changed
    if sites:
        out["sites"] = sites
    return out


class Game:
    """One game, held by the core. Bots never see it: they get a :class:`~imhotep_stats.engine.view.View`."""

    def __init__(
        self,
        players: int,
        sides: str | Sequence[str] = "A-A-A-A-A",
        *,
        board: Board | None = None,
        seed: int | str = 0,
        expansion: bool | None = None,
        prophecies: bool = False,
        round_cards: Sequence[Sequence[int]] | None = None,
        deck: Sequence[str] | None = None,
        scenario: bool = False,
        chance: dict[str, list] | None = None,
        reshuffles: Sequence[Sequence[str]] | None = None,
        core_rules_: Any = None,
    ):
        from imhotep_stats import _core

        if not is_whole(players) or players not in (2, 3, 4):
            raise RulesError(f"players: expected 2, 3 or 4, got {players!r}")
        set_ = object.__setattr__
        set_(self, "board", board or default_board())
        set_(self, "sides", parse_sides(sides))
        set_(self, "seed", seed)
        set_(self, "_rules", core_rules_ or core_rules(self.sides, self.board))
        set_(self, "_core", _core.Game(
            self._rules, players, seed, expansion=expansion, prophecies=prophecies,
            chance=chance, reshuffles=[list(d) for d in reshuffles] if reshuffles else None,
            # their shapes checked here (the core checks the cards themselves)
            round_cards=[list(c) for c in round_card_shapes(round_cards)] if round_cards is not None else None,
            deck=deck_names(deck) if deck is not None else None, scenario=scenario))
        set_(self, "_state", None)
        set_(self, "_sent", None)
        set_(self, "_version", -1)
        set_(self, "_dirty", False)
        set_(self, "_sites", [Site(self, i) for i in range(5)])

    # ------------------------------------------------------------ the state by name
    def _read(self) -> dict:
        """The state now (exported again only when the core's game changed: its version)."""
        state = self._state
        core = self._core
        if state is None or self._version != core.version:
            text = core.export_json()
            state = _flat(json.loads(text))
            object.__setattr__(self, "_state", state)
            object.__setattr__(self, "_sent", _flat(json.loads(text)))  # what the core holds
            object.__setattr__(self, "_version", core.version)
        return state

    def _sync(self) -> Any:
        """Send what was written to the core; the core, to call next."""
        state = self._state
        core = self._core
        if self._dirty and state is not None and self._version == core.version:
            changes = _changes(self._sent, state)
            if changes:
                core.edit(changes)  # a new version: the next read exports again
                if core.kind == "turn":  # the turn's options from the state as written
                    core.refresh_turn()
        object.__setattr__(self, "_dirty", False)
        return core

    def _handed(self, value: Any) -> Any:
        """``value`` read from the state: a list or table handed out may be written."""
        if isinstance(value, list | dict):
            object.__setattr__(self, "_dirty", True)
        return value

    def __getattr__(self, name: str) -> Any:  # a field of the state (not found on the class)
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return self._handed(self._read()["game"][name])
        except KeyError:
            raise AttributeError(f"the game has no field {name!r}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _OWN:
            object.__setattr__(self, name, value)
            return
        if name in READ_ONLY:
            raise AttributeError(f"the game's {name!r} is read only (engine.scenario has the steps)")
        game = self._read()["game"]
        if name not in game:
            raise AttributeError(f"the game has no field {name!r}")
        game[name] = value
        object.__setattr__(self, "_dirty", True)

    @property
    def core(self) -> Any:
        """The core's game (``_core.Game``), with any field written here sent first."""
        return self._sync()

    # ------------------------------------------------------------ the decision
    @property
    def n(self) -> int:
        return self._core.players

    @property
    def over(self) -> bool:
        return self._sync().over

    @property
    def to_move(self) -> int:
        return self._sync().to_move

    @property
    def kind(self) -> str | None:
        return self._sync().kind

    @property
    def kind_code(self) -> int:
        kind = self._sync().kind
        return NONE if kind is None else CODE[kind]

    @property
    def options(self) -> list[Action]:
        return [act(kind, *args) for kind, args in self._sync().options]

    @property
    def decisions(self) -> int:
        return self._sync().decisions

    @property
    def events(self) -> list[tuple[int, str, int, int]]:
        return self._sync().events

    @property
    def round(self) -> int:
        return self._sync().round

    @property
    def reshuffles(self) -> list[list[str]]:
        """The discard pile's orders when it became the deck (transcripts' chance lines)."""
        return self._sync().reshuffles

    @property
    def sites(self) -> list[Site]:
        return self._sites

    @property
    def prophecy(self) -> Prophecy | None:
        """The prophecies' state (None without the module): ``gods``, ``left``,
        ``window_used``, ``placed`` (written back as the game's fields), and the printed
        ``fulfilled``, ``failed``, ``window_of``, ``scarab_action``."""
        return Prophecy(self) if self._read()["game"]["prophecy"] is not None else None

    def score(self, seat: int, source: str, points: int) -> None:
        """``points`` to ``seat`` from ``source`` ("temple", "card_statue"...)."""
        if points and not 0 <= seat < self.n:
            raise IndexError(f"score: no seat {seat} in a {self.n}-player game ({source})")
        self._sync().score(seat, source, points)

    def put_on_ship(self, p: int, s: int, k: int) -> None:
        """A stone of ``p`` onto the empty slot ``k`` of ship ``s`` (its origin already
        debited)."""
        self._sync().put_on_ship(p, s, k)

    def winners(self) -> list[int]:
        return self._sync().winners()

    def ship_stones_of(self, p: int) -> int:
        """Stones of ``p`` still on a ship."""
        return sum(slots.count(p) for slots in self._read()["game"]["ship_slots"])

    def copy(self) -> Game:
        """An independent copy (the core's state is one value)."""
        new = object.__new__(Game)
        for name in ("board", "sides", "seed", "_rules"):
            object.__setattr__(new, name, getattr(self, name))
        object.__setattr__(new, "_core", self._sync().copy())
        object.__setattr__(new, "_state", None)
        object.__setattr__(new, "_sent", None)
        object.__setattr__(new, "_version", -1)
        object.__setattr__(new, "_dirty", False)
        object.__setattr__(new, "_sites", [Site(new, i) for i in range(5)])
        return new

    def __repr__(self) -> str:
        return f"<Game {self.n}p {'-'.join(self.sides)} round {self.round} ({self.kind})>"


class Site:
    """Site ``index`` of a game: its fields by the engine's names (``owners``, ``display``...),
    its hidden parts through :meth:`hidden`, its stones; written fields go back to the core
    as the game's do."""

    __slots__ = ("_g", "index")

    def __init__(self, g: Game, index: int):
        object.__setattr__(self, "_g", g)
        object.__setattr__(self, "index", index)

    def _fields(self) -> dict:
        return self._g._read()["sites"][self.index]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        state = self._g._read()
        if name in state["hidden"][self.index]:  # only through hidden()
            raise AttributeError(f"{SITES[self.index]}.{name} is hidden: read it with hidden()")
        try:
            return self._g._handed(state["sites"][self.index][name])
        except KeyError:
            raise AttributeError(f"{SITES[self.index]} {self.side} has no field {name!r}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        fields = self._fields()
        if name not in fields or name in self._g._read()["hidden"][self.index]:
            raise AttributeError(f"{SITES[self.index]} has no field {name!r} to set")
        fields[name] = value
        object.__setattr__(self._g, "_dirty", True)

    @property
    def data(self) -> Any:
        """The side's board data."""
        return self._g.board.side(SITES[self.index], self.side)

    def hidden(self) -> dict[str, list]:
        """The hidden parts by name (Market B's ``pair``, Market D's ``stacks``, Pyramid C's
        ``stack`` and ``removed``, the Tomb's ``tokens``): live lists, written back as fields."""
        state = self._g._read()
        fields = state["sites"][self.index]
        object.__setattr__(self._g, "_dirty", True)
        return {name: fields[name] for name in sorted(state["hidden"][self.index])}

    def stones(self) -> int:
        return self._fields()["stones"]

    def stones_of(self, p: int) -> int:
        return self._fields()["stones_of"][p]

    def cells(self) -> dict[tuple[int, int], int]:
        """Burial Chamber A, B and D: (row, column) -> owner."""
        f = self._fields()
        if "grid" in f:  # D: token t's space is t - 1, laid row by row
            columns = self.data["columns"]
            return {(i // columns, i % columns): o for i, o in enumerate(f["grid"]) if o >= 0}
        rows = self.data["rows"]
        return {(i % rows, i // rows): o for i, o in enumerate(f["owners"])}

    # the site's rules run on a hand-built position (engine/scenario.py's steps)
    def deliver(self, g: Game, owner: int) -> None:
        """A stone of ``owner`` arrives here, as from a ship; on to the next decision."""
        g.core.deliver(self.index, owner)

    def round_start(self, g: Game) -> None:
        g.core.round_start(self.index)

    def round_end(self, g: Game) -> None:
        g.core.round_end(self.index)

    def game_end(self, g: Game) -> None:
        g.core.game_end(self.index)

    def __repr__(self) -> str:
        return f"<{SITES[self.index]} {self.side}>"


class Prophecy:
    """The prophecies' state of a game (docs/rules.md §9), by the engine's names."""

    __slots__ = ("_g",)

    def __init__(self, g: Game):
        object.__setattr__(self, "_g", g)

    def _table(self) -> dict:
        return self._g.board.tables["prophecies"]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        state = self._g._read()["game"]["prophecy"]
        if name in state:
            return self._g._handed(state[name])
        if name in ("fulfilled", "failed"):
            return tuple(self._table()[name])
        if name == "window_of":
            return {r: w for w, rounds in enumerate(self._table()["windows"]) for r in rounds}
        if name == "scarab_action":
            return {god: act("scarab", god) for god in state["gods"]}
        raise AttributeError(f"the prophecies have no field {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        state = self._g._read()["game"]["prophecy"]
        if name == "scarab_action":  # follows the gods: a table that agrees changes nothing
            if dict(value) != {god: act("scarab", god) for god in state["gods"]}:
                raise ValueError(f"prophecy.scarab_action {value!r} is not the gods' scarabs")
            return
        if name not in state:
            raise AttributeError(f"the prophecies have no field {name!r} to set")
        state[name] = value
        object.__setattr__(self._g, "_dirty", True)

    def outcome(self, g: Game | None = None) -> list[list[tuple[str, int, bool, int]]]:
        """Per seat, each scarab's (god, window, fulfilled, points) as the game stands."""
        return [[tuple(x) for x in seat] for seat in self._g.core.prophecy_outcome()]


def legal_actions(g: Game) -> list[Action]:
    return g.options


def apply(g: Game, a: Action) -> None:
    """Perform ``a`` for ``g.to_move`` and run the game on to the next decision."""
    g._sync().apply(a.kind, *a.args)


def play_seats(g: Game, seats: list, on_decision: Callable[[Game, Action], None] | None) -> None:
    """Play ``g`` to the end (``engine.play.play_game``): ``seats[p]`` is seat p's (its
    bot's ``choose``, its view, its random stream); a bot gets the legal actions as a tuple,
    ``on_decision(g, action)`` before each apply."""
    core = g.core
    while not core.over:
        choose, view, rng = seats[core.to_move]
        a = choose(view, tuple(g.options), rng)
        if on_decision is not None:
            on_decision(g, a)
        apply(g, a)

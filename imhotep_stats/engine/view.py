"""What a bot may see, from the core: the table, the hands (face up in the game too), the
score track; never the deck's order, the round cards to come or a face-down card or tile
(docs/engine.md, "The read model"). The core makes a seat's read model (src/state.rs
``seen``: the public fields only); this module hands it out read-only: every list as a
tuple, every table as a read-only mapping, read again after each move.

A :class:`View` keeps its game under a private name, as every window does; a bot reads
only the names below (``PUBLIC``) and the sites' windows (``view.site(i)``)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from imhotep_stats.engine.actions import act
from imhotep_stats.engine.kinds import CODE, NONE
from imhotep_stats.rules.board import SITES


def frozen(v: Any) -> Any:
    """``v`` as a player may hold it: lists as tuples, tables as read-only mappings."""
    if isinstance(v, list):
        return tuple([frozen(x) for x in v])
    if isinstance(v, dict):
        return MappingProxyType({k: frozen(x) for k, x in v.items()})
    return v


# The game's public attributes a view shows (``view.sled``, ``view.get("sled")``).
PUBLIC = frozenset({
    "n", "sides", "expansion", "prophecies", "rounds", "round", "current", "start_player",
    "to_move", "kind", "kind_code", "sled", "quarry", "sled_cap", "ship_sizes", "ship_slots",
    "ship_min", "ship_load", "ship_dock", "dock_used", "sailed", "totals", "red_kept",
    "cards_taken", "discard", "board", "events", "passes", "get_stones", "prophecy", "options",
})
# The lists ``View.lists`` hands out, and what ``View.counters`` gives in one call.
LISTS = ("discard", "sled", "quarry", "sled_cap", "ship_min", "ship_load", "ship_dock",
         "dock_used", "totals", "red_kept", "cards_taken")
COUNTERS = ("sled", "quarry", "sled_cap", "ship_dock", "dock_used", "cards_taken", "discard",
            "ship_slots", "round", "sailed")


class _Frozen(dict):
    """A table of the core's read model whose values are made read-only when first read
    (a bot reads a few of them a decision)."""

    __slots__ = ("_raw",)

    def __init__(self, raw: dict):
        super().__init__()
        self._raw = raw

    def __missing__(self, name: str) -> Any:
        value = self[name] = frozen(self._raw[name])
        return value

    def __contains__(self, name: object) -> bool:
        return name in self._raw

    def names(self) -> list[str]:
        return list(self._raw)


class _Seen:
    """A seat's read model of a game now: made by the core once per state (``version``)."""

    __slots__ = ("version", "game", "sites")

    def __init__(self, version: int, seen: dict):
        self.version = version
        self.game = _Frozen(seen["game"])
        self.sites = [_Frozen(s) for s in seen["sites"]]


class View:
    """A read-only window on a game for seat ``me``. One per seat per game, cheap to keep."""

    __slots__ = ("_g", "me", "_seen", "_windows", "_prophecy")

    def __init__(self, g: Any, me: int):
        object.__setattr__(self, "_g", g)
        object.__setattr__(self, "me", me)
        object.__setattr__(self, "_seen", None)
        object.__setattr__(self, "_windows", [SiteWindow(self, i) for i in range(5)])
        object.__setattr__(self, "_prophecy", None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{name!r} of a view is read-only")

    def _now(self) -> _Seen:
        core = self._g.core
        seen = self._seen
        if seen is None or seen.version != core.version:
            seen = _Seen(core.version, core.seen(self.me))
            object.__setattr__(self, "_seen", seen)
        return seen

    def __getattr__(self, name: str) -> Any:  # the public fields of the game
        if name in _FIELDS:
            return self._now().game[name]
        raise AttributeError(f"{name!r} is not visible to a player")

    def get(self, name: str) -> Any:
        """A public attribute by name (``view.get("sled")`` is ``view.sled``)."""
        if name in PUBLIC:
            return getattr(self, name)
        raise AttributeError(f"{name!r} is not visible to a player")

    def lists(self, names: tuple[str, ...]) -> tuple:
        """Several of the game's lists at once: ``view.lists(("sled", "quarry"))``."""
        if type(names) is not tuple or len(names) < 2:
            raise TypeError(f"view.lists: expected a tuple of two or more names, got {names!r}")
        for name in names:
            if name not in LISTS:
                raise AttributeError(f"{name!r} is not a list a view shows (view.lists: {LISTS})")
        game = self._now().game
        return tuple([game[name] for name in names])

    def counters(self) -> tuple:
        """What moves at every decision, in one call: (sled, quarry, sled_cap, ship_dock,
        dock_used, cards_taken, discard, ship_slots, round, sailed)."""
        game = self._now().game
        return tuple([game[name] for name in COUNTERS])

    def site(self, i: int) -> SiteWindow:
        """What this seat sees of site i (0 market .. 4 obelisk): its window, the same
        object at every call."""
        return self._windows[i]

    # ------------------------------------------------------------ set-up and decision
    @property
    def sides(self) -> tuple[str, ...]:
        return self._g.sides

    @property
    def board(self) -> Any:
        return self._g.board  # immutable

    @property
    def kind_code(self) -> int:
        kind = self._now().game["kind"]
        return NONE if kind is None else CODE[kind]

    @property
    def options(self) -> tuple:
        """The legal actions when this seat is to move (else none)."""
        return tuple([act(*_split(text)) for text in self._now().game["options"]])

    legal = options

    @property
    def hand(self) -> dict[str, int]:
        """My held cards (a new dict: mine to change)."""
        return dict(self._now().game["hand"][self.me])

    def hand_of(self, p: int) -> dict[str, int]:
        return dict(self._now().game["hand"][p])

    @property
    def discard_size(self) -> int:
        return len(self._now().game["discard"])

    @property
    def events(self) -> tuple[tuple[int, str, int, int], ...]:
        """The score track: every point scored so far, as (seat, source, points, round)."""
        return self._now().game["events"]

    @property
    def prophecy(self) -> ProphecyWindow | None:
        """The prophecies' state (all public) as its window, None without the module."""
        if self._now().game["prophecy"] is None:
            return None
        if self._prophecy is None:
            object.__setattr__(self, "_prophecy", ProphecyWindow(self))
        return self._prophecy


def _split(text: str) -> tuple:
    """An action's transcript text as ``act``'s arguments (ints as ints)."""
    words = text.split(" ")
    return (words[0], *[int(w) if w.lstrip("-").isdigit() else w for w in words[1:]])


# every public field of the game but those with a property above
_FIELDS = frozenset(PUBLIC - {"sides", "board", "kind_code", "options", "prophecy", "events"}
                    | {"deck_size", "hand"})


def _mound_spaces(levels) -> tuple:
    """Burial Chamber C's spaces as (level, index), level by level (the mound's space ids)."""
    return tuple((lv, i) for lv, size in enumerate(levels) for i in range(size))


# What a window shows of its side's printed board data, by the engine's names: (site, side)
# -> name -> value from (board data, players). The state is the core's (``fields``).
PRINTED: dict[tuple[int, str], dict[str, Any]] = {
    (0, "A"): {"size": lambda d, n: d["display"]},
    (0, "B"): {"size": lambda d, n: d["display"], "pair_size": lambda d, n: d["hidden_pair"]},
    (0, "C"): {"size": lambda d, n: d["display"]},
    (0, "D"): {"size": lambda d, n: d["display"], "stack_size": lambda d, n: d["stack_size"]},
    (1, "A"): {"points": lambda d, n: d["points"], "overflow": lambda d, n: d["overflow_points"]},
    (1, "B"): {"overflow": lambda d, n: d["overflow_points"]},
    (1, "C"): {"overflow": lambda d, n: d["overflow_points"],
               "majority_points": lambda d, n: d["majority_points"],
               "tie_points": lambda d, n: d["majority_tie_points"]},
    (1, "D"): {"overflow": lambda d, n: d["overflow_points"], "points": lambda d, n: d["points"],
               "size": lambda d, n: len(d["points"])},
    (2, "A"): {"visible_points": lambda d, n: d["visible_points"]},
    (2, "B"): {"visible_points": lambda d, n: 0},
    (2, "C"): {"visible_points": lambda d, n: d["visible_points"]},
    (2, "D"): {"arrowheads": lambda d, n: d["arrowheads"], "track_points": lambda d, n: d["track_points"],
               "round_points": lambda d, n: d["round_points_2p"] if n == 2 else d["round_points"],
               "overflow_move": lambda d, n: d["overflow_move"], "finish_point": lambda d, n: d["finish_point"],
               "finish": lambda d, n: len(d["track_points"]) - 1},
    (3, "A"): {"rows": lambda d, n: d["rows"]},
    (3, "B"): {"rows": lambda d, n: d["rows"], "row_points": lambda d, n: d["row_points"]},
    (3, "C"): {"levels": lambda d, n: d["levels"], "level_cap": lambda d, n: d["level_cap"],
               "overflow_points": lambda d, n: d["overflow_points"],
               "space": lambda d, n: _mound_spaces(d["levels"])},
    (3, "D"): {"rows": lambda d, n: d["rows"], "columns": lambda d, n: d["columns"],
               "per_round": lambda d, n: d["tokens_per_round"],
               "no_token_points": lambda d, n: d["no_token_points"],
               "absent_penalty": lambda d, n: d["absent_penalty"],
               "group_table": lambda d, n: d["group_points"], "group_extra": lambda d, n: d["group_extra"]},
    (4, "A"): {"table": lambda d, n: d.by_players("points_by_players", n)},
    (4, "B"): {"per": lambda d, n: d["stones_per_obelisk"], "leftover_points": lambda d, n: d["leftover_points"],
               "slot_order": lambda d, n: tuple(sorted(range(len(d["slots"])), key=lambda i: -d["slots"][i])),
               "slot_points": lambda d, n: tuple(sorted(d["slots"], reverse=True))},
    (4, "C"): {"columns": lambda d, n: d["columns"], "row_points": lambda d, n: d["row_points"],
               "bonus": lambda d, n: d.by_players("rank_bonus_by_players", n),
               "overflow_points": lambda d, n: d["overflow_points"]},
    (4, "D"): {"target": lambda d, n: tuple(h for h, _ in d["obelisks"]),
               "points": lambda d, n: tuple(p for _, p in d["obelisks"]),
               "unfinished_points": lambda d, n: d["unfinished_points"],
               "overflow_points": lambda d, n: d["overflow_points"]},
}


class SiteWindow:
    """What a seat sees of one site: its fields by the engine's names (``display``,
    ``owners``, ``heights``...), ``name``, ``side`` and the printed board ``data``, and its
    stones (``stones()``, ``stones_of(p)``); never a hidden part."""

    __slots__ = ("_v", "index")

    def __init__(self, v: View, index: int):
        object.__setattr__(self, "_v", v)
        object.__setattr__(self, "index", index)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{name!r} of {self!r} is read-only")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        fields = self._v._now().sites[self.index]
        if name in fields:
            return fields[name]
        printed = PRINTED[(self.index, fields["side"])].get(name)
        if printed is None:
            raise AttributeError(f"{SITES[self.index]} shows no {name!r}")
        return frozen(printed(self.data, self._v.n))

    @property
    def data(self) -> Any:
        """The side's board data (immutable)."""
        return self._v.board.side(SITES[self.index], self.side)

    def fields(self) -> MappingProxyType:
        """Every field this window shows now, by name: the state, then the printed data."""
        fields = self._v._now().sites[self.index]
        shown = {name: fields[name] for name in fields.names()}
        for name in PRINTED[(self.index, shown["side"])]:
            shown[name] = getattr(self, name)
        return MappingProxyType(shown)

    def stones(self) -> int:
        return self._v._now().sites[self.index]["stones"]

    def stones_of(self, p: int) -> int:
        return self._v._now().sites[self.index]["stones_of"][p]

    def cells(self) -> dict[tuple[int, int], int]:
        """Burial Chamber A, B and D: (row, column) -> owner (a new dict)."""
        fields = self._v._now().sites[self.index]
        if "grid" in fields:
            columns = self.data["columns"]
            return {(i // columns, i % columns): o for i, o in enumerate(fields["grid"]) if o >= 0}
        rows = self.data["rows"]
        return {(i % rows, i // rows): o for i, o in enumerate(fields["owners"])}

    def __repr__(self) -> str:
        return f"<what a seat sees of {SITES[self.index]}>"


class ProphecyWindow:
    """§9, the prophecies (all public): the ``gods`` in play, per player the scarabs
    ``left``, ``window_used[p][w]`` and ``placed[p]`` ((god, window) pairs); the printed
    ``fulfilled`` and ``failed`` points per window, ``window_of[round]``."""

    __slots__ = ("_v",)

    def __init__(self, v: View):
        object.__setattr__(self, "_v", v)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{name!r} of the prophecies' window is read-only")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        state = self._v._now().game["prophecy"]
        if name in state:
            return state[name]
        table = self._v.board.tables["prophecies"]
        if name in ("fulfilled", "failed"):
            return tuple(table[name])
        if name == "window_of":
            return MappingProxyType({r: w for w, rounds in enumerate(table["windows"]) for r in rounds})
        raise AttributeError(f"the prophecies show no {name!r}")


def core_game(where: Any) -> Any:
    """The core's game (``_core.Game``) behind a view or a game, for the core's own bots
    (bots/core_bot.py): they read only what the view's seat may see (src/bots/). A bot
    written in Python reads the view."""
    if isinstance(where, View):
        where = object.__getattribute__(where, "_g")
    return getattr(where, "core", where)

"""What a bot may see: the table, its own hand, the score track. Never the deck order,
never face-down cards it has not looked at (docs/engine.md, "The read model").

A :class:`View` is read-only: it hands out no list of the game's. A counter or a ship that
changes during play comes as a tuple built when read (a snapshot: read it again after a
move), each site as the window ``engine/seen.py`` makes for its side, the prophecies'
state as its window, the hands as new dicts."""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from imhotep_stats.engine import hidden
from imhotep_stats.engine.cards import hand_of
from imhotep_stats.engine.kinds import NAMES
from imhotep_stats.engine.seen import ProphecySeen, fresh, seen

try:  # Cython's constant: True in the compiled module, False in pure Python (engine/game.py)
    import cython

    COMPILED = cython.compiled
except ImportError:  # pure Python without Cython installed
    COMPILED = False


# Compiled, a cdef class (view.pxd) holding its game in a C field Python cannot reach; an
# attribute added here must be declared there.
class View:
    """A read-only window on a game for seat ``me``. One per seat per game, cheap to keep."""

    __slots__ = ("_g", "me", "_seen", "_prophecy", "_kept", "_ships")

    def __init__(self, g: Any, me: int):
        self._g = g
        self.me = me
        self._seen = None  # the sites' windows, made at the first look
        self._prophecy = None
        self._kept = [None] * 11  # the tuples last handed out, one slot per list (``_keep``)
        self._ships = None

    def _row(self, k: int) -> list:
        """The game's C row of slot ``k`` (``LISTS``: 1 sled .. 10 cards_taken) as a new plain
        list of its items (``_row_item``; the public ``g.sled`` would be a ``Row``,
        game.py); any other slot, the game's list. Compiled only, as ``_keep``."""
        if 1 <= k <= 10:
            n = self._g.n if k <= 3 or k >= 8 else (4 if k <= 6 else 5)  # seats, ships, docks
            return [self._row_item(k, i) for i in range(n)]
        return getattr(self._g, LISTS[k])  # a list field of the game

    def _row_item(self, k: int, i: int) -> int:
        """Item i of the game's C row of slot ``k`` (as ``_row``), a C load (compiled only)."""
        g = self._g
        if k == 1:
            return g._sled[i]
        if k == 2:
            return g._quarry[i]
        if k == 3:
            return g._sled_cap[i]
        if k == 4:
            return g._ship_min[i]
        if k == 5:
            return g._ship_load[i]
        if k == 6:
            return g._ship_dock[i]
        if k == 7:
            return g._dock_used[i]
        if k == 9:
            return g._red_kept[i]
        if k == 10:
            return g._cards_taken[i]
        return g._totals[i]

    def _kept_row(self, k: int, n: int) -> tuple:
        """``_keep(k, _row(k))`` (``n`` its length) without the list: the kept tuple while
        it holds the row's values, compared in C (compiled only)."""
        kept = self._kept
        old = kept[k]
        if old is not None and len(old) == n:
            i = 0
            while i < n:
                v = old[i]
                if v != self._row_item(k, i):
                    break
                i += 1
            else:
                return old
        t = self._row_tuple(k, n)
        kept[k] = t
        return t

    def _row_tuple(self, k: int, n: int) -> tuple:
        """The game's C row of slot ``k`` as a tuple of its ``n`` items, made directly
        (compiled: a tuple of known size, no list first; rows hold 2 to 5 items)."""
        if n < 2 or n > 5:
            return tuple(self._row(k))
        a = self._row_item(k, 0)
        b = self._row_item(k, 1)
        if n == 2:
            return (a, b)
        c = self._row_item(k, 2)
        if n == 3:
            return (a, b, c)
        d = self._row_item(k, 3)
        if n == 4:
            return (a, b, c, d)
        return (a, b, c, d, self._row_item(k, 4))

    def _ship_tuple(self, s: int) -> tuple:
        """Ship s's slots as a tuple (as ``_row_tuple``: 0 to 4 slots, made directly)."""
        g = self._g
        size = g._ship_size[s]
        at = 4 * s
        if size == 0:
            return ()
        a = g._slots[at]
        if size == 1:
            return (a,)
        b = g._slots[at + 1]
        if size == 2:
            return (a, b)
        c = g._slots[at + 2]
        if size == 3:
            return (a, b, c)
        return (a, b, c, g._slots[at + 3])

    def _keep(self, k: int, now: list) -> tuple:
        """The game's list ``now`` as a tuple, through slot ``k`` (engine/seen.py ``fresh``:
        the same tuple while the list holds the same items). Compiled only: pure Python's
        properties are ``_snapshot``'s (below)."""
        kept = self._kept
        t = fresh(kept[k], now)
        kept[k] = t
        return t

    def get(self, name: str) -> Any:
        """A public attribute by name (``view.get("sled")`` is ``view.sled``)."""
        if name in PUBLIC:
            return getattr(self, name)
        raise AttributeError(f"{name!r} is not visible to a player")

    def lists(self, names: tuple[str, ...]) -> tuple:
        """Several of the game's lists at once, each the tuple its property gives:
        ``view.lists(("sled", "quarry"))`` is ``(view.sled, view.quarry)`` (``names``: two
        or more of ``LISTS``). One call for a bot that reads several at every decision: in
        pure Python a property's call, not its tuple, is most of a read's cost."""
        get = _GETTERS.get(names)
        if get is None:
            get = _getter(names)
        g = self._g
        if COMPILED:  # the properties' kept tuples (``_keep``)
            return tuple([self._keep(SLOT[name], self._row(SLOT[name])) for name in names])
        return tuple(map(tuple, get(g)))  # C calls only: no frame per list

    def counters(self) -> tuple:
        """What moves at every decision, in one call (a bot reads it at each one): (sled,
        quarry, sled_cap, ship_dock, dock_used, cards_taken, discard, ship_slots, round,
        sailed), each as its property gives it. Compiled a C method: no attribute look-ups."""
        g = self._g
        if COMPILED:  # the properties' kept tuples
            n = g.n
            return (self._kept_row(1, n), self._kept_row(2, n), self._kept_row(3, n),
                    self._kept_row(6, 4), self._kept_row(7, 5), self._kept_row(10, n),
                    self._keep(0, g.discard), self._ship_slots(), g.round, g.sailed)
        return (*map(tuple, _COUNTERS(g)), _ship_tuples(self), g.round, g.sailed)

    def site(self, i: int) -> Any:
        """What this seat sees of site i (0 market .. 4 obelisk): its window (engine/seen.py),
        the same object at every call."""
        s = self._seen
        if s is None:
            s = self._seen = [seen(site) for site in self._g.sites]
        return s[i]

    def _ship_slots(self) -> tuple:
        """``ship_slots``: a new tuple only for a ship whose slots changed (compiled: read
        from the game's C row of slots, game.py)."""
        g = self._g
        old = self._ships
        if old is not None:  # the kept tuples while every ship holds the same values
            same = True
            for s in range(4):
                was = old[s]
                size = g._ship_size[s]
                if len(was) != size:
                    same = False
                    break
                k = 0
                while k < size:
                    v = was[k]
                    if v != g._slots[4 * s + k]:
                        same = False
                        break
                    k += 1
                if not same:
                    break
            if same:
                return old
        new = (self._ship_tuple(0), self._ship_tuple(1), self._ship_tuple(2), self._ship_tuple(3))
        self._ships = new
        return new

    # ------------------------------------------------------------ hands and piles
    @property
    def hand(self) -> dict[str, int]:
        """My held cards (blue, green, purple, kept). Others' hands are face up in the
        real game too, so :meth:`hand_of` gives them."""
        return hand_of(self._g, self.me)

    def hand_of(self, p: int) -> dict[str, int]:
        return hand_of(self._g, p)

    @property
    def deck_size(self) -> int:
        return len(self._g.deck)

    @property
    def discard_size(self) -> int:
        return len(self._g.discard)

    @property
    def discard(self) -> tuple[str, ...]:
        return self._keep(0, self._g.discard)

    # ------------------------------------------------------------ the game
    @property
    def n(self) -> int:
        return self._g.n

    @property
    def sides(self) -> str:
        return self._g.sides

    @property
    def expansion(self) -> bool:
        return self._g.expansion

    @property
    def prophecies(self) -> bool:
        return self._g.prophecies

    @property
    def rounds(self) -> int:
        return self._g.rounds

    @property
    def round(self) -> int:
        return self._g.round

    @property
    def current(self) -> int:
        return self._g.current

    @property
    def start_player(self) -> int:
        return self._g.start_player

    @property
    def board(self) -> Any:
        return self._g.board  # immutable

    @property
    def prophecy(self) -> ProphecySeen | None:
        """The prophecies' state (all public) as its window, None without the module."""
        p = self._prophecy
        if p is None and self._g.prophecy is not None:
            p = self._prophecy = ProphecySeen(self._g.prophecy)
        return p

    # ------------------------------------------------------------ the decision
    @property
    def to_move(self) -> int:
        return self._g.to_move

    @property
    def kind(self) -> str | None:
        return NAMES[self._g.kind_code]  # the name (engine/kinds.py)

    @property
    def kind_code(self) -> int:
        """``kind``'s code (engine/kinds.py: ``kinds.TURN``...), cheaper to compare."""
        return self._g.kind_code

    @property
    def options(self) -> tuple:
        return tuple(self._g.options)

    @property
    def legal(self) -> tuple:
        return tuple(self._g.options)

    @property
    def passes(self) -> int:
        return self._g.passes

    @property
    def get_stones(self) -> Any:
        return self._g.get_stones  # board data (immutable)

    @property
    def get_actions(self) -> tuple:
        return self._g.get_actions

    # ------------------------------------------------------------ stones and ships
    @property
    def sled(self) -> tuple[int, ...]:
        return self._kept_row(1, self._g.n)

    @property
    def quarry(self) -> tuple[int, ...]:
        return self._kept_row(2, self._g.n)

    @property
    def sled_cap(self) -> tuple[int, ...]:
        return self._kept_row(3, self._g.n)

    @property
    def ship_sizes(self) -> tuple[int, ...]:
        return tuple(self._g.ship_sizes)

    @property
    def ship_slots(self) -> tuple[tuple[int, ...], ...]:
        """Per ship its slots, bow first: -1 empty, else the stone's owner (a ship whose
        slots did not change keeps its tuple)."""
        return self._ship_slots()

    @property
    def ship_min(self) -> tuple[int, ...]:
        return self._kept_row(4, 4)

    @property
    def ship_load(self) -> tuple[int, ...]:
        return self._kept_row(5, 4)

    @property
    def ship_dock(self) -> tuple[int, ...]:
        return self._kept_row(6, 4)

    @property
    def dock_used(self) -> tuple[int, ...]:
        return self._kept_row(7, 5)

    @property
    def sailed(self) -> int:
        return self._g.sailed

    # ------------------------------------------------------------ cards and points
    @property
    def totals(self) -> tuple[int, ...]:
        return self._kept_row(8, self._g.n)

    @property
    def red_kept(self) -> tuple[int, ...]:
        return self._kept_row(9, self._g.n)

    @property
    def cards_taken(self) -> tuple[int, ...]:
        return self._kept_row(10, self._g.n)

    @property
    def events(self) -> tuple[tuple[int, str, int, int], ...]:
        """The score track: every point scored so far, as (seat, source, points, round)."""
        return tuple(self._g.events)

    def sample(self, rng) -> Any:
        """A game this seat cannot tell from the real one: a copy with everything it cannot
        see dealt anew from ``rng`` (engine/hidden.py), for search bots to play on."""
        return hidden.sample(self._g, self.me, rng)

    def sampler(self, report: bool = True) -> Any:
        """Many such games of this position (a search's, one an iteration): its
        ``sample(rng)`` is ``sample(rng)`` here, the work that does not depend on the draw
        done once; valid until the game moves (engine/hidden.py ``Sampler``). Without
        ``report`` the copies keep none of what only a report reads (engine.clone)."""
        return hidden.Sampler(self._g, self.me, report)


# The game's public attributes: each is a property above (``view.sled``) and a name for
# ``get``. Everything else of the game (the deck's order, the round cards to come, the
# sites' hidden parts, the engine's task stack) is not reachable from a view.
PUBLIC = frozenset(
    {
        "n", "sides", "expansion", "prophecies", "rounds", "round", "current", "start_player",
        "to_move", "kind", "kind_code", "sled", "quarry", "sled_cap", "ship_sizes",
        "ship_slots", "ship_min", "ship_load", "ship_dock", "dock_used", "sailed", "totals", "red_kept", "cards_taken",
        "discard", "board", "events", "passes", "get_stones", "get_actions", "prophecy",
        "options",
    }
)

# The game's lists a view hands out as tuples (``_keep``, compiled), in the order of their slots.
LISTS = ("discard", "sled", "quarry", "sled_cap", "ship_min", "ship_load", "ship_dock",
         "dock_used", "totals", "red_kept", "cards_taken")
SLOT = {name: k for k, name in enumerate(LISTS)}
# Pure Python reads the game's rows by their own names (``_sled``...: the lists themselves;
# the public ``sled`` is a property, a Python call a read).
ROWS = {"sled": "_sled", "quarry": "_quarry", "sled_cap": "_sled_cap", "ship_min": "_ship_min",
        "ship_load": "_ship_load", "ship_dock": "_ship_dock", "dock_used": "_dock_used",
        "totals": "_totals", "red_kept": "_red_kept", "cards_taken": "_cards_taken"}
# ``View.counters``'s lists (pure Python: one C call for them all)
_COUNTERS = attrgetter("_sled", "_quarry", "_sled_cap", "_ship_dock", "_dock_used",
                       "_cards_taken", "discard")
_GETTERS: dict[tuple, Any] = {}  # names -> the pure getter of ``View.lists``, checked once


def _getter(names: tuple) -> Any:
    """``View.lists``'s getter for ``names``, once they are checked to be public lists."""
    if type(names) is not tuple or len(names) < 2:
        raise TypeError(f"view.lists: expected a tuple of two or more names, got {names!r}")
    for name in names:
        if name not in SLOT:
            raise AttributeError(f"{name!r} is not a list a view shows (view.lists: {LISTS})")
    get = _GETTERS[names] = attrgetter(*[ROWS.get(name, name) for name in names])  # of the game
    return get


def _snapshot(name: str) -> Any:
    """Pure Python: the getter of the game's list ``name`` as a new tuple, in one frame (the
    compiled property's ``_keep`` would be a second call, and its compare loop costs more
    than the tuple it saves)."""
    get = attrgetter(ROWS.get(name, name))

    def snapshot(self: View) -> tuple:
        return tuple(get(self._g))

    return snapshot


def _ship_tuples(self: View) -> tuple:
    """Pure Python: the ships' slots from the game's row of slots (slot k of ship s at
    4 s + k), by slices: C calls, no frame per ship."""
    g = self._g
    slots, size = g._slots, g._ship_size
    return (tuple(slots[0:size[0]]), tuple(slots[4:4 + size[1]]), tuple(slots[8:8 + size[2]]),
            tuple(slots[12:12 + size[3]]))


if not COMPILED:
    # Pure Python: the attributes that are not lists read through ``attrgetter`` (C, no
    # Python frame), as the view did before it was a cdef class; the lists in one frame
    # each (docs/engine.md, "The read model").
    for _name in ("n", "sides", "expansion", "prophecies", "rounds", "round", "current",
                  "start_player", "board", "to_move", "kind_code", "passes", "get_stones",
                  "get_actions", "sailed"):
        setattr(View, _name, property(attrgetter(f"_g.{_name}")))
    for _name in LISTS:
        setattr(View, _name, property(_snapshot(_name), doc=getattr(View, _name).__doc__))
    View.ship_slots = property(_ship_tuples, doc=View.ship_slots.__doc__)

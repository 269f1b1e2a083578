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
            return tuple([self._keep(SLOT[name], getattr(g, name)) for name in names])
        return tuple(map(tuple, get(g)))  # C calls only: no frame per list

    def counters(self) -> tuple:
        """What moves at every decision, in one call (a bot reads it at each one): (sled,
        quarry, sled_cap, ship_dock, dock_used, cards_taken, discard, ship_slots, round,
        sailed), each as its property gives it. Compiled a C method: no attribute look-ups."""
        g = self._g
        if COMPILED:  # the properties' kept tuples
            return (self._keep(1, g.sled), self._keep(2, g.quarry), self._keep(3, g.sled_cap),
                    self._keep(6, g.ship_dock), self._keep(7, g.dock_used),
                    self._keep(10, g.cards_taken), self._keep(0, g.discard),
                    self._ship_slots(), g.round, g.sailed)
        return (*map(tuple, _COUNTERS(g)), tuple(map(tuple, g.ship_slots)), g.round, g.sailed)

    def site(self, i: int) -> Any:
        """What this seat sees of site i (0 market .. 4 obelisk): its window (engine/seen.py),
        the same object at every call."""
        s = self._seen
        if s is None:
            s = self._seen = [seen(site) for site in self._g.sites]
        return s[i]

    def _ship_slots(self) -> tuple:
        """``ship_slots``: a new tuple only for a ship whose slots changed."""
        ships = self._g.ship_slots
        old = self._ships
        n = len(ships)
        if old is None or len(old) != n:
            new = tuple([tuple(slots) for slots in ships])
        else:
            same = True
            kept = []
            for s in range(n):
                was = old[s]
                t = fresh(was, ships[s])
                if t is not was:
                    same = False
                kept.append(t)
            if same:
                return old
            new = tuple(kept)
        self._ships = new
        return new

    # ------------------------------------------------------------ hands and piles
    @property
    def hand(self) -> dict[str, int]:
        """My held cards (blue, green, purple, kept). Others' hands are face up in the
        real game too, so :meth:`hand_of` gives them."""
        return dict(self._g.hand[self.me])

    def hand_of(self, p: int) -> dict[str, int]:
        return dict(self._g.hand[p])

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
        return self._keep(1, self._g.sled)

    @property
    def quarry(self) -> tuple[int, ...]:
        return self._keep(2, self._g.quarry)

    @property
    def sled_cap(self) -> tuple[int, ...]:
        return self._keep(3, self._g.sled_cap)

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
        return self._keep(4, self._g.ship_min)

    @property
    def ship_load(self) -> tuple[int, ...]:
        return self._keep(5, self._g.ship_load)

    @property
    def ship_dock(self) -> tuple[int, ...]:
        return self._keep(6, self._g.ship_dock)

    @property
    def dock_used(self) -> tuple[int, ...]:
        return self._keep(7, self._g.dock_used)

    @property
    def sailed(self) -> int:
        return self._g.sailed

    # ------------------------------------------------------------ cards and points
    @property
    def totals(self) -> tuple[int, ...]:
        return self._keep(8, self._g.totals)

    @property
    def red_kept(self) -> tuple[int, ...]:
        return self._keep(9, self._g.red_kept)

    @property
    def cards_taken(self) -> tuple[int, ...]:
        return self._keep(10, self._g.cards_taken)

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
# ``View.counters``'s lists (pure Python: one C call for them all)
_COUNTERS = attrgetter("sled", "quarry", "sled_cap", "ship_dock", "dock_used", "cards_taken",
                       "discard")
_GETTERS: dict[tuple, Any] = {}  # names -> the pure getter of ``View.lists``, checked once


def _getter(names: tuple) -> Any:
    """``View.lists``'s getter for ``names``, once they are checked to be public lists."""
    if type(names) is not tuple or len(names) < 2:
        raise TypeError(f"view.lists: expected a tuple of two or more names, got {names!r}")
    for name in names:
        if name not in SLOT:
            raise AttributeError(f"{name!r} is not a list a view shows (view.lists: {LISTS})")
    get = _GETTERS[names] = attrgetter(*names)  # of the game
    return get


def _snapshot(name: str) -> Any:
    """Pure Python: the getter of the game's list ``name`` as a new tuple, in one frame (the
    compiled property's ``_keep`` would be a second call, and its compare loop costs more
    than the tuple it saves)."""
    get = attrgetter(name)

    def snapshot(self: View) -> tuple:
        return tuple(get(self._g))

    return snapshot


def _ship_tuples(self: View) -> tuple:
    return tuple(map(tuple, self._g.ship_slots))  # map: C calls, no frame per ship


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

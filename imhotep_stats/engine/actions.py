"""Actions: small frozen values with a readable notation.

Every action a player can take is an :class:`Action`; its ``str()`` is the transcript
notation (README "Transcript notation"). Actions are interned: ``act("place", 1, 0)``
always returns the same object, so legal-action lists cost no allocations on the hot path
and an action can be compared by identity or equality alike.
"""

from __future__ import annotations

from itertools import compress
from typing import Any

from imhotep_stats.rules.board import SITE_INDEX, SITES

_CACHE: dict[tuple, Action] = {}

# Each kind of action has a small integer code, fixed for the turn's actions (the engine
# dispatches a turn on it: engine/game.py ``_turn``), the next free one for any other kind.
PLACE_CODE, GET_CODE, PASS_CODE, SAIL_CODE, PLAY_CODE = range(5)
CODES: dict[str, int] = {"place": PLACE_CODE, "get": GET_CODE, "pass": PASS_CODE,
                         "sail": SAIL_CODE, "play": PLAY_CODE}


class Action:
    """A choice at a decision point: ``kind`` plus arguments (ints or names).

    ``code`` is the kind's small integer (``CODES``); ``n0`` and ``n1`` the first two
    arguments when they are whole numbers (a sail's dock as its site index), else -1: the
    engine reads these, compiled as C fields (actions.pxd)."""

    __slots__ = ("kind", "args", "_text", "code", "n0", "n1")

    def __init__(self, kind: str, args: tuple[Any, ...]):
        self.kind = kind
        self.args = args
        self._text = " ".join((kind, *map(str, args)))
        code = CODES.get(kind)
        if code is None:
            code = CODES[kind] = len(CODES)
        self.code = code
        nums = list(args[:2])
        if kind == "sail" and len(nums) == 2:
            nums[1] = SITE_INDEX.get(nums[1], -1)
        nums = [x if type(x) is int else -1 for x in nums] + [-1, -1]
        self.n0, self.n1 = nums[0], nums[1]

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Action({self._text!r})"

    # Equality is identity: actions are interned (see ``act``), which keeps ``in`` checks
    # on legal-action lists at C speed.

    def __reduce__(self):  # keep interning across pickling (process pools, Dask)
        return (act, (self.kind, *self.args))


def act(kind: str, *args: Any) -> Action:
    """The interned action ``kind args...``."""
    key = (kind, *args)
    a = _CACHE.get(key)
    if a is None:
        a = _CACHE[key] = Action(kind, tuple(args))
    return a


# ``take <card>`` and ``keep <card>`` by card name, which the market and the temple offer at
# many decisions: one dict look-up, where ``act`` would build and hash a tuple key each time
_TAKE: dict[str, Action] = {}
_KEEP: dict[str, Action] = {}


def take_card(name: str) -> Action:
    """``act("take", name)``."""
    return _by_name(_TAKE, "take", name)


def keep_card(name: str) -> Action:
    """``act("keep", name)``."""
    return _by_name(_KEEP, "keep", name)


def _by_name(cache: dict[str, Action], kind: str, name: str) -> Action:
    """``act(kind, name)``, kept in ``cache`` by name (compiled, in line in its callers)."""
    a = cache.get(name)
    if a is None:
        a = cache[name] = act(kind, name)
    return a


# The turn actions that take no argument.
GET = act("get")
PASS = act("pass")

# Interned actions, by index, so that legal-action generation allocates nothing new.
PLACE = [[act("place", s, k) for k in range(4)] for s in range(4)]
SAIL = [[act("sail", s, SITES[i]) for i in range(5)] for s in range(4)]
UNLOAD = [act("unload", k) for k in range(4)]


def _sail_table() -> list[tuple[Action, ...]]:
    """``table[32 ready + free]``: the sail actions for the ships in bitmask ``ready`` to
    the docks in bitmask ``free``, ship by ship, each to its docks in order (flat: one C
    index compiled)."""
    bits = [[mask >> i & 1 for i in range(5)] for mask in range(32)]
    rows = [[tuple(compress(SAIL[s], bits[free])) for free in range(32)] for s in range(4)]
    table = []
    for ready in range(16):
        ships = [rows[s] for s in range(4) if ready >> s & 1]
        table.extend([sum((row[free] for row in ships), ()) for free in range(32)])
    return table


# Every sail option list, built once: a turn looks its list up instead of building it.
_SAILS = _sail_table()


def sail_options(ready: int, free: int) -> tuple[Action, ...]:
    """The sail actions of the ships in bitmask ``ready`` to the docks in bitmask ``free``."""
    return _SAILS[ready << 5 | free]


# The open slots are a bitmask (``Game.open_mask``, bit 4 s + k: slot k of ship s is empty
# and the ship has not sailed). One ship's place actions by its 4 bits, bow first:
# _PLACES[16 s + bits].
_PLACES: list[tuple[Action, ...]] = [
    tuple([PLACE[s][k] for k in range(4) if bits >> k & 1]) for s in range(4) for bits in range(16)
]


SHIP_PLACES = _PLACES  # the same list, by a public name (game.py's C global: _turn_options)


def open_places(mask: int) -> list[Action]:
    """The place actions of the open slots in ``mask``, ship by ship, bow first."""
    places: list[Action] = []
    for s in range(4):
        places.extend(_PLACES[16 * s + (mask >> 4 * s & 15)])
    return places


def place_at(mask: int, i: int) -> Action:
    """``open_places(mask)[i]``, without the list."""
    for s in range(4):
        row = _PLACES[16 * s + (mask >> 4 * s & 15)]
        if i < len(row):
            return row[i]
        i -= len(row)
    raise IndexError(f"place {i} of open slots {mask:#x}")

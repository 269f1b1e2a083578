# cython: boundscheck=False, wraparound=False
"""What a seat sees of a site: the read model of each side (docs/engine.md, "The read model").

``seen(site)`` is a read-only window on one site, of the class made for its side
(``SEEN``). It shows what lies on the table and what the side prints, under the engine's
names (``display``, ``owners``, ``heights``...), and the site's public counts
(``stones()``, ``stones_of(p)``); never a ``_hidden...`` part. It hands out no list of the
site's: a list that changes during play comes as a tuple built when read (a snapshot: read
it again after a move), one fixed at setup as a tuple made once, a table as a read-only
mapping. Compiled, each class is a cdef class (seen.pxd) holding its site in a C field that
Python cannot reach, and the site's hidden lists are C fields that only its own module
reads (engine/sites/*.pxd); in pure Python the window keeps its site under a private name,
which no bot may read (tests/test_engine_privacy.py). A site's C rows (engine/rows.py) are
read directly (``SiteSeen._keep_row``). The module is long because it holds one window
class for each of the twenty sides, each property a plain read: one place for the read model.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from imhotep_stats.engine.sites.burial_chamber import (
    BurialChamberA,
    BurialChamberB,
    BurialChamberC,
    BurialChamberD,
)
from imhotep_stats.engine.sites.market import MarketA, MarketB, MarketC, MarketD
from imhotep_stats.engine.sites.obelisk import ObeliskA, ObeliskB, ObeliskC, ObeliskD
from imhotep_stats.engine.sites.pyramid import HEIGHT, TILE, PyramidA, PyramidB, PyramidC, PyramidD
from imhotep_stats.engine.sites.temple import TempleA, TempleB, TempleC, TempleD

try:  # Cython's constant: True in the compiled module, False in pure Python (as engine/game.py)
    import cython

    COMPILED = cython.compiled
except ImportError:  # pure Python without Cython installed
    COMPILED = False


def frozen(v: Any) -> Any:
    """``v`` as a player may hold it: a list as a tuple (a list of lists as a tuple of
    tuples), a dict as a read-only mapping; anything else (numbers, names, tuples, side
    data) as it is."""
    t = type(v)
    if t is list:
        if v and type(v[0]) is list:
            return tuples(v)
        return tuple(v)
    if t is dict:
        return MappingProxyType(v)
    return v


def tuples(v: list) -> tuple:
    """A list of lists as a tuple of tuples."""
    return tuple([tuple(x) for x in v])


def fresh(old: tuple | None, now: list) -> tuple:
    """``now`` as a tuple: ``old`` itself while it holds the very same items, else a new
    one. A window keeps the tuple it last handed out for each list it shows (``_keep``): a
    bot reads the same lists many times between moves, and a new tuple each time cost the
    greedy bot 5% more instructions (docs/engine.md, "The read model"). Never stale: it
    compares with the live list at every read (a C loop: the module is compiled without
    bounds checks, its first line; it indexes nothing from the end). Pure Python builds the
    tuple (its loop would cost more than that)."""
    if COMPILED and old is not None:
        n = len(now)
        if len(old) == n:
            i = 0
            while i < n:
                if old[i] is not now[i]:
                    return tuple(now)
                i += 1
            return old
    return tuple(now)


KEPT = 8  # slots for the tuples a window keeps (the most lists one side shows, and more)


# Compiled, cdef classes (seen.pxd): each keeps its site typed as the engine's class of the
# side, so a property reads the site's C field; an attribute added here goes there too.
class SiteSeen:
    """What every site shows: its index, name, side letter and printed data, and its stones."""

    __slots__ = ("_site", "_kept", "index", "name", "side", "data")

    def __init__(self, site: Any):
        self._site = site
        self._kept = [None] * KEPT
        self.index = site.index
        self.name = site.name
        self.side = site.side
        self.data = site.data  # the side's board data (immutable)

    def _keep(self, k: int, now: list) -> tuple:
        """The list ``now`` of the site as a tuple, through the window's slot ``k`` (each
        property its own, numbered within its class and its bases): see ``fresh``."""
        if not COMPILED:  # a new tuple: no call of fresh, no slot (cheaper in pure Python)
            return tuple(now)
        kept = self._kept
        t = fresh(kept[k], now)
        kept[k] = t
        return t

    def _keep_row(self, k: int, row, n: int) -> tuple:
        """The first ``n`` items of a site's C row (engine/rows.py) as a tuple, through the
        window's slot ``k``: the tuple kept there while it holds the same values, else a
        new one (``fresh`` for a row: compiled, C loads compared, no list made)."""
        kept = self._kept
        old = kept[k]
        if old is not None and len(old) == n:
            i = 0
            while i < n:
                x = old[i]
                if x != row[i]:
                    break
                i += 1
            else:
                return old
        t = tuple([row[i] for i in range(n)])
        kept[k] = t
        return t

    def stones(self) -> int:
        """Stones of all colours here (overflow included)."""
        return self._site.stones()

    def stones_of(self, p: int) -> int:
        """Stones of player ``p`` here."""
        return self._site.stones_of(p)

    def __repr__(self) -> str:
        return f"<what a seat sees of {self.name} {self.side}>"


def _row_tuple(self: SiteSeen, k: int, row: list, n: int) -> tuple:
    """Pure Python's ``SiteSeen._keep_row``: the row is a list, sliced (no slot, as
    ``_keep``); the compiled method takes a C row, which no Python code can slice."""
    return tuple(row[:n])


if not COMPILED:
    SiteSeen._keep_row = _row_tuple


# ---------------------------------------------------------------------------- Market
class MarketASeen(SiteSeen):
    """§4.1: ``display``, the face-up cards left (``size`` turned up each round)."""

    __slots__ = ("_s", "size")

    def __init__(self, site: MarketA):
        SiteSeen.__init__(self, site)
        self._s = site
        self.size = site.size

    @property
    def display(self) -> tuple[str, ...]:
        return self._keep(0, self._s.display)


class MarketBSeen(SiteSeen):
    """§4.2: ``display``; of the face-down pair only ``pair_count``, its number of cards."""

    __slots__ = ("_s", "size", "pair_size")

    def __init__(self, site: MarketB):
        SiteSeen.__init__(self, site)
        self._s = site
        self.size = site.size
        self.pair_size = site.pair_size

    @property
    def display(self) -> tuple[str, ...]:
        return self._keep(0, self._s.display)

    @property
    def pair_count(self) -> int:
        return self._s.pair_count


class MarketCSeen(SiteSeen):
    """§4.3: ``display[i]``, the card in space i (None once taken), ``left`` of them;
    ``coins[p]``."""

    __slots__ = ("_s", "size")

    def __init__(self, site: MarketC):
        SiteSeen.__init__(self, site)
        self._s = site
        self.size = site.size

    @property
    def display(self) -> tuple[str | None, ...]:
        return self._keep(0, self._s.display)

    @property
    def coins(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(1, s._coins, s.seats)

    @property
    def left(self) -> int:
        return self._s.left


class MarketDSeen(SiteSeen):
    """§4.4: ``display``; of the face-down stacks only ``stack_count[i]``, their sizes."""

    __slots__ = ("_s", "size", "stack_size")

    def __init__(self, site: MarketD):
        SiteSeen.__init__(self, site)
        self._s = site
        self.size = site.size
        self.stack_size = site.stack_size

    @property
    def display(self) -> tuple[str, ...]:
        return self._keep(0, self._s.display)

    @property
    def stack_count(self) -> tuple[int, ...]:
        return self._keep(1, self._s.stack_count)


# ---------------------------------------------------------------------------- Pyramid
class PyramidASeen(SiteSeen):
    """§5.1: ``owners`` in fill order; ``points`` by fill order, then ``overflow`` each."""

    __slots__ = ("_s", "points", "overflow")

    def __init__(self, site: PyramidA):
        SiteSeen.__init__(self, site)
        self._s = site
        self.points = frozen(site.points)
        self.overflow = site.overflow

    # the pyramids' C rows read directly (SiteSeen._keep_row)
    @property
    def owners(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(0, s._owners, s.placed)


class CountedSeen(SiteSeen):
    """Pyramids B-D: ``count[p]`` stones of each player, ``overflow_owners`` beyond the
    spaces (``overflow`` points each)."""

    __slots__ = ("_c", "overflow")

    def __init__(self, site: Any):
        SiteSeen.__init__(self, site)
        self._c = site
        self.overflow = site.overflow

    @property
    def count(self) -> tuple[int, ...]:
        c = self._c
        return self._keep_row(0, c._count, c.seats)

    @property
    def overflow_owners(self) -> tuple[int, ...]:
        c = self._c
        return self._keep_row(1, c._overflow_owners, c.overflows)


class PyramidBSeen(CountedSeen):
    """§5.2: ``pyramids[i]``, the owners on pyramid i in fill order, ``open`` the pyramids
    not full; ``spaces[i][k]`` = (points, reward kind, amount); ``index_of[action]``, the
    pyramid a ``pyramid`` choice names."""

    __slots__ = ("_s", "spaces", "choices", "index_of")

    def __init__(self, site: PyramidB):
        CountedSeen.__init__(self, site)
        self._s = site
        self.spaces = tuples(site.spaces)  # fixed at setup
        self.choices = tuple(site.choices)
        self.index_of = MappingProxyType(site.index_of)

    @property
    def pyramids(self) -> tuple[tuple[int, ...], ...]:
        s = self._s
        return tuple([tuple([s._on[i * HEIGHT + k] for k in range(s._laid[i])])
                      for i in range(s.n_pyramids)])

    @property
    def open(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(2, s._open, s.n_open)


class PyramidCSeen(CountedSeen):
    """§5.3: the face-up ``tile`` (-1 once all are used), its ``rewards`` and the owners
    ``on_tile``; ``done``, the full tiles with their owners; ``tiles_left`` face down (their
    order and the removed tile are hidden)."""

    __slots__ = ("_s", "tiles", "majority_points", "tie_points")

    def __init__(self, site: PyramidC):
        CountedSeen.__init__(self, site)
        self._s = site
        self.tiles = site.tiles
        self.majority_points = site.majority_points
        self.tie_points = site.tie_points

    @property
    def tile(self) -> int:
        return self._s.tile

    @property
    def rewards(self) -> tuple:
        return tuple(self._s.rewards)  # a tile's, from the board data

    @property
    def on_tile(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(2, s._on_tile, s.n_on)

    @property
    def done(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        s = self._s  # full tile d: its tile t, its owners from d * TILE
        return tuple([(t, tuple([s._done_owners[d * TILE + k] for k in range(len(s.tiles[t]))]))
                      for d, t in enumerate([s._done_tile[d] for d in range(s.n_done)])])

    @property
    def tiles_left(self) -> int:
        return self._s.tiles_left


class PyramidDSeen(CountedSeen):
    """§5.4: ``spaces`` round the corridor (-1 empty, else the owner), ``filled`` of
    ``size``, the ``figure``'s space; ``points`` per space."""

    __slots__ = ("_s", "points", "size")

    def __init__(self, site: PyramidD):
        CountedSeen.__init__(self, site)
        self._s = site
        self.points = site.points
        self.size = site.size

    @property
    def spaces(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(2, s._spaces, s.size)

    @property
    def filled(self) -> int:
        return self._s.filled

    @property
    def figure(self) -> int:
        return self._s.figure


# ---------------------------------------------------------------------------- Temple
class TempleLayersSeen(SiteSeen):
    """§6.1-6.3: ``owners`` in delivery order (stone i in column i % ``width``);
    ``visible_points`` per visible stone and round end (B, C: in a column without reward)."""

    __slots__ = ("_l", "width", "visible_points")

    def __init__(self, site: Any):
        SiteSeen.__init__(self, site)
        self._l = site
        self.width = site.width
        self.visible_points = site.visible_points

    # the site's C row read directly (SiteSeen._keep_row)
    @property
    def owners(self) -> tuple[int, ...]:
        s = self._l
        return self._keep_row(0, s._owners, s.filled)


class TempleRewardsSeen(TempleLayersSeen):
    """§6.2, 6.3: as A, and ``columns[c]``, the alternatives (kind, amount) column c pays;
    ``choices[c]``, the actions offered for them."""

    __slots__ = ("columns", "choices")

    def __init__(self, site: Any):
        TempleLayersSeen.__init__(self, site)
        self.columns = site.columns
        self.choices = tuples(list(site.choices))


class TempleDSeen(SiteSeen):
    """§6.4: ``chariots[p]``, each player's track space (0 the start, ``finish`` the end);
    the ``spaces`` filled with their owners and the ``overflow``; ``count[p]``; the printed
    ``arrowheads``, ``track_points``, ``round_points``, ``overflow_move``, ``finish_point``."""

    __slots__ = ("_s", "arrowheads", "track_points", "round_points", "overflow_move",
                 "finish_point", "finish")

    def __init__(self, site: TempleD):
        SiteSeen.__init__(self, site)
        self._s = site
        self.arrowheads = site.arrowheads
        self.track_points = site.track_points
        self.round_points = site.round_points
        self.overflow_move = site.overflow_move
        self.finish_point = site.finish_point
        self.finish = site.finish

    # the site's C rows read directly (SiteSeen._keep_row)
    @property
    def chariots(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(0, s._chariots, s.seats)

    @property
    def spaces(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(1, s._spaces, s.filled)

    @property
    def overflow(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(2, s._overflow, s.over)

    @property
    def count(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(3, s._count, s.seats)


# ---------------------------------------------------------------------------- Burial Chamber
class BurialRowsSeen(SiteSeen):
    """§7.1, 7.2: ``owners`` in delivery order (stone i in row i % ``rows``, column
    i // rows); ``cells()``, (row, column) -> owner."""

    __slots__ = ("_r", "rows")

    def __init__(self, site: Any):
        SiteSeen.__init__(self, site)
        self._r = site
        self.rows = site.rows

    # the site's C rows read directly (SiteSeen._keep_row)
    @property
    def owners(self) -> tuple[int, ...]:
        r = self._r
        return self._keep_row(0, r._owners, r.filled)

    def cells(self) -> dict[tuple[int, int], int]:
        return self._r.cells()  # a new dict


class BurialBSeen(BurialRowsSeen):
    """§7.2: as A, and the ``row_points`` each row pays by rank."""

    __slots__ = ("row_points",)

    def __init__(self, site: BurialChamberB):
        BurialRowsSeen.__init__(self, site)
        self.row_points = site.row_points


class BurialCSeen(SiteSeen):
    """§7.3: ``owner[s]`` of each mound space (-1 free), ``open`` the spaces a stone may
    take, ``overflow[p]`` beyond the mound, ``count[p]``; the mound's shape (``levels``,
    ``space[s]`` = (level, index), ``adj``, ``supports``, ``above``, ``act_space[action]``)
    and ``level_cap``, ``overflow_points``."""

    __slots__ = ("_s", "levels", "level_cap", "overflow_points", "space", "acts", "act_space",
                 "supports", "above", "adj")

    def __init__(self, site: BurialChamberC):
        SiteSeen.__init__(self, site)
        self._s = site
        self.levels = site.levels
        self.level_cap = site.level_cap
        self.overflow_points = site.overflow_points
        self.space = site.space
        self.acts = site.acts
        self.act_space = MappingProxyType(site.act_space)
        self.supports = site.supports
        self.above = site.above
        self.adj = site.adj

    # the site's C rows read directly (SiteSeen._keep_row)
    @property
    def owner(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(0, s._owner, s.spaces)

    @property
    def open(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(1, s._open, s.opens)

    @property
    def overflow(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(2, s._overflow, s.seats)

    @property
    def count(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(3, s._count, s.seats)


class BurialDSeen(SiteSeen):
    """§7.4: ``grid`` (token t's space is t - 1: -1 empty, else the owner), ``face_up``
    tokens (the others are hidden), ``edge[p]`` stones with no token, ``count[p]``;
    ``cells()``; the printed ``rows``, ``columns``, ``per_round``, ``group_table``,
    ``group_extra``, ``no_token_points``, ``absent_penalty``."""

    __slots__ = ("_s", "rows", "columns", "per_round", "no_token_points", "absent_penalty",
                 "group_table", "group_extra")

    def __init__(self, site: BurialChamberD):
        SiteSeen.__init__(self, site)
        self._s = site
        self.rows = site.rows
        self.columns = site.columns
        self.per_round = site.per_round
        self.no_token_points = site.no_token_points
        self.absent_penalty = site.absent_penalty
        self.group_table = site.group_table
        self.group_extra = site.group_extra

    # the site's C rows read directly (SiteSeen._keep_row)
    @property
    def grid(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(0, s._grid, s.spaces)

    @property
    def face_up(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(1, s._face_up, s.face_count)

    @property
    def edge(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(2, s._edge, s.seats)

    @property
    def count(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(3, s._count, s.seats)

    def cells(self) -> dict[tuple[int, int], int]:
        return self._s.cells()  # a new dict


# ---------------------------------------------------------------------------- Obelisk
class ObeliskASeen(SiteSeen):
    """§8.1: ``heights[p]``; the ``table`` of points by rank."""

    __slots__ = ("_s", "table")

    def __init__(self, site: ObeliskA):
        SiteSeen.__init__(self, site)
        self._s = site
        self.table = site.table

    @property
    def heights(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(0, s._heights, s.seats)


class ObeliskBSeen(SiteSeen):
    """§8.2: ``pending[p]`` stones not yet in an obelisk, ``built[p]``, ``slot_owner`` the
    slots taken (in ``slot_order``, worth ``slot_points``); ``per``, ``leftover_points``."""

    __slots__ = ("_s", "per", "leftover_points", "slot_order", "slot_points")

    def __init__(self, site: ObeliskB):
        SiteSeen.__init__(self, site)
        self._s = site
        self.per = site.per
        self.leftover_points = site.leftover_points
        self.slot_order = tuple(site.slot_order)
        self.slot_points = tuple(site.slot_points)

    @property
    def pending(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(0, s._pending, s.seats)

    @property
    def built(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(1, s._built, s.seats)

    @property
    def slot_owner(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(2, s._slot_owner, s.taken)


class ObeliskCSeen(SiteSeen):
    """§8.3: ``cards[p]``, the column heights of each player's card, ``next`` the path
    space, ``on_path[p]``, ``overflow[p]``, ``discarded[p]``; ``path``, ``columns``,
    ``row_points``, ``bonus``, ``overflow_points``."""

    __slots__ = ("_s", "columns", "row_points", "bonus", "overflow_points", "path")

    def __init__(self, site: ObeliskC):
        SiteSeen.__init__(self, site)
        self._s = site
        self.columns = site.columns
        self.row_points = site.row_points
        self.bonus = site.bonus
        self.overflow_points = site.overflow_points
        self.path = site.path

    @property
    def next(self) -> int:
        return self._s.next

    @property
    def cards(self) -> tuple[tuple[int, ...], ...]:
        return tuples(self._s.cards)

    @property
    def on_path(self) -> tuple[int, ...]:
        return self._keep(0, self._s.on_path)

    @property
    def overflow(self) -> tuple[int, ...]:
        return self._keep(1, self._s.overflow)

    @property
    def discarded(self) -> tuple[int, ...]:
        return self._keep(2, self._s.discarded)


class ObeliskDSeen(SiteSeen):
    """§8.4: per obelisk its ``target`` height, ``points``, ``owner`` (-1 free), ``height``;
    ``free`` the unclaimed ones, ``working[p]`` the one p builds (-1 none), ``placed[p]``,
    ``overflow[p]``; ``unfinished_points``, ``overflow_points``."""

    __slots__ = ("_s", "target", "points", "claim_action", "unfinished_points",
                 "overflow_points")

    def __init__(self, site: ObeliskD):
        SiteSeen.__init__(self, site)
        self._s = site
        self.target = tuple(site.target)
        self.points = tuple(site.points)
        self.claim_action = tuple(site.claim_action)
        self.unfinished_points = site.unfinished_points
        self.overflow_points = site.overflow_points

    # the site's C rows read directly (SiteSeen._keep_row)
    @property
    def owner(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(0, s._owner, s.count)

    @property
    def height(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(1, s._height, s.count)

    @property
    def free(self) -> tuple[int, ...]:
        return self._keep(2, self._s.free)

    @property
    def working(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(3, s._working, s.seats)

    @property
    def placed(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(4, s._placed, s.seats)

    @property
    def overflow(self) -> tuple[int, ...]:
        s = self._s
        return self._keep_row(5, s._overflow, s.seats)


# The read model of each side, by the engine's class.
SEEN: dict[type, type] = {
    MarketA: MarketASeen, MarketB: MarketBSeen, MarketC: MarketCSeen, MarketD: MarketDSeen,
    PyramidA: PyramidASeen, PyramidB: PyramidBSeen, PyramidC: PyramidCSeen,
    PyramidD: PyramidDSeen,
    TempleA: TempleLayersSeen, TempleB: TempleRewardsSeen, TempleC: TempleRewardsSeen,
    TempleD: TempleDSeen,
    BurialChamberA: BurialRowsSeen, BurialChamberB: BurialBSeen, BurialChamberC: BurialCSeen,
    BurialChamberD: BurialDSeen,
    ObeliskA: ObeliskASeen, ObeliskB: ObeliskBSeen, ObeliskC: ObeliskCSeen,
    ObeliskD: ObeliskDSeen,
}


def seen(site: Any) -> SiteSeen:
    """What a seat sees of ``site`` (a new window; a view keeps one per site)."""
    w = SEEN[type(site)](site)
    if not COMPILED:
        w.__class__ = READ_ONLY[type(w)]
    return w


class ProphecySeen:
    """§9, the prophecies (their state is all public): the ``gods`` in play, the
    ``fulfilled`` and ``failed`` points per window, ``window_of[round]``; per player the
    scarabs ``left``, ``window_used[p][w]`` and ``placed[p]`` ((god, window) pairs)."""

    __slots__ = ("_p", "gods", "fulfilled", "failed", "window_of", "scarab_action")

    def __init__(self, state: Any):
        self._p = state
        self.gods = state.gods
        self.fulfilled = state.fulfilled
        self.failed = state.failed
        self.window_of = MappingProxyType(state.window_of)
        self.scarab_action = MappingProxyType(state.scarab_action)
        if not COMPILED:
            self.__class__ = READ_ONLY[ProphecySeen]

    @property
    def left(self) -> tuple[int, ...]:
        return tuple(self._p.left)

    @property
    def window_used(self) -> tuple[tuple[bool, ...], ...]:
        return tuples(self._p.window_used)

    @property
    def placed(self) -> tuple[tuple[tuple[str, int], ...], ...]:
        return tuples(self._p.placed)


def read_only(window: Any, name: str, value: Any) -> None:
    """Pure Python, a made window's ``__setattr__``: its fields are read-only."""
    raise AttributeError(f"{name!r} of {window!r} is read-only")


# Pure Python: a window, once made, becomes its class's read-only twin (the same slots, a
# __setattr__ that refuses), as compiled its fields are readonly C fields. Twins rather
# than a __setattr__ on the class checking each field set once: that check cost pure
# greedy A 0.9M instructions a game (3.8%: the failed reads of unset slots in __init__).
READ_ONLY: dict[type, type] = {}
if not COMPILED:
    for cls in (*SEEN.values(), ProphecySeen):
        READ_ONLY[cls] = type(cls.__name__, (cls,), {
            "__slots__": (), "__setattr__": read_only, "__module__": cls.__module__,
            "__qualname__": cls.__qualname__, "__doc__": cls.__doc__})

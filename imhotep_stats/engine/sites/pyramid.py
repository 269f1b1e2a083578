"""The Pyramid (docs/rules.md §5). Scored at once; a full side scores overflow per stone.

Decision kinds (made by the delivered stone's owner; a choice with a single option is not
asked, it is carried out at once):

| kind                | side | options (notation)                                              |
|---------------------|------|-----------------------------------------------------------------|
| `pyramid_choice`    | B    | `pyramid left`, `pyramid middle`, `pyramid right`: a pyramid     |
|                     |      | that is not full                                                 |
| `pyramid_ship_slot` | B, C | `ship 2 1`: the `ship` bonus puts a quarry stone on slot 1 of    |
|                     |      | unsailed ship 2 (ships and slots from 0, bow = slot 0)           |
| `turn` (addition)   | D    | `get move`: Get new stones and move the Imhotep figure to the    |
|                     |      | next free space clockwise (offered beside `get` while possible)  |

Rewards and bonuses (data strings, docs/rules.md §5.2, 5.3): `pN` N points, `sN` or `stonesN` N
stones from the quarry to the sled (capacity caps), `card` the top market card (handled as
a card taken at the market: a red card acts at once), `ship` one quarry stone onto an empty
slot of an unsailed ship, `""` nothing. All points score under "pyramid".
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from imhotep_stats.engine.actions import GET, act
from imhotep_stats.engine.cards import gain
from imhotep_stats.engine.kinds import CODE
from imhotep_stats.engine.rows import fixed, make, part, read, room
from imhotep_stats.engine.sites.base import Site

if TYPE_CHECKING:
    from imhotep_stats.engine.actions import Action
    from imhotep_stats.engine.game import Game

PYRAMID_CHOICE = CODE["pyramid_choice"]
PYRAMID_SHIP_SLOT = CODE["pyramid_ship_slot"]
SOURCE = "pyramid"

# Reward kinds.
NONE, POINTS, STONES, CARD, SHIP = range(5)
_REWARD = re.compile(r"^(?:(p)|(s|stones))(\d+)$")

SHIP_SLOT = [[act("ship", s, k) for k in range(4)] for s in range(4)]
GET_MOVE = act("get", "move")
GET_WITH_MOVE = (GET, GET_MOVE)
GET_ONLY = (GET,)

try:  # Cython's constant: True in the compiled module (its rows are C arrays), else False
    import cython

    COMPILED = cython.compiled
except ImportError:  # pure Python without Cython installed
    COMPILED = False

# The C rows' sizes (pyramid.pxd). STONES bounds the stones a side takes in fill order (A's
# owners, B-D's overflow): the ships carry at most 6 rounds x 16 slots, red cards a few more.
SEATS, STONES, SPACES = 4, 128, 32  # SPACES: Pyramid D's corridor
PYRAMIDS, HEIGHT = 4, 8  # Pyramid B: pyramids, spaces on each (its owners at i * HEIGHT + k)
TILES, TILE = 8, 8  # Pyramid C: tiles, spaces on each (a full tile's owners at d * TILE + k)

# Pyramid B's names for its pyramids, left to right (more or fewer: numbered from 0).
PYRAMID_NAMES = ("left", "middle", "right")


def parse_reward(text: str, where: str) -> tuple[int, int]:
    """A reward string of the board data -> (kind, amount)."""
    if text == "":
        return (NONE, 0)
    if text == "card":
        return (CARD, 1)
    if text == "ship":
        return (SHIP, 1)
    m = _REWARD.match(text)
    if m is None:
        raise ValueError(
            f'{where}: unknown reward {text!r} (expected pN, sN, stonesN, card, ship or "")'
        )
    return (POINTS if m.group(1) else STONES, int(m.group(3)))


@lru_cache(maxsize=64)
def parse_rewards(
    table: tuple[tuple[str, ...], ...], where: str
) -> tuple[tuple[tuple[int, int], ...], ...]:
    """A data table of reward strings (rows of spaces) -> rows of (kind, amount), parsed
    once per table (board data is immutable)."""
    return tuple(
        tuple(parse_reward(r, f"{where}[{i}][{j}]") for j, r in enumerate(row))
        for i, row in enumerate(table)
    )


def give_reward(g: Game, p: int, kind: int, n: int) -> None:
    """Carry out one reward for ``p``. ``ship`` may ask: nothing after it in the same task
    may ask too (other bookkeeping may follow; the answer comes later)."""
    if kind == POINTS:
        g.score(p, SOURCE, n)
    elif kind == STONES:
        g.sled_to_capacity(p, n)
    elif kind == CARD:
        c = g.draw()
        if c is not None:
            gain(g, p, c)
    elif kind == SHIP:
        # 1 stone from the owner's quarry onto an empty slot of an unsailed ship, the owner
        # choosing the slot; nothing if no slot is free or the quarry is empty (5.2).
        if g._quarry[p] > 0 and g.ship_free:  # ship_free: the open slots' count
            opts = [SHIP_SLOT[a.args[0]][a.args[1]] for a in g.empty_slots()]
            if len(opts) == 1:
                _ship_slot(g, opts[0], p)
            else:
                g.ask(PYRAMID_SHIP_SLOT, p, opts, (p,))


def _ship_slot(g: Game, a: Action, p: int) -> None:
    s, k = a.args
    g._quarry[p] -= 1
    g.put_on_ship(p, s, k)


def _full(where: str) -> ValueError:
    return ValueError(f"{where}: at most {STONES} stones in fill order (sites/pyramid.py "
                      "STONES, the C row's size): fewer game.stones or rounds")


class PyramidA(Site):
    """5.1: 14 spaces filled in a fixed order, points by fill order.

    The board is a C row (engine/rows.py): ``owners``, the owners of the stones in fill
    order (the first ``placed``; beyond len(points): overflow)."""

    side = "A"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.points = data["points"]
        self.overflow = data["overflow_points"]
        self.placed = 0
        if not COMPILED:  # compiled: the C row as it comes, zero-filled (engine/rows.py)
            self._owners = room([], STONES)

    def copy_into(self, new: Site) -> None:
        Site.copy_into(self, new)
        n = new
        n.points = self.points
        n.overflow = self.overflow
        n.placed = self.placed
        if COMPILED:  # a C row: copied by value
            n._owners = self._owners
        else:
            n._owners = self._owners[:]

    @property
    def owners(self) -> list[int]:
        return part(self, "owners", self._owners, self.placed)

    @owners.setter
    def owners(self, values) -> None:
        if len(values) > STONES:
            raise _full("pyramid.A")
        self._owners = room(values, STONES)
        self.placed = len(values)

    def deliver(self, g: Game, owner: int) -> None:
        i = self.placed
        if i >= STONES:
            raise _full("pyramid.A")
        self._owners[i] = owner
        self.placed = i + 1
        g.score(owner, "pyramid", self.points[i] if i < len(self.points) else self.overflow)

    def stones(self) -> int:
        return self.placed

    def stones_of(self, p: int) -> int:
        k = 0
        for i in range(self.placed):
            if self._owners[i] == p:
                k += 1
        return k


class _Counted(Site):
    """Stones per player kept as counters (every stone delivered stays at the pyramid).

    C rows (engine/rows.py): ``count``, per seat; ``overflow_owners``, the owners of the
    overflow stones in order (the first ``overflows``)."""

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.seats = g.n
        self._count = fixed([0] * g.n, SEATS)
        self.overflow = data["overflow_points"]  # points per stone once full (as PyramidA)
        self.overflows = 0
        if not COMPILED:  # compiled: the C row as it comes, zero-filled (engine/rows.py)
            self._overflow_owners = room([], STONES)

    def copy_into(self, new: Site) -> None:
        Site.copy_into(self, new)
        n = new
        n.seats = self.seats
        n.overflow = self.overflow
        n.overflows = self.overflows
        if COMPILED:  # C rows: copied by value
            n._count = self._count
            n._overflow_owners = self._overflow_owners
        else:
            n._count = self._count[:]
            n._overflow_owners = self._overflow_owners[:]

    @property
    def count(self) -> list[int]:
        return read(self, "count", self._count, self.seats)

    @count.setter
    def count(self, values) -> None:
        self._count = fixed(values, SEATS)

    @property
    def overflow_owners(self) -> list[int]:
        return part(self, "overflow_owners", self._overflow_owners, self.overflows)

    @overflow_owners.setter
    def overflow_owners(self, values) -> None:
        if len(values) > STONES:
            raise _full(f"pyramid.{self.side}")
        self._overflow_owners = room(values, STONES)
        self.overflows = len(values)

    def answer(self, g: Game, kind: int, a: Action, ctx: tuple) -> None:
        """A ``ship`` reward's slot (sides B and C; B's pyramid choice: ``PyramidB``)."""
        p = ctx[0]
        _ship_slot(g, a, p)

    def _overflow(self, g: Game, owner: int) -> None:
        i = self.overflows
        if i >= STONES:
            raise _full(f"pyramid.{self.side}")
        self._overflow_owners[i] = owner
        self.overflows = i + 1
        g.score(owner, SOURCE, self.overflow)

    def stones(self) -> int:
        k = 0
        for p in range(self.seats):
            k += self._count[p]
        return k

    def stones_of(self, p: int) -> int:
        return self._count[p]


class PyramidB(_Counted):
    """5.2: three small pyramids, each filled in its own order. The stone's owner chooses a
    pyramid that is not full; the space scores its points and gives its bonus. All full:
    overflow.

    Public: ``pyramids[i]`` the owners of the stones on pyramid i, in fill order;
    ``open``, the pyramids not full. Both are C rows (engine/rows.py): the owners of every
    pyramid in one (``laid[i]`` of them on pyramid i), ``open`` its first ``n_open``.
    ``spaces[i][k]`` = (points, reward kind, amount) is board data (tuples: a list)."""

    side = "B"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        points, bonus = data["points"], data["bonus"]
        if len(points) != len(bonus) or any(
            len(a) != len(b) for a, b in zip(points, bonus, strict=False)
        ):
            raise ValueError("pyramid.B: bonus must have the shape of points")
        if len(points) > PYRAMIDS or any(len(pp) > HEIGHT for pp in points):
            raise ValueError(f"pyramid.B.points: at most {PYRAMIDS} pyramids of at most "
                             f"{HEIGHT} spaces")
        rewards = parse_rewards(bonus, "pyramid.B.bonus")
        self.spaces = [
            [(pt, *r) for pt, r in zip(pp, rr, strict=True)]
            for pp, rr in zip(points, rewards, strict=True)
        ]
        names = PYRAMID_NAMES if len(points) == len(PYRAMID_NAMES) else range(len(points))
        self.choices = [act("pyramid", name) for name in names]
        self.index_of = {a: i for i, a in enumerate(self.choices)}
        self.n_pyramids = len(points)
        self.pyramids = [[] for _ in points]
        self.open = [i for i, pp in enumerate(points) if pp]  # pyramids not full

    def copy_into(self, new: Site) -> None:
        _Counted.copy_into(self, new)
        n = new
        n.spaces = self.spaces  # never changed
        n.choices = self.choices
        n.index_of = self.index_of
        n.n_pyramids = self.n_pyramids
        n.n_open = self.n_open
        if COMPILED:  # C rows: copied by value
            n._laid = self._laid
            n._on = self._on
            n._open = self._open
        else:
            n._laid = self._laid[:]
            n._on = self._on[:]
            n._open = self._open[:]

    @property
    def pyramids(self) -> list[list[int]]:
        """The owners on each pyramid, in fill order: new lists; ``pyramids[i] = [...]``
        writes pyramid i back (a change of an inner list would not)."""
        on, laid = self._on, self._laid
        return make([[on[i * HEIGHT + k] for k in range(laid[i])] for i in range(self.n_pyramids)],
                    self, "pyramids")

    @pyramids.setter
    def pyramids(self, values) -> None:
        on = [0] * (PYRAMIDS * HEIGHT)
        for i, stones in enumerate(values):
            on[i * HEIGHT : i * HEIGHT + len(stones)] = stones
        self._on = room(on, PYRAMIDS * HEIGHT)
        self._laid = fixed([len(stones) for stones in values], PYRAMIDS)

    @property
    def open(self) -> list[int]:
        return part(self, "open", self._open, self.n_open)

    @open.setter
    def open(self, values) -> None:
        self._open = room(values, PYRAMIDS)
        self.n_open = len(values)

    def deliver(self, g: Game, owner: int) -> None:
        self._count[owner] += 1
        if self.n_open > 1:
            g.ask(PYRAMID_CHOICE, owner, [self.choices[self._open[k]] for k in range(self.n_open)],
                  (owner,))
        elif self.n_open:
            self._place(g, owner, self._open[0])
        else:
            self._overflow(g, owner)

    def answer(self, g: Game, kind: int, a: Action, ctx: tuple) -> None:
        owner = ctx[0]
        if kind == PYRAMID_CHOICE:
            self._place(g, owner, self.index_of[a])
        else:
            _ship_slot(g, a, owner)

    def _place(self, g: Game, owner: int, i: int) -> None:
        spaces = self.spaces[i]
        k = self._laid[i]
        points, kind, n = spaces[k]
        self._on[i * HEIGHT + k] = owner
        self._laid[i] = k + 1
        if k + 1 == len(spaces):  # full: out of open, the others in their order
            j = 0
            for o in range(self.n_open):
                if self._open[o] != i:
                    self._open[j] = self._open[o]
                    j += 1
            self.n_open = j
        g.score(owner, SOURCE, points)
        if kind:
            give_reward(g, owner, kind, n)


class PyramidC(_Counted):
    """5.3, Scaffolding: of the scaffold tiles, one is removed at random and
    ``tiles_in_play`` are stacked in random order (the game's "scaffold" chance outcome),
    the top one face up. A stone goes on the next free space (left to right) of the face-up
    tile and its owner gets that space's reward. A full tile: the player with most stones on
    it scores ``majority_points`` (tied for most: ``majority_tie_points`` each), then the next
    tile is turned up on top. After the last tile: overflow.

    Public: ``tile`` (index in the data's tiles of the face-up tile, -1 once all are used),
    ``on_tile`` (owners on it, left to right), ``done`` (the full tiles, bottom first, with
    their owners), ``tiles_left`` (face-down tiles). ``on_tile`` and ``done`` are C rows
    (engine/rows.py): ``on_tile`` the first ``n_on``, ``done`` the first ``n_done`` tiles
    with their owners. Hidden: ``_hidden_stack`` (their order) and ``_hidden_removed``,
    lists (read and written by the hidden-state sampler as lists)."""

    side = "C"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.tiles = parse_rewards(data["tiles"], "pyramid.C.tiles")
        if len(self.tiles) > TILES or any(len(t) > TILE for t in self.tiles):
            raise ValueError(f"pyramid.C.tiles: at most {TILES} tiles of at most {TILE} spaces")
        self.majority_points = data["majority_points"]
        self.tie_points = data["majority_tie_points"]
        numbers = range(1, len(self.tiles) + 1)  # tiles by number, as the data lists them
        keep = min(data["tiles_in_play"], len(self.tiles))
        order = [t - 1 for t in g.chance_pick("scaffold", numbers, keep)]
        self._hidden_removed = sorted(set(range(len(self.tiles))) - set(order))
        self._hidden_stack = order[1:keep][::-1]  # next tile at the end
        self.tiles_left = len(self._hidden_stack)
        self.n_done = 0
        if not COMPILED:  # compiled: the C row as it comes, zero-filled (engine/rows.py)
            self._done_tile = room([], TILES)
            self._done_owners = room([], TILES * TILE)
            self._on_tile = room([], TILE)
        self.turn_up(order[0] if keep else -1)

    def copy_into(self, new: Site) -> None:
        _Counted.copy_into(self, new)
        n = new
        n.tiles = self.tiles
        n.majority_points = self.majority_points
        n.tie_points = self.tie_points
        n._hidden_removed = self._hidden_removed[:]
        n._hidden_stack = self._hidden_stack[:]
        n.tiles_left = self.tiles_left
        n.n_done = self.n_done
        n.n_on = self.n_on
        n.tile = self.tile
        n.rewards = self.rewards
        if COMPILED:  # C rows: copied by value
            n._done_tile = self._done_tile
            n._done_owners = self._done_owners
            n._on_tile = self._on_tile
        else:
            n._done_tile = self._done_tile[:]
            n._done_owners = self._done_owners[:]
            n._on_tile = self._on_tile[:]

    @property
    def on_tile(self) -> list[int]:
        return part(self, "on_tile", self._on_tile, self.n_on)

    @on_tile.setter
    def on_tile(self, values) -> None:
        self._on_tile = room(values, TILE)
        self.n_on = len(values)

    @property
    def done(self) -> list[tuple[int, list[int]]]:
        """The full tiles, bottom first, with their owners (new lists: read only)."""
        out = []
        for d in range(self.n_done):
            t = self._done_tile[d]
            out.append((t, [self._done_owners[d * TILE + k] for k in range(len(self.tiles[t]))]))
        return out

    def hidden_tiles(self) -> list[list]:
        return [self._hidden_stack, self._hidden_removed]

    def hidden(self) -> dict[str, list]:
        return {"stack": self._hidden_stack, "removed": self._hidden_removed}

    def turn_up(self, tile: int) -> None:
        self.tile = tile
        self.rewards = self.tiles[tile] if tile >= 0 else []
        self.n_on = 0

    def deliver(self, g: Game, owner: int) -> None:
        self._count[owner] += 1
        if self.tile < 0:
            self._overflow(g, owner)
            return
        k = self.n_on
        kind, n = self.rewards[k]
        self._on_tile[k] = owner
        self.n_on = k + 1
        if kind:
            give_reward(g, owner, kind, n)
        if self.n_on == len(self.rewards):
            self._complete(g)

    def _complete(self, g: Game) -> None:
        """The face-up tile is full: the majority scores, the next tile is turned up."""
        per = [0] * self.seats
        for i in range(self.n_on):
            per[self._on_tile[i]] += 1
        best = max(per)
        pts = self.majority_points if per.count(best) == 1 else self.tie_points
        for p in range(self.seats):  # the tied in seat order
            if per[p] == best:
                g.score(p, SOURCE, pts)
        d = self.n_done
        self._done_tile[d] = self.tile
        for i in range(self.n_on):
            self._done_owners[d * TILE + i] = self._on_tile[i]
        self.n_done = d + 1
        stack = self._hidden_stack
        self.turn_up(stack.pop() if stack else -1)
        self.tiles_left = len(stack)


class PyramidD(_Counted):
    """5.4, the Corridor: a ring of spaces, values clockwise from the start space. The
    Imhotep figure starts on space 0. A stone goes on the next free space clockwise after
    the figure and scores its value. Whenever a player takes Get new stones, they may also
    move the figure to the next free space clockwise (the turn action ``get move``). Stones
    never move the figure. All spaces taken: overflow.

    Ruling (a gap in the rules): the figure always stands on a free space; when every other
    space is taken, the next stone goes on the figure's own space (a full turn clockwise),
    so all spaces fill before overflow, and from then on the figure cannot move.

    Public: ``spaces[i]`` (owner of the stone on space i, -1 free), ``figure``. The spaces
    are a C row (engine/rows.py), as ``_Counted``'s counters."""

    side = "D"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.points = tuple(data["points"])
        self.size = len(self.points)
        if self.size > SPACES:
            raise ValueError(f"pyramid.D.points: at most {SPACES} spaces, got {self.size}")
        if not COMPILED:  # compiled: the C row as it comes, zero-filled (engine/rows.py)
            self._spaces = fixed([0] * self.size, SPACES)
        for i in range(self.size):
            self._spaces[i] = -1
        self.filled = 0
        self.figure = 0
        self.update_get(g)

    def copy_into(self, new: Site) -> None:
        _Counted.copy_into(self, new)
        n = new
        n.points = self.points
        n.size = self.size
        n.filled = self.filled
        n.figure = self.figure
        if COMPILED:  # a C row: copied by value
            n._spaces = self._spaces
        else:
            n._spaces = self._spaces[:]

    @property
    def spaces(self) -> list[int]:
        return read(self, "spaces", self._spaces, self.size)

    @spaces.setter
    def spaces(self, values) -> None:
        self._spaces = fixed(values, SPACES)

    def _next_free(self) -> int:
        """The first free space clockwise after the figure (its own space last), or -1."""
        size = self.size
        for step in range(1, size + 1):
            i = (self.figure + step) % size
            if self._spaces[i] < 0:
                return i
        return -1

    def update_get(self, g: Game) -> None:
        # A move needs a free space other than the figure's own.
        free_elsewhere = (
            self.size - self.filled - (1 if self.size and self._spaces[self.figure] < 0 else 0)
        )
        g.get_actions = GET_WITH_MOVE if free_elsewhere > 0 else GET_ONLY

    def deliver(self, g: Game, owner: int) -> None:
        self._count[owner] += 1
        i = self._next_free() if self.filled < self.size else -1
        if i < 0:
            self._overflow(g, owner)
            return
        self._spaces[i] = owner
        self.filled += 1
        g.score(owner, SOURCE, self.points[i])
        if self.filled >= self.size - 1:
            self.update_get(g)

    def on_get(self, g: Game, p: int, a: Action) -> None:
        """``get move``: the figure moves to the next free space clockwise."""
        i = self._next_free()
        if i >= 0 and i != self.figure:
            self.figure = i
        self.update_get(g)


SIDES = {"A": PyramidA, "B": PyramidB, "C": PyramidC, "D": PyramidD}

"""The Burial Chamber (docs/rules.md §7). Scored at game end.

Sides: A (rows, connected groups), B (rows, ranking per row), C (Burial Mound: levels,
areas scored stones x levels), D (Tomb: numbered tokens, groups, a penalty for absence).
Every number is the side's data.

Decisions of this module (``g.kind``, who decides, the actions' notation):

===========  ======================  ==========================================================
kind         decided by              actions
===========  ======================  ==========================================================
mound_space  the stone's owner       ``mound L I``: level L (0 = bottom), index I from the left
             (Burial Mound)          (0-based), one per legal space: a free bottom space, or a
                                     free higher space whose two supports are filled. Not
                                     asked when only one space is legal (it is taken) or none
                                     (overflow).
tomb_token   the stone's owner       ``tomb 17``: the face-up tomb token (printed number, 1 to
             (Tomb)                  rows x columns) whose space takes the stone. Not asked
                                     when one token is up (it is used) or none (the point).
===========  ======================  ==========================================================

Rulings (gaps in docs/rules.md §7):

- Mound overflow and the Tomb's no-token point score **at once**, when the stone is
  delivered, like every other overflow point (docs/rules.md §5, 6.4, 8.2, 8.4); only the areas,
  rows and groups wait for the game end. Totals are the same either way.
- A Mound stone goes to overflow when no space is legal (with the printed shape that is
  exactly when the mound is full; a designer shape with unreachable spaces stays sound).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from imhotep_stats.engine.actions import act
from imhotep_stats.engine.kinds import CODE
from imhotep_stats.engine.rows import fixed, part, read, room
from imhotep_stats.engine.sites.base import Site, group_points, line_groups, rank_points

if TYPE_CHECKING:
    from imhotep_stats.engine.actions import Action
    from imhotep_stats.engine.game import Game

MOUND_SPACE = CODE["mound_space"]
TOMB_TOKEN = CODE["tomb_token"]

try:  # Cython's constant: True in the compiled module (its rows are C arrays), else False
    import cython

    COMPILED = cython.compiled
except ImportError:  # pure Python without Cython installed
    COMPILED = False

# A row that grows or shrinks in play (owners, open, face_up) is its whole size in both builds
# (rows.room); its count field alone says how much of it is used.

# The C rows' sizes (burial_chamber.pxd): stones on a side A/B board (no game comes near: a
# ship of at most 4 and a few card deliveries a round); mound spaces, or tomb spaces and the
# face-up tokens among them (rules/limits.py: rows and columns at most 10 each, the mound's
# levels at most 10 spaces each); seats.
STONES, SPACES, SEATS = 96, 100, 4


class BurialRows(Site):
    """3 rows filled column by column (top, middle, bottom, then the next column).

    The board is a C row (engine/rows.py): ``owners``, the owner of each stone in delivery
    order (stone i: column i // rows, row i % rows), ``filled`` of them."""

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.rows = data["rows"]
        self.filled = 0
        if not COMPILED:  # compiled: the C row as it comes, zero-filled (engine/rows.py)
            self._owners = room([], STONES)

    def copy_into(self, new: Site) -> None:
        Site.copy_into(self, new)
        n = new
        n.rows = self.rows
        n.filled = self.filled
        if COMPILED:  # a C row: copied by value
            n._owners = self._owners
        else:
            n._owners = self._owners[:]

    @property
    def owners(self) -> list[int]:
        return part(self, "owners", self._owners, self.filled)

    @owners.setter
    def owners(self, values) -> None:
        row = list(values)
        self._owners = room(row, STONES)
        self.filled = len(row)

    def deliver(self, g: Game, owner: int) -> None:
        k = self.filled
        if k >= STONES:
            raise ValueError(f"burial_chamber.{self.side}: at most {STONES} stones on the board")
        self._owners[k] = owner
        self.filled = k + 1

    def cells(self) -> dict[tuple[int, int], int]:
        r = self.rows
        return {(i % r, i // r): self._owners[i] for i in range(self.filled)}

    def stones(self) -> int:
        return self.filled

    def stones_of(self, p: int) -> int:
        k = 0
        for i in range(self.filled):
            if self._owners[i] == p:
                k += 1
        return k


class BurialChamberA(BurialRows):
    """7.1: each orthogonally connected group of one colour scores 1, 3, 6, 10, 15, +2..."""

    side = "A"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        # read once: the side data's look-up is a Python call, at every game end of a search
        self.group_table = data["group_points"]
        self.group_extra = data["group_extra"]

    def copy_into(self, new: Site) -> None:
        BurialRows.copy_into(self, new)
        n = new
        n.group_table = self.group_table
        n.group_extra = self.group_extra

    def game_end(self, g: Game) -> None:
        table, extra = self.group_table, self.group_extra
        owners = [self._owners[i] for i in range(self.filled)]
        for owner, size in line_groups(owners, self.rows):
            g.score(owner, "burial_chamber", group_points(size, table, extra))


class BurialChamberB(BurialRows):
    """7.2: placed as A; each row ranks the players by their stones in it and pays
    ``row_points`` by rank (at least 1 stone to score; tied players add the points of the
    ranks they occupy and share them, rounded down: ``rank_points``)."""

    side = "B"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.row_points = tuple(data["row_points"])
        self.players = g.n

    def copy_into(self, new: Site) -> None:
        BurialRows.copy_into(self, new)
        n = new
        n.row_points = self.row_points
        n.players = self.players

    def row_counts(self) -> list[list[int]]:
        """Stones per player in each row (top row first)."""
        n, r = self.players, self.rows
        counts = [[0] * n for _ in range(r)]
        for i in range(self.filled):
            counts[i % r][self._owners[i]] += 1
        return counts

    def game_end(self, g: Game) -> None:
        for row in self.row_counts():
            for p, pts in enumerate(rank_points(row, self.row_points)):
                g.score(p, "burial_chamber", pts)


class BurialChamberC(Site):
    """7.3, Burial Mound. Levels of ``levels[L]`` spaces, bottom first; space (L, i) rests on
    (L-1, i) and (L-1, i+1). The owner puts each stone on any legal space (a free bottom
    space, or a free space whose two supports are filled, any colours). Adjacency: same level
    i±1, the two spaces below, the two above. Game end: each connected area of one colour
    scores stones x min(levels spanned, ``level_cap``). No legal space: overflow, each stone
    scores ``overflow_points`` at once.

    The board is C rows (engine/rows.py): per space id its ``owner`` (-1: free); ``open``,
    the legal spaces in ascending id (``opens`` of them); per seat its ``overflow`` and
    ``count`` (stones here: mound + overflow)."""

    side = "C"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.levels = levels = tuple(data["levels"])
        self.level_cap = data["level_cap"]
        self.overflow_points = data["overflow_points"]
        shape = _mound_shape(levels)
        self.space, self.acts, self.act_space, self.supports, self.above, self.adj = shape[:6]
        if len(self.space) > SPACES:
            raise ValueError(f"burial_chamber.C.levels: at most {SPACES} spaces, "
                             f"got {len(self.space)}")
        self.spaces = len(self.space)
        self.seats = g.n
        if not COMPILED:  # compiled: the C row as it comes, zero-filled (engine/rows.py)
            self._owner = fixed([0] * self.spaces, SPACES)
        for i in range(self.spaces):
            self._owner[i] = -1
        self.opens = len(shape[6])
        self._open = room(shape[6], SPACES)
        self._overflow = fixed([0] * g.n, SEATS)
        self._count = fixed([0] * g.n, SEATS)

    def copy_into(self, new: Site) -> None:
        Site.copy_into(self, new)
        n = new
        n.levels = self.levels
        n.level_cap = self.level_cap
        n.overflow_points = self.overflow_points
        n.space, n.acts, n.act_space = self.space, self.acts, self.act_space
        n.supports, n.above, n.adj = self.supports, self.above, self.adj
        n.spaces, n.opens, n.seats = self.spaces, self.opens, self.seats
        if COMPILED:  # C rows: copied by value
            n._owner = self._owner
            n._open = self._open
            n._overflow = self._overflow
            n._count = self._count
        else:
            n._owner = self._owner[:]
            n._open = self._open[:]
            n._overflow = self._overflow[:]
            n._count = self._count[:]

    @property
    def owner(self) -> list[int]:
        return read(self, "owner", self._owner, self.spaces)

    @owner.setter
    def owner(self, values) -> None:
        self._owner = fixed(values, SPACES)

    @property
    def open(self) -> list[int]:
        return part(self, "open", self._open, self.opens)

    @open.setter
    def open(self, values) -> None:
        row = list(values)
        self._open = room(row, SPACES)
        self.opens = len(row)

    @property
    def overflow(self) -> list[int]:
        return read(self, "overflow", self._overflow, self.seats)

    @overflow.setter
    def overflow(self, values) -> None:
        self._overflow = fixed(values, SEATS)

    @property
    def count(self) -> list[int]:
        return read(self, "count", self._count, self.seats)

    @count.setter
    def count(self, values) -> None:
        self._count = fixed(values, SEATS)

    def deliver(self, g: Game, owner: int) -> None:
        self._count[owner] += 1
        k = self.opens
        if k > 1:
            acts = self.acts
            g.ask(MOUND_SPACE, owner, [acts[self._open[i]] for i in range(k)], (owner,))
        elif k:
            self.place(self._open[0], owner)
        else:
            self._overflow[owner] += 1
            g.score(owner, "burial_chamber", self.overflow_points)

    def answer(self, g: Game, kind: int, a: Action, ctx: tuple) -> None:
        owner = ctx[0]
        self.place(self.act_space[a], owner)

    def place(self, s: int, owner: int) -> None:
        """Put ``owner``'s stone on space id ``s`` (legal) and open the spaces it completes
        (``open`` stays in ascending id)."""
        n = self.opens
        j = 0
        while j < n and self._open[j] != s:
            j += 1
        if j == n:
            raise ValueError(f"mound: space {s} is not open")
        self._owner[s] = owner
        n -= 1
        for i in range(j, n):  # s leaves open
            self._open[i] = self._open[i + 1]
        for t in self.above[s]:
            left, right = self.supports[t]  # a space above rests on exactly two
            if self._owner[t] < 0 and self._owner[left] >= 0 and self._owner[right] >= 0:
                i = n  # t joins open in its place (an insertion: open stays sorted)
                while i > 0 and self._open[i - 1] > t:
                    self._open[i] = self._open[i - 1]
                    i -= 1
                self._open[i] = t
                n += 1
        self.opens = n

    def areas(self) -> list[tuple[int, int, int]]:
        """Connected areas of one colour: (owner, stones, levels spanned)."""
        adj, space = self.adj, self.space
        seen = [False] * self.spaces
        out = []
        for start in range(self.spaces):
            o = self._owner[start]
            if o < 0 or seen[start]:
                continue
            seen[start] = True
            stack, size, lo, hi = [start], 0, space[start][0], space[start][0]
            while stack:
                s = stack.pop()
                size += 1
                lv = space[s][0]
                lo, hi = min(lo, lv), max(hi, lv)
                for t in adj[s]:
                    if not seen[t] and self._owner[t] == o:
                        seen[t] = True
                        stack.append(t)
            out.append((o, size, hi - lo + 1))
        return out

    def game_end(self, g: Game) -> None:
        cap = self.level_cap
        for o, size, spanned in self.areas():
            g.score(o, "burial_chamber", size * min(spanned, cap))

    def stones(self) -> int:
        k = 0
        for p in range(self.seats):
            k += self._count[p]
        return k

    def stones_of(self, p: int) -> int:
        return self._count[p]


class BurialChamberD(Site):
    """7.4, Tomb. Tokens 1..rows x columns are shuffled face down at setup; each round start
    turns up ``tokens_per_round``; a delivered stone's owner picks a face-up token and the
    stone goes on the tomb space of that number (numbered row by row from the top left); the
    token leaves the game, and unused face-up tokens are removed at round end. With no token
    up the stone scores ``no_token_points`` at once and lies at the board's edge: it counts as
    a delivery (stones, the penalty) but not for groups. Game end: connected groups of one
    colour score by ``group_points`` / ``group_extra``; a player with no stone delivered here
    scores ``absent_penalty`` (negative).

    The board is C rows (engine/rows.py): per space its ``grid`` owner (token t is space
    t - 1; -1 empty); ``face_up``, the tokens up, ascending (``face_count`` of them); per seat
    its ``edge`` (stones with no token up) and ``count`` (stones here: grid + edge). The
    face-down supply (hidden) stays a list."""

    side = "D"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.rows = data["rows"]
        self.columns = data["columns"]
        self.per_round = data["tokens_per_round"]
        self.no_token_points = data["no_token_points"]
        self.absent_penalty = data["absent_penalty"]
        self.group_table = tuple(data["group_points"])
        self.group_extra = data["group_extra"]
        size = self.rows * self.columns
        if size > SPACES:
            raise ValueError(f"burial_chamber.D.rows x columns: at most {SPACES} spaces, "
                             f"got {self.rows} x {self.columns}")
        # The "tomb" chance outcome lists the tokens in the order they are turned up.
        tokens = g.chance_pick("tomb", range(1, size + 1), size)
        self._hidden_tokens = tokens[::-1]  # face-down supply; the next token turned up is last
        self.acts = _tomb_acts(size)  # by token number
        self.spaces = size
        self.seats = g.n
        self.face_count = 0
        if not COMPILED:  # compiled: the C row as it comes, zero-filled (engine/rows.py)
            self._face_up = room([], SPACES)
            self._grid = fixed([0] * size, SPACES)
        for i in range(size):
            self._grid[i] = -1
        self._edge = fixed([0] * g.n, SEATS)
        self._count = fixed([0] * g.n, SEATS)

    def copy_into(self, new: Site) -> None:
        Site.copy_into(self, new)
        n = new
        n.rows, n.columns, n.per_round = self.rows, self.columns, self.per_round
        n.no_token_points = self.no_token_points
        n.absent_penalty = self.absent_penalty
        n.group_table = self.group_table
        n.group_extra = self.group_extra
        n._hidden_tokens = self._hidden_tokens[:]
        n.acts = self.acts
        n.spaces, n.seats, n.face_count = self.spaces, self.seats, self.face_count
        if COMPILED:  # C rows: copied by value
            n._face_up = self._face_up
            n._grid = self._grid
            n._edge = self._edge
            n._count = self._count
        else:
            n._face_up = self._face_up[:]
            n._grid = self._grid[:]
            n._edge = self._edge[:]
            n._count = self._count[:]

    @property
    def face_up(self) -> list[int]:
        return part(self, "face_up", self._face_up, self.face_count)

    @face_up.setter
    def face_up(self, values) -> None:
        row = list(values)
        self._face_up = room(row, SPACES)
        self.face_count = len(row)

    @property
    def grid(self) -> list[int]:
        return read(self, "grid", self._grid, self.spaces)

    @grid.setter
    def grid(self, values) -> None:
        self._grid = fixed(values, SPACES)

    @property
    def edge(self) -> list[int]:
        return read(self, "edge", self._edge, self.seats)

    @edge.setter
    def edge(self, values) -> None:
        self._edge = fixed(values, SEATS)

    @property
    def count(self) -> list[int]:
        return read(self, "count", self._count, self.seats)

    @count.setter
    def count(self, values) -> None:
        self._count = fixed(values, SEATS)

    def hidden_tiles(self) -> list[list]:
        return [self._hidden_tokens]

    def hidden(self) -> dict[str, list]:
        return {"tokens": self._hidden_tokens}

    def round_start(self, g: Game) -> None:
        supply = self._hidden_tokens
        k = min(self.per_round, len(supply))
        if k:
            face_up = sorted(supply[-k:])
            for i in range(k):
                self._face_up[i] = face_up[i]
            self.face_count = k
            del supply[-k:]

    def round_end(self, g: Game) -> None:
        self.face_count = 0  # unused tokens go back to the box

    def deliver(self, g: Game, owner: int) -> None:
        self._count[owner] += 1
        k = self.face_count
        if k > 1:
            acts = self.acts
            g.ask(TOMB_TOKEN, owner, [acts[self._face_up[i]] for i in range(k)], (owner,))
        elif k:
            self.place(self._face_up[0], owner)
        else:
            self._edge[owner] += 1
            g.score(owner, "burial_chamber", self.no_token_points)

    def answer(self, g: Game, kind: int, a: Action, ctx: tuple) -> None:
        owner = ctx[0]
        self.place(a.args[0], owner)

    def place(self, token: int, owner: int) -> None:
        """Use face-up ``token``: ``owner``'s stone goes on its space."""
        n = self.face_count
        j = 0
        while j < n and self._face_up[j] != token:
            j += 1
        if j == n:
            raise ValueError(f"tomb: token {token} is not face up")
        n -= 1
        for i in range(j, n):  # the token leaves the game
            self._face_up[i] = self._face_up[i + 1]
        self.face_count = n
        self._grid[token - 1] = owner

    def cells(self) -> dict[tuple[int, int], int]:
        c = self.columns
        return {(i // c, i % c): self._grid[i] for i in range(self.spaces) if self._grid[i] >= 0}

    def game_end(self, g: Game) -> None:
        table, extra = self.group_table, self.group_extra
        grid = [self._grid[i] for i in range(self.spaces)]
        for owner, size in line_groups(grid, self.columns):
            g.score(owner, "burial_chamber", group_points(size, table, extra))
        for p in range(self.seats):
            if not self._count[p]:
                g.score(p, "burial_chamber", self.absent_penalty)

    def stones(self) -> int:
        k = 0
        for p in range(self.seats):
            k += self._count[p]
        return k

    def stones_of(self, p: int) -> int:
        return self._count[p]


@lru_cache(maxsize=16)
def _tomb_acts(size: int) -> tuple:
    return (None, *(act("tomb", t) for t in range(1, size + 1)))


@lru_cache(maxsize=16)
def _mound_shape(levels: tuple[int, ...]) -> tuple:
    """The mound's static structure, shared by all games on the same shape: per space id
    its (level, index), action, supports below, spaces resting on it, neighbours; the action
    -> id map; the spaces legal on an empty mound."""
    ids: dict[tuple[int, int], int] = {}
    for lv, size in enumerate(levels):
        for i in range(size):
            ids[(lv, i)] = len(ids)
    space = tuple(ids)
    acts = tuple(act("mound", lv, i) for lv, i in space)
    supports: list = []
    above: list[list[int]] = [[] for _ in space]
    adj = []
    for s, (lv, i) in enumerate(space):
        below = [ids[(lv - 1, j)] for j in (i, i + 1) if (lv - 1, j) in ids]
        if lv > 0 and len(below) < 2:
            below = None  # a designer shape left it without two supports: never legal
        supports.append(tuple(below) if below is not None else None)
        for b in below or ():
            above[b].append(s)
        near = (
            (lv, i - 1),
            (lv, i + 1),
            (lv - 1, i),
            (lv - 1, i + 1),
            (lv + 1, i - 1),
            (lv + 1, i),
        )
        adj.append(tuple(ids[x] for x in near if x in ids))
    act_space = {a: s for s, a in enumerate(acts)}
    start = tuple(s for s in range(len(space)) if supports[s] == ())
    return space, acts, act_space, tuple(supports), tuple(map(tuple, above)), tuple(adj), start


SIDES = {"A": BurialChamberA, "B": BurialChamberB, "C": BurialChamberC, "D": BurialChamberD}

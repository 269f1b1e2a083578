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
from imhotep_stats.engine.sites.base import Site, group_points, line_groups, rank_points

if TYPE_CHECKING:
    from imhotep_stats.engine.actions import Action
    from imhotep_stats.engine.game import Game

MOUND_SPACE = CODE["mound_space"]
TOMB_TOKEN = CODE["tomb_token"]


class BurialRows(Site):
    """3 rows filled column by column (top, middle, bottom, then the next column)."""

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.rows = data["rows"]
        self.owners: list[int] = []  # stone i: column i // rows, row i % rows

    def copy_into(self, new: Site) -> None:
        Site.copy_into(self, new)
        n = new
        n.rows = self.rows
        n.owners = self.owners[:]

    def deliver(self, g: Game, owner: int) -> None:
        self.owners.append(owner)

    def cells(self) -> dict[tuple[int, int], int]:
        r = self.rows
        return {(i % r, i // r): o for i, o in enumerate(self.owners)}

    def stones(self) -> int:
        return len(self.owners)

    def stones_of(self, p: int) -> int:
        return self.owners.count(p)


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
        for owner, size in line_groups(self.owners, self.rows):
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
        for i, o in enumerate(self.owners):
            counts[i % r][o] += 1
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
    scores ``overflow_points`` at once."""

    side = "C"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.levels = levels = tuple(data["levels"])
        self.level_cap = data["level_cap"]
        self.overflow_points = data["overflow_points"]
        shape = _mound_shape(levels)
        self.space, self.acts, self.act_space, self.supports, self.above, self.adj = shape[:6]
        self.owner = [-1] * len(self.space)  # per space id: -1 free, else the stone's owner
        self.open = list(shape[6])  # legal spaces, by id
        self.overflow = [0] * g.n  # stones beyond the mound, per player
        self.count = [0] * g.n  # stones here per player (mound + overflow)

    def copy_into(self, new: Site) -> None:
        Site.copy_into(self, new)
        n = new
        n.levels = self.levels
        n.level_cap = self.level_cap
        n.overflow_points = self.overflow_points
        n.space, n.acts, n.act_space = self.space, self.acts, self.act_space
        n.supports, n.above, n.adj = self.supports, self.above, self.adj
        n.owner = self.owner[:]
        n.open = self.open[:]
        n.overflow = self.overflow[:]
        n.count = self.count[:]

    def deliver(self, g: Game, owner: int) -> None:
        self.count[owner] += 1
        legal = self.open
        if len(legal) > 1:
            g.ask(MOUND_SPACE, owner, [self.acts[s] for s in legal], (owner,))
        elif legal:
            self.place(legal[0], owner)
        else:
            self.overflow[owner] += 1
            g.score(owner, "burial_chamber", self.overflow_points)

    def answer(self, g: Game, kind: int, a: Action, ctx: tuple) -> None:
        owner = ctx[0]
        self.place(self.act_space[a], owner)

    def place(self, s: int, owner: int) -> None:
        """Put ``owner``'s stone on space id ``s`` (legal) and open the spaces it completes."""
        owners = self.owner
        owners[s] = owner
        legal = self.open
        legal.remove(s)
        grown = False
        for t in self.above[s]:
            left, right = self.supports[t]  # a space above rests on exactly two
            if owners[t] < 0 and owners[left] >= 0 and owners[right] >= 0:
                legal.append(t)
                grown = True
        if grown:
            legal.sort()

    def areas(self) -> list[tuple[int, int, int]]:
        """Connected areas of one colour: (owner, stones, levels spanned)."""
        owner, adj, space = self.owner, self.adj, self.space
        seen = [False] * len(owner)
        out = []
        for start, o in enumerate(owner):
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
                    if not seen[t] and owner[t] == o:
                        seen[t] = True
                        stack.append(t)
            out.append((o, size, hi - lo + 1))
        return out

    def game_end(self, g: Game) -> None:
        cap = self.level_cap
        for o, size, spanned in self.areas():
            g.score(o, "burial_chamber", size * min(spanned, cap))

    def stones(self) -> int:
        return sum(self.count)

    def stones_of(self, p: int) -> int:
        return self.count[p]


class BurialChamberD(Site):
    """7.4, Tomb. Tokens 1..rows x columns are shuffled face down at setup; each round start
    turns up ``tokens_per_round``; a delivered stone's owner picks a face-up token and the
    stone goes on the tomb space of that number (numbered row by row from the top left); the
    token leaves the game, and unused face-up tokens are removed at round end. With no token
    up the stone scores ``no_token_points`` at once and lies at the board's edge: it counts as
    a delivery (stones, the penalty) but not for groups. Game end: connected groups of one
    colour score by ``group_points`` / ``group_extra``; a player with no stone delivered here
    scores ``absent_penalty`` (negative)."""

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
        # The "tomb" chance outcome lists the tokens in the order they are turned up.
        tokens = g.chance_pick("tomb", range(1, size + 1), size)
        self._hidden_tokens = tokens[::-1]  # face-down supply; the next token turned up is last
        self.face_up: list[int] = []  # face-up tokens, ascending
        self.acts = _tomb_acts(size)  # by token number
        self.grid = [-1] * size  # per space (token t is space t - 1): -1 empty, else owner
        self.edge = [0] * g.n  # stones delivered with no token up, per player
        self.count = [0] * g.n  # stones here per player (grid + edge)

    def copy_into(self, new: Site) -> None:
        Site.copy_into(self, new)
        n = new
        n.rows, n.columns, n.per_round = self.rows, self.columns, self.per_round
        n.no_token_points = self.no_token_points
        n.absent_penalty = self.absent_penalty
        n.group_table = self.group_table
        n.group_extra = self.group_extra
        n._hidden_tokens = self._hidden_tokens[:]
        n.face_up = self.face_up[:]
        n.acts = self.acts
        n.grid = self.grid[:]
        n.edge = self.edge[:]
        n.count = self.count[:]

    def hidden_tiles(self) -> list[list]:
        return [self._hidden_tokens]

    def hidden(self) -> dict[str, list]:
        return {"tokens": self._hidden_tokens}

    def round_start(self, g: Game) -> None:
        supply = self._hidden_tokens
        k = min(self.per_round, len(supply))
        if k:
            self.face_up = sorted(supply[-k:])
            del supply[-k:]

    def round_end(self, g: Game) -> None:
        self.face_up = []  # unused tokens go back to the box

    def deliver(self, g: Game, owner: int) -> None:
        self.count[owner] += 1
        up = self.face_up
        if len(up) > 1:
            acts = self.acts
            g.ask(TOMB_TOKEN, owner, [acts[t] for t in up], (owner,))
        elif up:
            self.place(up[0], owner)
        else:
            self.edge[owner] += 1
            g.score(owner, "burial_chamber", self.no_token_points)

    def answer(self, g: Game, kind: int, a: Action, ctx: tuple) -> None:
        owner = ctx[0]
        self.place(a.args[0], owner)

    def place(self, token: int, owner: int) -> None:
        """Use face-up ``token``: ``owner``'s stone goes on its space."""
        self.face_up.remove(token)
        self.grid[token - 1] = owner

    def cells(self) -> dict[tuple[int, int], int]:
        c = self.columns
        return {(i // c, i % c): o for i, o in enumerate(self.grid) if o >= 0}

    def game_end(self, g: Game) -> None:
        table, extra = self.group_table, self.group_extra
        for owner, size in line_groups(self.grid, self.columns):
            g.score(owner, "burial_chamber", group_points(size, table, extra))
        for p, k in enumerate(self.count):
            if not k:
                g.score(p, "burial_chamber", self.absent_penalty)

    def stones(self) -> int:
        return sum(self.count)

    def stones_of(self, p: int) -> int:
        return self.count[p]


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

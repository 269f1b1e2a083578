"""The Burial Chamber's four sides, priced (docs/rules.md §7; the engine's
``engine/sites/burial_chamber.py``)."""

from __future__ import annotations

from imhotep_stats.bots.greedy.sites.base import (
    POSITIONS,
    SiteEval,
    logits,
    rank_estimate,
    rounds_left,
)
from imhotep_stats.engine.sites.base import group_points


# Compiled, a cdef class (burial_chamber.pxd): an attribute added here must be declared there.
class BurialAEval(SiteEval):
    """§7.1: groups of one colour, scored at game end. A stone is worth the growth of the
    group it joins (its left and upper neighbours are on the board when it lands), plus a
    little for the open neighbours its owner may fill later."""

    source = "burial_chamber"

    def __init__(self, ctx, index):
        super().__init__(ctx, index)
        self.rows = self.site.rows
        data = self.site.data
        self.table = tuple(data["group_points"])
        self.extra = data["group_extra"]
        self.parent: list[int] = []
        self.size: list[int] = []

    memo_size = 4096

    def key(self):  # the whole board: the tables are shared by the game's bots (static)
        return self.site.owners

    def static(self):  # with the key, the printed group points alone
        return self.rows, self.table, self.extra

    def _find(self, i: int) -> int:
        parent = self.parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def _extend(self, owners: tuple[int, ...]) -> None:
        """Union-find over the stones placed so far (``owners``), extended incrementally."""
        rows = self.rows
        parent, size = self.parent, self.size
        for i in range(len(parent), len(owners)):
            parent.append(i)
            size.append(1)
            o = owners[i]
            for nb in (i - rows, i - 1 if i % rows else -1):
                if nb >= 0 and owners[nb] == o:
                    a, b = self._find(nb), self._find(i)
                    if a != b:
                        if size[a] < size[b]:
                            a, b = b, a
                        parent[b] = a
                        size[a] += size[b]

    def gain(self, seq: tuple[int, ...], i: int, o: int) -> float:
        """Points o gains by a stone at index i, the stones placed so far being ``seq``
        (neighbours already on the board only)."""
        rows, n0 = self.rows, len(seq)
        roots = set()
        for nb in (i - rows, i - 1 if i % rows else -1):
            if 0 <= nb < n0 and seq[nb] == o:
                roots.add(self._find(nb))
        total, before = 1, 0
        for r in roots:
            s = self.size[r]
            total += s
            before += group_points(s, self.table, self.extra)
        g = group_points(total, self.table, self.extra) - before
        # open neighbours (below, right) its owner may fill later: a small option value
        return g + 0.35 * (i % rows != rows - 1) + 0.35

    def build(self):
        owners = self.site.owners  # a snapshot: read once
        self._extend(owners)
        n0 = len(owners)
        return [[self.gain(owners, n0 + j, o) for j in range(POSITIONS)]
                for o in range(self.n)], None


class BurialBEval(SiteEval):
    """§7.2: row majorities, estimated smoothly per row like the obelisk ranks."""

    source = "burial_chamber"

    def key(self):
        return (len(self.site.owners), self.ctx.round)

    def build(self):
        site = self.site
        n, rows = self.n, site.rows
        counts = [[0] * n for _ in range(rows)]
        for i, o in enumerate(site.owners):
            counts[i % rows][o] += 1
        logit = logits(0.4 + 0.45 * rounds_left(self.ctx))
        table = site.row_points
        base = [rank_estimate(c, table, logit) for c in counts]
        n0 = len(site.owners)
        own = [[0.0] * POSITIONS for _ in range(n)]
        side = [[()] * POSITIONS for _ in range(n)]
        for j in range(POSITIONS):
            r = (n0 + j) % rows
            c = counts[r]
            for o in range(n):
                c[o] += 1
                est = rank_estimate(c, table, logit)
                c[o] -= 1
                b = base[r]
                own[o][j] = est[o] - b[o]
                cell = []  # a loop, not a generator: cheaper compiled
                for q in range(n):
                    if q != o:
                        cell.append((q, est[q] - b[q]))
                side[o][j] = tuple(cell)
        return own, side


class BurialCEval(SiteEval):
    """§7.3, Burial Mound: the owner picks the space whose area grows most in value
    (stones x levels spanned); a little for blocking the best space of an opponent."""

    source = "burial_chamber"
    kinds = ("mound_space",)

    def key(self):
        return sum(self.site.count)

    def gain(self, s: int, o: int) -> float:
        """Area value o gains by a stone on space s (the areas it joins, merged)."""
        site = self.site
        owner, adj, space, cap = site.owner, site.adj, site.space, site.level_cap
        seen = {s}
        size, lo, hi = 1, space[s][0], space[s][0]
        before = 0
        for start in adj[s]:
            if start in seen or owner[start] != o:
                continue
            seen.add(start)
            stack = [start]
            k, a_lo, a_hi = 0, space[start][0], space[start][0]
            while stack:
                t = stack.pop()
                k += 1
                lv = space[t][0]
                a_lo, a_hi = min(a_lo, lv), max(a_hi, lv)
                for u in adj[t]:
                    if u not in seen and owner[u] == o:
                        seen.add(u)
                        stack.append(u)
            before += k * min(a_hi - a_lo + 1, cap)
            size += k
            lo, hi = min(lo, a_lo), max(hi, a_hi)
        return size * min(hi - lo + 1, cap) - before + 0.3

    def best(self, o: int) -> float:
        legal = self.site.open
        if not legal:
            return float(self.site.overflow_points)
        return max(self.gain(s, o) for s in legal)

    def build(self):
        own = []
        for o in range(self.n):
            b = self.best(o)
            own.append([b, b * 0.9, b * 0.8, b * 0.75])
        return own, None

    def decide(self, kind, view, legal):
        site = self.site
        me = self.me
        deny = -self.ctx.cop * (self.n - 1)
        out = []
        for a in legal:
            s = site.act_space[a]
            block = max((self.gain(s, q) for q in range(self.n) if q != me), default=0.0)
            out.append(self.wme * self.gain(s, me) + 0.3 * deny * block)
        return out


class BurialDEval(SiteEval):
    """§7.4, Tomb: the best face-up token's group growth; the first stone here also saves
    the absence penalty."""

    source = "burial_chamber"
    kinds = ("tomb_token",)

    def __init__(self, ctx, index):
        super().__init__(ctx, index)
        self._shared = None  # [grid state, {token * 16 + owner: gain}] (see _gains)
        self._grid_row = ()  # the site's grid as _gains last read it (the memo's grid)
        site = self.site
        size = len(site.grid)
        self._adj = _grid_adjacency(size, site.columns)  # per cell: its neighbours
        # per group size 0..size: the group's points (a look-up, not a call, in _gain)
        self._group = [float(group_points(k, site.group_table, site.group_extra))
                       for k in range(size + 1)]

    memo_size = 4096

    def key(self):  # the whole state the build reads: its tables are shared (static)
        site = self.site
        return (site.grid, site.face_up, site.count)

    def static(self):  # with the key, the printed grid and points alone
        site = self.site
        return (site.columns, site.group_table, site.group_extra, site.no_token_points,
                site.absent_penalty)

    def _gains(self) -> dict:
        """The gains memo for the grid as it is now: token * 16 + owner -> gain (this bot's
        own; an int key, cheaper than a (token, owner) pair)."""
        shared = self._shared
        if shared is None:
            shared = self._shared = [-1, {}]  # this bot's own (not its table-mates')
        grid = self._grid_row = self.site.grid  # a snapshot, for _gain too
        empty = grid.count(-1)  # the grid only fills: its state
        if empty != shared[0]:
            shared[0] = empty
            shared[1] = {}
        return shared[1]

    def gain(self, token: int, o: int) -> float:
        return self._memo_gain(self._gains(), token, o)

    def _memo_gain(self, memo: dict, token: int, o: int) -> float:
        k = token * 16 + o  # owners are seats 0..4
        g = memo.get(k)
        if g is None:
            g = memo[k] = self._gain(token, o)
        return g

    def _gain(self, token: int, o: int) -> float:
        """The growth in value of o's groups by a stone on token's space: the groups of o
        next to it (a depth-first walk over the grid) merge with it."""
        adj = self._adj
        group = self._group
        cell = token - 1
        todo = list(self._grid_row)  # o's cells not yet counted (a counted cell becomes -9)
        todo[cell] = -9
        total = 1
        before = 0
        for nb in adj[cell]:  # explicit loops, no generators: typed and cheap compiled
            if todo[nb] != o:
                continue
            k = 0
            stack = [nb]
            todo[nb] = -9
            while stack:
                t = stack.pop()
                k += 1
                for u in adj[t]:
                    if todo[u] == o:
                        todo[u] = -9
                        stack.append(u)
            total += k
            before += group[k]
        return group[total] - before

    def build(self):
        site = self.site
        up = site.face_up
        memo = self._gains()
        own = []
        for o in range(self.n):
            vals = []
            for t in up:  # a loop, not a generator: cheaper compiled
                vals.append(self._memo_gain(memo, t, o))
            vals.sort(reverse=True)
            absent = -site.absent_penalty if site.count[o] == 0 else 0.0
            row = []
            for j in range(POSITIONS):
                v = (vals[0] + vals[j]) * 0.5 if j < len(vals) else float(site.no_token_points)
                row.append(v + (absent if j == 0 else 0.0))
            own.append(row)
        return own, None

    def decide(self, kind, view, legal):
        me = self.me
        n = self.n
        deny = -self.ctx.cop * (n - 1)
        memo = self._gains()
        out = []
        for a in legal:
            t = a.args[0]
            block = 0.0  # the best gain of another player there (a loop: cheaper compiled)
            first = True
            for q in range(n):
                if q != me:
                    g = self._memo_gain(memo, t, q)
                    if first or g > block:
                        block = g
                        first = False
            out.append(self.wme * self._memo_gain(memo, t, me) + 0.3 * deny * block)
        return out


_GRID_ADJ: dict[tuple[int, int], tuple] = {}


def _grid_adjacency(size: int, cols: int) -> tuple:
    """Per cell of a grid of ``size`` cells, ``cols`` a row: its neighbours (up, down, left,
    right), built once per grid shape."""
    adj = _GRID_ADJ.get((size, cols))
    if adj is None:
        cells = []
        for cell in range(size):
            r, c = divmod(cell, cols)
            nbs = []
            if r:
                nbs.append(cell - cols)
            if cell + cols < size:
                nbs.append(cell + cols)
            if c:
                nbs.append(cell - 1)
            if c < cols - 1:
                nbs.append(cell + 1)
            cells.append(tuple(nbs))
        adj = _GRID_ADJ[(size, cols)] = tuple(cells)
    return adj


SIDES: dict[str, type[SiteEval]] = {
    "A": BurialAEval,
    "B": BurialBEval,
    "C": BurialCEval,
    "D": BurialDEval,
}

"""The Pyramid's four sides, priced (docs/rules.md §5; the engine's ``engine/sites/pyramid.py``)."""

from __future__ import annotations

from imhotep_stats.bots.greedy.sites.base import POSITIONS, SiteEval
from imhotep_stats.engine.sites import pyramid as P

SHIP_BONUS = 0.8  # a quarry stone put on a ship for free (Pyramid B "ship")


class PyramidAEval(SiteEval):
    """§5.1: fixed fill order, points at once."""

    source = "pyramid"

    def __init__(self, ctx, index):
        super().__init__(ctx, index)
        self.points = tuple(self.site.points)
        self.overflow = self.site.overflow

    memo_size = 4096

    def key(self):
        return len(self.site.owners)

    def static(self):  # the build reads the key and the printed points alone
        return self.points, self.overflow

    def build(self):
        i = len(self.site.owners)
        pts = [self.points[i + j] if i + j < len(self.points) else self.overflow
               for j in range(POSITIONS)]
        return [pts] * self.n, None


def reward_value(ctx, o: int, kind: int, n: int) -> float:
    """A pyramid reward (engine.sites.pyramid kinds) to player o."""
    if kind == P.POINTS:
        return float(n)
    if kind == P.STONES:
        return ctx.stones_worth(o, n)
    if kind == P.CARD:
        return ctx.cards.unknown(o, 1)
    if kind == P.SHIP:
        return SHIP_BONUS
    return 0.0


def _ship_slot(ev: SiteEval, view, legal) -> list[float]:
    """pyramid_ship_slot: my free quarry stone goes where a placed stone would gain most."""
    ctx = ev.ctx
    return [ctx.slot_gains(a.args[0])[a.args[1]] for a in legal]


class PyramidBEval(SiteEval):
    """§5.2: three small pyramids; each stone takes the best next space for its owner
    (points plus bonus); later stones of a batch find the best spaces gone."""

    source = "pyramid"
    shared = False
    kinds = ("pyramid_choice", "pyramid_ship_slot")

    def key(self):
        return (tuple(len(x) for x in self.site.pyramids), self.ctx.cards.epoch)

    def space_value(self, o: int, i: int, k: int) -> float:
        spaces = self.site.spaces[i]
        if k >= len(spaces):
            return -1.0
        pts, kind, n = spaces[k]
        return pts + reward_value(self.ctx, o, kind, n)

    def build(self):
        site = self.site
        own = []
        for o in range(self.n):
            filled = [len(x) for x in site.pyramids]
            # each pyramid's next space, valued again only where the last stone went (the
            # same value as before elsewhere: a card's blind price is cached by the card valuer,
            # so the calls it still makes, in the same order, leave it as they did)
            vals = []
            for i in range(len(filled)):
                vals.append(self.space_value(o, i, filled[i]))
            moved = -1
            row = []
            for _ in range(POSITIONS):
                if moved >= 0:
                    vals[moved] = self.space_value(o, moved, filled[moved])
                    moved = -1
                best = max(vals)
                if best < 0:
                    row.append(float(site.overflow))
                    continue
                i = vals.index(best)
                filled[i] += 1
                moved = i
                row.append(best)
            own.append(row)
        return own, None

    def decide(self, kind, view, legal):
        if kind == "pyramid_ship_slot":
            return _ship_slot(self, view, legal)
        site = self.site
        out = []
        for a in legal:
            i = site.index_of[a]
            k = len(site.pyramids[i])
            # my space now, minus a little of what the next space there hands the others
            nxt = self.space_value(self.me, i, k + 1)
            out.append(self.space_value(self.me, i, k) - 0.25 * max(nxt, 0.0))
        return out


class PyramidCEval(SiteEval):
    """§5.3, Scaffolding: the space's reward plus a share of the tile majority."""

    source = "pyramid"
    shared = False
    kinds = ("pyramid_ship_slot",)

    def key(self):
        return (self.site.tile, len(self.site.on_tile), self.ctx.cards.epoch)

    def build(self):
        site, ctx = self.site, self.ctx
        if site.tile < 0:
            return [[float(site.overflow)] * POSITIONS for _ in range(self.n)], None
        rewards = site.rewards
        on = site.on_tile
        size = len(rewards)
        maj = site.majority_points
        own = []
        for o in range(self.n):
            mine = on.count(o)
            others = 0  # the most stones of another player (a loop: cheaper compiled)
            for q in range(self.n):
                if q != o:
                    others = max(others, on.count(q))
            row = []
            for j in range(POSITIONS):
                idx = len(on) + j
                if idx < size:
                    kind, n = rewards[idx]
                    v = reward_value(ctx, o, kind, n)
                    rest = size - idx - 1
                    before = min(max(0.5 + (mine - others) / (rest + 3), 0.0), 1.0)
                    after = min(max(0.5 + (mine + 1 - others) / (rest + 2), 0.0), 1.0)
                    v += maj * (after - before)
                else:  # the next tile, unknown: an average space and majority share
                    v = 1.5 + maj / size
                row.append(v)
            own.append(row)
        return own, None

    def decide(self, kind, view, legal):
        return _ship_slot(self, view, legal)


class PyramidDEval(SiteEval):
    """§5.4, Corridor: stones take the next free spaces after the figure. Getting stones may
    move the figure, which skips the next space: worth it when the next pyramid stone is
    likely mine and the space after is better (or likely theirs and worse)."""

    source = "pyramid"
    volatile = True  # the figure moves on a get, without any delivery

    def __init__(self, ctx, index):
        super().__init__(ctx, index)
        # get_extra's memo: the state (filled, figure) it was worked out for, and the points
        # the next pyramid stone gains when the figure moves (None: no space to move to).
        # Instance attributes, not class-level defaults: compiled, a cdef class (the .pxd).
        self._delta_filled = -1
        self._delta_figure = -1
        self._delta = None

    def key(self):
        return (self.site.filled, self.site.figure)

    def free_after(self, start: int, k: int) -> list[int]:
        spaces, size = self.site.spaces, self.site.size
        out = []
        for step in range(1, size + 1):
            i = (start + step) % size
            if spaces[i] < 0:
                out.append(i)
                if len(out) == k:
                    break
        return out

    def build(self):
        site = self.site
        nxt = self.free_after(site.figure, POSITIONS)
        pts = [float(site.points[i]) for i in nxt]
        pts += [float(site.overflow)] * (POSITIONS - len(pts))
        return [pts] * self.n, None

    def get_extra(self, a) -> float:
        """``get move``: the next pyramid stone lands one free space further on."""
        site = self.site
        filled = site.filled
        figure = site.figure
        # the spaces only fill: (filled, figure) is the state
        if filled != self._delta_filled or figure != self._delta_figure:
            self._delta_filled = filled
            self._delta_figure = figure
            nxt = self.free_after(figure, 2)
            self._delta = site.points[nxt[1]] - site.points[nxt[0]] if len(nxt) == 2 else None
        delta = self._delta
        if delta is None:
            return 0.0
        ctx = self.ctx
        me = self.me
        n = self.n
        mine = 0  # my stones on the ships still loading
        total = 0  # all stones there (slots -1 and -2 are not stones)
        dock = ctx.dock
        ships = ctx.slots
        for s in range(len(ships)):  # explicit loops, not list.count: typed when compiled
            if dock[s] < 0:
                for x in ships[s]:
                    if x == me:
                        mine += 1
                    if x != -1 and x != -2:
                        total += 1
        share = mine / total if total else 1.0 / n
        cop = ctx.cop
        return delta * (share * self.wme + (1 - share) * cop * (n - 1) / n)


SIDES: dict[str, type[SiteEval]] = {
    "A": PyramidAEval,
    "B": PyramidBEval,
    "C": PyramidCEval,
    "D": PyramidDEval,
}

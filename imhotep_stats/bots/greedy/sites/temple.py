"""The Temple's four sides, priced (docs/rules.md §6; the engine's ``engine/sites/temple.py``).

``TempleBCEval`` serves B and C: a visible stone pays its column's best reward, or, in a column
without one, the side's ``visible_points`` (0 on B, Temple A's point on C: docs/rules.md §6.3
gives C's reward instead of the point, not beside it)."""

from __future__ import annotations

from imhotep_stats.bots.greedy.sites.base import POSITIONS, SiteEval, card_keep, rounds_left
from imhotep_stats.engine.sites.temple import DRAW, POINTS, STONES


class TempleAEval(SiteEval):
    """§6.1: a visible stone scores each round end until a stone lands on its column.

    A stone delivered now is covered after ``width`` more deliveries; with about ``rate``
    temple stones per round it stays visible for roughly 1 + width / rate round ends
    (capped by the rounds left). The stone it covers loses about one round end.
    """

    source = "temple"

    def __init__(self, ctx, index):
        super().__init__(ctx, index)
        self.width = self.site.width

    def stone_points(self, column: int, o: int) -> float:
        """What a visible stone of o in this column pays each round end."""
        return float(self.site.visible_points)

    memo_size = 4096

    def key(self):
        # the build reads, beyond the stones' count and the round, only the owners of the
        # stones the next four cover (the width back): with them the key is the whole state
        seq = self.site.owners
        n0, w = len(seq), self.width
        return (n0, self.ctx.round, seq[max(n0 - w, 0):max(n0 - w + POSITIONS, 0)])

    def static(self):  # with the key, board data alone: shared by every bot and game
        return self.ctx.rounds, self.width, self.site.visible_points

    def build(self):
        ctx = self.ctx
        left = ctx.rounds - ctx.round + 1  # round ends still to score, this one included
        seq = self.site.owners
        n0, w, n = len(seq), self.width, self.n
        rate = (n0 + 2.2 * 2) / (max(ctx.round - 1, 0) + 2)
        vis = 1.0 + min(left - 1, w / rate)
        lost = min(left, 1.3)
        own = [[0.0] * POSITIONS for _ in range(n)]
        side = [[()] * POSITIONS for _ in range(n)]
        for j in range(POSITIONS):
            pos = n0 + j
            col = pos % w
            c = pos - w
            q = seq[c] if 0 <= c < n0 else -1
            loss = lost * self.stone_points(col, q) if q >= 0 else 0.0
            for o in range(n):
                own[o][j] = self.stone_points(col, o) * vis
                if q == o:
                    own[o][j] -= loss
                elif q >= 0:
                    side[o][j] = ((q, -loss),)
        return own, side


def temple_reward(ctx, o: int, kind: str, k: int) -> float:
    if kind == POINTS:
        return float(k)
    if kind == STONES:
        return ctx.stones_worth(o, k)
    if kind == DRAW:
        return ctx.cards.unknown(o, k)
    return 0.0


class TempleBCEval(TempleAEval):
    """§6.2 / §6.3: as A, each visible stone paying its column's reward (the best
    alternative of a choice) each round end; a column without one pays ``visible_points``."""

    shared = False
    kinds = ("temple_bonus", "temple_keep")

    def key(self):
        return (len(self.site.owners), self.ctx.round, self.ctx.cards.epoch)

    def stone_points(self, column: int, o: int) -> float:
        ctx = self.ctx
        v = None  # the best alternative (a loop, not a generator: cheaper compiled)
        for kind, k in self.site.columns[column]:
            r = temple_reward(ctx, o, kind, k)
            if v is None or r > v:
                v = r
        return self.site.visible_points if v is None else v

    def decide(self, kind, view, legal):
        if kind == "temple_keep":
            return card_keep(self, view, legal)
        return [temple_reward(self.ctx, self.me, a.kind, a.args[0]) for a in legal]


class TempleDEval(SiteEval):
    """§6.4, Arena: a stone moves its owner's chariot; worth the track points gained at the
    end plus the round-end places it wins for the rounds left (discounted: others move too)."""

    source = "temple"

    def __init__(self, ctx, index):
        super().__init__(ctx, index)
        # the printed track, read once (move and places run for every table entry)
        self.finish = self.site.finish
        self.table = self.site.round_points

    memo_size = 4096

    def key(self):
        site = self.site
        return (len(site.spaces) + len(site.overflow), tuple(site.chariots), self.ctx.round)

    def static(self):  # with the key, the printed track alone: shared by every bot and game
        site = self.site
        return (self.ctx.rounds, site.arrowheads, site.overflow_move, site.track_points,
                site.round_points, site.finish_point)

    def move(self, chariots: list[int], o: int, steps: int) -> int:
        pos, finish = chariots[o], self.finish
        to = min(pos + steps, finish)
        while to < finish and to in chariots:
            to += 1
        return to

    def places(self, chariots: list[int]) -> list[float]:
        table, finish = self.table, self.finish
        out = [0.0] * self.n
        m = len(chariots)
        if chariots.count(finish) > 1:
            for p in range(m):
                if chariots[p] == finish:
                    out[p] = table[0]
            return out
        # the chariots off the start, leading first (ties: the higher seat first, as sorting
        # (position, seat) pairs in reverse): the r-th scores table[r]. Picked one by one in
        # plain loops, no sort of tuples: cheaper compiled (typed) and in pure Python alike.
        left = list(chariots)
        for rank in range(len(table)):
            bp = -1
            best = 0
            for p in range(m):
                pos = left[p]
                if pos > 0 and pos >= best:
                    best = pos
                    bp = p
            if bp < 0:
                break
            out[bp] = table[rank]
            left[bp] = 0
        return out

    def build(self):
        site = self.site
        n = self.n
        chariots = list(site.chariots)
        stones = len(site.spaces) + len(site.overflow)
        heads = site.arrowheads
        track = site.track_points
        finish = site.finish
        weight = min(rounds_left(self.ctx), 2.5) * 0.7
        base = self.places(chariots)
        own = [[0.0] * POSITIONS for _ in range(n)]
        side = [[()] * POSITIONS for _ in range(n)]
        for j in range(POSITIONS):
            i = stones + j
            steps = heads[i] if i < len(heads) else site.overflow_move
            for o in range(n):
                pos = chariots[o]
                if pos >= finish:
                    own[o][j] = float(site.finish_point)
                    continue
                to = self.move(chariots, o, steps)
                chariots[o] = to  # the places after o's move (restored below)
                pl = self.places(chariots)
                chariots[o] = pos
                gain = pl[o]
                was = base[o]
                own[o][j] = track[to] - track[pos] + weight * (gain - was)
                cell = []  # a loop, not a generator: cheaper compiled
                for q in range(n):
                    if q != o:
                        gain = pl[q]
                        was = base[q]
                        if gain != was:
                            cell.append((q, weight * (gain - was)))
                side[o][j] = tuple(cell)
        return own, side


SIDES: dict[str, type[SiteEval]] = {
    "A": TempleAEval,
    "B": TempleBCEval,
    "C": TempleBCEval,
    "D": TempleDEval,
}

"""The Obelisk's four sides, priced (docs/rules.md §8; the engine's ``engine/sites/obelisk.py``)."""

from __future__ import annotations

from imhotep_stats.bots.greedy.sites.base import (
    POSITIONS,
    SiteEval,
    logits,
    rank_estimate,
    rounds_left,
)
from imhotep_stats.engine.sites.obelisk import placements


# Compiled, a cdef class (obelisk.pxd): an attribute added here must be declared there.
class ObeliskAEval(SiteEval):
    """§8.1: game-end points by height rank, estimated smoothly (see ``rank_estimate``)."""

    source = "obelisk"

    def __init__(self, ctx, index):
        super().__init__(ctx, index)
        self.table = tuple(self.site.table)

    memo_size = 4096

    def key(self):
        return (tuple(self.site.heights), self.ctx.round)

    def static(self):
        return self.ctx.rounds, self.table

    def build(self):
        ctx = self.ctx
        left = ctx.rounds - ctx.round + 1
        logit = logits(0.35 + 0.55 * max(left, 0))
        h = list(self.site.heights)
        base = rank_estimate(h, self.table, logit)
        own, side = [], []
        n = self.n
        for o in range(n):
            h[o] += 1
            est = rank_estimate(h, self.table, logit)
            h[o] -= 1
            own.append([est[o] - base[o]] * POSITIONS)
            side.append([tuple((q, est[q] - base[q]) for q in range(n) if q != o)] * POSITIONS)
        return own, side


class ObeliskBEval(SiteEval):
    """§8.2: every ``per``-th stone of a player completes an obelisk worth the best free
    slot; a stone is worth its share of the slot it builds towards."""

    source = "obelisk"

    def key(self):
        return (tuple(self.site.pending), len(self.site.slot_owner))

    def build(self):
        site = self.site
        per = site.per
        slots = site.slot_points
        taken = len(site.slot_owner)
        own = []
        for o in range(self.n):
            row = []
            for j in range(POSITIONS):
                idx = taken + j // per
                v = slots[idx] / per if idx < len(slots) else float(site.leftover_points)
                if site.pending[o] + 1 >= per and idx < len(slots):  # completes one now
                    v = slots[idx] - (per - 1) * site.leftover_points
                row.append(max(v, float(site.leftover_points)))
            own.append(row)
        return own, None


def card_score(heights, row_points: int) -> float:
    """Obelisk C card: complete rows, minus a little for a ragged top (gaps to fill)."""
    return _card_score(heights, None, row_points)


def _card_score(heights, add, row_points: int) -> float:
    """card_score of ``heights`` plus ``add`` column by column (None: nothing), in one loop
    over typed ints when compiled (no list of the sums, no min/max/sum calls)."""
    n = len(heights)
    if add is not None and len(add) != n:
        raise ValueError("_card_score: a token of another width")
    low = high = total = 0
    for i in range(n):
        h = heights[i] if add is None else heights[i] + add[i]
        if i == 0 or h < low:
            low = h
        if i == 0 or h > high:
            high = h
        total += h
    return row_points * low + 0.4 * row_points * (total - low * n) / n - 0.3 * (high - low)


class ObeliskCEval(SiteEval):
    """§8.3, the Great Obelisk: the token the stone takes, placed as well as it fits."""

    source = "obelisk"
    kinds = ("obelisk_token",)

    def key(self):
        return (self.site.next, self.site.cards, self.ctx.round)

    def token_gain(self, o: int, token: str) -> float:
        site = self.site
        card = site.cards[o]
        rp = site.row_points
        now = _card_score(card, None, rp)
        best = 0.0
        for placed in placements(site.columns, token, card):
            best = max(best, _card_score(card, placed[1], rp) - now)
        return best

    def build(self):
        site = self.site
        path = site.path
        bonus = site.bonus[0] / 4.0 if site.bonus else 0.0
        own = []
        for o in range(self.n):
            row = []
            for j in range(POSITIONS):
                i = site.next + j
                if i < len(path):
                    row.append(self.token_gain(o, path[i]) + bonus)
                else:
                    row.append(float(site.overflow_points))
            own.append(row)
        return own, None

    def decide(self, kind, view, legal):
        site = self.site
        card = site.cards[self.me]
        out = []
        for a in legal:
            out.append(_card_score(card, a.args[1:], site.row_points))
        return out


class ObeliskDEval(SiteEval):
    """§8.4, the Passage: a stone adds to the obelisk its owner builds (worth its points
    if it gets finished, 1 per stone if not), or claims the free obelisk that promises most."""

    source = "obelisk"
    kinds = ("obelisk_claim",)

    def __init__(self, ctx, index):
        super().__init__(ctx, index)
        self._placed_row = ()  # the site's ``placed``, read once per pricing (build, decide)

    memo_size = 4096

    def key(self):  # the whole state the build reads: its tables are shared (static)
        site = self.site
        return (site.working, site.height, site.free, site.placed, self.ctx.round)

    def static(self):  # with the key, the printed obelisks alone
        site = self.site
        return (self.ctx.rounds, site.target, site.points, site.unfinished_points,
                site.overflow_points)

    def future(self, o: int) -> float:
        """Stones o may still bring here: its pace so far over the rounds left."""
        ctx = self.ctx
        done = max(ctx.round - 1, 0) + 0.5
        pace = (self._placed_row[o] + 1.5) / (done + 1)
        return pace * rounds_left(ctx)

    def worth(self, o: int, target: int, points: int, have: int) -> float:
        """Expected final value of an obelisk of ``target`` holding ``have`` stones of o."""
        need = target - have
        fut = self.future(o)
        p = 1.0 if need <= 0 else min(1.0, fut / need) ** 1.5
        unf = self.site.unfinished_points
        return p * points + (1 - p) * unf * (have + min(fut, need))

    def claim_value(self, o: int, i: int) -> float:
        """Expected final value of claiming obelisk i with this stone."""
        site = self.site
        return self.worth(o, site.target[i], site.points[i], 1)

    def build(self):
        site = self.site
        self._placed_row = site.placed
        working, height, free = site.working, site.height, site.free  # snapshots: read once
        own = []
        for o in range(self.n):
            w = working[o]
            if w >= 0:
                t, pts, h = site.target[w], site.points[w], height[w]
                v = self.worth(o, t, pts, h + 1) - self.worth(o, t, pts, h)
            elif free:
                # the claim's value, spread over the claim and the stone that follows
                best = 0.0
                first = True
                for i in free:  # max() over a loop, not a generator: cheaper compiled
                    c = self.claim_value(o, i)
                    if first or c > best:
                        best = c
                        first = False
                v = best / 2.0
            else:
                v = float(site.overflow_points)
            own.append([max(v, 0.5)] * POSITIONS)
        return own, None

    def decide(self, kind, view, legal):
        me = self.me
        self._placed_row = self.site.placed
        fut = self.future(me)
        unf = self.site.unfinished_points
        out = []
        for a in legal:
            _, h, _, pts = a.args
            p = min(1.0, fut / max(h - 1, 1)) ** 1.5
            out.append(p * pts + (1 - p) * unf * (1 + min(fut, h - 1)))
        return out


SIDES: dict[str, type[SiteEval]] = {
    "A": ObeliskAEval,
    "B": ObeliskBEval,
    "C": ObeliskCEval,
    "D": ObeliskDEval,
}

"""Site evaluators for sides B, C and D (RULES.md 4-8), and the prophecy choice (9).

Same contract as ``sitevals``: ``build`` returns per owner and unloading position the points
the owner gets (and what it does to others), read from the public site state only; ``decide``
scores the options of the site's own decisions. Rewards that are not points are priced by
the bot's card and stone values (``greedy.CardValues``, ``Ctx.stones_worth``), so those
tables are per bot (``shared = False``); the markets' tables, built from card values alone,
are shared when the game's card prices are (``sitevals.card_key``).
"""

from __future__ import annotations

import math
import weakref

from imhotep_stats.bots.sitevals import (
    EVALS,
    POSITIONS,
    SiteEval,
    TempleAEval,
    _logit,
    card_key,
    group_value,
    rank_estimate,
)
from imhotep_stats.engine.sites import pyramid as P
from imhotep_stats.engine.sites.obelisk import placements
from imhotep_stats.engine.sites.temple import DRAW, POINTS, STONES

SHIP_BONUS = 0.8  # a quarry stone put on a ship for free (Pyramid B "ship")


def _left(ctx) -> int:
    """Round ends still to come, this round's included."""
    return max(ctx.rounds - ctx.round + 1, 0)


def _card_keep(ev: SiteEval, view, legal) -> list[float]:
    """market_keep / temple_keep: the card worth most to me."""
    value = ev.ctx.cards.value
    me = ev.me
    return [value(me, a.args[0]) for a in legal]


# ----------------------------------------------------------------------------- market
class _BlindMarketEval(SiteEval):
    """Markets with face-up cards and face-down lots (B's pair, D's stacks): owners pick in
    unloading order, the best of their options first, later picks finding some taken."""

    source = "market"
    kinds = ("market_pick", "market_keep")

    def __init__(self, ctx, index):
        super().__init__(ctx, index)
        self.wme = 1.0  # card values for me are already weighted by the card valuer

    def options(self, o: int) -> list[float]:
        """What each face-up card and each face-down lot is worth to o, best first."""
        raise NotImplementedError

    def build(self):
        own = []
        for o in range(self.n):
            s = self.options(o)
            k = len(s)
            row = []
            for j in range(POSITIONS):  # explicit loops: typed doubles when compiled
                if j >= k:
                    row.append(0.0)
                else:
                    s0 = s[0]
                    v = s[j]
                    row.append(s0 + (v - s0) * 0.5)
            own.append(row)
        return own, None

    def decide(self, kind, view, legal):
        if kind == "market_keep":
            return _card_keep(self, view, legal)
        return self.pick_scores(legal)

    def pick_scores(self, legal) -> list[float]:
        raise NotImplementedError


class MarketBEval(_BlindMarketEval):
    """4.2: face-up cards, or the face-down pair (keep the better of two blind cards)."""

    def key(self):
        return (tuple(self.site.display), self.site.pair_count, card_key(self.ctx))

    def options(self, o: int) -> list[float]:
        cards = self.ctx.cards
        vals = cards.values(o, self.site.display)
        if self.site.pair_count:
            vals.append(cards.unknown(o, self.site.pair_count))
        return sorted(vals, reverse=True)

    def pick_scores(self, legal):
        cards = self.ctx.cards
        me = self.me
        return [cards.unknown(me, self.site.pair_count) if a.args[0] == "pair"
                else cards.value(me, a.args[0]) for a in legal]


class MarketCEval(SiteEval):
    """4.3, Luxury Market: one card, or a coin for two adjacent cards. A coin is worth
    what it may buy later (falling to nothing by the end)."""

    source = "market"
    kinds = ("market_pick",)

    def __init__(self, ctx, index):
        super().__init__(ctx, index)
        self.wme = 1.0

    def key(self):
        return (tuple(self.site.display), tuple(self.site.coins), card_key(self.ctx))

    def coin_value(self, o: int) -> float:
        return 1.2 * self.ctx.left_fraction() if self.site.coins[o] else 0.0

    def best(self, o: int) -> float:
        d = self.site.display
        value = self.ctx.cards.value
        vals = []
        b = None  # the best single card (loops, not comprehensions: cheaper compiled)
        for c in d:
            if c is None:
                vals.append(None)
            else:
                v = value(o, c)
                vals.append(v)
                if b is None or v > b:
                    b = v
        if b is None:
            return self.ctx.cards.unknown(o, 1)
        if self.site.coins[o]:
            cv = self.coin_value(o)
            for i in range(len(vals) - 1):
                if vals[i] is not None and vals[i + 1] is not None:
                    b = max(b, vals[i] + vals[i + 1] - cv)
        return b

    def build(self):
        own = []
        for o in range(self.n):
            b = self.best(o)
            own.append([b * (1.0 - 0.15 * j) for j in range(POSITIONS)])
        return own, None

    def decide(self, kind, view, legal):
        value = self.ctx.cards.value
        me = self.me
        d = self.site.display
        cv = self.coin_value(me)
        out = []
        for a in legal:
            args = a.args
            if isinstance(args[0], int):
                out.append(value(me, d[args[0]]) + value(me, d[args[1]]) - cv)
            else:
                out.append(value(me, args[0]))
        return out


class MarketDEval(_BlindMarketEval):
    """4.4, Black Market: a face-up card, or a face-down stack (keep its best card)."""

    def key(self):
        return (tuple(self.site.display), tuple(self.site.stack_count), card_key(self.ctx))

    def options(self, o: int) -> list[float]:
        cards = self.ctx.cards
        s = cards.values(o, self.site.display)
        for k in self.site.stack_count:  # a loop, not a comprehension: cheaper compiled
            if k:
                s.append(cards.unknown(o, k))
        s.sort(reverse=True)
        return s

    def pick_scores(self, legal):
        cards = self.ctx.cards
        me = self.me
        counts = self.site.stack_count
        return [cards.unknown(me, counts[a.args[1]]) if a.args[0] == "stack" and len(a.args) == 2
                else cards.value(me, a.args[0]) for a in legal]


# ----------------------------------------------------------------------------- pyramid
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
    """5.2: three small pyramids; each stone takes the best next space for its owner
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
    """5.3, Scaffolding: the space's reward plus a share of the tile majority."""

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
    """5.4, Corridor: stones take the next free spaces after the figure. Getting stones may
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


# ----------------------------------------------------------------------------- temple
def temple_reward(ctx, o: int, kind: str, k: int) -> float:
    if kind == POINTS:
        return float(k)
    if kind == STONES:
        return ctx.stones_worth(o, k)
    if kind == DRAW:
        return ctx.cards.unknown(o, k)
    return 0.0


class TempleBEval(TempleAEval):
    """6.2 / 6.3: as A, each visible stone paying its column's reward (the best
    alternative of a choice) each round end, plus Temple C's visible point."""

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
        return self.site.visible_points + (0.0 if v is None else v)

    def decide(self, kind, view, legal):
        if kind == "temple_keep":
            return _card_keep(self, view, legal)
        return [temple_reward(self.ctx, self.me, a.kind, a.args[0]) for a in legal]


class TempleDEval(SiteEval):
    """6.4, Arena: a stone moves its owner's chariot; worth the track points gained at the
    end plus the round-end places it wins for the rounds left (discounted: others move too)."""

    source = "temple"

    def key(self):
        site = self.site
        return (len(site.spaces) + len(site.overflow), tuple(site.chariots), self.ctx.round)

    def move(self, chariots: list[int], o: int, steps: int) -> int:
        site = self.site
        pos, finish = chariots[o], site.finish
        to = min(pos + steps, finish)
        while to < finish and to in chariots:
            to += 1
        return to

    def places(self, chariots: list[int]) -> list[float]:
        site = self.site
        table, finish = site.round_points, site.finish
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
        weight = min(_left(self.ctx), 2.5) * 0.7
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


# ----------------------------------------------------------------------------- burial
class BurialBEval(SiteEval):
    """7.2: row majorities, estimated smoothly per row like the obelisk ranks."""

    source = "burial_chamber"

    def key(self):
        return (len(self.site.owners), self.ctx.round)

    def build(self):
        site = self.site
        n, rows = self.n, site.rows
        counts = [[0] * n for _ in range(rows)]
        for i, o in enumerate(site.owners):
            counts[i % rows][o] += 1
        logit = _logit(0.4 + 0.45 * _left(self.ctx))
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
    """7.3, Burial Mound: the owner picks the space whose area grows most in value
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
    """7.4, Tomb: the best face-up token's group growth; the first stone here also saves
    the absence penalty."""

    source = "burial_chamber"
    kinds = ("tomb_token",)

    def __init__(self, ctx, index):
        super().__init__(ctx, index)
        self._shared = None  # [grid state, {token * 16 + owner: gain}] (see _gains)
        site = self.site
        size = len(site.grid)
        self._adj = _grid_adjacency(size, site.columns)  # per cell: its neighbours
        # per group size 0..size: the group's points (a look-up, not a call, in _gain)
        self._group = [float(group_value(k, site.group_table, site.group_extra))
                       for k in range(size + 1)]

    def key(self):
        return (sum(self.site.count), tuple(self.site.face_up))

    def _gains(self) -> dict:
        """The gains memo for the grid as it is now: token * 16 + owner -> gain (one per
        site: the bots of a game share it; an int key, cheaper than a (token, owner) pair)."""
        shared = self._shared
        if shared is None:
            shared = self._shared = _TOMB_GAINS.setdefault(self.site, [-1, {}])
        empty = self.site.grid.count(-1)  # the grid only fills: its state
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
        todo = list(self.site.grid)  # o's cells not yet counted (a counted cell becomes -9)
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


# ----------------------------------------------------------------------------- obelisk
class ObeliskBEval(SiteEval):
    """8.2: every ``per``-th stone of a player completes an obelisk worth the best free
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
    """8.3, the Great Obelisk: the token the stone takes, placed as well as it fits."""

    source = "obelisk"
    kinds = ("obelisk_token",)

    def key(self):
        return (self.site.next, tuple(tuple(c) for c in self.site.cards), self.ctx.round)

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
    """8.4, the Passage: a stone adds to the obelisk its owner builds (worth its points
    if it gets finished, 1 per stone if not), or claims the free obelisk that promises most."""

    source = "obelisk"
    kinds = ("obelisk_claim",)

    def key(self):
        site = self.site
        return (tuple(site.working), tuple(site.height), len(site.free), self.ctx.round)

    def future(self, o: int) -> float:
        """Stones o may still bring here: its pace so far over the rounds left."""
        ctx = self.ctx
        done = max(ctx.round - 1, 0) + 0.5
        pace = (self.site.placed[o] + 1.5) / (done + 1)
        return pace * _left(ctx)

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
        own = []
        for o in range(self.n):
            w = site.working[o]
            if w >= 0:
                t, pts, h = site.target[w], site.points[w], site.height[w]
                v = self.worth(o, t, pts, h + 1) - self.worth(o, t, pts, h)
            elif site.free:
                # the claim's value, spread over the claim and the stone that follows
                best = 0.0
                first = True
                for i in site.free:  # max() over a loop, not a generator: cheaper compiled
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
        fut = self.future(me)
        unf = self.site.unfinished_points
        out = []
        for a in legal:
            _, h, _, pts = a.args
            p = min(1.0, fut / max(h - 1, 1)) ** 1.5
            out.append(p * pts + (1 - p) * unf * (1 + min(fut, h - 1)))
        return out


# ----------------------------------------------------------------------------- prophecies
def prophecy_scores(ctx, view, legal) -> list[float]:
    """Place a scarab where the expected gain beats keeping it for a later window.

    P(fulfil) is logistic in my lead over the best other count of the god's task, wider
    the more of the game is left; a scarab kept is worth what a later, smaller window
    would pay at even odds, unless I have no spare window left.
    """
    state = ctx.get("prophecy")
    me = ctx.me
    n = ctx.n
    w = state.window_of.get(ctx.round, -1)
    windows = len(state.fulfilled)
    sigma = 0.8 + 1.2 * _left(ctx)
    weight = ctx.w["prophecy"]
    spare = (windows - 1 - w) >= state.left[me]  # later windows enough for my scarabs
    keep = 0.0
    if spare and w + 1 < windows:
        keep = max(0.0, 0.55 * state.fulfilled[w + 1] + 0.45 * state.failed[w + 1])
    out = []
    for a in legal:
        if a.kind != "scarab":
            out.append(weight * keep)
            continue
        god = a.args[0]
        c = _god_counts(ctx, god)
        lead = c[me] - max(c[q] for q in range(n) if q != me)
        x = (lead + 0.5) / sigma
        p = 1.0 / (1.0 + math.exp(-x)) if c[me] or _left(ctx) > 1 else 0.0
        out.append(weight * (p * state.fulfilled[w] + (1 - p) * state.failed[w]))
    return out


def _god_counts(ctx, god: str) -> list[int]:
    n = ctx.n
    get = ctx.get
    if god == "amun":
        return list(get("red_kept"))
    if god == "hathor":
        red = get("red_kept")
        return [sum(ctx.cards.hand(p).values()) + red[p] for p in range(n)]
    if god == "anubis":
        return list(ctx.sled)
    site = ctx.view.site({"ra": 2, "horus": 1, "osiris": 3, "thoth": 4}[god])
    return [site.stones_of(p) for p in range(n)]


_TOMB_GAINS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # site -> gains memo
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


EVALS.update({
    (0, "B"): MarketBEval,
    (0, "C"): MarketCEval,
    (0, "D"): MarketDEval,
    (1, "B"): PyramidBEval,
    (1, "C"): PyramidCEval,
    (1, "D"): PyramidDEval,
    (2, "B"): TempleBEval,
    (2, "C"): TempleBEval,
    (2, "D"): TempleDEval,
    (3, "B"): BurialBEval,
    (3, "C"): BurialCEval,
    (3, "D"): BurialDEval,
    (4, "B"): ObeliskBEval,
    (4, "C"): ObeliskCEval,
    (4, "D"): ObeliskDEval,
})

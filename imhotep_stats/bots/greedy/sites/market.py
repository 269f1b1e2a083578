"""The Market's four sides, priced (docs/rules.md §4; the engine's ``engine/sites/market.py``).

A stone here buys a card: its owner picks in unloading order, the best option for them first,
later picks finding some taken. The cards are priced by ``cards.CardValues``; the tables are
shared by a game's bots when their card weights are all 1 (``base.card_key``).
"""

from __future__ import annotations

from imhotep_stats.bots.greedy.sites.base import POSITIONS, SiteEval, card_keep, card_key


# Compiled, a cdef class (market.pxd): an attribute added here must be declared there.
class MarketAEval(SiteEval):
    """§4.1: owners pick in unloading order, each the card worth most to them. The j-th
    picker is assumed to find their best card gone with probability j/(cards shown)."""

    source = "market"
    kinds = ("market_pick",)

    def __init__(self, ctx, index):
        super().__init__(ctx, index)
        self.wme = 1.0  # card values for me are already weighted by the card valuer

    def key(self):
        return (tuple(self.site.display), card_key(self.ctx))

    def build(self):
        values = self.ctx.cards.values
        disp = self.site.display
        k = len(disp)
        vals = []
        for o in range(self.n):
            s = values(o, disp)
            s.sort(reverse=True)
            if k:
                s0 = s[0]
                row = [s0 + (v - s0) * 0.5 for v in s[:POSITIONS]]  # earlier picks took some
                if k < POSITIONS:
                    row += [0.0] * (POSITIONS - k)
            else:
                row = [0.0] * POSITIONS
            vals.append(row)
        return vals, None

    def decide(self, kind, view, legal):
        """A card from the display: what it is worth to me."""
        value = self.ctx.cards.value
        me = self.me
        return [value(me, a.args[0]) for a in legal]


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
            return card_keep(self, view, legal)
        return self.pick_scores(legal)

    def pick_scores(self, legal) -> list[float]:
        raise NotImplementedError


class MarketBEval(_BlindMarketEval):
    """§4.2: face-up cards, or the face-down pair (keep the better of two blind cards)."""

    def key(self):
        return (tuple(self.site.display), self.site.pair_count, card_key(self.ctx))

    def options(self, o: int) -> list[float]:
        return self.ctx.cards.offers(o, self.site.display, (self.site.pair_count,))

    def pick_scores(self, legal):
        cards = self.ctx.cards
        me = self.me
        return [cards.unknown(me, self.site.pair_count) if a.args[0] == "pair"
                else cards.value(me, a.args[0]) for a in legal]


class MarketCEval(SiteEval):
    """§4.3, Luxury Market: one card, or a coin for two adjacent cards. A coin is worth
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
    """§4.4, Black Market: a face-up card, or a face-down stack (keep its best card)."""

    def key(self):
        return (tuple(self.site.display), tuple(self.site.stack_count), card_key(self.ctx))

    def options(self, o: int) -> list[float]:
        return self.ctx.cards.offers(o, self.site.display, self.site.stack_count)

    def pick_scores(self, legal):
        cards = self.ctx.cards
        me = self.me
        counts = self.site.stack_count
        return [cards.unknown(me, counts[a.args[1]]) if a.args[0] == "stack" and len(a.args) == 2
                else cards.value(me, a.args[0]) for a in legal]


SIDES: dict[str, type[SiteEval]] = {
    "A": MarketAEval,
    "B": MarketBEval,
    "C": MarketCEval,
    "D": MarketDEval,
}

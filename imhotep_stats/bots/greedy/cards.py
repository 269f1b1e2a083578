"""Card pricing (the engine's ``engine/cards.py`` plays the cards): what a market card is worth
to each player now.

Each bot prices cards once per game state (round, sails, cards taken) (``CardBook``: public
state only, no weights) and blind draws once per round; its own prices are those times its
card weights (``CardValues``). A red card is worth a stone at its site (that site's evaluator
prices it). Nothing is shared with the other bots of a game (tests/test_table_mates.py).
"""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING

from imhotep_stats.bots.greedy.errors import UnknownDecision
from imhotep_stats.bots.weights import SITE_KEYS
from imhotep_stats.engine.cards import DECORATION_SITE, RED_SITE, build_deck

if TYPE_CHECKING:
    from imhotep_stats.bots.greedy.context import Ctx

BLUE_BASE = {  # what a blue card in hand is worth early in the game (1 = its unused point)
    "chisel": 2.0, "lever": 1.6, "hammer": 1.7, "sail": 2.0, "barge": 1.4,
    "loading_platform": 1.4,
}
# How a card is priced (_pricing).
_RED, _STATUE, _DECORATION, _BLUE, _CARGO, _QUARRY, _ORNAMENT = range(7)


_WORTH = itemgetter(0)  # a draws entry's worth: its sort key
_COPIES = itemgetter(1)


@lru_cache(maxsize=16)
def _deck(board, expansion: bool) -> list[tuple[str, int]]:
    """A board's market deck in play as (card, copies), from the engine's deck (per board,
    not per game: boards are immutable), fewest copies first: sorted stably by worth alone
    (floats, compared cheaply), ``draws`` then orders equal worths by copies, as sorting the
    (worth, copies) pairs would."""
    copies: dict[str, int] = {}
    for name in build_deck(board, expansion):
        copies[name] = copies.get(name, 0) + 1
    return sorted(copies.items(), key=_COPIES)


def _pricing(name: str) -> tuple:
    """How a card is priced: (kind of price, its parameter, my weight key)."""
    if name in RED_SITE:
        return _RED, RED_SITE[name], ""
    if name == "statue":
        return _STATUE, None, "card_statue"
    if name in DECORATION_SITE:
        return _DECORATION, DECORATION_SITE[name], "card_decoration"
    if name in BLUE_BASE:
        return _BLUE, BLUE_BASE[name] - 1.0, "card_blue"
    if name == "cargo_sled":
        return _CARGO, None, "card_other"
    if name == "private_quarry":
        return _QUARRY, None, "card_other"
    if name == "stone_ornament":
        return _ORNAMENT, None, "card_other"
    raise UnknownDecision(f"no value for market card {name!r}: add it to bots/greedy/cards.py")


# _pricing of every card the bots know (CardValues._how looks it up)
PRICING = {name: _pricing(name) for name in (*RED_SITE, "statue", *DECORATION_SITE, *BLUE_BASE,
                                             "cargo_sled", "private_quarry", "stone_ornament")}


# Compiled, a cdef class (cards.pxd): an attribute added here must be declared there.
class CardBook:
    """One bot's card prices without its weights: each card's worth to each player, kept while
    the round, the sails and the cards taken stay the same (``Ctx.ckey``), and the blind
    draws' worth per round. The bot's own prices are these times its weights
    (``CardValues``). Each bot keeps its own: shared by a game's bots, a price would be made
    at whichever bot's decision came first, so a bot's choice would depend on its mates."""

    def __init__(self, n: int):
        self.key: tuple | None = None
        self.neutral: list[dict[str, float]] = [{} for _ in range(n)]  # per player: card -> worth
        self.hands: dict[int, dict[str, int]] = {}
        self.unknown: dict[tuple, float] = {}  # (player, cards drawn, round) -> worth
        self.draws: dict[tuple, list] = {}  # (player, round) -> CardValues.draws
        self.left = 1.0  # Ctx.left_fraction() at the key

    def sync(self, ctx: Ctx) -> None:
        """Prices for the state ``ctx`` sees now (a new key starts them afresh)."""
        key = ctx.ckey
        if key != self.key:
            self.key = key
            for c in self.neutral:
                c.clear()
            self.hands.clear()
            self.left = ctx.left_fraction()


# Compiled, a cdef class (cards.pxd): an attribute added here must be declared there.
class CardValues:
    """What a card is worth to each player now: the game's neutral prices (``CardBook``),
    mine weighted by my weights."""

    def __init__(self, ctx: Ctx):
        self.ctx = ctx
        self.w = ctx.w
        self.epoch = 0
        # this bot's own book: a price depends on when and by whom it was made, and a bot's
        # choices must depend on its own view and stream only, never on its table-mates
        self.book = CardBook(ctx.n)
        self._weighted: dict[str, float] = {}  # card -> my weighted worth, this epoch
        self._comp: list[tuple[str, int]] | None = None  # the deck in play (see draws)
        self._unknown: dict[tuple, float] = {}  # (cards drawn, round) -> my weighted worth
        self._draws: dict[tuple, list] = {}  # CardValues.draws, mine weighted
        board = ctx.get("board")
        statues = board.tables["statue_points"]
        self.statue_table = tuple(statues["table"])
        self.statue_extra = statues["extra"]
        self.unused_blue = board.tables["unused_blue_points"]["points"]
        self.per_decoration = board.tables["decoration"]["stones_per_point"]
        cargo = board.cards.get("cargo_sled")
        self.cargo = cargo["capacity"] if cargo else 2
        # my weights per card kind, looked up once (the multiplication order stays v*m*k)
        w = self.w
        self._mine = {kind: (w["market"], w[kind]) for kind in
                      ("card_statue", "card_decoration", "card_blue", "card_other")}
        self._red_w = {site: w[SITE_KEYS[site]] for site in RED_SITE.values()}
        # all my weights on cards 1: my prices are the neutral ones (v * 1.0 * 1.0 == v)
        self.unit = all(a == 1.0 and b == 1.0 for a, b in self._mine.values()) and \
            all(x == 1.0 for x in self._red_w.values())

    def new_epoch(self) -> None:
        self.epoch += 1
        self._weighted.clear()
        self.book.sync(self.ctx)

    def hand(self, p: int) -> dict[str, int]:
        hands = self.book.hands
        h = hands.get(p)
        if h is None:
            h = hands[p] = self.ctx.view.hand_of(p)
        return h

    def unknown(self, p: int, k: int = 1) -> float:
        """Expected worth to p of the best of k cards drawn blind (deck composition)."""
        rnd = self.ctx.round
        mine = p == self.ctx.me and not self.unit
        if mine:
            known = self._unknown
            key = (k, rnd)
        else:
            known = self.book.unknown
            key = (p, k, rnd)
        v = known.get(key)
        if v is None:
            if len(known) > 64:
                known.clear()
            vals = self.draws(p, rnd, mine)
            total = 0
            for _, c in vals:
                total += c
            # P(max <= v_i) = F(v_i)^k, drawing with replacement (close enough for 2-3 cards)
            acc, cum, prev = 0.0, 0, 0.0
            for val, c in vals:
                cum += c
                f = (cum / total) ** k
                acc += val * (f - prev)
                prev = f
            v = known[key] = acc
        return v

    def offers(self, p: int, names, lots) -> list[float]:
        """What each face-up card of ``names`` and each face-down lot (the best of k cards
        drawn blind, k in ``lots``; 0: no lot) is worth to p, best first: a blind market's
        options in one call."""
        s = self.values(p, names)
        for k in lots:  # a loop, not a comprehension: cheaper compiled
            if k:
                s.append(self.unknown(p, k))
        s.sort(reverse=True)
        return s

    def draws(self, p: int, rnd: int, mine: bool) -> list[tuple[float, int]]:
        """(worth to p, copies) of every card of the deck, lowest first: blind draws change
        slowly, so they are priced once a round (for every number of cards drawn)."""
        known = self._draws if mine else self.book.draws
        key = (p, rnd)
        vals = known.get(key)
        if vals is None:
            if len(known) > 16:
                known.clear()
            comp = self._comp
            if comp is None:  # (card, copies) of the deck in play: its order is hidden
                comp = self._comp = _deck(self.ctx.get("board"), bool(self.ctx.get("expansion")))
            vals = []
            if mine:
                for name, c in comp:
                    vals.append((self.value(p, name), c))
            else:
                cache = self.book.neutral[p]  # (self.value, inlined)
                for name, c in comp:
                    got = cache.get(name)
                    if got is None:
                        got = self._price(p, name)
                    vals.append((got, c))
            vals.sort(key=_WORTH)  # (worth, copies) order: the deck is in copies order
            known[key] = vals
        return vals

    def statues(self, k: int) -> int:
        t = self.statue_table
        if k <= 0:
            return 0
        return t[k - 1] if k <= len(t) else t[-1] + self.statue_extra * (k - len(t))

    def value(self, p: int, name: str) -> float:
        cache = self.book.neutral[p]
        v = cache.get(name)
        if v is None:
            v = self._price(p, name)
        if p == self.ctx.me and not self.unit:
            return self._weigh(name, v)
        return v

    def values(self, p: int, names) -> list[float]:
        """[value(p, name) for name in names], in one call."""
        cache = self.book.neutral[p]
        out = []
        for name in names:
            v = cache.get(name)
            if v is None:
                v = self._price(p, name)
            out.append(v)
        if p == self.ctx.me and not self.unit:
            return [self._weigh(name, v) for name, v in zip(names, out, strict=True)]
        return out

    def _weigh(self, name: str, v: float) -> float:
        """My worth of a card whose neutral worth is v (cached per epoch)."""
        got = self._weighted.get(name)
        if got is None:
            code, arg, kind = self._how(name)
            if code == _RED:
                got = v * self._red_w[arg]
            else:
                wm, wk = self._mine[kind]
                got = v * wm * wk
            self._weighted[name] = got
        return got

    def _price(self, p: int, name: str) -> float:
        """The neutral worth of a card to p, kept in the book for this state: for every player
        at once when it does not depend on the player (all but statues and red cards)."""
        how = self._how(name)
        v = self._value(p, how)
        code = how[0]
        if code == _RED or code == _STATUE:  # the player's own: site tables, statues held
            self.book.neutral[p][name] = v
        else:
            for cache in self.book.neutral:
                cache[name] = v
        return v

    def _how(self, name: str) -> tuple:
        """_pricing(name), looked up (compiled, a C call and a typed dict look-up)."""
        pricing = PRICING
        how = pricing.get(name)
        if how is None:
            how = _pricing(name)  # a card the bots do not know: the error names it
        return how

    def _value(self, p: int, how: tuple) -> float:
        """The neutral worth to p (no weights) of a card priced by ``how`` (its _pricing)."""
        code, arg, kind = how
        if code == _RED:  # delivered at once: worth a stone at that site
            # (a site whose own rewards include cards may be mid-build: its last table, or a
            # typical stone's worth on the very first build)
            ev = self.ctx.evals[arg]
            ev.ensure()
            raw = ev.raw
            return raw[p][0] if raw else 1.5
        if code == _STATUE:
            k = self.hand(p).get("statue", 0)
            return float(self.statues(k + 1) - self.statues(k))
        if code == _DECORATION:
            return self.ctx.expected_stones(arg) / self.per_decoration
        if code == _BLUE:
            return self.unused_blue + arg * self.book.left
        if code == _CARGO:
            return 0.3 * self.cargo * self.book.left
        if code == _QUARRY:
            return 1.0 + 0.4 * self.book.left
        return 2.0



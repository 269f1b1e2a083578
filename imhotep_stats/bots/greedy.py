"""The greedy bot and its personas: one-step look-ahead with a value estimate.

Every legal action is scored as the change it makes to "my expected final score minus
``deny`` times the opponents' mean", and the best is taken (ties: the bot's own rng).
The estimate is cheap by design (DESIGN.md "Speed is a feature"): no copies of the game,
per-site tables (``sitevals``) that price "a stone of player o unloaded j-th at site i",
rebuilt only when that site changes, and per-ship results cached by the ship's contents.

How the actions are priced:

- **sail s to i**: the delivery's value at i, minus what the ship was already expected to
  bring (so sailing wins when the ship is better now than in others' hands).
- **place s k**: how much the ship's expected value rises with my stone in that slot, minus
  the stone's worth on my sled. A ship's expected value mixes its best destination for me
  (share ``optimism`` x 2/players) with where an opponent would send it (the worst for me in
  2-player games; half worst, half average with more players, who chase their own points).
- **get**: stones on the sled are worth ``stones`` x a value that falls with each stone
  already there (an empty sled leaves only sailing), and less in the last round.
- **blue cards**: the best use of the card now minus what holding it is worth.

Cards are priced once per game state (round, sails, cards taken) for all of a game's bots
(``CardBook``: public state only, no weights), blind draws once per round; a bot's own prices
are those times its card weights. Tables built from card prices alone (the markets') are then
shared by the game's bots whose card weights are all 1, like the other sites' tables.

Personas are this bot with other weights (``weights.WEIGHT_DOCS``).
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Callable, Mapping
from functools import lru_cache
from operator import is_
from typing import TYPE_CHECKING

from imhotep_stats.bots import sitevals, sitevals_bcd
from imhotep_stats.bots.sitevals import POSITIONS
from imhotep_stats.bots.weights import SITE_KEYS, full_weights
from imhotep_stats.engine.game import PLACE, SAIL
from imhotep_stats.engine.view import View

if TYPE_CHECKING:
    from imhotep_stats.engine.actions import Action

SITE_INDEX = {name: i for i, name in enumerate(SITE_KEYS)}
BLUE_BASE = {  # what a blue card in hand is worth early in the game (1 = its unused point)
    "chisel": 2.0, "lever": 1.6, "hammer": 1.7, "sail": 2.0, "barge": 1.4,
    "loading_platform": 1.4,
}
RED_SITE = {"entrance": 1, "sarcophagus": 3, "paved_path": 4}
# How a card is priced (_pricing).
_RED, _STATUE, _DECORATION, _BLUE, _CARGO, _QUARRY, _ORNAMENT = range(7)
_PER_PLAYER = (_RED, _STATUE)  # the prices that depend on the player (site tables, statues held)
DECORATION_SITE = {
    "pyramid_decoration": 1, "temple_decoration": 2, "burial_chamber_decoration": 3,
    "obelisk_decoration": 4,
}
STONE = 1.0  # worth of the first stone on an empty sled, in points (see Ctx.sled_value)
DECAY = 0.55  # each further stone on the sled is worth this much of the previous one
DPOW = [DECAY**k for k in range(32)]  # DECAY**k, looked up
# Place actions of ship s's first k slots (an empty ship's best slots: all of them).
PLACE_FIRST = [[tuple(PLACE[s][:k]) for k in range(5)] for s in range(4)]
# Place actions of ship s at some slots: ship s -> {slot indexes: actions}, filled on use.
PLACE_AT: list[dict[tuple, tuple]] = [{} for _ in range(4)]
# A ship's contents (tuple of slots: owner, -1 empty, -2 unloaded) -> its shape, shared by all
# games: (owners, stones, size, sailable, groups, entries), groups = (j, slot indexes) per run
# of empty slots with j stones before them, in slot order (the slots where my stone is worth
# the same); entries: its stones' indexes in a site's flat table, in unloading order.
SHAPES: dict[tuple, tuple] = {}


def _shape(slots: tuple) -> tuple:
    owners = tuple(o for o in slots if o >= 0)
    m, size = len(owners), len(slots)
    idx = tuple([o * POSITIONS + j for j, o in enumerate(owners)])
    groups: list[tuple[int, list[int]]] = []
    j = 0
    for k, o in enumerate(slots):
        if o >= 0:
            j += 1
        elif o == -1:
            if groups and groups[-1][0] == j:
                groups[-1][1].append(k)
            else:
                groups.append((j, [k]))
    sailable = m >= (size - 1 if size > 1 else 1)
    return owners, m, size, sailable, tuple((j, tuple(ks)) for j, ks in groups), idx


class UnknownDecision(NotImplementedError):
    """A decision kind no scripted bot knows: add a handler (bots/greedy.py, sitevals.py)."""


@lru_cache(maxsize=16)
def _deck(board, expansion: bool) -> list[tuple[str, int]]:
    """A board's market deck in play: (card, copies) (per board, not per game: boards are
    immutable)."""
    merged: dict[str, int] = {}
    for name, c in board.cards.items():
        if c["deck"] == "base" or (expansion and c["deck"] == "expansion"):
            key = c.get("same_as", name)
            merged[key] = merged.get(key, 0) + c["count"]
    return list(merged.items())


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
    raise UnknownDecision(f"no value for market card {name!r}: add it to bots/greedy.py")


# _pricing of every card the bots know (CardValues._how looks it up)
PRICING = {name: _pricing(name) for name in (*RED_SITE, "statue", *DECORATION_SITE, *BLUE_BASE,
                                             "cargo_sled", "private_quarry", "stone_ornament")}


# Compiled, a cdef class (greedy.pxd): an attribute added here must be declared there.
class CardBook:
    """A game's card prices without any bot's weights, shared by the game's bots (they price
    from public state alone): each card's worth to each player, kept while the round, the
    sails and the cards taken stay the same (``Ctx.ckey``), and the blind draws' worth per
    round. A bot's own prices are these times its weights (``CardValues``)."""

    def __init__(self, n: int):
        self.key: tuple | None = None
        self.neutral: list[dict[str, float]] = [{} for _ in range(n)]  # per player: card -> worth
        self.hands: dict[int, dict[str, int]] = {}
        self.unknown: dict[tuple, float] = {}  # (player, cards drawn, round) -> worth
        self.draws: dict[tuple, list] = {}  # (player, round) -> CardValues.draws
        self.left = 1.0  # Ctx.left_fraction() at the key

    def sync(self, ctx: Ctx) -> None:
        """Prices for the state ``ctx`` sees now (the first of a game's bots to get there
        starts them afresh)."""
        key = ctx.ckey
        if key != self.key:
            self.key = key
            for c in self.neutral:
                c.clear()
            self.hands.clear()
            self.left = ctx.left_fraction()


# A game's market site (one object per game, shared by its views) -> the game's CardBook.
_BOOKS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


# Compiled, a cdef class (greedy.pxd): an attribute added here must be declared there.
class CardValues:
    """What a card is worth to each player now: the game's neutral prices (``CardBook``),
    mine weighted by my weights."""

    def __init__(self, ctx: Ctx):
        self.ctx = ctx
        self.w = ctx.w
        self.epoch = 0
        site = ctx.view.site(0)
        book = _BOOKS.get(site)
        if book is None:
            book = _BOOKS[site] = CardBook(ctx.n)
        self.book = book
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
            vals.sort()
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
        v = self._value(p, name)
        if self._how(name)[0] in _PER_PLAYER:
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

    def _value(self, p: int, name: str) -> float:
        """The neutral worth of a card to p (no weights)."""
        code, arg, kind = self._how(name)
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


# Compiled, a cdef class (greedy.pxd): an attribute added here must be declared there.
class Ctx:
    """Per game and seat: the view, the site evaluators, caches. Built at first sight.

    ``begin`` runs at every decision and notices, from a cheap key, when anything a site
    table depends on may have changed (a sail, a card taken or played, a new round); only
    then are the site keys checked and the per-ship cache dropped.
    """

    def __init__(self, bot: GreedyBot, view: View):
        self.view = view
        self.get = get = view.get
        self.me = view.me
        self.n = get("n")
        self.rounds = get("rounds")
        self.w = bot.weights
        self.cop = -self.w["deny"] / (self.n - 1)
        self.lam = self.w["optimism"] * 2 / self.n
        self.mu = 1.0 if self.n == 2 else 0.5
        # The ship mix's constant factors, computed once (the same expressions: same floats).
        self.lam1 = 1 - self.lam
        self.mu1 = 1 - self.mu
        self.pv_b = (1 - self.lam) * self.mu
        self.pv_c = (1 - self.lam) * (1 - self.mu)
        self.three = self.mu < 1.0  # 3-4 players: opponents half minimise me, half chase points
        self.stone = STONE * self.w["stones"]
        self.stone_now = self.stone  # sled_value's base this round (see begin)
        # Lists the game mutates in place (never reassigned during a game): read each time.
        self.sled = get("sled")
        self.quarry = get("quarry")
        self.sled_cap = get("sled_cap")
        self.cards_taken = get("cards_taken")
        self.get_stones = get("get_stones")
        self.round = 0
        self.sailed = 0
        self.ekey: tuple = ()
        self.epoch = 0
        self.ckey: tuple = ()
        self.free: list[int] = []
        self.free_tabs: list[list[list[float]]] = []
        self._free_epoch = -1  # the epoch whose tables free_tabs holds
        self.cards = CardValues(self)
        self.evals: list[sitevals.SiteEval] = []
        self.sides = get("sides")
        self.evals = [sitevals.make_eval(self, i, self.sides[i]) for i in range(5)]
        self.volatile = [ev for ev in self.evals if getattr(ev, "volatile", False)]
        # per ship index: its last evaluation (``_ship``), valid while its slots and the
        # free sites' tables are unchanged (a ship only gains stones within a round)
        self.ship_res: list[tuple | None] = [None, None, None, None]
        self._stones: list[float] | None = None
        self._slope: tuple | None = None

    def begin(self) -> None:
        """Per decision: start a new epoch when the cheap key says something moved.

        A sail alone changes only the site it docked at, whose dock is then taken, so the
        free sites' tables stand; cards taken or played (red cards, Barge), a new round or
        a volatile site (one that changes without a delivery) make every site re-check.
        """
        view = self.view
        key = (view.round, view.sailed, sum(self.cards_taken), len(view.discard))
        vol = self.volatile
        if vol:
            key += (vol[0].key(),) if len(vol) == 1 else tuple([ev.key() for ev in vol])
        old = self.ekey
        if key == old:
            return
        self.ekey = key
        rnd, sailed = key[0], key[1]
        if rnd != self.round:  # a new round: new ships
            get = self.get
            self.slots = get("ship_slots")
            self.dock = get("ship_dock")
            self.used = get("dock_used")
            self.sizes = get("ship_sizes")
            self.mins = get("ship_min")
            self.round = rnd
            full = True
        else:
            full = key[2:] != old[2:]
        if sailed != self.sailed or full:
            self.sailed = sailed
            # sled_value's base: in the last round a stone is only worth it if it can still
            # go out
            self.stone_now = self.stone * (0.5 * (1 - sailed / 4)) \
                if rnd >= self.rounds else self.stone
        if full:
            ckey = key[:3]
            if ckey != self.ckey:
                self.ckey = ckey
                self.cards.new_epoch()
                self._stones = None
            self.epoch += 1
        self.set_free()

    def touch(self) -> None:
        """Mid-unload decisions: sites may have changed without a new epoch key."""
        self.epoch += 1
        self.set_free()

    def set_free(self) -> None:
        """The sites a ship can still sail to, and their tables (others stay lazy)."""
        epoch = self.epoch
        used = self.used
        if epoch == self._free_epoch:
            # Same epoch: the tables stand (ensured when it began), only docks were taken.
            free = self.free
            if not any(map(used.__getitem__, free)):
                return
            new, tabs = [], []
            for i, t in zip(free, self.free_tabs, strict=True):
                if not used[i]:
                    new.append(i)
                    tabs.append(t)
            self.free = new
            self.free_tabs = tabs
        else:
            free, tabs = [], []
            evals = self.evals
            for i in range(5):
                if not used[i]:
                    ev = evals[i]
                    if ev._epoch != epoch:  # ev.ensure(), inlined
                        ev._epoch = epoch
                        ev.refresh()
                    free.append(i)
                    tabs.append(ev.obj)
            self._free_epoch = epoch
            old = self.free_tabs
            if free == self.free and len(tabs) == len(old) and all(map(is_, tabs, old)):
                return  # the same sites with the same tables: every ship's value stands
            self.free = free
            self.free_tabs = tabs
        self._slope = None
        self.ship_res = [None, None, None, None]

    @property
    def fpos(self) -> dict[str, int]:
        """Site name -> its position among the free sites (``_ship``'s value lists)."""
        return {SITE_KEYS[i]: x for x, i in enumerate(self.free)}

    def slope(self) -> tuple[list[float] | None, float]:
        """My stone's mean value over the free sites per position (3-4 players only), and
        an empty ship's expected value for my first stone (see the module doc)."""
        s = self._slope
        if s is None:
            me = self.me * POSITIONS
            tabs = self.free_tabs
            s0 = s1 = s2 = s3 = 0.0  # per position: the sum over the free sites
            lo = hi = tabs[0][me]  # my first stone's min and max over them
            for t in tabs:
                v = t[me]
                s0 += v
                s1 += t[me + 1]
                s2 += t[me + 2]
                s3 += t[me + 3]
                if v < lo:
                    lo = v
                elif v > hi:
                    hi = v
            k = len(tabs)
            means = [s0 / k, s1 / k, s2 / k, s3 / k] if self.three else None
            if self.three:
                lo = self.mu * lo + self.mu1 * means[0]
            s = self._slope = (means, self.lam * hi + self.lam1 * lo)
        return s

    def left_fraction(self) -> float:
        """Share of the game still to play (1 at the start, 0 at the end)."""
        return max(0.0, (self.rounds - self.round + 1 - self.sailed / 4) / self.rounds)

    def expected_stones(self, i: int) -> float:
        """Stones expected at site i at game end (decorations): now plus its pace so far."""
        if self._stones is None:
            done = self.round - 1 + self.sailed / 4
            left = self.rounds - done
            st = [0.0] * 5
            for j in range(1, 5):
                s = self.view.site(j).stones()
                st[j] = s + (s + 4.0) / (done + 2.0) * left
            self._stones = st
        return self._stones[i]

    def stones_worth(self, p: int, k: int) -> float:
        """Worth to p of k stones moved from the quarry to the sled (capacity caps)."""
        sled = self.sled[p]
        k = min(k, self.sled_cap[p] - sled, self.quarry[p])
        base = self.stone_now
        v = 0.0
        for j in range(sled, sled + k):
            v += base * (DPOW[j] if j < 32 else DECAY**j)
        return v

    def sled_value(self, k: int) -> float:
        """Worth of the (k+1)-th stone on my sled: high when it is the only one."""
        if k < 0:
            return 0.0
        return self.stone_now * (DPOW[k] if k < 32 else DECAY**k)

    def ship(self, s: int) -> tuple:
        """Ship s's (expected value, value per free site, (see ``slot_gains``), best gain
        of my stone, its place actions, best sail gain or None if it cannot sail, its sail
        actions, its slots)."""
        slots = self.slots[s]
        r = self.ship_res[s]
        if r is None or r[7] != slots:
            r = self.ship_res[s] = self._ship(s, slots)
        return r

    def _ship(self, s: int, slots: list[int]) -> tuple:
        # A ship's expectation is piecewise linear in its per-site values, so the gain of
        # one more stone of mine is taken along its current slope (the destinations that
        # set the max, the min and the mean); exact for an empty ship. Positions that shift
        # when a stone is inserted before others are ignored (a second-order effect).
        key = tuple(slots)
        shapes = SHAPES  # (a typed dict when compiled: its get at C speed)
        shape = shapes.get(key)
        if shape is None:
            shape = shapes[key] = _shape(key)
        owners, m, size, sailable, groups, idx = shape
        tabs = self.free_tabs
        if not tabs:  # no free site: nowhere to sail
            pv = [0.0 if o == -1 else None for o in slots]
            return 0.0, (), pv, 0.0, _place_at(s, tuple([k for _, ks in groups for k in ks])), \
                None, (), list(slots)
        if m == 0:
            g = (self._slope or self.slope())[1]
            return 0.0, [0.0] * len(tabs), [g] * size, g, PLACE_FIRST[s][size], None, \
                (), list(slots)
        # my objective per free site (its stones' entries there, added in unloading order),
        # and in the same pass the best and worst site for me (the first of equals), how many
        # equal the best, and the sum (max(), min(), sum() and count() would be four passes)
        k = len(tabs)
        base = []
        mx = mn = tot = 0.0
        x = y = cnt = 0
        for i in range(k):
            t = tabs[i]
            v = t[idx[0]]
            for j in range(1, m):
                v += t[idx[j]]
            base.append(v)
            tot += v
            if i == 0:
                mx = mn = v
                cnt = 1
            elif v > mx:
                mx = v
                x = i
                cnt = 1
            elif v < mn:
                mn = v
                y = i
            elif v == mx:
                cnt += 1
        lam = self.lam
        three = self.three
        if three:
            e = lam * mx + self.lam1 * (self.mu * mn + self.mu1 * tot / k)
        else:
            e = lam * mx + self.lam1 * mn
        if sailable:  # the best sites for me
            row = SAIL[s]
            if cnt == 1:  # a single best site
                sails: tuple = (row[self.free[x]],)
            else:
                free = self.free
                sails = tuple([row[free[i]] for i, b in enumerate(base) if b >= mx - 1e-9])
            best_sail: float | None = mx - e
            if m == size:
                return e, base, [], None, (), best_sail, sails, list(slots)
        else:
            sails, best_sail = (), None
        if not groups:
            return e, base, [None] * size, None, (), best_sail, sails, list(slots)
        me = self.me * POSITIONS
        hi = tabs[x]  # the sites that set the max and the min: my entries there
        lo = tabs[y]
        if three:
            mean = (self._slope or self.slope())[0]
            b, c = self.pv_b, self.pv_c
        else:
            b = self.lam1
        bp = -1e18
        best: tuple = ()
        for j, ks in groups:  # the slots with j stones before them: my stone is worth v
            v = lam * hi[me + j] + b * lo[me + j]
            if three:
                v += c * mean[j]
            if v > bp + 1e-9:
                bp = v
                best = ks
            elif v >= bp - 1e-9:
                best += ks
        place_at = PLACE_AT[s]
        acts = place_at.get(best)
        if acts is None:
            acts = _place_at(s, best)
        return e, base, (hi, lo), bp, acts, best_sail, sails, list(slots)

    def slot_gains(self, s: int) -> list[float | None]:
        """Ship s: my stone's gain per slot (None where no stone can go)."""
        r = self.ship(s)
        pv = r[2]
        if type(pv) is list:  # the special cases keep theirs
            return pv
        hi, lo = pv
        slots = r[7]
        groups = SHAPES[tuple(slots)][4]
        out: list[float | None] = [None] * len(slots)
        lam = self.lam
        three = self.three
        me = self.me * POSITIONS
        if three:
            mean = self.slope()[0]
            b, c = self.pv_b, self.pv_c
        else:
            b = self.lam1
        for j, ks in groups:  # the same sums as in _ship
            v = lam * hi[me + j] + b * lo[me + j]
            if three:
                v += c * mean[j]
            for k in ks:
                out[k] = v
        return out


def _place_at(s: int, slots: tuple) -> tuple:
    acts = PLACE_AT[s].get(slots)
    if acts is None:
        acts = PLACE_AT[s][slots] = tuple([PLACE[s][k] for k in slots])
    return acts


class GreedyBot:
    """One-step greedy over a cheap value model; ``weights`` make the personas."""

    def __init__(self, name: str = "greedy", weights: Mapping[str, float] | None = None):
        self.name = name
        self.weights = full_weights(weights)
        self._ctx: dict[View, Ctx] = {}  # per game (one view per seat and game)

    def __repr__(self) -> str:
        return f"GreedyBot({self.name!r})"

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        ctx = self._ctx.get(view)
        if ctx is None:
            if len(self._ctx) > 16:
                self._ctx.clear()
            ctx = self._ctx[view] = Ctx(self, view)
        if len(legal) == 1:
            return legal[0]
        ctx.begin()
        kind = view.kind
        if kind == "turn":
            return _turn_fast(ctx, legal, rng)
        if kind not in NO_REFRESH:
            ctx.touch()  # mid-unload: sites may have changed without a new epoch key
        handler = HANDLERS.get(kind)
        if handler is not None:
            scores = handler(ctx, view, legal)
        else:
            scores = _site_handler(ctx, kind).decide(kind, view, legal)
        best = max(scores)
        idx = [i for i, s in enumerate(scores) if s >= best - 1e-9]
        if len(idx) == 1:
            return legal[idx[0]]
        return legal[idx[int(rng.random() * len(idx))]]


def _site_handler(ctx: Ctx, kind: str) -> sitevals.SiteEval:
    for ev in ctx.evals:
        if kind in ev.kinds:
            return ev
    raise UnknownDecision(
        f"no scripted-bot handler for decision kind {kind!r} (sides {'-'.join(ctx.sides)}): "
        "add one to imhotep_stats/bots/greedy.py or sitevals.py"
    )


# ---------------------------------------------------------------------- the turn
def _turn_fast(ctx: Ctx, legal: list, rng: random.Random):
    """The turn's best action without scoring every legal one: each ship's cached best
    slot and best sail compete with the get and card actions (same prices as ``_turn``).

    Relies on the engine's order of turn actions (get first, cards last) to find the few
    others; any surprise falls back to scoring the whole list.
    """
    me = ctx.me
    dock = ctx.dock
    cache = ctx.ship_res
    sled = ctx.sled[me]
    place_cost = ctx.stone_now * DPOW[sled - 1] if 0 < sled <= 32 else ctx.sled_value(sled - 1)
    best = -1e18
    cands: tuple = ()  # tuples, never mutated: a ship's own tuples are shared with its cache
    slots_all = ctx.slots
    for s in range(4):
        if dock[s] >= 0:
            continue
        slots = slots_all[s]
        r = cache[s]  # ctx.ship(s), inlined
        if r is None or r[7] != slots:
            r = cache[s] = ctx._ship(s, slots)
        if sled:
            v = r[3]
            if v is not None:
                v -= place_cost
                if v > best + 1e-9:
                    best = v
                    cands = r[4]
                elif v >= best - 1e-9:
                    cands += r[4]
        v = r[5]
        if v is not None:
            if v > best + 1e-9:
                best = v
                cands = r[6]
            elif v >= best - 1e-9:
                cands += r[6]
    i = 0
    n = len(legal)
    if legal[0].kind == "get":
        gv = _get_value(ctx, sled, me)
        while i < n and legal[i].kind == "get":
            a = legal[i]
            v = gv + _get_extra(ctx, a) if a.args else gv
            if v > best + 1e-9:
                best, cands = v, (a,)
            elif v >= best - 1e-9:
                cands += (a,)
            i += 1
    j = n - 1
    if legal[j].kind == "play":  # blue cards: priced from every ship's evaluation
        res = [r if d < 0 else None for d, r in zip(dock, cache, strict=True)]
    while j >= i and legal[j].kind == "play":
        a = legal[j]
        v = _card_play(ctx, a.args[0], res, sled)
        if v > best + 1e-9:
            best, cands = v, (a,)
        elif v >= best - 1e-9:
            cands += (a,)
        j -= 1
    if cands:
        a = cands[0] if len(cands) == 1 else cands[int(rng.random() * len(cands))]
        if a in legal:
            return a
    scores = _turn(ctx, legal)  # not expected: a turn action this pricing did not foresee
    top = max(scores)
    idx = [x for x, v in enumerate(scores) if v >= top - 1e-9]
    return legal[idx[0]] if len(idx) == 1 else legal[idx[int(rng.random() * len(idx))]]


def _turn(ctx: Ctx, legal: list) -> list[float]:
    """Score every turn action (RULES.md 2.2) on one scale: change in my objective."""
    me = ctx.me
    dock = ctx.dock
    res = [ctx.ship(s) if dock[s] < 0 else None for s in range(4)]
    fpos = ctx.fpos
    sled = ctx.sled[me]
    place_cost = ctx.sled_value(sled - 1)
    out: list[float] = []
    cards = False
    for a in legal:
        k = a.kind
        if k == "place":
            s, slot = a.args
            out.append(ctx.slot_gains(s)[slot] - place_cost)
        elif k == "sail":
            s, site = a.args
            r = res[s]
            out.append(r[1][fpos[site]] - r[0])
        elif k == "get":
            v = _get_value(ctx, sled, me)
            if a.args:
                v += _get_extra(ctx, a)
            out.append(v)
        elif k == "play":
            cards = True
            out.append(0.0)
        elif k == "pass":
            out.append(0.0)
        else:
            raise UnknownDecision(f"no scripted-bot handler for turn action {a}")
    if cards:
        for i, a in enumerate(legal):
            if a.kind == "play":
                out[i] = _card_play(ctx, a.args[0], res, sled)
    return out


def _get_value(ctx: Ctx, sled: int, me: int) -> float:
    gain = ctx.get_stones  # min(get_stones, room on the sled, stones in the quarry)
    room = ctx.sled_cap[me] - sled
    if room < gain:
        gain = room
    if ctx.quarry[me] < gain:
        gain = ctx.quarry[me]
    base = ctx.stone_now
    v = 0.0
    for j in range(sled, sled + gain):  # sled_value(j), inlined
        v += base * (DPOW[j] if j < 32 else DECAY**j)
    return v


def _get_extra(ctx: Ctx, a) -> float:
    """Extras of a get action (Pyramid D's figure move): the pyramid evaluator prices them."""
    fn = getattr(ctx.evals[1], "get_extra", None)
    if fn is None:
        raise UnknownDecision(f"no scripted-bot handler for turn action {a}")
    return fn(a)


def _places(ctx: Ctx, res: list) -> list[float]:
    """Every open slot's gain for my stone, best first (Chisel, Hammer)."""
    gains = [ctx.slot_gains(s) for s, r in enumerate(res) if r is not None]
    return sorted((v for pv in gains for v in pv if v is not None), reverse=True)


def _card_play(ctx: Ctx, name: str, res: list, sled: int) -> float:
    """A blue card now: its best use minus what holding it is worth (RULES.md 3)."""
    me = ctx.me
    keep = ctx.cards.value(me, name)
    evals = ctx.evals
    slots_all = ctx.slots
    if name == "chisel":
        places = _places(ctx, res)
        if len(places) < 2:
            return -keep
        return places[0] + places[1] - ctx.sled_value(sled - 1) - ctx.sled_value(sled - 2) \
            + ctx.sled_value(0) - keep
    if name == "hammer":
        places = _places(ctx, res)
        gain = _get_value(ctx, sled, me)
        return gain + (places[0] if places else 0.0) - keep
    if name == "lever":
        best = -1e9
        for s in range(4):
            r = res[s]
            if r is not None:
                owners = [o for o in slots_all[s] if o >= 0]
                if len(owners) >= ctx.mins[s]:
                    e0 = r[0]
                    orders = _lever_orders(ctx.me, owners)
                    for t in ctx.free_tabs:  # this epoch's tables (see "sail" below)
                        v = _lever_obj(t, orders) - e0
                        if v > best:
                            best = v
        return best - keep
    if name == "sail":
        # the free sites' tables are this epoch's (set_free ensured them): read them directly
        tabs = ctx.free_tabs
        best = -1e9
        for s in range(4):
            r = res[s]
            if r is None:
                continue
            owners = [o for o in slots_all[s] if o >= 0]
            m = len(owners)
            if m < ctx.sizes[s] and m + 1 >= ctx.mins[s]:
                e0 = r[0]
                for j in range(m + 1):
                    new = owners[:j] + [me] + owners[j:]
                    for t in tabs:
                        v = sum([t[o * POSITIONS + x] for x, o in enumerate(new)]) - e0
                        if v > best:
                            best = v
        return best - ctx.sled_value(sled - 1) - keep
    if name == "barge":
        best = -1e9
        for i in range(1, 5):  # (a loop: no closures in compiled code)
            v = evals[i].ensure().obj[me * POSITIONS]
            if v > best:
                best = v
        return best - ctx.sled_value(sled - 1) - ctx.sled_value(sled - 2) \
            - ctx.sled_value(sled - 3) - keep
    if name == "loading_platform":
        used = ctx.used
        best = -1e9
        for s in range(4):
            r = res[s]
            if r is not None and me in slots_all[s]:
                owners = [o for o in slots_all[s] if o >= 0]
                if len(owners) < ctx.mins[s]:
                    continue
                for i in range(5):
                    if used[i] == 1:
                        best = max(best, evals[i].batch_obj(owners) - r[0])
        return best - ctx.sled_value(sled - 1) - keep
    raise UnknownDecision(f"no scripted-bot handler for blue card {name!r}")


def _lever_value(ctx: Ctx, owners: list[int], i: int) -> float:
    """Lever: the better of the normal order, my stones first and my stones last."""
    ev = ctx.evals[i]
    me = ctx.me
    mine = [o for o in owners if o == me]
    rest = [o for o in owners if o != me]
    return max(ev.batch_obj(owners), ev.batch_obj(mine + rest), ev.batch_obj(rest + mine))


def _lever_orders(me: int, owners: list[int]) -> tuple:
    """The unloading orders _lever_value compares, as flat table indexes."""
    mine = [o for o in owners if o == me]
    rest = [o for o in owners if o != me]
    return tuple([[o * POSITIONS + j for j, o in enumerate(order)]
                  for order in (owners, mine + rest, rest + mine)])


def _lever_obj(t: list[float], orders: tuple) -> float:
    """_lever_value on a free site's table t."""
    a, b, c = [sum([t[x] for x in order]) for order in orders]
    return max(a, b, c)


# ---------------------------------------------------------------------- sub-decisions
def _place_only(ctx: Ctx, view, legal) -> list[float]:
    """chisel_place / hammer_place: the slot that raises its ship's expectation most."""
    return [ctx.slot_gains(a.args[0])[a.args[1]] for a in legal]


def _sail_place(ctx: Ctx, view, legal) -> list[float]:
    """Sail card, step 1: the slot whose ship then sails best."""
    me = ctx.me
    out = []
    for a in legal:
        s, k = a.args
        slots = list(ctx.slots[s])
        slots[k] = me
        owners = [o for o in slots if o >= 0]
        out.append(max(ctx.evals[i].batch_obj(owners) for i in ctx.free) if ctx.free else 0.0)
    return out


def _sail_to(ctx: Ctx, view, legal) -> list[float]:
    """sail_sail / lever_sail / platform_sail: the delivery's value at that site."""
    lever = ctx.get("kind") == "lever_sail"
    out = []
    for a in legal:
        owners = [o for o in ctx.slots[a.args[0]] if o >= 0]
        i = SITE_INDEX[a.args[1]]
        out.append(_lever_value(ctx, owners, i) if lever else ctx.evals[i].batch_obj(owners))
    return out


def _lever_unload(ctx: Ctx, view, legal) -> list[float]:
    """Lever: which stone unloads next; the rest follow bow to stern."""
    slots_all = ctx.slots
    dock = ctx.dock
    s = next(s for s in range(4) if dock[s] >= 0 and any(o >= 0 for o in slots_all[s]))
    slots = slots_all[s]
    ev = ctx.evals[dock[s]]
    out = []
    for a in legal:
        k = a.args[0]
        rest = [o for j, o in enumerate(slots) if o >= 0 and j != k]
        out.append(ev.batch_obj([slots[k], *rest]))
    return out


def _barge_site(ctx: Ctx, view, legal) -> list[float]:
    me = ctx.me
    return [ctx.evals[SITE_INDEX[a.args[0]]].ensure().obj[me * POSITIONS] for a in legal]


def _hammer_get(ctx: Ctx, view, legal) -> list[float]:
    """Hammer with Pyramid D: get, or get and move the figure."""
    return [_get_extra(ctx, a) if a.args else 0.0 for a in legal]


NO_REFRESH = frozenset({"market_pick", "market_keep", "temple_keep", "chisel_place",
                        "hammer_place", "prophecy"})  # card values, ships only
HANDLERS: dict[str, Callable[..., list[float]]] = {
    "hammer_get": _hammer_get,
    "prophecy": sitevals_bcd.prophecy_scores,
    "chisel_place": _place_only,
    "hammer_place": _place_only,
    "sail_place": _sail_place,
    "sail_sail": _sail_to,
    "lever_sail": _sail_to,
    "lever_unload": _lever_unload,
    "platform_sail": _sail_to,
    "barge_site": _barge_site,
}


def handled_kinds() -> set[str]:
    """Every decision kind the scripted bots make a reasoned choice for."""
    return {"turn"} | set(HANDLERS) | set(sitevals.site_kinds())

"""The greedy bot's evaluation context (``Ctx``): per game and seat, what it knows and caches
between decisions: the view, its weights, the site evaluators (``sites/``), the card prices
(``cards.CardValues``), the free sites' tables and every ship's evaluation.

A ship's expected value mixes its best destination for me (share ``optimism`` x 2/players)
with where an opponent would send it (the worst for me in 2-player games; half worst, half
average with more players, who chase their own points); ``_ship`` works out, per ship, that
value, the best slot for my stone and the best sail, cached by the ship's contents.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from operator import is_
from typing import TYPE_CHECKING

from imhotep_stats.bots.greedy.sites import make_eval
from imhotep_stats.bots.greedy.sites.base import POSITIONS
from imhotep_stats.bots.weights import SITE_KEYS
from imhotep_stats.engine.game import PLACE, SAIL, ship_minimum

if TYPE_CHECKING:
    from imhotep_stats.bots.greedy.sites.base import SiteEval
    from imhotep_stats.engine.view import View

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
    sailable = m >= ship_minimum(size)
    return owners, m, size, sailable, tuple((j, tuple(ks)) for j, ks in groups), idx


# Compiled, a cdef class (context.pxd): an attribute added here must be declared there.
class Ctx:
    """Per game and seat: the view, the site evaluators, caches. Built at first sight.

    ``begin`` runs at every decision and notices, from a cheap key, when anything a site
    table depends on may have changed (a sail, a card taken or played, a new round); only
    then are the site keys checked and the per-ship cache dropped.
    """

    def __init__(self, weights: Mapping[str, float], view: View,
                 card_values: Callable[[Ctx], object]):
        """``card_values(ctx)`` makes the card pricer (``cards.CardValues``: passed in, as it
        reads this context)."""
        self.view = view
        self.get = get = view.get
        self.me = view.me
        self.n = get("n")
        self.rounds = get("rounds")
        self.w = weights
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
        # The counters and ships the view hands out are snapshots (tuples): read at every
        # decision (``begin``).
        self.sled = self.quarry = self.sled_cap = self.slots = self.dock = self.used = ()
        self.get_stones = get("get_stones")
        self.round = 0
        self.sailed = 0
        self.ekey: tuple = ()
        self.epoch = 0
        self.ckey: tuple = ()
        self.free: list[int] = []
        self.free_tabs: list[list[list[float]]] = []
        self._free_epoch = -1  # the epoch whose tables free_tabs holds
        self.cards = card_values(self)
        self.evals: list[SiteEval] = []
        self.sides = get("sides")
        self.evals = [make_eval(self, i, self.sides[i]) for i in range(5)]
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
        view = self.view  # (compiled: a typed View, counters a C method)
        self.sled, self.quarry, self.sled_cap, self.dock, self.used, taken, discard, \
            self.slots, rnd, sailed = view.counters()  # one call, no attribute look-ups
        key = (rnd, sailed, sum(taken), len(discard))
        vol = self.volatile
        if vol:
            key += (vol[0].key(),) if len(vol) == 1 else tuple([ev.key() for ev in vol])
        old = self.ekey
        if key == old:
            return
        self.ekey = key
        if rnd != self.round:  # a new round: new ships
            get = self.get
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
            for i in free:  # a loop, not any(map(...)): C indexes when compiled
                if used[i]:
                    break
            else:
                return  # none of them taken since
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
        d = DPOW[k] if k < 32 else DECAY**k  # (a C double compiled: no float object)
        return self.stone_now * d

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
                None, (), slots
        if m == 0:
            g = (self._slope or self.slope())[1]
            return 0.0, [0.0] * len(tabs), [g] * size, g, PLACE_FIRST[s][size], None, \
                (), slots
        # my objective per free site (its stones' entries there, added in unloading order),
        # and in the same pass the best and worst site for me (the first of equals), how many
        # equal the best, and the sum (max(), min(), sum() and count() would be four passes)
        k = len(tabs)
        base = []
        mx = mn = tot = 0.0
        x = y = cnt = 0
        for i in range(k):
            t = tabs[i]
            ix = idx[0]  # (compiled: a C index, a list's item read inline)
            v = t[ix]
            for j in range(1, m):
                ix = idx[j]
                v += t[ix]
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
                return e, base, [], None, (), best_sail, sails, slots
        else:
            sails, best_sail = (), None
        if not groups:
            return e, base, [None] * size, None, (), best_sail, sails, slots
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
        return e, base, (hi, lo), bp, acts, best_sail, sails, slots

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



"""Site evaluators: what a stone delivered to a site is worth, per player.

The greedy bot asks one question over and over: "a stone of player o is unloaded j-th at
site i now: how many points does each player gain, now or expected by the game's end?"
Each site side answers it from the public site state (``view.site(i)``, never ``_hidden``
attributes) with a cheap model, as tables ``own[o][j]`` (the owner's points) and
``side[o][j]`` (what it does to the others), rebuilt only when the site's state changes
(``key``) and shared by the bots of a game when they do not depend on a bot's weights. A
ship's value at a site is then the sum of its stones' entries, a few list look-ups
(DESIGN.md "Speed is a feature"). Stones of one batch are priced independently: a stone's
entry depends on its position in the unloading order, not on the others' owners.

Choices a stone's owner makes on arrival (which pyramid, which mound space...) are modelled
as that owner taking the best option for themselves; the same evaluator scores those
choices when the bot has to make them (``decide``).

The bot turns these into one number, its objective: own points times the site's weight,
minus ``deny`` times the opponents' mean (``obj[o * POSITIONS + j]``: flat, so that a
ship's value at a site is one C-level look-up of its stones' entries).
"""

from __future__ import annotations

import math
import weakref
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from imhotep_stats.bots.greedy import Ctx

POSITIONS = 4  # a ship unloads at most 4 stones
# Raw tables are pure functions of public site state and the evaluator's key, so the bots
# of one game share them: site object -> {key: _table(build)} (a few recent keys).
_SHARED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# ... and for evaluators whose build depends on the key and board data alone, all games:
# (evaluator class, players, SiteEval.static()) -> {key: _table(build)}.
_STATIC: dict[tuple, dict] = {}


class UnsupportedSide(NotImplementedError):
    """The bots have no evaluator for a site side (a new side must add one here)."""


# ----------------------------------------------------------------------------- helpers
def group_value(size: int, table, extra: int) -> int:
    if size <= 0:
        return 0
    return table[size - 1] if size <= len(table) else table[-1] + extra * (size - len(table))


def logistic_table(sigma: float, span: int = 64) -> list[float]:
    """P(a player ahead by d ends above), d = -span..span, indexed by d + span."""
    out = []
    for d in range(-span, span + 1):
        x = d / sigma
        out.append(1.0 if x > 30 else 0.0 if x < -30 else 1.0 / (1.0 + math.exp(-x)))
    return out


def rank_estimate(heights, table, logit: list[float], minimum: int = 1) -> list[float]:
    """Expected rank points for each player when the final heights are uncertain.

    Pairwise "p ends above q" probabilities are logistic in the height gap (``logit``,
    from ``logistic_table``, wider the more of the game is left); the expected number of
    players beaten gives a fractional rank, and the table is interpolated there. Smooth,
    so one more stone is worth something even when it does not change the order yet.
    """
    n = len(heights)
    out = [0.0] * n
    last = len(table) - 1
    span = len(logit) // 2
    for p in range(n):
        hp = heights[p] + span
        beaten = 0.0
        for q in range(n):
            if q != p:
                beaten += logit[hp - heights[q]]
        pos = n - 1 - beaten
        i = int(pos)
        frac = pos - i
        a = table[i] if i <= last else 0
        b = table[i + 1] if i + 1 <= last else 0
        v = a + (b - a) * frac
        if heights[p] < minimum:  # must still deliver to score at all
            v *= 0.5
        out[p] = v
    return out


def card_key(ctx: Ctx) -> tuple:
    """The part of a site's key for tables built from card values: the game's card prices
    (``CardBook``), and my seat if my weights make my prices mine alone (then the table is
    mine; with all card weights 1 it is the same for every bot of the game, and shared)."""
    cards = ctx.cards
    return cards.book.key, -1 if cards.unit else ctx.me


def _table(own, side) -> tuple:
    """A build, flattened (index ``o * POSITIONS + j``): (own, own flat, side totals flat,
    per seat q the side points to q flat); side[o][j] = ((seat, points), ...)."""
    flat = [row[j] for row in own for j in range(POSITIONS)]
    if side is None:
        return own, flat, None, None
    n = len(own)
    tot = []
    vec = [[0.0] * (n * POSITIONS) for _ in range(n)]
    x = 0
    for o in range(n):
        for cell in side[o]:  # positions j = 0..3: x = o * POSITIONS + j
            t = 0
            for q, d in cell:
                t += d
                vec[q][x] += d
            tot.append(t)
            x += 1
    return own, flat, tot, vec


# Compiled, a cdef class (sitevals.pxd): an attribute added here must be declared there.
class SiteEval:
    """Base: the table, the objective, no choices. Subclasses fill ``build``."""

    source = ""  # weight key of the site's points
    shared = True  # build() depends only on public state and key(): share across bots
    kinds: tuple[str, ...] = ()  # decision kinds this site asks (handled by ``decide``)

    def __init__(self, ctx: Ctx, index: int):
        self.ctx = ctx
        self.index = index
        self.site = ctx.view.site(index)
        self.n = ctx.n
        self.me = ctx.me
        self.wme = ctx.w[self.source] if self.source else 1.0
        self._key: object = None
        self._epoch = -1
        self._memo: dict | None = None
        self._coefs: list[float] | None = None
        self.obj: list[float] = []  # [owner * POSITIONS + position] -> my objective
        self.raw: list[list[float]] = []  # [owner][position] -> the owner's own points

    def key(self) -> object:
        """Anything that changes whenever this site's value model changes."""
        raise NotImplementedError

    memo_size = 8  # shared tables kept per site (a few recent keys)

    def static(self) -> object:
        """None, or (for a shared build that depends on ``key()`` and board data alone) that
        board data: then the tables are shared by all games with it (memo_size of them)."""
        return None

    def ensure(self) -> SiteEval:
        """Tables up to date for this epoch (checked lazily: a site whose dock is taken is
        often not looked at again until the next round)."""
        if self._epoch != self.ctx.epoch:
            self._epoch = self.ctx.epoch
            self.refresh()
        return self

    def refresh(self) -> bool:
        """Rebuild the tables if the site changed; True if it did."""
        k = self.key()
        if k == self._key:
            return False
        self._key = k
        if self.shared:
            memo = self._memo
            if memo is None:
                static = self.static()
                if static is not None:  # shared by all games on this board
                    memo = _STATIC.setdefault((type(self), self.n, static), {})
                else:
                    memo = _SHARED.get(self.site)
                    if memo is None:
                        memo = _SHARED[self.site] = {}
                self._memo = memo
            hit = memo.get(k)
            if hit is None:
                if len(memo) > self.memo_size:
                    memo.clear()
                hit = memo[k] = _table(*self.build())
        else:
            hit = _table(*self.build())
        own, flat, tot, sidev = hit
        coefs = self._coefs
        if coefs is None:  # per entry: the weight of its owner's points in my objective
            me, cop, wme = self.me, self.ctx.cop, self.wme
            coefs = self._coefs = [wme if o == me else cop
                                   for o in range(self.n) for _ in range(POSITIONS)]
        if tot is None:
            m = len(coefs)
            if len(flat) != m:
                raise ValueError("refresh: tables of different lengths")
            obj = []
            for i in range(m):  # typed doubles when compiled (map(mul) calls mul per entry)
                c = coefs[i]
                a = flat[i]
                obj.append(c * a)
            self.obj = obj
        else:  # mine (or theirs), minus deny x what it does to the others, plus what it does to me
            cop = self.ctx.cop
            dw = self.wme - cop
            vec = sidev[self.me]
            m = len(coefs)
            if len(flat) != m or len(tot) != m or len(vec) != m:
                raise ValueError("refresh: tables of different lengths")
            obj = []
            for i in range(m):  # an explicit loop: typed doubles when compiled (sitevals.pxd)
                c = coefs[i]
                a = flat[i]
                b = tot[i]
                d = vec[i]
                obj.append(c * a + cop * b + dw * d)
            self.obj = obj
        self.raw = own
        return True

    def build(self) -> tuple[list[list[float]], list | None]:
        """(own, side): own[o][j] = points the owner of a stone unloaded j-th here gets;
        side[o][j] = [(seat, points), ...] what it does to others (None: nothing)."""
        raise NotImplementedError

    def batch_obj(self, owners) -> float:
        """My objective for stones of ``owners`` unloaded here in this order."""
        obj = self.ensure().obj
        return sum([obj[o * POSITIONS + j] for j, o in enumerate(owners)])

    def decide(self, kind: str, view, legal: list) -> list[float]:
        """Scores of the legal options at one of this site's own decisions."""
        raise NotImplementedError(kind)


# ----------------------------------------------------------------------------- market
# Compiled, a cdef class (sitevals.pxd): an attribute added here must be declared there.
class MarketAEval(SiteEval):
    """4.1: owners pick in unloading order, each the card worth most to them. The j-th
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


# ----------------------------------------------------------------------------- pyramid
class PyramidAEval(SiteEval):
    """5.1: fixed fill order, points at once."""

    source = "pyramid"

    def __init__(self, ctx, index):
        super().__init__(ctx, index)
        self.points = tuple(self.site.points)
        self.overflow = self.site.overflow

    def key(self):
        return len(self.site.owners)

    def build(self):
        i = len(self.site.owners)
        pts = [self.points[i + j] if i + j < len(self.points) else self.overflow
               for j in range(POSITIONS)]
        return [pts] * self.n, None


# ----------------------------------------------------------------------------- temple
class TempleAEval(SiteEval):
    """6.1: a visible stone scores each round end until a stone lands on its column.

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

    def key(self):
        return (len(self.site.owners), self.ctx.round)

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


# ----------------------------------------------------------------------------- burial
# Compiled, a cdef class (sitevals.pxd): an attribute added here must be declared there.
class BurialAEval(SiteEval):
    """7.1: groups of one colour, scored at game end. A stone is worth the growth of the
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

    def key(self):
        return len(self.site.owners)

    def _find(self, i: int) -> int:
        parent = self.parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def _extend(self) -> None:
        """Union-find over the stones placed so far, extended incrementally."""
        owners, rows = self.site.owners, self.rows
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

    def gain(self, i: int, o: int) -> float:
        """Points o gains by a stone at index i (neighbours already on the board only)."""
        seq, rows, n0 = self.site.owners, self.rows, len(self.site.owners)
        roots = set()
        for nb in (i - rows, i - 1 if i % rows else -1):
            if 0 <= nb < n0 and seq[nb] == o:
                roots.add(self._find(nb))
        total, before = 1, 0
        for r in roots:
            s = self.size[r]
            total += s
            before += group_value(s, self.table, self.extra)
        g = group_value(total, self.table, self.extra) - before
        # open neighbours (below, right) its owner may fill later: a small option value
        return g + 0.35 * (i % rows != rows - 1) + 0.35

    def build(self):
        self._extend()
        n0 = len(self.site.owners)
        return [[self.gain(n0 + j, o) for j in range(POSITIONS)] for o in range(self.n)], None


# ----------------------------------------------------------------------------- obelisk
# Compiled, a cdef class (sitevals.pxd): an attribute added here must be declared there.
class ObeliskAEval(SiteEval):
    """8.1: game-end points by height rank, estimated smoothly (see ``rank_estimate``)."""

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
        logit = _logit(0.35 + 0.55 * max(left, 0))
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


_LOGITS: dict[float, list[float]] = {}


def _logit(sigma: float) -> list[float]:
    t = _LOGITS.get(sigma)
    if t is None:
        t = _LOGITS[sigma] = logistic_table(sigma)
    return t


# ----------------------------------------------------------------------------- registry
EVALS: dict[tuple[int, str], type[SiteEval]] = {
    (0, "A"): MarketAEval,
    (1, "A"): PyramidAEval,
    (2, "A"): TempleAEval,
    (3, "A"): BurialAEval,
    (4, "A"): ObeliskAEval,
}


def make_eval(ctx: Ctx, index: int, side: str) -> SiteEval:
    try:
        cls = EVALS[(index, side)]
    except KeyError:
        from imhotep_stats.rules.board import SITES

        raise UnsupportedSide(
            f"the scripted bots have no evaluator for {SITES[index]} side {side}: "
            "add one to imhotep_stats/bots/sitevals.py"
        ) from None
    return cls(ctx, index)


def site_kinds() -> dict[str, tuple[int, str]]:
    """Decision kinds the site evaluators handle -> (site index, side) that asks them."""
    out: dict[str, tuple[int, str]] = {}
    for key, cls in EVALS.items():
        for k in cls.kinds:
            out.setdefault(k, key)
    return out

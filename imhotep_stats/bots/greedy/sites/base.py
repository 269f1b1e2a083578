"""The site evaluators' contract (``SiteEval``) and the helpers they share.

What a stone delivered to a site is worth, per player.

The greedy bot asks one question over and over: "a stone of player o is unloaded j-th at
site i now: how many points does each player gain, now or expected by the game's end?"
Each site side answers it from what a seat sees of the site (``view.site(i)``, the side's
read-only window, engine/seen.py: its lists are tuples, snapshots to read once per pricing)
with a cheap model, as tables ``own[o][j]`` (the owner's points) and
``side[o][j]`` (what it does to the others), rebuilt only when the site's state changes
(``key``) and kept by each bot (shared across bots and games only when built from the key and
board data alone, ``static``). A
ship's value at a site is then the sum of its stones' entries, a few list look-ups
(docs/engine.md, Architecture: speed). Stones of one batch are priced independently: a stone's
entry depends on its position in the unloading order, not on the others' owners.

Choices a stone's owner makes on arrival (which pyramid, which mound space...) are modelled
as that owner taking the best option for themselves; the same evaluator scores those
choices when the bot has to make them (``decide``).

The bot turns these into one number, its objective: own points times the site's weight,
minus ``deny`` times the opponents' mean (``obj[o * POSITIONS + j]``: flat, so that a
ship's value at a site is one C-level look-up of its stones' entries).

Each site's four sides live in the module named like the engine's (``market``, ``pyramid``,
``temple``, ``burial_chamber``, ``obelisk``). Rewards that are not points are priced by the
bot's card and stone values (``cards.CardValues``, ``Ctx.stones_worth``), so those tables are
rebuilt at every refresh (``shared = False``); the markets' tables, built from card values
alone, are memoised by the state of the bot's card prices (``card_key``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from imhotep_stats.bots.greedy.context import Ctx

POSITIONS = 4  # a ship unloads at most 4 stones
# Raw tables are kept per evaluator (one bot, one site: {key: _table(build)}, a few recent
# keys): a build reads the bot's own card prices and state beyond its key, so tables shared
# by a game's bots made one bot's choices depend on its table-mates (tests/test_table_mates.py).
# Evaluators whose build depends on the key and board data alone (``static()``) share them
# across bots and games, keyed on all of it: (evaluator class, players, static()) -> tables.
_STATIC: dict[tuple, dict] = {}


# ----------------------------------------------------------------------------- helpers


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
    """The part of a site's key for tables built from card values: the state of my card
    prices (``CardBook``), and my seat if my weights make my prices mine alone."""
    cards = ctx.cards
    return cards.book.key, -1 if cards.unit else ctx.me


def _table(own, side) -> tuple:
    """A build, flattened (index ``o * POSITIONS + j``): (own, own flat, side totals flat,
    per seat q the side points to q flat); side[o][j] = ((seat, points), ...)."""
    flat = []
    for row in own:  # explicit loops: a C index when compiled (a comprehension calls range)
        for j in range(POSITIONS):
            flat.append(row[j])
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


# Compiled, a cdef class (base.pxd): an attribute added here must be declared there.
class SiteEval:
    """Base: the table, the objective, no choices. Subclasses fill ``build``."""

    source = ""  # weight key of the site's points
    shared = True  # build() depends only on public state and key(): memoised by key
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
                else:  # this bot's own
                    memo = {}
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
            for i in range(m):  # an explicit loop: typed doubles when compiled (base.pxd)
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


_LOGITS: dict[float, list[float]] = {}


def logits(sigma: float) -> list[float]:
    t = _LOGITS.get(sigma)
    if t is None:
        t = _LOGITS[sigma] = logistic_table(sigma)
    return t


def rounds_left(ctx) -> int:
    """Round ends still to come, this round's included."""
    return max(ctx.rounds - ctx.round + 1, 0)


def card_keep(ev: SiteEval, view, legal) -> list[float]:
    """market_keep / temple_keep: the card worth most to me."""
    value = ev.ctx.cards.value
    me = ev.me
    return [value(me, a.args[0]) for a in legal]



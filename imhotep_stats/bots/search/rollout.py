"""Rollout policies: how a search plays a determinized game on from a leaf of its tree.

``random``: uniform over the legal actions (the cheapest). ``greedy``: every seat plays the
greedy bot (much slower, much better informed). ``mast_rollout``: the random rollout
steered by one search's :class:`MastTable` (the ``-mast`` switch). All draw only from the
searching bot's stream, so a search is deterministic from its seed.
"""

from __future__ import annotations

import random

from imhotep_stats.bots.greedy import GreedyBot
from imhotep_stats.engine.game import Game, apply
from imhotep_stats.engine.kinds import TURN
from imhotep_stats.engine.options import apply_option, option_at, option_count
from imhotep_stats.engine.view import View

ROLLOUTS = ("random", "greedy", "kinds")


def random_rollout(g: Game, rng: random.Random, limit: int) -> None:
    """Play uniformly random legal actions until the game ends or ``limit`` decisions (by
    index: a turn's option list is not built, nor its choice checked)."""
    draw = rng.random
    while not g.over and limit:
        x = draw()
        apply_option(g, int(x * option_count(g)))
        limit -= 1


UNTRIED = 1.0  # an action not yet in the table counts as the best reward there is


class MastTable:
    """MAST (Move-Average Sampling Technique, Finnsson & Bjornsson 2008) for one search: the
    mean reward each seat got after playing an action in this search's rollouts, keyed by the
    action itself (interned: an identity hash). ``epsilon``: the share of a rollout's
    decisions drawn uniformly; the others take the action with the best mean for the seat to
    move (ties: the first in the option list).
    Made afresh by each search (``tree.search``): nothing carries over between decisions or
    between bots. Compiled, a cdef class (rollout.pxd)."""

    __slots__ = ("epsilon", "means", "trail")

    def __init__(self, players: int, epsilon: float) -> None:
        self.epsilon = epsilon
        self.means: list = [{} for _ in range(players)]  # per seat: action -> [mean, plays]
        self.trail: list = []  # this rollout's choices: seat, action, seat, action, ...

    def learn(self, credit: list) -> None:
        """Credit every choice of the rollout just played with its seat's reward."""
        trail = self.trail
        for j in range(0, len(trail), 2):
            p = trail[j]
            r = credit[p]
            means = self.means[p]
            s = means.get(trail[j + 1])
            if s is None:
                means[trail[j + 1]] = [r, 1]
            else:
                s[1] += 1
                s[0] += (r - s[0]) / s[1]
        self.trail = []


def mast_rollout(g: Game, rng: random.Random, limit: int, table: MastTable) -> None:
    """``random_rollout`` with ``table``'s epsilon-greedy choice; the choices go on its trail
    for ``table.learn`` (forced decisions take no draw and no entry)."""
    draw = rng.random
    epsilon = table.epsilon
    trail = table.trail
    while not g.over and limit:
        count = option_count(g)
        i = 0
        if count > 1:
            p = g.to_move
            if draw() < epsilon:
                i = int(draw() * count)
                a = option_at(g, i)
            else:
                means = table.means[p]
                a = None
                top = -1.0
                for j in range(count):
                    b = option_at(g, j)
                    s = means.get(b)
                    v = UNTRIED if s is None else s[0]
                    if v > top:
                        top = v
                        i = j
                        a = b
            trail.append(p)
            trail.append(a)
        apply_option(g, i)
        limit -= 1


def kinds_rollout(g: Game, rng: random.Random, limit: int) -> None:
    """A kind of action (get, place, sail, a card...) uniformly, then one of its actions
    uniformly: a turn has a dozen places and sails for each get, and a uniform pick over
    actions almost never takes stones."""
    draw = rng.random
    while not g.over and limit:
        opts = g.options
        if g.kind_code == TURN and len(opts) > 1:
            groups: dict = {}
            for x in opts:
                k = x.kind
                if k in groups:
                    groups[k].append(x)
                else:
                    groups[k] = [x]
            pick = list(groups.values())[int(draw() * len(groups))]
            apply(g, pick[int(draw() * len(pick))])
        else:
            apply(g, opts[int(draw() * len(opts))])
        limit -= 1


class GreedyRollout:
    """Every seat plays the greedy bot (one shared instance; its per-game caches are keyed by
    view, so each rollout game gets its own)."""

    def __init__(self) -> None:
        self.bot = GreedyBot()

    def __call__(self, g: Game, rng: random.Random, limit: int) -> None:
        views = [View(g, p) for p in range(g.n)]
        choose = self.bot.choose
        while not g.over and limit:
            opts = g.options
            apply(g, opts[0] if len(opts) == 1 else choose(views[g.to_move], tuple(opts), rng))
            limit -= 1
        self.bot._ctx.clear()  # the rollout game is gone: drop its caches


def make_rollout(name: str):
    if name == "random":
        return random_rollout
    if name == "greedy":
        return GreedyRollout()
    if name == "kinds":
        return kinds_rollout
    raise ValueError(f"rollout: expected one of {', '.join(ROLLOUTS)}, got {name!r}")

"""Rollout policies: how a search plays a determinized game on from a leaf of its tree.

``random``: uniform over the legal actions (the cheapest). ``greedy``: every seat plays the
greedy bot (much slower, much better informed). Both draw only from the searching bot's
stream, so a search is deterministic from its seed.
"""

from __future__ import annotations

import random

from imhotep_stats.bots.greedy import GreedyBot
from imhotep_stats.engine.game import Game, apply
from imhotep_stats.engine.kinds import TURN
from imhotep_stats.engine.options import apply_drawn
from imhotep_stats.engine.view import View

ROLLOUTS = ("random", "greedy", "kinds")


def random_rollout(g: Game, rng: random.Random, limit: int) -> None:
    """Play uniformly random legal actions until the game ends or ``limit`` decisions (by
    draw: a turn's option list is not built, nor its choice checked)."""
    draw = rng.random
    while not g.over and limit:
        apply_drawn(g, draw())
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

"""Rollout policies: how a search plays a determinized game on from a leaf of its tree.

``random``: uniform over the legal actions (the cheapest). ``greedy``: every seat plays the
greedy bot (much slower, much better informed). Both draw only from the searching bot's
stream, so a search is deterministic from its seed.
"""

from __future__ import annotations

import random

from imhotep_stats.bots.greedy import GreedyBot
from imhotep_stats.engine.game import Game, apply
from imhotep_stats.engine.options import apply_drawn
from imhotep_stats.engine.stream import Stream
from imhotep_stats.engine.view import View

ROLLOUTS = ("random", "greedy")


def random_rollout(g: Game, rng: random.Random, limit: int) -> None:
    """Play uniformly random legal actions until the game ends or ``limit`` decisions (by
    draw: a turn's option list is not built, nor its choice checked)."""
    s = rng if type(rng) is Stream else None  # a search's Stream: each draw a C call
    while not g.over and limit:
        apply_drawn(g, s.random() if s is not None else rng.random())
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
    raise ValueError(f"rollout: expected one of {', '.join(ROLLOUTS)}, got {name!r}")

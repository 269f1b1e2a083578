"""The bot protocol: ``choose(view, legal, rng) -> action`` (``legal``: the legal actions, a tuple in
the game's order). Bots never mutate the game."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from imhotep_stats.engine.actions import Action
    from imhotep_stats.engine.view import View


class Bot(Protocol):
    name: str

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action: ...


class RandomBot:
    """Uniform over the legal actions, from the bot's own random stream."""

    name = "random"

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        return uniform(legal, rng)


def uniform(legal: Sequence[Action], rng: random.Random) -> Action:
    """``legal[int(rng.random() * len(legal))]`` (compiled, base.pxd: the product and its
    truncation in C, as Python's float product and ``int`` give them)."""
    x = rng.random()
    i = int(x * len(legal))
    return legal[i]

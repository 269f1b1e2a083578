"""The bot protocol: ``choose(view, legal, rng) -> action`` (``view``: what the seat to move
may see, engine/view.py; ``legal``: the legal actions, a tuple in the game's order; ``rng``:
the seat's own random stream). Bots never mutate the game."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from imhotep_stats.engine.actions import Action


class Bot(Protocol):
    name: str

    def choose(self, view: object, legal: Sequence[Action], rng: random.Random) -> Action: ...

"""Bots get the turn's legal actions as a tuple, never the game's own list."""

from __future__ import annotations

import random

import pytest

from imhotep_stats.engine.game import Game
from imhotep_stats.engine.play import play_game


def test_bots_get_the_legal_actions_as_a_tuple():
    seen = []

    class Choose:
        def choose(self, view, legal, rng):
            seen.append(type(legal))
            with pytest.raises(AttributeError):
                legal.append(legal[0])  # a bot cannot grow the game's list
            return legal[int(rng.random() * len(legal))]

    g = Game(2, "B-B-B-B-B", seed=4)
    play_game(g, [Choose(), Choose()], [random.Random(p) for p in range(2)])
    assert g.over and seen and set(seen) == {tuple}

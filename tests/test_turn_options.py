"""The turn's options by count and index (what the random rollout draws from) are the legal
list, action for action; bots get that list as a tuple, never the game's own."""

from __future__ import annotations

import random

import pytest

from imhotep_stats.bots.search.rollout import random_rollout
from imhotep_stats.engine.clone import clone
from imhotep_stats.engine.game import Game, apply, play_seats
from imhotep_stats.engine.options import drawn_option, option_at, option_count


@pytest.mark.parametrize("sides", ["A-A-A-A-A", "B-B-B-B-B", "C-C-C-C-C", "D-D-D-D-D",
                                   "D-C-B-A-D"])
@pytest.mark.parametrize("players", [2, 4])
def test_count_and_index_give_the_legal_list(sides, players):
    for seed in range(3):
        g = Game(players, sides, seed=seed, prophecies=seed == 2)
        rng = random.Random(seed)
        while not g.over:
            c = clone(g)  # before g's options are read: a turn's list not built yet
            n = option_count(c)
            by_index = [option_at(c, i) for i in range(n)]
            assert by_index == g.options, (g.kind, g.decisions)
            for x in (0.0, 0.4999, 0.9999999):  # a draw's pick: the count and index in one
                assert drawn_option(c, x) is g.options[int(x * n)], (g.kind, g.decisions, x)
            apply(g, g.options[int(rng.random() * len(g.options))])


def test_the_rollout_by_index_plays_the_game_apply_plays():
    for seed in range(5):
        g = Game(3, "C-D-A-B-C", seed=seed, expansion=True)
        ref = clone(g)
        random_rollout(g, random.Random(seed), -1)
        rng = random.Random(seed)
        while not ref.over:
            opts = ref.options
            apply(ref, opts[int(rng.random() * len(opts))])
        assert g.over and g.events == ref.events and g.decisions == ref.decisions


def test_bots_get_the_legal_actions_as_a_tuple():
    seen = []

    def choose(view, legal, rng):
        seen.append(type(legal))
        with pytest.raises(AttributeError):
            legal.append(legal[0])  # a bot cannot grow the game's list
        return legal[int(rng.random() * len(legal))]

    g = Game(2, "B-B-B-B-B", seed=4)
    play_seats(g, [(choose, None, random.Random(p)) for p in range(2)], None)
    assert g.over and seen and set(seen) == {tuple}


def test_the_index_covers_every_blue_card_play():
    """Count and index reach the blue cards' plays (a turn with a blue card held): each of
    the six is offered by index in these games, so the test above holds them to the list."""
    from imhotep_stats.engine.cards import BLUE

    offered = set()
    for sides in ("C-C-C-C-C", "D-C-B-A-D"):
        for seed in range(3):
            g = Game(2, sides, seed=seed)
            rng = random.Random(seed)
            while not g.over:
                if g.kind == "turn" and g.blue[g.to_move]:
                    c = clone(g)
                    offered.update(option_at(c, i).args[0] for i in range(option_count(c))
                                   if option_at(c, i).kind == "play")
                apply(g, g.options[int(rng.random() * len(g.options))])
    assert offered == set(BLUE)

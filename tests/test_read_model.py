"""The read model (docs/engine.md, "The read model"): a seat's view hands out snapshots and
read-only site views; nothing it gives can change the game or lead to a hidden part."""

from __future__ import annotations

import random

import pytest

from imhotep_stats.engine.game import Game, apply
from imhotep_stats.engine.view import PUBLIC, View


def _mid_game(sides: str, seed: int = 3, decisions: int = 25) -> Game:
    g = Game(3, sides, seed=seed, prophecies=True)
    rng = random.Random(seed)
    while g.decisions < decisions:
        apply(g, g.options[int(rng.random() * len(g.options))])
    return g


def test_the_games_lists_come_as_snapshots():
    g = _mid_game("A-A-A-A-A")
    v = View(g, 0)
    sled = v.get("sled")
    assert sled == tuple(g.sled) and v.sled == sled
    with pytest.raises(TypeError):
        sled[1] = 99  # the example: it used to change the game
    assert v.get("ship_slots") == tuple(tuple(s) for s in g.ship_slots)
    assert v.discard == tuple(g.discard)
    for name in PUBLIC - {"options"}:
        x = v.get(name)
        assert type(x) not in (list, dict), f"view.get({name!r}) hands out a live {type(x)}"


@pytest.mark.parametrize("sides", ["B-C-A-D-A", "D-B-C-C-B", "C-D-B-B-C", "A-A-D-A-D"])
def test_a_site_view_is_read_only_and_hides_its_hidden_parts(sides):
    g = _mid_game(sides)
    v = View(g, g.to_move)
    for i, site in enumerate(g.sites):
        sv = v.site(i)
        assert sv is View(g, 1).site(i)  # one per site and game, shared by the seats
        for name, value in vars(site).items():
            if name.startswith("_"):
                with pytest.raises(AttributeError):
                    getattr(sv, name)
                continue
            got = getattr(sv, name)
            assert type(got) not in (list, dict)
            if type(value) is list:
                assert list(got) == [tuple(x) if type(x) is list else x for x in value]
        with pytest.raises(AttributeError):
            sv.index = 3
        assert sv.stones() == site.stones()
        assert [sv.stones_of(p) for p in range(3)] == [site.stones_of(p) for p in range(3)]
    # the prophecies' state is read-only too
    state = v.get("prophecy")
    assert state.gods == g.prophecy.gods
    with pytest.raises(AttributeError):
        state.left = [0, 0, 0]

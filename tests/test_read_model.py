"""The read model (docs/engine.md, "The read model"): a seat's view and its sites' windows
(engine/view.py, from the core's seen) hand out nothing that can change the game, show
no hidden part, and show every site as it is now."""

from __future__ import annotations

import random
from types import MappingProxyType

import pytest

from imhotep_stats.engine.game import Game, apply
from imhotep_stats.engine.view import PRINTED, PUBLIC, View

ALL_SIDES = ("A-A-A-A-A", "B-B-B-B-B", "C-C-C-C-C", "D-D-D-D-D")
# what a window shows beside the site's own fields: the queries
QUERIES = {"stones", "stones_of", "cells"}


def _mid_game(sides: str, decisions: int, seed: int = 3, players: int = 3) -> Game:
    g = Game(players, sides, seed=seed, prophecies=True)
    rng = random.Random(seed)
    while g.decisions < decisions and not g.over:
        apply(g, g.options[int(rng.random() * len(g.options))])
    return g


def snapshot(g: Game) -> dict:
    """The whole state of a game as the core holds it (anything written is sent first)."""
    return g.core.export()


def shown(obj) -> dict:
    """Every field a window shows (the state, then the printed data), with its value."""
    return dict(obj.fields())


def _reached(value, depth: int = 0):
    """Everything reachable from ``value`` through tuples and read-only mappings."""
    yield value
    if depth > 4:
        return
    if isinstance(value, tuple):
        for x in value:
            yield from _reached(x, depth + 1)
    elif isinstance(value, MappingProxyType):
        for k, x in value.items():
            yield from _reached(k, depth + 1)
            yield from _reached(x, depth + 1)


def _deep(v):
    """``v`` with every list and tuple in it a tuple (to compare with what a window shows)."""
    if isinstance(v, list | tuple):
        return tuple(_deep(x) for x in v)
    return v


def test_a_view_hands_out_nothing_that_changes_the_game():
    for sides in ALL_SIDES:
        g = _mid_game(sides, 40)
        before = snapshot(g)
        v = View(g, g.to_move)
        with pytest.raises(TypeError):
            v.get("sled")[1] = 99
        with pytest.raises(TypeError):
            v.ship_slots[0][0] = 1
        for name in sorted(PUBLIC):
            value = v.get(name)
            for x in _reached(value):
                assert not isinstance(x, list | dict | set), f"{sides}: view.{name} hands out {x!r}"
        v.hand["statue"] = 9  # a copy: mine to change
        v.hand_of(0)["statue"] = 9
        assert snapshot(g) == before


def test_a_site_window_hands_out_nothing_that_changes_the_game():
    for sides in ALL_SIDES:
        g = _mid_game(sides, 60)
        before = snapshot(g)
        v = View(g, 0)
        for i in range(5):
            w = v.site(i)
            for name, value in shown(w).items():
                for x in _reached(value):
                    assert not isinstance(x, list | dict | set), \
                        f"{w!r}.{name} hands out {type(x).__name__} {x!r}"
            with pytest.raises(AttributeError):
                w.index = 3  # nothing to set either
        assert snapshot(g) == before


def test_a_window_shows_its_site_as_it_is_now():
    """Every state field a window shows is its site's field of that name (frozen), read again
    after moves: the windows are made once and follow the game."""
    for sides in (*ALL_SIDES, "D-C-B-A-C", "B-D-A-C-B"):
        g = _mid_game(sides, 0, players=4)
        v = View(g, 1)
        windows = [v.site(i) for i in range(5)]
        rng = random.Random(5)
        checked = set()
        while not g.over:
            for i, w in enumerate(windows):
                site = g.sites[i]
                assert v.site(i) is w
                printed = PRINTED[(i, site.side)]  # the side's board data (site.data)
                for name, value in shown(w).items():
                    if name in ("side",):
                        assert value == site.side
                        continue
                    if name in printed or name in QUERIES:  # the queries: checked below
                        continue
                    assert value == _deep(getattr(site, name)), f"{w!r}.{name}"
                    checked.add((i, site.side, name))
                assert [w.stones_of(p) for p in range(4)] == [site.stones_of(p) for p in range(4)]
                assert w.stones() == site.stones()
            for _ in range(7):
                if not g.over:
                    apply(g, g.options[int(rng.random() * len(g.options))])
        assert len(checked) > 10


def test_no_hidden_part_is_reachable_from_the_read_model():
    """Over all sides mid-game: no window shows a hidden part (Market B's pair, D's stacks,
    Pyramid C's stack and removed tile, the Tomb's tokens), the view shows neither the deck
    nor the round cards to come, and nothing a view or window shows is the game's own object."""
    for sides in ALL_SIDES:
        g = _mid_game(sides, 50)
        hidden = {name for site in g.sites for name in site.hidden()}
        hidden_ids = {id(x) for site in g.sites for x in site.hidden().values()}
        forbidden = hidden_ids | {id(g), id(g.deck), id(g.round_cards)} | {id(s) for s in g.sites}
        v = View(g, g.to_move)
        for name in ("deck", "round_cards", "deck_initial", "chance_setup"):
            with pytest.raises(AttributeError, match="not visible"):
                v.get(name)
        objs = [("view", {name: v.get(name) for name in PUBLIC})]
        objs += [(f"site {i}", shown(v.site(i))) for i in range(5)]
        for where, values in objs:
            assert not set(values) & hidden, where
            for name, value in values.items():
                assert not [x for x in _reached(value) if id(x) in forbidden], f"{where}.{name}"


def test_the_windows_show_only_public_site_fields():
    """A window shows the site's own public fields (and its side's printed data and
    queries): nothing named ``_...`` and nothing the site does not have."""
    for sides in ALL_SIDES:
        g = _mid_game(sides, 20)
        v = View(g, 0)
        for i, site in enumerate(g.sites):
            printed = PRINTED[(i, site.side)]
            for name in shown(v.site(i)):
                assert not name.startswith("_")
                if name in printed or name in QUERIES or name in ("name", "side"):
                    continue
                assert hasattr(site, name), f"{v.site(i)!r}.{name}"


@pytest.mark.parametrize("sides", ALL_SIDES)
def test_counters_are_the_properties_they_name(sides):
    # View.counters (one call for what greedy reads at every decision) reads the kept lists
    # by their index in view.LISTS: each item must be the property of its name
    for decisions in (0, 40, 90):
        g = _mid_game(sides, decisions)
        v = View(g, g.to_move)
        assert v.counters() == (v.sled, v.quarry, v.sled_cap, v.ship_dock, v.dock_used,
                                v.cards_taken, v.discard, v.ship_slots, v.round, v.sailed)

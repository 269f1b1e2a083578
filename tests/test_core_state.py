"""The core's state under the Python engine's names (src/state.rs, ``_core.Game.export``,
``seen``, ``edit``) against the Python engine while it lives: every field the core exports
is the Python game's or site's field of that name, decision by decision, over sides and seat
counts. (A differential test: it goes with the Python engine.)"""

from __future__ import annotations

import random

import pytest

from imhotep_stats.engine.core import rules as core_rules
from imhotep_stats.engine.game import Game, apply

_core = pytest.importorskip("imhotep_stats._core")

SIDES = ("A-A-A-A-A", "B-B-B-B-B", "C-C-C-C-C", "D-D-D-D-D", "D-C-B-A-C", "B-D-A-C-B", "C-A-D-B-D")
# exported beside the fields: what a window shows that the Python site holds under another name
DERIVED = {"name", "side", "stones", "stones_of"}


def _deep(v):
    """``v`` with every tuple in it a list (as the export shows it)."""
    if isinstance(v, list | tuple):
        return [_deep(x) for x in v]
    return v


def _python_game_value(g: Game, name: str):
    if name == "took":
        return [dict(t) for t in g.took]
    if name == "chance_setup":
        return {k: list(v) for k, v in g.chance_setup.items()}
    if name == "deck_size":
        return len(g.deck)
    if name == "kind":
        return g.kind
    if name == "options":
        return [str(a) for a in g.options]
    if name == "events":
        return [list(e) for e in g.events]
    if name == "prophecy":
        p = g.prophecy
        if p is None:
            return None
        return {"gods": list(p.gods), "left": list(p.left), "window_used": _deep(p.window_used),
                "placed": _deep(p.placed)}
    return _deep(getattr(g, name))


def _python_site_value(site, name: str, hidden: bool):
    if name == "stones":
        return site.stones()
    if hidden:
        return _deep(site.hidden()[name])
    return _deep(getattr(site, name))


def _compare(g: Game, core, where: str) -> int:
    e = core.export()
    checked = 0
    for part in ("game", "hidden", "flow"):
        fields = e["game"] if part == "game" else e[part]["game"]
        for name, value in fields.items():
            if part == "flow" and name in ("round_over", "skip_advance", "last_sailer"):
                assert value == getattr(g, name), f"{where}: game.{name}"
                continue
            assert value == _python_game_value(g, name), f"{where}: game.{name}"
            checked += 1
    for i, site in enumerate(g.sites):
        assert e["sites"][i]["side"] == site.side
        assert e["sites"][i]["stones_of"] == [site.stones_of(p) for p in range(g.n)], where
        for name, value in e["sites"][i].items():
            if name in DERIVED - {"stones"}:
                continue
            assert value == _python_site_value(site, name, False), f"{where}: {site.name}.{name}"
            checked += 1
        for name, value in e["hidden"]["sites"][i].items():
            assert value == _python_site_value(site, name, True), f"{where}: {site.name} hidden {name}"
            checked += 1
    return checked


@pytest.mark.parametrize("sides", SIDES)
def test_the_core_exports_the_python_games_fields_by_their_names(sides):
    players = 2 + SIDES.index(sides) % 3
    seed = 11 + SIDES.index(sides)
    g = Game(players, sides, seed=seed, prophecies=True)
    core = _core.Game(core_rules(sides), players, seed, prophecies=True)
    rng = random.Random(seed)
    checked = 0
    while not g.over:
        checked += _compare(g, core, f"{sides} decision {g.decisions}")
        i = int(rng.random() * len(g.options))
        apply(g, g.options[i])
        core.apply_index(i)
    checked += _compare(g, core, f"{sides} at the end")
    assert checked > 1000


def test_a_seat_sees_the_public_fields_and_its_own_options_only():
    g = _core.Game(core_rules("D-C-B-D-C"), 3, 5, prophecies=True)
    e = g.export()
    for seat in range(3):
        v = g.seen(seat)
        assert v["sites"] == e["sites"]
        assert "deck" not in v["game"] and "round_cards" not in v["game"]
        assert v["game"]["me"] == seat
        assert bool(v["game"]["options"]) == (seat == g.to_move)
    with pytest.raises(IndexError, match="seat 3 of a 3-player game"):
        g.seen(3)


def test_an_edit_is_checked_and_shows_in_play():
    g = _core.Game(core_rules("A-B-A-A-A"), 3, 1)
    with pytest.raises(ValueError, match=r"edit: game: sled: expected 3 items, got 2"):
        g.edit({"sled": [1, 2]})
    g.edit({"sled": [0, 0, 0], "quarry": [0, 5, 5]})
    g.refresh_turn()
    assert [k for k, _ in g.options] == ["pass"]
    g.deliver(1, 2)  # Pyramid B: the owner picks the pyramid
    assert (g.kind, g.to_move) == ("pyramid_choice", 2)
    assert g.option_texts == ["pyramid left", "pyramid middle", "pyramid right"]

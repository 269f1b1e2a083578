"""The core's state by the engine's names (src/state.rs, ``_core.Game.export``, ``seen``,
``edit``): a seat's read model shows the public fields and its own options only; an edit is
checked and shows in play."""

from __future__ import annotations

import pytest

from imhotep_stats.engine.core import rules as core_rules

_core = pytest.importorskip("imhotep_stats._core")

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

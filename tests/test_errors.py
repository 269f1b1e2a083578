"""The shared wording of bad values: every validator (study config, [gates], board
overrides) says "expected ..., got <kind> (<value>)" the same way, under the dotted key."""

from __future__ import annotations

import pytest

from imhotep_stats.config import ConfigError, parse_config
from imhotep_stats.errors import describe, kind_of
from imhotep_stats.reporting.gates import gate_problems


@pytest.mark.parametrize("value, kind, described", [
    (True, "a boolean", "a boolean (true)"),  # a bool is no integer here
    (3, "an integer", "an integer (3)"),
    (0.5, "a number", "a number (0.5)"),
    ("five", "a string", "a string ('five')"),
    ([1, 2], "a list of 2 items", "a list of 2 items"),
    ({"a": 1}, "a table", "a table"),
    (None, "NoneType", "NoneType"),
])
def test_kind_and_description(value, kind, described):
    assert kind_of(value) == kind
    assert describe(value) == described


def test_config_gates_and_overrides_word_a_bad_value_alike():
    with pytest.raises(ConfigError) as info:
        parse_config({"study": {"name": "t", "seed": "x", "games": True, "players": [3]},
                      "gates": {"no_unbalanced": 1},
                      "overrides": {"game": {"rounds": "six"}}})
    p = dict(info.value.problems)
    assert p["study.seed"] == "expected an integer, got a string ('x')"
    assert p["study.games"] == "expected an integer, got a boolean (true)"
    assert p["gates.no_unbalanced"] == "expected true or false, got an integer (1)"
    assert p["overrides.game.rounds"] == "expected an integer, got a string ('six')"
    assert dict(gate_problems({"max_seat_gap": "wide"}))["gates.max_seat_gap"].endswith(
        "got a string ('wide')")

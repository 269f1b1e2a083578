"""Overrides and [whatif] in study configs: wrong shapes and unknown keys name the dotted
key; overridden sides and rule options are marked in the run manifest."""

from __future__ import annotations

import json

import pytest

from imhotep_stats.config import ConfigError, parse_config
from imhotep_stats.sim.runner import run_study


def problems(**tables) -> dict[str, str]:
    raw = {"study": {"name": "t", "seed": 1, "games": 4, "players": [3]}}
    raw.update(tables)
    with pytest.raises(ConfigError) as info:
        parse_config(raw)
    return dict(info.value.problems)


def test_override_errors_name_the_dotted_key():
    p = problems(overrides={
        "pyramid": {"D": {"points": [1, 2], "colour": 3}, "E": {"points": [1]}},
        "game": {"sled_capacity": "five", "starting_sled": [2, 3, 4], "turbo": True},
        "obelisk": {"A": {"provenance": "rulebook"}},
        "weather": {"rain": 1},
    })
    assert p["overrides.pyramid.D.points"] == "expected a list of 16 items, got 2"
    assert p["overrides.pyramid.D.colour"].startswith("unknown key (expected one of points")
    assert p["overrides.pyramid.E"].startswith("unknown side")
    assert p["overrides.game.sled_capacity"] == "expected an integer, got a string ('five')"
    assert p["overrides.game.starting_sled"] == "expected a list of 4 items, got 3"
    assert p["overrides.game.turbo"].startswith("unknown key (expected one of rounds")
    assert "provenance cannot be overridden" in p["overrides.obelisk.A.provenance"]
    assert p["overrides.weather"].startswith("unknown key")


def test_whatif_errors_name_the_dotted_key():
    p = problems(whatif={"sides": {"pyramid": ["E"], "moon": ["A"]},
                         "overrides": {"temple": {"A": {"points": "x"}}},
                         "colour": "red"})
    assert p["whatif.sides.pyramid[0]"].startswith("expected a side letter")
    assert p["whatif.sides.moon"].startswith("unknown key")
    # Temple A has no points list: the what-if's override names a key the side lacks
    assert p["whatif.overrides.temple.A.points"].startswith("unknown key (expected one of ")
    assert p["whatif.colour"].startswith("unknown key (expected one of label, sides, overrides")
    assert problems(whatif={"label": "nothing"})["whatif"].startswith("expected sides or")
    assert problems(whatif={"overrides": {"game": {"rounds": 9}}})[
        "whatif.overrides.game.rounds"] == "expected an integer from 1 to 6, got an integer (9)"


def test_whatif_variant_merges_overrides_and_replaces_sides():
    cfg = parse_config({
        "study": {"name": "t", "seed": 1, "games": 4, "players": [3]},
        "sides": {"pyramid": ["A"], "temple": ["B"]},
        "overrides": {"game": {"get_stones": 2, "sled_capacity": 6}},
        "whatif": {"sides": {"pyramid": ["D"]}, "overrides": {"game": {"sled_capacity": 4}}},
    })
    w = cfg.whatif_config()
    assert w.sides[1] == ("D",) and w.sides[2] == ("B",)
    assert w.overrides == {"game": {"get_stones": 2, "sled_capacity": 4}}
    assert (w.seed, w.games, w.lineups) == (cfg.seed, cfg.games, cfg.lineups)
    assert w.hash != cfg.hash and not w.whatif
    # [whatif] and [sweep] do not change which rows the base run plays
    plain = parse_config({"study": {"name": "t", "seed": 1, "games": 4, "players": [3]},
                          "sides": {"pyramid": ["A"], "temple": ["B"]},
                          "overrides": {"game": {"get_stones": 2, "sled_capacity": 6}},
                          "sweep": {"budget": 100}})
    assert plain.hash == cfg.hash


def test_sweep_table_is_validated():
    p = problems(sweep={"budget": -1, "rounds": 0, "rank_by": "luck", "speed": 2})
    assert set(p) == {"sweep.budget", "sweep.rounds", "sweep.rank_by", "sweep.speed"}


def test_manifest_marks_overridden_sides_and_rule_options(tmp_path):
    cfg = parse_config({
        "study": {"name": "t", "seed": 1, "games": 3, "players": [3]},
        "sides": {"pyramid": ["A", "D"]},
        "overrides": {"pyramid": {"D": {"overflow_points": 2}},
                      "game": {"starting_sled": [3, 3, 3, 3]}},
    })
    run_study(cfg, tmp_path, workers=1)
    m = json.loads((tmp_path / "manifest.json").read_text())
    board = m["board"]
    assert board["sides"]["pyramid.D"]["overridden"] == ["overflow_points"]
    assert board["sides"]["pyramid.A"]["overridden"] == []
    assert set(board["overridden"]) == {"pyramid.D", "game"}
    assert board["overridden"]["game"]["starting_sled"] == [3, 3, 3, 3]
    assert m["config"]["overrides"]["pyramid"]["D"]["overflow_points"] == 2

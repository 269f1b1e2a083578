"""Inputs read the same everywhere (issue 24 item 5): side letters and site names in either
case, seats counted from 1 wherever a person reads them, init's own header and whole
sentences in init --list, the game-level keys listed with their ranges, TOML syntax errors
with their line, and "did you mean" for a misspelt key."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from imhotep_stats.cli import main
from imhotep_stats.config import ConfigError, parse_config

STUDY = {"study": {"name": "t", "games": 1, "players": 3}}


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


# --- side letters and site names in either case, read by the engine's one parser -----------


def test_the_engine_reads_side_letters_and_site_names_in_either_case():
    from imhotep_stats.engine.setup_checks import RulesError, parse_sides, parse_site_side

    assert parse_sides("d-a-C-b-D") == ("D", "A", "C", "B", "D")
    assert parse_sides(["d", " a", "c", "b", "d"]) == ("D", "A", "C", "B", "D")
    assert parse_site_side("Pyramid.d") == ("pyramid", "D")
    assert parse_site_side("BURIAL_CHAMBER.b") == ("burial_chamber", "B")
    for bad in ("pyramid.E", "pyramd.A", "pyramid"):
        with pytest.raises(RulesError, match="expected SITE.SIDE"):
            parse_site_side(bad)


def test_play_takes_lower_case_sides():
    lower, upper = cli("play", "--sides", "d-a-c-b-d", "--json"), cli("play", "--sides",
                                                                     "D-A-C-B-D", "--json")
    assert lower.exit_code == 0, lower.output
    assert lower.stdout == upper.stdout


def test_configs_take_side_letters_and_site_names_in_either_case():
    cfg = parse_config({**STUDY, "sides": {"obelisk": ["b", "A"], "Pyramid": "c", "temple": "ALL"},
                        "overrides": {"Pyramid": {"c": {"majority_points": 4}}}})
    assert cfg.sides[1] == ("C",) and cfg.sides[2] == ("A", "B", "C", "D")
    assert cfg.sides[4] == ("B", "A")
    assert cfg.board().side("pyramid", "C")["majority_points"] == 4
    with pytest.raises(ConfigError, match=r"sides.obelisk\[0\]: expected a side letter"):
        parse_config({**STUDY, "sides": {"obelisk": ["e"]}})


def test_sides_takes_a_site_and_side_in_either_case():
    a, b = cli("sides", "Pyramid.d"), cli("sides", "pyramid.D")
    assert a.exit_code == 0 and a.stdout == b.stdout and "pyramid.D" in a.stdout


def test_a_transcript_takes_lower_case_sides(tmp_path):
    path = tmp_path / "g.jsonl"
    assert cli("play", "--sides", "A-B-A-B-A", "--players", 2, "--trace", path).exit_code == 0
    lines = path.read_text().splitlines()
    setup = json.loads(lines[0])
    setup["sides"] = setup["sides"].lower()
    path.write_text("\n".join([json.dumps(setup), *lines[1:]]) + "\n")
    r = cli("replay", path)
    assert r.exit_code == 0, r.output


# --- seats from 1 wherever a person reads them ---------------------------------------------


def _seat_column(output: str) -> list[int]:
    rows = [line.split() for line in output.splitlines()]
    return [int(r[0]) for r in rows if r and r[0].isdigit()]


def test_play_and_replay_count_seats_from_1(tmp_path):
    path = tmp_path / "g.jsonl"
    played = cli("play", "--players", 4, "--trace", path)
    assert "seat (1 = start player)" in played.stdout
    assert _seat_column(played.stdout) == [1, 2, 3, 4]
    replayed = cli("replay", path)
    assert replayed.stdout == played.stdout
    # the transcript keeps its documented 0 (docs/engine.md: 0 = the start player)
    seats = {json.loads(line).get("seat") for line in path.read_text().splitlines()[1:-1]}
    assert 0 in seats and 4 not in seats


def test_notebook_frames_count_seats_from_1(tmp_path):
    from imhotep_stats import api

    out = tmp_path / "run"
    cfg = parse_config({"study": {"name": "nb", "games": 4, "players": 2},
                        "run": {"workers": 1, "batch_size": 4}})
    from imhotep_stats.sim.runner import run_study

    run_study(cfg, out, workers=1, progress=False)
    r = api.Run(out)
    assert sorted(r.games()["seat"].unique()) == [1, 2]
    assert sorted(r.table("win_rates_seat")["seat"].unique()) == [1, 2]
    assert sorted(r.figures.tables["win_rates_seat"]["seat"].unique()) == [0, 1]  # the data


# --- init ----------------------------------------------------------------------------------


def test_init_writes_a_header_of_its_own(tmp_path):
    path = tmp_path / "mine.toml"
    r = cli("init", "mine", "--out", path)
    assert r.exit_code == 0, r.output
    text = path.read_text()
    assert text.startswith("# Study 'mine', written by `imhotep-stats init` from the example "
                           "'default'")
    assert f"`imhotep-stats run {path}`" in text
    assert "`make run` runs it" not in text and "play --help" not in text
    assert parse_config(__import__("tomllib").loads(text)).name == "mine"


def test_init_list_gives_whole_sentences():
    from imhotep_stats.config.quick import examples

    listing = cli("init", "--list").stdout
    for name, what in examples().items():
        assert re.search(r"[.?!]$", what), (name, what)
        assert name in listing
    assert " ".join(listing.split()).count(".") >= len(examples())


# --- the game-level keys, TOML errors, did you mean ----------------------------------------


def test_sides_game_lists_the_game_level_keys_with_values_and_ranges():
    r = cli("sides", "game")
    assert r.exit_code == 0, r.output
    rows = {line.split()[0]: line for line in r.stdout.splitlines() if line.startswith("game.")}
    assert {"game.rounds", "game.starting_sled", "game.get_stones"} <= set(rows)
    assert re.search(r"game\.rounds\s+6\s+1 to 6\s+rulebook", rows["game.rounds"])
    assert "[2, 3, 4, 5]" in rows["game.starting_sled"]
    assert "fixed (a rule of the game)" in cli("sides", "cards").stdout
    assert "game.rounds" in json.dumps(json.loads(cli("sides", "game", "--json").stdout))
    assert "imhotep-stats sides game" in cli("sides").stdout


def test_a_toml_syntax_error_names_its_line_and_column(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[study]\nname = "t"\ngames 3\n')
    r = cli("validate", path)
    assert r.exit_code == 1
    assert "line 3, column 7: not valid TOML: Expected '=' after a key" in r.stderr, r.stderr
    path.write_text('[study]\nname = "t"\ngames = [3\n')
    assert "line 3, column 9: not valid TOML: the array opened here is not closed" in \
        cli("validate", path).stderr  # where it opened, not where the parser gave up


@pytest.mark.parametrize("raw, key, hint", [
    ({"sides": {"pyramd": ["A"]}}, "sides.pyramd", "did you mean 'pyramid'?"),
    ({"overrides": {"gamez": {"rounds": 3}}}, "overrides.gamez", "did you mean 'game'?"),
    ({"overrides": {"pyramd": {"A": {}}}}, "overrides.pyramd", "did you mean 'pyramid'?"),
    ({"overrides": {"game": {"roundz": 3}}}, "overrides.game.roundz", "did you mean 'rounds'?"),
    ({"gamez": {"rounds": 3}}, "gamez", "did you mean [overrides.game]?"),
    ({"reprot": {}}, "reprot", "did you mean 'report'?"),
])
def test_an_unknown_key_says_what_was_meant(raw, key, hint):
    with pytest.raises(ConfigError) as info:
        parse_config({**STUDY, **raw})
    problems = dict(info.value.problems)
    assert key in problems and hint in problems[key], problems


def test_no_hint_for_a_key_far_from_any():
    with pytest.raises(ConfigError) as info:
        parse_config({**STUDY, "sides": {"xyzzy": ["A"]}})
    assert "did you mean" not in str(info.value)

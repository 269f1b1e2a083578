"""The play, replay and bench commands through Click's runner, with their error paths."""

from __future__ import annotations

import json

from click.testing import CliRunner

from imhotep_stats.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_play_prints_breakdown_and_winner():
    r = run("play", "--players", "3", "--bots", "random,random,random", "--seed", "7")
    assert r.exit_code == 0, r.output
    assert "total" in r.output and "win" in r.output
    assert "seat (1 = start player)" in r.output  # play counts seats from 1, as reports do


def test_play_json_has_totals_and_winners():
    r = run("play", "--players", "2", "--seed", "1", "--json")
    data = json.loads(r.output)
    assert len(data["seats"]) == 2 and data["winners"]
    for seat in data["seats"]:
        assert seat["total"] == sum(seat["by_source"].values())


def test_play_bad_sides_is_bad_input():
    r = run("play", "--sides", "A-A-Z-A-A")
    assert r.exit_code == 1
    assert "sides" in r.output


def test_play_unknown_bot_is_bad_input():
    r = run("play", "--bots", "wizard")
    assert r.exit_code == 1 and "got a string ('wizard')" in r.output


def test_play_wrong_number_of_bots_is_usage_error():
    r = run("play", "--players", "3", "--bots", "random,random")
    assert r.exit_code == 2


def test_bench_json():
    r = run("bench", "--games", "20", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["games"] == 20 and data["games_per_second"] > 0 and "seconds" in data
    assert data["repeat"] == 1 and data["runs"][0]["games_per_second"] == data["games_per_second"]


def test_bench_repeat_reports_the_best_and_the_median_run():
    r = run("bench", "--games", "5", "--repeat", "3", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    speeds = sorted(x["games_per_second"] for x in data["runs"])
    assert len(speeds) == 3
    assert data["best_games_per_second"] == speeds[-1]
    assert data["games_per_second"] == speeds[1]  # the median of three
    assert {x["decisions_per_game"] for x in data["runs"]} == {data["decisions_per_game"]}
    text = run("bench", "--games", "5", "--repeat", "2")
    assert text.exit_code == 0 and "x 2 runs: best" in text.output and "median" in text.output


def test_replay_missing_file_is_usage_error():
    r = run("replay", "/nonexistent/game.jsonl")
    assert r.exit_code == 2

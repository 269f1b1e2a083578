"""A designer's day without files (issue 24): compare --sides with --param, sweep --sides
with "all", run --margin, --board FILE on the commands, sides --export, validate's trust
lines and time estimate, and the notebook API's compare, sweep and play. Small runs: they
check the plumbing and the words; the statistics have their own tests."""

from __future__ import annotations

import json

from click.testing import CliRunner

from imhotep_stats import api
from imhotep_stats.cli import main
from imhotep_stats.rules.board_file import export_text

PRINTED = "points = [2, 1, 3, 2, 4, 3, 2, 1, 3, 2, 3, 1, 3, 4]  # rulebook"
MINE = "points = [2, 1, 3, 2, 4, 3, 2, 1, 3, 2, 3, 1, 3, 6]"


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args], env={"GITHUB_STEP_SUMMARY": None})


def test_compare_without_a_file(tmp_path):
    r = invoke("compare", "--sides", "A-A-A-A-A", "--players", "2", "--bots", "random",
               "--games", "30", "--param", "game.starting_sled[0]=3", "--param",
               "pyramid.A.overflow_points=2", "--out", tmp_path, "--workers", "1", "-q")
    assert r.exit_code == 0, r.output
    assert "game.starting_sled = [3, 3, 4, 5] (was [2, 3, 4, 5])" in r.output
    assert "what-if A-A-A-A-A, 2 players: Trust: random: plays at random" in r.output
    assert "rests on overridden pyramid.A (overflow_points)" in r.output
    assert "Win rate by seat (%; change in pp)" in r.output and "(points)" not in r.output
    data = json.loads((tmp_path / "compare.json").read_text())
    assert data["figures"]


def test_compare_param_errors_name_the_param(tmp_path):
    r = invoke("compare", "--sides", "A-A-A-A-A", "--param", "pyramid.A.pointz=3", "--out",
               tmp_path, "-q")
    assert r.exit_code == 1 and "--param" in r.output and "pointz" in r.output
    r = invoke("compare", "--sides", "A-A-A-A-A", "--param", "game.rounds", "--out", tmp_path)
    assert r.exit_code == 1 and "expected PATH=VALUE" in r.output


def test_sweep_with_all_per_site(tmp_path):
    r = invoke("sweep", "--sides", "all-A-A-A-a", "--players", "2", "--bots", "random",
               "--games", "10", "--out", tmp_path, "--workers", "1", "-q")
    assert r.exit_code == 0, r.output
    assert "4 cells" in r.output and "Trust: random: plays at random" in r.output
    r = invoke("sweep", "--sides", "all-A-A-A", "--out", tmp_path)
    assert r.exit_code == 1 and "--sides" in r.output


def test_run_margin_keep_games_and_board_file(tmp_path):
    board = tmp_path / "board.toml"
    r = invoke("sides", "--export", board)
    assert r.exit_code == 0 and board.exists()
    assert invoke("sides", "--export", board).exit_code == 2  # no overwrite without --force
    board.write_text(board.read_text().replace(PRINTED, MINE))
    r = invoke("sides", "pyramid.A", "--board", board)
    assert "designer" in r.output
    r = invoke("run", "--sides", "A-A-A-A-A", "--players", "2", "--bots", "random", "--games",
               "12", "--margin", "0.1", "--board", board, "--keep-games", "2", "--out",
               tmp_path / "run", "-q")
    assert r.exit_code == 0, r.output
    assert "margin ±10.0 pp" in r.output and "designer pyramid.A (points)" in r.output
    assert (tmp_path / "run" / "games" / "cell-1" / "game-2.html").exists()
    assert "games/cell-1/game-1.html" in (tmp_path / "run" / "report.html").read_text()
    trace = tmp_path / "g.jsonl"
    r = invoke("play", "--sides", "A-A-A-A-A", "--players", "2", "--board", board, "--trace", trace)
    assert r.exit_code == 0, r.output
    setup = json.loads(trace.read_text().splitlines()[0])
    assert setup["overrides"] == {"pyramid": {"A": {"points": [2, 1, 3, 2, 4, 3, 2, 1, 3, 2, 3, 1, 3, 6]}}}
    assert invoke("replay", trace).exit_code == 0  # the transcript carries the board


def test_a_bad_board_file_names_file_and_key(tmp_path):
    board = tmp_path / "board.toml"
    board.write_text(export_text().replace(PRINTED, "points = [1, 2]"))
    r = invoke("run", "--sides", "A-A-A-A-A", "--board", board, "--games", "2", "--out", tmp_path)
    assert r.exit_code == 1
    assert "board.toml: 1 problem\n  pyramid.A.points: expected a list of 14 items, got 2" \
        in r.output


def test_validate_says_trust_and_time(tmp_path):
    cfg = tmp_path / "s.toml"
    cfg.write_text('[study]\nname = "s"\ngames = 100\nplayers = [3]\n[sides]\ntemple = ["C"]\n'
                   '[bots]\nlineup = ["random"]\n')
    r = invoke("validate", cfg)
    assert r.exit_code == 0, r.output
    assert "ok: 1 cell, 100 games" in r.output
    assert ("Trust: random: plays at random, finishes ahead of the reference bot (expert) in "
            "under 1% of games; ratings: the range over the 3-player tables") in r.output
    assert "margin ±5.0 pp" in r.output
    assert "provisional temple.C (bonuses)" in r.output
    assert "estimated time: about" in r.output
    assert "estimated" not in invoke("validate", cfg, "--no-estimate").output


def test_the_notebook_api_compares_sweeps_and_plays(tmp_path):
    base = api.quick("A-A-A-A-A", players=2, bots="random", games=20)
    res = api.compare(base, params=["game.starting_sled[0]=3"], out=tmp_path / "cmp")
    assert res["summary"] and any(f["group"] == "seat" for f in res["figures"])
    sw = api.sweep(api.quick("AB-A-A-A-A", players=2, bots="random", games=10, sweep=True),
                   out=tmp_path / "sw")
    assert sw["cells"] == 2
    trace = tmp_path / "g.jsonl"
    game = api.play("D-A-C-B-D", players=3, bots="greedy", seed=1, trace=trace)
    assert len(game["seats"]) == 3 and trace.exists()

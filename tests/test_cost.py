"""Study time estimates: a short pilot measured here (sim/cost.py), printed by ``run`` before
it starts and by ``plan --bots``."""

from __future__ import annotations

import json

from click.testing import CliRunner

from imhotep_stats.cli import main
from imhotep_stats.config import Cell, parse_config
from imhotep_stats.sim.cost import describe, pilot, pilot_costs


def _study(lineup):
    return parse_config({"study": {"name": "cost", "seed": 1, "games": 500, "players": [2, 3]},
                         "sides": {"market": ["A", "D"]}, "bots": {"lineup": lineup}})


def test_a_pilot_times_games_and_stops_at_its_budget():
    per_game, n = pilot(Cell(0, "A-A-A-A-A", 2, ("greedy",)), seconds=0.0, most=5)
    assert n == 1 and per_game > 0  # a zero budget still plays one game
    per_game, n = pilot(Cell(0, "A-A-A-A-A", 2, ("greedy",)), seconds=100.0, most=3)
    assert n == 3 and per_game > 0


def test_a_search_cell_is_estimated_dearer_than_a_greedy_one():
    costs = pilot_costs(_study([["greedy"], ["mcts20"]]), most=2)
    assert len(costs) == 2 * 2 * 2  # market sides x players x lineups
    by = {(c.players, c.lineup, c.cell_id.split("|")[0]): c for c in costs}
    for n in (2, 3):
        assert by[(n, ("mcts20",), "A-A-A-A-A")].per_game > \
            5 * by[(n, ("greedy",), "A-A-A-A-A")].per_game
        # measured once per player count and lineup, whatever the sides
        assert by[(n, ("mcts20",), "A-A-A-A-A")].per_game == \
            by[(n, ("mcts20",), "D-A-A-A-A")].per_game
    assert all(c.games == 500 and c.seconds == c.per_game * 500 for c in costs)
    lines = describe(costs, 2)
    assert "on 2 cores" in lines[0] and "of one core" in lines[0]
    assert "mcts20" in lines[1]  # the slowest cell first


def test_run_prints_its_estimate_before_it_starts(tmp_path):
    r = CliRunner().invoke(main, ["run", "--sides", "A-A-A-A-A", "--players", "2", "--bots",
                                  "greedy", "--games", "20", "--out", str(tmp_path / "r")])
    assert r.exit_code in (0, 3), r.output
    assert "estimate from a" in r.output and "A-A-A-A-A|2p|greedy" in r.output
    again = CliRunner().invoke(main, ["run", "--sides", "A-A-A-A-A", "--players", "2",
                                      "--bots", "greedy", "--games", "20", "--out",
                                      str(tmp_path / "r")])
    assert "estimate from a" not in again.output  # finished: nothing left to play


def test_plan_times_a_cell_for_a_lineup():
    r = CliRunner().invoke(main, ["plan", "--margin", "0.05", "--players", "2", "--bots",
                                  "greedy", "--json"])
    assert r.exit_code == 0, r.output
    row = json.loads(r.output)
    assert row["cpu_per_game"] > 0 and row["pilot_games"] >= 1
    r = CliRunner().invoke(main, ["plan", "--margin", "0.05", "--players", "2", "--bots",
                                  "nobody"])
    assert r.exit_code == 2 and "--bots" in r.output

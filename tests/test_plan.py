"""`imhotep-stats plan`: games a seat-fairness verdict needs, from stats.planning."""

from __future__ import annotations

import json

from click.testing import CliRunner

from imhotep_stats.cli import main
from imhotep_stats.stats.planning import games_needed, games_to_detect


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_plan_text_and_json_agree_with_planning():
    r = cli("plan", "--margin", 0.02, "--players", 3)
    assert r.exit_code == 0, r.output
    need = games_needed(0.02, 3)
    assert f"about {need:,} games per cell" in r.stdout
    assert 6000 < need < 7000  # the closed form's "about 6,500"
    r = cli("plan", "--margin", 0.02, "--players", 3, "--power", 0.9, "--alpha", 0.01,
            "--json")
    data = json.loads(r.stdout)
    assert data["games_balanced"] == games_needed(0.02, 3, 0.01, 0.9)
    assert data["games_unbalanced"] == games_to_detect(0.02, 3, 0.01, 0.9)


def test_plan_several_player_counts_gap_and_cells():
    r = cli("plan", "--margin", 0.03, "--players", 2, "--players", 4, "--gap", 0.01,
            "--cells", 10, "--json")
    rows = json.loads(r.stdout)
    assert [x["players"] for x in rows] == [2, 4]
    assert rows[0]["family"] == 10 and rows[1]["family"] == 40
    assert rows[1]["games_balanced"] == games_needed(0.03, 4, true_gap=0.01, family=40)


def test_plan_usage_errors():
    assert cli("plan", "--margin", 0.02, "--players", 3, "--gap", 0.02).exit_code == 2
    assert cli("plan", "--margin", 0.0, "--players", 3).exit_code == 2
    assert cli("plan", "--margin", 0.02).exit_code == 2

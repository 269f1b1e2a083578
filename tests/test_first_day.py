"""The rough edges a first day finds (issue 47, item 5), each as a new user met it: an
error's suggestion that the option refuses, two roundings of one figure, defaults that
differ between commands, messages that repeat or contradict each other."""

from __future__ import annotations

import pytest

from tests.helpers import cli


def _run(*args):
    return cli("run", "--sides", "A-A-A-A-A", "--players", "2", "--bots", "random",
               "--workers", "1", *args)


def test_counts_take_thousands_separators_as_the_cli_prints_them():
    from imhotep_stats.cli.options import GAMES

    assert GAMES.convert("4,000", None, None) == GAMES.convert("4_000", None, None) == 4000
    for bad in ("4,00", "4.000", "1,2345"):
        with pytest.raises(Exception, match="not a valid"):
            GAMES.convert(bad, None, None)
    r = _run("--games", "4,000", "--max-games", "8,000")  # parsed, then refused for usage
    assert r.exit_code == 2 and "--max-games goes with --until-decided" in r.output


def test_a_shrinking_run_suggests_a_games_value_the_option_takes(tmp_path):
    out = str(tmp_path / "r")
    assert _run("--games", "1200", "--out", out, "-q").exit_code == 0
    shrink = _run("--games", "1100", "--out", out)
    assert shrink.exit_code == 1 and "--games 1200 or more" in shrink.stderr


def test_a_top_up_says_once_which_games_it_reuses(tmp_path):
    out = str(tmp_path / "r")
    assert _run("--games", "20", "--out", out, "-q").exit_code == 0
    r = _run("--games", "40", "--out", out)
    assert r.exit_code == 0, r.output
    assert "topping up" in r.stderr and "resuming" not in r.stderr


def test_one_rounding_for_a_win_rate_in_the_answer_and_the_table():
    from imhotep_stats.reporting.summary import format_cell
    from imhotep_stats.stats import fmt

    assert fmt.pct(545 / 2000) == "27.3%" and fmt.num(2.675, 2) == "2.68"
    row = {"games": 2000, "wins": 545.0, "win_rate": 545 / 2000, "ci_low": 0.25,
           "ci_high": 0.3, "points": {"total": 30.0}}
    text = format_cell({"sides": "A-A-A-A-A", "players": 2, "lineup": ["greedy"],
                        "games": 2000, "confidence": 0.95, "bots": [],
                        "seats": [dict(row, seat=0), dict(row, seat=1)]})
    assert "27.3%" in text and "27.2%" not in text

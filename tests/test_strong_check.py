"""The strong-play check beside a greedy screen (issue 45): the answer leads with the
strong-play verdict, says "bot-dependent" when the seat x lineup test finds the seat effect
differs, and otherwise what the check could miss; sequential, it stops at its budget or
when every verdict is decided."""

from __future__ import annotations

import json

from click.testing import CliRunner

from imhotep_stats.cli import main
from imhotep_stats.cli.options import STRONG_ENV
from imhotep_stats.config.quick import quick_study
from imhotep_stats.reporting.figures import CellInfo
from imhotep_stats.reporting.strong import Holds, holds_sentence, strong_config, strong_dir
from imhotep_stats.stats.lineups import lineup_test
from imhotep_stats.stats.significance import seat_verdict


def _cell(lineup, wins, games):
    return CellInfo(0, "x", "D-A-C-A-A", 3, (lineup,), games,
                    verdict=seat_verdict(wins, games, 0.05))


def _holds(a, b):
    test = lineup_test([[r * a.games for r in a.verdict.win_rates],
                        [r * b.games for r in b.verdict.win_rates]], [a.games, b.games])
    return Holds(a, b, test)


def test_bot_dependent_in_words_when_the_seat_effect_differs():
    # issue 45's example: seat 1 at 45.2% of 2,000 greedy games, 31.3% of 150 strong ones
    h = _holds(_cell("greedy", [904, 548, 548], 2000), _cell("expert", [47, 52, 51], 150))
    assert h.bot_dependent
    text = holds_sentence(h)
    assert text.startswith("Bot-dependent: the seat effect differs between greedy and "
                           "strong play (seat x lineup test p = 0.004): seat 1 wins 45.2% "
                           "with greedy but 31.3% with expert")


def test_agreement_says_what_the_check_could_miss():
    h = _holds(_cell("greedy", [700, 650, 650], 2000), _cell("expert", [52, 49, 49], 150))
    assert not h.bot_dependent
    text = holds_sentence(h)
    assert "no difference detected" in text and "it could miss up to ±" in text
    assert "consistent" not in text


def test_the_check_plays_the_reference_bot_in_every_seat_beside_the_run(tmp_path):
    cfg = quick_study("D-A-C-A-A", (3,), "greedy", 2000, 2026)
    check = strong_config(cfg)
    assert [c.lineup for c in check.cells] == [("expert",)] and check.games == 50
    assert strong_dir(tmp_path / "run").name == "run-strong-expert"


def test_run_strong_leads_with_strong_play_and_stops_at_its_budget(tmp_path):
    out = tmp_path / "r"
    r = CliRunner().invoke(main, ["run", "--sides", "D-A-C-A-A", "--players", "3",
                                  "--games", "60", "--strong", "--strong-bot", "random",
                                  "--strong-games", "80", "--workers", "1", "--out", str(out),
                                  "-q"])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].startswith("D-A-C-A-A, 3 players, for strong play (random, ")
    if "inconclusive" in lines[0]:  # stopped undecided: how far the seats could be
        assert lines.pop(1).startswith("Undecided after ")
    assert lines[1].startswith("With greedy (60 games): ")
    assert lines[2].startswith(("Bot-dependent: ", "The greedy screen and strong play agree"))
    # the trust line names both bots' strength in words (3 players on mixed sides: the
    # range over the 3-player tables, said)
    assert lines[3].startswith(
        "Trust: random: plays at random, finishes ahead of the reference bot (expert) in "
        "under 1% of games; greedy: a simple player (the move worth most now), finishes ahead "
        "of the reference bot (expert) in ")
    assert "; ratings: the range over the 3-player tables on " in lines[3]
    games = json.loads((tmp_path / "r-strong-random" / "manifest.json").read_text())
    assert games["games_per_cell"] in (50, 80) and games["sequential"]


def test_every_search_rung_is_rated_with_a_game_level_interval():
    from imhotep_stats.bots.ratings import _file, basis
    from imhotep_stats.reporting.trust import bot_words

    data = _file()
    ratings, intervals = data["ratings"], data["intervals"]
    for bot in ("mcts200", "mcts400", "mcts1600", "mcts6400", "expert"):
        low, high = intervals[bot]
        assert low <= ratings[bot] <= high, bot
    for table in data["tables"].values():
        for rating, low, high in table.values():
            assert low <= rating <= high
    scripted = {"random", "balanced", "pyramid", "market", "burial", "temple", "obelisk"}
    for name in ("2p-C", "2p-D"):  # every rung, with the scripted bots
        assert scripted | {"mcts200", "mcts400", "mcts1600", "mcts6400", "expert"} <= set(
            data["tables"][name]), name
    for name in ("3p-A", "3p-C", "3p-D"):  # mixed 3-player tables
        assert scripted - {"random"} <= set(data["tables"][name]), name
    # every search rung measured at 3 players too (mixed tables with greedy)
    for name in ("3p-A", "3p-C", "3p-D"):
        rungs = {"mcts200", "mcts400", "mcts1600", "mcts6400", "expert"}
        assert rungs <= set(data["tables"][name]), (name, rungs - set(data["tables"][name]))
    # a rung nobody measured says so, in words
    two_a = basis(2, "A-A-A-A-A")
    assert "mcts800: a search player (800 simulations a move), not rated" in bot_words(
        ["mcts800"], two_a)
    assert bot_words(["greedy"], two_a) == ("greedy: a simple player (the move worth most now), "
                                     "wins under 1% of games against the reference bot "
                                     "(expert)")


def test_compare_strong_leads_with_the_paired_finding_for_strong_play(tmp_path):
    r = CliRunner().invoke(main, ["compare", "--sides", "A-A-A-A-A", "--players", "2",
                                  "--bots", "random", "--param", "game.starting_sled[0]=3",
                                  "--games", "60", "--strong", "--strong-bot", "greedy",
                                  "--strong-games", "100", "--workers", "1", "--out",
                                  str(tmp_path / "c"), "-q"])
    assert r.exit_code == 0, r.output
    first = r.stdout.splitlines()[0]
    assert first.startswith("For strong play (greedy, ") and "games a cell): A-A-A-A-A, 2 " in first
    assert "(paired test" in first
    base = json.loads((tmp_path / "c" / "strong-greedy-base" / "manifest.json").read_text())
    assert [c["lineup"] for c in base["cells"]] == [["greedy"]]
    assert base["games_per_cell"] in (50, 100)


def test_tune_strong_checks_the_best_value_with_strong_play(tmp_path):
    r = CliRunner().invoke(main, ["tune", "--sides", "A-A-A-A-A", "--players", "2", "--bots",
                                  "random", "--param", "game.starting_sled[0]=1..2",
                                  "--target", "seat:1", "--games", "60", "--rounds", "0",
                                  "--strong", "--strong-bot", "greedy", "--strong-games", "60",
                                  "--workers", "1", "--out", str(tmp_path / "t"), "-q"])
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("Best value game.starting_sled[0]=")
    assert ", for strong play (greedy, " in r.stdout.splitlines()[0]
    res = json.loads((tmp_path / "t" / "tune.json").read_text())
    (cell,) = res["strong_check"]["cells"]
    assert cell["strong"]["lineup"] == ["greedy"] and cell["screen"]["lineup"] == ["random"]


def _run(tmp_path, *flags, env=None, bots="greedy"):
    out = tmp_path / "r"
    r = CliRunner().invoke(main, ["run", "--sides", "A-A-A-A-A", "--players", "2", "--bots",
                                  bots, "--games", "20", "--strong-bot", "random",
                                  "--strong-games", "50", "--workers", "1", "--out", str(out),
                                  "-q", *flags], env=env or {})
    return r, (tmp_path / "r-strong-random").exists()


def test_the_environment_sets_the_default_and_a_flag_beats_it(tmp_path):
    r, checked = _run(tmp_path / "on", env={STRONG_ENV: "on"})
    assert r.exit_code == 0, r.output
    assert checked and r.stdout.startswith("A-A-A-A-A, 2 players, for strong play (random, ")
    for flag in ("--quick", "--no-strong"):  # the off switch for quick screens
        r, checked = _run(tmp_path / flag, flag, env={STRONG_ENV: "on"})
        assert r.exit_code == 0 and not checked, r.output
        assert r.stdout.startswith("A-A-A-A-A, 2 players, greedy (")
    r, checked = _run(tmp_path / "flag", "--strong", env={STRONG_ENV: "off"})
    assert r.exit_code == 0 and checked, r.output


def test_a_bad_default_in_the_environment_names_the_variable(tmp_path):
    r, checked = _run(tmp_path, env={STRONG_ENV: "yes"})
    assert r.exit_code == 2 and not checked
    assert "IMHOTEP_STATS_STRONG='yes': expected on or off" in r.output


def test_a_screen_that_already_plays_the_check_bot_is_not_checked_again(tmp_path):
    r, checked = _run(tmp_path, "--strong", bots="random")
    assert r.exit_code == 0 and not checked, r.output
    assert r.stdout.startswith("A-A-A-A-A, 2 players, random (")
    r = CliRunner().invoke(main, ["run", "--sides", "A-A-A-A-A", "--players", "2", "--bots",
                                  "random", "--games", "20", "--strong", "--strong-bot",
                                  "random", "--workers", "1", "--out", str(tmp_path / "s")])
    assert "strong-play check: not played, the screen already plays random in every seat" \
        in r.stderr


def test_the_check_is_on_by_default(tmp_path, monkeypatch):
    """What a designer gets without a flag or $IMHOTEP_STATS_STRONG: the check."""
    monkeypatch.delenv(STRONG_ENV)
    r, checked = _run(tmp_path)
    assert r.exit_code == 0 and checked, r.output
    assert r.stdout.startswith("A-A-A-A-A, 2 players, for strong play (random, ")

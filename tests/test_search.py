"""The search bots (``mcts...``, ``expert``), played by the core: their specs by name and by
table (bad ones name the key), deterministic from the seeds, stronger than random, the early
stop that never changes a choice. Their recorded games: tests/test_search_games.py; their
choices from the seat's view only: tests/test_bots.py."""

from __future__ import annotations

import json
import random

import pytest

from imhotep_stats.bots import BotSpecError, is_bot_name, make_bot
from imhotep_stats.bots.search_spec import EXPERT
from imhotep_stats.engine.game import Game, apply
from imhotep_stats.engine.play import bot_rng, chance_seed, play_game
from imhotep_stats.engine.view import View

SETTINGS = ("iterations", "rollout", "exploration", "truncate", "bias", "margin", "stop")


def settings(spec) -> tuple:
    """A bot's search settings, as the core reads them."""
    s = make_bot(spec).spec
    return tuple(s[k] for k in SETTINGS)


def _game(names, sides, players, seed, index=0):
    bots = [make_bot(n) for n in names]
    g = Game(players, sides, seed=chance_seed(seed, index))
    r = play_game(g, bots, [bot_rng(seed, index, p) for p in range(players)])
    return r.totals, r.decisions


@pytest.mark.parametrize("name", ["mcts10", "mcts10-t8"])  # plain and truncated rollouts
def test_mcts_is_deterministic_from_the_seeds(name):
    random.seed(1)
    a = _game([name, "greedy", "random"], "D-A-C-B-D", 3, seed=2)
    random.seed(2)  # no global random anywhere
    b = _game([name, "greedy", "random"], "D-A-C-B-D", 3, seed=2)
    assert a == b


def test_mcts_beats_random():
    # 4 two-player games with seats alternating: mcts with 30 iterations wins them all
    wins = 0
    for i in range(4):
        names = ["mcts30", "random"] if i % 2 == 0 else ["random", "mcts30"]
        g = Game(2, "A-A-A-A-A", seed=chance_seed(3, i))
        r = play_game(g, [make_bot(n) for n in names], [bot_rng(3, i, p) for p in range(2)])
        wins += r.win_share[names.index("mcts30")]
    assert wins == 4


def test_greedy_rollouts_play_a_game():
    games = [_game(["mcts2-greedy", "random"], "C-D-B-A-C", 2, seed=1, index=i) for i in range(4)]
    assert all(decisions > 50 for _, decisions in games)
    # two greedy-played futures per choice already beat random: over four games (one game
    # alone can go either way at 2 iterations), more points and most of the wins
    assert sum(t[0] for t, _ in games) > sum(t[1] for t, _ in games)
    assert sum(t[0] > t[1] for t, _ in games) >= 3


def test_a_small_expert_is_deterministic_and_beats_random():
    small = {"base": "expert", "iterations": 16, "name": "small"}
    a = _game([small, "random"], "D-A-C-B-D", 2, seed=5)
    b = _game([small, "random"], "D-A-C-B-D", 2, seed=5)
    assert a == b
    assert a[0][0] > a[0][1]


def test_the_early_stop_never_changes_the_choice():
    # the same decision searched with and without the stop, from the same stream: one choice
    for seed in range(6):
        g = Game(2, "A-A-A-A-A", seed=chance_seed(seed, 0))
        rng = random.Random(seed)
        while not g.over and (g.decisions < 30 + 7 * seed or len(g.options) < 3):
            apply(g, g.options[int(rng.random() * len(g.options))])
        view, legal = View(g, g.to_move), tuple(g.options)
        full = make_bot("mcts200").choose(view, legal, random.Random(seed))
        assert make_bot("mcts200-s").choose(view, legal, random.Random(seed)) == full


def test_mcts_specs_by_name_and_table():
    bot = make_bot("mcts400")
    assert bot.name == "mcts400"
    assert settings("mcts400") == (400, "random", 0.7, None, 0.0, 0.0, False)
    assert make_bot("mcts50-greedy").spec["rollout"] == "greedy"
    deep = make_bot({"base": "mcts", "iterations": 100, "rollout": "greedy", "exploration": 1.0,
                     "name": "deep"})
    assert deep.name == "deep" and settings(deep.spec) == (100, "greedy", 1.0, None, 0.0, 0.0, False)
    assert make_bot({"base": "mcts"}).name == "mcts400"


def test_expert_by_name_and_by_table():
    bot = make_bot("expert")
    assert bot.name == "expert" and bot.spec["iterations"] == EXPERT["iterations"]
    small = make_bot({"base": "expert", "iterations": 12, "name": "small"})
    assert small.name == "small"
    assert settings(small.spec)[1:] == settings("expert")[1:]
    assert make_bot({"base": "expert", "iterations": 12}).name == "expert"
    plain = make_bot({"base": "mcts", "iterations": 12}).spec
    assert (plain["bias"], plain["margin"], plain["stop"]) == (0.0, 0.0, False)
    named = make_bot("mcts50-greedy-t30-b2-m0.25-s-c0.5")
    assert settings(named.spec) == (50, "greedy", 0.5, 30, 2.0, 0.25, True)
    assert named.name == "mcts50-greedy-t30-b2-m0.25-s-c0.5"


def test_the_expert_is_the_search_its_evidence_names():
    # docs/search.md measures the expert under its parameter name: the same bot
    assert settings("expert") == settings("mcts1900-b1-s")


def test_truncate_by_name_and_table():
    bot = make_bot("mcts400-t40")
    assert bot.name == "mcts400-t40" and settings(bot.spec)[:4] == (400, "random", 0.7, 40)
    assert settings("mcts50-greedy-t12")[1:4:2] == ("greedy", 12)
    bot = make_bot({"base": "mcts", "iterations": 100, "truncate": 30})
    assert (bot.name, bot.spec["truncate"]) == ("mcts100-t30", 30)
    assert make_bot("mcts400").spec["truncate"] is None  # the default plays to the end


def test_the_learned_value_by_name_and_table():
    # -v (docs/search.md "A learned value"): the name and the table reach the core alike
    bot = make_bot("mcts3000-t20-v-b1-s")
    assert is_bot_name("mcts3000-t20-v-b1-s") and bot.name == "mcts3000-t20-v-b1-s"
    assert (bot.spec["truncate"], bot.spec["value"], bot.spec["bias"]) == (20, True, 1.0)
    table = make_bot({"base": "mcts", "iterations": 12, "truncate": 6, "value": True})
    assert table.name == "mcts12-t6-v" and "value" not in make_bot("mcts12-t6").spec
    assert make_bot({"base": "expert", "truncate": 20, "value": True}).name == "expert"


def test_the_learned_value_changes_the_play():
    # the core scores the truncated rollouts by the value: the same seeds, another game
    valued = _game(["mcts30-t4-v", "greedy"], "A-A-A-A-A", 2, seed=9)
    assert valued == _game([{"base": "mcts", "iterations": 30, "truncate": 4, "value": True},
                            "greedy"], "A-A-A-A-A", 2, seed=9)
    assert valued != _game(["mcts30-t4", "greedy"], "A-A-A-A-A", 2, seed=9)


@pytest.mark.parametrize("spec,message", [
    ({"base": "mcts", "iterations": 0}, "iterations"),
    ({"base": "mcts", "iterations": "many"}, "iterations"),
    ({"base": "mcts", "rollout": "oracle"}, "rollout"),
    ({"base": "mcts", "exploration": -1}, "exploration"),
    ({"base": "mcts", "weights": {}}, "'weights'"),
    ("mcts0", "at least 1"),
    ({"base": "expert", "margin": 2}, "margin"),
    ({"base": "expert", "bias": -1}, "bias"),
    ({"base": "expert", "stop": "yes"}, "stop"),
    ({"base": "expert", "depth": 3}, "'depth'"),
    ("mcts10-m1.5", "margin"),
    ({"base": "mcts", "truncate": 0}, "truncate"),
    ({"base": "mcts", "truncate": -3}, "truncate"),
    ({"base": "mcts", "truncate": 2.5}, "truncate"),
    ({"base": "mcts", "truncate": "round"}, "truncate"),
    ({"base": "mcts", "truncate": True}, "truncate"),
    ("mcts10-t0", "at least 1"),
    ("mcts10-v", "-v.*give -tN"),
    ({"base": "mcts", "value": True}, "spec value: .*truncate"),
    ({"base": "mcts", "truncate": 5, "value": "yes"}, "spec value: expected true or false"),
])
def test_bad_search_specs_name_the_key(spec, message):
    with pytest.raises(BotSpecError, match=message):
        make_bot(spec)


def test_the_deleted_kinds_rollout_is_refused():
    # docs/search.md: "-kinds" lost at equal CPU and was deleted
    with pytest.raises(BotSpecError, match="rollout"):
        make_bot({"base": "mcts", "rollout": "kinds"})
    assert not is_bot_name("mcts400-kinds")


def test_the_deleted_learned_policy_is_refused():
    # docs/search.md "A learned policy": -p drew at equal CPU and was deleted
    assert not is_bot_name("mcts1900-b1-p-s")
    with pytest.raises(BotSpecError, match="'policy'"):
        make_bot({"base": "mcts", "bias": 1, "policy": True})


@pytest.mark.parametrize("value", [0, "round", 1.5])
def test_bad_truncate_in_a_config_names_the_dotted_key(value):
    from imhotep_stats.config import ConfigError
    from tests.test_search_study import study

    with pytest.raises(ConfigError, match=r"bots\.personas\.deep\.truncate"):
        study(lineup=["deep", "greedy"],
              personas={"deep": {"base": "mcts", "iterations": 4, "truncate": value}})


def test_a_truncated_persona_in_a_config_is_accepted():
    from tests.test_search_study import study

    cfg = study(lineup=["deep", "greedy"],
                personas={"deep": {"base": "mcts", "iterations": 4, "truncate": 20}})
    bot = make_bot(json.loads(cfg.personas_json)["deep"])  # what the workers build
    assert (bot.spec["iterations"], bot.spec["truncate"], bot.name) == (4, 20, "deep")


def test_bench_reports_search_iterations_per_second():
    from click.testing import CliRunner

    from imhotep_stats.cli import main

    r = CliRunner().invoke(main, ["bench", "--bots", "mcts5,greedy", "--players", "2",
                                  "--games", "2", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["iterations"] > 0 and data["iterations"] % 5 == 0
    assert data["iterations_per_second"] > 0 and data["iterations_per_cpu_second"] > 0
    r = CliRunner().invoke(main, ["bench", "--bots", "mcts5", "--players", "2", "--games", "1"])
    assert r.exit_code == 0 and "iterations" in r.output and "per second" in r.output
    r = CliRunner().invoke(main, ["bench", "--games", "3", "--json"])
    assert "iterations" not in json.loads(r.output)  # scripted bots do not search

"""The ``-mast`` switch of the search bot: MAST rollouts (``rollout.MastTable``,
``rollout.mast_rollout``; docs/search.md)."""

from __future__ import annotations

import hashlib
import random

import pytest

from imhotep_stats.bots import BotSpecError, make_bot
from imhotep_stats.bots.search.rollout import MastTable, mast_rollout
from imhotep_stats.engine.clone import clone
from imhotep_stats.engine.game import Game
from imhotep_stats.engine.options import option_at, option_count
from imhotep_stats.engine.play import bot_rng, chance_seed, play_game
from imhotep_stats.engine.view import View
from tests.test_bots import GuardedView, decision_points, snapshot  # noqa: F401
from tests.test_search import SETUPS, _random_until, assert_blind_to_the_hidden_state


def _digest(sides: str, bots: list[str]) -> str:
    """SHA-256 of one seeded game's decisions and totals (tests/test_fingerprint.py's lines)."""
    g = Game(len(bots), sides, seed=chance_seed(5, 0))
    lines = []
    r = play_game(g, [make_bot(b) for b in bots], [bot_rng(5, 0, p) for p in range(len(bots))],
                  on_decision=lambda g, a: lines.append(
                      f"{g.to_move} {g.kind}: {a} of {len(g.options)}"))
    lines.append(f"totals {list(r.totals)}")
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


# Plain search, recorded on main at aece8d9 (before the switch existed, pure Python): off, the
# switch leaves every game as it was. MAST's, recorded when it was added, compiled and pure
# alike: the compiled layer (rollout.pxd) plays MAST's games as pure Python does.
RECORDED = [
    ("A-A-A-A-A", ["mcts10", "greedy"],
     "fc5bf23ee8caa0ca3c91d710dcb5a0b03bf480e8fae364fd18d93f27609bd1d8"),
    ("D-A-C-B-D", ["mcts10-b1-m0.3-s", "random", "mcts8-t5"],
     "847451f13998cb3cfc327c483433cbc05836d598f0f20dd2b8a3445856162ea9"),
    ("A-A-A-A-A", ["mcts8-mast0.6", "mcts8"],
     "13e09a63d9f410591bfa9a0da7809a646ddb9ccc146761bfdd1faad33e4fb26d"),
    ("D-A-C-B-D", ["mcts8-m0.3-mast0.3", "greedy", "mcts6-t5-mast1"],
     "cbb2f762addc0c8210ae14c0819ef0b83753f6714269f3ecfd182213127b5923"),
]


@pytest.mark.parametrize("sides,bots,recorded", RECORDED)
def test_off_the_games_are_as_before_and_on_as_recorded(sides, bots, recorded):
    assert _digest(sides, bots) == recorded


def test_the_switch_parses_by_name_and_table():
    bot = make_bot("mcts300-mast0.6")
    assert (bot.name, bot.iterations, bot.mast, bot.rollout_name) == \
        ("mcts300-mast0.6", 300, 0.6, "random")
    both = make_bot("mcts300-b1-m0.3-s-mast0.8")
    assert (both.bias, both.margin, both.stop, both.mast) == (1.0, 0.3, True, 0.8)
    assert make_bot("mcts300").mast is None and make_bot("expert").mast is None
    table = make_bot({"base": "mcts", "iterations": 300, "mast": 0.6})
    assert (table.name, table.mast) == ("mcts300-mast0.6", 0.6)
    assert make_bot({"base": "expert", "mast": 1}).mast == 1.0
    assert make_bot("mcts5-mast0").mast == 0.0  # epsilon 0: always the best mean


@pytest.mark.parametrize("spec,message", [
    ("mcts300-mast1.5", "MAST's epsilon .* from 0 to 1, got 1.5"),
    ("mcts300-greedy-mast0.6", "MAST steers random rollouts, not 'greedy'"),
    ("mcts300-kinds-mast0.6", "MAST steers random rollouts, not 'kinds'"),
    ("mcts300-mast", "unknown bot 'mcts300-mast'"),
    ({"base": "mcts", "mast": 2}, "bot spec mast: expected a number from 0 to 1, got 2"),
    ({"base": "mcts", "mast": -0.1}, "bot spec mast: expected a number from 0 to 1"),
    ({"base": "mcts", "mast": "high"}, "bot spec mast: expected a number from 0 to 1"),
    ({"base": "mcts", "mast": True}, "bot spec mast: expected a number from 0 to 1"),
    ({"base": "mcts", "rollout": "greedy", "mast": 0.5}, "MAST steers random rollouts"),
])
def test_bad_mast_names_and_tables_say_what_is_wrong(spec, message):
    with pytest.raises(BotSpecError, match=message):
        make_bot(spec)


def _midgame(players: int = 2, sides: str = "A-A-A-A-A", decisions: int = 20) -> Game:
    g = Game(players, sides, seed=chance_seed(6, players))
    _random_until(g, random.Random(players), decisions)
    return g


def test_a_rollout_credits_each_seats_choices_with_that_seats_reward():
    g = _midgame()
    table = MastTable(2, 0.6)
    mast_rollout(clone(g), random.Random(1), -1, table)
    trail = table.trail
    assert len(trail) > 40 and set(trail[0::2]) == {0, 1}
    table.learn([1.0, 0.0])
    assert table.trail == []
    for p, reward in ((0, 1.0), (1, 0.0)):
        means = table.means[p]
        assert {s[0] for s in means.values()} == {reward}
        assert sum(s[1] for s in means.values()) == trail[0::2].count(p)
        assert set(means) == {trail[j + 1] for j in range(0, len(trail), 2) if trail[j] == p}
    mast_rollout(clone(g), random.Random(2), -1, table)
    table.learn([0.0, 0.5])  # a running mean: seat 0's keys of both rollouts sit between
    assert any(0 < s[0] < 1 for s in table.means[0].values())


def test_the_best_mean_is_the_movers_own():
    g = _midgame()
    p, count = g.to_move, option_count(g)
    assert count >= 3
    options = [option_at(g, i) for i in range(count)]
    table = MastTable(2, 0.0)  # epsilon 0: every choice is the best mean
    for seat in range(2):
        for a in options:
            table.means[seat][a] = [0.1, 1]
    table.means[p][options[2]] = [0.9, 1]  # the mover's best: option 2
    table.means[1 - p][options[1]] = [1.0, 5]  # the other seat's: option 1
    mast_rollout(clone(g), random.Random(0), 1, table)
    assert table.trail == [p, options[2]]


def test_a_search_starts_with_an_empty_table():
    # the table is one search's: a bot that has searched other positions chooses as a new one
    positions = [_midgame(decisions=d) for d in (10, 30, 50)]
    used = make_bot("mcts40-mast0.6")
    for g in positions[1:]:
        used.choose(View(g, g.to_move), g.options, random.Random(3))
    g = positions[0]
    assert used.choose(View(g, g.to_move), g.options, random.Random(4)) == \
        make_bot("mcts40-mast0.6").choose(View(g, g.to_move), g.options, random.Random(4))
    assert not hasattr(used, "table")  # nothing of a search is kept on the bot


@pytest.mark.parametrize("sides,players,prophecies", SETUPS[:5])
def test_mast_choices_do_not_depend_on_the_hidden_state(sides, players, prophecies):
    assert_blind_to_the_hidden_state(make_bot("mcts24-mast0.6"), sides, players, prophecies)


def test_mast_is_deterministic_from_the_seeds():
    games = []
    for global_seed in (1, 2):
        random.seed(global_seed)  # no global random anywhere
        games.append(_digest("D-A-C-B-D", ["mcts10-mast0.6", "greedy", "random"]))
    assert games[0] == games[1]


def test_mast_decides_every_kind_without_touching_the_game(decision_points):  # noqa: F811
    bot = make_bot("mcts8-mast0.6")
    for kind, g0 in sorted(decision_points.items()):
        g = clone(g0)
        before = snapshot(g)
        a = bot.choose(GuardedView(g, g.to_move), g.options, random.Random(1))
        assert a in g.options, f"mast at {kind}: {a} is not legal"
        assert snapshot(g) == before, f"mast changed the game at a {kind} decision"

"""Truncated rollouts (``truncate``, ``mcts400-t40``): scored by ``evaluate`` after at most
that many decisions; deterministic from the seeds; the estimate of a finished game is its
final score; bad values name the key."""

from __future__ import annotations

import random

import pytest

from imhotep_stats.bots import BotSpecError, make_bot
from imhotep_stats.bots.search import rollout as rollout_module
from imhotep_stats.bots.search.evaluate import estimate_points, estimate_shares
from imhotep_stats.bots.search.tree import shares
from imhotep_stats.engine.clone import clone
from imhotep_stats.engine.game import Game, apply
from imhotep_stats.engine.play import chance_seed
from imhotep_stats.engine.view import View


def _random_until(g: Game, rng: random.Random, decisions: int) -> None:
    while not g.over and g.decisions < decisions:
        opts = g.options
        apply(g, opts[int(rng.random() * len(opts))])


def _count_rollouts(bot) -> list[int]:
    """Wrap the bot's rollout; the list fills with each rollout's number of decisions."""
    played: list[int] = []
    inner = bot.rollout

    def counting(g, rng, limit):
        before = g.decisions
        inner(g, rng, limit)
        played.append(g.decisions - before)

    bot.rollout = counting
    return played


@pytest.mark.parametrize("name", ["mcts20-t10", "mcts4-greedy-t5"])
def test_truncated_rollouts_play_at_most_that_many_decisions(name):
    bot, full = make_bot(name), make_bot(name.rsplit("-t", 1)[0])
    played, full_played = _count_rollouts(bot), _count_rollouts(full)
    g = Game(2, "A-A-A-A-A", seed=chance_seed(5, 0))
    _random_until(g, random.Random(0), 20)
    legal = g.options
    assert bot.choose(View(g, g.to_move), legal, random.Random(1)) in legal
    assert full.choose(View(g, g.to_move), legal, random.Random(1)) in legal
    limit = bot.truncate
    assert played and max(played) <= limit
    assert min(full_played) > limit  # from decision 20 a game has far more than 10 to go
    assert sum(played) < sum(full_played) / 3


def test_the_estimate_of_a_finished_game_is_its_final_score():
    for i, (sides, players) in enumerate([("A-A-A-A-A", 2), ("D-C-B-D-C", 3),
                                          ("B-D-C-A-B", 4)]):
        g = Game(players, sides, seed=chance_seed(7, i))
        _random_until(g, random.Random(i), 10**9)
        assert g.over
        assert estimate_points(g) == [float(t) for t in g.totals]
        assert estimate_shares(g) == shares(g)


def test_the_estimate_counts_points_to_come():
    # mid-game, A sides (no game-end penalty): at least the points scored so far; end-of-game scoring that is certain
    # (the engine's own, on a copy) is in it; the game it is given a copy of is untouched
    g = Game(2, "A-A-A-A-A", seed=chance_seed(8, 0))
    _random_until(g, random.Random(3), 60)
    assert not g.over
    before = list(g.totals)
    pts = estimate_points(clone(g))
    assert g.totals == before and not g.over
    assert all(p >= t for p, t in zip(pts, before, strict=True))
    s = estimate_shares(clone(g))
    assert sum(s) == pytest.approx(1.0)


def test_truncate_by_name_and_table():
    bot = make_bot("mcts400-t40")
    assert (bot.name, bot.iterations, bot.rollout_name, bot.truncate) == \
        ("mcts400-t40", 400, "random", 40)
    bot = make_bot("mcts50-greedy-t12")
    assert (bot.rollout_name, bot.truncate) == ("greedy", 12)
    bot = make_bot({"base": "mcts", "iterations": 100, "truncate": 30})
    assert (bot.name, bot.truncate) == ("mcts100-t30", 30)
    assert make_bot("mcts400").truncate is None  # the default plays to the end


@pytest.mark.parametrize("spec,message", [
    ({"base": "mcts", "truncate": 0}, "truncate"),
    ({"base": "mcts", "truncate": -3}, "truncate"),
    ({"base": "mcts", "truncate": 2.5}, "truncate"),
    ({"base": "mcts", "truncate": "round"}, "truncate"),
    ({"base": "mcts", "truncate": True}, "truncate"),
    ("mcts10-t0", "at least 1"),
])
def test_bad_truncate_values_are_rejected(spec, message):
    with pytest.raises(BotSpecError, match=message):
        make_bot(spec) if isinstance(spec, dict) else make_bot(spec)


@pytest.mark.parametrize("value", [0, "round", 1.5])
def test_bad_truncate_in_a_config_names_the_dotted_key(value):
    from imhotep_stats.config import ConfigError
    from tests.test_search_study import study

    with pytest.raises(ConfigError, match=r"bots\.personas\.deep\.truncate"):
        study(lineup=["deep", "greedy"],
              personas={"deep": {"base": "mcts", "iterations": 4, "truncate": value}})


def test_a_truncated_persona_in_a_config_is_accepted():
    import json

    from tests.test_search_study import study

    cfg = study(lineup=["deep", "greedy"],
                personas={"deep": {"base": "mcts", "iterations": 4, "truncate": 20}})
    bot = make_bot(json.loads(cfg.personas_json)["deep"])  # what the workers build
    assert (bot.iterations, bot.truncate, bot.name) == (4, 20, "deep")


def test_rollout_module_limit_counts_decisions():
    g = Game(2, "A-A-A-A-A", seed=chance_seed(4, 0))
    before = g.decisions
    rollout_module.random_rollout(g, random.Random(0), 7)
    assert g.decisions - before == 7

"""The search's strength per CPU second and the reference bot ``expert``: greedy's prices as
root priors, the margin in the reward, the early stop that cannot change a choice, and the
expert by name and by config table."""

from __future__ import annotations

import random

import pytest

from imhotep_stats.bots import BotSpecError, GreedyBot, MctsBot, is_bot_name, make_bot
from imhotep_stats.bots.search.bot import EXPERT
from imhotep_stats.bots.search.rollout import make_rollout
from imhotep_stats.bots.search.tree import best_action, margin_reward, reward, search, shares
from imhotep_stats.engine.clone import clone
from imhotep_stats.engine.game import Game, apply
from imhotep_stats.engine.play import bot_rng, chance_seed, play_game
from imhotep_stats.engine.view import View
from tests.test_bots import decision_points  # noqa: F401


def _midgame(sides: str, players: int, seed: int, decisions: int) -> Game:
    g = Game(players, sides, seed=chance_seed(seed, 0))
    rng = random.Random(seed)
    while not g.over and (g.decisions < decisions or len(g.options) < 3):
        apply(g, g.options[int(rng.random() * len(g.options))])
    return g


def test_greedy_prices_agree_with_greedys_choice(decision_points):  # noqa: F811
    bot = GreedyBot()
    for kind, g0 in sorted(decision_points.items()):
        g = clone(g0)
        legal = list(g.options)
        if len(legal) < 2:
            continue
        view = View(g, g.to_move)
        prices = bot.scores(view, legal)
        assert len(prices) == len(legal), kind
        pick = bot.choose(view, legal, random.Random(0))
        assert prices[legal.index(pick)] >= max(prices) - 1e-6, kind


def test_priors_are_shares_led_by_greedys_best():
    g = _midgame("A-A-A-A-A", 2, 4, 20)
    legal = list(g.options)
    bot = make_bot("mcts10-b1")
    priors = bot.priors(View(g, g.to_move), legal)
    assert set(priors) == set(legal) and abs(sum(priors.values()) - 1) < 1e-9
    prices = GreedyBot().scores(View(g, g.to_move), legal)
    assert max(priors, key=priors.get) is legal[prices.index(max(prices))]
    assert make_bot("mcts10").priors(View(g, g.to_move), legal) is None


def test_the_early_stop_never_changes_the_choice():
    stopped = 0
    rollout = make_rollout("random")
    for seed in range(6):
        g = _midgame("A-A-A-A-A", 2, seed, 30 + 7 * seed)
        legal = list(g.options)
        full = search(g, g.to_move, random.Random(seed), 200, 0.7, rollout)
        early = search(g, g.to_move, random.Random(seed), 200, 0.7, rollout, stop=True)
        assert best_action(early, legal) is best_action(full, legal)
        used = sum(c.n for c in early.children.values())
        assert used <= 200
        stopped += used < 200
    assert stopped >= 1  # some decisions are settled before the budget is spent


def test_the_margin_reward_is_a_share_of_the_win_and_the_lead():
    assert margin_reward([50.0, 50.0], 10.0) == [0.5, 0.5]
    lead = margin_reward([60.0, 40.0, 45.0], 10.0)
    assert lead[0] > 0.9 and lead[1] < lead[2] < 0.5
    g = _midgame("A-A-A-A-A", 2, 1, 10**6)  # a finished game
    assert g.over
    assert reward(g, 0.0) == shares(g)
    mixed = reward(g, 0.3)
    assert all(0.0 <= r <= 1.0 for r in mixed)
    assert max(range(2), key=mixed.__getitem__) in g.winners()


def test_expert_by_name_and_by_table():
    bot = make_bot("expert")
    assert isinstance(bot, MctsBot) and bot.name == "expert"
    assert bot.iterations == EXPERT["iterations"]
    small = make_bot({"base": "expert", "iterations": 12, "name": "small"})
    assert (small.name, small.iterations, small.bias, small.margin, small.stop) == \
        ("small", 12, bot.bias, bot.margin, bot.stop)
    assert make_bot({"base": "expert", "iterations": 12}).name == "expert"
    plain = make_bot({"base": "mcts", "iterations": 12})
    assert (plain.bias, plain.margin, plain.stop) == (0.0, 0.0, False)
    named = make_bot("mcts50-greedy-t30-b2-m0.25-s-c0.5")
    assert (named.iterations, named.rollout_name, named.truncate, named.bias, named.margin,
            named.stop, named.exploration) == (50, "greedy", 30, 2.0, 0.25, True, 0.5)
    assert named.name == "mcts50-greedy-t30-b2-m0.25-s-c0.5"


@pytest.mark.parametrize("spec,message", [
    ({"base": "expert", "margin": 2}, "margin"),
    ({"base": "expert", "bias": -1}, "bias"),
    ({"base": "expert", "stop": "yes"}, "stop"),
    ({"base": "expert", "depth": 3}, "'depth'"),
    ("mcts10-m1.5", "margin"),
])
def test_bad_expert_specs_name_the_key(spec, message):
    with pytest.raises(BotSpecError, match=message):
        make_bot(spec)


def _game(names, sides, players, seed):
    bots = [make_bot(n) for n in names]
    g = Game(players, sides, seed=chance_seed(seed, 0))
    r = play_game(g, bots, [bot_rng(seed, 0, p) for p in range(players)])
    return r.totals, r.decisions, bots[0].searched


def test_a_small_expert_is_deterministic_and_beats_random():
    small = {"base": "expert", "iterations": 16, "name": "small"}
    a = _game([small, "random"], "D-A-C-B-D", 2, seed=5)
    b = _game([small, "random"], "D-A-C-B-D", 2, seed=5)
    assert a == b and a[2] > 0
    assert a[0][0] > a[0][1]


def test_the_deleted_kinds_rollout_is_refused():
    # docs/search.md: "-kinds" lost at equal CPU and was deleted
    with pytest.raises(BotSpecError, match="rollout"):
        make_bot({"base": "mcts", "rollout": "kinds"})
    assert not is_bot_name("mcts400-kinds")


def test_the_expert_is_the_search_its_evidence_names():
    # docs/search.md measures the expert under its parameter name: the same bot
    a, b = make_bot("expert"), make_bot("mcts1900-b1-s")
    keys = ("iterations", "rollout_name", "exploration", "truncate", "bias", "margin", "stop")
    assert [getattr(a, k) for k in keys] == [getattr(b, k) for k in keys]

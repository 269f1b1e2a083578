"""The learned value (``value = "fit"``, ``mcts400-t5-v``): each seat's chance to win at a
truncated rollout's end, a conditional logit over the seats with weights fitted by
tools/fit_value.py (data/value.toml); by name and table; it changes what the search sees."""

from __future__ import annotations

import random
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from imhotep_stats.bots import BotSpecError, make_bot
from imhotep_stats.bots.search.evaluate import FEATURES, fitted_weights, value_shares
from imhotep_stats.bots.search.rollout import make_rollout
from imhotep_stats.bots.search.tree import reward, search, shares
from imhotep_stats.engine.clone import clone
from imhotep_stats.engine.game import Game, apply
from imhotep_stats.engine.play import chance_seed
from imhotep_stats.engine.view import View

ROOT = Path(__file__).resolve().parents[1]


def _midgame(players: int, seed: int, decisions: int) -> Game:
    g = Game(players, "A-A-A-A-A", seed=chance_seed(seed, 0))
    rng = random.Random(seed)
    while not g.over and (g.decisions < decisions or len(g.options) < 3):
        apply(g, g.options[int(rng.random() * len(g.options))])
    return g


def test_the_value_is_a_share_that_rises_with_points_and_stones():
    w = fitted_weights()
    assert len(w) == len(FEATURES)
    # a finished game's points decide more the less is left: points weigh more than nothing
    assert w[FEATURES.index("points")] > 0
    for players in (2, 3, 4):
        g = _midgame(players, players, 30)
        base = value_shares(clone(g), w)
        assert sum(base) == pytest.approx(1.0) and all(0 < s < 1 for s in base)
        ahead = clone(g)
        ahead.totals[0] += 10  # hand-built: seat 0 ten points further on
        richer = value_shares(ahead, w)
        assert richer[0] > base[0] and all(r < b for r, b in zip(richer[1:], base[1:],
                                                                 strict=True))
    level = Game(2, "A-A-A-A-A", seed=chance_seed(1, 0))  # the start: nobody ahead
    assert value_shares(clone(level), w) == pytest.approx([0.5, 0.5], abs=0.05)


def test_a_finished_rollout_keeps_its_true_result():
    g = _midgame(2, 3, 10**9)
    assert g.over
    assert reward(g, 0.0, fitted_weights()) == shares(g)


def test_the_value_changes_what_a_truncated_search_sees():
    g = _midgame(2, 5, 40)
    rollout = make_rollout("random")
    plain = search(View(g, g.to_move), g.to_move, random.Random(2), 200, 0.7, rollout, 5)
    fitted = search(View(g, g.to_move), g.to_move, random.Random(2), 200, 0.7, rollout, 5,
                    weights=fitted_weights())
    visits = {a: c.n for a, c in plain.children.items()}
    assert visits != {a: c.n for a, c in fitted.children.items()}


def test_value_by_name_and_table():
    bot = make_bot("mcts400-t5-v")
    assert (bot.name, bot.truncate, bot.value) == ("mcts400-t5-v", 5, "fit")
    assert make_bot("mcts400-t5-b1-m0.3-s-v").name == "mcts400-t5-b1-m0.3-s-v"
    bot = make_bot({"base": "mcts", "iterations": 30, "truncate": 5, "value": "fit"})
    assert (bot.name, bot.value) == ("mcts30-t5-v", "fit")
    assert make_bot("mcts400-t5").value is None


@pytest.mark.parametrize("spec,message", [
    ("mcts400-v", "truncated"),
    ({"base": "mcts", "value": "fit"}, "value"),
    ({"base": "mcts", "truncate": 5, "value": "linear"}, "value"),
])
def test_bad_values_are_rejected(spec, message):
    with pytest.raises(BotSpecError, match=message):
        make_bot(spec)


def test_the_fit_script_writes_every_weight(tmp_path):
    out = tmp_path / "value.toml"
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "fit_value.py"), "--games",
                          "30", "--out", str(out)], capture_output=True, text=True, check=True)
    assert "held out" in run.stdout
    weights = tomllib.loads(out.read_text())["weights"]
    assert sorted(weights) == sorted(FEATURES)
    assert "fit_value.py --games 30" in out.read_text()

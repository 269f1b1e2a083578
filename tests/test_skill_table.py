"""scripts/skill_table.py, the tables of docs/skill.md: the interval it gives a score source's
share, and the name it gives the reference bot's rows."""

from __future__ import annotations

import numpy as np
import polars as pl

from tests.helpers import load_script


def _script():
    return load_script("scripts/skill_table.py")


def _games(n: int, seed: int) -> pl.LazyFrame:
    """Two seats a game; the pyramid's points vary most from game to game."""
    rng = np.random.default_rng(seed)
    rows = 2 * n
    pts = {f"pts_{s}": rng.poisson(5, rows) for s in ("market", "temple", "burial_chamber",
                                                      "obelisk", "card_statue")}
    pts["pts_pyramid"] = rng.poisson(np.repeat(rng.uniform(2, 30, n), 2))
    score = sum(pts.values())
    return pl.LazyFrame({"game": np.repeat(np.arange(n), 2), **pts, "score": score})


def test_a_shares_interval_is_the_spread_of_the_share_over_resampled_games():
    """The widest half-width is the pyramid's, and it is what resampling whole games gives."""
    skill = _script()
    n = 2000
    lf = _games(n, 1)
    half = skill._share_halfwidth(lf)
    per_game = lf.group_by("game").agg(pl.col("pts_pyramid", "score").sum()).collect()
    y, t = per_game["pts_pyramid"].to_numpy(), per_game["score"].to_numpy()
    rng = np.random.default_rng(2)
    boot = [y[i].sum() / t[i].sum() for i in (rng.integers(0, n, n) for _ in range(400))]
    assert abs(half - 1.96 * np.std(boot)) < 0.2 * half
    assert skill._share_halfwidth(_games(n // 4, 1)) > 1.6 * half  # about twice: 1 / sqrt(n)


def test_the_reference_bots_rows_are_named_by_its_settings():
    """The expert's rows are played under an mcts name that makes the same bot (a retuned
    expert gets rows of its own), and the table says it is the expert."""
    from imhotep_stats.bots import make_bot

    skill = _script()
    name = skill.expert_name()
    keys = ("iterations", "rollout", "exploration", "truncate", "bias", "margin", "stop")
    assert name is not None
    assert [make_bot(name).spec[k] for k in keys] == [make_bot("expert").spec[k] for k in keys]
    assert skill.row_name(name).startswith("**expert**")
    assert skill.row_name("mcts400") == "mcts400"


def test_the_search_rows_are_read_against_the_seat_greedys_verdict_names():
    """Greedy's seat 1 is ahead (55.6% of 2,000: its verdict names seat 1); a search row whose
    seat 1 wins 40% of 1,000 is 15.6 pp below it, with an interval that excludes 0."""
    skill = _script()

    def cell(rates, games):
        return {"games": games, "seats": [{"wins": r * games} for r in rates]}

    line = skill.against_greedy([("greedy", cell([0.556, 0.444], 2000)),
                                 ("mcts400", cell([0.40, 0.60], 1000))])[0]
    assert line.startswith("Seat 1 against greedy's: mcts400 -15.6 pp (-19.")
    assert skill.against_greedy([("random", cell([0.5, 0.5], 10)),
                                 ("mcts400", cell([0.4, 0.6], 10))]) == []

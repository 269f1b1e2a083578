"""Game-level uncertainty where seats of a game are counted together (issue 21 item 4).

Simulated multi-player data, numpy only, through the project's functions:

- ratings: 4-player games among three bots, finishing orders drawn Plackett-Luce from the
  bots' strengths (so each pair's marginal is Bradley-Terry with those strengths); the
  cluster sandwich interval (``rating.bradley_terry(clusters=...)``) covers the true
  ratings about 95% of the time, the Wald interval less;
- comebacks and card strength: 4-player games of six rounds with integer round scores
  (ties happen, as in the game), a per-game seat strength driving both the score and the
  chance to take a card; the game-clustered intervals of ``stats.playtest`` cover the
  truth (estimated from 200,000 simulated games) about 95% of the time.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import polars as pl
import pytest

from imhotep_stats.sim.schema import CARDS, ROUNDS
from imhotep_stats.stats.intervals import wilson_arrays
from imhotep_stats.stats.playtest import card_strength, comebacks, newcombe
from imhotep_stats.stats.rating import ELO, bradley_terry

# --- ratings ---------------------------------------------------------------------------

STRENGTH = np.array([0.0, 0.5, -0.6])  # log strengths of three bots
LINEUP = (0, 1, 2, 0)  # four seats, bot 0 twice (its two seats are not compared)


def _rating_games(rng, games: int) -> np.ndarray:
    """Per game, the 3 x 3 pairwise win matrix (``wins[i, j]``: i ahead of j)."""
    k = len(STRENGTH)
    seats = np.array(LINEUP)
    out = np.zeros((games, k, k))
    g = rng.gumbel(size=(games, seats.size)) + STRENGTH[seats]  # Plackett-Luce
    for a in range(seats.size):
        for b in range(a + 1, seats.size):
            i, j = seats[a], seats[b]
            if i == j:
                continue
            ahead = g[:, a] > g[:, b]
            out[:, i, j] += ahead
            out[:, j, i] += ~ahead
    return out


def _rating_coverage(reps: int, games: int, seed: int) -> tuple[float, float, float]:
    rng = np.random.default_rng(seed)
    true = (STRENGTH - STRENGTH.mean()) * ELO
    cov_s = cov_w = 0
    ratio = []
    for _ in range(reps):
        per_game = _rating_games(rng, games)
        w = per_game.sum(axis=0)
        s = bradley_terry(w, clusters=per_game)
        plain = bradley_terry(w)
        cov_s += int(np.sum((s.ci_low <= true) & (true <= s.ci_high)))
        cov_w += int(np.sum((plain.ci_low <= true) & (true <= plain.ci_high)))
        ratio.append(np.mean(s.se / plain.se))
    n = reps * len(true)
    return cov_s / n, cov_w / n, float(np.mean(ratio))


def test_rating_sandwich_intervals_cover_and_wald_ones_are_narrow():
    sandwich, wald, ratio = _rating_coverage(400, 300, 3000)
    # 1,200 intervals (three per study, correlated): 0.95 within about 3 SE.
    assert 0.93 <= sandwich <= 0.97, sandwich
    assert ratio > 1.05, ratio  # the sandwich is wider: the seats of a game are tied
    assert wald < sandwich, (wald, sandwich)


def test_sandwich_checks_its_clusters():
    per_game = _rating_games(np.random.default_rng(1), 20)
    with pytest.raises(ValueError, match="sum to the wins"):
        bradley_terry(per_game.sum(axis=0) + 1.0, clusters=per_game)
    r = bradley_terry(per_game.sum(axis=0), clusters=per_game, prior=0.5)
    assert r.variance == "cluster sandwich" and r.prior == 0.5


@pytest.mark.slow
def test_rating_coverage_slow():
    sandwich, wald, ratio = _rating_coverage(2000, 400, 3100)
    print(f"ratings: sandwich {sandwich:.3f}, Wald {wald:.3f}, se ratio {ratio:.2f}")
    assert 0.935 <= sandwich <= 0.965


# --- comebacks and card strength --------------------------------------------------------

PLAYERS = 4


def _table(rng, games: int) -> pl.LazyFrame:
    """Results rows of ``games`` simulated games (the columns playtest reads)."""
    n = games * PLAYERS
    skill = rng.normal(size=(games, PLAYERS))
    rounds = rng.poisson(np.clip(3.0 + 0.8 * skill, 0.2, None)[:, :, None],
                         size=(games, PLAYERS, ROUNDS))
    total = rounds.sum(axis=2)
    best = total == total.max(axis=1, keepdims=True)
    share = best / best.sum(axis=1, keepdims=True)
    took = rng.random((games, PLAYERS)) < 1.0 / (1.0 + np.exp(-skill))
    cols = {"cell": ["c"] * n, "game": np.repeat(np.arange(games), PLAYERS),
            "seat": np.tile(np.arange(PLAYERS), games),
            "win_share": share.ravel().astype(float)}
    cols |= {f"round_{r + 1}": rounds[:, :, r].ravel().astype(np.int16)
             for r in range(ROUNDS)}
    cols |= {f"took_{c}": np.zeros(n, dtype=np.int8) for c in CARDS}
    cols[f"took_{CARDS[0]}"] = took.ravel().astype(np.int8)
    return pl.DataFrame(cols).lazy()


def _figures(lf: pl.LazyFrame, old: bool = False) -> dict[str, tuple[float, float, float]]:
    """(estimate, low, high) of the figures checked: win rate of the leader and of the
    second after rounds 2 and 4, and card strength's difference. ``old``: the intervals
    before issue 21 (Wilson over seat-rows, plain Newcombe), from the same counts."""
    by_rank, _ = comebacks(lf)
    out = {}
    for r in (2, 4):
        for rank in (1, 2):
            row = by_rank.filter((pl.col("round") == r) & (pl.col("rank") == rank)).row(
                0, named=True)
            lo, hi = row["ci_low"], row["ci_high"]
            if old:
                lo, hi = (float(x[0]) for x in wilson_arrays(
                    np.array([row["wins"]]), np.array([float(row["rows"])])))
            out[f"r{r}rank{rank}"] = (row["win_rate"], lo, hi)
    row = card_strength(lf).row(0, named=True)
    lo, hi = row["diff_low"], row["diff_high"]
    if old:
        took, rest = float(row["taken"]), float(row["rows"] - row["taken"])
        _, a, b = newcombe(np.array([row["win_rate_took"] * took]), np.array([took]),
                           np.array([row["win_rate_not"] * rest]), np.array([rest]))
        lo, hi = float(a[0]), float(b[0])
    out["card"] = (row["difference"], lo, hi)
    return out


@cache
def _truth() -> dict[str, float]:
    lf = _table(np.random.default_rng(3200), 200_000)
    return {k: v[0] for k, v in _figures(lf).items()}


def _playtest_coverage(reps: int, games: int, seed: int, old: bool = False
                       ) -> dict[str, float]:
    truth = _truth()
    rng = np.random.default_rng(seed)
    hits = dict.fromkeys(truth, 0)
    for _ in range(reps):
        for k, (_, lo, hi) in _figures(_table(rng, games), old).items():
            hits[k] += lo <= truth[k] <= hi
    return {k: v / reps for k, v in hits.items()}


def test_comeback_and_card_intervals_cover():
    reps = 150
    cov = _playtest_coverage(reps, 1000, 3300)
    slack = 3.5 * math.sqrt(0.95 * 0.05 / reps)
    for k, c in cov.items():
        assert 0.95 - slack <= c <= 1.0, (k, c)
    assert np.mean(list(cov.values())) >= 0.93, cov


def test_design_effects_are_reported():
    """Leaders tied after round 1 cannot all win: their outcomes are negatively related,
    so the design effect is below 1 and the clustered interval narrower than the rows'
    Wilson interval (by about the square root of the design effect)."""
    lf = _table(np.random.default_rng(5), 3000)
    by_rank, by_band = comebacks(lf)
    assert "design_effect" in by_rank.columns and "design_effect" in by_band.columns
    lead = by_rank.filter((pl.col("round") == 1) & (pl.col("rank") == 1)).row(0, named=True)
    assert 0.5 < lead["design_effect"] < 0.9, lead
    low, high = wilson_arrays(np.array([lead["wins"]]), np.array([float(lead["rows"])]))
    ratio = (lead["ci_high"] - lead["ci_low"]) / float(high[0] - low[0])
    assert ratio == pytest.approx(math.sqrt(lead["design_effect"]), rel=0.02)
    card = card_strength(lf).row(0, named=True)
    assert 0.5 < card["diff_design_effect"] < 2.0
    assert card["diff_low"] < card["difference"] < card["diff_high"]


@pytest.mark.slow
def test_comeback_and_card_coverage_slow():
    cov = _playtest_coverage(1000, 1000, 3400)
    print("coverage:", {k: round(v, 3) for k, v in cov.items()})
    before = _playtest_coverage(1000, 1000, 3400, old=True)  # the same studies
    print("coverage before issue 21:", {k: round(v, 3) for k, v in before.items()})
    for c in cov.values():
        assert 0.935 <= c <= 0.965


def test_a_design_effect_of_zero_is_undefined_not_an_infinite_sample():
    # Two games whose rank-1 seats won exactly half their rows each: no spread between the
    # clusters, so the sandwich variance is 0. An effective sample of n / 0 would be infinite
    # (and the Wilson interval NaN); the design effect is then undefined and taken as 1.
    from imhotep_stats.stats.playtest import design_effect
    w, n = np.array([2.0]), np.array([4.0])  # per game: W = 1, N = 2, twice
    d = design_effect(w, n, np.array([2.0]), np.array([8.0]), np.array([4.0]), np.array([2.0]))
    assert d.tolist() == [1.0]

"""Fairness tests, multiple-testing corrections and the seat verdict."""

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from imhotep_stats.stats.intervals import wilson_interval
from imhotep_stats.stats.planning import games_to_exceed
from imhotep_stats.stats.sequential import games_for_verdict
from imhotep_stats.stats.significance import (
    benjamini_hochberg,
    beyond_margin_test,
    chi_square_equal_shares,
    deviation_test,
    equivalence_test,
    holm,
    seat_verdict,
    seat_verdicts,
)

pvals = st.lists(st.floats(0, 1), min_size=1, max_size=30)


# --- chi-square --------------------------------------------------------------------------


@pytest.mark.parametrize("wins", [[410, 300, 290], [120.5, 130.5, 149.0], [51, 49], [3, 2, 2, 3]])
def test_chi_square_matches_scipy(wins):
    games = round(sum(wins))
    stat, df, p = chi_square_equal_shares(wins, games)
    ref = stats.chisquare(wins)  # uniform expected = games / seats
    assert stat == pytest.approx(ref.statistic)
    assert p == pytest.approx(ref.pvalue)
    assert df == len(wins) - 1


def test_chi_square_by_hand_and_errors():
    # 60 games, 3 seats, expected 20 each: (30-20)^2/20 + (20-20)^2/20 + (10-20)^2/20 = 10
    stat, df, p = chi_square_equal_shares([30, 20, 10], 60)
    assert (stat, df) == (10.0, 2)
    assert p == pytest.approx(math.exp(-5))  # chi2 sf with 2 df is exp(-x/2)
    with pytest.raises(ValueError):
        chi_square_equal_shares([30, 20, 11], 60)
    assert math.isnan(chi_square_equal_shares([0, 0], 0)[2])


# --- Holm and Benjamini-Hochberg ---------------------------------------------------------


def test_holm_and_bh_by_hand():
    p = [0.01, 0.04, 0.03, 0.005]
    # Holm, sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04;
    # running max 0.02, 0.03, 0.06, 0.06; back in input order:
    assert holm(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # BH, sorted p * 4 / rank = 0.02, 0.02, 0.04, 0.04; running min from the top keeps them:
    assert benjamini_hochberg(p) == pytest.approx([0.02, 0.04, 0.04, 0.02])
    q = [0.01, 0.02, 0.03, 0.04, 0.05]
    # Holm: 0.05, 0.08, 0.09, 0.08 -> 0.09, 0.05 -> 0.09
    assert holm(q) == pytest.approx([0.05, 0.08, 0.09, 0.09, 0.09])
    # BH: 0.05 for each (p_i * 5 / i = 0.05)
    assert benjamini_hochberg(q) == pytest.approx([0.05] * 5)
    # Capping at 1 and the step-up minimum: BH of (0.5, 0.6) is (min(1.0, 0.6), 0.6)
    assert holm([0.5, 0.6]) == [1.0, 1.0]
    assert benjamini_hochberg([0.5, 0.6]) == pytest.approx([0.6, 0.6])
    assert holm([]) == [] and benjamini_hochberg([]) == []
    with pytest.raises(ValueError):
        holm([0.1, float("nan")])


def _holm_reference(p):
    """Holm straight from the definition, one hypothesis at a time."""
    m = len(p)
    srt = sorted(p)
    out = []
    for x in p:
        i = max(j for j in range(m) if srt[j] == x)  # tied p-values share the last rank
        out.append(max(min(1.0, (m - j) * srt[j]) for j in range(i + 1)))
    return out


@settings(max_examples=60, deadline=None)
@given(p=pvals)
def test_holm_properties(p):
    adj = holm(p)
    assert adj == pytest.approx(_holm_reference(p))
    assert all(a >= x - 1e-15 and a <= 1.0 for a, x in zip(adj, p, strict=True))
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(np.asarray(adj)[order]) >= -1e-15)  # monotone in p


@settings(max_examples=60, deadline=None)
@given(p=pvals)
def test_bh_matches_scipy_and_is_monotone(p):
    adj = benjamini_hochberg(p)
    assert adj == pytest.approx(stats.false_discovery_control(p).tolist())
    assert all(x - 1e-15 <= a <= 1.0 for a, x in zip(adj, p, strict=True))
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(np.asarray(adj)[order]) >= -1e-15)
    assert all(a <= h + 1e-15 for a, h in zip(adj, holm(p), strict=True))  # FDR <= FWER


# --- single-seat tests -------------------------------------------------------------------


def test_equivalence_test_by_hand():
    # 340 wins of 1000, expected 1/3, margin 0.05: b- = 0.283333, b+ = 0.383333
    # z- = (0.34 - 0.283333) / sqrt(0.283333 * 0.716667 / 1000) = 0.056667 / 0.014250 = 3.9767
    # z+ = (0.34 - 0.383333) / sqrt(0.383333 * 0.616667 / 1000) = -0.043333 / 0.015375 = -2.8184
    # p = max(sf(3.9767), cdf(-2.8184)) = max(3.5e-5, 0.002413) = 0.002413
    assert equivalence_test(340, 1000, 1 / 3, 0.05) == pytest.approx(0.002413, abs=2e-6)
    assert equivalence_test(0, 0, 1 / 3, 0.05) == 1.0
    # A margin reaching past 0 leaves only the upper test.
    p = equivalence_test(10, 100, 0.1, 0.2)
    assert p == pytest.approx(stats.norm.cdf((0.1 - 0.3) / math.sqrt(0.3 * 0.7 / 100)))


@settings(max_examples=80, deadline=None)
@given(n=st.integers(10, 20000), frac=st.floats(0, 1), margin=st.floats(0.005, 0.2),
       players=st.integers(2, 5), alpha=st.sampled_from([0.01, 0.05, 0.1]))
def test_tost_is_wilson_interval_inside_margin(n, frac, margin, players, alpha):
    """Rejecting the TOST at alpha = the (1 - 2 alpha) Wilson interval inside the band."""
    p0 = 1 / players
    wins = round(frac * n * 12) / 12  # shares of 2-, 3- and 4-way ties
    low, high = wilson_interval(wins, n, 1 - 2 * alpha)
    inside = low > p0 - margin and high < p0 + margin
    p = equivalence_test(wins, n, p0, margin)
    if abs(p - alpha) > 1e-9:
        assert (p < alpha) == inside


@settings(max_examples=80, deadline=None)
@given(n=st.integers(5, 20000), frac=st.floats(0, 1), players=st.integers(2, 5))
def test_deviation_test_inverts_wilson(n, frac, players):
    p0 = 1 / players
    wins = round(frac * n * 12) / 12
    low, high = wilson_interval(wins, n, 0.95)
    p = deviation_test(wins, n, p0)
    if abs(p - 0.05) > 1e-9:
        assert (p < 0.05) == (not low <= p0 <= high)


def test_deviation_test_by_hand():
    # 40 of 100 against 0.5: z = -0.1 / sqrt(0.25 / 100) = -2, p = 2 * sf(2) = 0.0455
    assert deviation_test(40, 100, 0.5) == pytest.approx(0.04550026)


def test_beyond_margin_test_by_hand():
    # 380 of 1000 against 1/3 +/- 0.02: b = 0.35333, se = sqrt(b (1 - b) / 1000) = 0.015116,
    # z = (0.38 - 0.35333) / 0.015116 = 1.7641, p = sf(1.7641) = 0.03886
    assert beyond_margin_test(380, 1000, 1 / 3, 0.02) == pytest.approx(0.03886, abs=1e-5)
    # The lower side mirrors it: 287 of 1000 against b = 0.31333, z = -1.7641... (not exact
    # mirror: se at the lower boundary) -> P(Z <= (0.287 - 0.31333) / se(0.31333)).
    se = math.sqrt(0.31333333 * 0.68666667 / 1000)
    assert beyond_margin_test(287, 1000, 1 / 3, 0.02) == pytest.approx(
        stats.norm.cdf((0.287 - 0.31333333) / se), rel=1e-4)
    assert beyond_margin_test(340, 1000, 1 / 3, 0.02) > 0.5  # inside the band
    assert beyond_margin_test(0, 0, 1 / 3, 0.02) == 1.0
    assert beyond_margin_test(10, 10, 0.5, 0.5) == 1.0  # nothing lies beyond 1


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 2000), st.floats(0, 1), st.sampled_from([2, 3, 4]))
def test_beyond_margin_rejects_exactly_when_the_wilson_interval_is_outside(n, frac, k):
    """At alpha, rejecting is the (1 - 2 alpha) Wilson interval lying beyond one edge."""
    wins, p0, m = round(frac * n), 1 / k, 0.02
    p = beyond_margin_test(wins, n, p0, m)
    low, high = wilson_interval(wins, n, 0.90)
    if abs(p - 0.05) > 1e-9:
        assert (p < 0.05) == (low > p0 + m or high < p0 - m)


# --- seat verdict ------------------------------------------------------------------------


def _simulate_wins(rng, probs, games, tie_rate=0.1):
    """Seat wins of `games` games: one winner drawn from probs, sometimes a 2-way tie."""
    k = len(probs)
    first = rng.choice(k, size=games, p=probs)
    second = (first + rng.integers(1, k, size=games)) % k
    tie = rng.random(games) < tie_rate
    wins = np.bincount(first, weights=np.where(tie, 0.5, 1.0), minlength=k)
    wins += np.bincount(second, weights=np.where(tie, 0.5, 0.0), minlength=k)
    return wins.tolist()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_null_case_is_rarely_called_unbalanced(players):
    """Identical players: 'unbalanced' at most alpha of the time (3 standard errors of slack)."""
    rng = np.random.default_rng(20240607 + players)
    reps, alpha = 400, 0.05
    calls = [
        seat_verdict(_simulate_wins(rng, [1 / players] * players, 3000), 3000, 0.02, alpha)
        for _ in range(reps)
    ]
    rate = sum(c.verdict == "unbalanced" for c in calls) / reps
    assert rate <= alpha + 3 * math.sqrt(alpha * (1 - alpha) / reps)
    chi2_rejects = sum(c.chi2_p <= alpha for c in calls) / reps
    assert chi2_rejects <= alpha + 3 * math.sqrt(alpha * (1 - alpha) / reps)


def test_planted_bias_is_detected_in_the_right_seat():
    rng = np.random.default_rng(7)
    probs = [0.29, 0.29, 0.42]
    hits = 0
    for _ in range(50):
        v = seat_verdict(_simulate_wins(rng, probs, 3000), 3000, 0.02)
        hits += v.verdict == "unbalanced" and v.largest_gap_seat == 2
    assert hits == 50
    assert re.fullmatch(r"unbalanced beyond ±2\.0 pp: seat 3 wins 4\d\.\d% against 33\.3% "
                        r"fair share", v.text)
    assert (v.seat, v.direction, v.label) == (2, 1, "unbalanced beyond ±2.0 pp")


def test_verdict_texts_and_fields():
    bal = seat_verdict([33400, 33300, 33300], 100000, 0.02)
    assert bal.verdict == "balanced" and bal.text == "balanced within ±2.0 pp"
    assert bal.seat is None and bal.direction == 0
    assert bal.games_needed is None and bal.more_games is None
    ref = stats.chisquare([33400, 33300, 33300])
    assert (bal.chi2, bal.chi2_p) == pytest.approx((ref.statistic, ref.pvalue))
    assert bal.largest_gap == pytest.approx(0.334 - 1 / 3)
    assert bal.spread == pytest.approx(0.001)

    unb = seat_verdict([1260, 870, 870], 3000, 0.02, seat_names=["start", "second", "third"])
    assert unb.text == "unbalanced beyond ±2.0 pp: start wins 42.0% against 33.3% fair share"
    # Holm within the call, for the minimum-effect test too.
    raw = [beyond_margin_test(w, 3000, 1 / 3, 0.02) for w in (1260, 870, 870)]
    assert list(unb.p_beyond) == pytest.approx(holm(raw))

    inc = seat_verdict([340, 330, 330], 1000, 0.02)
    assert inc.verdict == "inconclusive"
    m = re.fullmatch(r"inconclusive: ([\d,]+) to (more than 50,000|[\d,]+) more games needed",
                     inc.text)
    assert m and int(m.group(1).replace(",", "")) == inc.more_games_range[0] <= inc.more_games
    assert inc.games_needed > 1000 and inc.more_games >= inc.games_needed - 1000
    # "Within" is a cell claim (intersection-union): the seats' raw equivalence p-values,
    # and the cell's p-value is their largest, with no correction across seats.
    raw = [equivalence_test(w, 1000, 1 / 3, 0.02) for w in (340, 330, 330)]
    assert list(inc.p_equivalence) == pytest.approx(raw)
    assert inc.p_within == pytest.approx(max(raw))

    none = seat_verdict([0, 0, 0], 0, 0.02)
    assert none.verdict == "inconclusive" and none.more_games > 0


def test_small_gap_in_a_huge_sample_is_tilted_not_unbalanced():
    """Significant but shown inside the margin: within ±m, tilted, naming the seat and its
    direction; never unbalanced (issue 16: pyramid personas, 4 players, 4,000 games)."""
    v = seat_verdict([340000, 330000, 330000], 1000000, 0.02)
    assert min(v.p_deviation) < 1e-10
    assert v.verdict == "tilted" and (v.seat, v.direction) == (0, 1)
    assert v.text == "within ±2.0 pp, tilted: seat 1 ahead, wins 34.0% against 33.3% fair share"
    behind = seat_verdict([320000, 340000, 340000], 1000000, 0.02)
    assert behind.verdict == "tilted" and (behind.seat, behind.direction) == (0, -1)
    # Seat 3 at 27.3% of 4,000 games, margin 2 pp: its gap (0.9-3.7 pp) is significant but
    # not shown beyond 2 pp: inconclusive, no longer "unbalanced".
    v = seat_verdict([970, 970, 968, 1092], 4000, 0.02)
    assert min(v.p_deviation) <= 0.05 and v.verdict == "inconclusive"
    # A gap shown beyond the margin: seat 3 at 31% of 4,000 games.
    assert seat_verdict([920, 920, 920, 1240], 4000, 0.02).verdict == "unbalanced"


def test_two_players_are_one_hypothesis():
    v = seat_verdict([1040, 960], 2000, 0.05)
    raw = deviation_test(1040, 2000, 0.5)
    assert v.p_deviation == pytest.approx((raw, raw))  # not doubled by Holm
    assert v.chi2_p == pytest.approx(raw)  # the same test for two seats


def test_inconclusive_outside_margin_points_to_the_minimum_effect_test():
    # Observed gap 11 points with margin 2: equivalence is out of reach, more games would
    # show the seat beyond the margin; the estimate is what the next look needs, and the next
    # look (a top-up) is sequential (issue 46): the sequential plan at that gap, alpha split
    # over the seats, not the fixed-sample minimum-effect plan.
    v = seat_verdict([44.5, 30.5, 25], 100, 0.02)
    assert v.verdict == "inconclusive"
    assert v.games_needed == games_for_verdict([0.445, 0.305, 0.25], 100, 0.02, 0.05 / 3)
    assert v.games_needed > max(games_to_exceed(0.445 - 1 / 3, 0.02, 3), 101)
    # A gap right at the margin never settles.
    assert seat_verdict([1040, 960], 2000, 0.02).games_needed is None
    with pytest.raises(ValueError):
        seat_verdict([1, 2], 3, 0.02, seat_names=["only one"])


def test_many_cells_corrected_together():
    cells = [([1040, 960], 2000), ([700, 650, 650], 2000), ([260, 240, 250, 250], 1000)]
    raw = [deviation_test(1040, 2000, 1 / 2)]  # two seats: one hypothesis
    raw += [deviation_test(w, 2000, 1 / 3) for w in (700, 650, 650)]
    raw += [deviation_test(w, 1000, 1 / 4) for w in (260, 240, 250, 250)]
    for correction, adjust in (("holm", holm), ("bh", benjamini_hochberg)):
        vs = seat_verdicts(cells, 0.02, correction=correction)
        flat = [vs[0].p_deviation[0], *vs[1].p_deviation, *vs[2].p_deviation]
        assert flat == pytest.approx(adjust(raw))
        assert vs[0].p_deviation[0] == vs[0].p_deviation[1]
    assert seat_verdicts(cells[1:2], 0.02)[0] == seat_verdict(*cells[1], 0.02)
    # A Holm-corrected report needs more games than its cells would alone.
    inc = seat_verdicts([([340, 330, 330], 1000)] * 5, 0.02)
    assert inc[0].games_needed > seat_verdict([340, 330, 330], 1000, 0.02).games_needed
    with pytest.raises(ValueError):
        seat_verdicts(cells, 0.02, correction="bonferroni")


def test_sweep_with_bh_finds_the_planted_cell():
    rng = np.random.default_rng(123)
    cells = [(_simulate_wins(rng, [1 / 3] * 3, 2000), 2000) for _ in range(40)]
    cells[17] = (_simulate_wins(rng, [0.40, 0.30, 0.30], 2000), 2000)
    vs = seat_verdicts(cells, 0.02, correction="bh")
    flagged = [i for i, v in enumerate(vs) if v.verdict == "unbalanced"]
    assert 17 in flagged and len(flagged) <= 3

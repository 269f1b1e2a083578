"""Intervals checked against scipy and against cases worked by hand."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from imhotep_stats.stats.intervals import (
    mean_interval,
    min_detectable_difference,
    paired_difference,
    wilson_arrays,
    wilson_interval,
)


def test_wilson_81_of_263_by_hand():
    # p = 81/263 = 0.307985, z = 1.959964, z^2/n = 3.841459/263 = 0.014606
    # center = (0.307985 + 0.007303) / 1.014606 = 0.310749
    # half   = 1.959964 / 1.014606 * sqrt(0.307985 * 0.692015 / 263 + 3.841459 / (4 * 263^2))
    #        = 1.931749 * sqrt(0.00081039 + 0.00001388) = 0.055461
    # -> (0.25529, 0.36621)
    low, high = wilson_interval(81, 263)
    assert low == pytest.approx(0.25529, abs=5e-5)
    assert high == pytest.approx(0.36621, abs=5e-5)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 5000), frac=st.floats(0, 1), conf=st.sampled_from([0.8, 0.9, 0.95, 0.99]))
def test_wilson_matches_scipy_for_integer_successes(n, frac, conf):
    k = round(frac * n)
    ref = stats.binomtest(k, n).proportion_ci(confidence_level=conf, method="wilson")
    low, high = wilson_interval(k, n, conf)
    assert low == pytest.approx(ref.low, abs=1e-12)
    assert high == pytest.approx(ref.high, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 2000), frac=st.floats(0, 1))
def test_wilson_fractional_successes_lie_between_integer_neighbours(n, frac):
    s = frac * (n - 1)
    lo_f, hi_f = wilson_interval(s, n)
    lo_a, hi_a = wilson_interval(math.floor(s), n)
    lo_b, hi_b = wilson_interval(math.floor(s) + 1, n)
    assert lo_a - 1e-12 <= lo_f <= lo_b + 1e-12
    assert hi_a - 1e-12 <= hi_f <= hi_b + 1e-12
    assert lo_f <= s / n <= hi_f


def test_wilson_edges():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and 0 < high < 1
    low, high = wilson_interval(10, 10)
    assert high == 1.0 and 0 < low < 1
    with pytest.raises(ValueError):
        wilson_interval(11, 10)
    lows, highs = wilson_arrays([1, 2.5, 0], [4, 4, 0])
    assert lows.shape == (3,) and highs[2] == 1.0


def test_mean_interval_against_scipy():
    x = np.random.default_rng(3).normal(5.0, 2.0, size=37)
    mean, low, high = mean_interval(x)
    ref = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    assert mean == pytest.approx(x.mean())
    assert (low, high) == pytest.approx(ref, abs=1e-12)


def test_mean_interval_by_hand_and_small_n():
    # 2, 4, 6, 8: mean 5, s = sqrt(20/3) = 2.581989, se = 1.290994, t_3 = 3.182446
    # half = 4.108520 -> (0.891480, 9.108520)
    mean, low, high = mean_interval([2, 4, 6, 8])
    assert (mean, low, high) == pytest.approx((5.0, 0.891480, 9.108520), abs=1e-6)
    assert math.isnan(mean_interval([])[0])
    m1 = mean_interval([3.0])
    assert m1[0] == 3.0 and math.isnan(m1[1]) and math.isnan(m1[2])
    assert mean_interval([2.0, 2.0, 2.0]) == (2.0, 2.0, 2.0)


def test_paired_difference_against_ttest_rel():
    rng = np.random.default_rng(11)
    base = rng.normal(30, 6, size=200)
    whatif = base + rng.normal(0.8, 2.0, size=200)
    res = paired_difference(whatif, base)
    ref = stats.ttest_rel(whatif, base)
    ci = ref.confidence_interval(0.95)
    assert res["diff"] == pytest.approx(np.mean(whatif - base))
    assert res["p_value"] == pytest.approx(ref.pvalue, rel=1e-9)
    assert (res["ci_low"], res["ci_high"]) == pytest.approx((ci.low, ci.high), rel=1e-9)
    assert res["n"] == 200


def test_paired_difference_identical_is_exactly_zero_without_warnings():
    x = np.random.default_rng(2).integers(0, 60, size=500)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = paired_difference(x, x.copy())
        const = paired_difference(x + 2, x)
    assert res == {"diff": 0.0, "ci_low": 0.0, "ci_high": 0.0, "p_value": 1.0, "n": 500}
    assert (const["diff"], const["ci_low"], const["ci_high"], const["p_value"]) == (2, 2, 2, 0)
    with pytest.raises(ValueError):
        paired_difference([1, 2], [1])
    one = paired_difference([1.0], [0.5])
    assert one["diff"] == 0.5 and math.isnan(one["p_value"])


def test_min_detectable_difference():
    # (z_0.975 + z_0.8) * sqrt(p (1 - p) / n) = (1.959964 + 0.841621) * sqrt(2/9 / 1000)
    #  = 2.801585 * 0.0149071 = 0.041764
    assert min_detectable_difference(1000, 1 / 3) == pytest.approx(0.041764, abs=1e-6)
    # Check the meaning: a true gap of mdd gives the two-sided z test power 0.8.
    n, p = 2500, 0.25
    d = min_detectable_difference(n, p)
    se = math.sqrt(p * (1 - p) / n)
    z = stats.norm.ppf(0.975)
    power = stats.norm.cdf(d / se - z) + stats.norm.cdf(-d / se - z)
    assert power == pytest.approx(0.8, abs=1e-3)
    assert min_detectable_difference(4 * n, p) == pytest.approx(d / 2)
    assert min_detectable_difference(0) == math.inf

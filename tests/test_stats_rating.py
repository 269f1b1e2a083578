"""Bradley-Terry ratings against closed forms and a direct scipy.optimize fit."""

import math

import numpy as np
import pytest
from scipy import optimize

from imhotep_stats.stats.rating import ELO, bradley_terry, pairwise_from_ranks


def test_two_bots_closed_form():
    # 3 wins to 1: pi_a / pi_b = 3, gap = 400 log10 3 = 190.85; mean anchor splits it.
    # Information for the gap: n p (1 - p) = 4 * 0.75 * 0.25 = 0.75, var(gap) = 4/3 (in
    # natural units); with mean anchor each rating is +/- gap / 2, var = 1/3.
    r = bradley_terry([[0, 3], [1, 0]], ["a", "b"])
    gap = 400 * math.log10(3)
    assert r.rating == pytest.approx([gap / 2, -gap / 2])
    assert r.se == pytest.approx([math.sqrt(1 / 3) * ELO] * 2)
    assert r.ci_high[0] - r.rating[0] == pytest.approx(1.959964 * r.se[0], rel=1e-6)
    f = bradley_terry([[0, 3], [1, 0]], ["a", "b"], anchor="first")
    assert f.rating == pytest.approx([0.0, -gap])
    assert f.se == pytest.approx([0.0, math.sqrt(4 / 3) * ELO])
    assert list(f.games) == [4, 4]


def test_expected_counts_recover_true_strengths():
    # With w_ij = n * pi_i / (pi_i + pi_j) exactly, the likelihood equations
    # sum_j w_ij = sum_j n_ij p_ij hold at the truth, so the MLE is the truth.
    pi = np.array([1.0, 2.0, 4.0, 0.5])
    n = 120
    w = n * pi[:, None] / (pi[:, None] + pi[None, :])
    np.fill_diagonal(w, 0)
    r = bradley_terry(w)
    truth = 400 * np.log10(pi)
    assert r.rating == pytest.approx(truth - truth.mean(), abs=1e-8)


def _nll(theta_free, w):
    t = np.concatenate([[0.0], theta_free])
    d = t[:, None] - t[None, :]
    return -np.sum(w * (d - np.logaddexp(0, d)))  # w_ij log sigmoid(t_i - t_j)


def test_three_bots_against_scipy_optimize():
    w = np.array([[0, 7, 12], [5, 0, 9], [3, 6.5, 0]], dtype=float)  # a half win included
    fit = optimize.minimize(_nll, np.zeros(2), args=(w,), method="BFGS", tol=1e-12)
    r = bradley_terry(w, ["a", "b", "c"], anchor="first")
    assert r.rating == pytest.approx(np.concatenate([[0], fit.x]) * ELO, abs=1e-4)
    # Standard errors: inverse of a finite-difference Hessian at the optimum.
    h = 1e-4
    x0 = fit.x
    hess = np.zeros((2, 2))
    for i in range(2):
        for j in range(2):
            e_i, e_j = np.eye(2)[i] * h, np.eye(2)[j] * h
            hess[i, j] = (_nll(x0 + e_i + e_j, w) - _nll(x0 + e_i - e_j, w)
                          - _nll(x0 - e_i + e_j, w) + _nll(x0 - e_i - e_j, w)) / (4 * h * h)
    se = np.sqrt(np.diag(np.linalg.inv(hess))) * ELO
    assert r.se[1:] == pytest.approx(se, rel=1e-4)
    m = bradley_terry(w, anchor="mean")
    assert m.rating.mean() == pytest.approx(0, abs=1e-9)
    assert np.diff(m.rating) == pytest.approx(np.diff(r.rating), abs=1e-8)


def test_cyclic_matrix_gives_equal_ratings():
    w = [[0, 6, 4], [4, 0, 6], [6, 4, 0]]  # rock-paper-scissors, balanced overall
    assert bradley_terry(w).rating == pytest.approx([0, 0, 0], abs=1e-9)


def test_unbeaten_bot_needs_a_prior():
    w = [[0, 5, 5], [0, 0, 3], [0, 2, 0]]
    with pytest.raises(ValueError, match="prior"):
        bradley_terry(w)
    r = bradley_terry(w, prior=0.5)
    assert np.all(np.isfinite(r.rating)) and r.rating[0] == max(r.rating)
    with pytest.raises(ValueError, match="never met"):
        bradley_terry([[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]])


def test_pairwise_from_ranks_by_hand():
    games = [
        [("a", 1), ("b", 2), ("b", 3)],  # a beats both b seats: a +2
        [("a", 2), ("b", 1), ("b", 3)],  # a loses to one b, beats the other: a +1, b +1
        [("a", 1), ("b", 1), ("b", 3)],  # tie with one b: +0.5 each; a beats the other: a +1
        [("c", 2), ("a", 1)],
    ]
    pw = pairwise_from_ranks(games)
    assert pw.names == ("a", "b", "c")
    assert pw.wins.tolist() == [[0, 4.5, 1], [1.5, 0, 0], [0, 0, 0]]
    assert pw.games.tolist() == [[0, 6, 1], [6, 0, 0], [1, 0, 0]]

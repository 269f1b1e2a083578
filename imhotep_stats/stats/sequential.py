"""Sequential verdicts: p-values and intervals that stay valid however often you look.

A verdict read after every round of extra games is a test repeated at every look; at full
alpha each time, its error grows with the looks (issue 21: 4.7% becomes 15.3% after four).
Here every p-value is an *anytime-valid* one, p_n = min(1, 1 / M_n), from a test
martingale M_n: a nonnegative process with M_0 = 1 that is a supermartingale under the
null, so by Ville's inequality P(M_n >= 1/alpha for some n) <= alpha. Rejecting whenever
p_n <= alpha, at any look chosen in any way (after every batch, until decided, when the
budget ends), keeps the error at most alpha.

The martingale is a *conjugate mixture* of likelihood ratios (Robbins 1970; Howard,
Ramdas, McAuliffe & Sekhon 2021, "Time-uniform, nonparametric, nonasymptotic confidence
sequences", Ann. Statist. 49, section 3), for a seat's win share x_i in [0, 1] per game
(a shared win counts 1/k):

    M_n(b) = integral over theta of  prod_i (theta / b)^x_i ((1 - theta) / (1 - b))^(1 - x_i)
             d pi(theta)
           = B(a + S, c + n - S) P_post(theta in T) / (B(a, c) P_prior(theta in T))
             / (b^S (1 - b)^(n - S)),       S = sum of the x_i (fractional is fine)

with a Beta(a, c) prior pi restricted to T. Each factor is convex in x_i, so for any
distribution on [0, 1] with mean mu it has expectation at most its value for a Bernoulli
of mean mu (Hoeffding 1963): with T = (b, 1) that is at most 1 whenever mu <= b, so
M_n(b) is a test supermartingale for the composite null "mu <= b", and with T = (0, b)
for "mu >= b" (full prior: the point null "mu = b"). Only the sum S and n enter, so the
shards' per-cell totals suffice and the order of games within a look does not matter.

Why this and not a group-sequential design with alpha spending: spending needs the
number and timing of looks fixed (or modelled) in advance, and the sweep's rounds,
``--until-decided`` and a designer's hand top-ups choose both from the data; a mixture
martingale needs neither, handles fractional wins exactly (no normal approximation),
and its p-values are reciprocal e-values, so Benjamini-Hochberg over them is the e-BH
procedure (Wang & Ramdas 2022), which controls the false discovery rate under any
dependence between cells and at any stopping time; Holm over them keeps the family-wise
error at a stopping time by the same union bound as for fixed samples. The price: at a
single look it needs more games than the fixed-sample test (the tests measure how many).

The prior is Beta with mean b (the null boundary) and standard deviation ``PRIOR_SD``
margins: the alternatives it weighs are a margin or so from the boundary, the effects
the verdicts are about. Tests: ``tests/test_sequential.py``; docs: docs/statistics.md.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np
from scipy import special as _sp
from scipy.optimize import brentq

from imhotep_stats.stats._normal import norm_ppf

PRIOR_SD = 1.0
"""Standard deviation of the mixing prior, in margins (the calibration tests measure it)."""
_MAX_GAMES = 10**9  # betainc slows down a hundredfold near 10^12


def _prior(b: float, scale: float) -> tuple[float, float]:
    """Beta(a, c) with mean b and standard deviation ``scale`` (at most a uniform's spread
    allowed: concentration at least 2)."""
    kappa = max(b * (1.0 - b) / scale**2 - 1.0, 2.0)
    return b * kappa, (1.0 - b) * kappa


def log_evidence(s, n, b: float, scale: float, side: str):
    """log M_n(b) (module docstring) for wins ``s`` in ``n`` games (arrays broadcast).

    ``side``: "above" (against mu <= b), "below" (against mu >= b) or "two" (against
    mu = b). A null that cannot hold (b outside (0, 1)) has infinite evidence against it.
    No games: 0 (M_0 = 1).
    """
    s, n = np.broadcast_arrays(np.asarray(s, dtype=float), np.asarray(n, dtype=float))
    if not 0.0 < b < 1.0:
        return np.full(s.shape, math.inf)
    if side not in ("above", "below", "two"):
        raise ValueError(f"side must be 'above', 'below' or 'two', got {side!r}")
    a, c = _prior(b, scale)
    fail = n - s
    with np.errstate(divide="ignore", invalid="ignore"):
        out = (_sp.betaln(a + s, c + fail) - _sp.betaln(a, c)
               - s * math.log(b) - fail * math.log1p(-b))
        if side != "two":
            out = out + _log_tail(a + s, c + fail, b, side) - _prior_tail(b, scale, side)
    return np.where(n > 0, out, 0.0)


@functools.lru_cache(maxsize=256)
def _prior_tail(b: float, scale: float, side: str) -> float:
    a, c = _prior(b, scale)
    return float(_log_tail(np.array(a), np.array(c), b, side))


def _log_tail(a: np.ndarray, c: np.ndarray, b: float, side: str) -> np.ndarray:
    """log P(theta > b) ("above") or log P(theta < b) ("below"), theta ~ Beta(a, c).

    More than 30 standard deviations from b the tail is 1 to double precision, or so
    small that M_n <= 1 (the likelihood ratios on that side are all below 1: p = 1),
    so it is set to 1 or 0; there ``betainc`` would also take a thousand times longer."""
    a, c = np.broadcast_arrays(a, c)
    mean = a / (a + c)
    z = (b - mean) / np.sqrt(mean * (1.0 - mean) / (a + c + 1.0))
    if side == "below":
        z = -z
    out = np.where(z < 0, 0.0, -math.inf)
    near = np.abs(z) <= 30.0
    if near.any():
        f = _sp.betaincc if side == "above" else _sp.betainc
        with np.errstate(divide="ignore"):
            out[near] = np.log(f(a[near], c[near], b))
    return out


def _p(log_e) -> np.ndarray:
    """p = min(1, 1 / M)."""
    return np.minimum(1.0, np.exp(-np.asarray(log_e, dtype=float)))


def seat_pvalues(wins: float, games: int, players: int, margin: float
                 ) -> tuple[float, float, float]:
    """Anytime-valid ``(p_deviation, p_equivalence, p_beyond)`` of one seat: the seam
    ``stats.significance`` plugs in for its fixed-sample tests, with the same nulls.

    - deviation, H0: mu = 1/players (two-sided prior);
    - equivalence (within +/- m), H0: mu <= 1/players - m or mu >= 1/players + m:
      the larger of the two one-sided p-values (TOST; a boundary outside (0, 1) is a
      null that cannot hold, p = 0);
    - beyond the margin, H0: |mu - 1/players| <= m: one e-value, the average of the
      two one-sided martingales (a prior with half its mass beyond each edge), so the
      side may change between looks without costing more than a factor 2.
    """
    p = _vector(wins, games, players, margin)
    return float(p[0]), float(p[1]), float(p[2])


def cell_pvalues(wins_by_seat: Sequence[float], games: int, margin: float
                 ) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
    """``seat_pvalues`` of one cell's tested seats (all, or seat 1 alone with two players,
    whose rates sum to 1): (deviation, equivalence, beyond), one entry per tested seat,
    the shape of ``stats.significance``' per-cell raw p-values."""
    k = len(wins_by_seat)
    tested = np.asarray(list(wins_by_seat)[: 1 if k == 2 else k], dtype=float)
    p = _vector(tested, np.full(tested.shape, games), k, margin)
    return tuple(map(float, p[0])), tuple(map(float, p[1])), tuple(map(float, p[2]))


def _vector(wins, games, players: int, margin: float) -> np.ndarray:
    """``seat_pvalues`` for arrays of wins and games (the simulations call this)."""
    p0 = 1.0 / players
    dev = _p(log_evidence(wins, games, p0, PRIOR_SD * margin, "two"))
    games = np.asarray(games)
    return np.stack([np.where(games > 0, x, 1.0) for x in (
        dev, _p_within(wins, games, p0, margin), _p_beyond(wins, games, p0, margin))])


def _p_within(wins, games, p0: float, margin: float) -> np.ndarray:
    scale = PRIOR_SD * margin
    return np.maximum(_p(log_evidence(wins, games, p0 - margin, scale, "above")),
                      _p(log_evidence(wins, games, p0 + margin, scale, "below")))


def _p_beyond(wins, games, p0: float, margin: float) -> np.ndarray:
    scale = PRIOR_SD * margin
    lo, hi = p0 - margin, p0 + margin
    e = np.zeros(np.broadcast(np.asarray(wins), np.asarray(games)).shape)
    with np.errstate(over="ignore", divide="ignore"):
        for b, side in ((hi, "above"), (lo, "below")):
            if 0.0 < b < 1.0:  # a boundary outside (0, 1) cannot be passed
                e = e + 0.5 * np.exp(log_evidence(wins, games, b, scale, side))
        return np.minimum(1.0, 1.0 / e)


def confidence_sequence(wins: float, games: int, alpha: float, centre: float,
                        scale: float) -> tuple[float, float]:
    """A (1 - alpha) confidence sequence for a mean in [0, 1] at this look: every mu
    with M_n(mu) < 1/alpha under the full Beta prior of mean ``centre`` and standard
    deviation ``scale`` (fixed in advance: the prior may not follow mu). The chance that
    the sequence ever misses the true mean, at any look, is at most alpha."""
    if games <= 0:
        return 0.0, 1.0
    a, c = _prior(centre, scale)
    s, f = float(wins), float(games) - float(wins)
    const = _sp.betaln(a + s, c + f) - _sp.betaln(a, c) + math.log(alpha)

    def g(mu: float) -> float:  # log M(mu) - log(1/alpha): convex in mu, min at s/n
        return const - s * math.log(mu) - f * math.log1p(-mu)

    tiny = 1e-12
    phat = min(max(s / games, tiny), 1.0 - tiny)
    if g(phat) >= 0.0:  # cannot happen for alpha < 1 (M <= 1 at the estimate's mode)
        return phat, phat
    low = 0.0 if g(tiny) < 0.0 else brentq(g, tiny, phat)
    high = 1.0 if g(1.0 - tiny) < 0.0 else brentq(g, phat, 1.0 - tiny)
    return low, high


def mean_radius(sd: float, games: int, alpha: float, planned: int) -> float:
    """Half-width at ``games`` of the two-sided normal-mixture confidence sequence for a
    mean with per-game standard deviation ``sd`` (Robbins' normal mixture; asymptotic
    when ``sd`` is estimated: Waudby-Smith et al. 2024, "Time-uniform central limit
    theory"), tuned to be narrowest near ``planned`` games:

        sd sqrt((n r^2 + 1) / (n^2 r^2) (2 log(1/alpha) + log(n r^2 + 1)))

    with r^2 = (2 log(1/alpha) + log(2 log(1/alpha) + 1)) / planned. For targets that are
    not a bounded per-game share (``tune``'s point shares)."""
    if games <= 0:
        return math.inf
    la = 2.0 * math.log(1.0 / alpha)
    r2 = (la + math.log(la + 1.0)) / max(planned, 1)
    n = float(games)
    return sd * math.sqrt((n * r2 + 1.0) / (n * n * r2) * (la + math.log(n * r2 + 1.0)))


def games_for_verdict(rates: Sequence[float], games: int, margin: float, level: float,
                      power: float = 0.8) -> int | None:
    """Total games for a sequential verdict if the observed rates are the truth: the
    smallest n above ``games`` at which every seat's sequential equivalence p-value (the
    largest gap inside the margin) or the largest gap's beyond-margin p-value (outside
    it) is at most ``level``, with each seat's share moved ``z_power`` standard errors
    towards failing (about the planned power). None if above 10^9 games or never (a gap
    right at the margin). Searched by doubling, then refined to about 3% (the text rounds
    to two significant figures)."""
    k = len(rates)
    p0 = 1.0 / k
    zp = norm_ppf(power)
    r = np.asarray(rates[: 1 if k == 2 else k], dtype=float)[:, None]
    gaps = np.abs(r[:, 0] - p0)
    if float(gaps.max()) == margin:
        return None
    j = int(np.argmax(gaps))

    def passes(n: np.ndarray) -> np.ndarray:
        se = zp * np.sqrt(r * (1.0 - r) / n)
        if gaps.max() < margin:  # equivalence, each side with its pessimistic share
            up = _p_within(np.clip(r + se, 0, 1) * n, n, p0, margin)
            down = _p_within(np.clip(r - se, 0, 1) * n, n, p0, margin)
            return np.all(np.maximum(up, down) <= level, axis=0)
        worse = r[j] - np.sign(r[j] - p0) * se[j]
        return _p_beyond(worse * n, n, p0, margin) <= level

    start = max(games + 1, 2)
    grid = start * 2.0 ** np.arange(max(1, math.ceil(math.log2(_MAX_GAMES / start))) + 1)
    ok = passes(grid)
    if not ok.any():
        return None
    i = int(np.argmax(ok))
    if i == 0:
        return start
    fine = np.unique(np.linspace(grid[i - 1], grid[i], 33).round())  # steps of 3%
    return int(fine[int(np.argmax(passes(fine)))])

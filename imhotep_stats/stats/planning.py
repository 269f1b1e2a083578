"""Sample-size planning for seat-fairness verdicts (``imhotep-stats plan``).

The verdict "balanced within +/-m" is a TOST equivalence test per seat (see
``stats.significance.equivalence_test``): seat s is shown equivalent when both one-sided score
tests reject, i.e. when the (1 - 2 alpha') Wilson interval of its win rate lies inside
(1/players - m, 1/players + m).

Choices, stated once:

- "Balanced" is a claim about the cell (every seat within): an intersection-union test
  (Berger 1982), so each seat's TOST runs at the cell's level, alpha' = alpha / family
  with family = the number of *cells* corrected together (1 by default). "Unbalanced
  beyond +/-m" is a claim about a seat, so its test runs at alpha / family with family =
  the number of *seats* (``seat_family(players)`` per cell: the number of seats, except 1
  for two players, whose two seat tests are one and the same test because the win rates
  sum to 1). The report adjusts with Holm, whose strictest step is exactly alpha /
  family, so planning at Bonferroni's level is the conservative end of Holm (a plan never
  promises fewer games than Holm needs).
- Power is for one seat whose true win rate is 1/players + true_gap (the seat at the
  largest gap decides the cell; seats closer to 1/players pass more easily). With every
  seat at exactly its fair share, the chance that all seats pass at once is lower than
  the per-seat power (docs/statistics.md gives the measured figure).
- The win indicator is treated as Bernoulli. Shared wins (fractional shares) only lower
  the variance, so the plan errs on the safe side.
- Normal approximation to the binomial (Chow, Shao & Wang, *Sample Size Calculations in
  Clinical Research*, 2nd ed., 4.2 "equivalence"; Schuirmann 1987 for TOST), with the
  score (null-boundary) standard errors the test itself uses, so plan and test agree.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from imhotep_stats.stats._normal import norm_cdf, norm_ppf
from imhotep_stats.stats.fmt import pct

_MAX_GAMES = 10**12


def seat_family(players: int) -> int:
    """Number of distinct seat hypotheses: two seats share one test (rates sum to 1)."""
    return 1 if players == 2 else players


def _check(margin: float, players: int, alpha: float, power: float) -> float:
    if players < 2:
        raise ValueError(f"players must be at least 2, got {players}")
    p0 = 1.0 / players
    if not 0.0 < margin < 1.0:
        raise ValueError(f"margin must be in (0, 1) (a win-rate difference), got {margin}")
    if not 0.0 < alpha < 1.0 or not 0.0 < power < 1.0:
        raise ValueError("alpha and power must be in (0, 1)")
    return p0


def _edges(n: int, margin: float, p0: float, alpha: float) -> tuple[float, float]:
    """The TOST's acceptance edges for p-hat (see equivalence_power)."""
    z = norm_ppf(1.0 - alpha)
    lo, hi = p0 - margin, p0 + margin
    low = -math.inf if lo <= 0.0 else lo + z * math.sqrt(lo * (1.0 - lo) / n)
    high = math.inf if hi >= 1.0 else hi - z * math.sqrt(hi * (1.0 - hi) / n)
    return low, high


def equivalence_power(
    n: int, margin: float, p0: float, alpha: float, true_gap: float = 0.0
) -> float:
    """Approximate power of the TOST at level ``alpha`` with n games for one proportion.

    Rejection needs p-hat above L = b_lo + z sqrt(b_lo (1 - b_lo) / n) and below
    U = b_hi - z sqrt(b_hi (1 - b_hi) / n), with b = p0 -/+ margin and z = z_{1 - alpha};
    p-hat ~ N(p_t, p_t (1 - p_t) / n) with p_t = p0 + true_gap. A boundary outside (0, 1)
    is a null that cannot hold, so that side always rejects.
    """
    if n <= 0:
        return 0.0
    low, high = _edges(n, margin, p0, alpha)
    if low >= high:
        return 0.0
    pt = min(max(p0 + true_gap, 0.0), 1.0)
    sd = math.sqrt(pt * (1.0 - pt) / n)
    if sd == 0.0:
        return 1.0 if low < pt < high else 0.0
    return norm_cdf((high - pt) / sd) - norm_cdf((low - pt) / sd)


def games_needed(
    margin: float,
    players: int,
    alpha: float = 0.05,
    power: float = 0.8,
    true_gap: float = 0.0,
    family: int | None = None,
) -> int:
    """Games needed so a seat whose true gap is ``true_gap`` is shown balanced within +/-margin.

    ``margin`` and ``true_gap`` are win-rate differences (0.02 = 2 percentage points).
    Returns the smallest n with ``equivalence_power(n, margin, 1/players,
    alpha / family, true_gap) >= power``. Raises ValueError when |true_gap| >= margin:
    equivalence cannot be shown for a seat that really is outside.

    ``family`` is the number of cells corrected together (Holm over cells; default 1):
    the cell's claim is an intersection-union test, so the seats need no split.

    Rule of thumb for true_gap = 0 (the closed form this search refines):
    n ~ (z_{1 - alpha'} + z_{(1 + power)/2})^2 p (1 - p) / margin^2, p = 1/players;
    e.g. margin 0.02, 3 players: about 4,750 games.
    """
    p0 = _check_inside(margin, players, alpha, power, true_gap)
    a = alpha / (family or 1)
    return _smallest(lambda n: equivalence_power(n, margin, p0, a, true_gap) >= power, 0)


def _check_inside(margin: float, players: int, alpha: float, power: float,
                  true_gap: float) -> float:
    p0 = _check(margin, players, alpha, power)
    if abs(true_gap) >= margin:
        raise ValueError(
            f"true gap {true_gap:+.4f} is not inside the margin +/-{margin}: "
            "equivalence cannot be shown"
        )
    return p0


def _smallest(ok, lo: int) -> int:
    """The smallest n > lo with ok(n), for ok monotone and ok(lo) False: doubling, then
    bisection."""
    hi = max(2 * lo, 1)
    while not ok(hi):
        lo, hi = hi, hi * 2
        if hi > _MAX_GAMES:
            raise ValueError("more than 10^12 games needed; widen the margin")
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi


_DRAWS = 20_000  # normal draws of cell_equivalence_power: fixed, so plans are deterministic


@cache
def _normal_draws(players: int) -> np.ndarray:
    return np.random.default_rng(21).standard_normal((_DRAWS, players))


def cell_equivalence_power(
    n: int, margin: float, players: int, alpha: float, true_gap: float = 0.0
) -> float:
    """Approximate chance that *every* seat's TOST at level ``alpha`` passes with n games
    (the cell's intersection-union claim), seat 1 at 1/players + true_gap and the others
    sharing the rest.

    The seats' win rates are drawn jointly: p-hat ~ N(p, (diag p - p p') / n), the
    multinomial's normal approximation, by ``_DRAWS`` fixed draws (A z with
    A = diag(sqrt p) (I - sqrt p sqrt p'), so A A' is that covariance), each seat passing
    between the same edges as ``equivalence_power``. Fixed draws make the result a
    deterministic function of n (Monte Carlo error about 0.003 on a power of 0.8).
    """
    if n <= 0:
        return 0.0
    p0 = 1.0 / players
    low, high = _edges(n, margin, p0, alpha)
    if low >= high:
        return 0.0
    p = np.array([p0 + true_gap] + [p0 - true_gap / (players - 1)] * (players - 1))
    if np.any(p <= 0.0):
        return 0.0
    r = np.sqrt(p)
    a = np.diag(r) @ (np.eye(players) - np.outer(r, r))
    rates = p + _normal_draws(players) @ a.T / math.sqrt(n)
    return float(np.mean(np.all((rates > low) & (rates < high), axis=1)))


def games_needed_every_seat(
    margin: float, players: int, alpha: float = 0.05, power: float = 0.8,
    true_gap: float = 0.0, family: int | None = None,
) -> int:
    """Games for ``cell_equivalence_power`` to reach ``power``: the chance that the cell
    is shown within +/-margin, every seat together (``games_needed`` plans the seat at the
    gap alone, which is the cell's chance only when the other seats are much closer to
    their fair share). Arguments as ``games_needed``."""
    _check_inside(margin, players, alpha, power, true_gap)
    a = alpha / (family or 1)
    # The seat's plan never suffices for every seat: search above it.
    start = games_needed(margin, players, alpha, power, true_gap, family) - 1
    return _smallest(
        lambda n: cell_equivalence_power(n, margin, players, a, true_gap) >= power, start)


def games_to_detect(
    gap: float, players: int, alpha: float = 0.05, power: float = 0.8,
    family: int | None = None,
) -> int:
    """Games needed for the per-seat deviation test to call a true gap ``gap`` unbalanced.

    Two-sided score test of H0: p = p0 = 1/players at alpha' = alpha / seat_family(players)
    (Holm's strictest step), normal approximation:

        n = ((z_{1 - alpha'/2} sqrt(p0 (1 - p0)) + z_{power} sqrt(p1 (1 - p1))) / |gap|)^2

    with p1 = p0 + gap; ``family`` as in ``games_needed``.
    """
    p0 = _check(0.5, players, alpha, power)
    if gap == 0.0:
        raise ValueError("a zero gap cannot be detected")
    p1 = min(max(p0 + gap, 0.0), 1.0)
    za = norm_ppf(1.0 - alpha / (family or seat_family(players)) / 2.0)
    zb = norm_ppf(power)
    n = ((za * math.sqrt(p0 * (1 - p0)) + zb * math.sqrt(p1 * (1 - p1))) / abs(gap)) ** 2
    return max(1, math.ceil(n - 1e-9))


def beyond_power(n: int, margin: float, p0: float, alpha: float, true_gap: float) -> float:
    """Approximate power of the minimum-effect test (``tests.beyond_margin_test``) at level
    ``alpha`` with n games, for a seat whose true win rate is p0 + true_gap.

    The test rejects when p-hat clears the boundary b = p0 +/- margin on the side of the
    gap by z_{1 - alpha} score standard errors: p-hat > b + z sqrt(b (1 - b) / n) (or below
    the lower boundary by as much); p-hat ~ N(p_t, p_t (1 - p_t) / n). The far side's
    rejections are left out (power is slightly understated). A boundary outside (0, 1)
    cannot be passed: power 0.
    """
    if n <= 0:
        return 0.0
    z = norm_ppf(1.0 - alpha)
    pt = min(max(p0 + true_gap, 0.0), 1.0)
    sd = math.sqrt(pt * (1.0 - pt) / n)
    if true_gap >= 0.0:
        b = p0 + margin
        if b >= 1.0:
            return 0.0
        edge = b + z * math.sqrt(b * (1.0 - b) / n)
        return (1.0 if pt > edge else 0.0) if sd == 0.0 else 1.0 - norm_cdf((edge - pt) / sd)
    b = p0 - margin
    if b <= 0.0:
        return 0.0
    edge = b - z * math.sqrt(b * (1.0 - b) / n)
    return (1.0 if pt < edge else 0.0) if sd == 0.0 else norm_cdf((edge - pt) / sd)


def games_to_exceed(
    gap: float, margin: float, players: int, alpha: float = 0.05, power: float = 0.8,
    family: int | None = None,
) -> int:
    """Games needed to call a seat whose true gap is ``gap`` "unbalanced beyond +/-margin".

    One-sided minimum-effect score test of H0: |p - p0| <= margin at alpha' = alpha /
    family (Holm's strictest step, family as in ``games_needed``), normal approximation,
    b = p0 + margin (or p0 - margin for a negative gap), p1 = p0 + gap:

        n = ((z_{1 - alpha'} sqrt(b (1 - b)) + z_{power} sqrt(p1 (1 - p1))) / (|gap| - margin))^2

    Raises ValueError when |gap| <= margin (such a seat is not beyond the margin) or the
    boundary or the seat's rate lies outside [0, 1].
    """
    p0 = _check(margin, players, alpha, power)
    if abs(gap) <= margin:
        raise ValueError(f"gap {gap:+.4f} is not beyond the margin +/-{margin}")
    b = p0 + math.copysign(margin, gap)
    p1 = p0 + gap
    if not 0.0 < b < 1.0 or not 0.0 <= p1 <= 1.0:
        raise ValueError(f"a seat cannot win {pct(p1)} (fair share {pct(p0)}, gap {gap:+.4f}, "
                         f"margin +/-{margin})")
    za = norm_ppf(1.0 - alpha / (family or seat_family(players)))
    zb = norm_ppf(power)
    n = ((za * math.sqrt(b * (1 - b)) + zb * math.sqrt(p1 * (1 - p1)))
         / (abs(gap) - margin)) ** 2
    return max(1, math.ceil(n - 1e-9))

"""Sample-size planning for seat-fairness verdicts (``imhotep-stats plan``).

The verdict "balanced within +/-m" is a TOST equivalence test per seat (see
``stats.significance.equivalence_test``): seat s is shown equivalent when both one-sided score
tests reject, i.e. when the (1 - 2 alpha') Wilson interval of its win rate lies inside
(1/players - m, 1/players + m).

Choices, stated once:

- Each seat's test runs at alpha' = alpha / family, family = ``seat_family(players)``
  (the number of seats, except 1 for two players, whose two seat tests are one and the
  same test because the win rates sum to 1). The report adjusts the seats with Holm,
  whose strictest step is exactly alpha / family, so planning at Bonferroni's level is
  the conservative end of Holm (a plan never promises fewer games than Holm needs).
- Power is for one seat whose true win rate is 1/players + true_gap; seats closer to
  1/players pass more easily.
- The win indicator is treated as Bernoulli. Shared wins (fractional shares) only lower
  the variance, so the plan errs on the safe side.
- Normal approximation to the binomial (Chow, Shao & Wang, *Sample Size Calculations in
  Clinical Research*, 2nd ed., 4.2 "equivalence"; Schuirmann 1987 for TOST), with the
  score (null-boundary) standard errors the test itself uses, so plan and test agree.
"""

from __future__ import annotations

import math

from imhotep_stats.stats._normal import norm_cdf, norm_ppf

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
    z = norm_ppf(1.0 - alpha)
    lo, hi = p0 - margin, p0 + margin
    low = -math.inf if lo <= 0.0 else lo + z * math.sqrt(lo * (1.0 - lo) / n)
    high = math.inf if hi >= 1.0 else hi - z * math.sqrt(hi * (1.0 - hi) / n)
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
    alpha/seat_family(players), true_gap) >= power``. Raises ValueError when
    |true_gap| >= margin: equivalence cannot be shown for a seat that really is outside.

    ``family`` overrides the number of hypotheses the level is split over (default
    ``seat_family(players)``), e.g. all seats of all cells of a Holm-corrected report.

    Rule of thumb for true_gap = 0 (the closed form this search refines):
    n ~ (z_{1 - alpha'} + z_{(1 + power)/2})^2 p (1 - p) / margin^2, p = 1/players;
    e.g. margin 0.02, 3 players: about 6,500 games.
    """
    p0 = _check(margin, players, alpha, power)
    if abs(true_gap) >= margin:
        raise ValueError(
            f"true gap {true_gap:+.4f} is not inside the margin +/-{margin}: "
            "equivalence cannot be shown"
        )
    a = alpha / (family or seat_family(players))

    def ok(n: int) -> bool:
        return equivalence_power(n, margin, p0, a, true_gap) >= power

    hi = 1
    while not ok(hi):
        hi *= 2
        if hi > _MAX_GAMES:
            raise ValueError("more than 10^12 games needed; widen the margin")
    lo = hi // 2  # ok(lo) is False (or lo == 0)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi


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
        raise ValueError(f"a seat cannot win {p1:.1%} (fair share {p0:.1%}, gap {gap:+.4f}, "
                         f"margin +/-{margin})")
    za = norm_ppf(1.0 - alpha / (family or seat_family(players)))
    zb = norm_ppf(power)
    n = ((za * math.sqrt(b * (1 - b)) + zb * math.sqrt(p1 * (1 - p1)))
         / (abs(gap) - margin)) ** 2
    return max(1, math.ceil(n - 1e-9))

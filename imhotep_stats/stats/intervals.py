"""Confidence intervals for the figures a balance report prints.

Every function here is pure (numbers in, numbers out) and avoids scipy's warnings on
degenerate input: a report over an empty or constant sample must print, not crash.

References:
- Wilson, E. B. (1927). Probable inference, the law of succession, and statistical
  inference. JASA 22, 209-212. (score interval for a proportion)
- Agresti, A. & Coull, B. (1998). Approximate is better than "exact" for interval
  estimation of binomial proportions. Am. Stat. 52, 119-126. (why Wilson, not Wald)
- Student's t interval and the paired t test: any textbook, e.g. Rice, *Mathematical
  Statistics and Data Analysis*, 3rd ed., sections 7.3 and 11.3.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy import stats as _st


def _z(confidence: float) -> float:
    """Two-sided normal critical value, e.g. 1.959964 for 0.95."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return float(_st.norm.ppf(0.5 + confidence / 2.0))


def wilson_arrays(
    successes: np.ndarray | Sequence[float],
    n: np.ndarray | Sequence[float],
    confidence: float = 0.95,
) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised Wilson score interval; rows with n == 0 get the vacuous [0, 1].

    Used by the aggregation layer on whole columns at once.
    """
    s = np.asarray(successes, dtype=float)
    m = np.asarray(n, dtype=float)
    if np.any(m < 0) or np.any(s < 0) or np.any(s > m + 1e-9 * np.maximum(m, 1.0)):
        raise ValueError("need 0 <= successes <= n")
    z = _z(confidence)
    z2 = z * z
    low = np.zeros(np.broadcast(s, m).shape)
    high = np.ones_like(low)
    ok = np.broadcast_to(m > 0, low.shape)
    if np.any(ok):
        mm = np.broadcast_to(m, low.shape)[ok]
        p = np.clip(np.broadcast_to(s, low.shape)[ok] / mm, 0.0, 1.0)
        # center -/+ half = (a -/+ b) / (1 + z^2/n) with a = p + z^2/2n and
        # b = z sqrt(p (1 - p) / n + z^2 / 4n^2). Since a^2 - b^2 = p^2 (1 + z^2/n), the
        # lower bound is p^2 / (a + b): no cancellation near 0, exactly 0 at p = 0.
        # The upper bound is the mirror image, 1 - (1 - p)^2 / (a' + b) with a' = 1 - p + z^2/2n.
        b = z * np.sqrt(p * (1.0 - p) / mm + z2 / (4.0 * mm * mm))
        low[ok] = p * p / (p + z2 / (2.0 * mm) + b)
        high[ok] = 1.0 - (1.0 - p) ** 2 / (1.0 - p + z2 / (2.0 * mm) + b)
    return low, high


def wilson_interval(successes: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a win rate ``successes / n``.

    ``successes`` may be fractional: a k-way shared win counts 1/k, and the interval is
    the same formula with p-hat = successes / n (the score interval only needs p-hat and n).
    Chosen over the Wald interval because it keeps its coverage near 0 and 1 and never
    leaves [0, 1] (Agresti & Coull 1998). With ``n == 0`` the interval is [0, 1].

        center = (p + z^2 / 2n) / (1 + z^2 / n)
        half   = z / (1 + z^2 / n) * sqrt(p (1 - p) / n + z^2 / 4n^2)
    """
    low, high = wilson_arrays([successes], [n], confidence)
    return float(low[0]), float(high[0])


def mean_interval(
    values: Sequence[float] | np.ndarray, confidence: float = 0.95
) -> tuple[float, float, float]:
    """Sample mean with a Student t interval: ``(mean, low, high)``.

    n == 0 gives (nan, nan, nan); n == 1 gives (x, nan, nan) because one value says
    nothing about spread; a constant sample gives the degenerate interval (x, x, x).
    """
    x = np.asarray(values, dtype=float).ravel()
    n = x.size
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = float(x.mean())
    if n == 1:
        return (mean, math.nan, math.nan)
    sd = float(x.std(ddof=1))
    half = float(_st.t.ppf(0.5 + confidence / 2.0, n - 1)) * sd / math.sqrt(n)
    return (mean, mean - half, mean + half)


def t_interval_from_moments(
    mean: np.ndarray, se: np.ndarray, df: np.ndarray, confidence: float = 0.95
) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised ``mean +/- t_{df} * se``; df < 1 or a missing se gives nan bounds."""
    mean = np.asarray(mean, dtype=float)
    se = np.asarray(se, dtype=float)
    df = np.asarray(df, dtype=float)
    ok = (df >= 1) & np.isfinite(se)
    q = np.full(np.broadcast(mean, se, df).shape, np.nan)
    if np.any(ok):
        q[ok] = _st.t.ppf(0.5 + confidence / 2.0, np.broadcast_to(df, q.shape)[ok])
    half = q * np.where(ok, se, np.nan)
    return mean - half, mean + half


def paired_difference(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    confidence: float = 0.95,
) -> dict[str, float]:
    """Paired comparison ``a - b`` (what-if minus base on the same seeds).

    Uses the t distribution of the per-pair differences d_i = a_i - b_i (paired t test),
    which is what common random numbers buy: the variance of d, not of a and b apart.
    Returns ``diff`` (mean of d), ``ci_low``, ``ci_high``, ``p_value`` (two-sided, H0:
    mean d = 0) and ``n``.

    Degenerate cases are exact, without NaN warnings: identical inputs give diff 0, the
    interval [0, 0] and p = 1; a constant non-zero difference c gives [c, c] and p = 0.
    Fewer than two pairs give nan for the interval and p.
    """
    x = np.asarray(a, dtype=float).ravel()
    y = np.asarray(b, dtype=float).ravel()
    if x.shape != y.shape:
        raise ValueError(f"paired samples differ in length: {x.size} vs {y.size}")
    d = x - y
    n = d.size
    if n == 0:
        return {"diff": math.nan, "ci_low": math.nan, "ci_high": math.nan,
                "p_value": math.nan, "n": 0}
    diff = float(d.mean())
    if n == 1:
        return {"diff": diff, "ci_low": math.nan, "ci_high": math.nan,
                "p_value": math.nan, "n": 1}
    # Exact zero spread: skip the division that would make scipy warn.
    if np.all(d == d[0]):
        diff = float(d[0])
        return {"diff": diff, "ci_low": diff, "ci_high": diff,
                "p_value": 1.0 if diff == 0.0 else 0.0, "n": n}
    se = float(d.std(ddof=1)) / math.sqrt(n)
    tcrit = float(_st.t.ppf(0.5 + confidence / 2.0, n - 1))
    p = float(2.0 * _st.t.sf(abs(diff) / se, n - 1))
    return {"diff": diff, "ci_low": diff - tcrit * se, "ci_high": diff + tcrit * se,
            "p_value": min(1.0, p), "n": n}


def min_detectable_difference(
    n: float, p: float = 0.5, alpha: float = 0.05, power: float = 0.8
) -> float:
    """Smallest true deviation of a win rate from ``p`` that n games detect.

    Normal approximation to a two-sided one-sample test of a proportion at level alpha
    with the given power (e.g. Chow, Shao & Wang, *Sample Size Calculations in Clinical
    Research*, 2nd ed., section 4.1):

        mdd = (z_{1 - alpha/2} + z_{power}) * sqrt(p (1 - p) / n)

    For a seat's win rate use p = 1 / players; the default p = 0.5 is the worst case.
    With 1,000 games at p = 1/3 this is about 4.2 percentage points. Returns inf for n <= 0.
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1), got {p}")
    if n <= 0:
        return math.inf
    za = float(_st.norm.ppf(1.0 - alpha / 2.0))
    zb = float(_st.norm.ppf(power))
    return (za + zb) * math.sqrt(p * (1.0 - p) / n)

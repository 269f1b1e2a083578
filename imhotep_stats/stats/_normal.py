"""Standard normal functions on plain floats.

scipy.stats.norm costs tens of microseconds per scalar call; sample-size searches and
simulation checks call these thousands of times. ``erfc`` keeps full relative precision
in the tails (p-values like 1e-40), and ``NormalDist.inv_cdf`` is Wichura's AS241.
"""

from __future__ import annotations

import math
from statistics import NormalDist

_SQRT2 = math.sqrt(2.0)
_STD = NormalDist()


def norm_sf(x: float) -> float:
    """P(Z > x)."""
    return 0.5 * math.erfc(x / _SQRT2)


def norm_cdf(x: float) -> float:
    """P(Z <= x)."""
    return 0.5 * math.erfc(-x / _SQRT2)


def norm_ppf(q: float) -> float:
    """The q quantile of Z."""
    return _STD.inv_cdf(q)

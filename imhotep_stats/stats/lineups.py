"""Do the seat effects differ between lineups? A test of the seat x lineup table.

Several lineups (bots) playing the same sides and player count give one table: wins W[l, s]
of seat s in n_l games of lineup l (a k-way shared win counts 1/k to each winner, so every
game hands out exactly one win). The question "is seat 4's deficit an effect of the bots?"
is the hypothesis that every lineup has the same seat shares, H0: p[l, s] = p[s] for all l.

- **Homogeneity**: Pearson's chi-square of the table against the pooled shares,
  X^2 = sum_{l,s} (W[l, s] - n_l pbar_s)^2 / (n_l pbar_s), df = (L - 1)(k - 1) (seats
  that never won are left out). With whole wins each game's winning seat is one
  multinomial draw and this is the textbook test (Agresti, *Categorical Data Analysis*,
  3rd ed., 3.2). With shared wins a game's share vector x has covariance E[x x'] - p p',
  and E[diag(x) - x x'] is positive semi-definite (it is a multinomial covariance for
  every x on the simplex), so the true covariance is below the multinomial one the
  statistic standardises by: X^2 is then stochastically at most chi-square, and the
  chi-square p-value is conservative (tests/test_stats_lineups.py measures it with ties).
- **Trend with skill**: with the lineups' ratings r_l (mean Elo of their bots,
  ``data/bot_ratings.toml``) known for at least three lineups, the weighted least-squares
  slope of each seat's win rate on the rating, b_s = T_s / S_rr with
  T_s = sum_l (r_l - rbar)(W[l, s] - n_l pbar_s) and S_rr = sum_l n_l (r_l - rbar)^2, and
  the score test of "no slope", sum_s T_s^2 / pbar_s / S_rr ~ chi-square(k - 1) (the
  multinomial logit model's score test for a linear rating term, Cochran-Armitage in k
  categories). A slope shows a seat effect that grows or shrinks with the bots' skill.

The omnibus homogeneity test decides whether a report flags a bot effect; the trend is
reported beside it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import optimize
from scipy import stats as _st

POWER = 0.8


@dataclass(frozen=True)
class LineupTest:
    """The seat x lineup test of one (sides, players) group.

    ``rates[l][s]``: seat s's win rate in lineup l. ``seat``: the seat contributing most
    to the statistic (the one whose share varies most between lineups). ``slopes[s]``:
    change of seat s's win rate per rating point (None without ratings), with the trend
    test in ``trend_*`` and the seat with the largest trend in ``trend_seat``.
    """

    statistic: float
    df: int
    p: float
    rates: tuple[tuple[float, ...], ...]
    games: tuple[int, ...]
    seat: int
    alpha: float
    slopes: tuple[float, ...] | None = None
    trend_statistic: float | None = None
    trend_df: int | None = None
    trend_p: float | None = None
    trend_seat: int | None = None
    missable: float | None = None  # a seat difference the test detects with 80% power

    def to_json(self) -> dict[str, Any]:
        return {"statistic": self.statistic, "df": self.df, "p": self.p,
                "missable": self.missable,
                "seat": self.seat, "alpha": self.alpha,
                "slopes_per_100_rating": None if self.slopes is None else
                [100 * b for b in self.slopes],
                "trend_statistic": self.trend_statistic, "trend_df": self.trend_df,
                "trend_p": self.trend_p, "trend_seat": self.trend_seat}


def missable(games: Sequence[float], players: int, alpha: float = 0.05,
             power: float = POWER) -> float:
    """The difference in one seat's win rate between two lineups (the two with the fewest
    games) that the homogeneity test detects with probability ``power`` at level
    ``alpha``: a smaller difference can pass unseen, so "no difference detected" is said
    with it ("could miss up to ±X pp").

    Seat s at 1/k + d·n2/(n1+n2) in one lineup and 1/k - d·n1/(n1+n2) in the other, the
    other seats sharing the rest evenly, gives the statistic the noncentrality
    lambda = h d^2 k^2 / (k - 1), h = n1 n2 / (n1 + n2) (with 2 seats, the two-proportion
    z test's 4 h d^2); d solves P(chi2(df, lambda) > critical value) = power, df that of
    the L x k table. Lineups beyond those two add degrees of freedom but no signal, so the
    figure is for the test as run."""
    n = sorted(float(x) for x in games)
    if len(n) < 2 or n[0] <= 0:
        return math.inf
    k = players
    df = (len(n) - 1) * (k - 1)
    crit = float(_st.chi2.isf(alpha, df))
    lam = float(optimize.brentq(lambda x: _st.ncx2.sf(crit, df, x) - power, 1e-9, 1e6))
    h = n[0] * n[1] / (n[0] + n[1])
    return math.sqrt(lam * (k - 1) / (h * k * k))


def lineup_test(
    wins: Sequence[Sequence[float]], games: Sequence[int],
    ratings: Sequence[float | None] | None = None, alpha: float = 0.05,
) -> LineupTest:
    """Seat x lineup homogeneity test (and rating trend) of per-lineup seat wins.

    ``wins[l]``: the seats' (fractional) wins in lineup l, summing to ``games[l]``;
    ``ratings[l]``: the lineup's rating or None. See the module docstring.
    """
    W = np.asarray(wins, dtype=float)
    n = np.asarray(games, dtype=float)
    if W.ndim != 2 or W.shape[0] < 2 or W.shape[0] != n.size:
        raise ValueError("need seat wins for at least two lineups, one row per lineup")
    if np.any(n <= 0) or np.any(W < 0):
        raise ValueError("every lineup needs games, and wins must be non-negative")
    if not np.allclose(W.sum(axis=1), n, rtol=1e-9, atol=1e-6):
        raise ValueError("each lineup's seat wins must sum to its games")
    L, k = W.shape
    N = n.sum()
    pbar = W.sum(axis=0) / N
    live = pbar > 0  # a seat that never won carries no information
    E = n[:, None] * pbar[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        contrib = np.where(live[None, :], (W - E) ** 2 / np.where(E > 0, E, 1.0), 0.0)
    stat = float(contrib.sum())
    df = (L - 1) * (int(live.sum()) - 1)
    p = float(_st.chi2.sf(stat, df)) if df > 0 else 1.0
    seat = int(np.argmax(contrib.sum(axis=0)))
    rates = tuple(tuple(float(x) for x in row) for row in W / n[:, None])
    out = dict(statistic=stat, df=df, p=p, rates=rates, games=tuple(int(x) for x in n),
               seat=seat, alpha=alpha, missable=missable(n, k, alpha) if df > 0 else None)
    r = None if ratings is None else [None if x is None else float(x) for x in ratings]
    if r is not None and len(r) == L and all(x is not None for x in r) and L >= 3:
        rr = np.asarray(r, dtype=float)
        rbar = float((n * rr).sum() / N)
        srr = float((n * (rr - rbar) ** 2).sum())
        if srr > 0 and df > 0:
            T = ((rr - rbar)[:, None] * (W - E)).sum(axis=0)
            with np.errstate(divide="ignore", invalid="ignore"):
                parts = np.where(live, T ** 2 / np.where(live, pbar, 1.0), 0.0) / srr
            tdf = int(live.sum()) - 1
            out.update(slopes=tuple(float(t / srr) for t in T),
                       trend_statistic=float(parts.sum()), trend_df=tdf,
                       trend_p=float(_st.chi2.sf(parts.sum(), tdf)),
                       trend_seat=int(np.argmax(parts)))
    return LineupTest(**out)

"""Hypothesis tests behind the seat-fairness verdict and the multiple-testing corrections.

A seat's win rate is judged against 1/players, the rate of identical players. Three
questions, three tests:

- Is any seat off? Pearson's chi-square goodness of fit against equal shares, and a
  two-sided score z test per seat (the test the Wilson interval inverts).
- Is every seat close enough? TOST equivalence (Schuirmann 1987) per seat against the
  margin the config sets: two one-sided score z tests at the margin's edges.
- Many seats, many cells: Holm (1979) within a report, Benjamini & Hochberg (1995) across
  a sweep.

Shared wins count 1/k per winner, so "wins" may be fractional. The tests then use the
binomial variance p (1 - p) / n, which overstates the variance of a fractional share, so
they are slightly conservative, never anti-conservative.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats as _st

from imhotep_stats.stats._normal import norm_cdf, norm_ppf, norm_sf
from imhotep_stats.stats.planning import games_needed, games_to_detect, seat_family

VERDICTS = ("balanced", "unbalanced", "inconclusive")


def chi_square_equal_shares(
    wins_by_seat: Sequence[float], games: int
) -> tuple[float, int, float]:
    """Pearson chi-square goodness of fit of the seats' wins against equal shares.

    Each game hands out exactly one win in total (split 1/k on a k-way tie), so the
    expected wins per seat are games / seats and ``sum(wins_by_seat)`` must equal ``games``.
    Returns ``(statistic, df, p)`` with df = seats - 1 (as ``scipy.stats.chisquare``).
    With no games, returns (nan, df, nan).
    """
    w = np.asarray(wins_by_seat, dtype=float)
    k = w.size
    if k < 2:
        raise ValueError("need at least two seats")
    if games < 0 or np.any(w < 0):
        raise ValueError("wins and games must be non-negative")
    if not math.isclose(float(w.sum()), games, rel_tol=1e-9, abs_tol=1e-6):
        raise ValueError(f"wins sum to {w.sum():g} but there were {games} games")
    df = k - 1
    if games == 0:
        return (math.nan, df, math.nan)
    e = games / k
    stat = float(np.sum((w - e) ** 2) / e)
    return (stat, df, float(_st.chi2.sf(stat, df)))


def _pvals(pvalues: Sequence[float]) -> np.ndarray:
    p = np.asarray(pvalues, dtype=float).ravel()
    if np.any(~np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError("p-values must be finite and in [0, 1]")
    return p


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error), in the input order.

    Sorted ascending p_(1) <= ... <= p_(m): adj_(i) = max_{j <= i} min(1, (m - j + 1) p_(j)).
    Rejecting where adj <= alpha is Holm (1979), Scand. J. Statist. 6, 65-70.
    """
    p = _pvals(pvalues)
    m = p.size
    if m == 0:
        return []
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, (m - np.arange(m)) * p[order])
    adj = np.empty(m)
    adj[order] = np.maximum.accumulate(scaled)
    return adj.tolist()


def benjamini_hochberg(pvalues: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg step-up adjusted p-values (false discovery rate), input order.

    Sorted ascending: adj_(i) = min_{j >= i} min(1, m p_(j) / j). Benjamini & Hochberg
    (1995), JRSS B 57, 289-300; equals ``scipy.stats.false_discovery_control(p)``.
    """
    p = _pvals(pvalues)
    m = p.size
    if m == 0:
        return []
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, p[order] * m / np.arange(1, m + 1))
    adj = np.empty(m)
    adj[order] = np.minimum.accumulate(scaled[::-1])[::-1]
    return adj.tolist()


def deviation_test(wins: float, n: int, expected: float) -> float:
    """Two-sided score z test of H0: win rate = ``expected``; returns the p-value.

    z = (p-hat - p0) / sqrt(p0 (1 - p0) / n). It rejects at alpha exactly when p0 lies
    outside the (1 - alpha) Wilson interval. No games: p = 1.
    """
    if n <= 0:
        return 1.0
    if not 0.0 < expected < 1.0:
        raise ValueError(f"expected must be in (0, 1), got {expected}")
    z = (wins / n - expected) / math.sqrt(expected * (1.0 - expected) / n)
    return float(min(1.0, 2.0 * norm_sf(abs(z))))


def equivalence_test(wins: float, n: int, expected: float, margin: float) -> float:
    """TOST p-value for "the win rate is within ``expected +/- margin``".

    Two one-sided score z tests (Schuirmann 1987), each with the standard error under its
    own null boundary b (the Wilson/score form, sqrt(b (1 - b) / n)):

        H0-: p <= expected - margin   p- = P(Z >= (p-hat - b-) / se(b-))
        H0+: p >= expected + margin   p+ = P(Z <= (p-hat - b+) / se(b+))

    The p-value is max(p-, p+); rejecting at alpha is the same as the (1 - 2 alpha) Wilson
    interval lying inside the margin band. A boundary outside [0, 1] is a null that cannot
    hold: its one-sided p is 0 (a boundary at exactly 0 or 1 is refuted only by a win, or a
    loss). No games: p = 1.
    """
    if not 0.0 < expected < 1.0:
        raise ValueError(f"expected must be in (0, 1), got {expected}")
    if not margin > 0.0:
        raise ValueError(f"margin must be positive, got {margin}")
    if n <= 0:
        return 1.0
    phat = wins / n
    lo, hi = expected - margin, expected + margin
    if lo < 0.0:
        p_lo = 0.0
    elif lo == 0.0:  # H0: p = 0 is refuted by any win, and only by a win
        p_lo = 0.0 if phat > 0.0 else 1.0
    else:
        p_lo = norm_sf((phat - lo) / math.sqrt(lo * (1 - lo) / n))
    if hi > 1.0:
        p_hi = 0.0
    elif hi == 1.0:
        p_hi = 0.0 if phat < 1.0 else 1.0
    else:
        p_hi = norm_cdf((phat - hi) / math.sqrt(hi * (1 - hi) / n))
    return max(p_lo, p_hi)


@dataclass(frozen=True)
class SeatVerdict:
    """Seat fairness of one cell, in numbers and in the designer's words.

    ``largest_gap`` is the largest |win rate - 1/players| over seats (the quantity the
    margin bounds), at seat index ``largest_gap_seat``; ``spread`` is best minus worst
    seat. P-values are adjusted over the seats of the call (and its other cells). ``games_needed`` is the
    estimated total games for a verdict (None unless inconclusive); ``more_games`` is
    that minus the games played, rounded up to two significant figures as in ``text``.
    """

    verdict: str
    text: str
    games: int
    expected: float
    margin: float
    alpha: float
    win_rates: tuple[float, ...]
    largest_gap: float
    largest_gap_seat: int
    spread: float
    chi2: float
    chi2_df: int
    chi2_p: float
    p_deviation: tuple[float, ...]
    p_equivalence: tuple[float, ...]
    games_needed: int | None
    more_games: int | None


def _about(n: int) -> int:
    """Round up to two significant figures: 1234 -> 1300 ("about N more games")."""
    if n < 100:
        return n
    step = 10 ** (len(str(n)) - 2)
    return -(-n // step) * step


def seat_verdict(
    wins_by_seat: Sequence[float],
    games: int,
    margin: float,
    alpha: float = 0.05,
    power: float = 0.8,
    seat_names: Sequence[str] | None = None,
) -> SeatVerdict:
    """Verdict on seat fairness: balanced within +/-margin, unbalanced, or inconclusive.

    - **balanced** if every seat's TOST against 1/players +/- margin rejects after Holm.
      Checked first: a gap proven smaller than the margin is what the designer asked for,
      even when a huge sample also makes that small gap statistically significant.
    - **unbalanced** if any seat's deviation test rejects after Holm; the text names the
      seat with the largest gap among those.
    - **inconclusive** otherwise, with the estimated total games for a verdict if the
      observed largest gap g is the truth: the smaller of ``games_needed(margin, players,
      alpha, power, true_gap=g)`` (equivalence, while |g| < margin) and
      ``games_to_detect(g, ...)`` (detection), each at least the sample at which the
      observed rates themselves would pass, so "more" is always positive.

    Holm runs over the seats of this call; two seats are a single hypothesis (their rates
    sum to 1), so a two-player cell is not adjusted. ``margin`` is a win-rate difference
    (0.02 = 2 points). Seats are named "seat 1" (the start player, schema seat 0),
    "seat 2", ... unless ``seat_names`` is given.
    """
    names = [list(seat_names)] if seat_names is not None else None
    return seat_verdicts([(wins_by_seat, games)], margin, alpha, power, names)[0]


def seat_verdicts(
    cells: Sequence[tuple[Sequence[float], int]],
    margin: float,
    alpha: float = 0.05,
    power: float = 0.8,
    seat_names: Sequence[Sequence[str]] | None = None,
    correction: str = "holm",
) -> list[SeatVerdict]:
    """Seat verdicts for many cells, ``(wins_by_seat, games)`` each, corrected together.

    The deviation and equivalence p-values of all seats of all cells form one family,
    adjusted with ``correction``: "holm" (family-wise error, within a report) or "bh"
    (false discovery rate, across a sweep). Verdict rules as in ``seat_verdict``. For the
    "more games" estimate the level is alpha / family size (Holm's strictest step) with
    Holm, and the per-cell level with BH (whose threshold depends on the other cells).
    """
    if correction not in ("holm", "bh"):
        raise ValueError(f"correction must be 'holm' or 'bh', got {correction!r}")
    if not 0.0 < margin < 1.0:
        raise ValueError(f"margin must be in (0, 1), got {margin}")
    adjust = holm if correction == "holm" else benjamini_hochberg
    raw_dev: list[float] = []
    raw_eq: list[float] = []
    for wins, games in cells:
        k = len(wins)
        chi_square_equal_shares(wins, games)  # validates wins against games
        for x in list(wins)[: seat_family(k)]:  # two seats: one hypothesis
            raw_dev.append(deviation_test(x, games, 1.0 / k))
            raw_eq.append(equivalence_test(x, games, 1.0 / k, margin))
    adj_dev, adj_eq = adjust(raw_dev), adjust(raw_eq)
    family = len(raw_dev) if correction == "holm" and len(cells) > 1 else None
    out = []
    pos = 0
    for c, (wins, games) in enumerate(cells):
        k = len(wins)
        m = seat_family(k)
        p_dev, p_eq = adj_dev[pos: pos + m], adj_eq[pos: pos + m]
        pos += m
        if m == 1:
            p_dev, p_eq = p_dev * k, p_eq * k
        names = list(seat_names[c]) if seat_names is not None else [
            f"seat {i + 1}" for i in range(k)]
        if len(names) != k:
            raise ValueError("seat_names must name every seat")
        out.append(_verdict(list(wins), games, margin, alpha, power, names, p_dev, p_eq,
                            family))
    return out


def _verdict(
    wins: list[float], games: int, margin: float, alpha: float, power: float,
    names: list[str], p_dev: list[float], p_eq: list[float], family: int | None,
) -> SeatVerdict:
    """Assemble one cell's verdict from its adjusted p-values (rules in seat_verdict)."""
    w = [float(x) for x in wins]
    k = len(w)
    chi2, df, chi2_p = chi_square_equal_shares(w, games)
    p0 = 1.0 / k
    rates = [x / games if games > 0 else math.nan for x in w]
    gaps = [r - p0 for r in rates]
    if games > 0:
        j = int(np.argmax(np.abs(gaps)))
        largest, spread = abs(gaps[j]), max(rates) - min(rates)
    else:
        j, largest, spread = 0, math.nan, math.nan

    needed: int | None = None
    more: int | None = None
    if games > 0 and max(p_eq) <= alpha:
        verdict, text = "balanced", f"balanced within ±{margin * 100:.1f} points"
    elif games > 0 and min(p_dev) <= alpha:
        hit = [i for i in range(k) if p_dev[i] <= alpha]
        s = max(hit, key=lambda i: abs(gaps[i]))
        verdict = "unbalanced"
        text = f"unbalanced: {names[s]} wins {rates[s]:.1%} against {p0:.1%} expected"
    else:
        verdict = "inconclusive"
        needed = _games_for_verdict(rates, games, margin, alpha, power, family)
        if needed is None:
            text = "inconclusive: the margin is too narrow to settle with any practical run"
        else:
            more = _about(needed - games)
            text = f"inconclusive: about {more:,} more games needed"
    return SeatVerdict(
        verdict=verdict, text=text, games=games, expected=p0, margin=margin, alpha=alpha,
        win_rates=tuple(rates), largest_gap=largest, largest_gap_seat=j, spread=spread,
        chi2=chi2, chi2_df=df, chi2_p=chi2_p, p_deviation=tuple(p_dev),
        p_equivalence=tuple(p_eq), games_needed=needed, more_games=more,
    )


def _games_for_verdict(
    rates: list[float], games: int, margin: float, alpha: float, power: float,
    family: int | None = None,
) -> int | None:
    """Total games for a verdict if the observed rates are the truth (see seat_verdict).

    The smaller of two plans at the observed largest gap g: equivalence
    (``games_needed``, possible while |g| < margin) and detection (``games_to_detect``,
    possible while g != 0). Each plan is at least the sample at which the observed rates
    themselves would pass that test. None if neither is below 10^12 games. ``family``
    is the number of hypotheses alpha is split over (default: this cell's seats).
    """
    k = len(rates)
    p0 = 1.0 / k
    if games == 0:
        try:
            return games_needed(margin, k, alpha, power, family=family)
        except ValueError:
            return None
    a = alpha / (family or seat_family(k))
    g = max((r - p0 for r in rates), key=abs)
    plans = [math.inf]
    if abs(g) < margin:
        try:
            planned = float(games_needed(margin, k, alpha, power, true_gap=g, family=family))
        except ValueError:  # more than 10^12 games
            planned = math.inf
        z = norm_ppf(1.0 - a)
        at_rates = max(
            # r == b happens by rounding (0.3 - 0.25 < 0.05): a rate on the boundary never
            # passes, so infinitely many games (was a ZeroDivisionError in sweeps)
            (z * math.sqrt(b * (1 - b)) / abs(r - b)) ** 2 if r != b else math.inf
            for r in rates for b in (p0 - margin, p0 + margin) if 0.0 < b < 1.0
        )
        plans.append(max(planned, at_rates))
    if g != 0.0:
        z = norm_ppf(1.0 - a / 2.0)
        at_rates = (z * math.sqrt(p0 * (1 - p0)) / abs(g)) ** 2
        plans.append(max(float(games_to_detect(g, k, alpha, power, family)), at_rates))
    best = min(plans)
    if best > 1e12:
        return None
    return max(math.ceil(best), games + 1)

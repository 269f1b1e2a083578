"""Hypothesis tests behind the seat-fairness verdict and the multiple-testing corrections.

A seat's win rate is judged against 1/players, the rate of identical players, and the
margin m the designer sets (a win-rate difference). Four questions, four tests:

- Is any seat off at all? Pearson's chi-square goodness of fit against equal shares, and a
  two-sided score z test per seat (the test the Wilson interval inverts).
- Is every seat close enough? TOST equivalence (Schuirmann 1987) per seat against the
  margin: two one-sided score z tests at the margin's edges.
- Is some seat off by more than the margin? A one-sided minimum-effect test per seat
  (H0: |p - 1/players| <= m), the score z test at the margin's edge on the estimate's
  side (a minimum-effect test, Murphy & Myors 1999; fishtest's SPRT likewise tests
  against an effect that matters, not against zero). A deviation that is merely
  significant does not make a cell unbalanced: with enough games every real game has one.
- Many seats, many cells: Holm (1979) within a report, Benjamini & Hochberg (1995) across
  a sweep. A claim is corrected over the units it is made about. "Balanced within +/-m"
  is a claim about a *cell* (every seat within): an intersection-union test (Berger 1982,
  Technometrics 24, 295-300) whose p-value is the largest of the seats' equivalence
  p-values, with no correction across seats; Holm or BH then act on the cells' p-values.
  "Unbalanced beyond +/-m" and "off its fair share" are claims about a *seat*: Holm or BH
  act on all seats of all cells.

Two layers, so that other per-seat tests plug in (the sequential helper's anytime-valid
p-values, ``stats.sequential``): ``seat_pvalues`` computes one cell's raw per-seat
p-values (fixed-sample score tests), ``combine`` turns many cells' raw p-values into the
adjusted ones the verdict reads. Any per-seat p-values that are valid for their null
(P(p <= a) <= a under H0, at whatever stopping rule produced them) can be handed to
``seat_verdicts(..., pvalues=...)`` and get the same cell-level error control.

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

from imhotep_stats.stats import sequential as _sequential
from imhotep_stats.stats._normal import norm_cdf, norm_ppf, norm_sf
from imhotep_stats.stats.fmt import pct
from imhotep_stats.stats.planning import games_needed, games_to_exceed, seat_family

VERDICTS = ("balanced", "tilted", "unbalanced", "inconclusive")
"""Verdict keys, from the designer's side: ``balanced`` within +/-m, ``tilted`` (within
+/-m but a seat detectably off its fair share), ``unbalanced`` beyond +/-m, and
``inconclusive`` (neither shown yet)."""


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


def _no_games(n: int, expected: float, margin: float) -> bool:
    """Check a margin test's arguments; True when there are no games (p = 1)."""
    if not 0.0 < expected < 1.0:
        raise ValueError(f"expected must be in (0, 1), got {expected}")
    if not margin > 0.0:
        raise ValueError(f"margin must be positive, got {margin}")
    return n <= 0


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
    if _no_games(n, expected, margin):
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


def beyond_margin_test(wins: float, n: int, expected: float, margin: float) -> float:
    """Minimum-effect p-value for "the win rate lies outside ``expected +/- margin``".

    H0: |p - expected| <= margin. The score z test at the boundary on the estimate's side,
    with the standard error under that boundary b (sqrt(b (1 - b) / n)):

        p-hat above expected: p = P(Z >= (p-hat - b+) / se(b+)),  b+ = expected + margin
        p-hat below expected: p = P(Z <= (p-hat - b-) / se(b-)),  b- = expected - margin

    Rejecting at alpha is the same as the (1 - 2 alpha) Wilson interval lying wholly
    outside the margin band on one side. The size at a boundary is alpha plus the chance
    of landing beyond the other boundary, two margins further away: at most
    P(Z > 2 margin / se + z_{1 - alpha}), about 1e-4 when the standard error is the margin and
    1e-8 when it is half of it. A boundary outside (0, 1) cannot be passed: p = 1 on that
    side. No games: p = 1.
    """
    if _no_games(n, expected, margin):
        return 1.0
    phat = wins / n
    if phat >= expected:
        b = expected + margin
        return 1.0 if b >= 1.0 else norm_sf((phat - b) / math.sqrt(b * (1 - b) / n))
    b = expected - margin
    return 1.0 if b <= 0.0 else norm_cdf((phat - b) / math.sqrt(b * (1 - b) / n))


@dataclass(frozen=True)
class SeatPValues:
    """One cell's raw (unadjusted) per-seat p-values, one entry per tested seat.

    Tested seats are ``seat_family(players)`` of them: every seat, except with two
    players, where seat 1's test is also seat 2's (the rates sum to 1). The nulls:

    - ``deviation``: H0 win rate = 1/players (two-sided);
    - ``within``: H0 |win rate - 1/players| >= m (a seat's equivalence null);
    - ``beyond``: H0 |win rate - 1/players| <= m (a seat's minimum-effect null).

    This is the interface to per-seat tests other than the fixed-sample ones of this
    module: build one per cell and pass them to ``combine`` or ``seat_verdicts``.
    """

    deviation: tuple[float, ...]
    within: tuple[float, ...]
    beyond: tuple[float, ...]


def fixed_pvalues(wins: float, games: int, players: int, margin: float
                  ) -> tuple[float, float, float]:
    """One seat's fixed-sample ``(p_deviation, p_equivalence, p_beyond)``: valid for one
    look at a sample size fixed in advance (``sequential.seat_pvalues`` is the
    anytime-valid counterpart with the same nulls)."""
    p0 = 1.0 / players
    return (deviation_test(wins, games, p0), equivalence_test(wins, games, p0, margin),
            beyond_margin_test(wins, games, p0, margin))


def seat_pvalues(wins_by_seat: Sequence[float], games: int, margin: float,
                 sequential: bool = False) -> SeatPValues:
    """One cell's per-seat p-values: fixed-sample score tests (``fixed_pvalues``), or the
    anytime-valid ones of ``stats.sequential.seat_pvalues`` with ``sequential``."""
    k = len(wins_by_seat)
    chi_square_equal_shares(wins_by_seat, games)  # validates wins against games
    if sequential:  # the tested seats' (deviation, equivalence, beyond) tuples
        dev, within, beyond = _sequential.cell_pvalues(wins_by_seat, games, margin)
    else:
        seats = [fixed_pvalues(x, games, k, margin)  # two seats: one hypothesis
                 for x in list(wins_by_seat)[: seat_family(k)]]
        dev, within, beyond = zip(*seats, strict=True)
    return SeatPValues(deviation=tuple(float(p) for p in dev),
                       within=tuple(float(p) for p in within),
                       beyond=tuple(float(p) for p in beyond))


@dataclass(frozen=True)
class CellPValues:
    """One cell's adjusted p-values, as ``combine`` returns them: ``within`` is the cell's
    intersection-union p-value adjusted over the cells; ``beyond`` and ``deviation`` are
    per seat (every seat, two-player cells repeating seat 1's), adjusted over all seats."""

    within: float
    beyond: tuple[float, ...]
    deviation: tuple[float, ...]


def combine(cells: Sequence[SeatPValues], players: Sequence[int], correction: str = "holm"
            ) -> list[CellPValues]:
    """Adjusted p-values of many cells' raw per-seat p-values, corrected together.

    "Within" is a cell-level claim: the cell's p-value is max over its seats of
    ``within`` (intersection-union: the cell is within only if every seat is, and
    rejecting the union of the seats' nulls at level a needs each seat rejected at a, so no
    correction across seats), then ``correction`` over the cells. "Beyond" and "deviation"
    are seat-level claims: ``correction`` over every tested seat of every cell.
    ``correction``: "holm" (family-wise error, within a report) or "bh" (false discovery
    rate, across a sweep).
    """
    if correction not in ("holm", "bh"):
        raise ValueError(f"correction must be 'holm' or 'bh', got {correction!r}")
    if len(cells) != len(players):
        raise ValueError("one player count per cell")
    adjust = holm if correction == "holm" else benjamini_hochberg
    within = adjust([max(c.within) for c in cells])
    seat_adj = {t: adjust([p for c in cells for p in getattr(c, t)])
                for t in ("beyond", "deviation")}
    out, pos = [], 0
    for c, k, w in zip(cells, players, within, strict=True):
        m = len(c.within)
        if m != seat_family(k):
            raise ValueError(f"a {k}-player cell tests {seat_family(k)} seats, got {m}")
        seat = {t: tuple(a[pos: pos + m]) * (k if m == 1 else 1) for t, a in seat_adj.items()}
        pos += m
        out.append(CellPValues(within=w, beyond=seat["beyond"], deviation=seat["deviation"]))
    return out


@dataclass(frozen=True)
class SeatVerdict:
    """Seat fairness of one cell, in numbers and in the designer's words.

    The one value every report, gate and summary reads: ``verdict`` is a key of VERDICTS,
    ``label`` its short form ("unbalanced beyond ±2.0 pp"), ``text`` the sentence a report
    shows. ``seat`` is the seat index (0 = start player) the text names (the tilted or
    beyond-margin seat; None for balanced or inconclusive) and ``direction`` its side of
    the fair share (+1 ahead, -1 behind, 0 none); an inconclusive cell names a seat too
    when its deviation test rejects ("inconclusive at ±m; seat 4 wins less than its fair
    share"). ``largest_gap`` is the largest |win rate - 1/players| over seats (the quantity the
    margin bounds), at seat index ``largest_gap_seat``; ``spread`` is best minus worst
    seat. ``p_deviation`` and ``p_beyond`` are per seat, adjusted over the seats of the call
    (all its cells); ``p_equivalence`` holds the seats' raw equivalence p-values and
    ``p_within`` the cell's intersection-union p-value (their largest), adjusted over the
    cells of the call. ``games_needed`` is the
    estimated total games for a verdict (None unless inconclusive); ``more_games`` is
    that minus the games played, rounded up to two significant figures as in ``text``.
    ``sequential``: the p-values are anytime-valid (``stats.sequential``).
    ``more_games_range``: (low, high) more games if the gap is anywhere in its likely
    range, high None above ``PRACTICAL_GAMES`` (``_likely_more``); the text words it.
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
    p_beyond: tuple[float, ...] = ()
    label: str = ""
    seat: int | None = None
    direction: int = 0
    p_within: float = 1.0
    sequential: bool = False
    more_games_range: tuple[int, int | None] | None = None


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
    """Verdict on seat fairness relative to the margin m, for one cell.

    - **unbalanced** (beyond ±m) if any seat's minimum-effect test (``beyond_margin_test``)
      rejects after Holm over the seats: that seat is shown more than m off its fair share.
      The text names the seat with the largest gap among those.
    - **balanced** (within ±m) if the cell's intersection-union p-value (the largest of
      its seats' TOST p-values against 1/players ± m) is at most alpha, and no seat's
      deviation test rejects.
    - **tilted** (within ±m, tilted) if the cell is shown within ±m but some seat's
      deviation test rejects: the gap is real but smaller than the margin; the text names
      the seat and its direction, which a designer may still want to know.
    - **inconclusive** otherwise, with the estimated total games for a verdict if the
      observed largest gap g is the truth: ``games_needed(margin, players, alpha, power,
      true_gap=g)`` while |g| < m, ``games_to_exceed(g, m, ...)`` while |g| > m, each at
      least the sample at which the observed rates themselves would pass, so "more" is
      always positive. If a seat's deviation test rejects, the text says which seat is
      off its fair share, in which direction and with what p-value.

    Two seats are a single hypothesis (their rates sum to 1), so a two-player cell is not
    adjusted. ``margin`` is a win-rate difference (0.02 = 2 percentage points, "pp"). Seats
    are named "seat 1" (the start player, schema seat 0), "seat 2", ... unless
    ``seat_names`` is given.
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
    pvalues: Sequence[SeatPValues] | None = None,
    sequential: bool = False,
) -> list[SeatVerdict]:
    """Seat verdicts for many cells, ``(wins_by_seat, games)`` each, corrected together.

    The one place a cell's verdict is decided (rules in ``seat_verdict``, corrections in
    ``combine``): "within" over the cells, "beyond" and "deviation" over all their seats,
    with ``correction`` "holm" (family-wise error, within a report) or "bh" (false
    discovery rate, across a sweep). ``pvalues``: one ``SeatPValues`` per cell to use
    instead of the fixed-sample ones (e.g. anytime-valid p-values of a sequential design).
    For the "more games" estimate the level is alpha / family size (Holm's strictest
    step: the cells for "within", the seats for "beyond") with Holm, and the per-cell
    level with BH (whose threshold depends on the other cells).

    ``sequential``: the seats' p-values are the anytime-valid ones of
    ``stats.sequential.seat_pvalues`` (for verdicts looked at after every batch of extra
    games: sweep rounds, ``tune``, top-ups, ``run --until-decided``), and "more games"
    is what the sequential rule needs; corrections and verdict rules are the same.
    """
    if correction not in ("holm", "bh"):
        raise ValueError(f"correction must be 'holm' or 'bh', got {correction!r}")
    if not 0.0 < margin < 1.0:
        raise ValueError(f"margin must be in (0, 1), got {margin}")
    if pvalues is None:
        raw = [seat_pvalues(w, g, margin, sequential) for w, g in cells]
    elif len(pvalues) != len(cells):
        raise ValueError("one SeatPValues per cell")
    else:
        raw = list(pvalues)
    adj = combine(raw, [len(w) for w, _ in cells], correction)
    many = correction == "holm" and len(cells) > 1
    family = (len(cells), sum(seat_family(len(w)) for w, _ in cells)) if many else None
    out = []
    for c, (wins, games) in enumerate(cells):
        k = len(wins)
        names = list(seat_names[c]) if seat_names is not None else [
            f"seat {i + 1}" for i in range(k)]
        if len(names) != k:
            raise ValueError("seat_names must name every seat")
        out.append(_verdict(list(wins), games, margin, alpha, power, names, raw[c], adj[c],
                            family, sequential))
    return out


def _named(hit: list[int], gaps: list[float]) -> int:
    """The seat a verdict names among ``hit``: the largest gap; of two equal gaps (two
    players) the favoured seat."""
    return max(hit, key=lambda i: (round(abs(gaps[i]), 12), gaps[i] > 0))


def _p_text(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _verdict(
    wins: list[float], games: int, margin: float, alpha: float, power: float,
    names: list[str], raw: SeatPValues, p: CellPValues, family: tuple[int, int] | None,
    sequential: bool = False,
) -> SeatVerdict:
    """Assemble one cell's verdict from its p-values (rules in seat_verdict)."""
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

    band = f"±{margin * 100:.1f} pp"
    needed: int | None = None
    more: int | None = None
    more_range: tuple[int, int | None] | None = None
    seat: int | None = None
    beyond = [i for i in range(k) if games > 0 and p.beyond[i] <= alpha]
    off = [i for i in range(k) if games > 0 and p.deviation[i] <= alpha]
    if beyond:
        verdict, label = "unbalanced", f"unbalanced beyond {band}"
        seat = _named(beyond, gaps)
        text = (f"{label}: {names[seat]} wins {pct(rates[seat])} against {pct(p0)} "
                "fair share")
    elif games > 0 and p.within <= alpha:
        if off:
            verdict, label = "tilted", f"within {band}, tilted"
            seat = _named(off, gaps)
            text = (f"{label}: {names[seat]} {'ahead' if gaps[seat] > 0 else 'behind'}, "
                    f"wins {pct(rates[seat])} against {pct(p0)} fair share")
        else:
            verdict, label = "balanced", f"balanced within {band}"
            text = label
    else:
        verdict = label = "inconclusive"
        def plan(rs: list[float]) -> int | None:
            # for the next look, which is a sequential one (a top-up, or a later look at
            # the same games: sim/looks.py), whether this one was or not
            if games == 0:  # no look yet: the one planned look is fixed-sample
                return _games_for_verdict(rs, games, margin, alpha, power, family)
            f_within, f_beyond = family or (1, seat_family(k))
            big = max(abs(r - p0) for r in rs) if games else 0.0
            return _sequential.games_for_verdict(rs, games, margin,
                                                 alpha / (f_within if big < margin
                                                          else f_beyond), power)

        needed = plan(rates)
        low_high = _likely_more(plan, rates, games, j, margin) if games else None
        if off:  # the margin is not resolved, but the tilt is: say so
            seat = _named(off, gaps)
            side = "more" if gaps[seat] > 0 else "less"
            head = (f"inconclusive at {band}; {names[seat]} wins {side} than its fair share "
                    f"({pct(rates[seat])} against {pct(p0)}, {_p_text(p.deviation[seat])})")
        else:
            head = "inconclusive"
        if needed is not None:
            more = _about(needed - games)
        if needed is None and low_high is None:
            text = f"{head}: the margin is too narrow to settle with any practical run"
        else:
            lo, hi = low_high or (more, more)
            text = f"{head}{'; ' if off else ': '}{_more_text(lo, hi, band)}"
            more_range = (lo, hi)
    return SeatVerdict(
        verdict=verdict, text=text, games=games, expected=p0, margin=margin, alpha=alpha,
        win_rates=tuple(rates), largest_gap=largest, largest_gap_seat=j, spread=spread,
        chi2=chi2, chi2_df=df, chi2_p=chi2_p, p_deviation=p.deviation,
        p_equivalence=raw.within * (k if len(raw.within) == 1 else 1), games_needed=needed,
        more_games=more, p_beyond=p.beyond, label=label, seat=seat,
        direction=0 if seat is None else (1 if gaps[seat] > 0 else -1), p_within=p.within,
        sequential=sequential, more_games_range=more_range,
    )


PRACTICAL_GAMES = 50_000
"""More games than this for a verdict: the gap sits at the margin, for any practical run."""
LIKELY = 0.5
"""The central interval of the largest gap over which "more games needed" is a range."""


def _likely_more(plan, rates: list[float], games: int, j: int, margin: float
                 ) -> tuple[int, int | None] | None:
    """More games a verdict needs if the largest gap (seat ``j``'s) is anywhere in its
    central ``LIKELY`` interval, as (low, high); high None when some gap in it would need
    more than ``PRACTICAL_GAMES`` (or never settles: the interval reaches the margin).
    ``plan(rates)`` is the games-needed rule of the verdict. A point plan at the observed
    gap swings by 10x from batch to batch when the gap is near the margin; the range
    says how far it can swing. None when no gap in the interval settles."""
    k = len(rates)
    p0 = 1.0 / k
    r = rates[j]
    g = abs(r - p0)
    half = norm_ppf(0.5 + LIKELY / 2.0) * math.sqrt(max(r * (1.0 - r), 1e-12) / games)
    sign = 1.0 if r >= p0 else -1.0

    def at(gap: float) -> float:
        d = (gap - g) * sign  # seat j moves by d, the others share -d: rates still sum to 1
        rs = [min(max(x + (d if i == j else -d / (k - 1)), 0.0), 1.0)
              for i, x in enumerate(rates)]
        n = plan(rs)
        return math.inf if n is None else float(n - games)

    ends = [max(g - half, 0.0), g + half]
    mores = [at(x) for x in ends] + [at(g)]
    if ends[0] <= margin <= ends[1]:
        mores.append(math.inf)  # a gap right at the margin never settles
    lo, hi = min(mores), max(mores)
    if math.isinf(lo):
        return None
    return _about(max(int(lo), 1)), (None if hi > PRACTICAL_GAMES else _about(int(hi)))


def _more_text(lo: int, hi: int | None, band: str) -> str:
    """"Games needed" in words: a range, never a point that swings (``_likely_more``)."""
    if lo > PRACTICAL_GAMES:
        return (f"more than {PRACTICAL_GAMES:,} more games needed: effectively balanced at "
                f"{band} (the gap is too close to it to tell)")
    if hi is None:
        return f"{lo:,} to more than {PRACTICAL_GAMES:,} more games needed"
    if hi <= lo:
        return f"about {lo:,} more games needed"
    return f"{lo:,} to {hi:,} more games needed"


def _games_for_verdict(
    rates: list[float], games: int, margin: float, alpha: float, power: float,
    family: tuple[int, int] | None = None,
) -> int | None:
    """Total games for a verdict if the observed rates are the truth (see seat_verdict).

    At the observed largest gap g: equivalence (``games_needed``) while |g| < margin, the
    minimum-effect test (``games_to_exceed``) while |g| > margin; a gap right at the margin
    never settles. Each plan is at least the sample at which the observed rates themselves
    would pass that test. None if above 10^12 games. ``family`` is (cells, seats), the
    numbers of hypotheses alpha is split over for "within" and "beyond" (default: one
    cell, this cell's seats).
    """
    k = len(rates)
    p0 = 1.0 / k
    f_within, f_beyond = family or (1, seat_family(k))
    if games == 0:
        try:
            return games_needed(margin, k, alpha, power, family=f_within)
        except ValueError:
            return None
    g = max((r - p0 for r in rates), key=abs)
    z = norm_ppf(1.0 - alpha / (f_within if abs(g) < margin else f_beyond))

    def at_rate(r: float, b: float) -> float:
        # r == b happens by rounding (0.3 - 0.25 < 0.05): a rate on the boundary never
        # passes, so infinitely many games (was a ZeroDivisionError in sweeps)
        return (z * math.sqrt(b * (1 - b)) / abs(r - b)) ** 2 if r != b else math.inf

    best = math.inf
    if abs(g) < margin:
        try:
            planned = float(games_needed(margin, k, alpha, power, true_gap=g,
                                         family=f_within))
        except ValueError:  # more than 10^12 games
            planned = math.inf
        observed = max(at_rate(r, b) for r in rates
                       for b in (p0 - margin, p0 + margin) if 0.0 < b < 1.0)
        best = max(planned, observed)
    elif abs(g) > margin:
        try:
            planned = float(games_to_exceed(g, margin, k, alpha, power, f_beyond))
        except ValueError:  # no win rate beyond that boundary
            planned = math.inf
        b = p0 + math.copysign(margin, g)
        best = max(planned, at_rate(p0 + g, b) if 0.0 < b < 1.0 else math.inf)
    if best > 1e12:
        return None
    return max(math.ceil(best), games + 1)

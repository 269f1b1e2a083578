"""What playtesters look at beside seat win rates: comebacks and card strength, per cell.

Same conventions as ``aggregate``: a ``pl.LazyFrame`` of the results table in, a small
eager ``DataFrame`` sorted by its keys out. Win rates count a k-way shared win as 1/k.

Several seats of one game can fall in the same group (two players tied for a rank, two
players taking the same card) and their outcomes are tied together (of two leaders at
most one wins outright), so the intervals are clustered by game: a rate is a ratio
estimator R = sum_g W_g / sum_g N_g over games g (W_g: the group's wins in game g, N_g: its
seats), with the linearised variance V = G/(G-1) sum_g (W_g - R N_g)^2 / (sum N_g)^2
(Cochran, *Sampling Techniques*, 6.2-6.3). Its ratio to the independent-rows variance
R(1-R)/sum N_g is the design effect deff; intervals are Wilson intervals at the
effective sample size sum N_g / deff (Korn & Graubard 1998, Survey Methodology 24,
193-201). Measured design effects: comebacks by rank 0.12-0.99 (the independent-rows
intervals were too *wide*), card strength's difference 1.02-1.24 (issue 21).

- *Comebacks*: the score after round r is the sum of the ``round_1 .. round_r`` columns
  (points scored during the round, immediate and end-of-round scoring). A seat's rank
  after round r counts the seats strictly ahead (ties share the better rank); its deficit is
  the leader's score minus its own. The win rate by rank and by deficit band says how
  often the player behind comes back.
- *Card strength*: per market card, the win rate of seats that took at least one copy
  against those that took none, the difference with Newcombe's hybrid score interval
  (Newcombe 1998, Statist. Med. 17, 873-890, method 10) with each half-width scaled by
  the square root of the difference's design effect (its clustered variance, takers and
  non-takers of one game together, over the sum of the two independent-rows variances),
  and how often it was taken.
  Association, not cause: strong players take more cards, and some cards come late.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from imhotep_stats.sim.schema import CARDS, ROUNDS
from imhotep_stats.stats.aggregate import UNIT, win_units
from imhotep_stats.stats.intervals import wilson_arrays

DEFICIT_BANDS: tuple[tuple[int, int | None], ...] = ((0, 0), (1, 5), (6, 10), (11, 20),
                                                     (21, None))
"""Points behind the leader after a round: 0 (leading or tied for the lead), 1-5, ..."""


def _band_label(lo: int, hi: int | None) -> str:
    if hi == lo:
        return "leading" if lo == 0 else str(lo)
    return f"{lo}+" if hi is None else f"{lo}-{hi}"


def _band_expr(deficit: pl.Expr) -> pl.Expr:
    expr = pl.lit(None, dtype=pl.String)
    for lo, hi in reversed(DEFICIT_BANDS):
        cond = deficit >= lo if hi is None else deficit.is_between(lo, hi)
        expr = pl.when(cond).then(pl.lit(_band_label(lo, hi))).otherwise(expr)
    return expr


def design_effect(s_w: np.ndarray, s_n: np.ndarray, s_ww: np.ndarray, s_nn: np.ndarray,
                  s_wn: np.ndarray, clusters: np.ndarray) -> np.ndarray:
    """Design effect of the ratio R = s_w / s_n from per-cluster moments (module
    docstring): sums over clusters of W, N, W^2, N^2 and W N. 1 where undefined (fewer
    than two clusters, R at 0 or 1, or no spread between clusters at all: a handful of
    games can give 0, which would make the effective sample infinite)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        r = s_w / s_n
        ss = np.maximum(s_ww - 2 * r * s_wn + r ** 2 * s_nn, 0.0)
        v = clusters / (clusters - 1) * ss / s_n ** 2
        v0 = r * (1 - r) / s_n
        d = v / v0
    return np.where((clusters > 1) & (v0 > 0) & np.isfinite(d) & (d > 0), d, 1.0)


def _effective_wilson(wins, n, deff, confidence):
    """Wilson interval at the effective sample size n / deff."""
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = np.where(n > 0, wins / np.where(n > 0, n, 1), np.nan)
        n_eff = np.where(n > 0, n / deff, 0.0)
    low, high = wilson_arrays(np.nan_to_num(rate) * n_eff, n_eff, confidence)
    return rate, low, high


def _with_wilson(df: pl.DataFrame, confidence: float) -> pl.DataFrame:
    """Rate and clustered Wilson interval from the per-game moments ``_gq`` (games),
    ``_ww``, ``_nn``, ``_wn`` beside ``wins`` and ``rows`` (wins in twelfths, ``UNIT``);
    adds ``design_effect``."""
    wins = df["wins"].to_numpy().astype(float) / UNIT
    n = df["rows"].to_numpy().astype(float)
    deff = design_effect(wins, n, *(df[c].to_numpy().astype(float) / UNIT ** c.count("w")
                                    for c in ("_ww", "_nn", "_wn", "_gq")))
    rate, low, high = _effective_wilson(wins, n, deff, confidence)
    return df.drop("_ww", "_nn", "_wn", "_gq").with_columns(
        pl.Series("wins", wins), pl.Series("win_rate", rate), pl.Series("ci_low", low),
        pl.Series("ci_high", high), pl.Series("design_effect", deff))


def _per_game_moments(frame: pl.LazyFrame, keys: list[str]) -> pl.LazyFrame:
    """Sum per (keys, game) first, then the moments ``_with_wilson`` needs per keys: whole
    numbers (wins in twelfths), exact in any order."""
    g = frame.group_by(*keys, "game").agg(pl.len().cast(pl.Int64).alias("_n"),
                                         win_units().sum().alias("_w"))
    return g.group_by(*keys).agg(
        pl.col("_n").sum().alias("rows"), pl.col("_w").sum().alias("wins"),
        (pl.col("_w") ** 2).sum().alias("_ww"), (pl.col("_n") ** 2).sum().alias("_nn"),
        (pl.col("_w") * pl.col("_n")).sum().alias("_wn"),
        pl.len().cast(pl.Int64).alias("_gq"))


def comebacks(lf: pl.LazyFrame, confidence: float = 0.95) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Win rate by rank and by deficit band after each round, per cell.

    Returns (by_rank, by_deficit). by_rank: ``cell``, ``round`` (1-6), ``rank`` (1 = leading
    or tied for the lead), ``rows`` (seat-games), ``wins``, ``win_rate``, ``ci_low``,
    ``ci_high``. by_deficit: the same with ``band`` ("leading", "1-5", "6-10", "11-20",
    "21+", points behind the leader) instead of ``rank``, and ``band_order`` to sort on.
    """
    parts_rank, parts_band = [], []
    score = pl.lit(0, dtype=pl.Int32)
    for r in range(1, ROUNDS + 1):
        score = score + pl.col(f"round_{r}").cast(pl.Int32)
        frame = lf.select("cell", "game", "win_share", score.alias("s")).with_columns(
            rank=pl.col("s").rank("min", descending=True).over("cell", "game")
            .cast(pl.Int8),
            deficit=pl.col("s").max().over("cell", "game") - pl.col("s"),
        ).with_columns(band=_band_expr(pl.col("deficit")), round=pl.lit(r, dtype=pl.Int8))
        parts_rank.append(_per_game_moments(frame, ["cell", "round", "rank"]))
        parts_band.append(_per_game_moments(frame, ["cell", "round", "band"]))
    by_rank = pl.concat(parts_rank).collect(engine="streaming").sort("cell", "round", "rank")
    order = {_band_label(lo, hi): i for i, (lo, hi) in enumerate(DEFICIT_BANDS)}
    by_band = (pl.concat(parts_band).collect(engine="streaming")
               .with_columns(band_order=pl.col("band").replace_strict(
                   order, return_dtype=pl.Int8))
               .sort("cell", "round", "band_order"))
    return _with_wilson(by_rank, confidence), _with_wilson(by_band, confidence)


def has_card_columns(schema_columns: list[str] | dict | None) -> bool:
    """Whether a run recorded the cards taken (runs written before issue 16 did not)."""
    return bool(schema_columns) and all(f"took_{c}" in schema_columns for c in CARDS)


def newcombe(x1: np.ndarray, n1: np.ndarray, x2: np.ndarray, n2: np.ndarray,
             confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Difference of two proportions x1/n1 - x2/n2 with Newcombe's hybrid score interval
    (method 10): d -/+ sqrt of the squared Wilson half-widths on the sides that matter.
    Returns (difference, low, high); nan where a group is empty."""
    l1, u1 = wilson_arrays(x1, n1, confidence)
    l2, u2 = wilson_arrays(x2, n2, confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        p1 = np.where(n1 > 0, x1 / np.where(n1 > 0, n1, 1), np.nan)
        p2 = np.where(n2 > 0, x2 / np.where(n2 > 0, n2, 1), np.nan)
    d = p1 - p2
    low = d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, low, high


_CARD_SUMS = ("t1", "n1", "t0", "n0", "t1t1", "n1n1", "t1n1", "t0t0", "n0n0", "t0n0",
              "t1t0", "t1n0", "n1t0", "n1n0")


def _card_moments(lf: pl.LazyFrame) -> pl.DataFrame:
    """Per cell and card, sums over games of the takers' wins t1 and seats n1, the
    non-takers' t0 and n0, and their products (the clustered variances' moments)."""
    per_game = []
    for c in CARDS:
        took = pl.col(f"took_{c}")
        per_game += [win_units().filter(took > 0).sum().alias(f"{c}__t1"),
                     (took > 0).sum().cast(pl.Int64).alias(f"{c}__n1"),
                     win_units().filter(took == 0).sum().alias(f"{c}__t0"),
                     (took == 0).sum().cast(pl.Int64).alias(f"{c}__n0"),
                     took.cast(pl.Int64).sum().alias(f"{c}__k")]
    games = lf.group_by("cell", "game").agg(pl.len().alias("__rows"), *per_game)
    sums = [pl.col("__rows").sum().alias("rows"), pl.len().cast(pl.Int64).alias("__g")]
    for c in CARDS:
        col = {x: pl.col(f"{c}__{x}") for x in ("t1", "n1", "t0", "n0")}
        sums += [pl.col(f"{c}__k").sum().alias(f"{c}__k")]
        for name in _CARD_SUMS:
            a, b = name[:2], name[2:]
            sums.append((col[a] * col[b] if b else col[a]).sum().alias(f"{c}__{name}"))
    return games.group_by("cell").agg(*sums).collect(engine="streaming").sort("cell")


def card_strength(lf: pl.LazyFrame, confidence: float = 0.95) -> pl.DataFrame:
    """Per cell and market card: take rate and the win rate of takers against non-takers.

    Columns: ``cell``, ``card``, ``rows`` (seat-games), ``taken`` (seat-games that took at
    least one copy), ``take_rate``, ``copies`` (mean copies taken per seat-game),
    ``win_rate_took`` / ``ci_low_took`` / ``ci_high_took``, the same ``_not`` for seats that
    did not take it, and ``difference`` with ``diff_low`` / ``diff_high`` (Newcombe,
    widened by the design effect ``diff_design_effect``); every interval is clustered by
    game (module docstring). Cards no seat of the cell took are left out. Needs the
    ``took_*`` columns (a run written before they existed reads them as null: every card
    is left out).
    """
    sums = _card_moments(lf)
    schema = {"cell": pl.String, "card": pl.String, "rows": pl.Int64, "taken": pl.Int64,
              "take_rate": pl.Float64, "copies": pl.Float64, "win_rate_took": pl.Float64,
              "ci_low_took": pl.Float64, "ci_high_took": pl.Float64,
              "win_rate_not": pl.Float64, "ci_low_not": pl.Float64,
              "ci_high_not": pl.Float64, "difference": pl.Float64, "diff_low": pl.Float64,
              "diff_high": pl.Float64, "diff_design_effect": pl.Float64}
    rows = []
    for r in sums.iter_rows(named=True):
        n, g = int(r["rows"]), float(r["__g"])
        for c in CARDS:
            # wins t are in twelfths: a moment with two of them in UNIT squared
            m = {x: float(r[f"{c}__{x}"] or 0) / UNIT ** x.count("t") for x in _CARD_SUMS}
            k = int(m["n1"])
            if not k:
                continue
            arr = {x: np.array([v]) for x, v in m.items()}
            gg = np.array([g])
            deff1 = design_effect(arr["t1"], arr["n1"], arr["t1t1"], arr["n1n1"],
                                  arr["t1n1"], gg)
            deff0 = design_effect(arr["t0"], arr["n0"], arr["t0t0"], arr["n0n0"],
                                  arr["t0n0"], gg)
            p1, l1, u1 = _effective_wilson(arr["t1"], arr["n1"], deff1, confidence)
            p0, l0, u0 = _effective_wilson(arr["t0"], arr["n0"], deff0, confidence)
            d, lo, hi = newcombe(arr["t1"], arr["n1"], arr["t0"], arr["n0"], confidence)
            dd = _difference_deff(m, g)
            root = math.sqrt(dd)
            rows.append({
                "cell": r["cell"], "card": c, "rows": n, "taken": k, "take_rate": k / n,
                "copies": (r[f"{c}__k"] or 0) / n, "win_rate_took": float(p1[0]),
                "ci_low_took": float(l1[0]), "ci_high_took": float(u1[0]),
                "win_rate_not": float(p0[0]) if n > k else math.nan,
                "ci_low_not": float(l0[0]), "ci_high_not": float(u0[0]),
                "difference": float(d[0]), "diff_low": float(d[0] - root * (d[0] - lo[0])),
                "diff_high": float(d[0] + root * (hi[0] - d[0])), "diff_design_effect": dd,
            })
    return pl.DataFrame(rows, schema=schema)


def _difference_deff(m: dict[str, float], games: float) -> float:
    """Design effect of p1 - p0 (takers minus non-takers): the clustered variance of the
    difference, sum_g z_g^2 G/(G-1) with z_g = (T1 - p1 N1)/S_N1 - (T0 - p0 N0)/S_N0, over
    p1(1-p1)/S_N1 + p0(1-p0)/S_N0. 1 where undefined."""
    n1, n0 = m["n1"], m["n0"]
    if games < 2 or n1 <= 0 or n0 <= 0:
        return 1.0
    p1, p0 = m["t1"] / n1, m["t0"] / n0
    a = m["t1t1"] - 2 * p1 * m["t1n1"] + p1 ** 2 * m["n1n1"]
    b = m["t0t0"] - 2 * p0 * m["t0n0"] + p0 ** 2 * m["n0n0"]
    c = m["t1t0"] - p0 * m["t1n0"] - p1 * m["n1t0"] + p1 * p0 * m["n1n0"]
    v = games / (games - 1) * max(a / n1 ** 2 + b / n0 ** 2 - 2 * c / (n1 * n0), 0.0)
    v0 = p1 * (1 - p1) / n1 + p0 * (1 - p0) / n0
    return v / v0 if v0 > 0 else 1.0

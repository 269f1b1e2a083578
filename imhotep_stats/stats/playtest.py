"""What playtesters look at beside seat win rates: comebacks and card strength, per cell.

Same conventions as ``aggregate``: a ``pl.LazyFrame`` of the results table in, a small
eager ``DataFrame`` sorted by its keys out. Win rates count a k-way shared win as 1/k, with
Wilson intervals over seat-rows; two seats of one game can fall in the same group (two
players tied for a rank, two players taking the same card), which makes those intervals a
little narrow.

- *Comebacks*: the score after round r is the sum of the ``round_1 .. round_r`` columns
  (points scored during the round, immediate and end-of-round scoring). A seat's rank
  after round r counts the seats strictly ahead (ties share the better rank); its deficit is
  the leader's score minus its own. The win rate by rank and by deficit band says how
  often the player behind comes back.
- *Card strength*: per market card, the win rate of seats that took at least one copy
  against those that took none, the difference with Newcombe's hybrid score interval
  (Newcombe 1998, Statist. Med. 17, 873-890, method 10), and how often it was taken.
  Association, not cause: strong players take more cards, and some cards come late.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from imhotep_stats.sim.schema import CARDS, ROUNDS
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


def _with_wilson(df: pl.DataFrame, confidence: float) -> pl.DataFrame:
    wins = df["wins"].to_numpy().astype(float)
    n = df["rows"].to_numpy().astype(float)
    low, high = wilson_arrays(wins, n, confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = np.where(n > 0, wins / np.where(n > 0, n, 1), np.nan)
    return df.with_columns(pl.Series("win_rate", rate), pl.Series("ci_low", low),
                           pl.Series("ci_high", high))


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
        aggs = [pl.len().cast(pl.Int64).alias("rows"), pl.col("win_share").sum().alias("wins")]
        parts_rank.append(frame.group_by("cell", "round", "rank").agg(*aggs))
        parts_band.append(frame.group_by("cell", "round", "band").agg(*aggs))
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


def card_strength(lf: pl.LazyFrame, confidence: float = 0.95) -> pl.DataFrame:
    """Per cell and market card: take rate and the win rate of takers against non-takers.

    Columns: ``cell``, ``card``, ``rows`` (seat-games), ``taken`` (seat-games that took at
    least one copy), ``take_rate``, ``copies`` (mean copies taken per seat-game),
    ``win_rate_took`` / ``ci_low_took`` / ``ci_high_took``, the same ``_not`` for seats that
    did not take it, and ``difference`` with ``diff_low`` / ``diff_high`` (Newcombe). Cards
    no seat of the cell took are left out. Needs the ``took_*`` columns (a run written
    before they existed reads them as null: every card is left out).
    """
    aggs = [pl.len().cast(pl.Int64).alias("rows")]
    for c in CARDS:
        took = pl.col(f"took_{c}")
        aggs += [(took > 0).sum().cast(pl.Int64).alias(f"{c}__n"),
                 pl.col("win_share").filter(took > 0).sum().alias(f"{c}__w"),
                 took.cast(pl.Int64).sum().alias(f"{c}__k")]
    sums = lf.group_by("cell").agg(pl.col("win_share").sum().alias("__wins"), *aggs) \
        .collect(engine="streaming").sort("cell")
    schema = {"cell": pl.String, "card": pl.String, "rows": pl.Int64, "taken": pl.Int64,
              "take_rate": pl.Float64, "copies": pl.Float64, "win_rate_took": pl.Float64,
              "ci_low_took": pl.Float64, "ci_high_took": pl.Float64,
              "win_rate_not": pl.Float64, "ci_low_not": pl.Float64,
              "ci_high_not": pl.Float64, "difference": pl.Float64, "diff_low": pl.Float64,
              "diff_high": pl.Float64}
    rows = []
    for r in sums.iter_rows(named=True):
        n = r["rows"]
        for c in CARDS:
            k = r[f"{c}__n"] or 0
            if not k:
                continue
            w1 = float(r[f"{c}__w"] or 0.0)
            w0 = float(r["__wins"]) - w1
            x1, n1 = np.array([w1]), np.array([float(k)])
            x0, n0 = np.array([w0]), np.array([float(n - k)])
            d, lo, hi = newcombe(x1, n1, x0, n0, confidence)
            l1, u1 = wilson_arrays(x1, n1, confidence)
            l0, u0 = wilson_arrays(x0, n0, confidence)
            rows.append({
                "cell": r["cell"], "card": c, "rows": n, "taken": k, "take_rate": k / n,
                "copies": (r[f"{c}__k"] or 0) / n, "win_rate_took": w1 / k,
                "ci_low_took": float(l1[0]), "ci_high_took": float(u1[0]),
                "win_rate_not": w0 / (n - k) if n > k else math.nan,
                "ci_low_not": float(l0[0]), "ci_high_not": float(u0[0]),
                "difference": float(d[0]), "diff_low": float(lo[0]), "diff_high": float(hi[0]),
            })
    return pl.DataFrame(rows, schema=schema)

"""Report figures that ``aggregate`` does not compute: per-round points with intervals,
per-game histograms, per-cell bot ratings and one-call seat fairness over a report.

Kept apart from ``aggregate`` so the reports can grow without touching its contract. Same
conventions: a ``pl.LazyFrame`` of the results table in, a small eager ``DataFrame``
sorted by its keys out, streaming queries whose memory does not grow with the games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import polars as pl

from imhotep_stats.stats.aggregate import rating_inputs
from imhotep_stats.stats.intervals import t_interval_from_moments
from imhotep_stats.stats.rating import bradley_terry
from imhotep_stats.stats.significance import SeatVerdict, seat_verdicts

RATING_PRIOR = 0.5
"""Pseudo-wins added both ways when a bot never lost in a cell (its MLE is infinite)."""


def _keys(by: str | Sequence[str]) -> list[str]:
    return [by] if isinstance(by, str) else list(by)


def round_points(
    lf: pl.LazyFrame, by: str | Sequence[str] = ("cell", "seat"), confidence: float = 0.95
) -> pl.DataFrame:
    """Mean points scored in each round (and at game end) per group, with t intervals.

    Long format: keys, ``round`` ("1" ... "6", "end"), ``games`` (rows), ``mean``,
    ``ci_low``, ``ci_high``. The interval is Student's t on the rows, which are independent
    games when the keys pin one row per game (cell and seat, the default); grouped more
    coarsely the interval is too narrow, so keep cell and seat among the keys.
    """
    keys = _keys(by)
    names = lf.collect_schema().names()
    rounds = [c for c in names if c.startswith("round_")]
    aggs = [pl.len().cast(pl.Int64).alias("games")]
    for c in rounds:
        x = pl.col(c).cast(pl.Int64)  # whole points: exact sums in any order
        aggs += [x.sum().alias(f"{c}__s"), (x * x).sum().alias(f"{c}__q")]
    df = lf.group_by(keys).agg(*aggs).collect(engine="streaming").sort(keys)
    schema = {**{k: lf.collect_schema()[k] for k in keys}, "round": pl.String,
              "games": pl.Int64, "mean": pl.Float64, "ci_low": pl.Float64,
              "ci_high": pl.Float64}
    if df.height == 0 or not rounds:
        return pl.DataFrame(schema=schema)
    n = df["games"].to_numpy().astype(float)
    parts = []
    with np.errstate(invalid="ignore", divide="ignore"):
        for c in rounds:
            s, q = (df[f"{c}__{t}"].to_numpy().astype(float) for t in "sq")
            mean = s / n
            var = np.maximum(q - n * mean * mean, 0.0) / np.maximum(n - 1, 1)
            se = np.where(n > 1, np.sqrt(var / n), np.nan)
            low, high = t_interval_from_moments(mean, se, n - 1, confidence)
            parts.append(df.select(
                *keys, pl.lit(c.removeprefix("round_")).alias("round"), "games",
                pl.Series("mean", mean), pl.Series("ci_low", low), pl.Series("ci_high", high),
            ))
    return pl.concat(parts).sort(keys, maintain_order=True).cast(schema)


def game_histogram(lf: pl.LazyFrame, column: str, by: str | Sequence[str] = ("cell",)
                   ) -> pl.DataFrame:
    """Histogram of a per-game column (``margin``, ``lead_changes``, ``decisions``).

    Counts games, not rows: the per-game columns repeat on every seat's row, so only seat
    0 is read. Columns: keys, ``column``, ``count``, ``share`` (of the group's games).
    """
    keys = _keys(by)
    df = (lf.filter(pl.col("seat") == 0).group_by([*keys, column])
          .agg(pl.len().cast(pl.Int64).alias("count")).collect(engine="streaming"))
    share = pl.col("count") / pl.col("count").sum()
    df = df.with_columns((share.over(keys) if keys else share).alias("share"))
    return df.sort([*keys, column])


def cell_bot_ratings(matrix: pl.DataFrame, confidence: float = 0.95) -> pl.DataFrame:
    """Bradley-Terry ratings per cell from ``aggregate.bot_matrix(lf, by="cell")``.

    One fit per cell: pooling cells would mix side combinations a bot may like or not.
    Ratings are anchored at the cell's mean bot (0). With a ``block`` column
    (``bot_matrix(..., blocks=B)``) the intervals are cluster sandwich intervals over the
    blocks of games (``rating``), else Wald. If a bot never lost (or never won), its
    rating is infinite; the cell is then rated with ``RATING_PRIOR`` pseudo-wins both ways
    and ``prior`` says so. Columns: ``cell``, ``bot``, ``rating``, ``se``, ``ci_low``,
    ``ci_high``, ``games`` (comparisons), ``prior``, ``variance``.
    """
    schema = {"cell": pl.String, "bot": pl.String, "rating": pl.Float64, "se": pl.Float64,
              "ci_low": pl.Float64, "ci_high": pl.Float64, "games": pl.Float64,
              "prior": pl.Float64, "variance": pl.String}
    rows = []
    if matrix.height == 0:
        return pl.DataFrame(schema=schema)
    for (cell,), part in matrix.partition_by("cell", as_dict=True, maintain_order=True).items():
        names, w, clusters = rating_inputs(part)
        if len(names) < 2:
            continue
        prior = 0.0
        try:
            r = bradley_terry(w, names, confidence=confidence, clusters=clusters)
        except ValueError as exc:
            if "never met" in str(exc):
                continue
            prior = RATING_PRIOR
            r = bradley_terry(w, names, confidence=confidence, prior=prior,
                              clusters=clusters)
        for i, name in enumerate(r.names):
            rows.append({"cell": cell, "bot": name, "rating": float(r.rating[i]),
                         "se": float(r.se[i]), "ci_low": float(r.ci_low[i]),
                         "ci_high": float(r.ci_high[i]), "games": float(r.games[i]),
                         "prior": prior, "variance": r.variance})
    return pl.DataFrame(rows, schema=schema).sort("cell", "bot")


def fairness(
    seat_rates: pl.DataFrame, cells: Sequence[str], margin: float, alpha: float = 0.05,
    power: float = 0.8, sequential: bool = False,
) -> tuple[dict[str, SeatVerdict], int]:
    """Seat verdicts for ``cells`` from ``aggregate.win_rates(lf, by=("cell", "seat"))``.

    All seats of all cells form one Holm family, so a report with many cells does not call
    a cell unbalanced by chance more often than ``alpha`` overall. Returns the verdict per
    cell (cells without games are left out) and the number of hypotheses corrected over.
    ``sequential``: anytime-valid verdicts (a run looked at more than once).
    """
    inputs: list[tuple[list[float], int]] = []
    names: list[str] = []
    parts = seat_rates.partition_by("cell", as_dict=True, maintain_order=True)
    for cell in cells:
        part = parts.get((cell,))
        if part is None or part.height == 0:
            continue
        part = part.sort("seat")
        wins = [float(x) for x in part["wins"]]
        games = int(part["games"][0])
        # Each game hands out exactly one win; remove float summation noise.
        total = sum(wins)
        if games and not math.isclose(total, games, rel_tol=1e-9):
            raise ValueError(f"cell {cell}: seat wins sum to {total:g}, not {games} games")
        inputs.append((wins, games))
        names.append(cell)
    if not inputs:
        return {}, 0
    verdicts = seat_verdicts(inputs, margin, alpha, power, correction="holm",
                             sequential=sequential)
    family = sum(1 if len(w) == 2 else len(w) for w, _ in inputs)
    return dict(zip(names, verdicts, strict=True)), family

"""Aggregations over the results table (``imhotep_stats.sim.schema``) for the reports.

Every function takes a ``pl.LazyFrame`` (typically ``pl.scan_parquet`` over a run's shards)
and returns a small eager ``DataFrame`` sorted by its keys. Memory does not grow with the
number of games: the queries reduce to additive sums per group inside polars' streaming
engine, and steps that must see a whole game at once (per-game figures, pairwise bot
results) run over chunks of game indices of at most ``chunk_rows`` input rows each, whose
sums are then added up.

Means come with t intervals whose standard error is clustered by game index (the ratio
estimator of cluster sampling, Cochran, *Sampling Techniques*, 3rd ed., 6.2-6.3):

    mean = sum_c S_c / N,   V = C / (C - 1) * sum_c (S_c - mean n_c)^2 / N^2,   df = C - 1

over clusters c (games) with n_c rows and total S_c. Rows of one game are not independent
(players compete; two seats of the same bot share a game; cells share a game index and so
its cards, by design), and clustering accounts for that. When each game gives a group one
row (grouping by cell and seat) this is exactly the textbook s^2 / n.

Every sum is of whole numbers (Int64): points, counts, and values that are whole in
twelfths (``UNIT``: a share of a k-way win, a mean over the other players). Such sums are
exact whatever order polars adds the rows in (shards, chunks, threads), so a run's figures
are the same floats however often they are computed and however its shards were written.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import polars as pl
from scipy import stats as _st

from imhotep_stats.stats.intervals import t_interval_from_moments, wilson_arrays
from imhotep_stats.stats.rating import bradley_terry

CHUNK_ROWS = 500_000
"""Input rows per pass of the per-game steps: bounds their memory by the chunk, not the
cell (one pass would hold every row at once), at the cost of one scan per pass."""

UNIT = 12
"""The least common multiple of 1-4: with 2-4 players a win share (1/k), a mean over the
other players or over the losers (1/1-1/3) is a whole number of twelfths."""

Keys = str | Sequence[str]
_GAME_COLS = ("cell", "sides", "players", "lineup")  # constant within a game


def twelfths(expr: pl.Expr) -> pl.Expr:
    """``expr`` (a whole number of twelfths) as an exact Int64 count of twelfths."""
    return (expr.cast(pl.Float64) * UNIT).round().cast(pl.Int64)


def win_units() -> pl.Expr:
    """Each row's win share in twelfths of a win (12, 6, 4, 3 or 0)."""
    return twelfths(pl.col("win_share"))


def _keys(by: Keys) -> list[str]:
    return [by] if isinstance(by, str) else list(by)


def _collect(lf: pl.LazyFrame) -> pl.DataFrame:
    return lf.collect(engine="streaming")


def _agg(lf: pl.LazyFrame, keys: list[str], *aggs: pl.Expr) -> pl.LazyFrame:
    return lf.group_by(keys).agg(*aggs) if keys else lf.select(*aggs)


def _sorted(df: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    return df.sort(keys) if keys else df


def source_columns(lf: pl.LazyFrame) -> list[str]:
    """The ``pts_<source>`` columns present, in schema order."""
    return [c for c in lf.collect_schema().names() if c.startswith("pts_")]


def _chunked(
    lf: pl.LazyFrame, keys: list[str], step: Callable[[pl.LazyFrame], pl.LazyFrame],
    chunk_rows: int, count_col: str = "_C",
) -> pl.DataFrame | None:
    """Run ``step`` (a query ending in additive sums per ``keys``) over game-index chunks.

    Chunks are ranges of the ``game`` column holding about ``chunk_rows`` rows, so a whole
    game is always in one chunk. Returns the summed result without groups whose
    ``count_col`` is 0, or None for an empty table.
    """
    info = _collect(lf.select(
        rows=pl.len(), lo=pl.col("game").min(), hi=pl.col("game").max()
    )).row(0, named=True)
    if info["rows"] == 0:
        return None
    lo, hi = int(info["lo"]), int(info["hi"])
    per_index = info["rows"] / (hi - lo + 1)
    width = max(1, int(chunk_rows // max(per_index, 1.0)))
    parts = [
        _collect(step(lf.filter(pl.col("game").is_between(a, min(a + width - 1, hi)))))
        for a in range(lo, hi + 1, width)
    ]
    out = pl.concat(parts)
    if len(parts) > 1:
        out = _agg(out.lazy(), keys, pl.all().exclude(keys).sum()).collect()
    return out.filter(pl.col(count_col) > 0)


def _sum_exprs(values: dict[str, pl.Expr], clustered: bool, keys: list[str]):
    """A query step giving additive moments per group (see the module docstring); the
    ``values`` are whole numbers (points, or twelfths: ``twelfths``), summed as Int64.

    Columns: ``_C`` clusters (game indices), ``_G`` games (distinct cell and game),
    ``_N`` rows, ``_N2`` sum of squared rows per cluster, and per value ``v``: ``v__s``
    sum, ``v__q`` sum of squared cluster totals, ``v__x`` sum of cluster total x rows.
    Unclustered, every row is its own cluster.
    """

    def step(lf: pl.LazyFrame) -> pl.LazyFrame:
        if not clustered:  # one row per game and group: rows are the clusters
            return _agg(
                lf, keys, pl.len().cast(pl.Int64).alias("_C"),
                *[e.cast(pl.Int64).sum().alias(f"{v}__s") for v, e in values.items()],
                *[(e.cast(pl.Int64) ** 2).sum().alias(f"{v}__q") for v, e in values.items()],
            ).with_columns(_N=pl.col("_C"), _N2=pl.col("_C"), _G=pl.col("_C"),
                           **{f"{v}__x": pl.col(f"{v}__s") for v in values})
        per_game = _agg(
            lf, [*keys, "game"], pl.len().cast(pl.Int64).alias("_n"),
            pl.col("cell").n_unique().cast(pl.Int64).alias("_g"),
            *[e.cast(pl.Int64).sum().alias(f"{v}__S") for v, e in values.items()],
        )
        return _agg(
            per_game, keys, pl.len().cast(pl.Int64).alias("_C"),
            pl.col("_g").sum().alias("_G"),
            pl.col("_n").sum().alias("_N"), (pl.col("_n") ** 2).sum().alias("_N2"),
            *[pl.col(f"{v}__S").sum().alias(f"{v}__s") for v in values],
            *[(pl.col(f"{v}__S") ** 2).sum().alias(f"{v}__q") for v in values],
            *[(pl.col(f"{v}__S") * pl.col("_n")).sum().alias(f"{v}__x") for v in values],
        )

    return step


def _finalize_means(
    sums: pl.DataFrame, keys: list[str], values: Sequence[str], confidence: float,
    unit: int = 1,
) -> pl.DataFrame:
    """Turn additive moments into mean, ci_low, ci_high per value (clustered t interval);
    values summed in 1/``unit`` parts (``twelfths``) come back in whole units."""
    c, n, n2 = (sums[k].to_numpy().astype(float) for k in ("_C", "_N", "_N2"))
    cols: dict[str, object] = {k: sums[k] for k in keys}
    cols["games"] = sums["_G"].cast(pl.Int64)
    cols["rows"] = sums["_N"].cast(pl.Int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        for v in values:
            s, q, x = (sums[f"{v}__{t}"].to_numpy().astype(float) for t in "sqx")
            mean = np.where(n > 0, s / np.where(n > 0, n, 1), np.nan)
            ss = np.maximum(q - 2 * mean * x + mean**2 * n2, 0.0)
            var = np.where(c > 1, c / np.maximum(c - 1, 1) * ss / np.maximum(n, 1) ** 2, np.nan)
            low, high = t_interval_from_moments(mean, np.sqrt(var), c - 1, confidence)
            cols[f"{v}_mean"] = mean / unit
            cols[f"{v}_ci_low"] = low / unit
            cols[f"{v}_ci_high"] = high / unit
    return pl.DataFrame(cols)


def _means(
    lf: pl.LazyFrame, keys: list[str], values: dict[str, pl.Expr], clustered: bool,
    confidence: float, chunk_rows: int,
) -> pl.DataFrame | None:
    sums = _chunked(lf, keys, _sum_exprs(values, clustered, keys), chunk_rows)
    if sums is None:
        return None
    return _sorted(_finalize_means(sums, keys, list(values), confidence), keys)


def _is_clustered(keys: list[str], row_per_game: Sequence[str]) -> bool:
    """Rows of a group are independent games only if the keys pin one row per game."""
    return not set(row_per_game) <= set(keys)


# --- win rates ---------------------------------------------------------------------------


def win_rates(
    lf: pl.LazyFrame, by: Keys = ("cell", "seat"), confidence: float = 0.95
) -> pl.DataFrame:
    """Win rate per group with a Wilson interval; shared wins count as their share.

    Columns: keys, ``games`` (rows: seat-games, so a bot with two seats in a game counts
    twice), ``wins`` (sum of win_share, exact: ``win_units``), ``win_rate``, ``ci_low``, ``ci_high``,
    ``expected`` (mean of 1/players, the rate of identical players) and ``mdd``, the
    smallest deviation from ``expected`` the sample resolves (``min_detectable_difference``
    at alpha 0.05, power 0.8). Use ``by=("cell", "bot")`` for bots; a bot holding several
    seats of one game then contributes several (negatively related) outcomes, which the
    Wilson interval treats as independent, erring on the wide side.
    """
    keys = _keys(by)
    df = _collect(_agg(
        lf, keys,
        pl.len().cast(pl.Int64).alias("games"),
        win_units().sum().alias("_wins"),
        (UNIT // pl.col("players").cast(pl.Int64)).sum().alias("_fair"),
    ))
    df = _sorted(df.filter(pl.col("games") > 0), keys)
    games = df["games"].to_numpy().astype(float)
    wins = df["_wins"].to_numpy() / UNIT
    df = df.with_columns(pl.Series("wins", wins),
                         pl.Series("expected", df["_fair"].to_numpy() / (UNIT * games)))
    low, high = wilson_arrays(np.minimum(wins, games), games, confidence)
    p = df["expected"].to_numpy()
    z = float(_st.norm.ppf(0.975) + _st.norm.ppf(0.8))
    with np.errstate(divide="ignore", invalid="ignore"):
        mdd = z * np.sqrt(p * (1 - p) / games)
        rate = wins / games
    return df.select(
        *keys, "games", "wins",
        pl.Series("win_rate", rate), pl.Series("ci_low", low), pl.Series("ci_high", high),
        "expected", pl.Series("mdd", mdd),
    )


# --- score sources -----------------------------------------------------------------------


def points_by_source(
    lf: pl.LazyFrame, by: Keys = ("cell", "seat"), confidence: float = 0.95,
    chunk_rows: int = CHUNK_ROWS,
) -> pl.DataFrame:
    """Mean points per source per group, with clustered t intervals and share of the total.

    Long format, one row per group and source: keys, ``source``, ``games`` (distinct games),
    ``rows`` (seat-games averaged: more than games when a bot holds two seats), ``mean``,
    ``ci_low``, ``ci_high``, ``share`` (the source's points over all points of the group;
    sums to 1 over sources when score = sum of sources). Sources in schema order.
    """
    keys = _keys(by)
    srcs = source_columns(lf)
    values = {s: pl.col(s) for s in srcs} | {"_total": pl.col("score")}
    res = _means(lf, keys, values, _is_clustered(keys, ("cell", "seat")), confidence,
                 chunk_rows)
    schema = {**{k: lf.collect_schema()[k] for k in keys}, "source": pl.String,
              "games": pl.Int64, "rows": pl.Int64, "mean": pl.Float64,
              "ci_low": pl.Float64, "ci_high": pl.Float64, "share": pl.Float64}
    if res is None:
        return pl.DataFrame(schema=schema)
    total = pl.col("_total_mean")
    long = pl.concat([
        res.select(
            *keys, pl.lit(s.removeprefix("pts_")).alias("source"), "games", "rows",
            pl.col(f"{s}_mean").alias("mean"), pl.col(f"{s}_ci_low").alias("ci_low"),
            pl.col(f"{s}_ci_high").alias("ci_high"),
            pl.when(total != 0).then(pl.col(f"{s}_mean") / total).alias("share"),
        )
        for s in srcs
    ])
    order = {s.removeprefix("pts_"): i for i, s in enumerate(srcs)}
    return long.sort([*keys, pl.col("source").replace_strict(order)]).cast(schema)


def winner_separation(
    lf: pl.LazyFrame, by: Keys = ("cell",), confidence: float = 0.95,
    chunk_rows: int = CHUNK_ROWS,
) -> pl.DataFrame:
    """What separates winners from the rest: mean winner-minus-others points by source.

    Per game: the winner's points (share-weighted mean over tied winners) minus the mean
    of the players who did not win; games where everyone shared the win are skipped. Then
    the mean over games with a t interval (clustered by game index when ``by`` pools
    cells). Keys must be constant within a game (cell, sides, players, lineup).
    Long format: keys, ``source`` (the sources, then ``total`` for the score), ``games``,
    ``mean``, ``ci_low``, ``ci_high``.
    """
    keys = _keys(by)
    _check_game_keys(keys, "winner_separation")
    srcs = source_columns(lf)
    cols = [*srcs, "score"]
    w = win_units()
    lost = (pl.col("win_share") == 0).cast(pl.Int64)
    game_keys = list(dict.fromkeys([*keys, "cell", "game"]))
    sums_step = _sum_exprs({c: pl.col(c) for c in cols}, "cell" not in keys, keys)

    def step(chunk: pl.LazyFrame) -> pl.LazyFrame:
        # Plain sums per game (fast in a group_by), then winner minus losers' mean, in
        # twelfths: the winners' share-weighted points and 12 / losers are whole numbers.
        per_game = (
            chunk.group_by(game_keys)
            .agg(
                lost.sum().alias("_losers"),
                *[(w * pl.col(c).cast(pl.Int64)).sum().alias(f"{c}__w") for c in cols],
                *[(lost * pl.col(c).cast(pl.Int64)).sum().alias(f"{c}__l") for c in cols],
            )
            .filter(pl.col("_losers") > 0)
            .select(*game_keys, *[(pl.col(f"{c}__w") - pl.col(f"{c}__l")
                                   * (UNIT // pl.col("_losers"))).alias(c) for c in cols])
        )
        return sums_step(per_game)

    sums = _chunked(lf, keys, step, chunk_rows)
    schema = {**{k: lf.collect_schema()[k] for k in keys}, "source": pl.String,
              "games": pl.Int64, "mean": pl.Float64, "ci_low": pl.Float64,
              "ci_high": pl.Float64}
    if sums is None or sums.height == 0:
        return pl.DataFrame(schema=schema)
    res = _sorted(_finalize_means(sums, keys, cols, confidence, UNIT), keys)
    long = pl.concat([
        res.select(
            *keys, pl.lit("total" if c == "score" else c.removeprefix("pts_")).alias("source"),
            "games", pl.col(f"{c}_mean").alias("mean"), pl.col(f"{c}_ci_low").alias("ci_low"),
            pl.col(f"{c}_ci_high").alias("ci_high"),
        )
        for c in cols
    ])
    order = {("total" if c == "score" else c.removeprefix("pts_")): i for i, c in enumerate(cols)}
    return long.sort([*keys, pl.col("source").replace_strict(order)]).cast(schema)


def seat_edge(
    lf: pl.LazyFrame, by: Keys = ("cell", "seat"), confidence: float = 0.95,
    chunk_rows: int = CHUNK_ROWS,
) -> pl.DataFrame:
    """Where a seat's points differ from the other seats', by source: per game, the seat's
    points minus the mean of the other players' points at that table (so the game's luck
    cancels out), then the mean over games with a t interval (clustered by game index
    unless ``by`` pins one row per game). The start player's edge "from the temple" is its
    ``temple`` row. Long format: keys, ``source`` (the sources, then ``total`` for the
    score), ``games``, ``mean``, ``ci_low``, ``ci_high``.
    """
    keys = _keys(by)
    srcs = source_columns(lf)
    cols = [*srcs, "score"]
    others = (pl.col("players").cast(pl.Int64) - 1).clip(lower_bound=1)
    # (points - the others' mean) = (points (others + 1) - the table's points) / others,
    # in twelfths: 12 / others is whole
    edges = [((pl.col(c).cast(pl.Int64) * (others + 1)
               - pl.col(c).cast(pl.Int64).sum().over(["cell", "game"]))
              * (UNIT // others)).alias(c) for c in cols]
    sums_step = _sum_exprs({c: pl.col(c) for c in cols}, _is_clustered(keys, ("cell", "seat")),
                           keys)
    # a chunk holds whole games, so the window over a game's rows sees all of them
    sums = _chunked(lf, keys, lambda chunk: sums_step(chunk.with_columns(edges)), chunk_rows)
    res = None if sums is None else _sorted(_finalize_means(sums, keys, cols, confidence, UNIT),
                                            keys)
    schema = {**{k: lf.collect_schema()[k] for k in keys}, "source": pl.String,
              "games": pl.Int64, "mean": pl.Float64, "ci_low": pl.Float64,
              "ci_high": pl.Float64}
    if res is None:
        return pl.DataFrame(schema=schema)
    long = pl.concat([
        res.select(
            *keys, pl.lit("total" if c == "score" else c.removeprefix("pts_")).alias("source"),
            "games", pl.col(f"{c}_mean").alias("mean"), pl.col(f"{c}_ci_low").alias("ci_low"),
            pl.col(f"{c}_ci_high").alias("ci_high"),
        )
        for c in cols
    ])
    order = {("total" if c == "score" else c.removeprefix("pts_")): i for i, c in enumerate(cols)}
    return long.sort([*keys, pl.col("source").replace_strict(order)]).cast(schema)


# --- game shape --------------------------------------------------------------------------


def _check_game_keys(keys: list[str], what: str) -> None:
    bad = [k for k in keys if k not in _GAME_COLS]
    if bad:
        raise ValueError(f"{what} groups by game-level columns only, not {bad}")


def _hist_quantiles(values: np.ndarray, counts: np.ndarray, qs: Sequence[float]) -> list[float]:
    """Quantiles of a sample given as a histogram, numpy's default "linear" definition.

    With the N sorted values x_0..x_{N-1} and h = (N - 1) q, the quantile is
    x_floor(h) + (h - floor(h)) (x_floor(h)+1 - x_floor(h)) (Hyndman & Fan 1996, type 7).
    """
    order = np.argsort(values)
    v, cum = values[order], np.cumsum(counts[order])
    n = int(cum[-1])

    def stat(k: int) -> float:  # k-th smallest, 0-based
        return float(v[np.searchsorted(cum, k, side="right")])

    out = []
    for q in qs:
        h = (n - 1) * q
        f = math.floor(h)
        lo = stat(f)
        out.append(lo + (h - f) * (stat(min(f + 1, n - 1)) - lo))
    return out


QUANTILES = {"score_min": 0.0, "score_q10": 0.1, "score_q25": 0.25, "score_median": 0.5,
             "score_q75": 0.75, "score_q90": 0.9, "score_max": 1.0}


def score_distribution(lf: pl.LazyFrame, by: Keys = ("cell",)) -> pl.DataFrame:
    """Histogram of final scores per group: keys, ``score``, ``count``, ``share``."""
    keys = _keys(by)
    df = _collect(lf.group_by([*keys, "score"]).agg(pl.len().cast(pl.Int64).alias("count")))
    share = pl.col("count") / pl.col("count").sum()
    df = df.with_columns((share.over(keys) if keys else share).alias("share"))
    return df.sort([*keys, "score"])


def game_shape(
    lf: pl.LazyFrame, by: Keys = ("cell",), confidence: float = 0.95,
    chunk_rows: int = CHUNK_ROWS,
) -> pl.DataFrame:
    """How games go, one row per group.

    Columns: keys; ``games``; final score per player: ``score_mean`` and the quantiles
    ``score_min``, ``score_q10``, ``score_q25``, ``score_median``, ``score_q75``,
    ``score_q90``, ``score_max`` (numpy's default interpolation, from a histogram so memory
    stays flat); per game with t intervals: ``margin_*`` (winner minus best other),
    ``lead_changes_*``, ``decisions_*`` (game length), each as ``_mean``, ``_ci_low``,
    ``_ci_high``; mean points per player in ``round_1`` ... ``round_6`` and ``round_end``.
    """
    keys = _keys(by)
    _check_game_keys(keys, "game_shape")
    names = lf.collect_schema().names()
    rounds = [c for c in names if c.startswith("round_")]
    per_game = {c: pl.col(c) for c in ("margin", "lead_changes", "decisions")}
    games = _means(lf.filter(pl.col("seat") == 0), keys, per_game, "cell" not in keys,
                   confidence, chunk_rows)
    if games is None:
        return pl.DataFrame(schema={k: lf.collect_schema()[k] for k in keys} | {
            "games": pl.Int64})
    means = {"score_mean": "score", **{c: c for c in rounds}}
    per_player = _sorted(_collect(_agg(
        lf, keys, pl.len().alias("_rows"),
        *[pl.col(c).cast(pl.Int64).sum().alias(name) for name, c in means.items()],
    )), keys)
    per_player = per_player.select(*keys, *[(pl.col(name) / pl.col("_rows")).alias(name)
                                            for name in means])
    hist = score_distribution(lf, keys)
    quant_rows = []
    groups = hist.partition_by(keys, as_dict=True, maintain_order=True) if keys else {
        (): hist}
    for key, part in groups.items():
        qv = _hist_quantiles(part["score"].to_numpy(), part["count"].to_numpy(),
                             list(QUANTILES.values()))
        quant_rows.append({**dict(zip(keys, key, strict=True)), **dict(zip(QUANTILES, qv,
                                                                          strict=True))})
    quants = pl.DataFrame(quant_rows, schema={**{k: hist.schema[k] for k in keys},
                                              **{q: pl.Float64 for q in QUANTILES}})
    out = games.drop("rows")
    for extra in (per_player, quants):
        out = out.join(extra, on=keys, how="left") if keys else pl.concat(
            [out, extra], how="horizontal")
    first = [*keys, "games", "score_mean", *QUANTILES]
    return _sorted(out.select(*first, pl.all().exclude(first)), keys)


# --- bots --------------------------------------------------------------------------------


RATING_BLOCKS = 100
"""Clusters of the ratings' sandwich variance: games go to block
``(game // m) % RATING_BLOCKS``, m the lineup's rotation (``Cell.seat_bots``: max(bots,
players) consecutive games seat every bot everywhere once), so each block holds whole
rotations; ``game % RATING_BLOCKS`` put one seating in each block when m divides 100, and
the seats' own effect widened the intervals. Games are independent, so blocks of them are
independent clusters too; 100 keeps the variance's own noise small (sqrt(2/99) ~ 14%)."""


def bot_matrix(
    lf: pl.LazyFrame, by: Keys = (), confidence: float = 0.95, chunk_rows: int = CHUNK_ROWS,
    blocks: int | None = None,
) -> pl.DataFrame:
    """Pairwise win matrix across bots, from games whose lineup mixes bots.

    Every pair of seats held by different bots in a game is one comparison: the better
    rank wins, an equal rank is half a win each (``rating.pairwise_from_ranks``). Long
    format, both directions: keys, ``bot``, ``opponent``, ``games`` (comparisons),
    ``wins``, ``win_rate``, ``ci_low``, ``ci_high`` (Wilson; comparisons from one game
    are treated as independent). Keys must be game-level (default: pooled over cells).
    ``blocks``: also split by ``block`` = (game index // rotation) mod ``blocks``, whole
    rotations of the lineup (``RATING_BLOCKS``; the clusters of ``bradley_terry``'s
    sandwich variance; ``collapse_blocks`` sums them back).
    """
    keys = _keys(by)
    _check_game_keys(keys, "bot_matrix")
    mixed = lf.filter(pl.col("lineup").str.split(",").list.n_unique() > 1)
    if blocks:
        rotation = pl.max_horizontal(pl.col("lineup").str.count_matches(",") + 1,
                                     pl.col("players").cast(pl.Int64))
        mixed = mixed.with_columns(block=((pl.col("game") // rotation) % blocks)
                                   .cast(pl.Int64))
        keys = [*keys, "block"]
    slim = mixed.select(*dict.fromkeys([*keys, "cell", "game", "bot", "rank"]))

    def step(chunk: pl.LazyFrame) -> pl.LazyFrame:
        other = chunk.select("cell", "game", pl.col("bot").alias("opponent"),
                             pl.col("rank").alias("_rank_o"))
        result = (pl.when(pl.col("rank") < pl.col("_rank_o")).then(1.0)
                  .when(pl.col("rank") == pl.col("_rank_o")).then(0.5).otherwise(0.0))
        return (
            chunk.join(other, on=["cell", "game"])
            .filter(pl.col("bot") != pl.col("opponent"))
            .group_by([*keys, "bot", "opponent"])
            .agg(pl.len().cast(pl.Int64).alias("games"), result.sum().alias("wins"))
        )

    out_keys = [*keys, "bot", "opponent"]
    df = _chunked(slim, out_keys, step, chunk_rows, count_col="games")
    schema = {**{k: slim.collect_schema()[k] for k in keys}, "bot": pl.String,
              "opponent": pl.String, "games": pl.Int64, "wins": pl.Float64,
              "win_rate": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64}
    if df is None or df.height == 0:
        return pl.DataFrame(schema=schema)
    return _with_rates(df.sort(out_keys), out_keys, schema, confidence)


def _with_rates(df: pl.DataFrame, out_keys: list[str], schema: dict, confidence: float
                ) -> pl.DataFrame:
    low, high = wilson_arrays(df["wins"].to_numpy(), df["games"].to_numpy(), confidence)
    return df.select(
        *out_keys, "games", "wins", (pl.col("wins") / pl.col("games")).alias("win_rate"),
        pl.Series("ci_low", low), pl.Series("ci_high", high),
    ).cast(schema)


def collapse_blocks(matrix: pl.DataFrame, confidence: float = 0.95) -> pl.DataFrame:
    """``bot_matrix(..., blocks=B)`` summed over its blocks: the plain pairwise matrix."""
    keys = [k for k in matrix.columns if k not in (
        "block", "games", "wins", "win_rate", "ci_low", "ci_high")]
    schema = {k: v for k, v in matrix.schema.items() if k != "block"}
    df = matrix.group_by(keys).agg(pl.col("games").sum(), pl.col("wins").sum()).sort(keys)
    return _with_rates(df, keys, schema, confidence)


def rating_inputs(part: pl.DataFrame) -> tuple[list[str], np.ndarray, np.ndarray | None]:
    """Bot names, the pairwise win matrix and (with a ``block`` column) the blocks' win
    matrices, from one group's rows of ``bot_matrix``."""
    names = sorted(set(part["bot"].to_list()) | set(part["opponent"].to_list()))
    idx = {b: i for i, b in enumerate(names)}
    k = len(names)
    if "block" not in part.columns:
        w = np.zeros((k, k))
        for b, o, x in part.select("bot", "opponent", "wins").iter_rows():
            w[idx[b], idx[o]] += x
        return names, w, None
    blocks = sorted(set(part["block"].to_list()))
    bidx = {b: i for i, b in enumerate(blocks)}
    c = np.zeros((len(blocks), k, k))
    for blk, b, o, x in part.select("block", "bot", "opponent", "wins").iter_rows():
        c[bidx[blk], idx[b], idx[o]] += x
    return names, c.sum(axis=0), (c if len(blocks) >= 2 else None)


def bot_ratings(
    lf: pl.LazyFrame, anchor: str = "mean", prior: float = 0.0, confidence: float = 0.95,
    chunk_rows: int = CHUNK_ROWS,
) -> pl.DataFrame:
    """Bradley-Terry ratings of the bots over all mixed-lineup games (``rating``), in one
    fit: filter ``lf`` to one player count first if it holds several (a bot's pairwise
    strength need not be the same at 2 and 4 players; reports fit per cell).

    Columns: ``bot``, ``rating`` (400 log10 scale, anchored as ``anchor`` says), ``se``,
    ``ci_low``, ``ci_high`` (cluster sandwich over blocks of games, ``RATING_BLOCKS``),
    ``games`` (comparisons). Empty when fewer than two bots met.
    Raises ValueError if a bot never lost and ``prior`` is 0 (see ``rating``).
    """
    m = bot_matrix(lf, chunk_rows=chunk_rows, blocks=RATING_BLOCKS)
    schema = {"bot": pl.String, "rating": pl.Float64, "se": pl.Float64,
              "ci_low": pl.Float64, "ci_high": pl.Float64, "games": pl.Float64}
    names, w, clusters = rating_inputs(m)
    if len(names) < 2:
        return pl.DataFrame(schema=schema)
    r = bradley_terry(w, names, anchor=anchor, confidence=confidence, prior=prior,
                      clusters=clusters)
    return pl.DataFrame({"bot": list(r.names), "rating": r.rating, "se": r.se,
                         "ci_low": r.ci_low, "ci_high": r.ci_high, "games": r.games},
                        schema=schema)

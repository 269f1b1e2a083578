"""Aggregations on a small hand-built results table, with the results worked by hand."""

import math

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from imhotep_stats.sim.schema import COLUMNS, SOURCES
from imhotep_stats.stats.aggregate import (
    _hist_quantiles,
    bot_matrix,
    bot_ratings,
    game_shape,
    points_by_source,
    score_distribution,
    seat_edge,
    win_rates,
    winner_separation,
)
from imhotep_stats.stats.intervals import mean_interval, wilson_interval
from imhotep_stats.stats.rating import pairwise_from_ranks

T3 = 3.182446305  # t_{0.975, 3}
T2 = 4.302652730  # t_{0.975, 2}
SCHEMA = {name: getattr(pl, dtype) for name, dtype in COLUMNS.items()}


def _frame(games):
    """Rows from (cell, players, lineup, game, margin, lead_changes, decisions, seats) with
    seats as (bot, market, pyramid, rank, win_share); other sources are 0, score is
    market + pyramid, round_1 holds the market points and round_end the pyramid points."""
    rows = []
    for cell, players, lineup, game, margin, lead, dec, seats in games:
        for seat, (bot, market, pyramid, rank, share) in enumerate(seats):
            row = dict.fromkeys(COLUMNS, 0)
            row.update(cell=cell, sides=cell.split("|")[0], players=players, lineup=lineup,
                       game=game, seat=seat, bot=bot, score=market + pyramid, rank=rank,
                       win_share=float(share), margin=margin, lead_changes=lead,
                       decisions=dec, pts_market=market, pts_pyramid=pyramid,
                       round_1=market, round_end=pyramid)
            rows.append(row)
    return pl.DataFrame(rows, schema=SCHEMA)


X, Y = "A-A-A-A-A|3p|a,b,b", "B-B-B-B-B|2p|b,b"
GAMES = [
    # X game 0: a (seat 0) wins 15 to 10 and 8.
    (X, 3, "a,b,b", 0, 5, 2, 40, [("a", 10, 5, 1, 1), ("b", 4, 6, 2, 0), ("b", 6, 2, 3, 0)]),
    # X game 1: b in seat 0 wins 16; a second with 12.
    (X, 3, "a,b,b", 1, 4, 0, 44, [("b", 8, 8, 1, 1), ("a", 2, 10, 2, 0), ("b", 2, 4, 3, 0)]),
    # X game 2: seat 0 (b) and seat 2 (a) share the win at 14.
    (X, 3, "a,b,b", 2, 0, 3, 42, [("b", 4, 10, 1, .5), ("b", 1, 3, 3, 0), ("a", 6, 8, 1, .5)]),
    # X game 3: everyone ties at 10.
    (X, 3, "a,b,b", 3, 0, 1, 46,
     [("a", 5, 5, 1, 1 / 3), ("b", 10, 0, 1, 1 / 3), ("b", 0, 10, 1, 1 / 3)]),
    (Y, 2, "b,b", 0, 4, 1, 30, [("b", 3, 3, 1, 1), ("b", 1, 1, 2, 0)]),
    (Y, 2, "b,b", 1, 3, 2, 32, [("b", 0, 2, 2, 0), ("b", 5, 0, 1, 1)]),
]


@pytest.fixture(scope="module")
def lf():
    return _frame(GAMES).lazy()


def _row(df, **where):
    out = df.filter(pl.all_horizontal(pl.col(k) == v for k, v in where.items()))
    assert out.height == 1, where
    return out.row(0, named=True)


def test_win_rates_by_seat(lf):
    df = win_rates(lf)
    assert df.columns == ["cell", "seat", "games", "wins", "win_rate", "ci_low", "ci_high",
                          "expected", "mdd"]
    assert df.select("cell", "seat").rows() == [(X, 0), (X, 1), (X, 2), (Y, 0), (Y, 1)]
    # X seat 0: 1 + 1 + 1/2 + 1/3 = 2.8333 of 4; seat 1: 1/3; seat 2: 1/2 + 1/3.
    assert df["wins"].to_list() == pytest.approx([17 / 6, 1 / 3, 5 / 6, 1, 1])
    assert df["games"].to_list() == [4, 4, 4, 2, 2]
    r = _row(df, cell=X, seat=0)
    assert r["win_rate"] == pytest.approx(17 / 24)
    assert (r["ci_low"], r["ci_high"]) == pytest.approx(wilson_interval(17 / 6, 4))
    assert r["expected"] == pytest.approx(1 / 3)
    # mdd = 2.801585 * sqrt((1/3)(2/3) / 4) = 2.801585 * 0.235702 = 0.660340
    assert r["mdd"] == pytest.approx(0.660340, abs=1e-6)


def test_win_rates_by_bot(lf):
    df = win_rates(lf, by=("cell", "bot"))
    assert df.select("cell", "bot", "games").rows() == [(X, "a", 4), (X, "b", 8), (Y, "b", 4)]
    # a in X: 1 + 0 + 1/2 + 1/3 = 11/6; b: 0 + 1 + 1/2 + 2/3 = 13/6
    assert df["wins"].to_list() == pytest.approx([11 / 6, 13 / 6, 2])
    assert df["win_rate"].to_list() == pytest.approx([11 / 24, 13 / 48, 0.5])


def test_points_by_source_by_seat(lf):
    df = points_by_source(lf)
    assert df.columns == ["cell", "seat", "source", "games", "rows", "mean", "ci_low",
                          "ci_high", "share"]
    assert df["source"].to_list()[: len(SOURCES)] == list(SOURCES)  # schema order
    r = _row(df, cell=X, seat=0, source="market")
    # market 10, 8, 4, 5: mean 6.75, s^2 = 22.75 / 3, se = 1.376893, half = T3 * se = 4.381887
    assert (r["games"], r["rows"]) == (4, 4)
    assert (r["mean"], r["ci_low"], r["ci_high"]) == pytest.approx(
        (6.75, 2.368113, 11.131887), abs=1e-6)
    # share: 27 market points of 55 in total
    assert r["share"] == pytest.approx(27 / 55)
    zero = _row(df, cell=X, seat=0, source="temple")
    assert (zero["mean"], zero["ci_low"], zero["ci_high"], zero["share"]) == (0, 0, 0, 0)
    shares = df.group_by("cell", "seat").agg(pl.col("share").sum())["share"]
    assert shares.to_list() == pytest.approx([1.0] * 5)
    # Every (cell, seat) row against the plain t interval over its games.
    raw = _frame(GAMES)
    for r in df.filter(pl.col("source") == "pyramid").iter_rows(named=True):
        x = raw.filter((pl.col("cell") == r["cell"]) & (pl.col("seat") == r["seat"]))
        assert (r["mean"], r["ci_low"], r["ci_high"]) == pytest.approx(
            mean_interval(x["pts_pyramid"].to_numpy()))


def test_points_by_source_by_bot_is_clustered_by_game(lf):
    df = points_by_source(lf, by=("cell", "bot"))
    r = _row(df, cell=X, bot="b", source="market")
    # b holds two seats per game: totals 10, 10, 5, 10 over 2 rows each. The clustered
    # interval equals the t interval of the per-game means 5, 5, 2.5, 5:
    # mean 4.375, s = 1.25, se = 0.625, half = T3 * 0.625 = 1.989029.
    assert (r["games"], r["rows"]) == (4, 8)
    assert (r["mean"], r["ci_low"], r["ci_high"]) == pytest.approx(
        (4.375, 4.375 - T3 * 0.625, 4.375 + T3 * 0.625), abs=1e-9)
    pooled = _row(points_by_source(lf, by="bot"), bot="b", source="market")
    # Pooled over cells, clusters are game indices (cells share a game's cards):
    # index 0: X 4 + 6, Y 3 + 1 -> S = 14 over 4 rows; index 1: 8 + 2 + 0 + 5 = 15 over 4;
    # index 2: 4 + 1 = 5 over 2; index 3: 10 + 0 = 10 over 2. N = 12, mean = 44/12.
    # Residuals S - mean n: -2/3, 1/3, -7/3, 8/3; squares sum 118/9;
    # V = 4/3 * 118/9 / 144 = 0.121399, se = 0.348424.
    se = math.sqrt(4 / 3 * (118 / 9) / 144)
    assert (pooled["games"], pooled["rows"]) == (6, 12)
    assert (pooled["mean"], pooled["ci_low"], pooled["ci_high"]) == pytest.approx(
        (44 / 12, 44 / 12 - T3 * se, 44 / 12 + T3 * se), abs=1e-9)


def test_winner_separation(lf):
    df = winner_separation(lf)
    assert df.columns == ["cell", "source", "games", "mean", "ci_low", "ci_high"]
    assert df["source"].to_list()[-1] == "total"
    r = _row(df, cell=X, source="market")
    # game 0: 10 - (4 + 6)/2 = 5; game 1: 8 - 2 = 6; game 2: (4 + 6)/2 - 1 = 4;
    # game 3 (everyone won) is skipped. Mean 5, s = 1, half = T2 / sqrt(3) = 2.484138.
    assert r["games"] == 3
    assert (r["mean"], r["ci_low"], r["ci_high"]) == pytest.approx(
        (5, 2.515862, 7.484138), abs=1e-6)
    t = _row(df, cell=X, source="total")
    assert t["mean"] == pytest.approx((6 + 7 + 10) / 3)  # 15 - 9, 16 - 9, 14 - 4
    y = _row(df, cell=Y, source="market")
    assert y["mean"] == pytest.approx(3.5)  # 3 - 1 and 5 - 0
    with pytest.raises(ValueError):
        winner_separation(lf, by=("cell", "seat"))


def test_seat_edge(lf):
    """A seat's points minus the other seats' mean in the same game, then a t interval."""
    df = seat_edge(lf)
    assert df.columns == ["cell", "seat", "source", "games", "mean", "ci_low", "ci_high"]
    r = _row(df, cell=X, seat=0, source="market")
    # market, seat 0: 10 - (4 + 6)/2 = 5; 8 - 2 = 6; 4 - 3.5 = 0.5; 5 - 5 = 0
    d = np.array([5, 6, 0.5, 0])
    half = T3 * d.std(ddof=1) / 2
    assert r["games"] == 4
    assert (r["mean"], r["ci_low"], r["ci_high"]) == pytest.approx(
        (d.mean(), d.mean() - half, d.mean() + half))
    t = _row(df, cell=X, seat=2, source="total")
    # seat 2's score minus the others' mean: 8 - 12.5, 6 - 14, 14 - 9, 10 - 10
    assert t["mean"] == pytest.approx((-4.5 - 8 + 5 + 0) / 4)
    y = _row(df, cell=Y, seat=1, source="pyramid")  # two players: the difference itself
    assert y["mean"] == pytest.approx(((1 - 3) + (0 - 2)) / 2)
    # the seats' edges in a game sum to 0, so their means do too
    sums = df.group_by("cell", "source").agg(pl.col("mean").sum())
    assert sums["mean"].abs().max() == pytest.approx(0, abs=1e-9)


def test_game_shape(lf):
    df = game_shape(lf)
    r = _row(df, cell=X)
    scores = [15, 10, 8, 16, 12, 6, 14, 4, 14, 10, 10, 10]
    assert r["games"] == 4
    assert r["score_mean"] == pytest.approx(np.mean(scores))
    for name, q in [("score_min", 0), ("score_q10", 0.1), ("score_q25", 0.25),
                    ("score_median", 0.5), ("score_q75", 0.75), ("score_q90", 0.9),
                    ("score_max", 1)]:
        assert r[name] == pytest.approx(np.quantile(scores, q)), name
    assert r["margin_mean"] == pytest.approx(2.25)  # (5 + 4 + 0 + 0) / 4
    assert r["lead_changes_mean"] == pytest.approx(1.5)
    # decisions 40, 44, 42, 46: mean 43, se = 1.290994, half = T3 * se = 4.108520
    assert (r["decisions_mean"], r["decisions_ci_low"], r["decisions_ci_high"]) == pytest.approx(
        (43, 38.891480, 47.108520), abs=1e-6)
    assert r["round_1"] == pytest.approx(58 / 12)  # market points per player
    assert r["round_2"] == 0
    assert r["round_end"] == pytest.approx((129 - 58) / 12)
    pooled = game_shape(lf, by=())
    assert pooled.height == 1 and pooled["games"].item() == 6
    hist = score_distribution(lf)
    assert _row(hist, cell=X, score=10)["count"] == 4
    assert _row(hist, cell=X, score=10)["share"] == pytest.approx(4 / 12)


def test_bot_matrix_and_ratings(lf):
    m = bot_matrix(lf)
    # Only X mixes bots. a against the two b seats: game 0 +2; game 1 +1 (one loss);
    # game 2 +1.5 (tie with one b); game 3 +1 (two ties). 8 comparisons, a wins 5.5.
    assert m.select("bot", "opponent", "games", "wins").rows() == [
        ("a", "b", 8, 5.5), ("b", "a", 8, 2.5)]
    assert (m["ci_low"][0], m["ci_high"][0]) == pytest.approx(wilson_interval(5.5, 8))
    r = bot_ratings(lf)
    assert r["bot"].to_list() == ["a", "b"]
    assert r["rating"].to_list() == pytest.approx([200 * math.log10(5.5 / 2.5),
                                                   -200 * math.log10(5.5 / 2.5)])
    per_cell = bot_matrix(lf, by="cell")
    assert per_cell["cell"].unique().to_list() == [X]


def test_random_table_against_references(tmp_path):
    """Random games: sharded Parquet scan, chunked passes and plain references agree."""
    rng = np.random.default_rng(4)
    games = []
    for cell, lineup in ((X, ["a", "b", "b"]), ("C-C-C-C-C|3p|a,b,c", ["a", "b", "c"])):
        for g in range(30):
            market, pyramid = rng.integers(0, 12, 3), rng.integers(0, 12, 3)
            score = market + pyramid
            best = score.max()
            winners = np.flatnonzero(score == best)
            seats = [(lineup[(s + g) % 3], int(market[s]), int(pyramid[s]),
                      1 + int(np.sum(score > score[s])),
                      1 / len(winners) if s in winners else 0.0) for s in range(3)]
            games.append((cell, 3, ",".join(lineup), g, 0, int(rng.integers(0, 4)),
                           int(rng.integers(30, 60)), seats))
    raw = _frame(games)
    raw.head(100).write_parquet(tmp_path / "a.parquet")
    raw.slice(100).write_parquet(tmp_path / "b.parquet")
    scan = pl.scan_parquet(tmp_path / "*.parquet")
    mem = raw.lazy()
    checks = [
        (win_rates, {}), (points_by_source, {"by": "bot"}), (winner_separation, {"by": ()}),
        (game_shape, {}), (bot_matrix, {}),
    ]
    for fn, kw in checks:
        ref = fn(mem, **kw)
        assert ref.height > 0
        # Equal up to the order of floating-point summation.
        assert_frame_equal(fn(scan, **kw), ref, rel_tol=1e-12)
        if "chunk_rows" in fn.__code__.co_varnames:  # one pass per few games
            assert_frame_equal(fn(scan, chunk_rows=7, **kw), ref, rel_tol=1e-12)
    # Pairwise matrix against pairwise_from_ranks on the raw rows.
    mixed = raw.filter(pl.col("lineup").str.split(",").list.n_unique() > 1)
    per_game = mixed.group_by("cell", "game").agg("bot", "rank").iter_rows()
    ref = pairwise_from_ranks(list(zip(b, r, strict=True)) for _, _, b, r in per_game)
    m = bot_matrix(mem)
    for b, o, w in m.select("bot", "opponent", "wins").iter_rows():
        assert w == pytest.approx(ref.wins[ref.names.index(b), ref.names.index(o)])
    # Seat win rates against counting by hand.
    for r in win_rates(mem).iter_rows(named=True):
        x = raw.filter((pl.col("cell") == r["cell"]) & (pl.col("seat") == r["seat"]))
        assert r["wins"] == pytest.approx(x["win_share"].sum())
        assert r["games"] == x.height


def test_empty_table(lf):
    empty = lf.filter(pl.lit(False))
    assert win_rates(empty).height == 0
    assert points_by_source(empty).height == 0
    assert winner_separation(empty).height == 0
    assert game_shape(empty).height == 0
    assert bot_matrix(empty).height == 0
    assert bot_ratings(empty).height == 0


@settings(max_examples=60, deadline=None)
@given(scores=st.lists(st.integers(-5, 80), min_size=1, max_size=60),
       q=st.floats(0, 1))
def test_histogram_quantiles_match_numpy(scores, q):
    values, counts = np.unique(scores, return_counts=True)
    got = _hist_quantiles(values, counts, [q])[0]
    assert got == pytest.approx(float(np.quantile(scores, q)), abs=1e-9)

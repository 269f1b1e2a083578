"""Issue 46, item 5: the smaller things a report said that did not hold. A topped-up plain
run's note claims the bound that holds (2 alpha over its looks); "more games" plans the next
look, which is sequential; the ratings' blocks hold whole rotations of the lineup; the seat
table's equivalence p-value is the raw one the docs name; the cost table is recomputed."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import polars as pl

from imhotep_stats.config import Cell, parse_config
from imhotep_stats.reporting.figures import compute
from imhotep_stats.sim.runner import run_study, run_until_decided
from imhotep_stats.stats import sequential as seq
from imhotep_stats.stats.aggregate import RATING_BLOCKS, bot_matrix
from imhotep_stats.stats.breakdowns import cell_bot_ratings
from imhotep_stats.stats.planning import games_needed, games_to_exceed
from imhotep_stats.stats.significance import seat_verdicts

ROOT = Path(__file__).resolve().parents[1]
DOCS = "".join((ROOT / "docs" / p).read_text(encoding="utf-8") for p in ("reports.md", "statistics.md"))


def study(games=20):
    return parse_config({
        "study": {"name": "small", "seed": 4, "games": games, "players": [2]},
        "sides": {"obelisk": ["A"]}, "bots": {"lineup": ["random"]},
        "run": {"batch_size": 10}})


def note(run_dir):
    return next(n for n in compute(run_dir).global_notes if n.startswith("Sequential"))


def test_a_topped_up_plain_run_claims_two_alpha_and_a_sequential_one_alpha(tmp_path):
    run_study(study(20), tmp_path / "r", workers=1)
    run_study(study(30), tmp_path / "r", workers=1, resume=True)
    text = note(tmp_path / "r")
    assert "at most 2 x 5% = 10%" in text and "however often" not in text
    run_until_decided(study(20), tmp_path / "u", lambda n: 0 if n >= 30 else 10,
                      max_games=40, workers=1)
    assert "Every look was sequential" in note(tmp_path / "u")


def test_more_games_plan_the_next_look_which_is_sequential():
    """A plain run's "more games" is what a sequential look needs: following it, the
    top-up (judged sequentially) decides; the fixed-sample plan fell short."""
    wins, n = [214.0, 186.0], 400  # 53.5% at 2 players, +-5 pp: inconclusive
    (plain,) = seat_verdicts([(wins, n)], 0.05)
    (topped,) = seat_verdicts([(wins, n)], 0.05, sequential=True)
    assert plain.verdict == "inconclusive" and plain.games_needed == topped.games_needed
    rates = [w / n for w in wins]
    assert plain.games_needed == seq.games_for_verdict(rates, n, 0.05, 0.05)
    # with the observed rates the truth, the top-up's sequential verdict at that many
    # games decides (the plan's pessimistic shift aside: at the observed rates exactly)
    total = plain.games_needed
    (after,) = seat_verdicts([([r * total for r in rates], total)], 0.05, sequential=True)
    assert after.verdict != "inconclusive"


def test_rating_blocks_hold_whole_rotations(tmp_path):
    """Two bots of equal strength at 4 players with a strong start seat: blocks of
    ``game % 100`` put one seating in each block, so the start seat's effect widened the
    rating intervals; blocks of whole rotations do not see it."""
    cell = Cell(0, "A-A-A-A-A", 4, ("a", "b"))
    rng = np.random.default_rng(46)
    rows = []
    games = 4000
    for g in range(games):
        order = rng.permutation(4) if rng.random() < 0.5 else np.arange(4)  # seat 1 often wins
        ranks = np.empty(4, dtype=int)
        ranks[order] = np.arange(1, 5)
        for s, b in enumerate(cell.seat_bots(g)):
            rows.append({"cell": cell.id, "game": g, "bot": b, "rank": int(ranks[s]),
                         "lineup": "a,b", "players": 4})
    lf = pl.LazyFrame(rows)
    se = cell_bot_ratings(bot_matrix(lf, by="cell", blocks=RATING_BLOCKS))["se"][0]
    old_m = pl.concat([bot_matrix(lf.filter(pl.col("game") % RATING_BLOCKS == b), by="cell")
                       .with_columns(block=pl.lit(b, dtype=pl.Int64))
                       for b in range(RATING_BLOCKS)], how="diagonal")  # the old blocks
    se_old = cell_bot_ratings(old_m)["se"][0]
    plain = cell_bot_ratings(bot_matrix(lf, by="cell"))["se"][0]  # games independent: Wald
    assert se_old > 1.5 * plain  # the seating in each block
    assert abs(se / plain - 1) < 0.25, (se, plain, se_old)


def test_the_equivalence_p_value_is_the_raw_one_the_docs_name(tmp_path):
    run_study(study(40), tmp_path / "r", workers=1)
    data = compute(tmp_path / "r")
    (c,) = data.cells
    row = data.tables["win_rates_seat"].filter(pl.col("seat") == 0).row(0, named=True)
    assert row["p_equivalence"] == c.verdict.p_equivalence[0]
    assert "within the margin the seat's own (raw" in DOCS


def test_the_cost_table_is_recomputed_at_the_cells_level():
    row = next(x for x in DOCS.splitlines() if x.startswith('| "within", true gap 0'))
    cols = re.findall(r"([\d,]+) / ([\d,]+)", row)
    for (fixed, sequ), (k, m) in zip(cols, ((2, 0.05), (3, 0.02), (4, 0.02)), strict=True):
        assert int(fixed.replace(",", "")) == games_needed(m, k)
        assert int(sequ.replace(",", "")) == seq.games_for_verdict([1 / k] * k, 0, m, 0.05)
    row = next(x for x in DOCS.splitlines() if x.startswith('| "unbalanced", true gap 2m'))
    cols = re.findall(r"([\d,]+) / ([\d,]+)", row)
    for (fixed, sequ), (k, m) in zip(cols, ((2, 0.05), (3, 0.02), (4, 0.02)), strict=True):
        f = 1 if k == 2 else k
        shares = [1 / k + 2 * m] + [(1 - 1 / k - 2 * m) / (k - 1)] * (k - 1)
        assert int(fixed.replace(",", "")) == games_to_exceed(2 * m, m, k)
        assert int(sequ.replace(",", "")) == seq.games_for_verdict(shares, 0, m, 0.05 / f)

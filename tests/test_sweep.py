"""Sweep statistics on a synthetic sweep whose truth is known by construction: main effects
and interactions recovered exactly, intervals equal to the paired t over game indices,
the planted worst cell ranked first, Benjamini-Hochberg against hand-computed values."""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import polars as pl
import pytest
from scipy import stats

from imhotep_stats.sim import store
from imhotep_stats.sim.schema import COLUMNS
from imhotep_stats.stats.sweep import add_q_values, analyze_sweep, rank

G = 120  # games per cell
PYR = ["A", "B", "C", "D"]
TMP = ["A", "B"]
# Truth, sum-to-zero coded. Pyramid points per player: 20 + a_p + a_t + g_pt.
A_P = {"A": 6, "B": -2, "C": -5, "D": 1}
A_T = {"A": 3, "B": -3}
G_PT = {("A", "A"): 1, ("A", "B"): -1, ("B", "A"): -1, ("B", "B"): 1,
        ("C", "A"): 2, ("C", "B"): -2, ("D", "A"): -2, ("D", "B"): 2}
# Start player's wins out of G: 40 + b_p + b_t + c_pt.
B_P = {"A": 12, "B": -4, "C": -6, "D": -2}
B_T = {"A": 6, "B": -6}
C_PT = {("A", "A"): 3, ("A", "B"): -3, ("B", "A"): -3, ("B", "B"): 3,
        ("C", "A"): 0, ("C", "B"): 0, ("D", "A"): 0, ("D", "B"): 0}
# Game length: 100 + d_p + noise shared by every cell at the same game index.
D_P = {"A": 4, "B": 0, "C": -1, "D": -3}


def cell_rows(index: int, pyr: str, tmp: str, noise: list[int]) -> pl.DataFrame:
    rng = random.Random(index)
    k = 40 + B_P[pyr] + B_T[tmp] + C_PT[(pyr, tmp)]
    start_wins = set(rng.sample(range(G), k))
    sides = f"A-{pyr}-{tmp}-A-A"
    cols: dict[str, list] = {c: [] for c in COLUMNS}
    pts = 20 + A_P[pyr] + A_T[tmp] + G_PT[(pyr, tmp)]
    other = 0
    for g in range(G):
        if g in start_wins:
            winner = 0
        else:
            winner, other = 1 + other, 1 - other
        for s in range(3):
            row = dict.fromkeys(COLUMNS, 0)
            row.update(cell=f"{sides}|3p|random", sides=sides, players=3, lineup="random",
                       game=g, seat=s, bot="random", win_share=float(s == winner),
                       rank=1 if s == winner else 2, pts_pyramid=pts, score=pts,
                       decisions=100 + D_P[pyr] + noise[g])
            for c in COLUMNS:
                cols[c].append(row[c])
    return pl.DataFrame(cols, schema={c: getattr(pl, t) for c, t in COLUMNS.items()})


@pytest.fixture(scope="module")
def sweep_dir(tmp_path_factory):
    run = tmp_path_factory.mktemp("sweep")
    noise = [random.Random(99 + g).randint(-20, 20) for g in range(G)]
    cells = []
    for i, (pyr, tmp) in enumerate(itertools.product(PYR, TMP)):
        sides = f"A-{pyr}-{tmp}-A-A"
        cells.append({"index": i, "id": f"{sides}|3p|random", "sides": sides, "players": 3,
                      "lineup": ["random"], "games": G, "batches": 1})
        (run / store.SHARDS).mkdir(exist_ok=True)
        store.write_shard(run, i, 0, cell_rows(i, pyr, tmp, noise))
    store.write_manifest(run, {
        "format": store.FORMAT, "status": "complete", "study": "synthetic",
        "config_hash": "x", "batch_size": G, "games_per_cell": G, "cells": cells,
        "config": {"report": {"margin": 0.05, "confidence": 0.95}},
    })
    return run


@pytest.fixture(scope="module")
def result(sweep_dir):
    return analyze_sweep(sweep_dir, top=5, max_blocks=1000)


def effect(res, key, site, side, site2=None, side2=None, pool="main_effects"):
    hits = [e for e in res[pool] if e["response_key"] == key and e["site"] == site
            and e["side"] == side and e["site2"] == site2 and e["side2"] == side2]
    assert len(hits) == 1
    return hits[0]


def test_main_effects_recovered_exactly(result):
    for side, a in A_P.items():
        e = effect(result, "pts_pyramid", "Pyramid", side)
        assert e["effect"] == pytest.approx(a, abs=1e-12)  # every player scores pts
        assert e["ci_low"] == pytest.approx(e["effect"]) == pytest.approx(e["ci_high"])
    for side, a in A_T.items():
        assert effect(result, "pts_pyramid", "Temple", side)["effect"] == pytest.approx(a)
    for side, b in B_P.items():
        e = effect(result, "seat1", "Pyramid", side)
        assert e["effect"] == pytest.approx(b / G, abs=1e-12)
        assert e["unit"] == "pp of win rate"
    for side, d in D_P.items():  # the shared noise cancels game by game: exact, no spread
        e = effect(result, "decisions", "Pyramid", side)
        assert e["effect"] == pytest.approx(d, abs=1e-9)
        assert e["ci_high"] - e["ci_low"] == pytest.approx(0.0, abs=1e-6)
    assert not [e for e in result["main_effects"] if e["site"] in ("Market", "Obelisk")]


def test_interactions_recovered(result):
    # Interactions are for the seat win rates (here the start player's).
    inter = [e for e in result["interactions"] if e["response_key"] == "seat1"]
    assert len(inter) == 4  # Pyramid A-D x Temple A (Temple B is its mirror image)
    for e in inter:
        assert (e["site"], e["site2"], e["side2"]) == ("Pyramid", "Temple", "A")
        assert e["effect"] == pytest.approx(C_PT[(e["side"], "A")] / G, abs=1e-12)
        assert e["ci_low"] <= e["effect"] <= e["ci_high"]


def test_interval_is_the_paired_t_over_game_indices(result, sweep_dir):
    # Independent computation: per game index, mean over Pyramid-A cells minus mean over
    # all cells of the start player's win share; t interval of those G contrasts.
    df = pl.read_parquet(list((sweep_dir / "shards").iterdir())).filter(pl.col("seat") == 0)
    wide = df.pivot(on="sides", index="game", values="win_share").sort("game")
    a_cols = [c for c in wide.columns if c.startswith("A-A-")]
    all_cols = [c for c in wide.columns if c != "game"]
    contrast = wide.select(a_cols).to_numpy().mean(1) - wide.select(all_cols).to_numpy().mean(1)
    mean, se = contrast.mean(), contrast.std(ddof=1) / np.sqrt(G)
    t = stats.t.ppf(0.975, G - 1)
    e = effect(result, "seat1", "Pyramid", "A")
    assert e["effect"] == pytest.approx(mean, abs=1e-12)
    assert e["ci_low"] == pytest.approx(mean - t * se, abs=1e-12)
    assert e["ci_high"] == pytest.approx(mean + t * se, abs=1e-12)
    assert e["p_value"] == pytest.approx(2 * stats.t.sf(abs(mean) / se, G - 1), rel=1e-9)


def test_blocks_bound_memory_and_keep_the_estimate(sweep_dir, result):
    coarse = analyze_sweep(sweep_dir, max_blocks=10)
    for key in ("seat1", "pts_pyramid"):
        a = effect(result, key, "Pyramid", "C")
        b = effect(coarse, key, "Pyramid", "C")
        assert b["effect"] == pytest.approx(a["effect"], abs=1e-12)


def test_ranking_and_verdicts(result):
    first = result["ranking"][0]
    assert first["sides"] == "A-A-A-A-A"  # start player wins 61 of 120
    assert first["seat_gap"] == pytest.approx(61 / 120 - 1 / 3)
    assert first["start_player"] == pytest.approx(61 / 120)
    assert first["top_source"] == "pyramid" and first["dominance"] == 1.0
    assert [r["rank"] for r in result["ranking"]] == [1, 2, 3, 4, 5]
    gaps = [c["seat_gap"] for c in result["all_cells"]]
    assert gaps == sorted(gaps, reverse=True)
    assert sum(result["verdicts"].values()) == 8
    assert first["verdict"] in ("unbalanced", "inconclusive")
    assert [(e["site"], e["side"]) for e in result["sites"]] == [("Pyramid", "A"),
                                                                   ("Temple", "A")]
    json.dumps(result)  # JSON-ready


def test_rank_puts_missing_figures_last():
    cells = [{"index": 0, "bot_gap": None}, {"index": 1, "bot_gap": 0.1},
             {"index": 2, "bot_gap": 0.3}]
    assert [c["index"] for c in rank(cells, "bot_gap")] == [2, 1, 0]


def test_benjamini_hochberg_against_hand_computed_values():
    # p sorted: 0.005 (1), 0.01 (2), 0.03 (3), 0.04 (4); m p / i = 0.02, 0.02, 0.04, 0.04;
    # running minimum from the top leaves them as they are.
    effects = [{"p_value": p, "q_value": None} for p in (0.01, 0.04, 0.03, 0.005)]
    effects.append({"p_value": None, "q_value": None})  # no test: not in the family
    add_q_values(effects)
    assert [e["q_value"] for e in effects[:4]] == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert effects[4]["q_value"] is None
    # A step-up case: p = 0.02, 0.03, 0.031 (m = 3) gives 0.06, 0.045, 0.031 -> running min
    # from the largest: 0.031, 0.031, 0.031.
    effects = [{"p_value": p, "q_value": None} for p in (0.031, 0.02, 0.03)]
    add_q_values(effects)
    assert [e["q_value"] for e in effects] == pytest.approx([0.031, 0.031, 0.031])


def test_sweep_q_values_are_bh_over_every_effect(result):
    allp = [e for e in result["main_effects"] + result["interactions"]
            if e["p_value"] is not None]
    p = np.array([e["p_value"] for e in allp])
    m = len(p)
    order = np.argsort(p)
    q = np.empty(m)
    running = 1.0
    for rank_i in range(m - 1, -1, -1):  # step-up, by hand
        i = order[rank_i]
        running = min(running, p[i] * m / (rank_i + 1))
        q[i] = running
    assert [e["q_value"] for e in allp] == pytest.approx(q.tolist())


def test_verdicts_survive_a_rate_on_the_margin_boundary():
    # 60 / 200 = 0.3 = 0.25 + 0.05, but 0.3 - 0.25 < 0.05 in floating point: a sweep of
    # 1/8 of all combinations hit this (ZeroDivisionError in stats.significance before the fix).
    from imhotep_stats.stats.sweep import add_verdicts

    cells = [{"wins": [41.0, 41.5, 60.0, 57.5], "games": 200},
             {"wins": [110.0, 90.0], "games": 200}]
    add_verdicts(cells, margin=0.05)
    assert all(c["verdict"] == "inconclusive" for c in cells)

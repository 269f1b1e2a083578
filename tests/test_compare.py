"""Paired what-if comparisons: identical runs give exactly zero, a planted change is found in
the right seat and source, intervals are the paired t interval, the CLI and its gate."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from imhotep_stats.bots import make_bot
from imhotep_stats.config import parse_config
from imhotep_stats.config.edits import describe_change
from imhotep_stats.engine.game import Game
from imhotep_stats.engine.play import bot_rng, chance_seed, play_game
from imhotep_stats.sim.runner import run_study
from imhotep_stats.sim.store import load_results
from imhotep_stats.stats.compare import CompareError, compare_runs, pair_configs, summarize
from imhotep_stats.stats.intervals import paired_difference
from tests.helpers import cli

PYRAMID_A = [2, 1, 3, 2, 4, 3, 2, 1, 3, 2, 3, 1, 3, 4]
PLANTED = [20, *PYRAMID_A[1:]]  # the first pyramid space worth 20 instead of 2


def study(games=60, players=(3,), lineup=("random",), **tables):
    raw = {"study": {"name": "t", "seed": 11, "games": games, "players": list(players)},
           "bots": {"lineup": list(lineup)}, "run": {"batch_size": 25}}
    raw.update(tables)
    return parse_config(raw)


def run_pair(tmp_path, base, whatif):
    whatif, _ = pair_configs(base, whatif)
    run_study(base, tmp_path / "base", workers=1)
    run_study(whatif, tmp_path / "whatif", workers=1)
    return compare_runs(tmp_path / "base", tmp_path / "whatif")


def test_identical_configs_give_exactly_zero(tmp_path):
    cfg = study(games=40, players=(2, 3), lineup=("random", "greedy"))
    comp = run_pair(tmp_path, cfg, cfg)
    assert comp.identical and len(comp.figures) > 40
    for f in comp.figures:
        assert f.diff == 0.0 and f.ci_low == 0.0 and f.ci_high == 0.0, f
        assert f.base == f.whatif and f.p_value == 1.0
    assert {f.group for f in comp.figures} == {"seat", "bot", "all", "game"}
    assert "changes nothing" in summarize(comp)[0]


def test_planted_pyramid_space_found_in_the_right_seat_and_source(tmp_path):
    games = 90
    base = study(games=games)
    whatif = study(games=games, overrides={"pyramid": {"A": {"points": PLANTED}}})
    comp = run_pair(tmp_path, base, whatif)
    assert comp.change == "Pyramid A with points[0] = 20 (was 2)"
    # Random bots ignore scores, so both runs play the very same moves: only the owner of
    # the first pyramid space gains, 18 points, from the pyramid. Who that is comes from
    # replaying the games with the engine, independently of the comparison.
    first = np.zeros(3)
    cell = base.cells[0]
    for i in range(games):
        g = Game(3, cell.sides, seed=chance_seed(base.seed, i))
        play_game(g, [make_bot(b) for b in cell.seat_bots(i)],
                  [bot_rng(base.seed, i, p) for p in range(3)])
        first[g.sites[1].owners[0]] += 1
    seat_pyr = {f.who: f for f in comp.figures
                if f.group == "seat" and f.figure == "points" and f.source == "pyramid"}
    for s in range(3):
        assert seat_pyr[s].diff == pytest.approx(18 * first[s] / games)
        assert seat_pyr[s].ci_low > 0 and seat_pyr[s].q_value < 0.05
    best = max(seat_pyr.values(), key=lambda f: f.diff).who
    assert best == int(np.argmax(first))
    for f in comp.figures:  # no other source moves at all
        if f.figure == "points" and f.source != "pyramid":
            assert f.diff == f.ci_low == f.ci_high == 0.0
        if f.figure == "decisions":
            assert f.diff == 0.0
    total = next(f for f in comp.figures if f.group == "all" and f.source == "pyramid")
    assert total.diff == pytest.approx(18 / 3) and total.ci_low == total.ci_high == total.diff
    text = "\n".join(summarize(comp))
    assert "raises the mean pyramid points per player by 6.00" in text


def test_seat_interval_is_the_paired_t_interval(tmp_path):
    base = study(games=80)
    whatif = study(games=80, overrides={"game": {"starting_sled": [4, 2, 3, 5]}})
    comp = run_pair(tmp_path, base, whatif)

    def rows(d):
        return load_results(d).filter(pl.col("seat") == 1).sort("game").collect()

    b, w = rows(tmp_path / "base"), rows(tmp_path / "whatif")
    for col, fig in (("win_share", "win_rate"), ("score", "score"), ("pts_temple", "points")):
        ref = paired_difference(w[col].to_numpy(), b[col].to_numpy())
        f = next(f for f in comp.figures if f.group == "seat" and f.who == 1
                 and f.figure == fig and f.source in (None, "temple"))
        assert f.diff == pytest.approx(ref["diff"], abs=1e-12)
        assert f.ci_low == pytest.approx(ref["ci_low"], abs=1e-12)
        assert f.ci_high == pytest.approx(ref["ci_high"], abs=1e-12)
        assert f.p_value == pytest.approx(ref["p_value"], rel=1e-9, abs=1e-15)
    assert comp.change == "the rule option game.starting_sled = [4, 2, 3, 5] (was [2, 3, 4, 5])"


def test_pairing_refuses_cells_that_do_not_match():
    base = study(players=(3,))
    with pytest.raises(CompareError, match="cells pair by position"):
        pair_configs(base, study(players=(2, 3)))
    with pytest.raises(CompareError, match="cells pair by position"):
        pair_configs(base, study(lineup=("greedy",)))
    aligned, notes = pair_configs(base, study(games=7).replace(seed=99))
    assert (aligned.seed, aligned.games) == (base.seed, base.games) and len(notes) == 2


def test_describe_change_reads_effective_values():
    base = study().to_json()
    same = study(overrides={"game": {"sled_capacity": 5}}).to_json()  # the data file's value
    assert describe_change(base, same) == "the what-if (identical to the base)"
    sides = study(sides={"pyramid": ["D"]}).to_json()
    assert describe_change(base, sides) == "Pyramid D instead of A"


CONFIG = """
[study]
name = "planted"
seed = 1
games = 150
players = [3]

[bots]
lineup = ["random"]

[whatif]
label = "A stronger start"

[whatif.overrides.game]
starting_sled = [5, 1, 1, 1]
"""


def test_cli_one_config_with_whatif_json_and_gate(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text(CONFIG)
    out = tmp_path / "cmp"
    r = cli("compare", path, "--out", out, "--workers", 1, "--json", "-q")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["change"] == "A stronger start" and not data["identical"]
    for f in data["figures"]:
        assert {"base", "whatif", "diff", "ci_low", "ci_high"} <= set(f)
    start = next(f for f in data["figures"] if f["seat"] == 0 and f["figure"] == "win_rate")
    assert start["diff"] > 0 and start["ci_low"] > 0
    assert data["summary"][0].startswith("A stronger start raises the start player's win rate")
    assert (out / "base" / "manifest.json").exists() and (out / "whatif" / "manifest.json").exists()
    assert json.loads((out / "compare.json").read_text()) == data
    assert (out / "compare.md").read_text().startswith("# What-if: A stronger start")
    # Again: both runs are resumed, not played again; the gate fails with exit code 3.
    r = cli("compare", path, "--out", out, "--workers", 1, "--max-seat-shift", 0.02)
    assert r.exit_code == 3, r.output
    assert "0 played now, 150 reused" in r.stderr and "gate failed" in r.stderr
    r = cli("compare", path, "--out", out, "--workers", 1, "--max-seat-shift", 0.5, "-q")
    assert r.exit_code == 0


def test_cli_errors(tmp_path):
    plain = tmp_path / "p.toml"
    plain.write_text(CONFIG.split("[whatif]")[0])
    r = cli("compare", plain, "--out", tmp_path / "x")
    assert r.exit_code == 1 and "whatif: missing" in r.stderr
    other = tmp_path / "o.toml"
    other.write_text(CONFIG.split("[whatif]")[0].replace("players = [3]", "players = [2, 3]"))
    r = cli("compare", plain, other, "--out", tmp_path / "y")
    assert r.exit_code == 1 and "cells pair by position" in r.stderr
    assert not Path(tmp_path / "y").exists()


def test_whatif_on_sides_pairs_cells_by_position(tmp_path):
    base = study(games=20, sides={"pyramid": ["A"], "obelisk": ["A", "B"]})
    whatif = study(games=20, sides={"pyramid": ["D"], "obelisk": ["A", "B"]})
    comp = run_pair(tmp_path, base, whatif)
    pairs = {(f.cell.split("|")[0], f.whatif_cell.split("|")[0]) for f in comp.figures}
    assert pairs == {("A-A-A-A-A", "A-D-A-A-A"), ("A-A-A-A-B", "A-D-A-A-B")}
    assert comp.change == "Pyramid D instead of A" and not comp.identical


def test_compare_is_worded_from_its_paired_test_and_asked_again_is_sequential(tmp_path):
    """Issue 46, item 3: the first lines say whether the what-if moves a seat and whether a
    seat's change crosses the margin, from the paired differences, never two verdicts side
    by side; asked again with more games, the intervals are confidence sequences."""
    path = tmp_path / "c.toml"
    path.write_text(CONFIG)
    out = tmp_path / "cmp"
    r = cli("compare", path, "--out", out, "--workers", 1)
    assert r.exit_code == 0, r.output
    first = r.stdout.splitlines()[0]
    assert "; what-if " not in r.stdout and "base " not in first
    assert first.startswith("A-A-A-A-A, 3 players, random: the what-if moves 2 seats (the "
                            "start player +"), first
    assert first.endswith("the start player moves by more than ±5.0 pp (paired test).")
    fixed = json.loads((out / "compare.json").read_text())
    assert fixed["intervals"] == "fixed-sample"
    r = cli("compare", path, "--out", out, "--workers", 1, "--games", 300)
    assert r.exit_code == 0, r.output
    again = json.loads((out / "compare.json").read_text())
    assert again["intervals"] == "confidence sequences"
    assert "asked again: valid at every look" in r.stdout.splitlines()[0]
    assert "95% confidence sequence" in r.stdout.splitlines()[0]
    width = {k: [f["ci_high"] - f["ci_low"] for f in d["figures"] if f["seat"] is not None
                 and f["figure"] == "win_rate"] for k, d in (("fixed", fixed), ("seq", again))}
    # twice the games, yet wider than a fixed-sample interval at 300 games would be: the
    # confidence sequence pays for the second look
    assert all(s > f * (150 / 300) ** 0.5 for f, s in zip(width["fixed"], width["seq"],
                                                            strict=True))

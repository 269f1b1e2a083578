"""Adaptive allocation: extra games take the next game indices (so they equal a longer
first pass), the loop stops on settled verdicts, on the budget and on the round limit,
resumes without replaying, and the `sweep` command reports it."""

from __future__ import annotations

import json

import polars as pl
import pytest
from click.testing import CliRunner

from imhotep_stats.cli import main
from imhotep_stats.config import parse_config
from imhotep_stats.sim import adaptive
from imhotep_stats.sim.runner import run_study
from imhotep_stats.sim.store import load_manifest, load_results
from imhotep_stats.stats.sweep import verdict_policy


def study(games=20, margin=0.05, **sweep):
    return parse_config({
        "study": {"name": "ad", "seed": 8, "games": games, "players": [2]},
        "sides": {"obelisk": ["A", "B"]}, "bots": {"lineup": ["random"]},
        "report": {"margin": margin}, "run": {"batch_size": 10}, "sweep": sweep,
    })


@pytest.fixture
def first_pass(tmp_path):
    cfg = study()
    run_study(cfg, tmp_path / "run", workers=1)
    return cfg, tmp_path / "run"


def greedy_policy(_lf, _games):
    return {0: 1000, 1: 1000}


def test_allocate_doubles_at_most_and_fills_small_demands_first():
    games = {0: 100, 1: 100, 2: 100, 3: 50}
    assert adaptive.allocate({0: 30, 1: 500, 3: 70}, games, 10_000) == {0: 30, 3: 50, 1: 100}
    assert adaptive.allocate({0: 30, 1: 500, 3: 70}, games, 60) == {0: 30, 3: 30}
    assert adaptive.allocate({2: 5}, games, 0) == {}


def test_round_limit_and_extra_games_equal_a_longer_run(first_pass, tmp_path):
    cfg, run = first_pass
    out = adaptive.run_adaptive(cfg, run, greedy_policy, budget=10_000, rounds=2, workers=1)
    assert out.stopped == "rounds" and out.extra_games == 2 * (20 + 40)
    # each cell doubled twice: 20 -> 40 -> 80 games, on the next game indices
    rows = adaptive.scan_all(run).sort("cell", "game", "seat").collect()
    assert rows.group_by("cell").agg(pl.col("game").n_unique())["game"].to_list() == [80, 80]
    run_study(cfg.replace(games=80), tmp_path / "long", workers=1)
    longer = load_results(tmp_path / "long").sort("cell", "game", "seat").collect()
    assert rows.equals(longer)
    # A second call resumes: nothing to play, same record
    again = adaptive.run_adaptive(cfg, run, greedy_policy, budget=10_000, rounds=2, workers=1)
    assert again.simulated == 0 and again.rounds == out.rounds and again.stopped == "rounds"


def test_budget_stops_allocation(first_pass):
    cfg, run = first_pass
    out = adaptive.run_adaptive(cfg, run, greedy_policy, budget=30, rounds=5, workers=1)
    assert out.stopped == "budget" and out.extra_games == 30
    assert [t[:4] for t in out.rounds[0]["tasks"]] == [[0, 0, 20, 30], [0, 1, 30, 40],
                                                        [1, 0, 20, 30]]
    # A changed budget discards the extra games and plans again
    more = adaptive.run_adaptive(cfg, run, greedy_policy, budget=50, rounds=5, workers=1)
    assert more.extra_games == 50 and more.simulated == 50


def test_settled_verdicts_stop_allocation(first_pass):
    cfg, run = first_pass

    def until_40(_lf, games):
        return {c: 40 - n for c, n in games.items() if n < 40}

    out = adaptive.run_adaptive(cfg, run, until_40, budget=10_000, rounds=5, workers=1)
    assert out.stopped == "settled" and len(out.rounds) == 1 and out.extra_games == 40


def test_verdict_policy_wants_games_only_for_inconclusive_cells(first_pass):
    cfg, run = first_pass
    manifest = load_manifest(run)
    wide = verdict_policy(manifest, margin=0.45)(adaptive.all_files(run), {})
    assert wide == {}  # +/-45 points: 20 games settle every cell
    narrow = verdict_policy(manifest, margin=0.03)(adaptive.all_files(run), {})
    assert set(narrow) == {0, 1} and all(n > 100 for n in narrow.values())
    out = adaptive.run_adaptive(cfg, run, verdict_policy(manifest, 0.45), budget=100,
                                rounds=3, workers=1)
    assert out.stopped == "settled" and out.extra_games == 0


def test_sweep_command(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text("""
[study]
name = "s"
seed = 8
games = 20
players = [2]
[sides]
obelisk = ["A", "B"]
[bots]
lineup = ["random"]
[report]
margin = 0.2
[run]
batch_size = 10
[sweep]
budget = 60
rounds = 2
""")
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["sweep", str(path), "--out", str(out), "--workers", "1",
                                  "--json", "-q"])
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    assert res["cells"] == 2 and res["adaptive"]["budget"] == 60
    assert res["games"] == 40 + res["extra_games"] and res["extra_games"] <= 60
    assert {e["site"] for e in res["main_effects"]} == {"Obelisk"}
    assert (out / "sweep.md").read_text().startswith("# Sweep s: 2 cells")
    assert (out / "sweep-cells.csv").read_text().startswith("rank,cell,sides")
    r = CliRunner().invoke(main, ["sweep", str(path), "--out", str(out), "--workers", "1",
                                  "--fail-on-unbalanced"])
    assert r.exit_code in (0, 3) and "Most imbalanced combinations" in r.stdout
    assert (r.exit_code == 3) == (res["verdicts"]["unbalanced"] > 0)

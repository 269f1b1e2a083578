"""Batch sizes from the pilot's cost (issue 45): a slow bot's few games are spread over
every core and the progress bar moves every few seconds; the rows never depend on how the
games were cut into batches; ``--batch-size`` caps the size on the commands that run games."""

from __future__ import annotations

import json

import polars as pl
from click.testing import CliRunner

from imhotep_stats.cli import main
from imhotep_stats.config import parse_config
from imhotep_stats.sim import cost
from imhotep_stats.sim.progress import Progress
from imhotep_stats.sim.runner import run_study
from imhotep_stats.sim.store import load_manifest, load_results


def _cost(per_game: float, games: int = 12) -> cost.CellCost:
    return cost.CellCost("A-A-A-A-A|3p|expert", 3, ("expert",), games, per_game, 1)


def test_a_slow_bot_gets_batches_of_a_few_seconds_a_fast_one_the_cap():
    assert cost.batch_size([_cost(20.0)], 500) == 1  # 12 expert games: 12 batches
    assert cost.batch_size([_cost(0.5, 150)], 500) == int(cost.TARGET_BATCH_SECONDS / 0.5)
    assert cost.batch_size([_cost(0.005, 2000)], 500) == 500
    # a study longer than one batch gives each core two batches at least
    assert cost.batch_size([_cost(0.006, 300)], 500, workers=2) == 75
    assert cost.batch_size([_cost(0.006, 300)], 500, workers=1) == 150
    assert cost.batch_size([_cost(0.001, 300)], 500, workers=2) >= 300  # 0.3 s: one batch
    assert cost.batch_size([_cost(0.005, 2000), _cost(20.0)], 500) == 1  # the slowest kind
    # never more batches than MOST_BATCHES, however slow
    many = [_cost(20.0, 10_000)] * 10
    assert cost.batch_size(many, 500) == 100_000 // cost.MOST_BATCHES


def study(**run):
    return parse_config({"study": {"name": "b", "seed": 5, "games": 12, "players": [3]},
                         "sides": {"temple": ["A", "C"]}, "bots": {"lineup": ["random"]},
                         "run": run})


def test_a_new_run_takes_its_batch_size_from_the_pilot(tmp_path, monkeypatch):
    monkeypatch.setattr(cost, "pilot", lambda *a, **k: (20.0, 1))  # as slow as the expert
    run_study(study(), tmp_path / "r", workers=1)
    m = load_manifest(tmp_path / "r")
    assert m["batch_size"] == 1 and [c["batches"] for c in m["cells"]] == [12, 12]


def test_rows_do_not_depend_on_the_batch_size(tmp_path):
    frames = []
    for size in (1, 5, 500):
        out = tmp_path / f"b{size}"
        r = CliRunner().invoke(main, ["run", "--sides", "A-A-C-A-D", "--players", "3",
                                      "--bots", "random", "--games", "11", "--batch-size",
                                      str(size), "--workers", "2", "--out", str(out), "-q",
                                      "--json"])
        assert r.exit_code == 0, r.output
        assert load_manifest(out)["batch_size"] == size
        frames.append(load_results(out).sort("game", "seat").collect())
        assert [json.loads(x)["games"] for x in r.stdout.splitlines()] == [11]
    assert frames[0].equals(frames[1]) and frames[0].equals(frames[2])
    assert frames[0].height == 33 and isinstance(frames[0], pl.DataFrame)


def test_progress_shows_the_pilot_estimate_in_minutes_before_any_game():
    import io

    buf = io.StringIO()
    bar = Progress(12, enabled=True, stream=buf)
    bar.set_estimate(4 * 60.0)
    assert "0/12 games" in buf.getvalue() and "about 4 min left" in buf.getvalue()
    bar.update(1)
    assert "1/12 games" in bar.line()

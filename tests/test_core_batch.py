"""A batch played by the Rust core (sim/core_batch.py, src/batch.rs) gives the same rows,
every column, as the Python loop of ``batches.simulate`` (IMHOTEP_STATS_ENGINE=python)."""

from __future__ import annotations

import json

import pytest

from imhotep_stats.config import Cell
from imhotep_stats.sim import core_batch
from imhotep_stats.sim.batches import Task, simulate, to_frame
from imhotep_stats.sim.schema import COLUMNS

PYRAMID_POINTS = [5, 1, 4, 2, 6, 3, 1, 2, 4, 2, 3, 1, 3, 9]

# (sides, players, lineup, prophecies, expansion, overrides)
CASES = [
    ("A-A-A-A-A", 3, ("random",), False, None, {}),
    ("D-B-C-A-D", 2, ("random", "random"), True, None, {}),
    ("C-D-A-B-C", 4, ("random",), False, True, {}),
    ("B-A-D-C-B", 4, ("random", "random", "random"), True, False, {}),
    ("A-A-B-D-A", 3, ("random",), True, None, {"pyramid": {"A": {"points": PYRAMID_POINTS}}}),
    ("D-D-D-D-D", 2, ("random",), False, None, {}),
]


def test_the_built_core_plays_batches():
    from imhotep_stats import _core

    assert hasattr(_core, "play_batch"), "the built core predates src/py_batch.rs: run `make`"


def task(sides, players, lineup, prophecies, expansion, overrides) -> Task:
    cell = Cell(0, sides, players, lineup)
    return Task(cell, 0, 7, 37, 11, prophecies, expansion, json.dumps(overrides, sort_keys=True))


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}p")
def test_the_core_plays_the_rows_python_plays(case, monkeypatch):
    t = task(*case)
    monkeypatch.setenv(core_batch.ENGINE_ENV, "python")
    assert not core_batch.plays(t.cell.lineup)
    python = simulate(t)
    monkeypatch.delenv(core_batch.ENGINE_ENV)
    assert core_batch.plays(t.cell.lineup)
    core = simulate(t)
    assert list(core) == list(COLUMNS)
    for name in COLUMNS:
        assert core[name] == python[name], name
    assert to_frame(core).equals(to_frame(python))
    assert len(core["game"]) == t.rows


def test_the_rows_do_not_depend_on_where_the_batch_is_cut():
    whole = task(*CASES[1])
    parts = [Task(whole.cell, 0, 7, 20, 11, True, None, "{}"),
             Task(whole.cell, 1, 20, 37, 11, True, None, "{}")]
    a, b = (simulate(p) for p in parts)
    assert simulate(whole) == {k: a[k] + b[k] for k in COLUMNS}


def test_only_core_bots_and_no_personas_play_in_the_core(monkeypatch):
    monkeypatch.delenv(core_batch.ENGINE_ENV, raising=False)
    assert core_batch.plays(["random", "random"])
    assert not core_batch.plays(["random", "greedy"])
    assert not core_batch.plays(["random"], {"random": {"base": "greedy"}})


def test_an_unknown_engine_is_refused(monkeypatch):
    monkeypatch.setenv(core_batch.ENGINE_ENV, "cython")
    with pytest.raises(ValueError, match="IMHOTEP_STATS_ENGINE='cython': expected one of core, python"):
        core_batch.engine_wanted()


def test_the_core_refuses_a_bot_it_does_not_play():
    from imhotep_stats.engine.core import rules

    with pytest.raises(ValueError, match='bot "greedy" is not played by the core'):
        core_batch.play(rules("A-A-A-A-A"), 3, 0, 0, 2, ["greedy"])


@pytest.mark.parametrize("engine", ["python", "core"])
def test_bench_says_who_played_and_plays_the_same_games(engine, monkeypatch):
    from click.testing import CliRunner

    from imhotep_stats.cli import main

    monkeypatch.setenv(core_batch.ENGINE_ENV, engine)
    args = ["bench", "--sides", "D-B-C-A-D", "--players", "4", "--games", "40", "--prophecies",
            "--json"]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["played_by"] == engine
    # the same 40 games: their mean length is the same to the decision
    monkeypatch.setenv(core_batch.ENGINE_ENV, "python")
    python = json.loads(CliRunner().invoke(main, args).output)
    assert data["decisions_per_game"] == python["decisions_per_game"]


def test_pure_python_asked_for_plays_in_python(monkeypatch):
    monkeypatch.delenv(core_batch.ENGINE_ENV, raising=False)
    monkeypatch.setenv("IMHOTEP_PURE", "1")
    assert not core_batch.plays(["random"])


def test_batches_played_on_threads_at_once_are_the_same_rows():
    # play_batch releases the GIL: two threads play their batches side by side
    from concurrent.futures import ThreadPoolExecutor

    from imhotep_stats.engine.core import rules

    r = rules("D-B-C-A-D")
    whole = core_batch.play(r, 3, 5, 0, 60, ["random"], prophecies=True)
    with ThreadPoolExecutor(2) as pool:
        a, b = pool.map(lambda span: core_batch.play(r, 3, 5, *span, ["random"], prophecies=True),
                        [(0, 30), (30, 60)])
    assert whole == {k: a[k] + b[k] for k in whole}

"""A batch played by the Rust core (sim/core_batch.py, src/batch.rs) gives the same rows,
every column, as the Python loop of ``batches.simulate`` (IMHOTEP_STATS_ENGINE=python)."""

from __future__ import annotations

import json

import pytest

from imhotep_stats.bots import persona_weights
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


# a persona defined by weights in the config (name -> spec table), and search tables
PERSONAS = {"builder": {"base": "pyramid", "weights": {"deny": 0.2, "stones": 1.6}, "name": "builder"},
            "tiny-expert": {"base": "expert", "iterations": 24},
            "roller": {"base": "mcts", "iterations": 12, "rollout": "greedy", "truncate": 4,
                       "bias": 0.5}}

# every kind of bot the core plays: (sides, players, lineup, prophecies, expansion, games)
BOT_CASES = [
    ("D-B-C-A-D", 3, ("greedy",), True, None, 30),
    ("A-C-D-B-A", 4, ("market", "random", "balanced"), False, True, 30),
    ("B-D-A-C-C", 2, ("builder", "greedy"), True, None, 30),
    ("C-A-B-D-D", 3, ("mcts16-t8-s", "greedy"), False, None, 3),
    ("A-A-A-A-A", 2, ("tiny-expert",), False, None, 3),
    ("D-D-C-C-B", 2, ("roller", "mcts10-greedy-t3-b1"), True, None, 2),
]


def task(sides, players, lineup, prophecies, expansion, overrides, games=30, personas=None) -> Task:
    cell = Cell(0, sides, players, lineup)
    return Task(cell, 0, 7, 7 + games, 11, prophecies, expansion,
                json.dumps(overrides, sort_keys=True), json.dumps(personas or {}))


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


@pytest.mark.parametrize("case", BOT_CASES, ids=lambda c: "+".join(c[2]))
def test_the_core_plays_every_bot_as_python_does(case, monkeypatch):
    sides, players, lineup, prophecies, expansion, games = case
    t = task(sides, players, lineup, prophecies, expansion, {}, games, PERSONAS)
    monkeypatch.setenv(core_batch.ENGINE_ENV, "python")
    python = simulate(t)
    monkeypatch.delenv(core_batch.ENGINE_ENV)
    assert core_batch.plays(t.cell.lineup, PERSONAS)
    core = simulate(t)
    for name in COLUMNS:
        assert core[name] == python[name], name


def test_the_core_gives_each_games_actions():
    from imhotep_stats.bots import make_bot
    from imhotep_stats.engine.core import rules
    from imhotep_stats.engine.game import Game
    from imhotep_stats.engine.play import bot_rng, chance_seed, play_game

    got = core_batch.play(rules("B-D-A-C-C"), 2, 5, 3, 5, ["builder", "greedy"], personas=PERSONAS,
                          actions=True)
    for k, game in enumerate((3, 4)):
        texts: list[str] = []
        g = Game(2, "B-D-A-C-C", seed=chance_seed(5, game))
        names = Cell(0, "B-D-A-C-C", 2, ("builder", "greedy")).seat_bots(game)
        play_game(g, [make_bot(PERSONAS.get(b, b)) for b in names],
                  [bot_rng(5, game, p) for p in range(2)], lambda g, a, out=texts: out.append(str(a)))
        assert got["actions"][k] == texts
        assert got["decisions"][2 * k] == len(texts)


def test_the_rows_do_not_depend_on_where_the_batch_is_cut():
    whole = task(*CASES[1])
    parts = [Task(whole.cell, 0, 7, 20, 11, True, None, "{}"),
             Task(whole.cell, 1, 20, 37, 11, True, None, "{}")]
    a, b = (simulate(p) for p in parts)
    assert simulate(whole) == {k: a[k] + b[k] for k in COLUMNS}


def test_every_registered_bot_and_spec_table_plays_in_the_core(monkeypatch):
    monkeypatch.delenv(core_batch.ENGINE_ENV, raising=False)
    assert core_batch.plays(["random", "greedy", "obelisk", "expert", "mcts400-greedy-t40-b1-m0.2-s-c1"])
    assert core_batch.plays(["random", "builder"], PERSONAS)
    # a persona named like a bot plays as its table says
    assert core_batch.core_specs(["random"], {"random": {"base": "greedy"}}) == {
        "random": {"base": "greedy", "weights": persona_weights("greedy"), "name": "greedy+"}}


def test_a_bot_written_in_python_plays_in_python(monkeypatch):
    from imhotep_stats.bots import REGISTRY

    class Mine:
        name = "mine"

        def choose(self, view, legal, rng):
            return legal[0]

    monkeypatch.delenv(core_batch.ENGINE_ENV, raising=False)
    monkeypatch.setitem(REGISTRY, "mine", Mine)
    assert not core_batch.plays(["greedy", "mine"])


def test_an_unknown_engine_is_refused(monkeypatch):
    monkeypatch.setenv(core_batch.ENGINE_ENV, "cython")
    with pytest.raises(ValueError, match="IMHOTEP_STATS_ENGINE='cython': expected one of core, python"):
        core_batch.engine_wanted()


def test_the_core_refuses_a_bad_spec_naming_it():
    from imhotep_stats import _core
    from imhotep_stats.engine.core import rules

    with pytest.raises(ValueError, match="bot spec weights.dney: unknown weight"):
        _core.play_batch(rules("A-A-A-A-A"), 3, "0", 0, 2, ["x"],
                         personas=json.dumps({"x": {"weights": {"dney": 1}}}))
    with pytest.raises(ValueError, match='unknown bot "nobody"'):
        _core.play_batch(rules("A-A-A-A-A"), 3, "0", 0, 2, ["nobody"])


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

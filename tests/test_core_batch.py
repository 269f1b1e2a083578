"""A batch played by the Rust core (sim/core_batch.py, src/batch.rs) gives the same rows,
every column, as ``batches.game_by_game``'s loop (how a lineup with a bot written in Python
plays: the core's bots one decision at a time through engine.play); a timed batch is played
by the core too, with each seat's CPU seconds beside the same rows."""

from __future__ import annotations

import dataclasses
import json

import pytest

from imhotep_stats.bots import persona_weights
from imhotep_stats.config import Cell
from imhotep_stats.sim import batches, core_batch
from imhotep_stats.sim.batches import CPU, Task, simulate, to_frame
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


def game_by_game(t: Task) -> dict:
    """The task's rows from the game-by-game loop (timed: each seat's CPU in a column)."""
    rows = batches.game_by_game(dataclasses.replace(t, timed=True))
    cpu = rows.pop(CPU)
    assert len(cpu) == t.rows and all(type(x) is float and x >= 0 for x in cpu)
    return rows


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}p")
def test_the_core_plays_the_rows_of_the_game_by_game_loop(case):
    t = task(*case)
    assert core_batch.plays(t.cell.lineup)
    core = simulate(t)
    loop = game_by_game(t)
    assert list(core) == list(COLUMNS)
    for name in COLUMNS:
        assert core[name] == loop[name], name
    assert to_frame(core).equals(to_frame(loop))
    assert len(core["game"]) == t.rows


@pytest.mark.parametrize("case", BOT_CASES, ids=lambda c: "+".join(c[2]))
def test_the_core_plays_every_bot_as_the_loop_does(case):
    sides, players, lineup, prophecies, expansion, games = case
    t = task(sides, players, lineup, prophecies, expansion, {}, games, PERSONAS)
    assert core_batch.plays(t.cell.lineup, PERSONAS)
    core = simulate(t)
    loop = game_by_game(t)
    for name in COLUMNS:
        assert core[name] == loop[name], name


def test_a_timed_batch_is_played_by_the_core_the_same_games_with_each_seats_cpu(monkeypatch):
    def no_loop(task):
        raise AssertionError("a timed batch of built-in bots went game by game")

    t = task("D-A-C-A-A", 3, ("mcts30", "greedy", "random"), False, None, {}, games=4)
    monkeypatch.setattr(batches, "game_by_game", no_loop)
    timed = simulate(dataclasses.replace(t, timed=True))
    cpu = timed.pop(CPU)
    assert timed == simulate(t)
    assert to_frame({**timed, CPU: cpu})[CPU].dtype.is_float()
    assert all(s == core_batch.cpu_seconds(s) for s in cpu)
    assert all(s > 0 for s, b in zip(cpu, timed["bot"], strict=True) if b == "mcts30")
    # the core's seconds (another run), before the column rounds them: every seat spent
    # some; the search more than greedy and random in every game
    from imhotep_stats.engine.core import rules

    raw = core_batch.play(rules("D-A-C-A-A"), 3, 11, 7, 11, ["mcts30", "greedy", "random"], cpu=True)
    assert {k: v for k, v in raw.items() if k != CPU} == core_batch.play(
        rules("D-A-C-A-A"), 3, 11, 7, 11, ["mcts30", "greedy", "random"])
    assert all(s > 0 for s in raw[CPU])
    for g in range(4):
        spent = dict(zip(timed["bot"][3 * g:3 * g + 3], raw[CPU][3 * g:3 * g + 3], strict=True))
        assert spent["mcts30"] > max(spent["greedy"], spent["random"]), spent


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
        # each seat's random.Random: lent to the core's bot at each decision
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


def test_every_registered_bot_and_spec_table_plays_in_the_core():
    assert core_batch.plays(["random", "greedy", "obelisk", "expert", "mcts400-greedy-t40-b1-m0.2-s-c1"])
    assert core_batch.plays(["random", "builder"], PERSONAS)
    # a persona named like a bot plays as its table says
    assert core_batch.core_specs(["random"], {"random": {"base": "greedy"}}) == {
        "random": {"base": "greedy", "weights": persona_weights("greedy"), "name": "greedy+"}}


def test_a_bot_written_in_python_plays_beside_the_core_bots(monkeypatch):
    from imhotep_stats.bots import REGISTRY

    class First:
        name = "first"

        def choose(self, view, legal, rng):
            assert view.me == view.to_move and type(legal) is tuple
            return legal[0]

    monkeypatch.setitem(REGISTRY, "first", First)
    assert not core_batch.plays(["greedy", "first"])
    t = task("D-B-C-A-D", 3, ("first", "greedy"), True, None, {}, games=4)
    rows = simulate(t)
    assert rows["bot"][:3] == list(t.cell.seat_bots(7))
    assert len(rows["score"]) == t.rows and sum(rows["win_share"]) == pytest.approx(4)


def test_the_core_refuses_a_bad_spec_naming_it():
    from imhotep_stats import _core
    from imhotep_stats.engine.core import rules

    with pytest.raises(ValueError, match="bot spec weights.dney: unknown weight"):
        _core.play_batch(rules("A-A-A-A-A"), 3, "0", 0, 2, ["x"],
                         personas=json.dumps({"x": {"weights": {"dney": 1}}}))
    with pytest.raises(ValueError, match='unknown bot "nobody"'):
        _core.play_batch(rules("A-A-A-A-A"), 3, "0", 0, 2, ["nobody"])


def test_bench_plays_in_the_core_the_games_of_a_batch():
    from click.testing import CliRunner

    from imhotep_stats.cli import main

    args = ["bench", "--sides", "D-B-C-A-D", "--players", "4", "--games", "40", "--prophecies",
            "--json"]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["played_by"] == "core"
    # the same 40 games as a batch of the cell: their mean length to the decision
    t = Task(Cell(0, "D-B-C-A-D", 4, ("random",)), 0, 0, 40, 0, True, None, "{}")
    assert data["decisions_per_game"] == round(sum(game_by_game(t)["decisions"][::4]) / 40, 1)


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

"""Batches of games: what a worker is sent and the rows it sends back.

A task is a small picklable value naming a cell and a range of game indices; the worker
plays those games (:func:`simulate`: in the Rust core when every bot of the lineup is
built in, ``sim/core_batch.py``, timed or not; game by game when one is written in Python)
and sends back plain columns, one row per game and
seat, sorted by (game, seat); :func:`to_frame` types them with the exact schema of
``sim/schema.py``. Workers never import polars: a pool starts faster without it.

Seeds derive from the root seed and the game index only (``engine.play.chance_seed`` and
``bot_rng``), and seats from the game index (``Cell.seat_bots``), so a batch's rows never
depend on which worker ran it, when, or how the games were cut into batches.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from time import process_time
from typing import TYPE_CHECKING

from imhotep_stats.bots import make_bot, seat_rng
from imhotep_stats.config import Cell, board_for
from imhotep_stats.engine.core import rules
from imhotep_stats.engine.game import Game
from imhotep_stats.engine.play import chance_seed, play_game
from imhotep_stats.sim import core_batch
from imhotep_stats.sim.core_batch import CPU, cpu_seconds
from imhotep_stats.sim.schema import CARDS, COLUMNS, ROUNDS, SOURCES

if TYPE_CHECKING:
    import polars as pl

Columns = dict[str, list]


class Timed:
    """A bot whose ``choose`` adds up the CPU seconds it takes (``cpu``), so a head-to-head
    with a bot written in Python records what each seat cost. Timing only: the bot's choices
    are its own."""

    def __init__(self, bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.cpu = 0.0

    def choose(self, view, legal, rng):
        t = process_time()
        a = self.bot.choose(view, legal, rng)
        self.cpu += process_time() - t
        return a


@dataclass(frozen=True)
class Task:
    """Games [start, stop) of one cell: shard (cell.index, batch)."""

    cell: Cell
    batch: int
    start: int
    stop: int
    seed: int
    prophecies: bool
    expansion: bool | None
    overrides_json: str
    personas_json: str = "{}"  # bots defined by weights in the config, by name
    timed: bool = False  # add a "cpu" column: each seat's CPU seconds in its bot (ladder play)

    @property
    def games(self) -> int:
        return self.stop - self.start

    @property
    def rows(self) -> int:
        return self.games * self.cell.players


def plan(cells: list[Cell], games: int, batch_size: int, seed: int, prophecies: bool,
         expansion: bool | None, overrides_json: str, personas_json: str = "{}",
         passes: Sequence[int] = ()) -> list[Task]:
    """Every cell's games cut into batches of ``batch_size`` (the last one shorter).

    ``passes``: the game counts a topped-up run grew through (``[400, 600]``: games
    0-399, then 400-599); each pass is cut on its own and batch numbers run on, so the
    shards of the earlier passes keep their names and games. Default: one pass."""
    ends = [int(n) for n in passes] or [games]
    spans = [(start, min(start + batch_size, stop))
             for begin, stop in zip([0, *ends[:-1]], ends, strict=True)
             for start in range(begin, stop, batch_size)]
    return [
        Task(cell, b, start, stop, seed, prophecies, expansion, overrides_json, personas_json)
        for cell in cells
        for b, (start, stop) in enumerate(spans)
    ]


def schema() -> dict[str, pl.DataType]:
    """The results schema as polars dtypes."""
    import polars as pl

    return {name: getattr(pl, dtype) for name, dtype in COLUMNS.items()}


def to_frame(cols: Columns) -> pl.DataFrame:
    import polars as pl

    extra = {CPU: pl.Float64} if CPU in cols else {}
    return pl.DataFrame(cols, schema={**schema(), **extra})


def run_batch(task: Task) -> pl.DataFrame:
    """Play the task's games in this process, as a typed frame."""
    return to_frame(simulate(task))


def simulate(task: Task) -> Columns:
    """Play the task's games; one row per game and seat, sorted by (game, seat)."""
    board = board_for(task.overrides_json)
    personas = json.loads(task.personas_json)  # name -> spec table (bots.make_bot)
    if core_batch.plays(task.cell.lineup, personas):
        return core_batch.simulate(task, board)  # the whole batch in the core
    return game_by_game(task)


def game_by_game(task: Task) -> Columns:
    """:func:`simulate`'s rows played one decision at a time through ``engine.play`` (each
    bot's ``choose`` called from Python, timed with ``process_time`` in a timed task): how a
    lineup with a bot written in Python plays."""
    cell = task.cell
    n = cell.players
    board = board_for(task.overrides_json)
    personas = json.loads(task.personas_json)
    shared = rules(cell.sides, board)  # the board data the core reads, once for the task
    cols: Columns = {name: [] for name in COLUMNS}
    src_cols = [(cols[f"pts_{s}"], s) for s in SOURCES]
    round_cols = [cols[f"round_{r}"] for r in range(1, ROUNDS + 1)]
    took_cols = [(cols[f"took_{c}"], c) for c in CARDS]
    for i in range(task.start, task.stop):
        names = cell.seat_bots(i)
        # Fresh bots every game: a bot that remembered anything between games would make
        # the rows depend on where the batches were cut.
        bots = [make_bot(personas.get(b, b)) for b in names]
        rngs = [seat_rng(b, task.seed, i, p) for p, b in enumerate(bots)]
        if task.timed:
            bots = [Timed(b) for b in bots]
        g = Game(n, cell.sides, board=board, seed=chance_seed(task.seed, i),
                 expansion=task.expansion, prophecies=task.prophecies, core_rules_=shared)
        r = play_game(g, bots, rngs)
        rounds = len(r.by_round[0]) - 1
        for p in range(n):
            cols["game"].append(i)
            cols["seat"].append(p)
            cols["bot"].append(names[p])
            cols["score"].append(r.totals[p])
            cols["rank"].append(r.ranks[p])
            cols["win_share"].append(r.win_share[p])
            cols["sled"].append(r.sled[p])
            for col, s in src_cols:
                col.append(r.by_source[p][s])
            by_round = r.by_round[p]
            for k, col in enumerate(round_cols):
                col.append(by_round[k] if k < rounds else 0)
            cols["round_end"].append(by_round[rounds])
            took = r.took[p]
            for col, c in took_cols:
                col.append(took.get(c, 0))
        cols["decisions"].extend([r.decisions] * n)
        cols["lead_changes"].extend([r.lead_changes] * n)
        cols["margin"].extend([r.margin] * n)
        if task.timed:
            cols.setdefault(CPU, []).extend(cpu_seconds(b.cpu) for b in bots)
    rows = task.rows
    cols["cell"] = [cell.id] * rows
    cols["sides"] = [cell.sides] * rows
    cols["players"] = [n] * rows
    cols["lineup"] = [",".join(cell.lineup)] * rows
    return cols

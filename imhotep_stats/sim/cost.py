"""How long a study will take, from a short pilot measured on this machine (not a constant).

Per player count and lineup (the cost of a game hardly depends on the sides, much on the
bots: a search bot is a thousand times a greedy one), a few games of the first cell with
them are played as the study would play them (``batches.simulate``) and timed in CPU
seconds of this process, so a busy machine does not inflate the figure; a cell's estimate
is its games times the mean, and the study's is the sum over cells divided by the workers
(each core plays whole batches). Pilot games are played until about ``PILOT_SECONDS`` of
CPU or ``PILOT_GAMES`` games per kind of cell, at least one.

The pilot also sizes the batches (``batch_size``): a batch of about
``TARGET_BATCH_SECONDS`` of CPU, so a slow bot's few games are spread over every core and
the progress bar moves every few seconds (12 expert games: 12 batches of one), while a fast
bot's batches stay large (a shard per batch; fewer files, less overhead).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from time import process_time

from imhotep_stats.config import Cell, StudyConfig
from imhotep_stats.sim.batches import Task, simulate
from imhotep_stats.sim.progress import _clock

PILOT_SECONDS = 3.0
PILOT_GAMES = 8
TARGET_BATCH_SECONDS = 4.0  # CPU a batch: progress every few seconds, every core busy
SPREAD_SECONDS = 1.0  # CPU of a study worth starting the other cores for
MOST_BATCHES = 5_000  # a study's batches at most from the pilot's sizing (one shard each)


@dataclass(frozen=True)
class CellCost:
    """A cell's estimate: ``per_game`` CPU seconds (mean of ``pilot`` games) x ``games``."""

    cell_id: str
    players: int
    lineup: tuple[str, ...]
    games: int
    per_game: float
    pilot: int

    @property
    def seconds(self) -> float:
        return self.per_game * self.games


def pilot_costs(cfg: StudyConfig, games: int | None = None,
                seconds: float = PILOT_SECONDS, most: int = PILOT_GAMES) -> list[CellCost]:
    """Every cell's estimated CPU seconds for ``games`` games (default: the study's)."""
    games = cfg.games if games is None else games
    measured: dict[tuple, tuple[float, int]] = {}
    out = []
    for cell in cfg.cells:
        key = (cell.players, cell.lineup)
        if key not in measured:
            measured[key] = pilot(cell, cfg.seed, seconds, most, cfg.prophecies,
                                  cfg.expansion, cfg.overrides_json, cfg.personas_json)
        per_game, n = measured[key]
        out.append(CellCost(cell.id, cell.players, cell.lineup, games, per_game, n))
    return out


@functools.lru_cache(maxsize=64)  # run's estimate and the batch sizing ask for the same pilot
def pilot(cell: Cell, seed: int = 0, seconds: float = PILOT_SECONDS, most: int = PILOT_GAMES,
          prophecies: bool = False, expansion: bool | None = None, overrides_json: str = "{}",
          personas_json: str = "{}") -> tuple[float, int]:
    """(mean CPU seconds a game, games played) of ``cell``'s first games, as a study plays
    them, until ``seconds`` of CPU or ``most`` games (at least one)."""
    spent = 0.0
    n = 0
    while n < most and (n == 0 or spent < seconds):
        task = Task(cell, 0, n, n + 1, seed, prophecies, expansion, overrides_json,
                    personas_json)
        t = process_time()
        simulate(task)
        spent += process_time() - t
        n += 1
    return spent / n, n


def batch_size(costs: list[CellCost], most: int, workers: int = 1) -> int:
    """Games a batch: about ``TARGET_BATCH_SECONDS`` of CPU for the slowest kind of cell
    (one batch size a study), and, for a study of more than ``SPREAD_SECONDS``, small
    enough to give each of ``workers`` cores two batches; at most ``most`` (run.batch_size or
    --batch-size), at least what keeps the study within ``MOST_BATCHES`` batches."""
    if not costs:
        return most
    slowest = max(c.per_game for c in costs)
    size = int(TARGET_BATCH_SECONDS / slowest) if slowest > 0 else most
    games = sum(c.games for c in costs)
    if sum(c.seconds for c in costs) > SPREAD_SECONDS:
        size = min(size, -(-games // (2 * max(1, workers))))
    floor = -(-games // MOST_BATCHES)
    return max(1, min(most, max(size, floor)))


def describe(costs: list[CellCost], workers: int | None) -> list[str]:
    """Lines for the terminal: the study on ``workers`` local cores (None: a cluster, whose
    cores this machine cannot count), then its slowest cells."""
    if not costs:
        return []
    total = sum(c.seconds for c in costs)
    pilot = sum({(c.players, c.lineup): c.pilot for c in costs}.values())
    where = (f"{_clock(total / workers)} on {workers} core{'s' if workers != 1 else ''} ("
             if workers else "(")
    lines = [f"estimate from a {pilot}-game pilot on this machine (CPU time): {where}"
             f"{_clock(total)} of one core)"]
    for c in sorted(costs, key=lambda c: -c.seconds)[:3]:
        lines.append(f"  cell {c.cell_id}: {c.per_game:.3f} s a game, {_clock(c.seconds)} of "
                     f"one core for {c.games:,} games")
    return lines


def estimate_line(costs: list[CellCost], workers: int | None) -> str:
    """One line for ``validate``: the pilot's estimate of the whole study on ``workers``
    local cores (None: all of this machine's)."""
    import os

    from imhotep_stats.engine import core

    total = sum(c.seconds for c in costs)
    cores = workers or os.cpu_count() or 1
    return (f"estimated time: about {_clock(total / cores)} on {cores} "
            f"worker{'s' if cores != 1 else ''} ({_clock(total)} of CPU; measured now from "
            f"a short pilot per lineup, core: {core.describe()}; a busy machine is slower)")

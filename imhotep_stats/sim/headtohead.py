"""Head-to-head games outside a run directory (``ladder play``, ``evaluate``): a one-cell
study's games played as a study plays them (its seeds, ``Cell.seat_bots``' seat rotation,
``sim.executors``), handed back in game order so a file written from them is the same
whatever the number of workers.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from imhotep_stats.sim.batches import CPU, Task
from imhotep_stats.sim.executors import execute

if TYPE_CHECKING:
    import polars as pl

    from imhotep_stats.config import StudyConfig

CHUNK = 10  # games per task when a caller sizes none


def batch_games(cfg: StudyConfig, games: int, workers: int | None = None,
                most: int | None = None) -> int:
    """Games a task for ``games`` games of ``cfg``'s cell, sized by the pilot as a study's
    batches (``cost.batch_size``: a few seconds of CPU each, every worker busy), at most
    ``most`` (--batch-size; default the study default)."""
    from imhotep_stats.config import DEFAULT_BATCH_SIZE
    from imhotep_stats.sim import cost
    from imhotep_stats.sim.executors import default_workers

    return cost.batch_size(cost.pilot_costs(cfg, games), most or DEFAULT_BATCH_SIZE,
                           workers or default_workers())


def _ranges(games: Iterable[int], chunk: int) -> list[tuple[int, int]]:
    """Sorted game indices cut into runs of consecutive indices, at most ``chunk`` long."""
    out: list[tuple[int, int]] = []
    for i in sorted(set(games)):
        if out and out[-1][1] == i and i - out[-1][0] < chunk:
            out[-1] = (out[-1][0], i + 1)
        else:
            out.append((i, i + 1))
    return out


def play_games(cfg: StudyConfig, games: Iterable[int], on_rows: Callable[[pl.DataFrame], None],
               *, workers: int | None = 1, cluster: str | None = None,
               chunk: int = CHUNK, timed: bool = False) -> str:
    """Play the games ``games`` of ``cfg``'s only cell and hand their rows (the study's
    schema, one row per game and seat, and with ``timed`` a ``cpu`` column: each seat's
    CPU seconds in its bot) to ``on_rows``, batch by batch, in game order.
    Returns the executor's description."""
    (cell,) = cfg.cells
    tasks = [Task(cell, b, start, stop, cfg.seed, cfg.prophecies, cfg.expansion,
                  cfg.overrides_json, cfg.personas_json, timed)
             for b, (start, stop) in enumerate(_ranges(games, chunk))]
    if not tasks:
        return "nothing to play"
    done: dict[int, pl.DataFrame] = {}
    nxt = 0

    def arrived(task: Task, rows: pl.DataFrame) -> None:
        nonlocal nxt
        done[task.batch] = rows
        while nxt in done:  # the executors finish in any order: release in game order
            on_rows(done.pop(nxt))
            nxt += 1

    return execute(tasks, arrived, workers=workers, cluster=cluster)


def records(rows: pl.DataFrame, seed: int) -> list[dict]:
    """One ladder record per game of ``rows``: its bots by seat, totals, ranks, win shares,
    and each seat's CPU seconds (``cpu``) where the rows have them."""
    out = []
    for game in rows.partition_by("game", maintain_order=True):
        game = game.sort("seat")
        rec = {"game": int(game["game"][0]), "sides": game["sides"][0],
               "players": int(game["players"][0]), "seed": seed,
               "bots": game["bot"].to_list(), "totals": game["score"].to_list(),
               "ranks": game["rank"].to_list(), "win_share": game["win_share"].to_list()}
        if CPU in game.columns:
            rec[CPU] = game[CPU].to_list()
        out.append(rec)
    return out


def one_cell(lineup: list[str], sides: str, players: int, games: int, seed: int,
             prophecies: bool = False) -> StudyConfig:
    """The one-cell study of a head-to-head: validated as any study (bot names, sides)."""
    from imhotep_stats.config import parse_config
    from imhotep_stats.config.quick import SOURCE, quick_raw

    raw = quick_raw(sides, (players,), ",".join(lineup), games, seed)
    raw["modules"] = {"prophecies": prophecies}
    return parse_config(raw, SOURCE)


def matchup(lineup: list[str], *, sides: str = "A-A-A-A-A", players: int = 2,
            games: int = 2000, seed: int = 0, prophecies: bool = False,
            workers: int | None = 1, cluster: str | None = None,
            batch_size: int | None = None) -> pl.DataFrame:
    """All ``games`` games of a lineup rotated through the seats, as one frame of rows;
    tasks of ``batch_games`` games (``batch_size`` at most)."""
    import polars as pl

    cfg = one_cell(lineup, sides, players, games, seed, prophecies)
    parts: list[pl.DataFrame] = []
    play_games(cfg, range(games), parts.append, workers=workers, cluster=cluster,
               chunk=batch_games(cfg, games, workers, batch_size))
    return pl.concat(parts)


def play_file(cfg: StudyConfig, out: Path, *, workers: int | None = 1,
              cluster: str | None = None, timed: bool = False,
              batch_size: int | None = None) -> int:
    """Play the games of ``cfg`` not yet in the JSON Lines file ``out`` and append them, one
    record per game in game order, with ``timed`` each seat's CPU seconds in its bot
    (sim/batches.py), in tasks of
    ``batch_games`` games (``batch_size`` at most); an interrupted run resumes; the records
    but their ``cpu`` are the same whatever the workers, the batches and the timing; returns
    the games played."""
    done = {rec["game"] for rec in read_records(out)} if out.exists() else set()
    todo = [i for i in range(cfg.games) if i not in done]
    if not todo:
        return 0
    chunk = batch_games(cfg, len(todo), workers, batch_size)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a", encoding="utf-8") as f:
        def write(rows: pl.DataFrame) -> None:
            for rec in records(rows, cfg.seed):
                f.write(json.dumps(rec) + "\n")
            f.flush()

        play_games(cfg, todo, write, workers=workers, cluster=cluster, timed=timed,
                   chunk=chunk)
    return len(todo)


def read_records(path: Path) -> list[dict]:
    """The records of a ladder file (JSON Lines, one game each)."""
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]

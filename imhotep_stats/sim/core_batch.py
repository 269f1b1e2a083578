"""A batch played by the Rust core (``_core.play_batch``): the games and rows of
``batches.simulate``, played without the GIL and sent back as columns.

The core plays every built-in bot (``bots.make_bot`` gives a ``CoreBot``): the random bot,
the greedy bot with every persona and weights table, and the search (``mcts...``,
``expert``). A lineup with a bot written in Python plays game by game through
``engine.play.play_game`` (batches.py). A timed task (``ladder play --timed``) is played here
too: the core times each seat's decisions in its bot (thread CPU time) and adds a ``cpu``
column; the games are the untimed ones.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from imhotep_stats.bots import CoreBot, make_bot
from imhotep_stats.sim.schema import COLUMNS

if TYPE_CHECKING:
    from imhotep_stats.rules.board import Board
    from imhotep_stats.sim.batches import Columns, Task

CPU = "cpu"  # a timed task's extra column (not in the study schema: timings are not results)


def cpu_seconds(spent: float) -> float:
    """A seat's CPU seconds as a timed task's column holds them."""
    return round(spent, 4)


def core_spec(spec: str | Mapping[str, object]) -> str | dict | None:
    """The spec the core plays for a bot spec (a name or a table, as ``make_bot`` takes), its
    weights and settings resolved; None for a bot written in Python. A bad spec raises
    ``make_bot``'s BotSpecError."""
    bot = make_bot(spec)
    return bot.spec if isinstance(bot, CoreBot) else None


def core_specs(bots: Sequence[str], personas: Mapping | None = None) -> dict | None:
    """Each name of a lineup -> the core's spec (``personas``: the config's tables by name),
    or None if the core does not play one of them."""
    personas = personas or {}
    specs = {b: core_spec(personas.get(b, b)) for b in dict.fromkeys(bots)}
    return None if any(s is None for s in specs.values()) else specs


def plays(bots: Sequence[str], personas: dict | None = None) -> bool:
    """Whether the core plays a batch with these bot names (``personas``: the config's spec
    tables by name): every one is a built-in bot."""
    return core_specs(bots, personas) is not None


def play(rules: Any, players: int, root: int, start: int, stop: int, bots: Sequence[str],
         expansion: bool | None = None, prophecies: bool = False, personas: dict | None = None,
         actions: bool = False, cpu: bool = False) -> dict[str, list]:
    """The core's columns for games [start, stop) (src/py_batch.rs); ``actions``: also each
    game's chosen options' texts ("actions", one list per game); ``cpu``: also each seat's
    CPU seconds in its bot ("cpu"; the same games)."""
    specs = core_specs(bots, personas)
    if specs is None:
        raise ValueError(f"the core does not play every bot of {', '.join(bots)}")
    from imhotep_stats import _core

    return _core.play_batch(rules, players, str(root), start, stop, list(bots),
                              expansion=expansion, prophecies=prophecies,
                              personas=json.dumps(specs), actions=actions, cpu=cpu)


def simulate(task: Task, board: Board) -> Columns:
    """``batches.simulate``'s rows, played by the core (a timed task: with its ``cpu``
    column)."""
    from imhotep_stats.engine.core import rules

    cell = task.cell
    got = play(rules(cell.sides, board), cell.players, task.seed, task.start, task.stop,
               cell.lineup, task.expansion, task.prophecies, json.loads(task.personas_json),
               cpu=task.timed)
    rows = task.rows
    fixed = {
        "cell": [cell.id] * rows,
        "sides": [cell.sides] * rows,
        "players": [cell.players] * rows,
        "lineup": [",".join(cell.lineup)] * rows,
        "bot": [b for i in range(task.start, task.stop) for b in cell.seat_bots(i)],
    }
    # rounds the board does not play and cards it does not have: zero, as the loop writes them
    cols = {name: fixed[name] if name in fixed else got.get(name) or [0] * rows
            for name in COLUMNS}
    if task.timed:
        cols[CPU] = [cpu_seconds(s) for s in got[CPU]]
    return cols

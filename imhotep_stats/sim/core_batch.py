"""A batch played by the Rust core (``_core.play_batch``): the same games and rows as
``batches.simulate``'s Python loop, played without the GIL and sent back as columns.

The core plays a batch whose lineup is all core bots (``CORE_BOTS``); any other lineup, a
timed batch, a checkout without the core, ``IMHOTEP_STATS_ENGINE=python`` or ``IMHOTEP_PURE=1``
(pure Python asked for) plays it in Python. A bot joins ``CORE_BOTS`` (and src/batch.rs's ``CoreBot``) once a differential check
proves the core plays its games decision by decision as Python does.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from imhotep_stats.sim import compiled
from imhotep_stats.sim.schema import COLUMNS

if TYPE_CHECKING:
    from imhotep_stats.rules.board import Board
    from imhotep_stats.sim.batches import Columns, Task

ENGINE_ENV = "IMHOTEP_STATS_ENGINE"
ENGINES = ("core", "python")  # core: the core plays what it can (the default)
CORE_BOTS = frozenset({"random"})


def engine_wanted() -> str:
    """The engine ``IMHOTEP_STATS_ENGINE`` asks for: "core" (unset) or "python"."""
    value = os.environ.get(ENGINE_ENV, "").strip().lower() or "core"
    if value not in ENGINES:
        raise ValueError(f"{ENGINE_ENV}={os.environ[ENGINE_ENV]!r}: expected one of "
                         f"{', '.join(ENGINES)}")
    return value


def _core() -> Any:
    try:
        from imhotep_stats import _core
    except ImportError:  # a checkout whose build did not run: Python plays
        return None
    return _core if hasattr(_core, "play_batch") else None


def plays(bots: Sequence[str], personas: dict | None = None) -> bool:
    """Whether the core plays a batch with these bot names (a persona, defined by weights in
    the config, is not a core bot even when named like one)."""
    personas = personas or {}
    return (engine_wanted() == "core" and not compiled.pure_forced() and _core() is not None
            and all(b in CORE_BOTS and b not in personas for b in bots))


def play(rules: Any, players: int, root: int, start: int, stop: int, bots: Sequence[str],
         expansion: bool | None = None, prophecies: bool = False) -> dict[str, list]:
    """The core's columns for games [start, stop) (src/py_batch.rs)."""
    return _core().play_batch(rules, players, str(root), start, stop, list(bots),
                              expansion=expansion, prophecies=prophecies)


def simulate(task: Task, board: Board) -> Columns:
    """``batches.simulate``'s rows, played by the core."""
    from imhotep_stats.engine.core import rules

    cell = task.cell
    got = play(rules(cell.sides, board), cell.players, task.seed, task.start, task.stop,
               cell.lineup, task.expansion, task.prophecies)
    rows = task.rows
    fixed = {
        "cell": [cell.id] * rows,
        "sides": [cell.sides] * rows,
        "players": [cell.players] * rows,
        "lineup": [",".join(cell.lineup)] * rows,
        "bot": [b for i in range(task.start, task.stop) for b in cell.seat_bots(i)],
    }
    # rounds the board does not play and cards it does not have: zero, as in Python's rows
    return {name: fixed[name] if name in fixed else got.get(name) or [0] * rows
            for name in COLUMNS}

"""Sample games of a study, kept to be looked at: ``run --keep-games K`` writes the first K
games of every cell as transcripts (``games/cell-N/game-I.jsonl``) and game viewer pages
(``.html`` beside them), which the report links.

A sample is the study's own game, not a new one: it is played again with the seeds, seats
and board the study's batch used (``sim.batches.simulate``: chance and bot streams derive from
the root seed and the game index only), so its scores are the study's row for that game.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from imhotep_stats.bots import make_bot
from imhotep_stats.config import Cell, StudyConfig, board_for
from imhotep_stats.engine.game import Game
from imhotep_stats.engine.play import bot_rng, chance_seed, play_game
from imhotep_stats.engine.transcript import TraceWriter, setup_line

GAMES_DIR = "games"


def sample_transcript(config: StudyConfig, cell: Cell, game: int) -> tuple[list[str], list[int]]:
    """Game ``game`` of ``cell`` as transcript lines, and its totals by seat."""
    board = board_for(config.overrides_json)
    personas = json.loads(config.personas_json)
    names = cell.seat_bots(game)
    bots = [make_bot(personas.get(b, b)) for b in names]
    g = Game(cell.players, cell.sides, board=board, seed=chance_seed(config.seed, game),
             expansion=config.expansion, prophecies=config.prophecies)
    writer = TraceWriter()
    writer.lines.append(setup_line(g, config.seed, game, names, config.overrides or None))
    result = play_game(g, bots, [bot_rng(config.seed, game, p) for p in range(cell.players)],
                       writer.on_decision)
    writer.finish(g, result)
    fh = io.StringIO()
    writer.write(fh)
    return fh.getvalue().splitlines(), list(result.totals)


def time_estimate(config: StudyConfig, workers: int | None, budget: float = 2.0) -> str:
    """About how long the study takes here: a few games of each lineup are played now (at
    most ``budget`` seconds each) and the rate scaled to the study's games and workers."""
    import os
    import time

    from imhotep_stats.sim import compiled

    per_lineup: dict[tuple, float] = {}
    total = 0.0
    for cell in config.cells:
        key = (cell.players, cell.lineup)
        if key not in per_lineup:
            start, played = time.perf_counter(), 0
            while played < 20 and (played == 0 or time.perf_counter() - start < budget):
                sample_transcript(config, cell, played)
                played += 1
            per_lineup[key] = (time.perf_counter() - start) / played
        total += per_lineup[key] * config.games
    cores = workers or os.cpu_count() or 1
    return (f"estimated time: about {_duration(total / cores)} on {cores} "
            f"worker{'s' if cores != 1 else ''} ({_duration(total)} of CPU; measured now from "
            f"a few games per lineup, engine: {compiled.describe()}; a busy machine is slower)")


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{max(seconds, 1):.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def cell_dir(out: Path, index: int) -> Path:
    """Where cell ``index`` (from 0) keeps its games."""
    return Path(out) / GAMES_DIR / f"cell-{index + 1}"


def keep_games(config: StudyConfig, cells: list[Cell], out: Path, k: int) -> list[Path]:
    """Write the first ``k`` games of every cell (transcript and viewer page); the pages."""
    from imhotep_stats.reporting.viewer import game_steps, page

    pages = []
    for cell in cells:
        d = cell_dir(out, cell.index)
        d.mkdir(parents=True, exist_ok=True)
        for game in range(min(k, config.games)):
            lines, _ = sample_transcript(config, cell, game)
            (d / f"game-{game + 1}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
            html = d / f"game-{game + 1}.html"
            title = f"{cell.sides}, {cell.players} players, {','.join(cell.lineup)}: game {game + 1}"
            html.write_text(page(game_steps(lines), title),  # the setup line carries the overrides
                            encoding="utf-8")
            pages.append(html)
    return pages


def kept_pages(out: Path, index: int) -> list[Path]:
    """The viewer pages kept for cell ``index`` under a run directory, in game order."""
    d = cell_dir(out, index)
    if not d.is_dir():
        return []
    return sorted(d.glob("game-*.html"), key=lambda p: int(p.stem.split("-")[1]))

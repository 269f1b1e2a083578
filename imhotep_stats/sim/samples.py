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

from imhotep_stats.bots import BotSpecError, make_bot, seat_rng
from imhotep_stats.config import Cell, StudyConfig, board_for
from imhotep_stats.config.bots import bot_name_problem
from imhotep_stats.engine.game import Game
from imhotep_stats.engine.play import chance_seed, play_game
from imhotep_stats.engine.result import GameResult
from imhotep_stats.engine.transcript import TraceWriter, setup_line
from imhotep_stats.rules.board import Board

GAMES_DIR = "games"


def bot_list(bots: str, players: int) -> list[str]:
    """``"greedy"`` or ``"greedy,random,random"``: the bot of each seat (one for all, or
    one per seat); ValueError for another count, BotSpecError for an unknown name."""
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ValueError(f"expected 1 or {players} bot names, got {len(names)}")
    for name in names:
        problem = bot_name_problem(name)
        if problem:
            raise BotSpecError(problem)
    return names


def play_one(players: int, sides: str, names: list[str], seed: int, game: int = 0, *,
             board: Board | None = None, overrides: dict | None = None,
             prophecies: bool = False, expansion: bool | None = None,
             personas: dict | None = None) -> tuple[GameResult, list[str]]:
    """Game ``game`` of root ``seed`` with bots ``names`` by seat, as a study or ``play``
    deals it (engine.play's seeds); its result and transcript lines (``overrides``: the
    board's changes, written into the setup line so the transcript stands alone)."""
    personas = personas or {}
    writer = TraceWriter()
    g = Game(players, sides, board=board, seed=chance_seed(seed, game), expansion=expansion,
             prophecies=prophecies)
    writer.lines.append(setup_line(g, seed, game, list(names), overrides or None))
    bots = [make_bot(personas.get(b, b)) for b in names]
    result = play_game(g, bots, [seat_rng(b, seed, game, p) for p, b in enumerate(bots)],
                       writer.on_decision)
    writer.finish(g, result)
    fh = io.StringIO()
    writer.write(fh)
    return result, fh.getvalue().splitlines()


def sample_transcript(config: StudyConfig, cell: Cell, game: int) -> tuple[list[str], list[int]]:
    """Game ``game`` of ``cell`` as transcript lines, and its totals by seat."""
    result, lines = play_one(cell.players, cell.sides, cell.seat_bots(game), config.seed, game,
                             board=board_for(config.overrides_json),
                             overrides=config.overrides, prophecies=config.prophecies,
                             expansion=config.expansion,
                             personas=json.loads(config.personas_json))
    return lines, list(result.totals)


def cell_dir(out: Path, index: int) -> Path:
    """Where cell ``index`` (from 0) keeps its games."""
    return Path(out) / GAMES_DIR / f"cell-{index + 1}"


def kept_pages(out: Path, index: int) -> list[Path]:
    """The viewer pages kept for cell ``index`` under a run directory, in game order."""
    d = cell_dir(out, index)
    if not d.is_dir():
        return []
    return sorted(d.glob("game-*.html"), key=lambda p: int(p.stem.split("-")[1]))

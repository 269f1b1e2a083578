"""Playing one game with bots, seeded as docs/engine.md (Architecture: randomness) says."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from imhotep_stats.engine.game import Game, play_seats
from imhotep_stats.engine.result import GameResult, result_of
from imhotep_stats.engine.view import View

if TYPE_CHECKING:
    from imhotep_stats.bots.base import Bot
    from imhotep_stats.engine.actions import Action


def chance_seed(root: int, game: int) -> str:
    """The seed of a game's chance streams: (root seed, game index) only, so every cell of a
    study deals the same round cards and deck for the same game index."""
    return f"{root}:{game}"


def bot_seed(root: int, game: int, seat: int) -> str:
    """The seed of a seat's own random stream in a game (src/play.rs's ``bot_rng`` alike)."""
    return f"{root}:{game}:bot{seat}"


def bot_rng(root: int, game: int, seat: int) -> random.Random:
    return random.Random(bot_seed(root, game, seat))


def play_game(
    game: Game,
    bots: Sequence[Bot],
    rngs: Sequence[random.Random],
    on_decision: Callable[[Game, Action], None] | None = None,
) -> GameResult:
    """Play ``game`` to the end: each seat's bot chooses from its view and its own stream.
    ``on_decision(game, action)`` is called before each apply."""
    seats = [(bots[p].choose, View(game, p), rngs[p]) for p in range(game.n)]
    play_seats(game, seats, on_decision)
    return result_of(game)

"""Determinization for the search: a copy of the game in which everything the searching
seat cannot see is dealt anew from the bot's own random stream (IS-MCTS samples one per
iteration). The engine does it (``engine/hidden.py``: each site deals its own hidden
parts); the bot asks its view (``View.sample``) and never sees the game itself."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from imhotep_stats.engine import hidden
from imhotep_stats.engine.view import View

if TYPE_CHECKING:
    from imhotep_stats.engine.game import Game


def determinize(source: View | Game, me: int, rng: random.Random) -> Game:
    """A copy of the game whose hidden state is a sample, from ``rng``, of what seat ``me``
    cannot tell apart from the real one. ``source``: seat ``me``'s view (the bot's case) or,
    in tests and tools, a game."""
    if isinstance(source, View):
        return source.sample(rng)
    return hidden.sample(source, me, rng)


def determinizer(source: View | Game, me: int, report: bool = True,
                 reuse: bool = False) -> Callable[[random.Random], Game]:
    """Many determinizations of one position: ``determinizer(source, me)(rng)`` is
    ``determinize(source, me, rng)`` (the same copy from the same draws), with what does not
    depend on the draw worked out once (engine/hidden.py ``Sampler``). Valid until the game
    moves. Without ``report`` the copies keep none of what only a game's report reads
    (score events, cards taken by name: engine.clone); a search reads the totals. With
    ``reuse``, each copy is made in the previous one's storage (``Sampler.resample``), which
    it replaces: for a caller that drops each copy before asking for the next."""
    sampler = source.sampler(report) if isinstance(source, View) else hidden.Sampler(source, me, report)
    return sampler.resample if reuse else sampler.sample


def hidden_places(g: Game, seat: int | None = None) -> dict[str, list]:
    """What :func:`determinize` deals anew for ``seat`` (default: the seat to move)."""
    return hidden.hidden_places(g, g.to_move if seat is None else seat)

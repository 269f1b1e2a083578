"""A built-in bot: one of the core's bots (src/bots/play.rs) behind the bot protocol
``choose(view, legal, rng) -> action``, so that built-in bots and bots written in Python
play through the same API (``engine.play.play_game``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from imhotep_stats.engine.play import bot_rng, bot_seed
from imhotep_stats.engine.view import core_game


class CoreBot:
    """The core's bot for a ``spec`` (a name such as ``"random"``, or the table the core reads:
    ``{"base": "greedy", "weights": {...}, "name": ...}``, a search table). Make one per seat
    and game, as ``make_bot`` does; one that is handed another game starts afresh (the
    core's greedy bot keeps caches for its game, which another game's choices must not see)."""

    __slots__ = ("spec", "name", "_bot", "_game")

    def __init__(self, spec: str | dict):
        from imhotep_stats import _core

        self.spec = spec
        self._bot = _core.Bot(json.dumps(spec))
        self.name = self._bot.name
        self._game = None  # the core's game the bot has chosen in

    def __repr__(self) -> str:
        return f"CoreBot({self.name!r})"

    def choose(self, view: Any, legal: Sequence[Any], rng: Any) -> Any:
        """The action of ``legal`` (the game's options, in order) the core's bot takes for
        the seat to move. ``view``: that seat's view of an ``engine.game`` game, the game, or
        the core's game; ``rng``: the seat's stream, a ``_core.Random`` (``seat_rng``) or a
        ``random.Random``, advanced as the core's bot draws."""
        from imhotep_stats import _core

        game = core_game(view)
        if game is not self._game:
            if self._game is not None:
                self._bot = _core.Bot(json.dumps(self.spec))
            self._game = game
        if type(rng) is _core.Random:
            return legal[self._bot.choose(game, rng)]
        stream = _core.Random(0)  # the seat's random.Random state, lent to the core and back
        stream.setstate(rng.getstate())
        i = self._bot.choose(game, stream)
        rng.setstate(stream.getstate())
        return legal[i]


def seat_rng(bot: Any, root: int, game: int, seat: int) -> Any:
    """Seat ``seat``'s random stream in game ``game`` (``engine.play.bot_rng``), as the core's
    ``_core.Random`` for a built-in bot (no state lent at each decision)."""
    if isinstance(bot, CoreBot):
        from imhotep_stats import _core

        return _core.Random(bot_seed(root, game, seat))
    return bot_rng(root, game, seat)

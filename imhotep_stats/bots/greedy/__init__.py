"""The greedy bot and its personas (``bot.GreedyBot``): a one-step look-ahead over a cheap value
model, laid out like the engine it prices:

- ``bot.py``: the bot, and its sub-decisions (a card's follow-up choices, the Lever's order...);
- ``turn.py``: the turn's actions and the blue cards played from the hand;
- ``context.py``: ``Ctx``, what a bot knows and caches per game and seat (ships, free sites);
- ``cards.py``: card pricing (``CardBook``, ``CardValues``), like ``engine/cards.py``;
- ``prophecies.py``: the scarabs, like ``engine/prophecies.py``;
- ``sites/``: one module per site with its four sides, named like ``engine/sites/``
  (a rule of Temple C is played in ``engine/sites/temple.py`` and priced in
  ``bots/greedy/sites/temple.py``); ``sites/base.py`` is their contract (``SiteEval``).

Layers point one way: ``sites`` <- ``context`` <- ``cards`` <- ``turn`` <- ``bot``.
"""

from __future__ import annotations

from imhotep_stats.bots.greedy.bot import HANDLERS, SITE_INDEX, GreedyBot, handled_kinds
from imhotep_stats.bots.greedy.cards import CardBook, CardValues
from imhotep_stats.bots.greedy.context import Ctx
from imhotep_stats.bots.greedy.errors import UnknownDecision, UnsupportedSide
from imhotep_stats.bots.greedy.sites.base import POSITIONS, SiteEval

__all__ = [
    "HANDLERS", "POSITIONS", "SITE_INDEX", "CardBook", "CardValues", "Ctx", "GreedyBot",
    "SiteEval", "UnknownDecision", "UnsupportedSide", "handled_kinds",
]

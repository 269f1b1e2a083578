"""What the greedy bot cannot price: a decision, card or site side nobody taught it."""

from __future__ import annotations


class UnknownDecision(NotImplementedError):
    """A decision kind no scripted bot knows: add a handler (bots/greedy/bot.py, or the site's
    module in bots/greedy/sites/)."""


class UnsupportedSide(NotImplementedError):
    """The bots have no evaluator for a site side (a new side must add one in
    bots/greedy/sites/, in the module named like the engine's)."""

"""The engine's errors, in a module of their own so that the sites and cards can raise them
without importing the game (``engine.game`` re-exports them)."""

from __future__ import annotations


class RulesError(ValueError):
    """A game set up against the rules (bad player count, sides, round cards, deck)."""

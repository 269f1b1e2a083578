"""The engine's errors, raised by the core (src/py.rs ``py_error``) and by the Python API."""

from __future__ import annotations


class RulesError(ValueError):
    """A game set up against the rules (bad player count, sides, round cards, deck)."""


class ChanceError(RulesError):
    """A pinned outcome that does not fit the game. ``reshuffle`` is the pinned reshuffle's
    index (from 0), or -1 for a setup outcome."""

    def __init__(self, message: str, reshuffle: int = -1):
        self.reshuffle = reshuffle
        super().__init__(message)


class IllegalAction(ValueError):
    """An action that is not one of the decision's options."""

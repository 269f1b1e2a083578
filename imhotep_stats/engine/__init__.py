"""The game engine: the Rust core's game in Python; no polars, scipy or Click here
(docs/engine.md, Architecture: layers)."""

from imhotep_stats.engine.actions import Action, act
from imhotep_stats.engine.errors import ChanceError, IllegalAction, RulesError
from imhotep_stats.engine.game import Game, apply, legal_actions
from imhotep_stats.engine.setup_checks import parse_sides

__all__ = ["Action", "ChanceError", "Game", "IllegalAction", "RulesError", "act", "apply",
           "legal_actions", "parse_sides"]

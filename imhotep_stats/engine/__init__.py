"""The game engine: no polars, scipy or Click here (docs/engine.md, Architecture: layers)."""

from imhotep_stats.engine.actions import Action, act
from imhotep_stats.engine.game import (
    Game,
    IllegalAction,
    RulesError,
    apply,
    legal_actions,
    parse_sides,
)

__all__ = ["Action", "Game", "IllegalAction", "RulesError", "act", "apply", "legal_actions", "parse_sides"]

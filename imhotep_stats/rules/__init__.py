"""Typed, immutable views of the board data, and overrides (docs/rules.md §10)."""

from imhotep_stats.rules.board import (
    SIDES,
    SITES,
    Board,
    BoardDataError,
    SideData,
    default_board,
    load_board,
)

__all__ = ["SIDES", "SITES", "Board", "BoardDataError", "SideData", "default_board", "load_board"]

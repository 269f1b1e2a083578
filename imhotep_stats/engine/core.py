"""The Rust core (Cargo.toml, src/), built as the extension ``imhotep_stats._core``: what it is,
the board data it reads (``board_json``) and its parsed rules (``rules``)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from imhotep_stats.engine.setup_checks import parse_sides
from imhotep_stats.rules.board import SITES, Board, default_board, plain

# A side's bookkeeping, not rules: the core never reads it
META = ("provenance", "provisional_keys", "quotes")


def describe() -> str:
    """One phrase for people: the core's crate, version and build profile."""
    try:
        from imhotep_stats import _core
    except ImportError as exc:  # a checkout whose build did not run or failed
        return f"missing ({exc}; run `make`)"
    return f"imhotep-core {_core.__version__} (Rust, {_core.PROFILE})"


def board_data(board: Board, sides: Sequence[str]) -> dict:
    """The board data the core reads (src/rules.rs's layout) for the chosen ``sides``: the
    five sides' values, the game's tables, and what overrides changed."""
    def values(table) -> dict:
        return {k: v for k, v in plain(table).items() if k not in META}

    changed = [f"{sd.name}.{k}" for sd in board.sides.values() for k in sd.overridden]
    changed += [t for t in board.overridden if t not in board.sides]
    return {
        "sides": list(sides),
        "values": {site: values(board.side(site, side).values)
                   for site, side in zip(SITES, sides, strict=True)},
        "game": values(board.game),
        "prophecies": values(board.tables["prophecies"]),
        "round_cards": {str(p): plain(board.round_cards(p)) for p in (2, 3, 4)},
        "cards": plain(board.cards),
        "statue_points": values(board.tables["statue_points"]),
        "unused_blue_points": values(board.tables["unused_blue_points"]),
        "decoration": values(board.tables["decoration"]),
        "overridden": changed,
    }


def board_json(board: Board, sides: Sequence[str]) -> str:
    return json.dumps(board_data(board, sides))


def rules(sides: str | Sequence[str], board: Board | None = None):
    """The core's parsed board data for ``sides`` (shared by every game of a cell)."""
    from imhotep_stats import _core

    return _core.Rules(board_json(board or default_board(), parse_sides(sides)))

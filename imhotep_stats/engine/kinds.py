"""The decision kinds: a small integer code each, its name and who answers it (docs/engine.md,
"Game flow").

The engine keeps the pending question's kind as its code (``Game.kind_code``) and sends the
answer by code (``game._answer``: a tuple index, no string compare); people and files see
the name (``Game.kind``, ``View.kind``, transcripts, the viewer, error messages), looked up
in ``NAMES``. A new kind is a row of ``TABLE``; its module asks with ``CODE[name]``.
"""

from __future__ import annotations

# Who answers a kind: a site index (engine/sites: 0 market .. 4 obelisk, its ``answer``), or
# GAME, a function of engine/game.py's ``ANSWERS`` (the blue cards', the Lever's, the
# prophecies'; the turn is the game's own ``_turn``).
GAME = -1
MARKET, PYRAMID, TEMPLE, BURIAL_CHAMBER, OBELISK = range(5)

# (name, who answers), in code order; code 0 is no question pending.
TABLE: tuple[tuple[str | None, int], ...] = (
    (None, GAME),
    ("turn", GAME),
    ("market_pick", MARKET),
    ("market_keep", MARKET),
    ("pyramid_choice", PYRAMID),
    ("pyramid_ship_slot", PYRAMID),
    ("temple_bonus", TEMPLE),
    ("temple_keep", TEMPLE),
    ("mound_space", BURIAL_CHAMBER),
    ("tomb_token", BURIAL_CHAMBER),
    ("obelisk_token", OBELISK),
    ("obelisk_claim", OBELISK),
    ("chisel_place", GAME),
    ("lever_sail", GAME),
    ("hammer_get", GAME),
    ("hammer_place", GAME),
    ("sail_place", GAME),
    ("sail_sail", GAME),
    ("barge_site", GAME),
    ("platform_sail", GAME),
    ("lever_unload", GAME),
    ("prophecy", GAME),
)

NAMES: tuple[str | None, ...] = tuple([name for name, _ in TABLE])  # code -> name
ANSWERED_BY: tuple[int, ...] = tuple([by for _, by in TABLE])  # code -> site index or GAME
CODE: dict[str, int] = {name: code for code, name in enumerate(NAMES) if name is not None}

NONE = 0  # no question pending
TURN = CODE["turn"]


def by_code(handlers: dict[int, object]) -> tuple:
    """``handlers`` (code -> function) as a tuple indexed by code, None for the others."""
    return tuple([handlers.get(code) for code in range(len(TABLE))])

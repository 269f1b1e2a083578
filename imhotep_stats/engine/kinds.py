"""The decision kinds: a small integer code each and its name, as the core numbers them
(src/kinds.rs). People and files see the name (``Game.kind``, ``View.kind``, transcripts,
the viewer, error messages); ``kind_code`` gives the code."""

from __future__ import annotations

# The names in code order; code 0 is no question pending.
NAMES: tuple[str | None, ...] = (
    None, "turn", "market_pick", "market_keep", "pyramid_choice", "pyramid_ship_slot",
    "temple_bonus", "temple_keep", "mound_space", "tomb_token", "obelisk_token",
    "obelisk_claim", "chisel_place", "lever_sail", "hammer_get", "hammer_place", "sail_place",
    "sail_sail", "barge_site", "platform_sail", "lever_unload", "prophecy",
)
CODE: dict[str, int] = {name: code for code, name in enumerate(NAMES) if name is not None}

NONE = 0  # no question pending

"""Bot weights: what a scripted bot values, as plain numbers a config can set.

A persona is the greedy evaluator with some of these weights changed, so a designer can
define a new playing style in a config without code (docs/engine.md, "The bots").
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType

from imhotep_stats.rules.board import SITES

# key -> (default, what it scales). Site and card keys multiply the bot's OWN expected points
# from that source; the behaviour keys shape how it plays.
WEIGHT_DOCS: dict[str, tuple[float, str]] = {
    "pyramid": (1.0, "own points expected from the Pyramid (all sides, their bonuses included)"),
    "temple": (1.0, "own points expected from the Temple (visible stones, rewards, the Arena)"),
    "burial_chamber": (1.0, "own points expected from the Burial Chamber"),
    "obelisk": (1.0, "own points expected from the Obelisks"),
    "market": (1.0, "every card taken (multiplies the card_* weights below; red cards excepted)"),
    "card_statue": (1.0, "statues"),
    "card_decoration": (1.0, "decorations"),
    "card_blue": (1.0, "blue cards: their play and their unused point"),
    "card_other": (1.0, "kept expansion cards and Private Quarry (Cargo Sled, Stone Ornament)"),
    "prophecy": (1.0, "prophecies (scarab placements)"),
    "deny": (0.7, "opponents' expected points (their mean), counted against me (0 = ignore)"),
    "optimism": (0.7, "share of a ship's value at its best site for me that I count on, in "
                      "2-player games (times 2/players with more: more rivals to sail it)"),
    "stones": (1.0, "stones on my sled (how eagerly I get new stones instead of placing)"),
}
DEFAULT_WEIGHTS: Mapping[str, float] = MappingProxyType({k: v for k, (v, _) in WEIGHT_DOCS.items()})
SITE_KEYS = SITES  # the weight of a site's points is keyed by its name, by site index
UPPER = {"optimism": 1.0}  # keys with an upper bound (a share)


class BotSpecError(ValueError):
    """A bad bot spec or persona: unknown name, unknown weight key, bad value. ``field`` is
    the spec table's key at fault, when one is (a config reports it dotted)."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


def check_weights(weights: Mapping[str, object], where: str = "weights") -> dict[str, float]:
    """Validate a partial weight table; return it as floats. Errors name the bad key."""
    if not isinstance(weights, Mapping):
        raise BotSpecError(f"{where}: expected a table of weights, got {type(weights).__name__}")
    out: dict[str, float] = {}
    for key, value in weights.items():
        if key not in WEIGHT_DOCS:
            raise BotSpecError(
                f"{where}.{key}: unknown weight (known: {', '.join(sorted(WEIGHT_DOCS))})"
            )
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise BotSpecError(f"{where}.{key}: expected a number, got {value!r}")
        v = float(value)
        if not math.isfinite(v) or v < 0 or v > UPPER.get(key, 100.0):
            hi = UPPER.get(key, 100.0)
            raise BotSpecError(f"{where}.{key}: expected a number from 0 to {hi:g}, got {value!r}")
        out[key] = v
    return out


def full_weights(weights: Mapping[str, object] | None = None) -> dict[str, float]:
    """Defaults overlaid with ``weights`` (validated)."""
    out = dict(DEFAULT_WEIGHTS)
    if weights:
        out.update(check_weights(weights))
    return out

"""Score sources (docs/rules.md §2.6): every score event carries one of these. A rule, so it
lives with the rules: the engine scores by them and the results table (``sim/schema.py``) has
a column for each."""

from __future__ import annotations

SOURCES: tuple[str, ...] = (
    "market",
    "pyramid",
    "temple",
    "burial_chamber",
    "obelisk",
    "card_statue",
    "card_decoration",
    "card_unused_blue",
    "card_ornament",
    "prophecy",
)

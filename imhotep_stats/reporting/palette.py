"""How the pages show seats and score sources: colours by meaning (seats one palette,
score sources another, verdicts a third, so that a colour never means two things on one
page) and the sources' names in words. Every chart, table and caption takes them from here.

Seats: colour-blind safe hues (Okabe and Ito). Sources: one colour each, none grey, chosen
at least 30 apart in CIE Lab from one another and from every seat colour
(tests/test_palette.py measures it).
"""

from __future__ import annotations

SEATS = ["#0072b2", "#e69f00", "#009e73", "#cc79a7"]  # seat 1..4: blue, orange, green, pink
SOURCES = {
    "market": "#8c564b", "pyramid": "#d95f02", "temple": "#8c2d04",
    "burial_chamber": "#542788", "obelisk": "#276419", "card_statue": "#17becf",
    "card_decoration": "#c51b7d", "card_unused_blue": "#01665e", "card_ornament": "#bcbd22",
    "prophecy": "#8ca252",
}
OTHER_SOURCE = "#7f7f7f"  # a name that is no score source (never drawn for a real one)

SOURCE_NAMES = {
    "burial_chamber": "burial chamber", "card_statue": "statue cards",
    "card_decoration": "decoration cards", "card_unused_blue": "unused blue cards",
    "card_ornament": "ornament cards", "prophecy": "prophecies",
}


def seat_colour(p: int) -> str:
    """Seat ``p`` (from 0)."""
    return SEATS[p % len(SEATS)]


def source_colour(name: str) -> str:
    return SOURCES.get(name, OTHER_SOURCE)


def source_name(name: str) -> str:
    """A source in words: ``card_statue`` -> ``statue cards``."""
    return SOURCE_NAMES.get(name, name.replace("_", " "))

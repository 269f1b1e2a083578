"""Colours by meaning: seats one palette, score sources another, verdicts a third, so that a
colour never means two things on one page (colour-blind safe hues, from Okabe and Ito)."""

from __future__ import annotations

SEATS = ["#0072b2", "#e69f00", "#009e73", "#cc79a7"]  # seat 1..4: blue, orange, green, pink
SOURCES = {  # score sources: earthy tones, none of them a seat's
    "pyramid": "#8c6d31", "temple": "#bd9e39", "burial_chamber": "#6b6ecf",
    "obelisk": "#843c39", "market": "#7b4173", "cards": "#7b4173",
}
OTHER_SOURCE = "#7f7f7f"


def seat_colour(p: int) -> str:
    """Seat ``p`` (from 0)."""
    return SEATS[p % len(SEATS)]


def source_colour(name: str) -> str:
    return SOURCES.get(name, OTHER_SOURCE)

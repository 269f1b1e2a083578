"""The game viewer's captions: a decision in a player's words, with the points it scored.

Transcripts write actions in the engine's notation (``place 0 1``, ``sail 0 pyramid``,
docs/transcripts.md), counting seats, ships, slots and spaces from 0; people count from 1, as
the board's panels do. Here each notation becomes a sentence ("Seat 2 places a stone on ship
1, slot 2"), and the score events a step added become "seat 1 +2, seat 3 +1". Only words:
what happened is the engine's replay (``viewer.game_steps``), never re-derived here.
"""

from __future__ import annotations

from collections.abc import Sequence

from imhotep_stats.reporting.palette import source_name
from imhotep_stats.rules.board import SITE_TITLES

# The card that asks a decision, by its kind (docs/transcripts.md "Action notation")
CARD_OF_KIND = {"chisel_place": "chisel", "lever_sail": "lever", "lever_unload": "lever",
                "hammer_get": "hammer", "hammer_place": "hammer", "sail_place": "sail card",
                "sail_sail": "sail card", "barge_site": "barge",
                "platform_sail": "loading platform"}


def site_words(site: str) -> str:
    """``burial_chamber`` -> ``the burial chamber``."""
    return "the " + SITE_TITLES.get(site, site.replace("_", " ")).lower()


def card_words(name: str) -> str:
    return name.replace("_", " ")


def _n(x: str) -> str:
    """A 0-based number of the notation, counted from 1 (text left as it is)."""
    return str(int(x) + 1) if x.lstrip("-").isdigit() else x


def _stones(k: int) -> str:
    return f"{k} stone" + ("" if k == 1 else "s")


def action_words(seat: int, kind: str, action: str, sled_gain: int = 0) -> str:
    """What seat ``seat`` (from 0) did, in words: ``kind`` is the decision's kind and
    ``action`` its notation; ``sled_gain`` the stones its sled gained (``get``)."""
    who = f"Seat {seat + 1}"
    w = action.split()
    if not w:
        return f"{who}: (no action)"
    verb, args = w[0], w[1:]
    card = CARD_OF_KIND.get(kind)
    by = f" ({card})" if card else ""
    if verb == "get":
        text = f"{who} takes {_stones(sled_gain)} from the quarry onto the sled"
        return text + (" and moves the Imhotep figure" if args[:1] == ["move"] else "") + by
    if verb == "place" and len(args) == 2:
        return f"{who} places a stone on ship {_n(args[0])}, slot {_n(args[1])}{by}"
    if verb == "sail" and len(args) == 2:
        return f"{who} sails ship {_n(args[0])} to {site_words(args[1])}{by}"
    if verb == "platform" and len(args) == 2:
        return f"{who} sails ship {_n(args[0])} to {site_words(args[1])} (loading platform)"
    if verb == "unload" and args:
        return f"{who} unloads the stone in slot {_n(args[0])} next (lever)"
    if verb == "deliver" and args:
        return f"{who} delivers a stone to {site_words(args[0])} (barge)"
    if verb == "play" and args:
        return f"{who} plays the {card_words(args[0])} card"
    if verb == "pass":
        return f"{who} passes (nothing else is legal)"
    if verb == "take":
        return who + " " + _take(args)
    if verb == "keep" and args:
        where = "the temple's draw" if kind == "temple_keep" else "the cards drawn"
        return f"{who} keeps the {card_words(args[0])} card from {where}"
    if verb == "pyramid" and args:
        return f"{who} puts the stone on the {args[0]} pyramid"
    if verb == "ship" and len(args) == 2:
        return (f"{who} puts a stone from the quarry on ship {_n(args[0])}, slot "
                f"{_n(args[1])} (pyramid bonus)")
    if verb == "points" and args:
        return f"{who} takes {args[0]} points (temple bonus)"
    if verb == "stones" and args:
        return f"{who} takes up to {_stones(int(args[0]))} onto the sled (temple bonus)"
    if verb == "mound" and len(args) == 2:
        return (f"{who} puts the stone on the burial mound, level {_n(args[0])} from the "
                f"bottom, space {_n(args[1])} from the left")
    if verb == "tomb" and args:
        return f"{who} takes tomb token {args[0]}"
    if verb == "stack" and len(args) >= 2:
        adds = ", ".join(f"+{c}" for c in args[1:])
        return f"{who} stacks token {args[0]} on the great obelisk (columns {adds})"
    if verb == "claim" and len(args) == 4:
        return f"{who} claims the obelisk of height {args[1]} ({args[3]} points)"
    if verb == "scarab" and args:
        return f"{who} places a scarab on {args[0].capitalize()}'s prophecy"
    if verb == "no":
        return f"{who} places no scarab"
    return f"{who} ({kind.replace('_', ' ')}): {action}"


def _take(args: list[str]) -> str:
    """Market picks: ``take CARD``, ``take pair``, ``take stack N``, ``take CARD SPACE``,
    ``take SPACE SPACE`` (spaces and stacks from 0)."""
    if args == ["pair"]:
        return "takes the face-down pair from the market"
    if len(args) == 2 and args[0] == "stack":
        return f"takes stack {_n(args[1])} from the market"
    if len(args) == 2 and args[0].isdigit():
        return (f"takes the cards on spaces {_n(args[0])} and {_n(args[1])} from the market "
                "(paying a coin)")
    if len(args) == 2:
        return f"takes the {card_words(args[0])} card on space {_n(args[1])} from the market"
    if len(args) == 1:
        return f"takes the {card_words(args[0])} card from the market"
    return "takes " + " ".join(args)


def points_words(events: Sequence[tuple[int, str, int, int]], site: str | None = None) -> str:
    """The points of some score events (seat, source, points, round): "seat 1 +2, seat 3
    +1" (seats from 1, in seat order). Sources are named unless they are all ``site``
    (a sail to the pyramid scoring pyramid points needs no "pyramid")."""
    by_seat: dict[int, dict[str, int]] = {}
    for seat, source, pts, _ in events:
        row = by_seat.setdefault(seat, {})
        row[source] = row.get(source, 0) + pts
    named = any(src != site for row in by_seat.values() for src in row)
    out = []
    for seat in sorted(by_seat):
        row = by_seat[seat]
        total = sum(row.values())
        text = f"seat {seat + 1} {total:+d}"
        if named:
            text += " (" + ", ".join(
                f"{source_name(s)}" + (f" {v:+d}" if len(row) > 1 else "")
                for s, v in row.items()) + ")"
        out.append(text)
    return ", ".join(out)


def step_caption(words: str, events: Sequence[tuple[int, str, int, int]], site: str | None,
                 round_ended: int = 0, game_end: Sequence[tuple[int, str, int, int]] = ()) -> str:
    """A step's caption: what was done, then the points it scored, the round it ended and
    the game-end scoring, if any."""
    text = words
    if events:
        text += ": " + points_words(events, site)
    if round_ended:
        text += f". Round {round_ended} ends"
    if game_end:
        text += ". Game-end scoring: " + points_words(game_end)
    return text

"""Setup checks (docs/rules.md §1): a game's round cards and market deck, as given by a caller
or a hand-written transcript, against the cards the game is played with.

A full game (the default) uses distinct round cards of its player count's seven, one per
round, and exactly the game's market cards. A rulebook *scenario* (``scenario=True``) is a
short game built on purpose: any ships of sizes 1 to 4, round cards repeated, and a deck
that is part of the game's cards; only names, sizes and counts are checked then.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from imhotep_stats.engine.errors import RulesError
from imhotep_stats.errors import describe
from imhotep_stats.rules.board import SIDES, SITES


def is_whole(value: Any) -> bool:
    """An int that is not a bool: JSON's ``true`` and ``4.9`` are not sizes, seats or seeds."""
    return type(value) is int


def _is_list(value: Any) -> bool:
    return isinstance(value, list | tuple)


def round_card_shapes(given: Any) -> list[tuple[int, ...]]:
    """Round cards as given: a list of cards of 4 whole ship sizes from 1 to 4."""
    if not _is_list(given):
        raise RulesError(f"round_cards: expected a list of round cards, got {describe(given)}")
    out = []
    for i, card in enumerate(given):
        if not _is_list(card) or len(card) != 4 or not all(is_whole(s) and 1 <= s <= 4 for s in card):
            raise RulesError(
                f"round_cards[{i}]: expected 4 whole ship sizes from 1 to 4, got {describe(card)}"
                + (f" {list(card)}" if _is_list(card) else "")
            )
        out.append(tuple(card))
    return out


def deck_names(given: Any) -> list[str]:
    """A deck as given: a list of card names."""
    if not _is_list(given) or not all(isinstance(c, str) for c in given):
        bad = next((c for c in given if not isinstance(c, str)), given) if _is_list(given) else given
        raise RulesError(f"deck: expected a list of card names, got {describe(bad)}")
    return list(given)


def check_round_cards(
    given: Any, pool: Sequence[tuple[int, ...]], rounds: int, players: int, scenario: bool
) -> list[tuple[int, ...]]:
    """The round cards in play order, checked (docs/rules.md §1.1)."""
    out = round_card_shapes(given)
    if len(out) != rounds:
        raise RulesError(f"round_cards: expected {rounds} cards (one per round), got {len(out)}")
    if scenario:
        return out
    seen: set[tuple[int, ...]] = set()
    for i, card in enumerate(out):
        if card not in pool:
            known = ", ".join("".join(map(str, c)) for c in pool)
            raise RulesError(
                f"round_cards[{i}]: {list(card)} is not one of the {players}-player round cards "
                f"({known}, ship sizes in the card's order); a rulebook scenario may say "
                '"scenario": true'
            )
        if card in seen:
            raise RulesError(
                f"round_cards[{i}]: {list(card)} is dealt twice; a game's round cards are "
                'distinct (a rulebook scenario may say "scenario": true)'
            )
        seen.add(card)
    return out


def check_deck(given: Any, full: Sequence[str], scenario: bool) -> list[str]:
    """The market deck, top first, checked against the game's cards ``full`` (docs/rules.md §3)."""
    deck_names(given)
    have, cards = Counter(given), Counter(full)
    unknown = sorted(set(have) - set(cards))
    if unknown:
        raise RulesError(f"deck: unknown card names {unknown} (this game's cards: {', '.join(sorted(cards))})")
    extra = {c: k - cards[c] for c, k in sorted(have.items()) if k > cards[c]}
    if extra:
        said = ", ".join(f"{k} {c} too many ({cards[c]} in the game)" for c, k in extra.items())
        raise RulesError(f"deck: more cards than the game has: {said}")
    if not scenario and have != cards:
        missing = ", ".join(f"{cards[c] - have[c]} {c}" for c in sorted(cards) if have[c] < cards[c])
        raise RulesError(
            f"deck: expected exactly the game's {len(full)} cards, got {len(given)}; missing: "
            f'{missing} (a rulebook scenario may say "scenario": true and use part of them)'
        )
    return list(given)


def side_letter(text: object) -> str | None:
    """A side letter as written by a person (``"d"``, ``" D "``) -> ``"D"``; None if it is none.
    The one reading of side letters: the command line, configs, transcripts and ``sides``."""
    letter = text.strip().upper() if isinstance(text, str) else None
    return letter if letter in SIDES else None


def parse_sides(sides: str | Sequence[str]) -> tuple[str, ...]:
    """``"D-A-C-B-D"`` (market-pyramid-temple-burial-obelisk, either case) -> ("D","A","C","B","D")."""
    if isinstance(sides, str):  # every game parses its sides: a string is read once
        return _parse_sides_text(sides)
    return _parse_sides(sides)


@lru_cache(maxsize=1024)  # callers pass a handful of spellings
def _parse_sides_text(sides: str) -> tuple[str, ...]:
    return _parse_sides(sides)


def _parse_sides(sides: str | Sequence[str]) -> tuple[str, ...]:
    letters = tuple(side_letter(p) for p in (sides.split("-") if isinstance(sides, str) else sides))
    if len(letters) != 5 or None in letters:
        raise RulesError(f"sides {sides!r}: expected 5 letters A-D joined by '-', in the order "
                         "market-pyramid-temple-burial_chamber-obelisk (e.g. D-A-C-B-D)")
    return letters  # type: ignore[return-value]


def parse_site_side(name: str) -> tuple[str, str]:
    """``"Pyramid.d"`` -> ("pyramid", "D"): a site name and a side letter, either case."""
    site, _, side = name.strip().partition(".")
    site, letter = site.strip().lower(), side_letter(side)
    if site not in SITES or letter is None:
        raise RulesError(f"{name!r}: expected SITE.SIDE, a site ({', '.join(SITES)}) and a "
                         "side letter A-D, e.g. pyramid.D")
    return site, letter

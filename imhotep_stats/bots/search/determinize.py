"""Determinization: a copy of the game in which everything seat ``me`` cannot see is dealt
anew from the searching bot's own random stream (IS-MCTS samples one per iteration).

Hidden in Imhotep (docs/engine.md, Architecture: hidden information): the market draw pile's order, the
round cards still to come (and the one removed at setup), the face-down market cards
(Market B's pair, Market D's stacks), Pyramid C's face-down scaffold tiles and Burial
Chamber D's face-down tomb tokens. What the clone holds there is overwritten directly (not
re-drawn through the engine's chance streams), and its chance streams are all replaced by
the bot's own stream, so later reshuffles are the bot's guesses too.

Which cards, tiles and tokens are face down is public: the rulebook lists every card,
tile and token, and all the others lie face up (hands, displays, discard, boards). Only
their order and their split between face-down places is unknown, so each hidden group is
pooled, put in a canonical (sorted) order, shuffled and dealt back into the same places in
the same sizes: nothing of the real order survives (tests/test_search.py changes the real
game's hidden order and checks the bot's choices do not move).
"""

from __future__ import annotations

import random
from functools import lru_cache

from imhotep_stats.engine.clone import clone
from imhotep_stats.engine.game import MARKET, Game
from imhotep_stats.engine.sites.market import MARKET_KEEP
from imhotep_stats.rules.board import Board


def _shuffle(rng: random.Random, items: list) -> None:
    """Fisher-Yates from ``rng.random`` (cheap compiled; any uniform shuffle would do)."""
    draw = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = int(draw() * (i + 1))
        items[i], items[j] = items[j], items[i]


def _redeal(rng: random.Random, places: list[list]) -> None:
    """Pool the items of ``places`` (lists, changed in place), shuffle them from ``rng``
    and deal them back keeping each place's size."""
    pool = sorted([x for place in places for x in place])
    _shuffle(rng, pool)
    i = 0
    for place in places:
        k = len(place)
        place[:] = pool[i:i + k]
        i += k


def _hidden_cards(g: Game) -> list[list[str]]:
    """Every list of face-down market cards: the draw pile, then the sites' hidden ones,
    but not the Market D stack the seat to move is looking at (its ``market_keep``: the
    options show it; Market B's pair and Temple's draws are in the question's context)."""
    places = [g.deck]
    for site in g.sites:
        d = site.__dict__
        if "_hidden_pair" in d:
            places.append(d["_hidden_pair"])
        if "_hidden_stacks" in d:
            looking = g._ctx[-1] if g.kind == MARKET_KEEP and site.index == MARKET else -1
            places.extend(s for i, s in enumerate(d["_hidden_stacks"]) if i != looking)
    return places


@lru_cache(maxsize=64)
def _pool(board: Board, players: int) -> tuple:
    return tuple(sorted(tuple(c) for c in board.round_cards(players)))


def _round_cards(g: Game, rng: random.Random) -> None:
    """The round cards of the rounds to come: drawn from the pool less those turned up."""
    seen = [tuple(c) for c in g.round_cards[:g.round]]
    future = list(_pool(g.board, g.n))
    try:
        for c in seen:
            future.remove(c)
    except ValueError:
        # cards given by hand (tests, transcripts) outside the printed pool: only their
        # order is a guess
        future = sorted(tuple(c) for c in g.round_cards[g.round:])
    _shuffle(rng, future)
    g.round_cards = seen + future[:g.rounds - g.round]


def determinize(g: Game, me: int, rng: random.Random) -> Game:
    """A clone of ``g`` whose hidden state is a sample, from ``rng``, of what seat ``me``
    cannot tell apart from the real one."""
    d = clone(g, streams=rng)
    # chance to come is the bot's guess too: streams opened later (the reshuffle stream is
    # opened at the first reshuffle, from the seed) and reshuffles a transcript pinned
    d.seed = f"search/{rng.getrandbits(64)}"
    d.rng_reshuffle = rng
    d.pinned_reshuffles = []
    _redeal(rng, _hidden_cards(d))
    _round_cards(d, rng)
    for site in d.sites:
        h = site.__dict__
        if "_hidden_stack" in h:  # Pyramid C: the face-down tiles, and the one removed
            _redeal(rng, [h["_hidden_stack"], h["_hidden_removed"]])
        if "_hidden_tokens" in h:  # Burial Chamber D: the face-down tokens
            _redeal(rng, [h["_hidden_tokens"]])
    return d


def hidden_places(g: Game) -> dict[str, list]:
    """What :func:`determinize` deals anew, by name (for tests and checks)."""
    out: dict[str, list] = {"cards": [list(p) for p in _hidden_cards(g)],
                            "round_cards": list(g.round_cards[g.round:])}
    for site in g.sites:
        for name, value in site.__dict__.items():
            if name.startswith("_hidden"):
                out[f"{site.name}.{name}"] = value
    return out

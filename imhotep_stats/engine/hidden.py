"""Hidden information, dealt anew: a copy of the game as seat ``me`` might believe it is
(``sample``), for information-set search (bots/search).

Hidden in Imhotep (docs/engine.md, Architecture: hidden information): the market draw
pile's order, the round cards still to come (and the one removed at setup), the face-down
market cards (Market B's pair, Market D's stacks), Pyramid C's face-down scaffold tiles and
Burial Chamber D's face-down tomb tokens. Each site owns its hidden parts: it names its
face-down market cards (``Site.hidden_cards``, pooled with the draw pile: a card may be in
either) and deals its own tiles or tokens anew (``Site.redeal_hidden``). What the copy holds
there is overwritten (not re-drawn through the chance streams), and its chance streams are
all the searcher's own stream, so later reshuffles are its guesses too.

Which cards, tiles and tokens are face down is public: the rulebook lists every card, tile
and token, and all the others lie face up (hands, displays, discard, boards). Only their
order and their split between face-down places is unknown, so each hidden group is pooled,
put in a canonical (sorted) order, shuffled and dealt back into the same places in the same
sizes: nothing of the real order survives (tests/test_search.py changes the real game's
hidden order and checks the bot's choices do not move).
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import TYPE_CHECKING

from imhotep_stats.engine.chance import deal, pooled, shuffle
from imhotep_stats.engine.clone import clone, copy_into
from imhotep_stats.engine.stream import draw_bits

if TYPE_CHECKING:
    from imhotep_stats.engine.game import Game
    from imhotep_stats.rules.board import Board


def hidden_cards(g: Game, seat: int) -> list[list[str]]:
    """Every list of market cards face down to ``seat``: the draw pile, then the sites'."""
    places = [g.deck]
    for site in g.sites:
        places.extend(site.hidden_cards(g, seat))
    return places


@lru_cache(maxsize=64)
def _pool(board: Board, players: int) -> tuple:
    return tuple(sorted(tuple(c) for c in board.round_cards(players)))


def _unseen_round_cards(g: Game) -> tuple[list, list]:
    """The round cards turned up (as tuples) and, in canonical order, the pool the rounds
    to come are drawn from: the printed pool less those turned up."""
    seen = [tuple(c) for c in g.round_cards[:g.round]]
    future = list(_pool(g.board, g.n))
    try:
        for c in seen:
            future.remove(c)
    except ValueError:
        # cards given by hand (tests, transcripts) outside the printed pool: only their
        # order is a guess
        future = sorted(tuple(c) for c in g.round_cards[g.round:])
    return seen, future


class SearchSeed:
    """A sample's seed, ``search/<bits>`` (``bits`` drawn from the search's stream): as a
    string only when a stream is opened from it (``chance.stream`` formats ``f"{seed}/..."``),
    which few samples do: most never reshuffle, and formatting 64 bits at every sample would
    be a noticeable part of a determinization. (``f"{seed}"`` is ``str(seed)``.)
    Compiled, a cdef class (hidden.pxd)."""

    def __init__(self, bits: int):
        self.bits = bits

    def __str__(self) -> str:
        return f"search/{self.bits}"

    def __repr__(self) -> str:
        return f"SearchSeed({self.bits})"


class Sampler:
    """The samples of one position for seat ``me`` (a search draws one an iteration): what
    does not depend on the draw is worked out once (the face-down cards pooled in canonical
    order, which sites hold some or hidden parts of their own, the round cards turned up
    and the pool of those to come), so ``sample(rng)`` copies, shuffles and deals. Valid
    while the game has not moved (checked by its decision count). Its fields are private:
    a bot holds a sampler (``View.sampler``) and must not reach the game through it."""

    __slots__ = ("_g", "_me", "_decisions", "_cards", "_card_sites", "_own_sites", "_seen",
                 "_future", "_to_come", "_report", "_own_pools", "_last")

    def __init__(self, g: Game, me: int, report: bool = True):
        self._g = g
        self._me = me
        self._report = report  # False: the copies keep no score events, no cards by name (engine.clone)
        self._decisions = g.decisions
        self._cards = pooled(hidden_cards(g, me))
        self._card_sites = [site.index for site in g.sites if site.hidden_cards(g, me)]
        # the sites with face-down tiles or tokens of their own (Site.hidden_tiles), each
        # with its pool in canonical order: what redeal_hidden pools, pooled once
        self._own_sites = [site.index for site in g.sites if site.hidden_tiles()]
        self._own_pools = [pooled(g.sites[i].hidden_tiles()) for i in self._own_sites]
        self._seen, self._future = _unseen_round_cards(g)
        self._to_come = g.rounds - g.round
        self._last = None  # resample's copy

    def sample(self, rng: random.Random) -> Game:
        """A copy of the game whose hidden state is a sample, from ``rng``, of what seat
        ``me`` cannot tell apart from the real one; every chance stream of the copy is
        ``rng``."""
        self._check()
        d = clone(self._g, rng, self._report)
        self._deal(d, rng)
        return d

    def resample(self, rng: random.Random) -> Game:
        """:meth:`sample`'s copy from the same draws, made in the storage of this sampler's
        previous one (its game and site objects filled anew, not made and freed): that one
        is gone, so only for a caller that plays a sample and drops it before the next (a
        search, one an iteration)."""
        self._check()
        d = self._last
        if d is None:
            d = self._last = clone(self._g, rng, self._report)
        else:
            copy_into(d, self._g, rng, self._report, True)
        self._deal(d, rng)
        return d

    def _check(self) -> None:
        if self._g.decisions != self._decisions:
            raise RuntimeError("hidden.Sampler: the game moved since the sampler was made")

    def _deal(self, d: Game, rng: random.Random) -> None:
        """Deal the hidden parts of the copy ``d`` anew from ``rng``."""
        me = self._me
        # chance to come is the searcher's guess too: streams opened later (the reshuffle
        # stream is opened at the first reshuffle, from the seed) and reshuffles a
        # transcript pinned
        d.seed = SearchSeed(draw_bits(rng, 64))  # "search/<bits>" when a stream needs it
        d.pinned_reshuffles = []
        # the cards, the round cards to come, each site's own: in this order (the draws)
        places = [d.deck]
        sites = d.sites
        for i in self._card_sites:
            places.extend(sites[i].hidden_cards(d, me))
        deal(rng, self._cards[:], places)  # a copy: deal shuffles it
        future = self._future[:]
        shuffle(rng, future)
        d.round_cards = self._seen + future[:self._to_come]
        for k in range(len(self._own_sites)):  # as each site's redeal_hidden, pooled once
            deal(rng, self._own_pools[k][:], sites[self._own_sites[k]].hidden_tiles())


def sample(g: Game, me: int, rng: random.Random) -> Game:
    """A copy of ``g`` whose hidden state is a sample, from ``rng``, of what seat ``me``
    cannot tell apart from the real one; every chance stream of the copy is ``rng``
    (``Sampler``: for many samples of one position)."""
    return Sampler(g, me).sample(rng)


def hidden_places(g: Game, seat: int) -> dict[str, list]:
    """What :func:`sample` deals anew for ``seat``, by name (tests and checks)."""
    out: dict[str, list] = {"cards": [list(p) for p in hidden_cards(g, seat)],
                            "round_cards": list(g.round_cards[g.round:])}
    for site in g.sites:
        for name, value in site.hidden().items():
            out[f"{site.name}.{name}"] = value
    return out

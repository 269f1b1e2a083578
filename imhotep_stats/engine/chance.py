# cython: boundscheck=False, wraparound=False
# (no bounds checks, no indexes from the end: every index below is within its list by construction)
"""Chance (docs/rules.md §1.2): where every random outcome of a game comes from.

Each purpose has a stream of its own, seeded by the game's seed and the purpose's name only
(``deal``: the round cards then the deck, both always drawn; ``reshuffle``, ``scaffold``,
``tomb``, ``prophecies``), so no outcome depends on how another purpose consumed its draws
(nor on what a caller pinned), nor on which sides are on the table. A caller (a transcript)
may pin any outcome instead:

- setup outcomes by name (``Game(..., chance={"tomb": [...]})``): what was drawn is kept in
  ``Game.chance_setup`` for the transcript's setup line;
- reshuffles of the discard pile, in order (``Game(..., reshuffles=[[...], ...]``, each the
  new draw pile top first; ``reshuffle``): every reshuffle is kept in ``Game.reshuffles``.

The hidden chance state is plain data on the game (``deck``, ``rng_reshuffle``, the sites'
``_hidden_*`` lists), so a copy of a game can re-sample it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from imhotep_stats.engine.setup_checks import RulesError
from imhotep_stats.engine.stream import Stream
from imhotep_stats.errors import describe

try:  # Cython's constant: True in the compiled module, False in pure Python
    import cython

    COMPILED = cython.compiled
except ImportError:  # pure Python without Cython installed
    COMPILED = False

if TYPE_CHECKING:
    from imhotep_stats.engine.game import Game

# Setup outcomes a transcript may pin, and what each one lists.
PINNABLE = {
    "scaffold": "Pyramid C's scaffold tiles in play, by number, in the order they are turned up",
    "tomb": "Burial Chamber D's tomb tokens, in the order they are turned up",
    "prophecies": "the prophecy cards in play",
}
DRAWN_BY = {"scaffold": "Pyramid C", "tomb": "Burial Chamber D", "prophecies": "the prophecies module"}


class ChanceError(RulesError):
    """A pinned outcome that does not fit the game. ``reshuffle`` is the pinned reshuffle's
    index (from 0), or -1 for a setup outcome."""

    def __init__(self, message: str, reshuffle: int = -1):
        self.reshuffle = reshuffle
        super().__init__(message)


def stream(seed: Any, purpose: str) -> random.Random:
    """The chance stream of one purpose of the game seeded ``seed``."""
    return random.Random(f"{seed}/{purpose}")


def pick(g: Game, purpose: str, population: Sequence, k: int) -> list:
    """``k`` distinct items of ``population``, in order: pinned by the caller, or drawn from
    the purpose's stream. Recorded in ``g.chance_setup``."""
    given = g.pinned.get(purpose)
    if given is None:
        out = stream(g.seed, purpose).sample(list(population), k)
    else:
        what = f"chance.{purpose}"
        if not isinstance(given, list | tuple):
            raise ChanceError(f"{what}: expected a list ({PINNABLE[purpose]}), got {describe(given)}")
        bad = [x for x in given if isinstance(x, bool) or x not in population]
        if bad:
            raise ChanceError(f"{what}: {describe(bad[0])} is not one of {list(population)}")
        if len(set(given)) != len(given) or len(given) != k:
            raise ChanceError(
                f"{what}: expected {k} distinct items of {list(population)} "
                f"({PINNABLE[purpose]}), got {list(given)}"
            )
        out = list(given)
    g.chance_setup[purpose] = out
    return out


def check_pins(pinned: Any) -> dict:
    """A ``chance`` table as given: only the pinnable names."""
    if pinned is None:
        return {}
    if not isinstance(pinned, dict):
        raise ChanceError(f"chance: expected a table of pinned outcomes, got {describe(pinned)}")
    unknown = sorted(set(pinned) - set(PINNABLE))
    if unknown:
        raise ChanceError(f"chance: unknown outcome {unknown[0]!r} (known: {', '.join(PINNABLE)})")
    return dict(pinned)


def check_used(g: Game) -> None:
    """Every pinned setup outcome was drawn: a pin for a side not in play is a mistake."""
    for purpose in g.pinned:
        if purpose not in g.chance_setup:
            raise ChanceError(f"chance.{purpose}: this game draws none ({DRAWN_BY[purpose]} is not in play)")


SORT_MAX = 256  # compiled, fast_shuffle sorts up to this many items in C arrays


def fast_shuffle(rng: random.Random, items: list) -> None:
    """Shuffle in place: order by uniform random keys (a uniform permutation, drawn at C
    speed; ties have probability ~2**-53 and then keep the original order)."""
    n = len(items)
    if COMPILED and n <= SORT_MAX:
        _sort_by_draws(rng, items)
        return
    draw = rng.random
    keys = [draw() for _ in range(n)]  # n draws, in order
    order = sorted(range(n), key=keys.__getitem__)
    items[:] = [items[i] for i in order]


def _sort_by_draws(rng: random.Random, items: list) -> None:
    """:func:`fast_shuffle` compiled, for at most SORT_MAX items: the same keys drawn in the
    same order, each item put in its place among those drawn before it as its key comes (an
    insertion sort into C arrays: a key equal to an earlier one goes after it, so ties keep
    the original order as ``sorted`` does), so the same order as the Python path."""
    keys = cython.declare(cython.double[256])  # SORT_MAX
    order = cython.declare(cython.Py_ssize_t[256])
    s = rng if type(rng) is Stream else None  # a search's Stream (a reshuffle): C calls
    draw = rng.random  # else the bound method, looked up once
    n = len(items)
    for i in range(n):
        x = s.random() if s is not None else draw()
        j = i
        while j > 0 and keys[j - 1] > x:
            keys[j] = keys[j - 1]
            order[j] = order[j - 1]
            j -= 1
        keys[j] = x
        order[j] = i
    items[:] = [items[order[k]] for k in range(n)]


def reshuffle(g: Game) -> None:
    """The discard pile becomes the draw pile (docs/rules.md §2.1): the next pinned order
    if the caller gave one (engine/chance.py), else shuffled by the "reshuffle" stream."""
    i = len(g.reshuffles)
    if i < len(g.pinned_reshuffles):
        order = g.pinned_reshuffles[i]  # top first
        if not isinstance(order, list | tuple) or Counter(order) != Counter(g.discard):
            raise ChanceError(
                f"reshuffle {i + 1}: expected an order of the discard pile's {len(g.discard)} "
                f"cards ({', '.join(sorted(g.discard))}), got {order!r}",
                i,
            )
        deck = list(reversed(order))
    else:
        if g.rng_reshuffle is None:  # opened lazily: seeding a stream is dear, and a game may never reshuffle
            g.rng_reshuffle = stream(g.seed, "reshuffle")
        deck = g.discard
        fast_shuffle(g.rng_reshuffle, deck)
    g.discard = []
    g.deck = deck
    g.reshuffles = g.reshuffles + [deck[::-1]]  # a new list: a game's copies share the old


# Dealing hidden things anew (engine/hidden.py; the sites' redeal_hidden)
def shuffle(rng: random.Random, items: list) -> None:
    """Fisher-Yates from ``rng.random`` (cheap compiled; any uniform shuffle would do). A
    search's ``Stream`` (engine/stream.py) draws by C calls."""
    s = rng if type(rng) is Stream else None  # compiled: a typed Stream, each draw a C call
    for i in range(len(items) - 1, 0, -1):
        x = s.random() if s is not None else rng.random()
        j = int(x * (i + 1))
        if j < 0 or j > i:  # a stream's draws are in [0, 1): the swap below relies on it
            raise ValueError(f"shuffle: rng.random() gave {x!r}, not a number in [0, 1)")
        if COMPILED:  # the two items' pointers swapped (chance.pxd): no reference counts
            _swap_items(items, i, j)  # noqa: F821 (a C helper, declared in chance.pxd)
        else:
            items[i], items[j] = items[j], items[i]


def redeal(rng: random.Random, places: list[list]) -> None:
    """Pool the items of ``places`` (lists, changed in place), shuffle them from ``rng``
    and deal them back keeping each place's size."""
    deal(rng, pooled(places), places)


def pooled(places: list[list]) -> list:
    """The items of ``places`` in a canonical (sorted) order: nothing of the real one
    survives."""
    pool = []
    for place in places:
        pool += place
    pool.sort()
    return pool


def deal(rng: random.Random, pool: list, places: list[list]) -> None:
    """Shuffle ``pool`` (in place) from ``rng`` and deal it into ``places`` (changed in
    place), each keeping its size."""
    n = 0
    for place in places:
        n += len(place)
    if n != len(pool):  # (compiled, the copy below reads the pool without bounds checks)
        raise ValueError(f"deal: {len(pool)} items for places of {n}")
    shuffle(rng, pool)
    i = 0
    for place in places:
        for j in range(len(place)):  # item by item: no slice made and freed (compiled)
            place[j] = pool[i]
            i += 1

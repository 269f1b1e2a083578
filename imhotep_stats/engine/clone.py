"""A fast, independent copy of a game (``clone``), for search bots.

The game's state is plain data: C rows of small values (the counters, the hands, the sites'
boards: engine/rows.py), lists of names and actions, task records and the pending question
made of immutable values (engine/game.py), so a copy is flat: every list of the state copied
(a list field typed ``list`` in game.pxd as ``x[:]``, compiled a direct C slice copy),
everything immutable shared (the board, side data, card tables, actions, tuples, the task
records, the pending question's options and context); the small counters and the hands'
card counts, C arrays when compiled (game.pxd), are copied by value. Each site copies itself
(``Site.copy``: its attributes, its C rows by value, its lists one level deep), and so does
the prophecies' state. Playing the copy never touches the original, and the copy plays on
exactly as the original would (its chance stream is copied with its state). An attribute
added to ``Game`` must be added here (compiled, ``game.pxd`` declares it; ``clone.pxd``
types the copy as a ``Game``, so these are C field copies).
"""

from __future__ import annotations

import random

from imhotep_stats.engine.game import Game
from imhotep_stats.engine.stream import COMPILED  # True in the compiled engine


def clone(g: Game, streams: random.Random | None = None, report: bool = True) -> Game:
    """An independent copy of ``g`` that plays on exactly as ``g`` would; with ``streams``,
    every chance stream of the copy is that one instead (a search's own). Without
    ``report``, the copy keeps none of what only a game's report reads: no score events and
    no cards taken by name (``events`` and ``took`` None; its totals and counts play on as
    ever): a search reads the totals, and each event is a tuple made and freed."""
    new = Game.__new__(Game)
    copy_into(new, g, streams, report, False)
    return new


def copy_into(new: Game, g: Game, streams: random.Random | None = None, report: bool = True,
              again: bool = False) -> None:
    """Make ``new`` the copy :func:`clone` makes of ``g``. ``again``: ``new`` is such a copy
    of ``g`` made before (a search's previous sample, played and dropped): its site objects
    are filled anew (``Site.copy_into``) instead of made and freed, every other field
    replaced as in a new copy."""
    new.board = g.board
    new.n = g.n
    new.sides = g.sides
    new.seed = g.seed
    new.expansion = g.expansion
    new.prophecies = g.prophecies
    new.rounds = g.rounds
    new.scenario = g.scenario
    new.pinned = g.pinned  # never changed after setup
    new.chance_setup = g.chance_setup  # filled at setup only (chance.pick), never changed
    new.pinned_reshuffles = g.pinned_reshuffles  # never changed after setup
    new.reshuffles = g.reshuffles  # replaced, never changed, at a reshuffle (chance.reshuffle)
    rng = g.rng_reshuffle
    if streams is not None:
        rng = streams
    elif rng is not None:
        rng = random.Random.__new__(random.Random)
        rng.setstate(g.rng_reshuffle.getstate())
    new.rng_reshuffle = rng
    new.stones_total = g.stones_total
    new.get_stones = g.get_stones
    new.card_points = g.card_points
    new.round_cards = g.round_cards  # never changed in play (a search's copy gets a new one)
    new.deck = g.deck[:]
    new.deck_initial = g.deck_initial  # never changed
    new.discard = g.discard[:]
    new.took = [dict(t) for t in g.took] if report and g.took is not None else None
    new.events = g.events[:] if report and g.events is not None else None
    new.round = g.round
    new.current = g.current
    new.start_player = g.start_player
    new.passes = g.passes
    new.last_sailer = g.last_sailer
    new.round_over = g.round_over
    new.skip_advance = g.skip_advance
    new.over = g.over
    new.decisions = g.decisions
    new.stack = g.stack[:]  # records of immutable values: shared
    new.to_move = g.to_move
    new.kind_code = g.kind_code
    new._options = g._options  # never changed once asked (None: built when read)
    new._context = g._context
    new.get_actions = g.get_actions
    new.turn_start_hooks = g.turn_start_hooks  # a tuple
    if again:  # the same sides in the same places: each site copied onto its old copy
        sites = new.sites
        for i in range(len(sites)):
            site = g.sites[i]
            site.copy_into(sites[i])
    else:
        sites = []
        for site in g.sites:  # a typed loop: each copy a C call
            sites.append(site.copy())
        new.sites = sites
    new._round_start_sites = g._round_start_sites  # tuples of site indexes
    new._round_end_sites = g._round_end_sites
    new.prophecy = None if g.prophecy is None else g.prophecy.copy()
    new.ship_sizes = g.ship_sizes
    new.ship_free = g.ship_free
    new.open_mask = g.open_mask
    new.ships_ready = g.ships_ready
    new.docks_free = g.docks_free
    new.sailed = g.sailed
    if COMPILED:  # the small counters: C arrays, copied by value
        new._sled = g._sled
        new._quarry = g._quarry
        new._sled_cap = g._sled_cap
        new._blue = g._blue
        new._totals = g._totals
        new._blue_kinds = g._blue_kinds
        new._red_kept = g._red_kept
        new._cards_taken = g._cards_taken
        new._ship_min = g._ship_min
        new._ship_load = g._ship_load
        new._ship_dock = g._ship_dock
        new._dock_used = g._dock_used
        new._slots = g._slots
        new._ship_size = g._ship_size
        new._hand = g._hand
    else:  # lists
        new._sled = list(g._sled)
        new._quarry = list(g._quarry)
        new._sled_cap = list(g._sled_cap)
        new._blue = list(g._blue)
        new._totals = list(g._totals)
        new._blue_kinds = list(g._blue_kinds)
        new._red_kept = list(g._red_kept)
        new._cards_taken = list(g._cards_taken)
        new._ship_min = list(g._ship_min)
        new._ship_load = list(g._ship_load)
        new._ship_dock = list(g._ship_dock)
        new._dock_used = list(g._dock_used)
        new._slots = list(g._slots)
        new._ship_size = list(g._ship_size)
        new._hand = list(g._hand)

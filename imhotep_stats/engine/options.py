"""A turn's options by count and index: what a random rollout draws from, without the list.

``option_count(g)`` and ``option_at(g, i)`` are ``len(g.options)`` and ``g.options[i]``
computed from the parts of the state (get actions, open slots, the sail table by the
ready-ships and free-docks bitmasks, the blue cards' plays by ``cards.blue_playable``), in
``Game._turn_options``'s order; ``drawn_option(g, x)`` is ``g.options[int(x * len(g.options))]``
(a random rollout's pick, counted and picked in one read) and ``apply_drawn(g, x)`` performs
it with no legality scan. At a question (not a turn), or once the list is built, they read the
list. tests/test_turn_options.py holds them to ``g.options`` at every decision."""

from __future__ import annotations

from imhotep_stats.engine.actions import PASS, Action, place_at, sail_options
from imhotep_stats.engine.cards import PLAYS, blue_playable
from imhotep_stats.engine.game import Game, _perform


def option_count(g: Game) -> int:
    """``len(g.options)``, without building a turn's list."""
    opts = g._options
    if opts is not None:
        return len(opts)
    p = g.to_move
    sled = g._sled[p]  # sled, cap, quarry, blue: typed locals (options.pxd), so C compares
    cap = g._sled_cap[p]
    quarry = g._quarry[p]
    blue = g._blue[p]
    n = 0
    if sled < cap and quarry > 0:
        n = len(g.get_actions)
    if sled > 0:
        n += g.ship_free  # the open slots' count
    n += len(sail_options(g.ships_ready, g.docks_free))
    if blue:
        n += _bits(blue_playable(g, p))
    return n if n else 1  # nothing else: pass


def option_at(g: Game, i: int) -> Action:
    """``g.options[i]`` (0 <= i < option_count(g)), without building a turn's list: the same
    order as ``Game._turn_options`` (get, place, sail: ship by ship, each to its free docks,
    then the blue cards' plays in ``cards.BLUE``'s order)."""
    return _option(g, i, 0.0)


def drawn_option(g: Game, x: float) -> Action:
    """``g.options[int(x * len(g.options))]`` for a draw 0 <= x < 1 (a random rollout's
    pick): the count and the pick from one read of the state."""
    return _option(g, -1, x)


def _option(g: Game, i: int, x: float) -> Action:
    """``option_at(g, i)``, or for i < 0 ``drawn_option(g, x)``."""
    opts = g._options
    if opts is not None:
        return opts[i if i >= 0 else int(x * len(opts))]
    p = g.to_move
    sled = g._sled[p]  # sled, cap, quarry, blue: typed locals (options.pxd), so C compares
    cap = g._sled_cap[p]
    quarry = g._quarry[p]
    blue = g._blue[p]
    gets = len(g.get_actions) if sled < cap and quarry > 0 else 0
    places = g.ship_free if sled > 0 else 0  # the open slots' count
    sails = sail_options(g.ships_ready, g.docks_free)
    mask = blue_playable(g, p) if blue else 0
    if i < 0:
        n = gets + places + len(sails) + _bits(mask)
        if not n:
            return PASS  # nothing else
        i = int(x * n)
    if i < gets:
        return g.get_actions[i]
    i -= gets
    if i < places:
        return place_at(g.open_mask, i)
    i -= places
    k = len(sails)
    if i < k:
        return sails[i]
    i -= k
    for j in range(6):
        if mask >> j & 1:
            if i == 0:
                return PLAYS[j]
            i -= 1
    return PASS  # nothing else


def _bits(mask: int) -> int:
    """The number of set bits of ``mask`` (the blue cards' plays it marks)."""
    n = 0
    while mask:
        n += mask & 1
        mask >>= 1
    return n


def apply_drawn(g: Game, x: float) -> None:
    """``apply(g, g.options[int(x * len(g.options))])`` for a draw 0 <= x < 1: no list built,
    no legality scan (a random rollout's step)."""
    _perform(g, drawn_option(g, x))

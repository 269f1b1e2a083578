"""A turn's options by count and index: what a random rollout draws from, without the list.

``option_count(g)`` and ``option_at(g, i)`` are ``len(g.options)`` and ``g.options[i]``
computed from the parts of the state (get actions, open slots, the sail table by the
ready-ships and free-docks bitmasks, the blue cards' plays by ``cards.blue_playable``), in
``Game._turn_options``'s order; ``apply_option(g, i)`` performs the
i-th with no legality scan. At a question (not a turn), or once the list is built, they read
the list. tests/test_turn_options.py holds them to ``g.options`` at every decision."""

from __future__ import annotations

from imhotep_stats.engine.actions import PASS, SAIL_OPTIONS, Action
from imhotep_stats.engine.cards import PLAYS, blue_playable
from imhotep_stats.engine.game import Game, _perform


def option_count(g: Game) -> int:
    """``len(g.options)``, without building a turn's list."""
    opts = g._options
    if opts is not None:
        return len(opts)
    p = g.to_move
    sled = g.sled[p]  # sled, cap, quarry, blue: typed locals (options.pxd), so C compares
    cap = g.sled_cap[p]
    quarry = g.quarry[p]
    blue = g.blue[p]
    n = 0
    if sled < cap and quarry > 0:
        n = len(g.get_actions)
    if sled > 0:
        n += len(g.open_slots)
    n += len(SAIL_OPTIONS[g.ships_ready][g.docks_free])
    if blue:
        mask = blue_playable(g, p)
        while mask:  # its set bits
            n += mask & 1
            mask >>= 1
    return n if n else 1  # nothing else: pass


def option_at(g: Game, i: int) -> Action:
    """``g.options[i]`` (0 <= i < option_count(g)), without building a turn's list: the same
    order as ``Game._turn_options`` (get, place, sail: ship by ship, each to its free docks,
    then the blue cards' plays in ``cards.BLUE``'s order)."""
    opts = g._options
    if opts is not None:
        return opts[i]
    p = g.to_move
    sled = g.sled[p]  # sled, cap, quarry: typed locals (options.pxd), so C compares
    cap = g.sled_cap[p]
    quarry = g.quarry[p]
    if sled < cap and quarry > 0:
        k = len(g.get_actions)
        if i < k:
            return g.get_actions[i]
        i -= k
    if sled > 0:
        k = len(g.open_slots)
        if i < k:
            return g.open_slots[i]
        i -= k
    sails = SAIL_OPTIONS[g.ships_ready][g.docks_free]
    k = len(sails)
    if i < k:
        return sails[i]
    i -= k
    if g.blue[p]:
        mask = blue_playable(g, p)
        for j in range(6):
            if mask >> j & 1:
                if i == 0:
                    return PLAYS[j]
                i -= 1
    return PASS  # nothing else


def apply_option(g: Game, i: int) -> None:
    """``apply(g, g.options[i])`` for a trusted index (0 <= i < option_count(g)): no list
    built, no legality scan (a random rollout's step)."""
    _perform(g, option_at(g, i))

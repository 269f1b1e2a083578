"""Shared test helpers: random legal play with invariant checks."""

from __future__ import annotations

import random

from imhotep_stats.engine.game import Game, apply


def conservation_ok(g: Game) -> bool:
    """Stones conserved per colour: quarry + sled + ships + sites = the colour's stones."""
    for p in range(g.n):
        held = g.quarry[p] + g.sled[p] + g.ship_stones_of(p) + sum(s.stones_of(p) for s in g.sites)
        if held != g.stones_total:
            return False
    return True


def check_invariants(g: Game) -> None:
    assert conservation_ok(g), "stones not conserved"
    for p in range(g.n):
        assert 0 <= g.sled[p] <= g.sled_cap[p], f"sled of seat {p} out of range"
        assert g.quarry[p] >= 0
    for s in range(4):
        assert len(g.ship_slots[s]) == g.ship_sizes[s]
        assert 0 <= g.ship_load[s] <= g.ship_sizes[s]
    if not g.over:
        assert g.options, "no legal action while the game is on"
        assert 0 <= g.to_move < g.n
    assert sum(e[2] for e in g.events) == sum(g.totals)


def play_random(g: Game, seed: int = 0, check: bool = True) -> Game:
    rng = random.Random(seed)
    while not g.over:
        if check:
            check_invariants(g)
        apply(g, g.options[rng.randrange(len(g.options))])
    if check:
        check_invariants(g)
    return g

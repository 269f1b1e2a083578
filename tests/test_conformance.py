"""Conformance over every side combination: all 4^5 = 1,024 of them (market, pyramid, temple,
burial chamber, obelisk, each A-D) for 2, 3 and 4 players, each played once to the end with
random legal actions and the invariants of tests/helpers.py checked after every decision.
Prophecies are on for half the games, so that each combination is played both with and
without them across the player counts. A hypothesis test adds random sides, counts and seeds."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from imhotep_stats.engine.game import Game
from imhotep_stats.engine.result import result_of
from tests.helpers import play_random

SIDES = ["-".join(c) for c in itertools.product("ABCD", repeat=5)]
CHUNKS = 8
CHUNK = len(SIDES) // CHUNKS  # 128 combinations, in order: A-A-A-A-A .. A-B-D-D-D, ...


def play_one(players: int, sides: str, seed: int, prophecies: bool) -> None:
    """One game to the end; a failure names the game and how to replay it."""
    label = (
        f"Game({players}, {sides!r}, seed={seed}, prophecies={prophecies}) "
        f"played by play_random(g, seed={seed})"
    )
    try:
        g = play_random(Game(players, sides, seed=seed, prophecies=prophecies), seed=seed)
    except Exception as e:  # an invariant or the engine itself: either way, name the game
        raise AssertionError(f"{label}: {type(e).__name__}: {e}") from e
    assert g.over and g.round == g.rounds + 1, f"{label}: not over after its rounds"
    r = result_of(g)
    by_seat = [sum(e[2] for e in g.events if e[0] == p) for p in range(players)]
    assert r.totals == g.totals == by_seat, f"{label}: totals {r.totals} != events {by_seat}"
    assert sum(r.win_share) == pytest.approx(1.0), f"{label}: win shares {r.win_share}"
    assert min(r.ranks) == 1, f"{label}: ranks {r.ranks}"


def test_the_combinations_are_all_there():
    """The chunks cover exactly what a study of every side ("all" on each site) plays."""
    from imhotep_stats.config import parse_config

    cfg = parse_config({"study": {"name": "all", "seed": 0, "games": 1, "players": [2]},
                        "sides": dict.fromkeys(("market", "pyramid", "temple",
                                                "burial_chamber", "obelisk"), "all")})
    assert SIDES == [c.sides for c in cfg.cells]
    assert len(SIDES) == CHUNKS * CHUNK  # no combination left out of the chunks


@pytest.mark.parametrize(
    "chunk",
    range(CHUNKS),
    ids=[f"{SIDES[k * CHUNK]}..{SIDES[(k + 1) * CHUNK - 1]}" for k in range(CHUNKS)],
)
@pytest.mark.parametrize("players", [2, 3, 4], ids=lambda n: f"{n}p")
def test_every_side_combination_plays_to_the_end(players, chunk):
    for index in range(chunk * CHUNK, (chunk + 1) * CHUNK):
        # 2 and 4 players share a parity, 3 has the other: each combination is played
        # with and without prophecies.
        play_one(players, SIDES[index], seed=index, prophecies=(index + players) % 2 == 0)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    sides=st.lists(st.sampled_from("ABCD"), min_size=5, max_size=5).map("-".join),
    players=st.integers(2, 4),
    prophecies=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_random_sides_players_and_seeds(sides, players, prophecies, seed):
    play_one(players, sides, seed, prophecies)

"""Conformance and invariants over random legal play (hypothesis over seeds)."""

from __future__ import annotations

import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from imhotep_stats.engine.game import Game
from imhotep_stats.engine.result import result_of
from tests.helpers import play_random


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_hundreds_of_random_games(players):
    for seed in range(200):
        g = play_random(Game(players, seed=seed), seed=seed, check=False)
        assert g.over and g.round == g.rounds + 1
        r = result_of(g)
        assert sum(r.win_share) == pytest.approx(1.0)
        assert min(r.ranks) == 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), deal=st.integers(0, 2**32), play=st.integers(0, 2**32))
def test_invariants_after_every_decision(players, deal, play):
    # stones conserved per colour, sled within capacity, ships within size, a legal action
    # exists until the end, score = sum of events (tests/helpers.py check_invariants)
    g = play_random(Game(players, seed=deal), seed=play, check=True)
    r = result_of(g)
    for p in range(players):
        assert r.totals[p] == sum(e[2] for e in g.events if e[0] == p)


def test_same_seed_same_game():
    a = play_random(Game(3, seed=5), seed=9, check=False)
    b = play_random(Game(3, seed=5), seed=9, check=False)
    assert a.events == b.events and a.decisions == b.decisions


def test_engine_imports_no_heavy_libraries():
    # docs/engine.md, Architecture: layers: dependencies point one way; the engine imports neither polars, scipy nor Click.
    import subprocess

    code = (
        "import sys; import imhotep_stats.engine.game, imhotep_stats.engine.play, "
        "imhotep_stats.engine.transcript; "
        "bad = [m for m in ('polars', 'scipy', 'click') if m in sys.modules]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_tally_follows_the_sole_leader_through_penalties_and_ties():
    # engine/result.tally, hand-worked: 3 players, 6 rounds (round 7 = game end)
    from imhotep_stats.engine.result import tally

    events = [
        (0, "market", 3, 1),           # 3 0 0: seat 0 leads (no change counted: the first)
        (1, "pyramid", 5, 1),          # 3 5 0: seat 1 ahead, change 1
        (1, "burial_chamber", -4, 2),  # 3 1 0: a penalty hands the lead back to seat 0, change 2
        (0, "temple", -3, 2),          # 0 1 0: seat 1 the sole best again, change 3
        (1, "obelisk", -1, 7),         # 0 0 0: three tied, no sole leader: no change
        (2, "market", 2, 7),           # 0 0 2: seat 2 ahead, change 4
    ]
    by_source, by_round, changes = tally(events, 3, 6)
    assert changes == 4
    assert by_round == [[3, -3, 0, 0, 0, 0, 0], [5, -4, 0, 0, 0, 0, -1], [0, 0, 0, 0, 0, 0, 2]]
    assert {k: v for k, v in by_source[1].items() if v} == {"pyramid": 5, "burial_chamber": -4, "obelisk": -1}
    assert list(by_source[2]) == list(by_source[0])  # every source, in the same order
    with pytest.raises(ValueError, match=r"no seat 3 in a 3-player game"):
        tally([(3, "market", 1, 1)], 3, 6)
    with pytest.raises(ValueError, match=r"tally: 1 to 4 seats, got 5"):
        tally([], 5, 6)

"""The gods' prophecies (docs/rules.md §9): setup, the turn-start question and its limits,
scoring by window. Points from data/game.toml [prophecies]: fulfilled 7/5/3, failed -5/-3/-1."""

from __future__ import annotations

import pytest

from imhotep_stats.engine import scenario
from imhotep_stats.engine.actions import act
from imhotep_stats.engine.game import Game, IllegalAction, apply
from tests.helpers import play_random, points_by_seat, where

GODS = ("amun", "ra", "horus", "osiris", "thoth", "hathor", "anubis")
FULFILLED = (7, 5, 3)
FAILED = (-5, -3, -1)
NO = act("no", "scarab")


def game(players: int = 3, gods=("amun", "ra", "horus"), **kw) -> Game:
    """A 3-player game with the prophecy cards fixed and the first question re-asked."""
    g = Game(players, "A-A-A-A-A", seed=1, prophecies=True, **kw)
    st = g.prophecy
    st.gods = tuple(gods)
    st.scarab_action = {god: act("scarab", god) for god in gods}
    scenario.advance(g)
    return g


def prophecy_points(g: Game) -> list[int]:
    return points_by_seat(g, "prophecy")


def texts(g: Game) -> list[str]:
    return [str(a) for a in g.options]


# ----------------------------------------------------------------------------- setup
def test_setup_draws_three_gods_two_scarabs_reproducibly():
    g = Game(3, "A-A-A-A-A", seed=5, prophecies=True)
    assert len(g.prophecy.gods) == 3 and set(g.prophecy.gods) <= set(GODS)
    assert len(set(g.prophecy.gods)) == 3
    assert g.prophecy.left == [2, 2, 2]
    assert g.expansion  # the prophecies switch the expansion rules on
    assert Game(3, "A-A-A-A-A", seed=5, prophecies=True).prophecy.gods == g.prophecy.gods
    drawn = {Game(3, "A-A-A-A-A", seed=s, prophecies=True).prophecy.gods for s in range(30)}
    assert len(drawn) > 5  # the draw depends on the seed


# ----------------------------------------------------------------------------- the question
def test_question_then_the_same_players_turn_without_asking_again():
    g = game()
    assert g.kind == "prophecy" and g.to_move == 0 and g.current == 0
    assert texts(g) == ["scarab amun", "scarab ra", "scarab horus", "no scarab"]
    apply(g, act("scarab", "amun"))
    assert g.kind == "turn" and g.to_move == 0  # same player, same turn, asked once
    plain = Game(3, "A-A-A-A-A", seed=1, expansion=True)
    assert texts(g) == texts(plain)  # the normal turn decision
    apply(g, act("get"))
    assert g.kind == "prophecy" and g.to_move == 1  # next player's turn starts with it
    apply(g, NO)
    assert g.kind == "turn" and g.to_move == 1
    apply(g, act("get"))
    assert g.prophecy.placed == [[("amun", 0)], [], []]
    assert g.prophecy.left == [1, 2, 2]


def test_one_scarab_per_window():
    g = game()
    apply(g, act("scarab", "ra"))  # p0, round 1: window 1-2 used
    for p in (0, 1, 2):
        if g.kind == "prophecy":
            apply(g, NO)
        assert g.kind == "turn" and g.to_move == p
        apply(g, act("get"))
    # p0's next turn, still round 1: not asked (even with two cards free)
    assert g.kind == "turn" and g.to_move == 0
    with pytest.raises(IllegalAction):
        apply(g, act("scarab", "amun"))


def test_one_scarab_per_card_and_limited_scarabs():
    g = game()
    apply(g, act("scarab", "amun"))  # window 0
    apply(g, g.options[0])  # get or place: a simple turn
    g.round = 3  # window 3-4 (hand-built: the question reads the round)
    for _ in range(2):  # p1, p2
        apply(g, NO)
        apply(g, g.options[0])  # get or place: a simple turn
    assert g.kind == "prophecy" and g.to_move == 0
    assert texts(g) == ["scarab ra", "scarab horus", "no scarab"]  # not amun again
    apply(g, act("scarab", "horus"))
    assert g.prophecy.placed[0] == [("amun", 0), ("horus", 1)]
    apply(g, g.options[0])  # get or place: a simple turn
    g.round = 5  # window 5-6: p0 has no scarab left
    for _ in range(2):
        apply(g, NO)
        apply(g, g.options[0])  # get or place: a simple turn
    assert g.kind == "turn" and g.to_move == 0


def test_no_scarab_keeps_the_question_for_the_next_turn():
    g = game()
    apply(g, NO)
    apply(g, act("get"))
    for _ in range(2):
        apply(g, NO)
        apply(g, act("get"))
    assert g.kind == "prophecy" and g.to_move == 0  # same window, still free


def test_question_before_a_turn_that_is_a_card_play():
    # After a prophecy answer the turn may be a blue card that asks at once (Chisel): the
    # turn then ends normally and the next player is asked.
    g = game()
    scenario.gain(g, 0, "chisel")
    apply(g, NO)
    apply(g, act("play", "chisel"))
    assert g.kind == "chisel_place" and g.to_move == 0
    apply(g, g.options[0])
    apply(g, g.options[0])
    assert g.kind == "prophecy" and g.to_move == 1


# ----------------------------------------------------------------------------- scoring
def _set_counts(g: Game, god: str, counts: list[int]) -> None:
    """Give each player ``counts[p]`` of what ``god`` counts."""
    if god == "amun":
        g.red_kept[:] = counts
    elif god == "anubis":
        g.sled[:] = counts
    elif god == "hathor":
        for p, k in enumerate(counts):
            g.hand[p] = {"statue": k} if k else {}
    elif god == "thoth":  # Obelisk A: heights
        g.sites[4].heights[:] = counts
    else:  # pyramid, temple, burial chamber A: owners in fill order
        site = g.sites[{"ra": 2, "horus": 1, "osiris": 3}[god]]
        site.owners = [p for p, k in enumerate(counts) for _ in range(k)]


@pytest.mark.parametrize("window", [0, 1, 2])
@pytest.mark.parametrize("god", GODS)
def test_each_prophecy_fulfilled_and_failed_in_each_window(god, window):
    g = game(gods=(god, "ra" if god != "ra" else "amun", "horus" if god != "horus" else "amun"))
    g.prophecy.placed = [[(god, window)], [(god, window)], []]
    _set_counts(g, god, [3, 1, 2])  # p0 has the most: fulfilled; p1 fails
    scenario.score_prophecies(g)
    assert prophecy_points(g) == [FULFILLED[window], FAILED[window], 0]


@pytest.mark.parametrize("god", GODS)
def test_shared_majority_fulfils(god):
    g = game(gods=(god, "ra" if god != "ra" else "amun", "horus" if god != "horus" else "amun"))
    g.prophecy.placed = [[(god, 0)], [(god, 1)], [(god, 2)]]
    _set_counts(g, god, [2, 2, 1])
    scenario.score_prophecies(g)
    assert prophecy_points(g) == [7, 5, -1]


def test_a_majority_of_nothing_fulfils_nobody():
    # Ruling (module docstring): "most" needs at least 1.
    g = game()
    g.prophecy.placed = [[("amun", 0)], [("amun", 1)], []]
    g.red_kept[:] = [0, 0, 0]
    scenario.score_prophecies(g)
    assert prophecy_points(g) == [-5, -3, 0]


def test_hathor_counts_cards_in_front_including_used_reds_not_played_blues():
    g = game(gods=("hathor", "ra", "amun"))
    # p0: entrance (used red, kept face up) + statue = 2 in front
    scenario.gain(g, 0, "entrance")
    scenario.gain(g, 0, "statue")
    # p1: 3 chisels taken, 2 of them played (discarded) = 1 in front
    for _ in range(3):
        scenario.gain(g, 1, "chisel")
    g.hand[1]["chisel"] = 1
    g.prophecy.placed = [[("hathor", 0)], [("hathor", 0)], []]
    scenario.score_prophecies(g)
    assert prophecy_points(g) == [7, -5, 0]


def test_amun_counts_red_cards_kept():
    g = game(gods=("amun", "ra", "horus"))
    scenario.gain(g, 1, "paved_path")
    scenario.gain(g, 1, "private_quarry")
    scenario.gain(g, 2, "sarcophagus")
    assert g.red_kept == [0, 2, 1]
    g.prophecy.placed = [[], [("amun", 2)], [("amun", 1)]]
    scenario.score_prophecies(g)
    assert prophecy_points(g) == [0, 3, -3]


def test_scored_at_game_end_with_window_of_placement():
    g = game()
    apply(g, act("scarab", "amun"))  # window 0
    play_random(g, 3)
    results = g.prophecy.outcome(g)
    assert results[0][0][:2] == ("amun", 0)
    assert prophecy_points(g) == [sum(r[3] for r in res) for res in results]
    assert all(e[3] == g.rounds + 1 for e in g.events if e[1] == "prophecy")


# ----------------------------------------------------------------------------- random games
# Every side combination with and without prophecies: tests/test_conformance.py. Here the
# prophecy rules themselves, checked after every decision of random games.
class ProphecyRules:
    """A ``play_random`` watch: the question is asked once per turn at most, each player
    places distinct gods in distinct windows with two scarabs; counts the questions asked."""

    def __init__(self) -> None:
        self.last_kind: str | None = None
        self.asked = 0

    def __call__(self, g: Game) -> None:
        if not g.over:
            if self.last_kind == "prophecy":
                assert g.kind != "prophecy", where(g)  # asked once per turn
            self.asked += g.kind == "prophecy"
        self.last_kind = None if g.over else g.kind  # the next game starts afresh
        st = g.prophecy
        for p in range(g.n):
            gods = [god for god, _ in st.placed[p]]
            windows = [w for _, w in st.placed[p]]
            assert len(gods) == len(set(gods)) and len(windows) == len(set(windows)), where(g)
            assert len(gods) + st.left[p] == 2, where(g)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_prophecy_rules_hold_in_random_games(players):
    sides = ["A-A-A-A-A", "A-A-A-A-B", "A-A-A-A-C", "A-A-A-A-D"]
    rules = ProphecyRules()
    for seed in range(50):
        g = Game(players, sides[seed % 4], seed=seed, prophecies=True)
        play_random(g, f"p/{seed}", watch=rules)
    assert rules.asked > 0

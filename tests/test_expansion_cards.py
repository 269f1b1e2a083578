"""The expansion's market cards and rules switch (docs/rules.md §1, 3.2), points by hand.

Pyramid A fill order points: 2 1 3 2 ... (data/board.toml)."""

from __future__ import annotations

from collections import Counter

import pytest

from imhotep_stats.engine import act, scenario
from imhotep_stats.engine.game import PYRAMID, Game, IllegalAction, apply
from imhotep_stats.engine.scenario import gain
from imhotep_stats.engine.scenario import score_cards as score_game_end
from tests.helpers import play_random, points

MARKET, OBELISK = 0, 4
ONES = [[1, 1, 1, 1]] * 6  # four 1-slot ships each round: any loaded ship may sail


def texts(options) -> list[str]:
    return [str(a) for a in options]


def with_card(g: Game, p: int, card: str) -> Game:
    gain(g, p, card)
    if g.kind == "turn":
        scenario.refresh_turn(g)
    return g


# ----------------------------------------------------------------------- the rules switch
def test_switch_on_with_c_d_sides_or_prophecies_or_asked():
    assert not Game(3, "A-A-A-A-A").expansion
    assert not Game(3, "A-B-A-B-A").expansion
    assert Game(3, "A-A-A-A-C").expansion
    assert Game(3, "A-A-A-A-D").expansion
    assert Game(3, "A-A-A-A-A", prophecies=True).expansion
    assert Game(3, "A-A-A-A-A", expansion=True).expansion
    assert not Game(3, "A-A-A-A-C", expansion=False).expansion


def test_deck_has_the_14_cards_only_with_the_expansion():
    base = Counter(Game(3, "A-A-A-A-A").deck_initial)
    full = Counter(Game(3, "A-A-A-A-A", expansion=True).deck_initial)
    assert sum(base.values()) == 34 and sum(full.values()) == 48
    assert full - base == Counter(
        {"cargo_sled": 2, "private_quarry": 2, "stone_ornament": 2, "statue": 4, "barge": 2, "loading_platform": 2}
    )
    assert not {"cargo_sled", "private_quarry", "stone_ornament", "barge", "loading_platform"} & set(base)


@pytest.mark.parametrize("players, expansion, stones", [(2, False, 29), (2, True, 59), (3, True, 29), (4, True, 29)])
def test_two_player_two_colour_rule(players, expansion, stones):
    g = Game(players, expansion=expansion)
    assert g.stones_total == stones
    start = [2, 3, 4, 5]
    assert g.quarry == [stones - start[p] for p in range(players)]
    assert g.sled == start[:players]


def test_red_cards_kept_face_up_with_the_expansion():
    g = Game(3, expansion=True)
    gain(g, 1, "entrance")
    gain(g, 1, "private_quarry")
    assert g.red_kept == [0, 2, 0] and "entrance" not in g.discard and "private_quarry" not in g.discard
    assert g.hand[1] == {}  # kept face up, not held
    base = Game(3)
    gain(base, 1, "entrance")
    assert base.red_kept == [0, 0, 0] and base.discard == ["entrance"]


# ----------------------------------------------------------------------- Cargo Sled
def test_cargo_sled_capacity_7_then_9():
    g = Game(3, expansion=True)
    p = 0
    g.quarry[p] += g.sled[p] - 5
    g.sled[p] = 5  # full at the base capacity
    assert act("get") not in scenario.turn_options(g, p)
    gain(g, p, "cargo_sled")
    assert g.sled_cap[p] == 7 and g.hand[p] == {"cargo_sled": 1}
    scenario.refresh_turn(g)
    apply(g, act("get"))  # min(3, 7 - 5, quarry) = 2
    assert g.sled[p] == 7
    gain(g, p, "cargo_sled")
    assert g.sled_cap[p] == 9
    assert points(g, p, "card_unused_blue") == 0
    score_game_end(g)
    assert g.totals[p] == 0  # kept cards score nothing by themselves


# ----------------------------------------------------------------------- Private Quarry
def test_private_quarry_point_and_stones_capped_by_capacity():
    g = Game(3, expansion=True)
    # seat 1 starts with 3 on the sled: +2 reach the capacity of 5; 1 point, source market
    q = g.quarry[1]
    gain(g, 1, "private_quarry")
    assert g.sled[1] == 5 and g.quarry[1] == q - 2
    assert points(g, 1, "market") == 1 and g.totals[1] == 1
    assert g.red_kept[1] == 1
    # seat 0 (2 on the sled) with 1 stone left in the quarry: +1 only
    g.quarry[0] = 1
    gain(g, 0, "private_quarry")
    assert g.sled[0] == 3 and g.quarry[0] == 0 and g.totals[0] == 1


def test_private_quarry_taken_at_the_market_uses_the_returned_stone():
    g = Game(3, expansion=True, scenario=True, round_cards=ONES)
    g.sites[MARKET].display = ["private_quarry"]
    apply(g, act("place", 0, 0))  # seat 0: 1 left on the sled
    g.quarry[0] = 0
    apply(g, act("sail", 0, "market"))  # seat 1 sails; seat 0's stone returns then pays
    assert g.kind == "market_pick" and g.to_move == 0
    apply(g, act("take", "private_quarry"))
    # the stone back in the quarry goes straight to the sled: 1 + 1 = 2
    assert g.sled[0] == 2 and g.quarry[0] == 0 and points(g, 0, "market") == 1


# ----------------------------------------------------------------------- Stone Ornament
def test_stone_ornament_one_point_per_sled_stone_each_card():
    g = Game(3, expansion=True)
    gain(g, 0, "stone_ornament")
    gain(g, 0, "stone_ornament")
    gain(g, 2, "stone_ornament")
    gain(g, 2, "cargo_sled")
    g.quarry[2] -= 7 - g.sled[2]
    g.sled[2] = 7  # stones on the Cargo Sled count: they are on the sled
    g.sled[1] = 5  # no ornament: nothing
    score_game_end(g)
    # seat 0: 2 cards x 2 stones = 4; seat 2: 1 card x 7 stones = 7
    assert [points(g, p, "card_ornament") for p in range(3)] == [4, 0, 7]


# ----------------------------------------------------------------------- expansion Statues
def test_expansion_statues_are_statues():
    g = Game(3, expansion=True)
    for _ in range(11):
        gain(g, 0, "statue")
    score_game_end(g)
    assert points(g, 0, "card_statue") == 15 + 2 * 6  # table to 5, then +2 per statue


# ----------------------------------------------------------------------- Barge
def test_barge_needs_three_sled_stones():
    g = with_card(Game(3, expansion=True), 0, "barge")
    assert g.sled[0] == 2 and act("play", "barge") not in g.options
    g.sled[0] = 3
    g.quarry[0] -= 1
    assert act("play", "barge") in scenario.turn_options(g, 0)


def test_barge_delivers_one_sled_stone_to_a_site_as_an_unload():
    g = Game(3, expansion=True)
    g.sled[0], g.quarry[0] = 4, g.quarry[0] - 2
    with_card(g, 0, "barge")
    q = g.quarry[0]
    apply(g, act("play", "barge"))
    assert g.kind == "barge_site" and g.to_move == 0
    # 2 stones back to the quarry; every site but the Market (the ruling, docs/rules.md §3.2)
    assert g.sled[0] == 2 and g.quarry[0] == q + 2
    assert texts(g.options) == ["deliver pyramid", "deliver temple", "deliver burial_chamber", "deliver obelisk"]
    with pytest.raises(IllegalAction):
        apply(g, act("deliver", "market"))
    apply(g, act("deliver", "pyramid"))
    # pyramid space 1: 2 points; 1 stone left on the sled; the turn passes
    assert points(g, 0, "pyramid") == 2 and g.sled[0] == 1
    assert g.sites[PYRAMID].stones_of(0) == 1
    assert g.kind == "turn" and g.to_move == 1 and g.current == 1
    assert "barge" not in g.hand[0] and "barge" in g.discard


def test_barge_to_a_site_with_a_choice():
    # Obelisk D: the barged stone's owner claims an obelisk, then the turn passes
    g = Game(3, "A-A-A-A-D")
    g.sled[0], g.quarry[0] = 3, g.quarry[0] - 1
    with_card(g, 0, "barge")
    apply(g, act("play", "barge"))
    apply(g, act("deliver", "obelisk"))
    assert g.kind == "obelisk_claim" and g.to_move == 0
    apply(g, act("claim", "height", 3, "points", 5))
    assert g.sites[OBELISK].stones_of(0) == 1 and g.sled[0] == 0
    assert g.kind == "turn" and g.to_move == 1


def test_unused_barge_and_platform_score_one_each():
    g = Game(3, expansion=True)
    gain(g, 1, "barge")
    gain(g, 1, "loading_platform")
    score_game_end(g)
    assert points(g, 1, "card_unused_blue") == 2


# ----------------------------------------------------------------------- Loading Platform
def test_loading_platform_to_an_occupied_dock():
    g = Game(3, expansion=True, scenario=True, round_cards=ONES)
    g.sled[0], g.quarry[0] = 4, g.quarry[0] - 2
    gain(g, 0, "loading_platform")
    apply(g, act("place", 0, 0))  # seat 0 on ship 0
    apply(g, act("sail", 0, "pyramid"))  # seat 1: pyramid space 1, 2 points to seat 0
    apply(g, act("place", 1, 0))  # seat 2 on ship 1
    # seat 0: ship 1 holds no stone of seat 0: the platform is not playable
    assert g.to_move == 0 and act("play", "loading_platform") not in g.options
    apply(g, act("place", 2, 0))  # seat 0 on ship 2
    apply(g, act("get"))  # seat 1
    apply(g, act("get"))  # seat 2
    assert act("play", "loading_platform") in g.options
    sled, quarry = g.sled[0], g.quarry[0]
    apply(g, act("play", "loading_platform"))
    assert g.kind == "platform_sail" and g.to_move == 0
    # only a ship with seat 0's stone, only to a dock already taken this round
    assert texts(g.options) == ["platform 2 pyramid"]
    assert g.sled[0] == sled and g.quarry[0] == quarry  # nothing moves until the choice
    apply(g, act("platform", 2, "pyramid"))
    assert g.sled[0] == sled - 1 and g.quarry[0] == quarry + 1  # 1 sled stone back
    assert g.dock_used[PYRAMID] == 2 and g.ship_dock[2] == PYRAMID  # the dock holds two ships
    assert points(g, 0, "pyramid") == 2 + 1  # unloads normally: pyramid space 2
    assert g.kind == "turn" and g.to_move == 1
    # no third ship at the pyramid by sailing: its dock is taken
    assert not any(str(a).endswith("pyramid") for a in g.options)
    gain(g, 1, "loading_platform")
    scenario.refresh_turn(g)
    apply(g, act("place", 3, 0))  # seat 1 on ship 3
    apply(g, act("sail", 1, "temple"))  # seat 2: its stone to the temple
    apply(g, act("get"))  # seat 0
    # but by another platform: "a un emplazamiento al que ya se haya enviado otro barco"
    # sets no limit, so the pyramid (2 ships) takes a third: pyramid space 3, 3 points.
    apply(g, act("play", "loading_platform"))  # seat 1
    assert texts(g.options) == ["platform 3 pyramid", "platform 3 temple"]
    apply(g, act("platform", 3, "pyramid"))
    assert points(g, 1, "pyramid") == 3 and g.round == 2  # the 4th ship: round 2 begins


def test_loading_platform_ship_needs_its_minimum():
    """Ruling (docs/rules.md §3.2): the platform "envía un barco", a Sail action to another
    destination, so the ship must hold its minimum: a size-4 ship with one stone of mine
    (minimum 3) cannot go."""
    g = Game(2, expansion=True, scenario=True, round_cards=[[4, 1, 1, 1]] * 6)
    gain(g, 0, "loading_platform")
    apply(g, act("place", 0, 0))  # seat 0 on the size-4 ship: 1 stone, below its minimum 3
    apply(g, act("place", 1, 0))  # seat 1 on ship 1
    apply(g, act("get"))  # seat 0
    apply(g, act("sail", 1, "temple"))  # seat 1: the temple has received a ship
    assert g.to_move == 0 and g.sled[0] >= 1
    assert act("play", "loading_platform") not in g.options


def test_loading_platform_needs_a_sled_stone_and_a_taken_dock():
    g = Game(3, expansion=True, scenario=True, round_cards=ONES)
    gain(g, 0, "loading_platform")
    g.put_on_ship(0, 0, 0)
    g.put_on_ship(0, 1, 0)
    g.sled[0] -= 1
    assert act("play", "loading_platform") not in scenario.turn_options(g, 0)  # no dock taken yet
    g.current = g.to_move = 1  # seat 1 sails ship 0 to the temple
    scenario.refresh_turn(g)
    apply(g, act("sail", 0, "temple"))
    assert act("play", "loading_platform") in scenario.turn_options(g, 0)
    g.quarry[0] += g.sled[0]
    g.sled[0] = 0
    assert act("play", "loading_platform") not in scenario.turn_options(g, 0)


def test_platform_sailing_the_fourth_ship_ends_the_round_once():
    """The 4th ship sailed by a card: the next start player moves once, not twice
    (regression: a card that asks at once used to end the turn under the question)."""
    g = Game(3, expansion=True, scenario=True, round_cards=ONES)
    g.sled[2], g.quarry[2] = 5, g.quarry[2] - 1
    g.sled[0], g.quarry[0] = 3, g.quarry[0] - 1
    gain(g, 2, "loading_platform")
    apply(g, act("place", 0, 0))  # seat 0
    apply(g, act("sail", 0, "temple"))  # seat 1
    apply(g, act("place", 3, 0))  # seat 2 on the last ship
    apply(g, act("place", 1, 0))  # seat 0
    apply(g, act("sail", 1, "burial_chamber"))  # seat 1
    apply(g, act("get"))  # seat 2
    apply(g, act("place", 2, 0))  # seat 0
    apply(g, act("sail", 2, "obelisk"))  # seat 1: 3 ships sailed
    assert g.to_move == 2
    apply(g, act("play", "loading_platform"))
    apply(g, act("platform", 3, "temple"))  # the 4th ship, by seat 2: round 1 ends
    assert g.round == 2 and g.start_player == 0 and g.to_move == 0 and g.kind == "turn"
    apply(g, g.options[0])
    assert g.to_move == 1  # seat 0 moved once


# ----------------------------------------------------------------------- conformance
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_with_the_expansion_cards(players):
    played = Counter()
    for seed in range(40):
        g = play_random(Game(players, "A-A-A-A-A", seed=seed, expansion=True), seed=seed)
        for p in range(players):
            played.update(k for k in g.hand[p])
        assert g.over
    assert played  # cards did reach the players' hands

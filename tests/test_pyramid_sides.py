"""Pyramid sides B, C and D (docs/rules.md §5.2-5.4), worked out by hand like a rulebook, and
each side's mechanics in random play (every side in random games: tests/test_conformance.py)."""

from __future__ import annotations

import pytest

from imhotep_stats.engine import act, scenario
from imhotep_stats.engine.actions import GET
from imhotep_stats.engine.game import Game, apply
from tests.helpers import play_random, points, unload

MARKET, PYRAMID, TEMPLE, BURIAL, OBELISK = range(5)

MARKET_A = ["statue"] * 4  # the Market A display of round 1 takes the top 4 cards
FILLER = [f"{site}_decoration" for site in ("pyramid", "temple", "burial_chamber", "obelisk")] * 2 + ["statue"] * 4
SIZES = [[4, 3, 2, 1]] * 6  # round cards: 10 slots, all empty at the start


def names(g: Game) -> list[str]:
    return [str(a) for a in g.options]


def to_pyramid(g: Game, owner: int, which: str) -> None:
    """A stone of ``owner`` to Pyramid B; its owner picks ``which`` if there is a choice."""
    unload(g, PYRAMID, owner)
    if g.kind == "pyramid_choice":
        assert g.to_move == owner
        apply(g, act("pyramid", which))


# ----------------------------------------------------------------------- Pyramid B (5.2)
def test_pyramid_b_left_points_card_bonus_and_choice_when_one_is_full():
    g = Game(3, "A-B-A-A-A", seed=1, scenario=True, deck=MARKET_A + ["lever"] + FILLER)
    py = g.sites[PYRAMID]
    unload(g, PYRAMID, 0)
    assert (g.kind, g.to_move) == ("pyramid_choice", 0)
    assert names(g) == ["pyramid left", "pyramid middle", "pyramid right"]
    apply(g, act("pyramid", "left"))
    for _ in range(4):
        to_pyramid(g, 0, "left")
    # Left, fill order: 2, 1 (+card: the lever), 3, 2, 4 = 12 points.
    assert points(g, 0, "pyramid") == 12
    assert g.hand[0] == {"lever": 1}
    assert py.pyramids == [[0, 0, 0, 0, 0], [], []]
    # The left pyramid is full: only the middle and the right are offered.
    unload(g, PYRAMID, 1)
    assert names(g) == ["pyramid middle", "pyramid right"]
    apply(g, act("pyramid", "right"))
    assert points(g, 1, "pyramid") == 3
    assert py.stones_of(0) == 5 and py.stones_of(1) == 1 and py.stones() == 6


def test_pyramid_b_stones3_bonus_is_capped_by_the_sled():
    g = Game(3, "A-B-A-A-A", seed=1)
    g.sled[1] = 4  # capacity 5: only 1 of the 3 stones fits
    q = g.quarry[1]
    to_pyramid(g, 1, "middle")
    # Middle, first space: 1 point + stones3.
    assert points(g, 1, "pyramid") == 1
    assert g.sled[1] == 5 and g.quarry[1] == q - 1


def test_pyramid_b_ship_bonus_owner_chooses_the_slot():
    g = Game(3, "A-B-A-A-A", seed=1, scenario=True, round_cards=SIZES)
    py = g.sites[PYRAMID]
    py.pyramids[1] = [2, 2, 2]  # the middle's 4th space is next: 2 points + ship
    py.count[2] = 3
    q = g.quarry[0]
    to_pyramid(g, 0, "middle")
    assert (g.kind, g.to_move) == ("pyramid_ship_slot", 0)
    assert names(g) == [f"ship {s} {k}" for s, n in enumerate([4, 3, 2, 1]) for k in range(n)]
    apply(g, act("ship", 2, 1))
    assert points(g, 0, "pyramid") == 2
    assert g.ship_slots[2] == [-1, 0] and g.ship_load[2] == 1
    assert g.quarry[0] == q - 1
    assert "place 2 1" not in names(g)  # the slot is taken for the turn actions too


def test_pyramid_b_ship_bonus_with_one_slot_or_nothing_possible():
    g = Game(3, "A-B-A-A-A", seed=1, scenario=True, round_cards=SIZES)
    py = g.sites[PYRAMID]
    # Every slot but ship 3's is taken: the bonus is carried out without a question.
    for s, n in enumerate([4, 3, 2]):
        for k in range(n):
            g.quarry[1] -= 1
            g.put_on_ship(1, s, k)
    py.pyramids[1] = [1, 1, 1]
    to_pyramid(g, 0, "middle")
    assert g.kind == "turn" and g.ship_slots[3] == [0]
    # No slot left: the ship bonus does nothing.
    py.pyramids[1] = [1, 1, 1]
    q = g.quarry[0]
    to_pyramid(g, 0, "middle")
    assert g.kind == "turn" and g.quarry[0] == q
    # Empty quarry, free slots: nothing either.
    g2 = Game(3, "A-B-A-A-A", seed=1, scenario=True, round_cards=SIZES)
    g2.sites[PYRAMID].pyramids[1] = [1, 1, 1]
    g2.quarry[0] = 0
    to_pyramid(g2, 0, "middle")
    assert g2.kind == "turn" and g2.ship_load == [0, 0, 0, 0]


def test_pyramid_b_forced_choice_then_overflow():
    g = Game(3, "A-B-A-A-A", seed=1, scenario=True, deck=MARKET_A + ["lever", "hammer"] + FILLER)
    py = g.sites[PYRAMID]
    py.pyramids[0] = [1] * 5
    py.pyramids[1] = [1] * 5
    py.open = [2]
    g.sled[2] = 0
    # Only the right pyramid is open: no question. Right: 3, 2, 1+card, 3, 3+stones3 = 12.
    for _ in range(5):
        unload(g, PYRAMID, 2)
        assert g.kind == "turn"
    assert points(g, 2, "pyramid") == 12
    assert g.hand[2] == {"lever": 1} and g.sled[2] == 3
    # All three full: overflow, 1 point per stone.
    unload(g, PYRAMID, 0)
    unload(g, PYRAMID, 0)
    assert points(g, 0, "pyramid") == 2 and py.overflow_owners == [0, 0]
    assert py.stones() == 7  # counted stones: 5 delivered on the right + 2 overflow


def test_pyramid_b_card_bonus_entrance_delivers_again_with_a_choice():
    # Left 2nd space gives a card: an Entrance, whose stone comes back to Pyramid B.
    g = Game(3, "A-B-A-A-A", seed=1, scenario=True, deck=MARKET_A + ["entrance"] + FILLER)
    py = g.sites[PYRAMID]
    py.pyramids[0] = [2]
    q = g.quarry[1]
    to_pyramid(g, 1, "left")  # 1 point + card
    assert (g.kind, g.to_move) == ("pyramid_choice", 1)
    apply(g, act("pyramid", "right"))  # 3 points
    assert points(g, 1, "pyramid") == 4
    assert g.quarry[1] == q - 1 and py.stones_of(1) == 2


# ----------------------------------------------------------------------- Pyramid C (5.3)
def scaffold(g: Game, first: int, then: list[int]):
    """Lay the scaffold out by hand: tile ``first`` face up, then ``then`` in order."""
    py = g.sites[PYRAMID]
    py.tile = first  # face up, nothing on it yet
    py.on_tile = []
    scenario.set_hidden(g, PYRAMID, "stack", list(reversed(then)))
    py.tiles_left = len(then)
    return py


def test_pyramid_c_setup_from_its_own_chance_stream():
    orders = set()
    for seed in range(20):
        g = Game(3, "A-C-A-A-A", seed=seed)
        py = g.sites[PYRAMID]
        # 5 tiles: 1 removed unseen, 4 in play, the top one face up.
        stack = [py.tile, *reversed(scenario.hidden(g, PYRAMID)["stack"])]
        assert len(stack) == 4 and len(scenario.hidden(g, PYRAMID)["removed"]) == 1
        assert sorted(stack + scenario.hidden(g, PYRAMID)["removed"]) == [0, 1, 2, 3, 4]
        assert py.tiles_left == 3 and py.on_tile == []
        orders.add(tuple(stack))
        # Same seed, same layout; the deal (round cards, deck) is untouched by it.
        g2 = Game(3, "A-C-A-A-A", seed=seed)
        again = g2.sites[PYRAMID]
        assert (again.tile, scenario.hidden(g2, PYRAMID)["stack"]) == \
            (py.tile, scenario.hidden(g, PYRAMID)["stack"])
        plain = Game(3, "A-A-A-A-A", seed=seed, expansion=True)
        assert plain.round_cards == g.round_cards and plain.deck == g.deck
    assert len(orders) > 10


def test_pyramid_c_rewards_majority_tie_turnover_and_overflow():
    g = Game(3, "A-C-A-A-A", seed=1, scenario=True, deck=MARKET_A + ["lever", "hammer"] + FILLER)
    py = scaffold(g, 0, [1, 2])
    g.sled = [0, 0, 0]
    # Tile 1 (p1, s2, p2, card), stones of seats 0, 1, 0, 2:
    #   seat 0: 1 + 2 = 3, then the majority (2 stones) 3 -> 6
    #   seat 1: 2 stones to the sled; seat 2: the top card (lever)
    for p in (0, 1, 0, 2):
        unload(g, PYRAMID, p)
    assert [points(g, p, "pyramid") for p in range(3)] == [6, 0, 0]
    assert g.sled[1] == 2 and g.hand[2] == {"lever": 1}
    assert py.done == [(0, [0, 1, 0, 2])]
    assert py.tile == 1 and py.tiles_left == 1 and py.on_tile == []
    # Tile 2 (p2, p1, card, p3), stones of seats 1, 2, 2, 1: seats 1 and 2 tie with 2 each.
    #   seat 1: 2 + 3 + tie 1 = 6; seat 2: 1 + card (hammer) + tie 1 = 2
    for p in (1, 2, 2, 1):
        unload(g, PYRAMID, p)
    assert [points(g, p, "pyramid") for p in range(3)] == [6, 6, 2]
    assert g.hand[2] == {"lever": 1, "hammer": 1}
    assert py.tile == 2 and py.tiles_left == 0
    # Tile 3, the last (s3, p2, p2, p1), seats 0, 0, 0, 1:
    #   seat 0: 3 stones (sled 0 -> 3), 2 + 2, majority 3 -> 6 + 7 = 13; seat 1: 1 -> 7
    for p in (0, 0, 0, 1):
        unload(g, PYRAMID, p)
    assert [points(g, p, "pyramid") for p in range(3)] == [13, 7, 2]
    assert g.sled[0] == 3
    assert py.tile == -1
    # All tiles used: overflow, 1 point each.
    unload(g, PYRAMID, 2)
    assert points(g, 2, "pyramid") == 3 and py.overflow_owners == [2]
    assert py.stones() == 13 and [py.stones_of(p) for p in range(3)] == [5, 4, 4]


def test_pyramid_c_four_way_tie_gives_one_point_each():
    g = Game(4, "A-C-A-A-A", seed=1)
    scaffold(g, 4, [0])
    # Tile 5 (p3, p1, s2, p2), one stone each: every player ties for most (1 point each).
    for p in range(4):
        unload(g, PYRAMID, p)
    assert [points(g, p, "pyramid") for p in range(4)] == [3 + 1, 1 + 1, 0 + 1, 2 + 1]
    assert g.sites[PYRAMID].tile == 0


def test_pyramid_c_card_reward_entrance_lands_on_the_next_tile():
    g = Game(3, "A-C-A-A-A", seed=1, scenario=True, deck=MARKET_A + ["entrance"] + FILLER)
    py = scaffold(g, 0, [1])
    # Seats 0, 0, 1, then seat 2 on the card space: an Entrance. The tile is full first
    # (seat 0's majority: 3), then the Entrance stone opens tile 2 (p2 for seat 2).
    for p in (0, 0, 1, 2):
        unload(g, PYRAMID, p)
    assert py.tile == 1 and py.on_tile == [2]
    assert [points(g, p, "pyramid") for p in range(3)] == [1 + 3, 2, 2]


# ----------------------------------------------------------------------- Pyramid D (5.4)
# Ring values clockwise from the start space: 1 3 1 2 4 1 2 3 1 5 2 1 3 2 4 1.
GET_MOVE = act("get", "move")


def test_pyramid_d_stones_go_after_the_figure():
    g = Game(3, "A-D-A-A-A", seed=1)
    py = g.sites[PYRAMID]
    assert py.figure == 0
    unload(g, PYRAMID, 0)  # space 1: 3 points
    unload(g, PYRAMID, 1)  # space 2: 1 point
    assert py.spaces[:4] == [-1, 0, 1, -1]
    assert [points(g, p, "pyramid") for p in range(3)] == [3, 1, 0]
    assert py.figure == 0  # stones never move the figure


def test_pyramid_d_get_move_is_a_turn_action_and_skips_taken_spaces():
    g = Game(3, "A-D-A-A-A", seed=1)
    py = g.sites[PYRAMID]
    # Seat 0 can get stones: both "get" and "get move" are offered.
    assert g.kind == "turn" and g.to_move == 0
    assert g.options[:2] == [GET, GET_MOVE]
    apply(g, GET_MOVE)
    assert py.figure == 1 and g.sled[0] == 5  # stones as for "get", and the figure moved
    unload(g, PYRAMID, 2)  # space 2: 1 point
    # Seat 1 moves the figure on: space 2 is taken, so it goes to space 3.
    assert g.to_move == 1
    apply(g, GET_MOVE)
    assert py.figure == 3
    unload(g, PYRAMID, 0)  # space 4: 4 points
    assert points(g, 2, "pyramid") == 1 and points(g, 0, "pyramid") == 4
    # Plain "get" leaves the figure where it is.
    apply(g, GET)
    assert py.figure == 3


def test_pyramid_d_wraps_around_fills_the_figure_space_last_then_overflow():
    g = Game(3, "A-D-A-A-A", seed=1)
    py = g.sites[PYRAMID]
    # Every space taken but 5 and 14; the figure stands on 14.
    py.spaces = [1] * 16
    py.spaces[5] = py.spaces[14] = -1
    py.filled = 14
    py.count[1] = 14
    py.figure = 14
    scenario.refresh_turn(g)
    assert GET_MOVE in g.options
    # Clockwise after 14: 15 and 0-4 are taken, so space 5 (1 point).
    unload(g, PYRAMID, 0)
    assert py.spaces[5] == 0 and points(g, 0, "pyramid") == 1
    # Only the figure's own space is free: the figure cannot move any more.
    assert g.options[0] is GET and GET_MOVE not in g.options
    # The next stone goes a full turn round, onto the figure's space (4 points).
    unload(g, PYRAMID, 2)
    assert py.spaces[14] == 2 and points(g, 2, "pyramid") == 4
    # Full: overflow.
    unload(g, PYRAMID, 2)
    assert points(g, 2, "pyramid") == 5 and py.overflow_owners == [2]
    assert py.stones() == 17


def test_pyramid_d_figure_move_to_the_next_free_space_wrapping():
    g = Game(3, "A-D-A-A-A", seed=1)
    py = g.sites[PYRAMID]
    py.spaces = [-1] * 16
    for i in (15, 0, 1):
        py.spaces[i] = 0
    py.filled = 3
    py.figure = 14
    scenario.refresh_turn(g)
    apply(g, GET_MOVE)  # seat 0 gets stones and moves the figure
    assert py.figure == 2


# ----------------------------------------------------------------------- random games
# Every pyramid side in random games, with every other site's sides: tests/test_conformance.py
# (its checks include stones() == sum of stones_of() at every site). Here: each side's own
# mechanics come up in random play.
@pytest.mark.parametrize("side", ["B", "C", "D"])
def test_pyramid_side_mechanics_come_up_in_random_games(side):
    kinds = set()
    tiles_done = 0

    def watch(g: Game) -> None:
        if g.over:
            return
        if g.kind != "turn":
            kinds.add(g.kind)
        elif any(a.args == ("move",) for a in g.options):
            kinds.add("get move")

    for i in range(50):
        g = Game(2 + i % 3, f"A-{side}-A-A-A", seed=f"pyramid{side}/{i}")
        play_random(g, i, watch=watch)
        py = g.sites[PYRAMID]
        assert py.stones() == sum(py.stones_of(p) for p in range(g.n))
        if side == "C":
            tiles_done = max(tiles_done, len(py.done))
    # The side's own mechanics were exercised.
    if side == "C":
        assert tiles_done >= 2
    else:
        assert {"B": "pyramid_choice", "D": "get move"}[side] in kinds


def test_pyramid_sides_read_their_numbers_from_the_data():
    from imhotep_stats.rules.board import default_board

    board = default_board().with_overrides(
        {
            "pyramid": {
                "B": {
                    "bonus": [
                        ["ship", "card", "", "", ""],
                        ["stones3", "", "", "ship", ""],
                        ["p2", "s1", "card", "", "stones3"],
                    ],
                    "overflow_points": 2,
                },
                "C": {"tiles_in_play": 2, "majority_points": 5, "overflow_points": 0},
                "D": {"points": [9, 3, 1, 2, 4, 1, 2, 3, 1, 5, 2, 1, 3, 2, 4, 7]},
            }
        }
    )
    g = Game(3, "A-B-A-A-A", seed=1, board=board, scenario=True, round_cards=SIZES)
    to_pyramid(g, 0, "left")  # 2 points + ship
    assert g.kind == "pyramid_ship_slot" and points(g, 0, "pyramid") == 2
    g = Game(3, "A-C-A-A-A", seed=1, board=board)
    py = g.sites[PYRAMID]
    assert py.tiles_left == 1 and len(scenario.hidden(g, PYRAMID)["removed"]) == 3
    g = Game(3, "A-D-A-A-A", seed=1, board=board)
    g.sites[PYRAMID].figure = 15
    unload(g, PYRAMID, 1)  # after the figure on 15: space 0, 9 points
    assert points(g, 1, "pyramid") == 9
    for side in "BCD":
        for i in range(6):
            play_random(Game(2 + i % 3, f"A-{side}-A-A-A", seed=i, board=board), seed=i)


def test_unknown_reward_in_the_data_names_its_place():
    from imhotep_stats.rules.board import default_board

    # refused with the override, before any game (rules/limits.py)
    with pytest.raises(ValueError, match=r"pyramid\.B\.bonus\[0\]\[1\]: expected a reward.*'gold'"):
        default_board().with_overrides(
            {
                "pyramid": {
                    "B": {
                        "bonus": [["", "gold", "", "", ""], ["", "", "", "", ""], ["", "", "", "", ""]]
                    }
                }
            }
        )

"""Base-game rule scenarios (docs/rules.md §1-3, A sides), worked out by hand like a rulebook."""

from __future__ import annotations

import pytest

from imhotep_stats.engine import act, scenario
from imhotep_stats.engine.game import PYRAMID, Game, IllegalAction, RulesError, apply
from imhotep_stats.engine.result import result_of
from imhotep_stats.engine.scenario import gain
from imhotep_stats.engine.scenario import score_cards as score_game_end
from tests.helpers import points

MARKET, TEMPLE, BURIAL, OBELISK = 0, 2, 3, 4


def deliver_all(g: Game, site: int, owners: list[int]) -> None:
    for o in owners:
        g.sites[site].deliver(g, o)


def settle(g: Game) -> None:
    """Run the tasks a hand-made change scheduled (the game then asks its next question)."""
    scenario.advance(g)


# ----------------------------------------------------------------------- setup (1, 1.1)
def test_setup_starting_stones_and_round_cards():
    g = Game(4, seed=3)
    # Sleds 2, 3, 4, 5 by seat from the player's 29 playable stones.
    assert g.sled == [2, 3, 4, 5]
    assert g.quarry == [27, 26, 25, 24]
    # 6 of the 7 four-player cards, each used once at most.
    pool = [tuple(c) for c in g.board.round_cards(4)]
    assert len(g.round_cards) == 6
    for c in g.round_cards:
        assert c in pool
    assert g.ship_sizes == g.round_cards[0]
    assert len(g.deck) + len(g.sites[MARKET].display) == 34


def test_player_count_and_sides_are_checked():
    with pytest.raises(RulesError, match="players"):
        Game(5)
    with pytest.raises(RulesError, match="sides"):
        Game(3, "A-A-A-A")
    with pytest.raises(RulesError, match="sides"):
        Game(3, "A-A-E-A-A")


def test_minimum_loads_of_ships():
    g = Game(2, scenario=True, round_cards=[[4, 3, 2, 1]] * 6)
    # sizes 4, 3, 2, 1 need 3, 2, 1, 1 stones to sail (1.1)
    assert g.ship_min == [3, 2, 1, 1]


# ----------------------------------------------------------------------- Pyramid A (5.1)
def test_pyramid_a_fill_order_and_overflow():
    g = Game(2)
    # 14 spaces score 2 1 3 2 4 3 2 1 3 2 3 1 3 4 (sum 34), then 1 per stone.
    deliver_all(g, PYRAMID, [0] * 14 + [1, 1])
    assert points(g, 0, "pyramid") == 34
    assert points(g, 1, "pyramid") == 2  # two overflow stones
    assert g.sites[PYRAMID].stones() == 16


# ----------------------------------------------------------------------- Temple A (6.1)
def test_temple_a_layers_and_round_scoring():
    g = Game(3)  # 5 columns with 3 players
    # Stones in order 0 1 2 0 1 | 2 0: the second layer covers columns 1 and 2.
    # Visible: col1 = seat 2, col2 = seat 0, col3 = seat 2, col4 = seat 0, col5 = seat 1.
    deliver_all(g, TEMPLE, [0, 1, 2, 0, 1, 2, 0])
    g.sites[TEMPLE].round_end(g)
    assert [points(g, p, "temple") for p in range(3)] == [2, 1, 2]
    # Next round, three more stones: 1 2 1 cover columns 3, 4, 5.
    # Visible: 2, 0, 1, 2, 1 -> seat 0: 1, seat 1: 2, seat 2: 2; totals 3, 3, 4.
    deliver_all(g, TEMPLE, [1, 2, 1])
    g.sites[TEMPLE].round_end(g)
    assert [points(g, p, "temple") for p in range(3)] == [3, 3, 4]


def test_temple_a_width_four_with_two_players():
    g = Game(2)
    # 4 columns: stones 0 0 0 0 1 -> visible 1 0 0 0.
    deliver_all(g, TEMPLE, [0, 0, 0, 0, 1])
    g.sites[TEMPLE].round_end(g)
    assert [points(g, p, "temple") for p in range(2)] == [3, 1]


# ----------------------------------------------------------------------- Burial A (7.1)
def test_burial_a_groups_across_columns():
    g = Game(3)
    # Filled column by column (top, middle, bottom):
    #   row 0:  0 0 2
    #   row 1:  0 1 2
    #   row 2:  1 1 2
    # seat 0: one group of 3 = 6; seat 1: one group of 3 = 6; seat 2: column of 3 = 6.
    deliver_all(g, BURIAL, [0, 0, 1, 0, 1, 1, 2, 2, 2])
    g.sites[BURIAL].game_end(g)
    assert [points(g, p, "burial_chamber") for p in range(3)] == [6, 6, 6]


def test_burial_a_several_groups_and_large_group():
    g = Game(2)
    # row 0: 0 1 0 0
    # row 1: 0 1 0 0
    # row 2: 0 1 0 1
    # seat 0: left column (3) = 6 and right block of 5 = 15 -> 21.
    # seat 1: column 2 (3) = 6 and the lone bottom-right stone = 1 -> 7.
    deliver_all(g, BURIAL, [0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 1])
    g.sites[BURIAL].game_end(g)
    assert [points(g, p, "burial_chamber") for p in range(2)] == [21, 7]


def test_burial_a_group_beyond_five():
    g = Game(2)
    # 7 connected stones: 15 for five, +2 for each further stone = 19.
    deliver_all(g, BURIAL, [0] * 7)
    g.sites[BURIAL].game_end(g)
    assert points(g, 0, "burial_chamber") == 19


# ----------------------------------------------------------------------- Obelisks A (8.1)
@pytest.mark.parametrize(
    ("players", "heights", "expected"),
    [
        (2, [3, 1], [10, 1]),
        (2, [2, 2], [5, 5]),  # (10 + 1) / 2 rounded down
        (2, [4, 0], [10, 0]),  # no stone, no points
        (3, [3, 3, 1], [9, 9, 1]),  # (12 + 6) / 2 each; third 1
        (3, [1, 2, 2], [1, 9, 9]),
        (3, [0, 0, 0], [0, 0, 0]),
        (4, [2, 2, 2, 0], [10, 10, 10, 0]),  # (15 + 10 + 5) / 3
        (4, [5, 4, 4, 1], [15, 7, 7, 1]),  # (10 + 5) / 2 = 7
        (4, [1, 1, 1, 1], [7, 7, 7, 7]),  # 31 / 4 rounded down
    ],
)
def test_obelisk_a_ranks_and_ties(players, heights, expected):
    g = Game(players)
    for p, h in enumerate(heights):
        deliver_all(g, OBELISK, [p] * h)
    g.sites[OBELISK].game_end(g)
    assert [points(g, p, "obelisk") for p in range(players)] == expected


# ----------------------------------------------------------------------- cards (3.1)
def test_red_cards_deliver_from_the_quarry():
    g = Game(2)
    q = g.quarry[1]
    gain(g, 1, "entrance")  # a stone from the quarry to the pyramid: first space, 2 points
    settle(g)
    assert g.quarry[1] == q - 1
    assert points(g, 1, "pyramid") == 2
    gain(g, 1, "paved_path")
    gain(g, 1, "sarcophagus")
    settle(g)
    assert g.sites[OBELISK].stones_of(1) == 1
    assert g.sites[BURIAL].stones_of(1) == 1
    assert g.discard.count("entrance") == 1  # base game: red cards are discarded


def test_red_card_with_empty_quarry_does_nothing():
    g = Game(2)
    g.quarry[0] = 0
    gain(g, 0, "entrance")
    settle(g)
    assert g.sites[PYRAMID].stones() == 0
    assert points(g, 0, "pyramid") == 0


def test_decorations_statues_and_unused_blue_cards():
    g = Game(3)
    # Pyramid: 7 stones of all colours -> 2 points per pyramid decoration (7 // 3).
    deliver_all(g, PYRAMID, [0, 1, 2, 0, 1, 2, 1])
    # Temple: 2 stones -> 0.  Obelisks: 6 stones -> 2.
    deliver_all(g, TEMPLE, [1, 1])
    deliver_all(g, OBELISK, [2] * 6)
    for name in ["pyramid_decoration", "pyramid_decoration", "temple_decoration", "obelisk_decoration"]:
        gain(g, 0, name)
    for _ in range(7):
        gain(g, 1, "statue")  # 7 statues: 15 + 2 + 2 = 19
    gain(g, 2, "chisel")
    gain(g, 2, "sail")  # two unused blue cards: 2 points
    g.round = g.rounds + 1
    score_game_end(g)
    # the same decoration twice scores twice: 2 + 2 + 0 + 2
    assert points(g, 0, "card_decoration") == 6
    assert points(g, 1, "card_statue") == 19
    assert points(g, 2, "card_unused_blue") == 2


@pytest.mark.parametrize(("k", "pts"), [(1, 1), (2, 3), (3, 6), (4, 10), (5, 15), (6, 17)])
def test_statue_table(k, pts):
    g = Game(2)
    for _ in range(k):
        gain(g, 0, "statue")
    score_game_end(g)
    assert points(g, 0, "card_statue") == pts


def test_decoration_counts_overflow_stones():
    g = Game(2)
    deliver_all(g, PYRAMID, [0] * 14 + [1] * 4)  # 18 stones, 4 of them overflow -> 6 points
    gain(g, 1, "pyramid_decoration")
    score_game_end(g)
    assert points(g, 1, "card_decoration") == 6


# ----------------------------------------------------------------------- turns (2.2)
def two_player_game(**kw) -> Game:
    return Game(2, scenario=True, round_cards=[[4, 3, 2, 1]] * 6, **kw)


def test_turn_options_order_and_any_slot_placement():
    g = two_player_game()
    opts = [str(a) for a in g.options]
    # Seat 0 has 2 stones on the sled: get, then a place action for each of the 10 slots.
    assert opts[0] == "get"
    assert opts[1:] == [f"place {s} {k}" for s, size in enumerate([4, 3, 2, 1]) for k in range(size)]


def test_sail_needs_minimum_and_free_dock():
    g = two_player_game()
    apply(g, act("place", 3, 0))  # seat 0 fills the 1-ship
    # seat 1 can sail ship 3 to any of the five docks
    assert [str(a) for a in g.options if a.kind == "sail"] == [
        "sail 3 market", "sail 3 pyramid", "sail 3 temple", "sail 3 burial_chamber", "sail 3 obelisk"]
    apply(g, act("sail", 3, "pyramid"))  # seat 0's stone: pyramid space 1 = 2 points
    assert points(g, 0, "pyramid") == 2
    assert g.current == 0
    apply(g, act("place", 2, 0))
    # ship 2 (size 2) needs 1 stone; the pyramid dock is taken for the round
    assert "sail 2 pyramid" not in [str(a) for a in g.options]
    assert "sail 2 temple" in [str(a) for a in g.options]


def test_get_new_stones_caps():
    g = two_player_game()
    # seat 0: sled 2, takes min(3, 5 - 2, quarry) = 3
    apply(g, act("get"))
    assert g.sled[0] == 5
    # seat 1: sled 3, takes 2
    apply(g, act("get"))
    assert g.sled[1] == 5
    assert "get" not in [str(a) for a in g.options]  # full sled: no get


def test_pass_only_when_nothing_else_is_legal():
    g = two_player_game()
    g.sled[0] = 0
    g.quarry[0] = 0
    scenario.refresh_turn(g)
    assert [str(a) for a in g.options] == ["pass"]
    g.quarry[0] = 1
    assert "pass" not in [str(a) for a in scenario.turn_options(g, 0)]


def test_full_cycle_of_passes_ends_the_round():
    g = two_player_game()
    for p in range(2):
        g.sled[p] = 0
        g.quarry[p] = 0
    scenario.refresh_turn(g)
    g.quarry[1] = 0
    apply(g, act("pass"))  # seat 0
    assert g.round == 1
    apply(g, act("pass"))  # seat 1 passes last: the round ends, seat 0 starts the next
    assert g.round == 2
    assert g.current == 0 and g.start_player == 0


def test_next_start_player_follows_the_player_who_sailed_the_fourth_ship():
    g = Game(3, scenario=True, round_cards=[[1, 1, 1, 1]] * 6)
    # seats 0, 1, 2 place on ships 0, 1, 2; seat 0 places on ship 3; then sails.
    for s, p in [(0, 0), (1, 1), (2, 2), (3, 0)]:
        assert g.current == p
        apply(g, act("place", s, 0))
    # seat 1 sails ship 0; seat 2 ship 1; seat 0 ship 2; seat 1 the 4th ship.
    for s, site in [(0, "temple"), (1, "obelisk"), (2, "burial_chamber"), (3, "pyramid")]:
        apply(g, act("sail", s, site))
    assert g.round == 2
    # the player clockwise of seat 1 (who sailed the 4th ship) starts round 2
    assert g.start_player == 2 and g.current == 2 and g.to_move == 2


def test_market_pick_is_the_stone_owners_decision():
    g = Game(2, scenario=True, round_cards=[[2, 1, 1, 1]] * 6,
             deck=["statue", "chisel", "entrance", "lever"] + ["statue"] * 9)
    apply(g, act("place", 0, 0))  # seat 0
    apply(g, act("place", 0, 1))  # seat 1
    q0, q1 = g.quarry
    apply(g, act("sail", 0, "market"))  # seat 0 sails; the bow stone (seat 0) picks first
    assert g.kind == "market_pick" and g.to_move == 0
    assert g.quarry[0] == q0 + 1  # the stone went back to its owner's quarry
    assert [str(a) for a in g.options] == ["take statue", "take chisel", "take entrance", "take lever"]
    apply(g, act("take", "chisel"))
    assert g.kind == "market_pick" and g.to_move == 1
    assert g.quarry[1] == q1 + 1
    apply(g, act("take", "entrance"))  # red: delivers at once (pyramid space 1: 2 points)
    assert points(g, 1, "pyramid") == 2
    assert g.hand[0] == {"chisel": 1}
    assert g.kind == "turn" and g.to_move == 1


# ----------------------------------------------------------------------- blue cards (3.1)
def blue_game(card: str, **kw) -> Game:
    g = Game(2, scenario=True, round_cards=[[4, 3, 2, 1]] * 6, **kw)
    gain(g, 0, card)
    scenario.refresh_turn(g)
    return g


def test_chisel_places_two_stones_on_one_or_two_ships():
    g = blue_game("chisel")
    apply(g, act("play", "chisel"))
    assert g.kind == "chisel_place"
    apply(g, act("place", 0, 0))
    apply(g, act("place", 2, 1))
    assert g.ship_slots[0][0] == 0 and g.ship_slots[2][1] == 0
    assert g.sled[0] == 0 and g.kind == "turn" and g.to_move == 1
    assert g.hand[0] == {}


def test_chisel_needs_two_stones():
    g = blue_game("chisel")
    g.sled[0] = 1
    assert "play chisel" not in [str(a) for a in scenario.turn_options(g, 0)]


def test_lever_lets_the_sailor_choose_the_unloading_order():
    g = Game(2, scenario=True, round_cards=[[4, 3, 2, 1]] * 6)
    apply(g, act("place", 0, 0))  # seat 0 bow
    apply(g, act("place", 0, 1))  # seat 1
    apply(g, act("place", 0, 2))  # seat 0
    gain(g, 1, "lever")
    scenario.refresh_turn(g)
    apply(g, act("play", "lever"))
    apply(g, act("sail", 0, "pyramid"))
    assert g.kind == "lever_unload" and g.to_move == 1
    # seat 1 unloads its own stone (slot 1) first: pyramid space 1 = 2 points
    apply(g, act("unload", 1))
    apply(g, act("unload", 2))  # seat 0: space 2 = 1
    apply(g, act("unload", 0))  # seat 0: space 3 = 3
    assert points(g, 1, "pyramid") == 2 and points(g, 0, "pyramid") == 4


def test_sail_card_places_then_sails_the_same_ship():
    g = blue_game("sail")
    # only ships that reach their minimum with one more stone: sizes 2 and 1 (min 1)
    apply(g, act("play", "sail"))
    assert {a.args[0] for a in g.options} == {2, 3}
    apply(g, act("place", 3, 0))
    assert [str(a) for a in g.options] == [f"sail 3 {s}" for s in
                                           ("market", "pyramid", "temple", "burial_chamber", "obelisk")]
    apply(g, act("sail", 3, "obelisk"))
    assert g.sites[OBELISK].stones_of(0) == 1


def test_hammer_gets_stones_then_places_one():
    g = blue_game("hammer")
    apply(g, act("play", "hammer"))  # sled 2 -> 5, then one stone must go on a ship
    assert g.sled[0] == 5 and g.kind == "hammer_place"
    apply(g, act("place", 1, 2))
    assert g.sled[0] == 4 and g.ship_slots[1][2] == 0


def test_hammer_not_playable_with_full_sled():
    g = blue_game("hammer")
    g.sled[0] = 5
    assert "play hammer" not in [str(a) for a in scenario.turn_options(g, 0)]


def test_illegal_action_is_refused():
    g = two_player_game()
    with pytest.raises(IllegalAction, match="legal"):
        apply(g, act("sail", 0, "market"))


# ----------------------------------------------------------------------- game end (2.5)
def test_tie_break_on_sled_then_shared_win():
    g = Game(3)
    g.totals = [30, 30, 30]
    g.sled = [2, 4, 4]
    g.round = g.rounds
    scenario.end_round(g, 0)  # the game ends: empty sites and no cards score nothing
    r = result_of(g)
    assert r.winners == [1, 2]
    assert r.win_share == [0.0, 0.5, 0.5]
    assert r.ranks == [3, 1, 1]


def test_whole_game_score_equals_sum_of_events():
    from tests.helpers import play_random

    g = play_random(Game(4, seed=11), seed=2)
    r = result_of(g)
    assert g.round == g.rounds + 1 and g.over
    for p in range(4):
        assert r.totals[p] == sum(r.by_source[p].values()) == sum(e[2] for e in g.events if e[0] == p)
        assert r.totals[p] == sum(r.by_round[p])


def test_hammer_with_pyramid_d_may_move_the_figure():
    # Hammer gets stones "as the action": on Pyramid D the player may move the figure too.
    g = Game(2, "A-D-A-A-A", scenario=True, round_cards=[[4, 3, 2, 1]] * 6)
    gain(g, 0, "hammer")
    scenario.refresh_turn(g)
    pyr = g.sites[PYRAMID]
    before = pyr.figure
    apply(g, act("play", "hammer"))
    assert g.kind == "hammer_get"
    assert [str(a) for a in g.options] == ["get", "get move"]
    apply(g, act("get", "move"))
    assert pyr.figure != before and g.sled[0] == 5 and g.kind == "hammer_place"


def test_points_for_a_seat_not_at_the_table_are_refused():
    """``score``, which every site's scoring calls, checks the seat: a site scoring seat -1 or
    seat n is a bug, refused with IndexError (never charged to another seat)."""
    g = Game(2, seed=1)
    for seat in (-1, 2, 5):
        with pytest.raises(IndexError, match=f"no seat {seat}"):
            g.score(seat, "temple", 1)
    assert g.totals == [0, 0]
    g.score(1, "temple", 0)  # no points: nothing to check, nothing scored
    g.score(1, "temple", 2)
    assert g.totals == [0, 2]

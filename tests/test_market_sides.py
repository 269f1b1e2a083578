"""Market sides B, C and D (docs/rules.md §4.2-4.4), worked out by hand like a rulebook, and
the sides' numbers read from the board data (every side in random games:
tests/test_conformance.py)."""

from __future__ import annotations

from imhotep_stats.engine import act, scenario
from imhotep_stats.engine.game import Game, apply
from tests.helpers import play_random, points, unload

MARKET, PYRAMID, TEMPLE, BURIAL, OBELISK = range(5)

FILLER = [f"{site}_decoration" for site in ("pyramid", "temple", "burial_chamber", "obelisk")] * 2 + ["statue"] * 4  # below the cards a test lays out, so the pile never runs dry


def names(g: Game) -> list[str]:
    return [str(a) for a in g.options]


# ----------------------------------------------------------------------- Market B (4.2)
def test_market_b_setup_display_and_hidden_pair():
    g = Game(
        3, "B-A-A-A-A", seed=1, scenario=True, deck=["statue", "chisel", "lever", "entrance", "hammer"] + FILLER
    )
    m = g.sites[MARKET]
    # 3 face-up cards, then the face-down pair of 2, dealt from the top of the pile.
    assert m.display == ["statue", "chisel", "lever"]
    assert m.hidden()["pair"] == ["entrance", "hammer"]
    assert m.pair_count == 2
    assert not hasattr(m, "pair")  # the pair's cards are only in a _hidden attribute


def test_market_b_take_pair_keep_one_discard_other():
    g = Game(3, "B-A-A-A-A", seed=1, scenario=True, deck=["statue", "chisel", "lever", "lever", "hammer"] + FILLER)
    m = g.sites[MARKET]
    q = g.quarry[1]
    unload(g, MARKET, 1)
    # The stone is back in seat 1's quarry before the pick; 3 face-up cards or the pair.
    assert g.quarry[1] == q + 1
    assert (g.kind, g.to_move) == ("market_pick", 1)
    assert names(g) == ["take statue", "take chisel", "take lever", "take pair"]
    apply(g, act("take", "pair"))
    # Seat 1 looks at the pair (lever, hammer), keeps one, discards the other.
    assert (g.kind, g.to_move) == ("market_keep", 1)
    assert names(g) == ["keep lever", "keep hammer"]
    apply(g, act("keep", "hammer"))
    assert g.hand[1] == {"hammer": 1}
    assert g.discard == ["lever"]
    assert m.pair_count == 0 and m.hidden()["pair"] == []
    # The next stone finds no pair any more.
    unload(g, MARKET, 2)
    assert names(g) == ["take statue", "take chisel", "take lever"]
    apply(g, act("take", "lever"))
    assert g.hand[2] == {"lever": 1}
    assert m.display == ["statue", "chisel"]


def test_market_b_pair_of_twins_is_no_choice_and_round_end_discards_all():
    g = Game(
        3, "B-A-A-A-A", seed=1, scenario=True, deck=["chisel", "chisel", "chisel", "statue", "statue"] + FILLER
    )
    m = g.sites[MARKET]
    unload(g, MARKET, 0)
    assert names(g) == ["take chisel", "take pair"]
    apply(g, act("take", "pair"))
    # Two statues: keeping one or the other is the same, so nothing is asked.
    assert g.kind == "turn"
    assert g.hand[0] == {"statue": 1} and g.discard == ["statue"]
    # Round end: the face-up cards left go to the discard pile.
    m.round_end(g)
    assert m.display == [] and g.discard == ["statue", "chisel", "chisel", "chisel"]


def test_market_b_empty_display_only_pair_left_is_taken_without_asking():
    g = Game(3, "B-A-A-A-A", seed=1, scenario=True, deck=["statue", "chisel", "lever", "sail", "hammer"] + FILLER)
    m = g.sites[MARKET]
    m.display = []
    unload(g, MARKET, 0)
    # The only option is the pair: taken at once, then the keep choice.
    assert (g.kind, names(g)) == ("market_keep", ["keep sail", "keep hammer"])
    apply(g, act("keep", "sail"))
    assert g.hand[0] == {"sail": 1}
    # Nothing left at all: the stone just goes back to the quarry.
    q = g.quarry[0]
    unload(g, MARKET, 0)
    assert g.kind == "turn" and g.quarry[0] == q + 1


def test_market_b_red_card_from_the_pair_delivers_to_pyramid_b():
    # Entrance kept from the pair: a quarry stone goes to Pyramid B, where its owner
    # chooses the pyramid (5.2): middle, first space = 1 point + stones3.
    g = Game(
        3, "B-B-A-A-A", seed=1, scenario=True, deck=["statue", "chisel", "lever", "entrance", "hammer"] + FILLER
    )
    g.sled[1] = 0
    q = g.quarry[1]
    unload(g, MARKET, 1)
    apply(g, act("take", "pair"))
    apply(g, act("keep", "entrance"))
    # The market stone came back (+1), the entrance stone left (-1).
    assert (g.kind, g.to_move) == ("pyramid_choice", 1)
    assert names(g) == ["pyramid left", "pyramid middle", "pyramid right"]
    apply(g, act("pyramid", "middle"))
    assert points(g, 1, "pyramid") == 1
    assert g.sled[1] == 3 and g.quarry[1] == q - 3
    assert g.sites[PYRAMID].pyramids[1] == [1]
    assert g.discard == ["hammer", "entrance"]  # base rules: the used red card is discarded


# ----------------------------------------------------------------------- Market C (4.3)
def test_market_c_coins_and_two_adjacent_cards_for_a_coin():
    g = Game(3, "C-A-A-A-A", seed=1, scenario=True, deck=["statue", "chisel", "statue", "lever"] + FILLER)
    m = g.sites[MARKET]
    assert m.coins == [2, 2, 2]
    assert m.display == ["statue", "chisel", "statue", "lever"]
    unload(g, MARKET, 0)
    # Two statues in spaces 0 and 2: which one is taken shapes later adjacency, so both
    # are offered; then the coin picks of two adjacent spaces.
    assert names(g) == [
        "take statue 0",
        "take statue 2",
        "take chisel",
        "take lever",
        "take 0 1",
        "take 1 2",
        "take 2 3",
    ]
    apply(g, act("take", 1, 2))
    assert m.coins == [1, 2, 2]
    assert g.hand[0] == {"chisel": 1, "statue": 1}
    assert m.display == ["statue", None, None, "lever"]
    # Spaces 0 and 3 are not adjacent: no coin pick left, single cards only.
    unload(g, MARKET, 0)
    assert names(g) == ["take statue", "take lever"]
    apply(g, act("take", "lever"))
    assert m.display == ["statue", None, None, None]


def test_market_c_no_coin_no_pair():
    g = Game(3, "C-A-A-A-A", seed=1, scenario=True, deck=["statue", "chisel", "sail", "lever"] + FILLER)
    m = g.sites[MARKET]
    m.coins[2] = 0
    unload(g, MARKET, 2)
    assert names(g) == ["take statue", "take chisel", "take sail", "take lever"]
    apply(g, act("take", "chisel"))
    assert g.hand[2] == {"chisel": 1}
    # With every coin spent, seat 1 (who had coins) gets single cards only too.
    m.coins = [0, 0, 0]
    unload(g, MARKET, 1)
    assert names(g) == ["take statue", "take sail", "take lever"]


def test_market_c_empty_display_draws_the_top_card_of_the_pile():
    g = Game(3, "C-A-A-A-A", seed=1, scenario=True, deck=["statue", "chisel", "sail", "lever", "hammer", "chisel"])
    m = g.sites[MARKET]
    m.display = [None] * 4
    m.left = 0
    q = g.quarry[1]
    unload(g, MARKET, 1)
    # No decision: seat 1 takes the top card of the draw pile (hammer).
    assert g.kind == "turn"
    assert g.hand[1] == {"hammer": 1} and g.quarry[1] == q + 1
    unload(g, MARKET, 1)
    assert g.hand[1] == {"hammer": 1, "chisel": 1}
    # Pile and discard pile both empty: nothing more.
    unload(g, MARKET, 1)
    assert g.hand[1] == {"hammer": 1, "chisel": 1} and g.quarry[1] == q + 3


def test_market_c_coin_pair_of_red_cards_delivers_both_left_first():
    # Entrance (Pyramid A: first space 2 points) and Sarcophagus (Burial Chamber A).
    g = Game(3, "C-A-A-A-A", seed=1, scenario=True, deck=["entrance", "sarcophagus", "statue", "lever"] + FILLER)
    q = g.quarry[0]
    unload(g, MARKET, 0)
    apply(g, act("take", 0, 1))
    assert g.sites[PYRAMID].stones_of(0) == 1 and g.sites[BURIAL].stones_of(0) == 1
    assert points(g, 0, "pyramid") == 2
    assert g.quarry[0] == q + 1 - 2
    assert g.red_kept[0] == 2  # a C side switches the expansion rules on: reds kept
    assert g.sites[MARKET].coins[0] == 1


def test_market_c_round_end_discards_and_refills():
    g = Game(
        3,
        "C-A-A-A-A",
        seed=1,
        scenario=True,
        deck=["statue", "chisel", "sail", "lever", "hammer", "barge"] + FILLER,
    )
    m = g.sites[MARKET]
    unload(g, MARKET, 0)
    apply(g, act("take", "chisel"))
    m.round_end(g)
    assert m.display == [None] * 4 and g.discard == ["statue", "sail", "lever"]
    m.round_start(g)
    assert m.display == ["hammer", "barge", *FILLER[:2]] and m.left == 4


# ----------------------------------------------------------------------- Market D (4.4)
D_DECK = [
    "statue",
    "lever",
    "chisel",
    "sail",
    "hammer",
    "entrance",
    "paved_path",
    "chisel",
    "barge",
    "cargo_sled",
    "stone_ornament",
]


def test_market_d_setup_singles_and_hidden_stacks():
    g = Game(3, "D-A-A-A-A", seed=1, scenario=True, deck=D_DECK + FILLER)
    m = g.sites[MARKET]
    # Two face-up singles, then two face-down stacks of 3.
    assert m.display == ["statue", "lever"]
    assert m.hidden()["stacks"] == [["chisel", "sail", "hammer"], ["entrance", "paved_path", "chisel"]]
    assert m.stack_count == [3, 3]


def test_market_d_stack_look_keep_one_rest_back_face_down():
    g = Game(3, "D-A-A-A-A", seed=1, scenario=True, deck=D_DECK + FILLER)
    m = g.sites[MARKET]
    unload(g, MARKET, 0)
    assert names(g) == ["take statue", "take lever", "take stack 0", "take stack 1"]
    apply(g, act("take", "stack", 0))
    assert (g.kind, g.to_move) == ("market_keep", 0)
    assert names(g) == ["keep chisel", "keep sail", "keep hammer"]
    apply(g, act("keep", "sail"))
    assert g.hand[0] == {"sail": 1}
    assert m.hidden()["stacks"][0] == ["chisel", "hammer"] and m.stack_count == [2, 3]
    # The next owner may take the rest of this stack: only two cards to choose from.
    unload(g, MARKET, 1)
    apply(g, act("take", "stack", 0))
    assert names(g) == ["keep chisel", "keep hammer"]
    apply(g, act("keep", "hammer"))
    assert m.hidden()["stacks"][0] == ["chisel"]
    # A face-up single.
    unload(g, MARKET, 2)
    apply(g, act("take", "lever"))
    assert m.display == ["statue"] and g.hand[2] == {"lever": 1}


def test_market_d_stacks_persist_and_are_refilled_across_rounds():
    g = Game(3, "D-A-A-A-A", seed=1, scenario=True, deck=D_DECK + FILLER)
    m = g.sites[MARKET]
    unload(g, MARKET, 0)
    apply(g, act("take", "stack", 1))
    apply(g, act("keep", "chisel"))
    # Round end: the face-up cards left are discarded; the stacks stay as they are.
    m.round_end(g)
    assert m.display == [] and g.discard == ["statue", "lever"]
    assert m.hidden()["stacks"] == [["chisel", "sail", "hammer"], ["entrance", "paved_path"]]
    # Round start: 2 new singles (barge, cargo sled), stack 1 refilled to 3 (stone ornament).
    m.round_start(g)
    assert m.display == ["barge", "cargo_sled"]
    assert m.hidden()["stacks"] == [
        ["chisel", "sail", "hammer"],
        ["entrance", "paved_path", "stone_ornament"],
    ]
    assert m.stack_count == [3, 3]


def test_market_d_red_card_kept_from_a_stack_delivers_to_the_obelisks():
    g = Game(3, "D-A-A-A-A", seed=1, scenario=True, deck=D_DECK + FILLER)
    q = g.quarry[2]
    unload(g, MARKET, 2)
    apply(g, act("take", "stack", 1))
    apply(g, act("keep", "paved_path"))
    # Paved Path: a quarry stone to Obelisks A; the market stone came back first.
    assert g.sites[OBELISK].stones_of(2) == 1
    assert g.quarry[2] == q
    assert g.red_kept[2] == 1
    assert g.sites[MARKET].hidden()["stacks"][1] == ["entrance", "chisel"]


def test_market_d_empty_market_is_no_decision():
    g = Game(3, "D-A-A-A-A", seed=1, scenario=True, deck=D_DECK + FILLER)
    m = g.sites[MARKET]
    m.display = []
    scenario.set_hidden(g, MARKET, "stacks", [[], ["lever"]])
    m.stack_count = [0, 1]
    unload(g, MARKET, 0)
    # Only stack 1 is left and it holds one card: taken, no question.
    assert g.kind == "turn" and g.hand[0] == {"lever": 1} and m.stack_count == [0, 0]
    q = g.quarry[0]
    unload(g, MARKET, 0)
    assert g.kind == "turn" and g.quarry[0] == q + 1


# ----------------------------------------------------------------------- board data
# Every market side in random games, with every other site's sides: tests/test_conformance.py.
def test_market_sides_read_their_numbers_from_the_data():
    from imhotep_stats.rules.board import default_board

    board = default_board().with_overrides(
        {
            "market": {
                "B": {"display": 2, "hidden_pair": 3},
                "C": {"display": 5, "coins": 1},
                "D": {"display": 1, "stacks": 3, "stack_size": 2},
            }
        }
    )
    deck = ["statue", "chisel", "lever", "sail", "hammer", "barge", "cargo_sled"] + FILLER
    b = Game(3, "B-A-A-A-A", seed=1, board=board, expansion=True, scenario=True, deck=deck).sites[MARKET]
    assert b.display == ["statue", "chisel"] and b.hidden()["pair"] == ["lever", "sail", "hammer"]
    c = Game(3, "C-A-A-A-A", seed=1, board=board, scenario=True, deck=deck).sites[MARKET]
    assert c.display == deck[:5] and c.coins == [1, 1, 1]
    d = Game(3, "D-A-A-A-A", seed=1, board=board, scenario=True, deck=deck).sites[MARKET]
    assert d.display == ["statue"]
    assert d.hidden()["stacks"] == [["chisel", "lever"], ["sail", "hammer"], ["barge", "cargo_sled"]]
    for side in "BCD":
        for i in range(6):
            play_random(Game(2 + i % 3, f"{side}-A-A-A-A", seed=i, board=board), seed=i)

"""The small counters: the core keeps them in fixed-size arrays; the game (engine/game.py)
shows them as lists whose item and whole writes go back to the core before its next step.
A reader, a test or a scenario sees and writes lists, a copy's rows are its own, and a write
the core cannot hold is refused by name, not kept."""

from __future__ import annotations

import pytest

from imhotep_stats.engine.game import Game, apply

SEAT_ROWS = ("sled", "quarry", "sled_cap", "blue", "totals")
SHIP_ROWS = ("ship_min", "ship_load", "ship_dock")


def _game(players: int = 3) -> Game:
    return Game(seed=5, players=players)


def sent(g: Game) -> None:
    """Send what was written to the core, as its next step does (a refused write raises)."""
    g.core  # noqa: B018  (the property sends)


def test_rows_read_as_lists_of_the_games_size():
    g = _game(3)
    for name in SEAT_ROWS:
        row = getattr(g, name)
        assert isinstance(row, list) and len(row) == 3, name
    for name in SHIP_ROWS:
        assert len(getattr(g, name)) == 4, name
    assert len(g.dock_used) == 5
    assert [len(slots) for slots in g.ship_slots] == list(g.ship_sizes)
    # the starting sleds (docs/rules.md §1.1: 2, 3, 4, 5 stones by seat) and the quarries
    assert g.sled == [2, 3, 4] and g.totals == [0, 0, 0]
    assert [g.sled[p] + g.quarry[p] for p in range(3)] == [g.stones_total] * 3


def test_item_writes_and_whole_assignments_reach_the_game():
    g = _game(3)
    g.sled[1] = 0
    g.quarry[2] -= 1
    assert g.sled == [2, 0, 4] and g.quarry[2] == g.stones_total - 4 - 1
    g.totals = [30, 30, 29]
    assert g.totals == [30, 30, 29] and max(g.totals) == 30
    g.ship_slots[0][0] = 1  # a stone of seat 1 on ship 0's first slot
    assert g.ship_slots[0][0] == 1
    g.dock_used[3] = 2
    assert g.dock_used == [0, 0, 0, 2, 0]


def test_the_engine_plays_on_what_a_test_wrote():
    """docs/rules.md §2.2: "Place a stone" is allowed when "the sled is not empty"; "Get new
    stones" moves "up to 3 stones from the quarry to the sled". With seat 0's sled emptied by
    hand before its first turn's options are read, no place action is offered, and a get
    puts 3 stones on the empty sled (capacity 5, a full quarry)."""
    g = _game(2)
    g.sled[0] = 0
    opts = [str(a) for a in g.options]
    assert opts and not any(a.startswith("place") for a in opts), opts
    get = [a for a in g.options if str(a) == "get"]
    apply(g, get[0])
    assert g.sled[0] == 3  # a get moves 3 stones (docs/rules.md §2.2) onto the empty sled


def test_a_clone_owns_its_rows():
    g = _game(3)
    c = g.copy()
    c.sled[0] = 0
    c.totals[1] = 7
    c.ship_slots[1][0] = 2
    assert g.sled[0] == 2 and g.totals[1] == 0 and g.ship_slots[1][0] == -1
    assert c.sled[0] == 0 and c.totals[1] == 7 and c.ship_slots[1][0] == 2


def test_a_row_too_long_is_refused_by_name():
    # refused when the write reaches the core (its next step), nothing kept
    g = _game(2)
    g.sled = [1, 2, 3, 4, 5]
    with pytest.raises(ValueError, match="sled: expected 2 items, got 5"):
        sent(g)
    assert g.sled == [2, 3]
    g.ship_slots[2] = [-1] * 5
    with pytest.raises(ValueError, match="ship 2: at most 4 slots"):
        sent(g)


# The hands: one row of card counts per seat; the public ``g.hand`` is a list of dicts by name
# whose writes go back to the game.
def test_hands_read_by_name_and_write_back():
    from imhotep_stats.engine import scenario as cards

    g = _game(3)
    assert g.hand == [{}, {}, {}]
    cards.gain(g, 1, "statue")
    cards.gain(g, 1, "statue")
    cards.gain(g, 2, "chisel")
    assert g.hand == [{}, {"statue": 2}, {"chisel": 1}]
    g.hand[1]["statue"] = 1  # a count written
    g.hand[0] = {"hammer": 2}  # a seat's hand set whole
    del g.hand[2]["chisel"]  # a card taken away
    assert g.hand == [{"hammer": 2}, {"statue": 1}, {}]
    c = g.copy()
    c.hand[0]["hammer"] = 0
    sent(c)  # the write reaches the core, which reads the hand back
    assert c.hand[0] == {} and g.hand[0] == {"hammer": 2}  # a copy's hands are its own
    g.hand[1] = {"joker": 1}
    with pytest.raises(ValueError, match='hand: unknown card "joker"'):
        sent(g)
    assert g.hand[1] == {"statue": 1}  # nothing changed by the refused write


def test_what_a_board_shows_is_read_off_it_not_kept():
    # Market D's stack sizes are the stacks' (a scenario sets the stacks); Obelisk D's free
    # obelisks are those without an owner. A count that disagrees is refused, not kept.
    from imhotep_stats.engine import scenario

    g = Game(3, "D-A-A-A-D", seed=1, scenario=True)
    m = g.sites[0]
    scenario.set_hidden(g, 0, "stacks", [[], ["lever"]])
    sent(g)  # the stacks reach the core
    assert m.stack_count == [0, 1]
    m.stack_count = [0, 1]  # agrees with the stacks: nothing to change
    sent(g)
    m.stack_count = [2, 1]
    with pytest.raises(ValueError, match=r"market.D: stack_count \[2, 1\] is not the stacks' sizes \[0, 1\]"):
        sent(g)
    assert m.stack_count == [0, 1]
    o = g.sites[4]
    assert o.free == list(range(len(o.owner)))
    o.owner[1] = 2  # seat 2 claims obelisk 1
    sent(g)
    assert 1 not in o.free and o.free[0] == 0
    assert g.copy().sites[4].free == o.free

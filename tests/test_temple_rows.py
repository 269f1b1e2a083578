"""The Temple's boards as the core holds them (fixed-size rows), shown by the game
(engine/game.py) as lists that take item and whole writes; a copy owns its rows; a board or
a write larger than the rows is refused by name."""

from __future__ import annotations

from dataclasses import replace

import pytest

from imhotep_stats.engine.game import TEMPLE, Game


def sent(g: Game) -> None:
    """Send what was written to the core, as its next step does (a refused write raises)."""
    g.core  # noqa: B018  (the property sends)


def test_layered_owners_read_write_and_copy():
    g = Game(3, "A-A-A-A-A", seed=1)
    t = g.sites[TEMPLE]
    for o in (0, 1, 2, 0):
        t.deliver(g, o)
    assert t.owners == [0, 1, 2, 0] and t.stones() == 4 and t.stones_of(0) == 2
    copy = g.copy()
    c = copy.sites[TEMPLE]
    t.owners[1] = 2  # an item write reaches the site
    sent(g)
    assert t.owners == [0, 2, 2, 0] and t.stones_of(2) == 2
    assert c.owners == [0, 1, 2, 0]  # the copy's row is its own
    c.deliver(copy, 1)
    assert c.owners == [0, 1, 2, 0, 1] and t.owners == [0, 2, 2, 0]
    t.owners = [0] * 1000
    with pytest.raises(ValueError, match=r"temple\.A: owners: at most \d+ items"):
        sent(g)
    assert t.owners == [0, 2, 2, 0]


def test_arena_rows_read_write_and_copy():
    g = Game(3, "A-A-D-A-A", seed=1)
    a = g.sites[TEMPLE]
    a.deliver(g, 0)
    a.deliver(g, 1)
    copy = g.copy()
    c = copy.sites[TEMPLE]
    a.chariots[2] = 5
    a.count = [4, 0, 1]
    sent(g)
    assert a.chariots == [1, 2, 5] and a.count == [4, 0, 1] and a.stones_of(0) == 4
    assert c.chariots == [1, 2, 0] and c.count == [1, 1, 0] and c.spaces == [0, 1]
    a.spaces = [1] * len(a.data["arrowheads"])
    a.deliver(g, 2)
    assert a.overflow == [2] and a.stones() == len(a.data["arrowheads"]) + 1
    assert c.overflow == [] and c.stones() == 2


def test_arena_spaces_beyond_the_boards_refused():
    g = Game(3, "A-A-D-A-A", seed=1)
    a = g.sites[TEMPLE]
    a.spaces = [0] * (len(a.data["arrowheads"]) + 1)
    with pytest.raises(ValueError, match=r"temple\.D.*spaces"):  # 12 stone spaces
        sent(g)


def test_arena_spaces_beyond_the_rows_refused_by_key():
    # an override keeps the board's 12 spaces (rules/board.py); a board edit could not
    g = Game(3, "A-A-D-A-A", seed=1)
    data = g.sites[TEMPLE].data
    more = replace(data, values={**data.values, "arrowheads": [1] * 1000})
    board = replace(g.board, sides={**g.board.sides, "temple.D": more})
    with pytest.raises(ValueError, match=r"temple\.D\.arrowheads: at most \d+ stone spaces"):
        Game(3, "A-A-D-A-A", seed=1, board=board)

"""The Temple's boards as rows (engine/rows.py): compiled C rows whose public names read as
lists and take item and whole writes; a copy owns its rows; a board larger than the rows is
refused by name."""

from __future__ import annotations

from dataclasses import replace

import pytest

from imhotep_stats.engine.game import TEMPLE, Game
from imhotep_stats.engine.sites.temple import LAYERED, SPACES


def test_layered_owners_read_write_and_copy():
    g = Game(3, "A-A-A-A-A", seed=1)
    t = g.sites[TEMPLE]
    for o in (0, 1, 2, 0):
        t.deliver(g, o)
    assert t.owners == [0, 1, 2, 0] and t.stones() == 4 and t.stones_of(0) == 2
    c = t.copy()
    t.owners[1] = 2  # an item write reaches the site
    assert t.owners == [0, 2, 2, 0] and t.stones_of(2) == 2
    assert c.owners == [0, 1, 2, 0]  # the copy's row is its own
    c.deliver(g, 1)
    assert c.owners == [0, 1, 2, 0, 1] and t.owners == [0, 2, 2, 0]
    with pytest.raises(ValueError, match=f"temple: at most {LAYERED} stones"):
        t.owners = [0] * (LAYERED + 1)


def test_arena_rows_read_write_and_copy():
    g = Game(3, "A-A-D-A-A", seed=1)
    a = g.sites[TEMPLE]
    a.deliver(g, 0)
    a.deliver(g, 1)
    c = a.copy()
    a.chariots[2] = 5
    a.count = [4, 0, 1]
    assert a.chariots == [1, 2, 5] and a.count == [4, 0, 1] and a.stones_of(0) == 4
    assert c.chariots == [1, 2, 0] and c.count == [1, 1, 0] and c.spaces == [0, 1]
    a.spaces = [1] * len(a.arrowheads)
    a.deliver(g, 2)
    assert a.overflow == [2] and a.stones() == len(a.arrowheads) + 1
    assert c.overflow == [] and c.stones() == 2
    with pytest.raises(ValueError, match="temple.D: 12 stone spaces"):
        a.spaces = [0] * 13


def test_arena_spaces_beyond_the_rows_refused_by_key():
    # an override keeps the board's 12 spaces (rules/board.py); a board edit could not
    g = Game(3, "A-A-D-A-A", seed=1)
    data = g.sites[TEMPLE].data
    more = replace(data, values={**data.values, "arrowheads": [1] * (SPACES + 1)})
    with pytest.raises(ValueError, match=f"temple.D.arrowheads: at most {SPACES} stone spaces"):
        type(g.sites[TEMPLE])(g, TEMPLE, more)

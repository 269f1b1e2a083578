"""Burial Chamber sides B, C and D (docs/rules.md §7.2-7.4): hand-built states, points worked out
by hand (the rulebook's own mound example included), and the Tomb's bookkeeping in random
games (every side in random games: tests/test_conformance.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from imhotep_stats.engine.actions import act
from imhotep_stats.engine.game import BURIAL_CHAMBER, Game, apply
from tests.helpers import play_random, points_by_seat, where


def burial_points(g: Game) -> list[int]:
    return points_by_seat(g, "burial_chamber")


# ------------------------------------------------------------------------ Burial B
def rows_to_owners(rows: list[list[int]]) -> list[int]:
    """Stones in delivery order (column by column: top, middle, bottom) from the rows."""
    return [rows[i % len(rows)][i // len(rows)] for i in range(len(rows) * len(rows[0]))]


def burial_b(players: int, rows: list[list[int]]):
    g = Game(players, "A-A-A-B-A", seed=1)
    b = g.sites[BURIAL_CHAMBER]
    for o in rows_to_owners(rows):
        g.quarry[o] -= 1
        b.deliver(g, o)  # placed as side A: column by column
    cells = b.cells()  # (row, column) -> owner
    counts = [[sum(1 for (r, _), o in cells.items() if r == i and o == p) for p in range(players)]
              for i in range(len(rows))]
    assert counts == [[row.count(p) for p in range(players)] for row in rows]
    return g, b


@pytest.mark.parametrize(
    "players, rows, expected",
    [
        # Row points 8 4 2 0 by rank; ties add the ranks' points and share, rounded down.
        (
            2,
            [
                [0, 1, 0, 1],  # 2-2 tie for first: (8+4)//2 = 6 each
                [0, 0, 0, 1],  # seat 0: 8, seat 1: 4
                [1, 1, 1, 1],  # seat 1: 8; seat 0 has no stone: 0
            ],
            [14, 18],
        ),
        (
            3,
            [
                [0, 0, 1, 1],  # seats 0, 1 tie for first: 6 each; seat 2 no stone: 0
                [0, 1, 2, 2],  # seat 2: 8; seats 0, 1 tie for second: (4+2)//2 = 3 each
                [2, 2, 2, 2],  # seat 2: 8
            ],
            [9, 9, 16],
        ),
        (
            4,
            [
                [0, 1, 2, 3, 0, 0],  # seat 0: 8; seats 1, 2, 3 tie for 2nd-4th: (4+2+0)//3 = 2
                [0, 0, 1, 2, 3, 3],  # seats 0, 3 tie first: 6 each; seats 1, 2 third: (2+0)//2 = 1
                [1, 2, 3, 1, 2, 3],  # seats 1, 2, 3 tie first: (8+4+2)//3 = 4; seat 0: 0
            ],
            [14, 7, 7, 12],
        ),
        (
            4,
            [[0, 1, 2, 3], [0, 0, 1, 1], [2, 2, 2, 2]],
            # row 0: 4-way tie (8+4+2+0)//4 = 3 each; row 1: seats 0, 1 tie 6 each;
            # row 2: seat 2 8.
            [9, 9, 11, 3],
        ),
    ],
)
def test_burial_b_row_ranking(players, rows, expected):
    g, b = burial_b(players, rows)
    b.game_end(g)
    assert burial_points(g) == expected
    assert b.stones() == sum(map(len, rows))


def test_burial_b_placement_as_a():
    g = Game(3, "A-A-A-B-A", seed=1)
    b = g.sites[BURIAL_CHAMBER]
    for o in (2, 1, 0, 2):
        b.deliver(g, o)
    assert b.cells() == {(0, 0): 2, (1, 0): 1, (2, 0): 0, (0, 1): 2}
    b.game_end(g)  # each row: one player alone with stones, 8 each; seat 2: rows 0 only
    assert burial_points(g) == [8, 8, 8]


# ------------------------------------------------------------------------ Burial C (mound)
def mound_of(g: Game):
    return g.sites[BURIAL_CHAMBER]


def spaces(m) -> list[tuple[int, int]]:
    """The mound's spaces (level, index) in the order of ``m.owner``: level by level."""
    return [(lv, i) for lv, size in enumerate(m.data["levels"]) for i in range(size)]


def areas(m) -> list[tuple[int, int, int]]:
    """Connected areas of one colour on the mound: (owner, stones, levels spanned); a space
    touches its two neighbours on its level and the two below and the two above it."""
    owner = dict(zip(spaces(m), m.owner, strict=True))
    seen: set[tuple[int, int]] = set()
    out = []
    for start, o in owner.items():
        if o < 0 or start in seen:
            continue
        seen.add(start)
        stack, size, levels = [start], 0, set()
        while stack:
            lv, i = stack.pop()
            size += 1
            levels.add(lv)
            for nb in ((lv, i - 1), (lv, i + 1), (lv - 1, i), (lv - 1, i + 1), (lv + 1, i - 1), (lv + 1, i)):
                if nb not in seen and owner.get(nb) == o:
                    seen.add(nb)
                    stack.append(nb)
        out.append((o, size, max(levels) - min(levels) + 1))
    return out


def put(g: Game, m, owner: int, level: int, index: int) -> None:
    """Deliver a stone of ``owner`` and choose (level, index) (or check it was the only one)."""
    g.quarry[owner] -= 1
    m.deliver(g, owner)
    if g.kind == "mound_space":
        assert g.to_move == owner
        apply(g, act("mound", level, index))
    assert m.owner[spaces(m).index((level, index))] == owner


def test_mound_support_rule():
    g = Game(3, "A-A-A-C-A", seed=1)
    m = mound_of(g)
    m.deliver(g, 0)
    assert (g.kind, g.to_move) == ("mound_space", 0)
    assert [str(a) for a in g.options] == [f"mound 0 {i}" for i in range(5)]
    apply(g, act("mound", 0, 1))
    m.deliver(g, 1)
    # (1, 0) rests on (0, 0) and (0, 1): (0, 0) is still free, so only bottom spaces.
    assert [str(a) for a in g.options] == ["mound 0 0", "mound 0 2", "mound 0 3", "mound 0 4"]
    apply(g, act("mound", 0, 2))
    m.deliver(g, 2)
    # (1, 1) rests on (0, 1) and (0, 2), both filled (any colours): now legal.
    assert [str(a) for a in g.options] == ["mound 0 0", "mound 0 3", "mound 0 4", "mound 1 1"]
    apply(g, act("mound", 1, 1))
    assert m.owner[:6] == [-1, 0, 1, -1, -1, -1] and m.owner[6] == 2
    assert m.stones() == 3 and [m.stones_of(p) for p in range(3)] == [1, 1, 1]


def test_mound_rulebook_example_24_and_1():
    """The rulebook's example: black's six connected stones over all five levels score
    6 x 4 = 24 (levels capped at 4), black's lone stone 1 x 1 = 1.

        level 4:          B
        level 3:        B   W
        level 2:      B   W   G
        level 1:    B   W   G   G
        level 0:  B   B   W   G   B

    Black (seat 0): (0,0) (0,1) (1,0) (2,0) (3,0) (4,0) = 6 stones, 5 levels: 24; (0,4)
    alone (its neighbours (0,3) and (1,3) are grey): 1. White (seat 1): (0,2) (1,1) (2,1)
    (3,1) = 4 stones, 4 levels: 16. Grey (seat 2): (0,3) (1,2) (1,3) (2,2) = 4 stones,
    3 levels: 12.
    """
    g = Game(3, "A-A-A-C-A", seed=1)
    m = mound_of(g)
    layout = {
        (0, 0): 0, (0, 1): 0, (0, 2): 1, (0, 3): 2, (0, 4): 0,
        (1, 0): 0, (1, 1): 1, (1, 2): 2, (1, 3): 2,
        (2, 0): 0, (2, 1): 1, (2, 2): 2,
        (3, 0): 0, (3, 1): 1,
        (4, 0): 0,
    }  # fmt: skip
    for (lv, i), o in layout.items():  # level by level: every support is filled in time
        put(g, m, o, lv, i)
    assert sorted(areas(m)) == [(0, 1, 1), (0, 6, 5), (1, 4, 4), (2, 4, 3)]
    # The mound is full: the next stone is overflow, 1 point at once, no question.
    assert m.open == []
    m.deliver(g, 1)
    assert g.kind == "turn"
    assert burial_points(g) == [0, 1, 0]
    assert m.overflow == [0, 1, 0] and m.stones() == 16 and m.stones_of(1) == 5
    m.game_end(g)
    assert burial_points(g) == [24 + 1, 16 + 1, 12]


def test_mound_only_legal_space_is_taken_without_a_question():
    g = Game(3, "A-A-A-C-A", seed=1)
    m = mound_of(g)
    m.owner = [1] * 14 + [-1]  # everything but the top
    m.open = [14]
    m.deliver(g, 2)
    assert g.kind == "turn" and m.owner[14] == 2


def test_mound_two_player_areas():
    g = Game(2, "A-A-A-C-A", seed=1)  # expansion: one player, two colours, one area
    m = mound_of(g)
    for o, (lv, i) in zip([0, 0, 1, 0], [(0, 0), (0, 1), (0, 2), (1, 0)], strict=True):
        put(g, m, o, lv, i)
    m.game_end(g)
    # seat 0: 3 stones over 2 levels = 6; seat 1: 1 stone = 1.
    assert burial_points(g) == [6, 1]


# ------------------------------------------------------------------------ Burial D (tomb)
def tomb_of(g: Game):
    return g.sites[BURIAL_CHAMBER]


def test_tomb_setup_and_round_tokens():
    g = Game(3, "A-A-A-D-A", seed=1)
    t = tomb_of(g)
    assert len(t.face_up) == 4 and t.face_up == sorted(t.face_up)
    assert sorted(t.face_up + t.hidden()["tokens"]) == list(range(1, 25))
    # Same seed, same tokens; another seed, (almost surely) another order.
    assert Game(3, "A-A-A-D-A", seed=1).sites[BURIAL_CHAMBER].face_up == t.face_up
    assert Game(3, "B-A-A-D-A", seed=1).sites[BURIAL_CHAMBER].face_up == t.face_up
    up = list(t.face_up)
    t.deliver(g, 1)
    assert (g.kind, g.to_move) == ("tomb_token", 1)
    assert [str(a) for a in g.options] == [f"tomb {k}" for k in up]
    apply(g, act("tomb", up[2]))
    assert t.grid[up[2] - 1] == 1 and t.face_up == up[:2] + up[3:]
    t.round_end(g)  # unused tokens leave the game
    assert t.face_up == []
    nxt = sorted(t.hidden()["tokens"][-4:])
    t.round_start(g)
    assert t.face_up == nxt and len(t.hidden()["tokens"]) == 16


def test_tomb_single_token_and_no_token():
    g = Game(3, "A-A-A-D-A", seed=1)
    t = tomb_of(g)
    t.face_up = [17]
    t.deliver(g, 0)  # one token up: it is used, no question
    assert g.kind == "turn" and t.grid[16] == 0 and t.face_up == []
    t.deliver(g, 2)  # no token up: 1 point at once, the stone lies at the edge
    assert g.kind == "turn"
    assert burial_points(g) == [0, 0, 1]
    assert t.edge == [0, 0, 1] and t.stones() == 2 and t.stones_of(2) == 1
    assert t.cells() == {(2, 4): 0}  # token 17: row 2, column 4 (6 columns, row by row)


def test_tomb_game_end_groups_and_absent_penalty():
    g = Game(4, "A-A-A-D-A", seed=1)
    t = tomb_of(g)
    # Tokens are numbered row by row, 6 per row: 1-6 top row, 7-12, 13-18, 19-24.
    layout = {
        0: [1, 2, 8],  # (0,0) (0,1) (1,1): a group of 3 = 6
        1: [3, 13, 14, 15, 16, 17, 18, 19],  # (0,2) alone: 1; row 2 + (3,0): 7 = 15 + 2x2 = 19
    }
    for p, tokens in layout.items():
        for k in tokens:
            t.grid[k - 1] = p
            t.count[p] += 1
    t.edge[2] = t.count[2] = 1  # seat 2 delivered with no token up: no group, no penalty
    t.game_end(g)
    # seat 3 delivered nothing here: -4.
    assert burial_points(g) == [6, 1 + 19, 0, -4]
    assert (3, "burial_chamber", -4, g.round) in g.events


# ------------------------------------------------------------------------ conformance
# Every side in random games: tests/test_conformance.py. Here the Tomb's own bookkeeping.
def tomb_consistent(g: Game) -> None:
    if g.kind == "tomb_token" and not g.over:
        return  # the delivered stone waits for its owner's choice of token
    t = g.sites[BURIAL_CHAMBER]
    assert sum(1 for o in t.grid if o >= 0) + sum(t.edge) == t.stones(), where(g)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tomb_grid_and_edge_hold_every_stone_in_random_games(players):
    for seed in range(50):
        play_random(Game(players, "A-A-A-D-A", seed=seed), seed=seed, watch=tomb_consistent)


def _groups_by_search(owners: list[int], width: int) -> list[tuple[int, int]]:
    """The plain definition: a flood fill over {(line, place): owner}, cells in index order."""
    cells = {divmod(i, width): o for i, o in enumerate(owners) if o >= 0}
    seen: set[tuple[int, int]] = set()
    out = []
    for start, owner in cells.items():
        if start in seen:
            continue
        seen.add(start)
        stack, size = [start], 0
        while stack:
            r, c = stack.pop()
            size += 1
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb not in seen and cells.get(nb) == owner:
                    seen.add(nb)
                    stack.append(nb)
        out.append((owner, size))
    return out


@given(st.lists(st.integers(-1, 3), min_size=24, max_size=24))
def test_tomb_groups_are_the_connected_groups(grid):
    # the Tomb's game end (docs/rules.md §7.4) scores the connected groups of each colour that
    # the flood fill over (row, column) cells finds: 1 3 6 10 15 for 1-5 stones, +2 a further
    # stone; a seat with no stone in the tomb loses 4
    g = Game(4, "A-A-A-D-A", seed=1)
    t = tomb_of(g)
    t.grid = list(grid)
    t.count = [grid.count(p) for p in range(4)]
    t.game_end(g)
    table = t.data["group_points"]
    expected = [0 if grid.count(p) else t.data["absent_penalty"] for p in range(4)]
    for owner, size in _groups_by_search(grid, t.data["columns"]):
        expected[owner] += table[min(size, 5) - 1] + t.data["group_extra"] * max(size - 5, 0)
    assert burial_points(g) == expected

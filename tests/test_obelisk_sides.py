"""Obelisk sides B, C and D (docs/rules.md §8.2-8.4): hand-built states, points by hand (every
side in random games: tests/test_conformance.py)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from imhotep_stats.engine import scenario
from imhotep_stats.engine.actions import Action, act
from imhotep_stats.engine.game import OBELISK, Game, IllegalAction, apply

# The rulebook's six tokens as squares (x = column, y = row).
TOKEN_SHAPES: dict[str, tuple[tuple[int, int], ...]] = {
    "M": ((0, 0),),
    "D": ((0, 0), (1, 0)),
    "I": ((0, 0), (1, 0), (2, 0)),
    "L": ((0, 0), (1, 0), (0, 1)),
    "T": ((0, 0), (1, 0), (2, 0), (1, 1)),
    "O": ((0, 0), (1, 0), (0, 1), (1, 1)),
}


def obelisk_events(g: Game) -> list[tuple[int, int]]:
    return [(seat, pts) for seat, source, pts, _ in g.events if source == "obelisk"]


def settle(g: Game) -> None:
    """Run the task stack after a direct state change (e.g. a card gained by hand)."""
    scenario.advance(g)


def texts(options) -> list[str]:
    return [str(a) for a in options]


def placements(columns: int, token: str, heights: list[int]) -> list[tuple[Action, tuple[int, ...]]]:
    """The core's legal placements of ``token`` on a card of column ``heights``: (action,
    squares added per column), from the owner's question, or from the card when there was
    no question (one placement is made at once, none discards the token)."""
    g = Game(2, "A-A-A-A-C", seed=1)
    site = g.sites[OBELISK]
    assert site.data["columns"] == columns
    site.cards[0] = list(heights)
    site.next = list(site.data["path"]).index(token)
    site.deliver(g, 0)
    if g.kind == "obelisk_token":
        return [(a, tuple(a.args[1:])) for a in g.options]
    if site.discarded[0]:
        return []
    add = tuple(h - k for h, k in zip(site.cards[0], heights, strict=True))
    return [(act("stack", token, *add), add)]


def card_rows(card: list[int]) -> tuple[int, int]:
    """(complete rows, incomplete rows) of an Obelisk C card (docs/rules.md §8.3)."""
    return min(card), max(card) - min(card)


def rank_bonus(rows: list[tuple[int, int]], table: tuple[int, ...]) -> list[int]:
    """The core's Obelisk C rank bonus for seats with ``rows`` (complete, incomplete): their
    game-end points less the complete rows' points, on the board's table for that many seats."""
    g = Game(len(rows), "A-A-A-A-C", seed=1)
    site = g.sites[OBELISK]
    assert tuple(site.data["rank_bonus_by_players"][str(len(rows))]) == tuple(table)
    site.cards = [[full, full, full + part] for full, part in rows]
    site.game_end(g)
    got = [0] * len(rows)
    for seat, pts in obelisk_events(g):
        got[seat] += pts
    return [got[p] - full * site.data["row_points"] for p, (full, _) in enumerate(rows)]


# ------------------------------------------------------------------------------- B
def test_b_slots_taken_highest_first_and_scored_at_once():
    g = Game(3, "A-A-A-A-B", seed=1)
    site = g.sites[OBELISK]
    assert site.side == "B"
    # p0: 3 stones -> slot 10. p1: 2 stones -> nothing yet, 3rd -> slot 8. p0: 3 more -> 7.
    for _ in range(3):
        site.deliver(g, 0)
    for _ in range(2):
        site.deliver(g, 1)
    assert obelisk_events(g) == [(0, 10)]
    site.deliver(g, 1)
    for _ in range(3):
        site.deliver(g, 0)
    assert obelisk_events(g) == [(0, 10), (1, 8), (0, 7)]
    assert g.totals == [17, 8, 0]
    assert site.slot_owner == [0, 1, 0]
    assert [site.stones_of(p) for p in range(3)] == [6, 3, 0]
    assert g.kind == "turn"  # Obelisk B never asks


def test_b_leftovers_score_one_each_at_game_end():
    g = Game(3, "A-A-A-A-B", seed=1)
    site = g.sites[OBELISK]
    # p0: 4 stones = one obelisk (10 at once) + 1 leftover; p1: 1 leftover; p2: 2 leftovers.
    for p in (0, 0, 0, 0, 1, 2, 2):
        site.deliver(g, p)
    site.game_end(g)
    # p0 10 + 1, p1 1, p2 2
    assert g.totals == [11, 1, 2]
    assert [site.stones_of(p) for p in range(3)] == [4, 1, 2]
    assert site.stones() == 7


def test_b_completion_by_a_red_card():
    g = Game(3, "A-A-A-A-B", seed=1)
    site = g.sites[OBELISK]
    site.deliver(g, 2)
    site.deliver(g, 2)
    quarry = g.quarry[2]
    # Paved Path delivers one stone from the quarry to the Obelisks: the 3rd stone of p2
    # completes an obelisk, which takes the highest free slot (10) at once.
    scenario.gain(g, 2, "paved_path")
    settle(g)
    assert obelisk_events(g) == [(2, 10)]
    assert g.quarry[2] == quarry - 1
    assert site.stones_of(2) == 3 and site.pending[2] == 0


def test_b_no_slot_left_stones_are_leftovers():
    g = Game(2, "A-A-A-A-B", seed=1)
    site = g.sites[OBELISK]
    for _ in range(24):  # 8 obelisks by p0: 10+8+7+6+5+4+3+2 = 45
        site.deliver(g, 0)
    assert g.totals == [45, 0]
    for _ in range(4):  # no slot left: p1's 3rd stone completes nothing
        site.deliver(g, 1)
    assert g.totals == [45, 0]
    site.game_end(g)
    assert g.totals == [45, 4]  # 4 leftovers, 1 each
    assert site.stones() == 28


# ------------------------------------------------------------------------------- C
def test_c_options_on_an_empty_card():
    assert texts(a for a, _ in placements(3, "D", [0, 0, 0])) == [
        "stack D 2 0 0", "stack D 1 1 0", "stack D 0 2 0", "stack D 0 1 1", "stack D 0 0 2",
    ]
    # a flat T can only stand on its bar; vertical ones would leave a gap under the nub
    assert texts(a for a, _ in placements(3, "T", [0, 0, 0])) == ["stack T 1 2 1"]
    assert set(texts(a for a, _ in placements(3, "L", [0, 0, 0]))) == {
        "stack L 2 1 0", "stack L 1 2 0", "stack L 0 2 1", "stack L 0 1 2",
    }


def test_c_gap_rule_and_rotations():
    # Card heights [1, 0, 0] (one square in column 1).
    # D lying across columns 1-2 would overlap (row 0) or leave a gap (row 1): not offered.
    assert set(texts(a for a, _ in placements(3, "D", [1, 0, 0]))) == {
        "stack D 2 0 0", "stack D 0 2 0", "stack D 0 1 1", "stack D 0 0 2",
    }
    # T on [1, 0, 1]: pointing down into the hole, or standing on either side.
    assert set(texts(a for a, _ in placements(3, "T", [1, 0, 1]))) == {
        "stack T 1 2 1", "stack T 1 3 0", "stack T 0 3 1",
    }
    # L on [1, 0, 0]: the L hooked over column 1 (rotated) or flat on columns 2-3.
    assert set(texts(a for a, _ in placements(3, "L", [1, 0, 0]))) == {
        "stack L 1 2 0", "stack L 0 2 1", "stack L 0 1 2",
    }


def test_c_path_tokens_in_order_and_owner_places():
    g = Game(3, "A-A-A-A-C", seed=1)
    site = g.sites[OBELISK]
    assert site.side == "C"
    assert site.data["path"][:3] == ("D", "L", "M")
    site.deliver(g, 1)  # path 0: D
    assert g.kind == "obelisk_token" and g.to_move == 1
    assert len(g.options) == 5
    with pytest.raises(IllegalAction):
        apply(g, act("stack", "L", 2, 1, 0))
    apply(g, act("stack", "D", 2, 0, 0))
    assert site.cards[1] == [2, 0, 0]
    assert g.kind == "turn" and g.to_move == 0  # back to the turn in progress
    site.deliver(g, 1)  # path 1: L on [2, 0, 0]
    assert set(texts(g.options)) == {"stack L 0 2 1", "stack L 0 1 2"}
    apply(g, act("stack", "L", 0, 2, 1))
    site.deliver(g, 1)  # path 2: M on [2, 2, 1]
    assert texts(g.options) == ["stack M 1 0 0", "stack M 0 1 0", "stack M 0 0 1"]
    apply(g, act("stack", "M", 0, 0, 1))
    assert site.cards[1] == [2, 2, 2]
    assert card_rows(site.cards[1]) == (2, 0)
    assert site.stones_of(1) == 3 and site.next == 3


def test_c_unplaceable_token_is_discarded_without_a_decision():
    g = Game(3, "A-A-A-A-C", seed=1)
    site = g.sites[OBELISK]
    site.cards[0] = [2, 1, 0]  # a staircase: no two adjacent columns level
    site.next = 11  # path 11: O, the 2x2 square
    assert site.data["path"][11] == "O"
    site.deliver(g, 0)
    assert g.kind == "turn"  # no decision
    assert site.cards[0] == [2, 1, 0] and site.discarded[0] == 1
    assert site.stones_of(0) == 1 and site.next == 12  # the stone took the path space
    # T on [2, 0, 2]: no orientation fits either
    assert placements(3, "T", [2, 0, 2]) == []


def test_c_path_full_overflow():
    g = Game(2, "A-A-A-A-C", seed=1)
    site = g.sites[OBELISK]
    site.next = len(site.data["path"])
    site.deliver(g, 1)
    assert obelisk_events(g) == [(1, 1)]
    assert site.stones_of(1) == 1 and site.stones() == 16


def test_c_game_end_rows_and_rank_bonus_3p():
    g = Game(3, "A-A-A-A-C", seed=1)
    site = g.sites[OBELISK]
    # p0 [3,3,4]: 3 complete, 1 incomplete; p1 [3,3,3]: 3 complete, 0 incomplete;
    # p2 [1,2,1]: 1 complete. Ranks: p0 (more incomplete rows), p1, p2.
    site.cards = [[3, 3, 4], [3, 3, 3], [1, 2, 1]]
    site.game_end(g)
    # p0 3*2 + 6 = 12; p1 3*2 + 3 = 9; p2 1*2 + 0 = 2
    assert g.totals == [12, 9, 2]


def test_c_rank_ties_shared_rounded_to_nearest():
    # 3 players [6,3,0]: p0, p1 tie at (2 complete, 1 incomplete): (6+3)/2 = 4.5 -> 5 each.
    # p2 has no complete row: no rank, no bonus.
    assert rank_bonus([(2, 1), (2, 1), (0, 1)], (6, 3, 0)) == [5, 5, 0]
    # 4 players [9,6,2,0]: three tied second: (6+2+0)/3 = 2.67 -> 3 each.
    assert rank_bonus([(3, 0), (1, 0), (1, 0), (1, 0)], (9, 6, 2, 0)) == [9, 3, 3, 3]
    # 2 players [5,0]: a tie: 2.5 -> 3 each (halves round up).
    assert rank_bonus([(2, 0), (2, 0)], (5, 0)) == [3, 3]
    # nobody on a complete row: no bonus
    assert rank_bonus([(0, 2), (0, 0), (0, 1)], (6, 3, 0)) == [0, 0, 0]
    # 4 players, all tied: (9+6+2+0)/4 = 4.25 -> 4 each
    assert rank_bonus([(1, 1)] * 4, (9, 6, 2, 0)) == [4, 4, 4, 4]


def test_c_game_end_tie_in_a_game():
    g = Game(2, "A-A-A-A-C", seed=1)
    site = g.sites[OBELISK]
    site.cards = [[2, 2, 3], [3, 2, 2]]  # both (2 complete, 1 incomplete)
    site.game_end(g)
    # 2*2 + round(5/2)=3 each
    assert g.totals == [7, 7]


def _brute_force_results(token: str, heights: list[int], columns: int = 3) -> set[tuple[int, ...]]:
    """Every placement by cells: all rotations/reflections and translations, no overlap,
    inside the columns, every column still one run from the bottom."""
    out = set()
    top = max(heights) + 5
    filled = {(c, r) for c in range(columns) for r in range(heights[c])}
    cells = TOKEN_SHAPES[token]
    for swap, sx, sy in itertools.product((False, True), (1, -1), (1, -1)):
        pts = [((y if swap else x) * sx, (x if swap else y) * sy) for x, y in cells]
        for dx in range(-5, 6):
            for dy in range(-5, top):
                placed = {(x + dx, y + dy) for x, y in pts}
                if any(not (0 <= x < columns and y >= 0) for x, y in placed) or placed & filled:
                    continue
                allc = filled | placed
                ok = all(
                    {r for c2, r in allc if c2 == c} == set(range(len({r for c2, r in allc if c2 == c})))
                    for c in range(columns)
                )
                if ok:
                    out.add(tuple(sum(1 for x, _ in placed if x == c) for c in range(columns)))
    return out


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(sorted(TOKEN_SHAPES)),
    st.lists(st.integers(0, 4), min_size=3, max_size=3),
)
def test_c_placements_match_brute_force(token, heights):
    got = {add for _, add in placements(3, token, heights)}
    assert got == _brute_force_results(token, heights)


# ------------------------------------------------------------------------------- D
CLAIMS_ALL = [
    "claim height 2 points 3",
    "claim height 3 points 5",
    "claim height 4 points 8",
    "claim height 5 points 11",
    "claim height 6 points 15",
]


def test_d_claim_then_finish_before_the_next():
    g = Game(3, "A-A-A-A-D", seed=1)
    site = g.sites[OBELISK]
    assert site.side == "D"
    site.deliver(g, 0)
    assert g.kind == "obelisk_claim" and g.to_move == 0
    assert texts(g.options) == CLAIMS_ALL  # identical obelisks are one choice
    assert site.stones_of(0) == 1  # counted while the owner chooses
    apply(g, act("claim", "height", 2, "points", 3))
    assert site.owner[0] == 0 and site.height[0] == 1 and site.working[0] == 0
    site.deliver(g, 0)  # goes on the claimed obelisk: no decision
    assert g.kind == "turn" and site.height[0] == 2 and site.working[0] == -1
    site.deliver(g, 0)  # finished: the next stone claims a new one
    assert texts(g.options) == CLAIMS_ALL  # the second (2, 3) is still free
    apply(g, act("claim", "height", 2, "points", 3))
    assert site.owner[1] == 0
    site.deliver(g, 1)
    assert texts(g.options) == CLAIMS_ALL[1:]  # both (2, 3) taken
    apply(g, act("claim", "height", 4, "points", 8))
    site.deliver(g, 1)
    site.deliver(g, 1)
    assert site.owner[4] == 1 and site.height[4] == 3 and site.working[1] == 4
    site.game_end(g)
    # p0: obelisk 0 finished 3 + obelisk 1 unfinished, 1 stone = 1 -> 4
    # p1: (4, 8) unfinished with 3 stones -> 3
    assert g.totals == [4, 3, 0]
    assert [site.stones_of(p) for p in range(3)] == [3, 3, 0]


def test_d_no_free_obelisk_overflows_but_unfinished_one_still_grows():
    g = Game(4, "A-A-A-A-D", seed=1)
    site = g.sites[OBELISK]
    # Claim all 8: p0 the (6, 15), then p1 takes the rest one by one, finishing each
    # (heights 2+2+3+3+4+4+5 = 23 stones)
    site.deliver(g, 0)
    apply(g, act("claim", "height", 6, "points", 15))
    for _ in range(7):
        site.deliver(g, 1)
        apply(g, g.options[0])
        while site.working[1] >= 0:
            site.deliver(g, 1)
    assert site.free == [] and g.kind == "turn"
    before = g.totals[:]
    site.deliver(g, 2)  # nothing to claim: overflow, 1 point at once
    assert g.totals[2] == before[2] + 1 and site.stones_of(2) == 1
    site.deliver(g, 0)  # p0 still builds the (6, 15): no overflow
    assert site.height[7] == 2 and g.totals[0] == before[0]
    site.deliver(g, 1)  # p1 finished all of its: overflow
    assert g.totals[1] == before[1] + 1
    site.game_end(g)
    # p0: (6,15) with 2 stones -> 2; p1: 7 finished: 3+3+5+5+8+8+11 = 43, +1 overflow
    assert g.totals == [2, 44, 1, 0]
    assert site.stones() == 2 + 23 + 2


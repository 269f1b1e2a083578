"""Temple sides B, C and D (docs/rules.md §6.2-6.4): hand-built states, points worked out by hand,
and the Arena's track points in a full game (every side in random games:
tests/test_conformance.py)."""

from __future__ import annotations

import random

import pytest

from imhotep_stats.engine import scenario
from imhotep_stats.engine.actions import act
from imhotep_stats.engine.game import TEMPLE, Game, apply
from tests.helpers import play_random, points_by_seat


def temple_points(g: Game) -> list[int]:
    return points_by_seat(g, "temple")


def visible(t) -> list[tuple[int, int]]:
    """(column, owner) of the top stone of each column that holds one: stones fill the
    columns left to right and a full row starts a new layer on top (docs/rules.md §6.1)."""
    w, owners = t.width, t.owners
    return [(c, owners[c + w * ((len(owners) - 1 - c) // w)]) for c in range(min(len(owners), w))]


def layered(g: Game, owners: list[int]):
    """A layered temple holding ``owners`` in delivery order (quarries debited)."""
    t = g.sites[TEMPLE]
    for o in owners:
        g.quarry[o] -= 1
    t.owners = list(owners)
    return t


# ------------------------------------------------------------------------ Temple B
def test_temple_b_rewards_by_column_3_players():
    g = Game(3, "A-A-B-A-A", seed=1)
    # 7 stones in a 5-wide temple: layer 1 = stones 0-4, layer 2 = stones 5, 6 (columns 0, 1).
    # Visible: col0 seat 2, col1 seat 2, col2 seat 2, col3 seat 0, col4 seat 1.
    t = layered(g, [0, 1, 2, 0, 1, 2, 2])
    assert visible(t) == [(0, 2), (1, 2), (2, 2), (3, 0), (4, 1)]
    g.deck.append("statue")  # the top market card
    g.sled[2] = 4  # capacity 5: the s2 of column 1 moves only 1 stone
    q2 = g.quarry[2]
    scenario.round_end(g, TEMPLE)
    # seat 2: p1 (col0) + p2 (col2) = 3 points, 1 stone; seat 0: the statue; seat 1: p1.
    assert temple_points(g) == [0, 1, 3]
    assert g.sled[2] == 5 and g.quarry[2] == q2 - 1
    assert g.hand[0] == {"statue": 1}
    assert g.kind == "turn"


def test_temple_b_stones_capped_by_quarry_and_2_player_width():
    g = Game(2, "A-A-B-A-A", seed=1)  # base game: 4 columns, rewards p1 s2 p2 card
    t = layered(g, [0, 1, 0, 1, 1])  # stone 4 covers column 0
    assert t.width == 4
    assert visible(t) == [(0, 1), (1, 1), (2, 0), (3, 1)]
    g.deck.append("lever")
    g.sled[1] = 0
    g.quarry[1] = 1  # s2 gets only the last quarry stone
    scenario.round_end(g, TEMPLE)
    # seat 1: p1 (col0), 1 stone (col1), lever (col3); seat 0: p2 (col2).
    assert temple_points(g) == [2, 1]
    assert g.sled[1] == 1 and g.quarry[1] == 0
    assert g.hand[1] == {"lever": 1} and g.blue[1] == 1


def test_temple_b_red_card_acts_at_once():
    g = Game(3, "A-A-B-A-A", seed=1)
    layered(g, [0, 1, 2, 0])  # column 3 (card) is seat 0's
    g.deck.append("sarcophagus")
    burial = g.sites[3]
    q0 = g.quarry[0]
    scenario.round_end(g, TEMPLE)
    # Sarcophagus: a stone from seat 0's quarry to the Burial Chamber, at once.
    assert burial.owners == [0]
    assert g.quarry[0] == q0 - 1
    # Visible: col0 seat 0 (p1), col1 seat 1 (s2), col2 seat 2 (p2), col3 seat 0 (card).
    assert temple_points(g) == [1, 0, 2]


# ------------------------------------------------------------------------ Temple C
def test_temple_c_choices_and_draw3_left_to_right():
    g = Game(3, "A-A-C-A-A", seed=1)
    layered(g, [0, 1, 2, 0, 1])
    # Columns: p2|s4, draw3, p2|s4, draw3, p2|s4. Visible: seat 0, 1, 2, 0, 1.
    # Top of the pile first: lever, statue, chisel (col1), then 3 statues (col3).
    g.deck.extend(["statue", "statue", "statue", "chisel", "statue", "lever"])
    g.sled[2] = 2
    q2 = g.quarry[2]
    scenario.round_end(g, TEMPLE)

    # Rulebook (C): "funciona igual que el lado A, excepto por la siguiente diferencia: ...
    # hay diferentes bonificaciones por cada piedra visible": each visible stone gets its
    # column's bonus *instead of* Temple A's point. Column 0: seat 0 chooses.
    assert (g.kind, g.to_move) == ("temple_bonus", 0)
    assert [str(a) for a in g.options] == ["points 2", "stones 4"]
    apply(g, act("points", 2))
    # Column 1: seat 1 draws 3 and keeps one.
    assert (g.kind, g.to_move) == ("temple_keep", 1)
    assert [str(a) for a in g.options] == ["keep lever", "keep statue", "keep chisel"]
    discard = len(g.discard)
    apply(g, act("keep", "statue"))
    assert g.hand[1] == {"statue": 1}
    assert sorted(g.discard[discard:]) == ["chisel", "lever"]
    # Column 2: seat 2 takes 4 stones, capped by the sled: 2 + 3 = 5.
    assert (g.kind, g.to_move) == ("temple_bonus", 2)
    apply(g, act("stones", 4))
    assert g.sled[2] == 5 and g.quarry[2] == q2 - 3
    # Column 3: seat 0 draws 3 statues: no choice to make, keeps one, discards two.
    # Column 4: seat 1 chooses.
    assert (g.kind, g.to_move) == ("temple_bonus", 1)
    assert g.hand[0] == {"statue": 1}
    apply(g, act("points", 2))
    assert g.kind == "turn"
    # Bonuses only, no visible point: seat 0: 2 (col0) + 0 (col3 is a card) = 2;
    # seat 1: 0 (col1, a card) + 2 (col4) = 2; seat 2: 0 (col2, stones).
    assert temple_points(g) == [2, 2, 0]


def test_temple_c_draw3_with_a_short_pile():
    g = Game(3, "A-A-C-A-A", seed=1)
    layered(g, [2, 0])  # column 1 (draw3) is seat 0's
    g.deck[:] = ["statue"]
    g.discard[:] = []
    scenario.round_end(g, TEMPLE)  # seat 2: the p2|s4 choice (no visible point on C)
    apply(g, act("stones", 4))
    # Only one card left in the pile (and no discard pile): seat 0 keeps it, no question.
    assert g.hand[0] == {"statue": 1}
    assert temple_points(g) == [0, 0, 0]
    assert g.kind == "turn"


def test_temple_c_round_end_through_the_engine():
    """Round 1's end run by the engine: one bonus question per visible stone in a p2|s4
    column, one keep question per draw3 column at most (identical cards need none)."""
    checked = 0
    for seed in range(20):
        g = Game(3, "A-A-C-A-A", seed=seed)
        rng = random.Random(seed)
        seen = []
        while not g.over and (g.round == 1 or g.kind != "turn"):
            if g.kind in ("temple_bonus", "temple_keep"):
                seen.append(g.kind)
            apply(g, g.options[int(rng.random() * len(g.options))])
        cols = [c for c, _ in visible(g.sites[TEMPLE])]
        assert seen.count("temple_bonus") == sum(1 for c in cols if c in (0, 2, 4))
        assert seen.count("temple_keep") <= sum(1 for c in cols if c in (1, 3))
        checked += len(cols) >= 2
    assert checked


# ------------------------------------------------------------------------ Temple D (Arena)
def arena(g: Game):
    return g.sites[TEMPLE]


def test_arena_chariots_skip_occupied_spaces():
    g = Game(3, "A-A-D-A-A", seed=1)
    a = arena(g)
    # Arrowheads in fill order: 1 2 1 3 ...
    a.deliver(g, 0)  # space 0: 1 -> seat 0 on 1
    a.deliver(g, 1)  # space 1: 2 -> seat 1 on 2
    a.deliver(g, 2)  # space 2: 1 -> 1 taken, 2 taken -> seat 2 on 3
    assert a.chariots == [1, 2, 3]
    a.deliver(g, 0)  # space 3: 3 -> seat 0 on 4
    assert a.chariots == [4, 2, 3]
    assert a.spaces == [0, 1, 2, 0] and a.stones() == 4 and a.stones_of(0) == 2
    a.round_end(g)  # leader seat 0: 2; second seat 2: 1
    assert temple_points(g) == [2, 0, 1]


def test_arena_overflow_finish_and_finish_point():
    g = Game(3, "A-A-D-A-A", seed=1)
    a = arena(g)
    a.spaces = [1] * len(a.data["arrowheads"])  # every stone space taken
    a.chariots = [10, 11, 0]
    a.deliver(g, 0)  # overflow: move 1 -> 11 taken by seat 1 -> the finish (12)
    assert a.chariots == [12, 11, 0] and a.overflow == [0]
    a.deliver(g, 1)  # 11 + 1 = 12: the finish holds any number
    assert a.chariots == [12, 12, 0]
    a.deliver(g, 0)  # already on the finish: 1 point, the chariot stays
    assert a.chariots == [12, 12, 0]
    assert temple_points(g) == [1, 0, 0]
    assert a.stones() == len(a.data["arrowheads"]) + 3 and a.stones_of(0) == 2


def test_arena_move_capped_at_finish():
    g = Game(3, "A-A-D-A-A", seed=1)
    a = arena(g)
    a.spaces = [2, 2, 2]  # next space: arrowheads[3] = 3
    a.chariots = [11, 0, 0]
    a.deliver(g, 0)
    assert a.chariots[0] == 12


@pytest.mark.parametrize(
    "players, chariots, expected",
    [
        (3, [12, 12, 5], [2, 2, 0]),  # two on the finish both lead; no second place
        (4, [12, 12, 12, 3], [2, 2, 2, 0]),
        (3, [12, 7, 0], [2, 1, 0]),  # alone on the finish: a second place is paid
        (3, [3, 0, 0], [2, 0, 0]),  # chariots on the start never place
        (3, [0, 0, 0], [0, 0, 0]),
        (4, [2, 9, 4, 0], [0, 2, 1, 0]),
        (2, [5, 3], [2, 0]),  # 2 players: no point for second
        (2, [12, 12], [2, 2]),
    ],
)
def test_arena_round_end(players, chariots, expected):
    g = Game(players, "A-A-D-A-A", seed=1)
    a = arena(g)
    a.chariots = list(chariots)
    a.round_end(g)
    assert temple_points(g) == expected


def test_arena_game_end_track_points():
    g = Game(3, "A-A-D-A-A", seed=1)
    a = arena(g)
    a.chariots = [12, 4, 0]  # track points 0 0 1 1 2 ... 10
    a.game_end(g)
    assert temple_points(g) == [10, 2, 0]


def test_arena_scores_in_a_full_game():
    g = play_random(Game(3, "A-A-D-A-A", seed=5), seed=5)
    a = arena(g)
    final = [0] * 3
    for p, src, k, rnd in g.events:
        if src == "temple" and rnd == g.rounds + 1:
            final[p] += k
    assert final == [a.data["track_points"][c] for c in a.chariots]


def test_temple_c_column_without_bonus_keeps_the_point():
    """A space with no special bonus keeps Temple A's point ("funciona igual que el lado
    A"): an override gives column 1 no bonus."""
    from imhotep_stats.rules.board import default_board

    board = default_board().with_overrides({"temple": {"C": {"bonuses": ["p2", "", "p2", "", "p2"]}}})
    g = Game(3, "A-A-C-A-A", seed=1, board=board)
    layered(g, [0, 1, 2])
    scenario.round_end(g, TEMPLE)
    # Visible: col0 seat 0 (p2: 2 points, not 1 + 2), col1 seat 1 (no bonus: A's 1 point),
    # col2 seat 2 (p2: 2 points).
    assert temple_points(g) == [2, 1, 2]


def test_round_end_scores_the_temple_before_the_market_discards():
    """docs/rules.md §2.4: the temple is scored first, then the market's leftover cards go to
    the discard pile. With the draw pile and the discard pile empty, a draw3 at the temple
    finds no card: it must not draw the round's own leftovers."""
    g = Game(3, "A-A-C-A-A", seed=1)
    market = g.sites[0]
    leftovers = list(market.display)
    assert len(leftovers) == 4
    g.deck[:] = []
    g.discard[:] = []
    layered(g, [2, 0])  # column 0 (p2|s4) seat 2, column 1 (draw3) seat 0
    scenario.end_round(g, 1)
    apply(g, act("points", 2))  # seat 2's choice; then seat 0 draws nothing at all
    assert g.hand[0] == {} and g.cards_taken[0] == 0
    assert temple_points(g) == [0, 0, 2]
    # the leftovers were discarded after the temple, then reshuffled for round 2's display
    assert g.round == 2 and sorted(market.display) == sorted(leftovers)

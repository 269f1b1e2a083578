"""The game backed by the core (engine/game.py, engine/view.py): it hands a seat a
read-only view with no hidden part, sends a field written by a test back to the core, and
plays bots written in Python and the core's bots through one API."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from imhotep_stats.engine import act, scenario
from imhotep_stats.engine.game import MARKET, PYRAMID, TEMPLE, Game, IllegalAction, apply
from imhotep_stats.engine.view import PUBLIC, View

pytest.importorskip("imhotep_stats._core")

SIDES = ("A-A-A-A-A", "B-B-B-B-B", "C-C-C-C-C", "D-D-D-D-D", "D-C-B-A-C")


def _deep(v):
    if isinstance(v, list | tuple):
        return tuple(_deep(x) for x in v)
    return v


def vars_of(window) -> dict:
    """The fields a window shows now (the core's read model of its site)."""
    return dict(window.fields())


def test_a_view_is_read_only_and_shows_no_hidden_part():
    g = Game(3, "D-C-B-D-C", seed=2, prophecies=True)
    hidden = {name for i in range(5) for name in g.sites[i].hidden()}
    assert hidden == {"stacks", "stack", "removed", "tokens"}
    v = View(g, 0)
    for name in PUBLIC:
        for x in _reached(v.get(name)):
            assert not isinstance(x, list | dict | set), name
    for i in range(5):
        shown = set(vars_of(v.site(i)))
        assert not shown & hidden, i
        with pytest.raises(AttributeError):
            v.site(i).index = 3
    with pytest.raises(AttributeError, match="not visible"):
        v.get("deck")
    with pytest.raises(AttributeError):
        v.me = 2
    v.hand["statue"] = 9  # a copy: mine to change
    assert g.hand[0] == {}
    assert v.options == tuple(g.options) and View(g, 1).options == ()


def _reached(value):
    yield value
    if isinstance(value, tuple):
        for x in value:
            yield from _reached(x)
    elif isinstance(value, MappingProxyType):
        for x in value.values():
            yield from _reached(x)


def test_fields_written_go_back_to_the_core_before_the_next_step():
    g = Game(3, "B-B-A-A-A", seed=1, scenario=True,
             deck=["statue", "chisel", "lever", "entrance", "hammer"] + ["statue"] * 8)
    m = g.sites[MARKET]
    assert m.display == ["statue", "chisel", "lever"] and m.hidden()["pair"] == ["entrance", "hammer"]
    assert not hasattr(m, "pair")  # the pair only through hidden()
    g.sled[1] = 0
    m.hidden()["pair"][:] = ["entrance", "sail"]
    scenario.deliver(g, MARKET, 1)
    assert (g.kind, g.to_move) == ("market_pick", 1)
    apply(g, act("take", "pair"))
    assert [str(a) for a in g.options] == ["keep entrance", "keep sail"]
    apply(g, act("keep", "entrance"))  # a stone from the quarry to Pyramid B
    assert (g.kind, g.to_move) == ("pyramid_choice", 1)
    apply(g, act("pyramid", "middle"))
    assert g.sites[PYRAMID].pyramids[1] == [1]
    assert g.sled[1] == 3  # the middle pyramid's first space: 3 stones to the empty sled
    with pytest.raises(IllegalAction, match="legal"):
        apply(g, act("pyramid", "middle"))


def test_scenario_steps_run_the_cores_rules():
    g = Game(2, "A-A-A-A-A", seed=1)
    for owner in (0, 1, 0):
        g.sites[TEMPLE].deliver(g, owner)
    assert g.sites[TEMPLE].owners == [0, 1, 0]
    scenario.round_end(g, TEMPLE)
    assert g.totals[0] == 2 * g.totals[1] > 0
    scenario.gain(g, 1, "statue")
    assert g.hand[1] == {"statue": 1}
    g.sled[0] = 0
    assert "place 0 0" not in map(str, scenario.turn_options(g, 0))
    copy = g.copy()
    scenario.end_round(copy, 1)
    assert (copy.round, copy.to_move, g.round) == (2, 1, 1)
    with pytest.raises(AttributeError, match="game has no field 'sledd'"):
        g.sledd = 3


def test_a_write_at_a_turn_shows_in_its_options_and_the_prophecies_read_as_the_engines():
    g = Game(3, "A-A-A-A-A", seed=1)
    assert g.kind == "turn" and any(str(a).startswith("place") for a in g.options)
    g.sled[0] = 0
    assert not any(str(a).startswith("place") for a in g.options)
    g = Game(3, "A-A-A-A-A", seed=1, prophecies=True)
    assert type(g.prophecy.gods) is tuple and len(g.prophecy.gods) == 3
    god = g.prophecy.gods[0]
    g.prophecy.placed = [[(god, 0)], [], [(god, 1)]]
    assert g.prophecy.placed == [[(god, 0)], [], [(god, 1)]]
    outcome = g.prophecy.outcome(g)
    assert [len(seat) for seat in outcome] == [1, 0, 1]
    assert outcome[0][0][:2] == (god, 0) and outcome[2][0][:2] == (god, 1)


class _SledWatcher:
    """A bot a user might write: it reads the read model (its sled, the ships, a site's
    window) and picks from the legal actions with its own stream."""

    name = "sled-watcher"

    def choose(self, view, legal, rng):
        first = [a for a in legal if a.kind == "get"] if view.sled[view.me] < 2 else []
        loaded = sum(len([x for x in ship if x >= 0]) for ship in view.ship_slots)
        _ = view.site(TEMPLE).stones_of(view.me)
        if first and loaded % 2 == 0:
            return first[0]
        return legal[int(rng.random() * len(legal))]


@pytest.mark.parametrize("sides", ("A-A-A-A-A", "D-C-B-A-C"))
def test_a_python_bot_plays_beside_the_cores_bots_and_its_game_replays(sides):
    from imhotep_stats.bots import make_bot
    from imhotep_stats.engine.play import bot_rng, chance_seed, play_game
    from imhotep_stats.engine.transcript import TraceWriter, replay, setup_line

    def played():
        g = Game(3, sides, seed=chance_seed(7, 1), prophecies=True)
        writer = TraceWriter()
        writer.lines.append(setup_line(g, 7, 1, ["sled-watcher", "greedy", "sled-watcher"], None))
        bots = [_SledWatcher(), make_bot("greedy"), _SledWatcher()]
        result = play_game(g, bots, [bot_rng(7, 1, p) for p in range(3)], writer.on_decision)
        writer.finish(g, result)
        return writer.lines

    import json

    lines = played()
    assert len(lines) > 100 and lines == played()
    rep = replay([json.dumps(line) for line in lines])
    assert rep.mismatches == []


@pytest.mark.parametrize(("sides", "bots"), [("A-A-A-A-A", ["greedy", "random", "temple"]),
                                             ("D-C-B-A-C", ["mcts30", "greedy", "balanced"])])
def test_a_kept_game_is_the_batchs_game(sides, bots):
    from imhotep_stats.config import Cell
    from imhotep_stats.engine.core import rules
    from imhotep_stats.sim import core_batch, samples

    seats = list(Cell(0, sides, 3, tuple(bots)).seat_bots(2))  # game 2's seats, as a batch
    result, lines = samples.play_one(3, sides, seats, 11, 2, prophecies=True)
    batch = core_batch.play(rules(sides), 3, 11, 2, 3, bots, prophecies=True, actions=True)
    import json

    decisions = [json.loads(x)["action"] for x in lines if json.loads(x)["type"] == "decision"]
    assert len(decisions) > 100 and decisions == batch["actions"][0]
    assert result.totals == batch["score"]

"""Study configs: the documented shape, every kind of problem (all at once, dotted keys),
the canonical form and hash, cells and the seat rotation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from imhotep_stats.config import (
    DEFAULT_BATCH_SIZE,
    DEFAULT_MARGIN,
    Cell,
    ConfigError,
    load_config,
    parse_config,
)
from imhotep_stats.rules.board import SIDES

CONFIGS = Path(__file__).resolve().parent.parent / "configs"


def minimal(**tables):
    raw = {"study": {"name": "t", "seed": 1, "games": 10, "players": [3]}}
    raw.update(tables)
    return raw


def problems(raw) -> dict[str, str]:
    with pytest.raises(ConfigError) as info:
        parse_config(raw)
    err = info.value
    assert isinstance(err, ValueError)
    for key, msg in err.problems:  # the message names every problem with its key
        assert f"{key}: {msg}" in str(err)
    return dict(err.problems)


def test_issue_example_config_is_valid_and_resolved():
    raw = {
        "study": {"name": "dynasty-mix", "seed": 2026, "games": 2000, "players": [2, 3, 4]},
        "sides": {"market": ["D"], "pyramid": ["A", "C"], "temple": ["C"],
                  "burial_chamber": ["B"], "obelisk": "all"},
        "bots": {"lineup": ["random", "random", "random"]},
        "modules": {"prophecies": False},
        "overrides": {"pyramid": {"A": {"points": [2, 1, 3, 2, 4, 3, 2, 1, 3, 2, 3, 1, 3, 4]}}},
    }
    cfg = parse_config(raw)
    assert cfg.sides[4] == tuple(SIDES)  # "all" expanded
    assert len(cfg.cells) == 2 * 4 * 3  # pyramid x obelisk x player counts
    assert cfg.total_games == 2000 * 24
    first = cfg.cells[0]
    assert first.sides == "D-A-C-B-A" and first.players == 2
    assert first.id == "D-A-C-B-A|2p|random,random,random"
    assert cfg.margin == DEFAULT_MARGIN and cfg.batch_size == DEFAULT_BATCH_SIZE
    assert cfg.expansion is None  # "auto"
    assert cfg.board().side("pyramid", "A").overridden == ("points",)


def test_defaults_fill_sides_bots_and_options():
    cfg = parse_config(minimal())
    assert cfg.sides == (("A",),) * 5
    assert cfg.lineups == ((3, (("random",),)),)
    assert cfg.workers is None and cfg.cluster is None and not cfg.prophecies
    assert [c.id for c in cfg.cells] == ["A-A-A-A-A|3p|random"]


def test_canonical_json_is_stable_and_hash_covers_only_what_decides_rows():
    cfg = parse_config(minimal(report={"margin": 0.05}, run={"workers": 2}))
    again = parse_config(json.loads(json.dumps(minimal(report={"margin": 0.05},
                                                       run={"workers": 2}))))
    assert cfg.to_json() == again.to_json() and cfg.hash == again.hash
    # Report and run options do not change the rows: same hash.
    assert parse_config(minimal()).hash == cfg.hash
    # Anything that changes the rows changes the hash.
    assert cfg.replace(games=11).hash != cfg.hash
    assert cfg.replace(seed=2).hash != cfg.hash
    other = parse_config(minimal(overrides={"obelisk": {"A": {"points_by_players": {"3": [10, 5, 1]}}}}))
    assert other.hash != cfg.hash
    assert json.loads(json.dumps(cfg.to_json())) == cfg.to_json()


def test_config_is_immutable():
    cfg = parse_config(minimal())
    with pytest.raises(AttributeError):
        cfg.games = 5  # type: ignore[misc]


def test_lineup_rotates_so_every_bot_sits_in_every_seat_equally():
    cell = Cell(0, "A-A-A-A-A", 3, ("x", "y", "z"))
    assert cell.seat_bots(0) == ["x", "y", "z"]
    assert cell.seat_bots(1) == ["y", "z", "x"]
    counts: dict[tuple[int, str], int] = {}
    for i in range(30):
        for seat, bot in enumerate(cell.seat_bots(i)):
            counts[seat, bot] = counts.get((seat, bot), 0) + 1
    assert set(counts.values()) == {10} and len(counts) == 9


def test_lineup_table_per_player_count_and_several_lineups():
    cfg = parse_config(minimal(
        study={"name": "t", "games": 5, "players": [2, 3]},
        bots={"lineup": {"2": ["random", "random"], "3": [["random"], ["random", "random"]]}},
    ))
    assert [c.id for c in cfg.cells] == [
        "A-A-A-A-A|2p|random,random", "A-A-A-A-A|3p|random", "A-A-A-A-A|3p|random,random"]


@pytest.mark.parametrize("raw, key, words", [
    ({"study": {"name": "t", "games": 1, "players": 3}, "colour": 1}, "colour", "unknown key"),
    ({}, "study", "missing"),
    (minimal(study={"name": "t", "games": 0, "players": [3]}), "study.games", ">= 1"),
    (minimal(study={"name": "t", "games": "many", "players": [3]}), "study.games", "integer"),
    (minimal(study={"name": "t", "games": 1, "players": [3], "sead": 1}), "study.sead", "unknown"),
    (minimal(study={"name": "t", "games": 1, "players": [3, 5]}), "study.players[1]", "2, 3 or 4"),
    (minimal(study={"name": "t", "games": 1, "players": [3, 3]}), "study.players[1]", "twice"),
    (minimal(study={"name": "t", "games": 1}), "study.players", "missing"),
    (minimal(study={"name": "a b", "games": 1, "players": 3}), "study.name", "letters"),
    (minimal(sides={"pyramid": ["A", "E"]}), "sides.pyramid[1]", "side letter"),
    (minimal(sides={"temple": "some"}), "sides.temple", '"all"'),
    (minimal(sides={"temple": []}), "sides.temple", '"all"'),
    (minimal(sides={"harbour": ["A"]}), "sides.harbour", "unknown key"),
    (minimal(bots={"lineup": ["random", "wizard"]}), "bots.lineup[1]", "bot name"),
    (minimal(bots={"lineup": []}), "bots.lineup", "non-empty"),
    (minimal(bots={"lineup": {"2": ["random"]}}), "bots.lineup.3", "missing"),
    (minimal(bots={"lineup": {"3": ["random"], "4": ["random"]}}), "bots.lineup.4", "player count"),
    (minimal(bots={"persona": {}}), "bots.persona", "unknown key"),
    (minimal(bots={"lineup": [["random"], ["random"]]}), "bots.lineup[1]", "twice"),
    (minimal(modules={"expansion": "yes"}), "modules.expansion", '"auto"'),
    (minimal(modules={"prophecies": 1}), "modules.prophecies", "true or false"),
    (minimal(overrides={"pyramid": {"A": {"pointz": [1]}}}), "overrides.pyramid.A.pointz", "unknown key"),
    (minimal(overrides={"pyramid": {"A": {"points": [1, 2]}}}), "overrides.pyramid.A.points", "14 items"),
    (minimal(overrides={"pyramid": {"E": {}}}), "overrides.pyramid.E", "unknown side"),
    (minimal(overrides={"game": {"rounds": 7}}), "overrides.game.rounds", "from 1 to 6"),
    (minimal(report={"margin": 0}), "report.margin", "margin"),
    (minimal(report={"margin": 0.7}), "report.margin", "margin"),
    (minimal(report={"colour": "red"}), "report.colour", "unknown key"),
    (minimal(run={"workers": 0}), "run.workers", ">= 1"),
    (minimal(run={"batch_size": 2.5}), "run.batch_size", "integer"),
    (minimal(run={"cluster": "my laptop"}), "run.cluster", "tcp://"),
    (minimal(gates="strict"), "gates", "table"),
])
def test_each_kind_of_problem_names_its_dotted_key(raw, key, words):
    found = problems(raw)
    assert key in found, found
    assert words in found[key]


def test_all_problems_are_reported_at_once():
    raw = {
        "study": {"name": "t", "games": -1, "players": [1, 3]},
        "sides": {"market": ["Q"]},
        "bots": {"lineup": ["nobody"]},
        "overrides": {"obelisk": {"A": {"points": 3}}},
        "report": {"margin": 2},
        "extra": {},
    }
    found = problems(raw)
    assert {"study.games", "study.players[0]", "sides.market[0]", "bots.lineup[0]",
            "overrides.obelisk.A.points", "report.margin", "extra"} <= set(found)


def test_bot_names_come_from_the_registry(monkeypatch):
    from imhotep_stats import bots

    class Tester:  # a bot written in Python
        name = "tester"

        def choose(self, view, legal, rng):
            return legal[0]

    monkeypatch.setitem(bots.REGISTRY, "tester", Tester)
    assert parse_config(minimal(bots={"lineup": ["tester", "random"]})).cells[0].lineup == (
        "tester", "random")


def test_toml_syntax_error_and_missing_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[study\nname = 1\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(bad)
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "nope.toml")


def test_gates_table_is_kept_for_the_report_and_not_hashed():
    cfg = parse_config(minimal(gates={"max_seat_gap": 0.05}))
    assert cfg.gates == {"max_seat_gap": 0.05}
    assert cfg.hash == parse_config(minimal()).hash


@pytest.mark.parametrize("path", sorted(CONFIGS.glob("*.toml")), ids=lambda p: p.name)
def test_example_configs_validate(path):
    """Every example is valid."""
    cfg = load_config(path)
    assert cfg.cells and cfg.games >= 1


def test_every_bot_sits_in_every_seat_equally_often_whatever_the_lineup_length():
    from collections import Counter

    from imhotep_stats.config import Cell

    for lineup, players in [(("greedy", "random"), 4), (("a", "b", "c"), 4), (("a", "b", "c"), 2),
                            (("a", "b", "c"), 3), (("a",), 3)]:
        cell = Cell(0, "A-A-A-A-A", players, lineup)
        m = max(len(lineup), players)
        for seat in range(players):
            seen = Counter(cell.seat_bots(g)[seat] for g in range(m * 10))
            # each bot sits in this seat in proportion to its share of the repeated table
            table = [lineup[i % len(lineup)] for i in range(m)]
            assert seen == Counter({b: table.count(b) * 10 for b in set(table)}), (lineup, players)


def test_a_persona_defined_by_weights_plays_in_a_lineup():
    cfg = parse_config(minimal(bots={
        "lineup": ["builder", "random", "random"],
        "personas": {"builder": {"base": "greedy", "weights": {"pyramid": 1.6, "deny": 0.5}}},
    }))
    assert cfg.cells[0].lineup == ("builder", "random", "random")
    assert json.loads(cfg.personas_json)["builder"]["weights"]["pyramid"] == 1.6
    # the persona's weights decide the rows: they are part of the hash
    other = parse_config(minimal(bots={
        "lineup": ["builder", "random", "random"],
        "personas": {"builder": {"base": "greedy", "weights": {"pyramid": 1.2}}},
    }))
    assert other.hash != cfg.hash
    from imhotep_stats.sim.batches import plan, simulate

    task = plan(cfg.cells, 3, 3, cfg.seed, False, None, "{}", cfg.personas_json)[0]
    assert set(simulate(task)["bot"]) == {"builder", "random"}


def test_persona_problems_name_their_keys():
    got = problems(minimal(bots={
        "lineup": ["random"],
        "personas": {"greedy": {"base": "greedy"}, "x": {"weights": {"pyramidd": 2}},
                     "y": {"base": "greedy", "colour": "red"}},
    }))
    assert "built-in" in got["bots.personas.greedy"]
    assert "pyramidd" in got["bots.personas.x"]
    assert "bots.personas.y.colour" in got


def test_a_search_persona_error_is_reported_at_its_key():
    """The bot reports which key of the table is wrong (BotSpecError.field); the config names
    it dotted, and an error about the table as a whole stays at the persona's key."""
    got = problems(minimal(bots={
        "lineup": ["random"],
        "personas": {"deep": {"base": "mcts", "truncate": 0},
                     "wide": {"base": "mcts", "iterations": "many"}},
    }))
    assert "expected an integer >= 1" in got["bots.personas.deep.truncate"]
    assert "expected an integer >= 1" in got["bots.personas.wide.iterations"]

"""Hand-written setups and transcripts checked (issue 13): chance outcomes pinned by a
transcript, setups against the game's cards, types, and bad files: each a one-line message
naming the line, exit code 1, never a traceback."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from imhotep_stats.cli import main
from imhotep_stats.engine.game import Game, RulesError, apply
from imhotep_stats.engine.play import chance_seed
from imhotep_stats.engine.result import result_of
from imhotep_stats.engine.transcript import TraceWriter, TranscriptError, replay, setup_line
from imhotep_stats.rules.board import default_board

TWO_ROUNDS = {"game": {"rounds": 2}}
DECK = ["statue", "chisel", "lever", "hammer"]


def scripted(g: Game, writer: TraceWriter) -> None:
    """Play ``g`` to the end: place a stone, else sail anywhere but the Market, else the
    first legal action (no market card is ever taken)."""
    while not g.over:
        opts = g.options
        a = (next((a for a in opts if a.kind == "place"), None)
             or next((a for a in opts if a.kind == "sail" and a.args[1] != "market"), None)
             or opts[0])
        writer.on_decision(g, a)
        apply(g, a)


def short_game(**kw) -> list[dict]:
    """A 2-round scenario whose 4-card deck is shown in round 1, discarded at its end and
    reshuffled for round 2's display: one reshuffle."""
    board = default_board().with_overrides(TWO_ROUNDS)
    g = Game(2, board=board, seed=chance_seed(3, 0), scenario=True, round_cards=[[1, 1, 1, 1]] * 2, deck=DECK, **kw)
    writer = TraceWriter()
    writer.lines.append(setup_line(g, 3, 0, ["script", "script"], TWO_ROUNDS))
    scripted(g, writer)
    writer.finish(g, result_of(g))
    return writer.lines


def lines_of(rows: list[dict]) -> list[str]:
    return [json.dumps(r) for r in rows]


def test_a_reshuffle_is_written_as_a_chance_line_and_replayed():
    rows = short_game()
    chance = [r for r in rows if r["type"] == "chance"]
    assert len(chance) == 1 and sorted(chance[0]["reshuffle"]) == sorted(DECK)
    # written after the decision during which the 4th ship sailed (round 1's last)
    i = rows.index(chance[0])
    assert rows[i - 1]["round"] == 1 and rows[i + 1]["round"] == 2
    rep = replay(lines_of(rows))
    assert rep.game.reshuffles == [chance[0]["reshuffle"]]


def test_a_hand_written_chance_line_pins_the_reshuffle():
    rows = short_game()
    k = next(i for i, r in enumerate(rows) if r["type"] == "chance")
    rows[k] = {"type": "chance", "reshuffle": ["lever", "hammer", "statue", "chisel"]}
    rep = replay(lines_of(rows))
    assert rep.game.reshuffles == [["lever", "hammer", "statue", "chisel"]]


def test_without_chance_lines_the_reshuffle_is_drawn_as_in_play():
    """The reshuffle stream is the seed's own: setup shuffles (here none: round cards and deck
    are given) never shift it, so replay draws what play drew."""
    rows = short_game()
    played = next(r for r in rows if r["type"] == "chance")["reshuffle"]
    rows = [r for r in rows if r["type"] != "chance"]
    rep = replay(lines_of(rows))
    assert rep.game.reshuffles == [played]


def test_a_chance_line_that_does_not_fit_is_named():
    rows = short_game()
    k = next(i for i, r in enumerate(rows) if r["type"] == "chance")
    rows[k] = {"type": "chance", "reshuffle": ["statue", "statue", "lever", "hammer"]}
    with pytest.raises(TranscriptError, match=rf"line {k + 1}: chance line: reshuffle 1: expected an order"):
        replay(lines_of(rows))
    rows[k] = {"type": "chance", "reshuffle": "statue"}
    with pytest.raises(TranscriptError, match=rf"line {k + 1}: chance line: \"reshuffle\": expected a list"):
        replay(lines_of(rows))
    rows = short_game()
    rows.insert(-1, {"type": "chance", "reshuffle": DECK})
    with pytest.raises(TranscriptError, match=rf"line {len(rows) - 1}: .*reshuffled the discard pile 1 times"):
        replay(lines_of(rows))


def test_setup_chance_outcomes_are_written_and_can_be_pinned():
    g = Game(3, "A-C-A-D-A", seed=5, prophecies=True)
    line = setup_line(g, 5, 0, [], None)
    assert set(line["chance"]) == {"scaffold", "tomb", "prophecies"}
    assert len(line["chance"]["scaffold"]) == 4 and sorted(line["chance"]["tomb"]) == list(range(1, 25))
    pinned = {"scaffold": [5, 4, 3, 2], "tomb": list(range(24, 0, -1)), "prophecies": ["ra", "amun", "thoth"]}
    g = Game(3, "A-C-A-D-A", seed=5, prophecies=True, chance=pinned)
    assert g.sites[1].tile == 4 and g.sites[1].hidden()["removed"] == [0]  # tile 5 face up, tile 1 out
    assert g.sites[3].face_up == [21, 22, 23, 24]  # round 1 turns up the first 4 listed
    assert g.prophecy.gods == ("ra", "amun", "thoth")


@pytest.mark.parametrize(
    "pins, message",
    [
        ({"tomb": [1, 2, 3]}, "chance.tomb: expected 24 distinct items"),
        ({"scaffold": [1, 1, 2, 3]}, "chance.scaffold: expected 4 distinct items"),
        ({"scaffold": [1, 2, 3, 9]}, r"chance.scaffold: an integer \(9\) is not one of \[1, 2, 3, 4, 5\]"),
        ({"scaffold": [1, 2, 3, True]}, r"chance.scaffold: a boolean \(true\) is not one of"),
        ({"prophecies": "ra"}, "chance.prophecies: expected a list"),
        ({"dice": [1]}, "chance: unknown outcome 'dice'"),
    ],
)
def test_bad_pinned_outcomes_are_errors(pins, message):
    with pytest.raises(RulesError, match=message):
        Game(3, "A-C-A-D-A", prophecies=True, chance=pins)


def test_a_pin_for_a_side_not_in_play_is_an_error(tmp_path):
    with pytest.raises(RulesError, match=r"chance.tomb: this game draws none \(Burial Chamber D is not in play\)"):
        Game(3, "A-C-A-A-A", chance={"tomb": list(range(1, 25))})
    setup = {**SETUP, "chance": {"scaffold": "1 2 3 4"}}
    one_line_error(run_replay(tmp_path, json.dumps(setup).encode()), "line 1", "setup line: chance.scaffold")


# ------------------------------------------------------------------ setups (docs/rules.md §1)
def test_a_full_game_takes_only_its_player_counts_distinct_round_cards():
    with pytest.raises(RulesError, match=r"round_cards\[0\]: \[1, 1, 1, 1\] is not one of the 3-player round cards"):
        Game(3, round_cards=[[1, 1, 1, 1]] * 6)
    pool = default_board().round_cards(3)
    with pytest.raises(RulesError, match=r"round_cards\[1\]: \[4, 3, 3, 2\] is dealt twice"):
        Game(3, round_cards=[pool[0]] * 6)
    with pytest.raises(RulesError, match="round_cards: expected 6 cards"):
        Game(3, round_cards=list(pool))  # all seven: one is removed at setup
    assert Game(3, round_cards=list(pool[1:])).round_cards == list(pool[1:])


def test_a_full_game_takes_exactly_the_games_cards():
    with pytest.raises(RulesError, match="deck: expected exactly the game's 34 cards, got 5"):
        Game(3, deck=["statue"] * 5)
    with pytest.raises(RulesError, match="deck: expected exactly the game's 48 cards"):
        Game(3, expansion=True, deck=Game(3).deck_initial)
    full = Game(3, "A-A-C-A-A").deck_initial
    assert Game(3, "A-A-C-A-A", deck=full).deck_initial == full


def test_a_scenario_allows_short_games_but_still_counts_the_cards():
    g = Game(3, scenario=True, round_cards=[[1, 1, 1, 1]] * 6, deck=["statue"] * 5)
    assert g.round_cards[0] == (1, 1, 1, 1)
    with pytest.raises(RulesError, match="deck: more cards than the game has: 1 statue too many"):
        Game(3, scenario=True, deck=["statue"] * 11)


def test_a_scenario_refuses_a_card_not_in_the_game():
    with pytest.raises(RulesError, match=r"deck: unknown card names \['barge'\]"):
        Game(3, scenario=True, deck=["barge"])  # an expansion card in a base game


@pytest.mark.parametrize(
    "kw, message",
    [
        ({"round_cards": [[4, 3, 2, 4.9]] * 6}, r"round_cards\[0\]: expected 4 whole ship sizes from 1 to 4"),
        ({"round_cards": [[4, 3, 2, True]] * 6}, r"round_cards\[0\]: expected 4 whole ship sizes"),
        ({"round_cards": [[5, 1, 1, 1]] * 6}, r"round_cards\[0\]"),
        ({"round_cards": "4321"}, r"round_cards: expected a list of round cards, got a string"),
        ({"deck": ["statue", 3]}, r"deck: expected a list of card names, got an integer \(3\)"),
    ],
)
def test_setup_types_are_checked(kw, message):
    with pytest.raises(RulesError, match=message):
        Game(3, scenario=True, **kw)


# ------------------------------------------------------------------ transcript files via the CLI
SETUP = {"type": "setup", "players": 2, "sides": "A-A-A-A-A", "seed": 1}


def run_replay(tmp_path, data: bytes):
    path = tmp_path / "t.jsonl"
    path.write_bytes(data)
    return CliRunner().invoke(main, ["replay", str(path)])


def one_line_error(r, *parts: str) -> None:
    assert r.exit_code == 1, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)  # no traceback
    err = r.output.strip()
    assert err.startswith("error: ") and "\n" not in err, err
    for part in parts:
        assert part in err, err


@pytest.mark.parametrize(
    "setup, parts",
    [
        ({**SETUP, "seed": 1.5}, ["line 1", "seed: expected a whole number, got a number (1.5)"]),
        ({**SETUP, "players": True}, ["line 1", "players: expected a whole number", "a boolean (true)"]),
        ({**SETUP, "sides": 5}, ["line 1", "sides: expected a string"]),
        ({**SETUP, "game": -1}, ["line 1", "game: expected a whole number, 0 or more"]),
        ({**SETUP, "scenario": "yes"}, ["line 1", "scenario: expected true or false"]),
        ({**SETUP, "round_cards": [[4, 3, 2, 4.9]] * 6}, ["line 1", "round_cards[0]: expected 4 whole ship sizes"]),
        ({**SETUP, "deck": ["statue"] * 5}, ["line 1", "deck: expected exactly the game's 34 cards"]),
    ],
)
def test_bad_setup_lines_are_named(tmp_path, setup, parts):
    one_line_error(run_replay(tmp_path, json.dumps(setup).encode()), *parts)


def test_a_seat_of_true_is_an_error(tmp_path):
    data = "\n".join([json.dumps(SETUP), json.dumps({"type": "decision", "seat": True, "action": "get"})])
    one_line_error(run_replay(tmp_path, data.encode()), "line 2", '"seat": expected a whole number, got a boolean (true)')


def test_result_seats_that_are_a_string_are_an_error(tmp_path):
    played = tmp_path / "g.jsonl"
    assert CliRunner().invoke(main, ["play", "--players", "2", "--trace", str(played)]).exit_code == 0
    rows = played.read_text().splitlines()
    rows[-1] = json.dumps({"type": "result", "seats": "all of them"})
    one_line_error(run_replay(tmp_path, "\n".join(rows).encode()), f"line {len(rows)}", '"seats": expected a list of objects')


@pytest.mark.parametrize(
    "data, parts",
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", ["line 1", "not UTF-8 text (byte 0x89 at column 1)"]),
        (json.dumps(SETUP).encode() + b"\n\xff\xfe", ["line 2", "not UTF-8"]),
        (b"\x00\x01\x02", ["line 1", "binary file"]),
        (("[" * 100_000 + "]" * 100_000).encode(), ["line 1", "nested too deeply"]),
        (('{"type": "setup", "players": 2, "sides": "A-A-A-A-A", "seed": ' + "9" * 5000 + "}").encode(),
         ["line 1", "not valid JSON here", "digits"]),
    ],
)
def test_bad_files_give_one_line_and_exit_1(tmp_path, data, parts):
    one_line_error(run_replay(tmp_path, data), *parts)


def test_play_trace_into_a_missing_directory(tmp_path):
    r = CliRunner().invoke(main, ["play", "--trace", str(tmp_path / "no" / "such" / "g.jsonl")])
    one_line_error(r, "error: --trace: cannot write", "No such file or directory")

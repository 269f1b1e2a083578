"""Transcripts: play then replay, hand-written games, every documented error."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from imhotep_stats.cli import main
from imhotep_stats.engine.transcript import TranscriptError, replay


def play_trace(tmp_path, *args) -> list[str]:
    path = tmp_path / "game.jsonl"
    r = CliRunner().invoke(main, ["play", "--trace", str(path), "--json", *args])
    assert r.exit_code == 0, r.output
    return path.read_text().splitlines(), json.loads(r.output)


@pytest.mark.parametrize("seed", range(25))
def test_play_then_replay_gives_identical_scores(tmp_path, seed):
    players = 2 + seed % 3
    lines, played = play_trace(tmp_path, "--players", str(players), "--seed", str(seed))
    rep = replay(lines)
    assert rep.mismatches == []
    assert rep.result.to_json() == played


def test_replay_cli_json_identical_to_play(tmp_path):
    lines, played = play_trace(tmp_path, "--seed", "7")
    r = CliRunner().invoke(main, ["replay", str(tmp_path / "game.jsonl"), "--json"])
    assert r.exit_code == 0
    assert json.loads(r.output) == played


# A one-round game written by hand (rounds overridden to 1): 2 players, ships 2 2 1 1.
# seat 0 starts with 2 stones on the sled, seat 1 with 3.
HAND = [
    {"type": "setup", "players": 2, "sides": "A-A-A-A-A", "overrides": {"game": {"rounds": 1}},
     "scenario": True, "round_cards": [[2, 2, 1, 1]],
     "deck": ["statue", "chisel", "entrance", "paved_path"] + ["statue"] * 9},
    {"type": "decision", "seat": 0, "action": "place 0 0"},
    {"type": "decision", "seat": 1, "action": "place 0 1"},
    # pyramid: seat 0 (bow) takes space 1 = 2 points, seat 1 space 2 = 1 point
    {"type": "decision", "seat": 0, "action": "sail 0 pyramid"},
    {"type": "decision", "seat": 1, "action": "place 1 0"},
    {"type": "decision", "seat": 0, "action": "place 2 0"},
    {"type": "decision", "seat": 1, "action": "sail 1 temple"},  # seat 1's stone in column 1
    {"type": "decision", "seat": 0, "action": "sail 2 obelisk"},  # seat 0's obelisk: height 1
    {"type": "decision", "seat": 1, "action": "place 3 0"},
    {"type": "decision", "seat": 0, "action": "sail 3 market"},  # the 4th ship
    # seat 1's stone returns to its quarry; it takes the Entrance: a stone from the quarry to
    # the pyramid, space 3 = 3 points
    {"type": "decision", "seat": 1, "action": "take entrance"},
    # round end: temple, seat 1 visible once = 1 point. Game end: obelisks 2 players 10 / 1:
    # seat 0 has the only obelisk, 10 points; seat 1 has no stone there, nothing.
    # seat 0: 2 + 10 = 12; seat 1: 1 + 3 + 1 = 5.
    {"type": "result", "seats": [{"seat": 0, "total": 12}, {"seat": 1, "total": 5}], "winners": [0]},
]


def hand_lines(rows=HAND) -> list[str]:
    return [json.dumps(r) for r in rows]


def test_hand_written_transcript_scores_as_worked_out():
    rep = replay(hand_lines())
    assert rep.mismatches == []
    assert rep.result.totals == [12, 5]
    assert rep.result.by_source[0]["pyramid"] == 2 and rep.result.by_source[0]["obelisk"] == 10
    assert rep.result.by_source[1]["pyramid"] == 4 and rep.result.by_source[1]["temple"] == 1
    assert rep.result.winners == [0]


def test_result_line_that_disagrees_is_reported(tmp_path):
    rows = [dict(r) for r in HAND]
    rows[-1] = {"type": "result", "seats": [{"seat": 0, "total": 13}], "winners": [0]}
    rep = replay(hand_lines(rows))
    assert rep.mismatches and "seat 0 total 13" in rep.mismatches[0]
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(hand_lines(rows)))
    r = CliRunner().invoke(main, ["replay", str(path)])
    assert r.exit_code == 1
    assert "result differs" in r.output


def test_illegal_action_names_line_action_and_legal_actions(tmp_path):
    rows = [dict(r) for r in HAND]
    rows[3] = {"type": "decision", "seat": 0, "action": "sail 0 nowhere"}
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(hand_lines(rows)))
    r = CliRunner().invoke(main, ["replay", str(path)])
    assert r.exit_code == 1
    assert "line 4" in r.output and "sail 0 nowhere" in r.output and "sail 0 pyramid" in r.output


def test_wrong_seat_is_refused():
    rows = [dict(r) for r in HAND]
    rows[1] = {"type": "decision", "seat": 1, "action": "place 0 0"}
    with pytest.raises(TranscriptError, match="line 2: seat 1 cannot act now"):
        replay(hand_lines(rows))


def test_malformed_line_is_named():
    lines = hand_lines()
    lines[2] = "{not json"
    with pytest.raises(TranscriptError, match="line 3: not valid JSON"):
        replay(lines)


def test_missing_setup_and_truncated_transcript():
    with pytest.raises(TranscriptError, match="setup"):
        replay(hand_lines(HAND[1:]))
    with pytest.raises(TranscriptError, match="ends before the game is over"):
        replay(hand_lines(HAND[:5]))


def test_bad_setup_values_are_named():
    rows = [dict(r) for r in HAND]
    rows[0] = {**HAND[0], "deck": ["statue", "joker"]}
    with pytest.raises(TranscriptError, match="line 1: .*joker"):
        replay(hand_lines(rows))
    rows[0] = {**HAND[0], "round_cards": [[5, 1, 1, 1]]}
    with pytest.raises(TranscriptError, match="line 1: .*round_cards"):
        replay(hand_lines(rows))
    rows[0] = {**HAND[0], "overrides": {"game": {"roundz": 1}}}
    with pytest.raises(TranscriptError, match="overrides.game.roundz"):
        replay(hand_lines(rows))

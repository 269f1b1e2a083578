"""Transcripts: a game as JSON Lines, written by ``play --trace`` and re-executed by ``replay``.

Line 1 is the setup (players, sides, seed, the chance outcomes used: round cards in order and
the market deck top first), then one line per decision (seat and action notation), then a
result line. A transcript written by hand, with chosen round cards and deck order, is
accepted: that is how a game played at a real table gets scored. See README "Transcripts".
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import IO, Any

from imhotep_stats.engine.game import Game, RulesError, apply
from imhotep_stats.engine.play import chance_seed
from imhotep_stats.engine.result import GameResult, result_of
from imhotep_stats.rules.board import Board, BoardDataError, default_board

VERSION = 1


class TranscriptError(ValueError):
    """A transcript that cannot be replayed; ``line`` is 1-based."""

    def __init__(self, line: int, message: str):
        self.line = line
        super().__init__(f"line {line}: {message}")


def setup_line(g: Game, root_seed: int, game_index: int, bots: list[str], overrides: dict | None) -> dict:
    line: dict[str, Any] = {
        "type": "setup",
        "version": VERSION,
        "players": g.n,
        "sides": "-".join(g.sides),
        "seed": root_seed,
        "game": game_index,
        "expansion": g.expansion,
        "prophecies": g.prophecies,
        "bots": bots,
        "round_cards": [list(c) for c in g.round_cards],
        "deck": list(g.deck_initial),
    }
    if overrides:
        line["overrides"] = overrides
    return line


def decision_line(g: Game, action) -> dict:
    return {"type": "decision", "n": g.decisions + 1, "round": g.round, "seat": g.to_move,
            "kind": g.kind, "action": str(action)}


def result_line(r: GameResult) -> dict:
    return {"type": "result", **r.to_json()}


class TraceWriter:
    """Collects transcript lines during play; ``write`` dumps them as JSON Lines."""

    def __init__(self) -> None:
        self.lines: list[dict] = []

    def on_decision(self, g: Game, action) -> None:
        self.lines.append(decision_line(g, action))

    def write(self, fh: IO[str]) -> None:
        for line in self.lines:
            fh.write(json.dumps(line, separators=(",", ":")) + "\n")


@dataclass
class Replay:
    game: Game
    result: GameResult
    mismatches: list[str]  # differences between the result line and the replayed scores


def replay(lines: list[str], board: Board | None = None) -> Replay:
    """Re-execute a transcript. Raises :class:`TranscriptError` naming the line."""
    parsed = []
    for i, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise TranscriptError(i, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
        if not isinstance(obj, dict) or "type" not in obj:
            raise TranscriptError(i, 'expected a JSON object with a "type" field')
        parsed.append((i, obj))
    if not parsed or parsed[0][1]["type"] != "setup":
        raise TranscriptError(parsed[0][0] if parsed else 1, 'the first line must be the "setup" line')
    line_no, setup = parsed[0]
    for key in ("players", "sides"):
        if key not in setup:
            raise TranscriptError(line_no, f'setup line: missing "{key}"')
    board = board or default_board()
    if setup.get("overrides"):
        try:
            board = board.with_overrides(setup["overrides"])
        except BoardDataError as exc:
            raise TranscriptError(line_no, f"setup line: {exc}") from None
    try:
        g = Game(
            setup["players"],
            setup["sides"],
            board=board,
            seed=chance_seed(setup.get("seed", 0), setup.get("game", 0)),
            expansion=setup.get("expansion"),
            prophecies=bool(setup.get("prophecies", False)),
            round_cards=setup.get("round_cards"),
            deck=setup.get("deck"),
        )
    except (RulesError, TypeError) as exc:
        raise TranscriptError(line_no, f"setup line: {exc}") from None
    result_obj = None
    for i, obj in parsed[1:]:
        kind = obj["type"]
        if kind == "result":
            result_obj = (i, obj)
            continue
        if kind != "decision":
            raise TranscriptError(i, f'unknown line type {kind!r} (expected "decision" or "result")')
        if g.over:
            raise TranscriptError(i, "the game is already over")
        if "action" not in obj:
            raise TranscriptError(i, 'decision line: missing "action"')
        seat = obj.get("seat", g.to_move)
        legal = ", ".join(map(str, g.options))
        if seat != g.to_move:
            raise TranscriptError(
                i, f"seat {seat} cannot act now: seat {g.to_move} decides ({g.kind}); legal: {legal}"
            )
        text = str(obj["action"]).strip()
        action = next((a for a in g.options if str(a) == text), None)
        if action is None:
            raise TranscriptError(
                i, f"illegal action {text!r} for seat {g.to_move} at a {g.kind} decision; legal: {legal}"
            )
        apply(g, action)
    if not g.over:
        last = parsed[-1][0]
        raise TranscriptError(
            last,
            f"the transcript ends before the game is over: seat {g.to_move} decides next "
            f"({g.kind}); legal: {', '.join(map(str, g.options))}",
        )
    result = result_of(g)
    mismatches = []
    if result_obj is not None:
        i, obj = result_obj
        expected = obj.get("seats", [])
        for seat in expected:
            p = seat.get("seat")
            if isinstance(p, int) and 0 <= p < g.n and seat.get("total") != result.totals[p]:
                mismatches.append(
                    f"line {i}: seat {p} total {seat.get('total')} in the transcript, "
                    f"{result.totals[p]} replayed"
                )
        if "winners" in obj and obj["winners"] != result.winners:
            mismatches.append(f"line {i}: winners {obj['winners']} in the transcript, {result.winners} replayed")
    return Replay(g, result, mismatches)

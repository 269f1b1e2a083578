"""Transcripts: a game as JSON Lines, written by ``play --trace`` and re-executed by ``replay``.

Line 1 is the setup (players, sides, seed, and every chance outcome drawn at setup: round
cards in order, the market deck top first, the ``chance`` table of scaffold tiles, tomb tokens
and prophecy cards), then one line per decision (seat and action notation), a ``chance`` line
after each decision that reshuffled the discard pile (the new draw pile, top first), and a
result line. A transcript alone determines its game; one written by hand pins what it lists
and draws the rest from the seed's streams (engine/chance.py). That is how a game played at a
real table gets scored. Format: README "Transcripts"; in full: docs/engine.md "Transcripts".
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from imhotep_stats.engine.errors import ChanceError, RulesError
from imhotep_stats.engine.game import Game, apply
from imhotep_stats.engine.play import chance_seed
from imhotep_stats.engine.result import GameResult, result_of
from imhotep_stats.engine.setup_checks import is_whole
from imhotep_stats.errors import describe
from imhotep_stats.rules.board import Board, BoardDataError, default_board

VERSION = 2  # 2: chance lines, the setup's chance table and scenario flag


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
    if g.scenario:
        line["scenario"] = True
    if g.chance_setup:
        line["chance"] = {k: list(v) for k, v in g.chance_setup.items()}
    if overrides:
        line["overrides"] = overrides
    return line


def decision_line(g: Game, action) -> dict:
    return {"type": "decision", "n": g.decisions + 1, "round": g.round, "seat": g.to_move,
            "kind": g.kind, "action": str(action)}


def chance_line(order: list[str]) -> dict:
    return {"type": "chance", "reshuffle": order}


def result_line(r: GameResult) -> dict:
    return {"type": "result", **r.to_json()}


class TraceWriter:
    """Collects transcript lines during play; ``write`` dumps them as JSON Lines. Each
    reshuffle is written as a chance line after the decision during which it happened."""

    def __init__(self) -> None:
        self.lines: list[dict] = []
        self._reshuffles = 0

    def _chance_lines(self, g: Game) -> None:
        while self._reshuffles < len(g.reshuffles):
            self.lines.append(chance_line(g.reshuffles[self._reshuffles]))
            self._reshuffles += 1

    def on_decision(self, g: Game, action) -> None:
        self._chance_lines(g)
        self.lines.append(decision_line(g, action))

    def finish(self, g: Game, r: GameResult) -> None:
        """The last chance lines and the result line."""
        self._chance_lines(g)
        self.lines.append(result_line(r))

    def write(self, fh: IO[str]) -> None:
        for line in self.lines:
            fh.write(json.dumps(line, separators=(",", ":")) + "\n")


@dataclass
class Replay:
    game: Game
    result: GameResult
    mismatches: list[str]  # differences between the result line and the replayed scores
    setup: dict  # the setup line as read


def read_lines(path: Path) -> list[str]:
    """A transcript file's lines, decoded as UTF-8; bytes that are not name their line."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TranscriptError(0, f"cannot read {path}: {exc.strerror or exc}") from None
    lines = []
    for i, raw in enumerate(data.split(b"\n"), start=1):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise TranscriptError(
                i, f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at column {exc.start + 1}): "
                "a transcript is JSON Lines"
            ) from None
        if "\x00" in text:
            raise TranscriptError(i, "a NUL byte: this is a binary file, not a JSON Lines transcript")
        lines.append(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _parse(i: int, text: str) -> dict:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TranscriptError(i, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise TranscriptError(i, "not valid JSON here: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise TranscriptError(i, f"not valid JSON here: {exc}") from None
    if not isinstance(obj, dict) or "type" not in obj:
        raise TranscriptError(i, 'expected a JSON object with a "type" field')
    return obj


# Setup keys: (test, what is expected). Required: players and sides.
_SETUP_TYPES: dict[str, tuple[Any, str]] = {
    "version": (is_whole, "a whole number"),
    "players": (is_whole, "a whole number (2, 3 or 4)"),
    "sides": (lambda v: isinstance(v, str), 'a string such as "D-A-C-B-D"'),
    "seed": (is_whole, "a whole number"),
    "game": (lambda v: is_whole(v) and v >= 0, "a whole number, 0 or more"),
    "expansion": (lambda v: v is None or isinstance(v, bool), "true, false or null"),
    "prophecies": (lambda v: isinstance(v, bool), "true or false"),
    "scenario": (lambda v: isinstance(v, bool), "true or false"),
    "bots": (lambda v: isinstance(v, list) and all(isinstance(b, str) for b in v), "a list of bot names"),
    "overrides": (lambda v: isinstance(v, dict), "a table"),
    "chance": (lambda v: isinstance(v, dict), "a table of pinned outcomes"),
}


def _check_setup(i: int, setup: dict) -> None:
    for key in ("players", "sides"):
        if key not in setup:
            raise TranscriptError(i, f'setup line: missing "{key}"')
    for key, value in setup.items():
        check = _SETUP_TYPES.get(key)
        if check is not None and not check[0](value):
            raise TranscriptError(i, f"setup line: {key}: expected {check[1]}, got {describe(value)}")


def _game(line_no: int, setup: dict, board: Board, reshuffles: list) -> Game:
    if setup.get("overrides"):
        try:
            board = board.with_overrides(setup["overrides"])
        except BoardDataError as exc:
            raise TranscriptError(line_no, f"setup line: {exc}") from None
    try:
        return Game(
            setup["players"],
            setup["sides"],
            board=board,
            seed=chance_seed(setup.get("seed", 0), setup.get("game", 0)),
            expansion=setup.get("expansion"),
            prophecies=setup.get("prophecies", False),
            round_cards=setup.get("round_cards"),
            deck=setup.get("deck"),
            scenario=setup.get("scenario", False),
            chance=setup.get("chance"),
            reshuffles=reshuffles,
        )
    except ChanceError as exc:
        if exc.reshuffle >= 0:
            raise
        raise TranscriptError(line_no, f"setup line: {exc}") from None
    except RulesError as exc:
        raise TranscriptError(line_no, f"setup line: {exc}") from None


def _check_result(i: int, obj: dict, g: Game, result: GameResult) -> list[str]:
    """Differences between a result line and the replayed result (its types checked)."""
    seats = obj.get("seats", [])
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        raise TranscriptError(i, f'result line: "seats": expected a list of objects, got {describe(seats)}')
    mismatches = []
    for seat in seats:
        p, total = seat.get("seat"), seat.get("total")
        if not is_whole(p) or not 0 <= p < g.n:
            raise TranscriptError(i, f'result line: "seat": expected a seat from 0 to {g.n - 1}, got {describe(p)}')
        if "total" in seat and not is_whole(total):
            raise TranscriptError(i, f'result line: seat {p} "total": expected a whole number, got {describe(total)}')
        if total is not None and total != result.totals[p]:
            mismatches.append(f"line {i}: seat {p} total {total} in the transcript, {result.totals[p]} replayed")
    if "winners" in obj:
        winners = obj["winners"]
        if not isinstance(winners, list) or not all(is_whole(w) for w in winners):
            raise TranscriptError(i, f'result line: "winners": expected a list of seats, got {describe(winners)}')
        if winners != result.winners:
            mismatches.append(f"line {i}: winners {winners} in the transcript, {result.winners} replayed")
    return mismatches


def replay(lines: list[str], board: Board | None = None,
           on_decision: Callable[[Game, dict], None] | None = None) -> Replay:
    """Re-execute a transcript. Raises :class:`TranscriptError` naming the line.
    ``on_decision(game, line)`` is called before each decision line is applied (the viewer
    records the state there)."""
    parsed = [(i, _parse(i, text)) for i, text in enumerate(lines, start=1) if text.strip()]
    if not parsed or parsed[0][1]["type"] != "setup":
        raise TranscriptError(parsed[0][0] if parsed else 1, 'the first line must be the "setup" line')
    line_no, setup = parsed[0]
    _check_setup(line_no, setup)
    # Reshuffles are pinned in the order of their chance lines, wherever those stand.
    chance_lines = [(i, obj) for i, obj in parsed[1:] if obj["type"] == "chance"]
    for i, obj in chance_lines:
        order = obj.get("reshuffle")
        if not isinstance(order, list) or not all(isinstance(c, str) for c in order):
            raise TranscriptError(i, f'chance line: "reshuffle": expected a list of card names, top first, got {describe(order)}')
    try:
        g = _game(line_no, setup, board or default_board(), [obj["reshuffle"] for _, obj in chance_lines])
        result_obj = None
        for k, (i, obj) in enumerate(parsed[1:], start=2):
            kind = obj["type"]
            if kind == "chance":
                continue
            if kind == "result":
                if k < len(parsed):  # lines after the result would be no part of the game
                    raise TranscriptError(i, "the result line must be the last line, but "
                                          f"line {parsed[k][0]} follows it")
                result_obj = (i, obj)
                continue
            if kind != "decision":
                raise TranscriptError(i, f'unknown line type {kind!r} (expected "decision", "chance" or "result")')
            if g.over:
                raise TranscriptError(i, "the game is already over")
            if on_decision is not None:
                on_decision(g, obj)
            _decide(i, obj, g)
    except ChanceError as exc:
        raise TranscriptError(chance_lines[exc.reshuffle][0], f"chance line: {exc}") from None
    if not g.over:
        raise TranscriptError(
            parsed[-1][0],
            f"the transcript ends before the game is over: seat {g.to_move} decides next "
            f"({g.kind}); legal: {', '.join(map(str, g.options))}",
        )
    if len(chance_lines) > len(g.reshuffles):
        raise TranscriptError(
            chance_lines[len(g.reshuffles)][0],
            f"chance line: the game reshuffled the discard pile {len(g.reshuffles)} times, "
            f"this is reshuffle {len(g.reshuffles) + 1}",
        )
    result = result_of(g)
    mismatches = _check_result(*result_obj, g, result) if result_obj is not None else []
    return Replay(g, result, mismatches, setup)


def _decide(i: int, obj: dict, g: Game) -> None:
    """Apply one decision line."""
    if "action" not in obj:
        raise TranscriptError(i, 'decision line: missing "action"')
    seat, text = obj.get("seat", g.to_move), obj["action"]
    legal = ", ".join(map(str, g.options))
    if not is_whole(seat):
        raise TranscriptError(i, f'decision line: "seat": expected a whole number, got {describe(seat)}')
    if not isinstance(text, str):
        raise TranscriptError(i, f'decision line: "action": expected a string, got {describe(text)}')
    if seat != g.to_move:
        raise TranscriptError(i, f"seat {seat} cannot act now: seat {g.to_move} decides ({g.kind}); legal: {legal}")
    text = text.strip()
    action = next((a for a in g.options if str(a) == text), None)
    if action is None:
        raise TranscriptError(i, f"illegal action {text!r} for seat {g.to_move} at a {g.kind} decision; legal: {legal}")
    apply(g, action)

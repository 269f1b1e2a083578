"""The last bad inputs of issue 26, each a one-line error naming the line or the dotted key
(exit 1): a transcript's result line that is not its last line, cluster addresses in a config
checked as on the command line, an HTTP server given as a Dask scheduler, and board-data
overrides that would make a rule the game does not have (rules/limits.py says why)."""

from __future__ import annotations

import ast
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner

from imhotep_stats.cli import main
from imhotep_stats.config import ConfigError, parse_config
from imhotep_stats.engine.transcript import TranscriptError, replay
from tests.test_transcript_checks import lines_of, short_game

STUDY = """
[study]
name = "faults"
games = 4
players = 3
"""


def cli(*args, env=None):
    return CliRunner().invoke(main, [str(a) for a in args], env=env)


def one_line_error(r, exit_code=1):
    assert r.exit_code == exit_code, (r.exit_code, r.output, r.exception)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    errors = [line for line in r.stderr.splitlines() if line.startswith(("error:", "Error:"))]
    assert len(errors) == 1 and "Traceback" not in r.output, r.stderr
    return errors[0]


# --- a transcript's result line is its last line -------------------------------------------


def _result_first(rows):  # the result line moved before the last decision
    return [*rows[:-2], rows[-1], rows[-2]]


def _chance_after(rows):
    return [*rows, {"type": "chance", "reshuffle": ["statue"]}]


def _two_results(rows):
    return [*rows, rows[-1]]


@pytest.mark.parametrize("damage", [_result_first, _chance_after, _two_results])
def test_a_result_line_must_be_the_last_line(tmp_path, damage):
    rows = damage(short_game())
    result_at = next(i for i, r in enumerate(rows, start=1) if r["type"] == "result")
    with pytest.raises(TranscriptError) as info:
        replay(lines_of(rows))
    assert info.value.line == result_at
    after = result_at + 1
    assert str(info.value) == f"line {result_at}: the result line must be the last line, but line {after} follows it"  # noqa: E501
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines_of(rows)) + "\n")
    line = one_line_error(cli("replay", path))
    assert f"line {result_at}: the result line must be the last line" in line


def test_a_result_line_last_still_replays():
    assert replay(lines_of(short_game())).mismatches == []


# --- cluster addresses ---------------------------------------------------------------------

BAD_ADDRESSES = [
    ("http://127.0.0.1:1", "web address"),
    ("https://sched:8787", "web address"),
    ("tcp://127.0.0.1:99999", "a port from 1 to 65535"),
    ("tcp://127.0.0.1:0", "a port from 1 to 65535"),
    ("ftp://sched:8786", "scheme 'ftp'"),
    ("sched:8786", "like tcp://host:8786"),
]


@pytest.mark.parametrize("address, words", BAD_ADDRESSES)
def test_a_config_cluster_address_is_checked_as_on_the_command_line(tmp_path, address, words):
    path = tmp_path / "c.toml"
    path.write_text(STUDY + f'\n[run]\ncluster = "{address}"\n')
    for command in (("validate", path), ("run", path, "--out", tmp_path / "out", "-q")):
        r = cli(*command)
        assert r.exit_code == 1 and "Traceback" not in r.output, r.output
        assert "run.cluster: expected a scheduler address like tcp://host:8786" in r.stderr
        assert words in r.stderr, r.stderr
    assert not (tmp_path / "out").exists()
    # the same check for the flag (a usage error there: exit 2, docs/studies.md)
    line = one_line_error(cli("run", path, "--cluster", address, "--out", tmp_path / "o"), 2)
    assert words in line


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:8786", "tls://sched.example:8786",
                                     "ws://10.0.0.2:8786", "tcp://[::1]:8786", "tcp://sched"])
def test_scheduler_addresses_pass(address):
    cfg = parse_config({"study": {"name": "t", "games": 1, "players": 3},
                        "run": {"cluster": address}})
    assert cfg.cluster == address


@pytest.fixture
def http_server():
    """An HTTP server (a Dask dashboard, say) on a free loopback port."""

    class Hello(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the handler's name
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"<html>dashboard</html>")

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Hello)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def test_an_http_server_as_the_scheduler_is_one_line(tmp_path, http_server):
    pytest.importorskip("distributed")
    path = tmp_path / "c.toml"
    path.write_text(STUDY)
    address = f"tcp://127.0.0.1:{http_server}"
    r = cli("run", path, "--out", tmp_path / "run", "--cluster", address, "-q",
            env={"IMHOTEP_CLUSTER_TIMEOUT": "1"})
    line = one_line_error(r)
    assert f"cannot reach the Dask scheduler at {address} within 1 s" in line
    assert not (tmp_path / "run" / "manifest.json").exists()
    line = one_line_error(cli("run", path, "--out", tmp_path / "run", "--cluster",
                              f"http://127.0.0.1:{http_server}", "-q"), 2)
    assert "web address" in line


# --- overrides that would make a rule the game does not have ------------------------------

FIXED = [
    ({"cards": {"statue": {"colour": "purple"}}}, "overrides.cards.statue.colour"),
    ({"cards": {"statue": {"colour": "green"}}}, "overrides.cards.statue.colour"),
    ({"cards": {"chisel": {"colour": "red"}}}, "overrides.cards.chisel.colour"),
    ({"cards": {"entrance": {"site": "temple"}}}, "overrides.cards.entrance.site"),
    ({"cards": {"cargo_sled": {"deck": "base"}}}, "overrides.cards.cargo_sled.deck"),
    ({"cards": {"statue_expansion": {"same_as": "chisel"}}},
     "overrides.cards.statue_expansion.same_as"),
]


@pytest.mark.parametrize("override, key", FIXED)
def test_what_a_card_is_cannot_be_overridden(tmp_path, override, key):
    with pytest.raises(ConfigError) as info:
        parse_config({"study": {"name": "t", "games": 1, "players": 3}, "overrides": override})
    problems = dict(info.value.problems)
    assert key in problems and "is a rule of the game" in problems[key], problems
    path = tmp_path / "c.toml"
    path.write_text(STUDY + "\n[overrides]\n" + _toml(override))
    r = cli("validate", path)
    assert r.exit_code == 1 and key in r.stderr and "Traceback" not in r.output, r.output


def test_the_issues_statue_override_is_refused(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text(STUDY + '\n[overrides.cards.statue]\ncolour = "purple"\n')
    r = cli("validate", path)
    assert r.exit_code == 1 and "c.toml: 1 problem" in r.stderr, r.output
    assert "overrides.cards.statue.colour: cannot be overridden: this is a rule of the game" \
        in r.stderr


def _toml(override: dict) -> str:
    (top, sub), = override.items()
    (name, kv), = sub.items()
    return "".join(f"{top}.{name}.{k} = {json.dumps(v)}\n" for k, v in kv.items())


def test_the_numbers_of_a_card_stay_overridable():
    cfg = parse_config({"study": {"name": "t", "games": 1, "players": 3},
                        "overrides": {"cards": {"statue": {"count": 6},
                                                "private_quarry": {"points": 2}}}})
    assert cfg.board().cards["statue"]["count"] == 6


# --- the docs' fault table -----------------------------------------------------------------

DOCS = Path(__file__).parent.parent / "docs" / "studies.md"


def fault_rows() -> list[list[str]]:
    text = DOCS.read_text().split("## Faults and what you see", 1)[1]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in text.splitlines()
            if line.startswith("| ") and not line.startswith("| fault ")]
    assert rows and all(len(r) == 4 for r in rows), rows
    return rows


def defined_tests(path: Path) -> set[str]:
    return {n.name for n in ast.parse(path.read_text()).body
            if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")}


def _words(text: str) -> str:
    return " ".join(text.split())


def test_the_docs_fault_table_matches_the_tests():
    here = Path(__file__).parent
    named: set[tuple[str, str]] = set()
    for fault, _does, shown, tests in fault_rows():
        refs = re.findall(r"`(test_\w+\.py)::(test_\w+)`", tests)
        assert refs, f"row {fault!r} names no test"
        for file, name in refs:
            assert name in defined_tests(here / file), f"row {fault!r}: no {file}::{name}"
        named |= set(refs)
        source = _words(" ".join((here / f).read_text() for f in {f for f, _ in refs}))
        for message in re.findall(r"`([^`]+)`", shown):
            # what the tests check: each stretch of the message between placeholders
            # (ADDRESS, N, ...) of two words or more is in one of the row's tests
            for part in re.split(r"\.\.\.|\b[A-Z]+\b|[();]", message):
                part = _words(part).strip(" ,:")
                if len(part.split()) >= 2:
                    assert part in source, f"row {fault!r}: no test checks {part!r}"
    missing = {t for t in defined_tests(here / "test_dask_faults.py")
               if ("test_dask_faults.py", t) not in named}
    assert not missing, f"Dask fault tests without a row in docs/studies.md: {missing}"


def _extremes(board):
    """(dotted key, override) for every overridable value at each end of its range (or each
    allowed word): the whole list or table set to it, so every item is at the end at once."""
    from imhotep_stats.rules import limits
    from imhotep_stats.rules.board import META_KEYS, _thaw

    def set_all(value, new):
        if isinstance(value, list):
            return [set_all(v, new) for v in value]
        if isinstance(value, dict):
            return {k: set_all(v, new) for k, v in value.items()}
        return new

    tables = {**{n: sd.values for n, sd in board.sides.items()}, **board.tables}
    for name, values in tables.items():
        rows = values.items() if name != "cards" else [
            (f"{card}.{k}", v) for card, props in values.items() for k, v in props.items()]
        for key, value in rows:
            if key in META_KEYS:
                continue
            dotted = f"{name}.{key}"
            leaf_key, leaf = next(limits.leaves(_thaw(value), dotted))
            rule = limits.rule_for(leaf_key)
            ends = ([rule.low, rule.high] if isinstance(rule, limits.Int) else
                    [v for v in rule.values if v != leaf] if isinstance(rule, limits.OneOf) else [])
            for end in ends:
                override: dict = set_all(_thaw(value), end)
                for part in reversed(dotted.split(".")):
                    override = {part: override}
                yield f"{dotted} = {end!r}", override


def test_every_overridable_value_plays_at_both_ends_of_its_range():
    # `limits.RULES` promises that within the ranges a game always ends by the rules: each
    # value at each end (every item of a list at once), 2 and 4 players, random bots.
    from imhotep_stats.bots import make_bot
    from imhotep_stats.engine.game import Game
    from imhotep_stats.engine.play import bot_rng, play_game
    from imhotep_stats.rules.board import SITES, BoardDataError, default_board

    board, tried, failed = default_board(), 0, []
    for what, override in _extremes(board):
        try:
            changed = board.with_overrides(override)
        except BoardDataError:
            continue  # refused with its key: the limits said no
        top = next(iter(override))
        letters = ["D", "C", "C", "C", "C"]
        if top in SITES:
            letters[SITES.index(top)] = next(iter(override[top]))
        for n in (2, 4):
            tried += 1
            try:
                g = Game(n, "-".join(letters), board=changed, seed=f"{tried}:0",
                         expansion=True, prophecies=top == "prophecies")
                play_game(g, [make_bot("random")] * n, [bot_rng(tried, 0, p) for p in range(n)])
            except Exception as exc:  # noqa: BLE001 - any failure is the finding
                failed.append(f"{what} at {n} players: {type(exc).__name__}: {exc}")
    assert tried > 200 and not failed, failed

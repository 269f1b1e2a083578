"""Bad inputs and faults, as a hostile user would try them (issue 18): each ends with a
one-line message naming what is wrong and the documented exit code (docs/studies.md), never
a traceback, a hang or a silently different result; a run it interrupts stays resumable."""

from __future__ import annotations

import errno
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

import polars as pl
import pytest

from imhotep_stats.bots import make_bot
from imhotep_stats.config import ConfigError, parse_config
from imhotep_stats.engine.game import Game, RulesError
from imhotep_stats.engine.play import bot_rng, play_game
from imhotep_stats.rules import limits
from imhotep_stats.rules.board import META_KEYS, Board, default_board
from imhotep_stats.sim import integrity, store
from imhotep_stats.sim.lock import LOCK, run_lock
from imhotep_stats.sim.store import RunStoreError
from tests.helpers import cli

STUDY = """
[study]
name = "hard"
seed = 7
games = {games}
players = 3

[sides]
obelisk = ["A", "B"]

[run]
batch_size = 5
"""


def one_line_error(r, exit_code=1):
    """The run ended with ``exit_code`` and a single ``error: ...`` line, no traceback."""
    assert r.exit_code == exit_code, (r.exit_code, r.output, r.exception)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    errors = [line for line in r.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "Traceback" not in r.output, r.stderr
    return errors[0]


@pytest.fixture
def config(tmp_path):
    path = tmp_path / "hard.toml"
    path.write_text(STUDY.format(games=10))
    return path


@pytest.fixture
def finished(tmp_path, config):
    """A finished run (2 cells x 2 shards) and its shards' bytes as written."""
    out = tmp_path / "run"
    r = cli("run", config, "--out", out, "--workers", 1, "-q")
    assert r.exit_code == 0, r.output
    return out, {p.name: p.read_bytes() for p in store.shard_files(out)}


# --- board data: ranges and types ----------------------------------------------------------


def test_every_board_value_has_a_range():
    board = default_board()
    tables = {**{n: sd.values for n, sd in board.sides.items()}, **board.tables}
    unchecked = [k for n, t in tables.items() for k, _ in limits.leaves(t, n, META_KEYS)
                 if limits.rule_for(k) is None]
    assert unchecked == []  # a new key in data/*.toml needs its rule in rules/limits.py


@pytest.mark.parametrize("override, key, allowed", [
    ({"game": {"get_stones": 0}}, "overrides.game.get_stones", "from 1 to 20"),
    ({"game": {"get_stones": -2}}, "overrides.game.get_stones", "from 1 to 20"),
    ({"game": {"stones": -1}}, "overrides.game.stones", "from 1 to 100"),
    ({"decoration": {"stones_per_point": 0}}, "overrides.decoration.stones_per_point", "from 1"),
    ({"round_cards": {"3": {"cards": [[9, 3, 3, 2]] * 7}}},
     "overrides.round_cards.3.cards[0][0]", "from 1 to 4"),
    ({"round_cards": {"2": {"cards": [[0, 3, 3, 2]] * 7}}},
     "overrides.round_cards.2.cards[0][0]", "from 1 to 4"),
    ({"pyramid": {"A": {"points": [30000] + [1] * 13}}}, "overrides.pyramid.A.points[0]",
     "from -100 to 100"),
    ({"game": {"starting_sled": [2, 3, 4, 25]}}, "overrides.game.starting_sled[3]",
     "from 0 to 20"),
    ({"game": {"stones": 3}}, "overrides.game.starting_sled[2]", "stones per colour (3)"),
    ({"cards": {"chisel": {"count": -1}}}, "overrides.cards.chisel.count", "from 0 to 20"),
    ({"cards": {"chisel": {"colour": "pink"}}}, "overrides.cards.chisel.colour",
     "cannot be overridden"),
    ({"prophecies": {"gods": ["amun"] * 7}}, "overrides.prophecies.gods[1]", "listed twice"),
    ({"temple": {"C": {"width_by_players": {"4": 6}}}}, "overrides.temple.C.width_by_players.4",
     "at most the 5 columns of bonuses"),
    ({"prophecies": {"windows": [[1, 2], [2, 3], [5, 6]]}}, "overrides.prophecies.windows[1][0]",
     "already in window 1"),
    ({"temple": {"B": {"rewards": ["p1", "x", "p2", "card", "p1"]}}},
     "overrides.temple.B.rewards[1]", "a reward"),
])
def test_a_bad_override_names_key_value_and_range(override, key, allowed):
    with pytest.raises(ConfigError) as info:
        parse_config({"study": {"name": "t", "games": 1, "players": 3}, "overrides": override})
    problems = dict(info.value.problems)
    assert key in problems and allowed in problems[key], problems


def test_bad_override_exits_1_before_any_game(tmp_path):
    path = tmp_path / "x.toml"
    path.write_text(STUDY.format(games=10) + "[overrides.game]\nget_stones = 0\n")
    r = cli("run", path, "--out", tmp_path / "out", "-q")
    line = one_line_error(r)
    assert "x.toml" in line
    assert "overrides.game.get_stones: expected an integer from 1 to 20" in r.stderr
    assert not (tmp_path / "out").exists()


def test_engine_stops_a_round_that_cannot_end():
    # Past the range check (a board built by hand): "get new stones" takes none, so the
    # random bots can take it forever and the round never ends (docs/rules.md 2.2: a round ends
    # when all ships sailed or every player passed in turn).
    board = default_board()
    tables = dict(board.tables)
    tables["game"] = MappingProxyType({**board.game, "get_stones": 0})
    endless = Board(board.sides, MappingProxyType(tables), ("game",))
    bots = [make_bot("random")] * 3
    game = Game(3, board=endless, seed="0:0")
    with pytest.raises(RulesError, match=r"round \d did not end after [\d,]+ decisions.*overridden: game"):
        play_game(game, bots, [bot_rng(0, 0, p) for p in range(3)])


def test_board_files_are_range_checked_too():
    board = default_board()
    sides = dict(board.sides)
    sides["pyramid.A"] = replace(sides["pyramid.A"], values={"points": [1] * 13 + [500]})
    problems = limits.value_problems({n: sd.values for n, sd in sides.items()})
    assert problems == [("pyramid.A.points[13]", "expected an integer from -100 to 100, "
                         "got an integer (500)")]


# --- config sizes, names and encodings -----------------------------------------------------


def test_study_games_has_an_upper_bound(tmp_path, config):
    with pytest.raises(ConfigError, match=r"study.games: expected at most 100,000,000"):
        parse_config({"study": {"name": "t", "games": 10**15, "players": 3}})
    r = cli("run", config, "--games", 10**15, "--out", tmp_path / "o", "-q")
    assert r.exit_code == 1 and "study.games: expected at most 100,000,000" in r.stderr
    with pytest.raises(ConfigError, match="sweep.budget: expected at most 100,000,000"):
        parse_config({"study": {"name": "t", "games": 1, "players": 3},
                      "sweep": {"budget": 10**12}})
    r = cli("sweep", config, "--budget", 10**12, "--out", tmp_path / "s", "-q", "--workers", 1)
    assert r.exit_code == 1 and "--budget: expected at most 100,000,000" in r.stderr
    with pytest.raises(ConfigError, match="more than 200,000 shards"):
        parse_config({"study": {"name": "t", "games": 10**8, "players": [2, 3]},
                      "run": {"batch_size": 500}})


@pytest.mark.parametrize("name", ["", "a,b", " "])
def test_persona_names_must_be_plain(name):
    with pytest.raises(ConfigError) as info:
        parse_config({"study": {"name": "t", "games": 1, "players": 3},
                      "bots": {"personas": {name: {"base": "greedy"}}}})
    assert "expected a persona name" in str(info.value)


@pytest.mark.parametrize("data", [b'[study]\nname = "caf\xe9"\n', b"\x00\xff\xfe binary\x89PNG"])
def test_config_not_utf8_is_one_line_exit_1(tmp_path, data):
    path = tmp_path / "bad.toml"
    path.write_bytes(data)
    r = cli("validate", path)
    assert r.exit_code == 1 and "not UTF-8 text" in r.stderr and "Traceback" not in r.output


# --- run directories that verify themselves ------------------------------------------------


def damage_missing(out):
    (out / "shards" / "c00001-b000001.parquet").unlink()
    return "c00001-b000001.parquet: shard missing"


def damage_foreign(out):  # another batch's shard copied over this one
    shards = out / "shards"
    (shards / "c00000-b000001.parquet").write_bytes((shards / "c00001-b000001.parquet").read_bytes())
    return "c00000-b000001.parquet: shard differs"


def damage_extra(out):
    shards = out / "shards"
    (shards / "c00000-b000007.parquet").write_bytes((shards / "c00000-b000000.parquet").read_bytes())
    return "c00000-b000007.parquet: shard not in the run's plan"


def damage_no_shards(out):
    for p in (out / "shards").iterdir():
        p.unlink()
    (out / "shards").rmdir()
    return "c00000-b000000.parquet and 3 more: shard missing"


def damage_truncated(out):
    path = out / "shards" / "c00001-b000000.parquet"
    path.write_bytes(path.read_bytes()[:100])
    return "c00001-b000000.parquet: shard differs"


def damage_empty(out):
    (out / "shards" / "c00000-b000000.parquet").write_bytes(b"")
    return "c00000-b000000.parquet: shard differs"


def damage_config_hash(out):
    path = out / "manifest.json"
    m = json.loads(path.read_text())
    m["config"]["study"]["games"] = 9
    path.write_text(json.dumps(m))
    return "manifest.json: the manifest's config does not match its config hash"


DAMAGE = [damage_missing, damage_foreign, damage_extra, damage_no_shards, damage_truncated,
          damage_empty, damage_config_hash]


@pytest.mark.parametrize("damage", DAMAGE)
def test_report_refuses_a_damaged_run_naming_the_file(finished, damage):
    out, _ = finished
    expected = damage(out)
    line = one_line_error(cli("report", out, "-q", "--format", "none"))
    assert expected in line


@pytest.mark.parametrize("damage", DAMAGE[:-1])
def test_resume_replays_damaged_shards_to_the_same_bytes(finished, config, damage):
    out, written = finished
    damage(out)
    r = cli("run", config, "--out", out, "--workers", 1, "-q")
    assert r.exit_code == 0, r.output
    assert {p.name: p.read_bytes() for p in store.shard_files(out)} == written
    assert cli("report", out, "-q", "--format", "none").exit_code == 0


def test_compare_and_sweep_readers_verify(finished):
    out, _ = finished
    damage_foreign(out)
    with pytest.raises(RunStoreError, match="shard differs"):
        store.shard_files(out)  # what compare's and sweep's readers list their shards with
    assert len(store.shard_files(out, verify=False)) == 4  # the resume's own check


def test_sweep_reports_a_damaged_adaptive_shard(tmp_path):
    from imhotep_stats.sim.adaptive import completed_extra

    run = tmp_path / "run"
    folder = run / "adaptive" / "shards"
    folder.mkdir(parents=True)
    (folder / "c00000-b000000.parquet").write_bytes(b"new")
    record = {"settings": {"config_hash": "h"}, "rounds": [
        {"round": 1, "complete": True, "tasks": [[0, 0, 10, 15]],
         "sha256": {"c00000-b000000.parquet": "0" * 64}}]}
    (run / "adaptive" / "adaptive.json").write_text(json.dumps(record))
    manifest = {"config_hash": "h", "cells": [{"index": 0, "games": 10}]}
    with pytest.raises(RunStoreError, match="differs from the one adaptive round 1 wrote"):
        completed_extra(run, manifest)


def test_run_refuses_a_directory_that_is_not_a_run(tmp_path, config):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "report.md").write_text("my notes")
    for extra in ((), ("--force",)):
        line = one_line_error(cli("run", config, "--out", out, "-q", *extra))
        assert "is not empty and holds no run" in line
    assert (out / "report.md").read_text() == "my notes"


# --- one writer at a time ------------------------------------------------------------------


def test_a_second_writer_is_refused_while_the_first_runs(tmp_path, config):
    out = tmp_path / "run"
    out.mkdir()
    with run_lock(out, print):
        line = one_line_error(cli("run", config, "--out", out, "--force", "--seed", 9, "-q"))
        assert f"in use by another imhotep-stats run (pid {os.getpid()} on host" in line
    assert not (out / LOCK).exists()
    assert cli("run", config, "--out", out, "--workers", 1, "-q").exit_code == 0


def test_a_stale_lock_is_taken_over_with_a_message(tmp_path, config):
    out = tmp_path / "run"
    out.mkdir()
    (out / LOCK).write_text("4000000 otherhost 2026-01-01T00:00:00+00:00\n")
    r = cli("run", config, "--out", out, "--workers", 1, "-q")
    assert r.exit_code == 0, r.output
    assert "taking over the stale lock" in r.stderr and "pid 4000000 on host otherhost" in r.stderr
    assert not (out / LOCK).exists()


# --- the environment -----------------------------------------------------------------------


def test_disk_full_while_writing_shards_is_one_line_and_resumable(tmp_path, config, monkeypatch,
                                                                  finished):
    # Injected (no small file system here without root): the third shard write fails.
    reference, written = finished
    out = tmp_path / "full"
    real = store.write_shard
    calls = []

    def full(run_dir, cell, batch, df):
        calls.append(1)
        if len(calls) == 3:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC),
                          str(Path(run_dir) / "shards" / store.shard_name(cell, batch)))
        return real(run_dir, cell, batch, df)

    monkeypatch.setattr(store, "write_shard", full)
    line = one_line_error(cli("run", config, "--out", out, "--workers", 1, "-q"))
    assert "c00001-b000000.parquet: no space left on the device (disk full)" in line
    assert "run the same command again to resume" in line
    monkeypatch.setattr(store, "write_shard", real)
    assert cli("run", config, "--out", out, "--workers", 1, "-q").exit_code == 0
    assert {p.name: p.read_bytes() for p in store.shard_files(out)} == written


def test_disk_full_or_read_only_during_the_report(finished, monkeypatch):
    import imhotep_stats.reporting.export as export

    out, _ = finished
    for code, words in ((errno.ENOSPC, "disk full"), (errno.EROFS, "read-only file system")):
        def fail(path, text, code=code):
            raise OSError(code, os.strerror(code), str(path))

        monkeypatch.setattr(export, "write_text", fail)
        line = one_line_error(cli("report", out, "-q"))
        assert words in line


def test_an_output_name_too_long_is_one_line(tmp_path, config):
    line = one_line_error(cli("run", config, "--out", tmp_path / ("x" * 300), "-q"))
    assert "file name too long" in line and "to resume" not in line


def test_shards_and_reports_follow_the_umask(tmp_path, config):
    old = os.umask(0o027)
    store._UMASK.clear()  # read once per process: this test changes it
    try:
        assert cli("run", config, "--out", tmp_path / "run", "--workers", 1, "-q").exit_code == 0
    finally:
        os.umask(old)
        store._UMASK.clear()
    for path in (tmp_path / "run" / "manifest.json", tmp_path / "run" / "report.md",
                 *store.shard_files(tmp_path / "run")):
        assert path.stat().st_mode & 0o777 == 0o640, path


@pytest.fixture
def silent_server():
    """A TCP server that accepts connections and never says a word."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    held = []

    def accept():
        while True:
            try:
                held.append(srv.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    yield f"tcp://127.0.0.1:{srv.getsockname()[1]}"
    srv.close()
    for c in held:
        c.close()


def closed_port() -> str:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return f"tcp://127.0.0.1:{port}"


@pytest.mark.parametrize("which", ["silent", "closed"])
def test_a_cluster_that_does_not_answer_fails_within_the_timeout(tmp_path, config, which,
                                                                 request):
    pytest.importorskip("distributed")
    address = request.getfixturevalue("silent_server") if which == "silent" else closed_port()
    t0 = time.monotonic()
    r = cli("run", config, "--out", tmp_path / "run", "--cluster", address, "-q",
            env={"IMHOTEP_CLUSTER_TIMEOUT": "1"})
    assert time.monotonic() - t0 < 15
    line = one_line_error(r)
    assert f"cannot reach the Dask scheduler at {address} within 1 s" in line
    assert not (tmp_path / "run" / "manifest.json").exists()  # nothing half made


# --- interruption and worker processes -----------------------------------------------------


def test_ctrl_c_during_the_report_exits_130(finished, monkeypatch):
    out, _ = finished
    import imhotep_stats.reporting.build as build

    def interrupted(*_a, **_k):
        raise KeyboardInterrupt

    monkeypatch.setattr(build, "build_report", interrupted)
    r = cli("report", out, "-q")
    assert r.exit_code == 130 and "interrupted" in r.stderr


def _children(pid: int) -> set[int]:
    """Every descendant of ``pid`` (from /proc)."""
    parents = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                parents[int(d.name)] = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    out, todo = set(), [pid]
    while todo:
        p = todo.pop()
        kids = {c for c, pp in parents.items() if pp == p}
        out |= kids
        todo += kids
    return out


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_workers_end_when_the_main_process_is_killed(tmp_path):
    path = tmp_path / "long.toml"
    path.write_text(STUDY.format(games=20000).replace("batch_size = 5", "batch_size = 50"))
    proc = subprocess.Popen([sys.executable, "-m", "imhotep_stats", "run", str(path), "--out",
                             str(tmp_path / "run"), "--workers", "2", "-q"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while len(workers := _children(proc.pid)) < 4 and time.monotonic() < deadline:
        time.sleep(0.2)  # forkserver, resource tracker, 2 workers
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 10
    while (alive := {p for p in workers if Path(f"/proc/{p}").exists()
                     and "Z" not in Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1][:3]}) \
            and time.monotonic() < deadline:
        time.sleep(0.2)
    assert len(workers) >= 4 and not alive


def test_checksums_are_recorded_for_every_planned_shard(finished):
    out, written = finished
    manifest = store.load_manifest(out)
    assert [e["file"] for e in manifest["shards"]] == sorted(written)
    for e in manifest["shards"]:
        df = pl.read_parquet(out / "shards" / e["file"])
        assert e["rows"] == df.height and [df["game"].min(), df["game"].max() + 1] == e["games"]
        assert e["sha256"] == integrity.file_sha256(out / "shards" / e["file"])

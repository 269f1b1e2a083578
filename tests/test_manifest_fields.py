"""A damaged manifest, field by field (issue 48): every command that reads a run directory
(`report`, and `run` resuming it) ends with one line naming the field and exit code 1, or
works, never a traceback. Each field is removed, given a value of another type, and the
hashes and the format version are changed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from imhotep_stats.sim import manifest as fields
from tests.helpers import cli

STUDY = """
[study]
name = "fields"
seed = 3
games = 6
players = 2

[sides]
obelisk = ["A", "B"]

[run]
batch_size = 3
workers = 1
"""
ANOTHER_TYPE = {  # a value of the wrong type for each kind of field
    "a string": 5, "a string or null": 7, "an object": "x", "a list of cells": {"a": 1},
    "a list of shards": 3, "true or false": "yes", "a non-empty list of game counts": ["6"],
    '"running" or "complete"': "done",
}


def _wrong(what: str):
    if what in ANOTHER_TYPE:
        return ANOTHER_TYPE[what]
    if what.startswith("a whole number"):
        return "many"
    if what.startswith("a number"):
        return "high"
    return 2.5  # lists of names or strings, pairs of indices


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    d = tmp_path_factory.mktemp("fields")
    (d / "study.toml").write_text(STUDY)
    r = cli("run", d / "study.toml", "--out", d / "run", "-q")
    assert r.exit_code == 0, r.output
    return d


@pytest.fixture
def run(made, tmp_path):
    """A copy of the finished run and a function that edits its manifest."""
    out = tmp_path / "run"
    shutil.copytree(made / "run", out)
    path = out / "manifest.json"

    def edit(change) -> None:
        data = json.loads(path.read_text())
        change(data)
        path.write_text(json.dumps(data))

    return out, edit


def no_traceback(r, field: str | None = None) -> str:
    """Exit 0, or exit 1 with one ``error:`` line (naming ``field`` when given)."""
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output, r.output
    if r.exit_code == 0 and field is None:
        return ""
    assert r.exit_code == 1, (r.exit_code, r.output)
    errors = [line for line in r.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, r.stderr
    if field:
        assert field in errors[0], errors[0]
    return errors[0]


def commands(made: Path, out: Path):
    """``report`` and ``run`` resuming the run (the same study, so only the manifest differs)."""
    yield "report", cli("report", out, "-q")
    yield "run", cli("run", made / "study.toml", "--out", out, "-q")


def _at(data: dict, path: tuple):
    for key in path[:-1]:
        data = data[key]
    return data, path[-1]


CASES = ([(k,) for k in fields.FIELDS] + [("cells", 0, k) for k in fields.CELL]
         + [("shards", 0, k) for k in fields.SHARD] + list(fields.NESTED)
         + [("board", "sides", "obelisk.A", k) for k in fields.SIDE])
CHECKS = {**{(k,): c for k, c in fields.FIELDS.items()},
          **{("cells", 0, k): c for k, c in fields.CELL.items()},
          **{("shards", 0, k): c for k, c in fields.SHARD.items()}, **fields.NESTED,
          **{("board", "sides", "obelisk.A", k): c for k, c in fields.SIDE.items()}}


def _name(path: tuple) -> str:
    return ".".join(f"[{p}]" if isinstance(p, int) else p for p in path).replace(".[", "[")


@pytest.mark.parametrize("path", CASES, ids=_name)
def test_a_field_of_another_type_is_named(made, run, path):
    out, edit = run

    def change(data):
        node, key = _at(data, path)
        node[key] = _wrong(CHECKS[path][1])

    edit(change)
    for _command, r in commands(made, out):
        no_traceback(r, _name(path))


@pytest.mark.parametrize("path", CASES, ids=_name)
def test_a_missing_field_is_named_or_not_needed(made, run, path):
    out, edit = run

    def change(data):
        node, key = _at(data, path)
        node.pop(key, None)

    edit(change)
    for command, r in commands(made, out):
        top = path[0] if len(path) == 1 else None
        needed = (top in fields.REQUIRED + fields.REQUIRED_COMPLETE
                  or (command == "run" and top in fields.RESUME)
                  or path[0] == "cells" or path == ("shards", 0, "file"))
        line = no_traceback(r, _name(path) if needed else None)
        assert not needed or f"{_name(path)}: missing" in line, line


def test_a_missing_format_and_an_unknown_format_are_named(made, run):
    out, edit = run
    edit(lambda d: d.pop("format"))
    for _command, r in commands(made, out):
        assert "format: missing" in no_traceback(r)
    edit(lambda d: d.update(format=2))
    for _command, r in commands(made, out):
        assert "format: 2 is not a manifest format this version reads" in no_traceback(r)


def test_an_unknown_tool_version_still_reads(made, run):
    out, edit = run
    edit(lambda d: d.update(version="99.0"))
    for command, r in commands(made, out):
        assert no_traceback(r) == ""
        if command == "run":
            assert "was started by imhotep-stats 99.0" in r.stderr


def test_a_changed_config_hash_is_refused(made, run):
    out, edit = run
    edit(lambda d: d.update(config_hash="0" * 64))
    (report, r_report), (_, r_run) = commands(made, out)
    assert "does not match its config hash" in no_traceback(r_report)
    # once an UnboundLocalError ('passes'): the config is unchanged, only its hash is not
    assert "config_hash 000000000000 is not the hash of the config" in no_traceback(r_run)


def test_a_changed_data_hash_is_refused_on_resume(made, run):
    out, edit = run
    edit(lambda d: d.update(data_hash="0" * 64))
    _, r = list(commands(made, out))[1]
    assert "the board data (imhotep_stats/data/*.toml) changed" in no_traceback(r)


def test_not_a_json_object_is_named(made, run):
    out, _ = run
    (out / "manifest.json").write_text("[1, 2]")
    for _command, r in commands(made, out):
        assert "expected a JSON object, found list" in no_traceback(r)

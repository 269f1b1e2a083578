"""`imhotep-stats validate` and `run` through Click's runner, and a run killed with SIGKILL
then resumed, compared with an uninterrupted run."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from imhotep_stats.sim import store
from tests.helpers import cli

SMOKE = """
[study]
name = "smoke"
seed = 3
games = {games}
players = [2, 3]

[sides]
obelisk = ["A", "B"]

[bots]
lineup = ["random"]

[run]
batch_size = {batch}
"""


@pytest.fixture
def smoke(tmp_path):
    path = tmp_path / "smoke.toml"
    path.write_text(SMOKE.format(games=12, batch=5))
    return path


def test_validate_ok(smoke):
    r = cli("validate", smoke)
    assert r.exit_code == 0, r.stderr
    first, *rest = r.stdout.strip().splitlines()
    assert first == "ok: 4 cells, 48 games"
    assert any(line.startswith("A-A-A-A-A, 2 players: Trust: random: plays at random") for line in rest)
    assert rest[-1].startswith("estimated time: about")


def test_validate_lists_every_problem_and_exits_1(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[study]\nname = "x"\ngames = 0\nplayers = [5]\n[bots]\nlineup = ["wizard"]\n'
                   '[overrides.pyramid.A]\npoints = [1]\n')
    r = cli("validate", bad)
    assert r.exit_code == 1
    for key in ("study.games", "study.players[0]", "bots.lineup[0]", "overrides.pyramid.A.points"):
        assert f"  {key}: " in r.stderr
    assert "4 problems" in r.stderr


def test_validate_missing_file_is_usage_error(tmp_path):
    assert cli("validate", tmp_path / "none.toml").exit_code == 2


def test_run_json_one_object_per_cell(smoke, tmp_path):
    out = tmp_path / "run"
    r = cli("run", smoke, "--out", out, "--workers", 1, "--json", "-q")
    assert r.exit_code == 0, r.stderr
    assert r.stderr == ""  # -q: nothing on stderr
    cells = [json.loads(line) for line in r.stdout.splitlines()]
    assert [c["cell"] for c in cells] == [
        "A-A-A-A-A|2p|random", "A-A-A-A-A|3p|random", "A-A-A-A-B|2p|random", "A-A-A-A-B|3p|random"]
    for c in cells:
        assert c["games"] == 12 and len(c["seats"]) == c["players"]
        assert abs(sum(s["wins"] for s in c["seats"]) - 12) < 1e-9  # shared wins as fractions
        for entry in [*c["seats"], *c["bots"]]:
            assert {"games", "wins", "win_rate", "ci_low", "ci_high", "points"} <= set(entry)
            assert entry["ci_low"] <= entry["win_rate"] <= entry["ci_high"]
            pts = entry["points"]
            assert "pyramid" in pts and abs(sum(v for k, v in pts.items() if k != "total")
                                            - pts["total"]) < 1e-9
        assert c["bots"][0]["bot"] == "random" and c["bots"][0]["games"] == 12 * c["players"]
    assert store.load_manifest(out)["status"] == "complete"


def test_run_table_and_overrides_from_the_command_line(smoke, tmp_path):
    r = cli("run", smoke, "--out", tmp_path / "run", "--workers", 1, "--games", 4, "--seed", 9)
    assert r.exit_code == 0, r.stderr
    assert "A-A-A-A-B, 3 players, lineup random: 4 games (seat 1 = start player)" in r.stdout
    assert "seat 2" in r.stdout and "bot random" in r.stdout and "95% CI" in r.stdout
    assert "mean points" in r.stdout and "total" in r.stdout
    m = store.load_manifest(tmp_path / "run")
    assert m["config"]["study"]["games"] == 4 and m["seeds"]["root"] == 9


def test_default_run_dir_is_reports_study_name(smoke, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("run", smoke, "--workers", 1, "-q", "--games", 2).exit_code == 0
    assert (tmp_path / "reports" / "smoke" / "manifest.json").exists()


def test_existing_run_resumed_by_default_and_forced(smoke, tmp_path):
    # like compare and sweep: asking again re-reports the stored run (resuming is the default)
    out = tmp_path / "run"
    first = cli("run", smoke, "--out", out, "--workers", 1, "--json", "-q")
    again = cli("run", smoke, "--out", out, "--workers", 1, "--json")
    assert again.exit_code == 0 and again.stdout == first.stdout
    assert "0 played now" in again.stderr
    forced = cli("run", smoke, "--out", out, "--force", "--workers", 1, "--json", "-q")
    assert forced.exit_code == 0 and forced.stdout == first.stdout


def test_resume_with_changed_config_exits_1(smoke, tmp_path):
    out = tmp_path / "run"
    assert cli("run", smoke, "--out", out, "--workers", 1, "-q").exit_code == 0
    r = cli("run", smoke, "--out", out, "--seed", 13)
    assert r.exit_code == 1
    assert "config changed" in r.stderr and "study.seed" in r.stderr


@pytest.mark.parametrize("args", [["--resume", "--force"], ["--cluster", "my laptop"],
                                  ["--workers", "0"], ["--games", "0"]])
def test_usage_errors_exit_2(smoke, tmp_path, args):
    assert cli("run", smoke, "--out", tmp_path / "r", *args).exit_code == 2


def test_bad_config_exits_1(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[study]\nname = "x"\ngames = 5\nplayers = 3\n[sides]\nmarket = "E"\n')
    r = cli("run", bad, "--out", tmp_path / "r")
    assert r.exit_code == 1 and "sides.market" in r.stderr
    assert not (tmp_path / "r").exists()


def _without_dir(stdout: str) -> list[dict]:
    return [{k: v for k, v in json.loads(line).items() if k != "run_dir"}
            for line in stdout.splitlines()]


def _start_and_kill(config: Path, out: Path) -> bool:
    """Start `imhotep-stats run` in a subprocess and SIGKILL it (with its pool) once it has
    written a few shards; False if it finished first."""
    exe = Path(sys.executable).with_name("imhotep-stats")
    proc = subprocess.Popen([str(exe), "run", str(config), "--out", str(out), "--workers", "2",
                             "-q"], start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while len(store.shard_files(out)) < 3 and proc.poll() is None:
        assert time.monotonic() < deadline, "the run wrote no shards"
        time.sleep(0.005)
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # the run, its pool and its forkserver
    except ProcessLookupError:
        pass
    proc.wait()
    return proc.returncode == -signal.SIGKILL


@pytest.mark.timeout(120)
def test_run_killed_with_sigkill_resumes_to_the_uninterrupted_result(tmp_path):
    config = tmp_path / "long.toml"
    killed = tmp_path / "killed"
    for games in (120, 500, 2000):  # a longer run if a fast machine finished before the kill
        config.write_text(SMOKE.format(games=games, batch=4))  # 4 cells x games / 4 shards
        shutil.rmtree(killed, ignore_errors=True)
        if _start_and_kill(config, killed):
            break
    else:
        pytest.fail("the run always finished before it could be killed")
    done = len(store.shard_files(killed))
    assert 0 < done < games
    assert store.load_manifest(killed)["status"] == "running"
    resumed = cli("run", config, "--out", killed, "--workers", 2, "--json")  # resumes
    assert resumed.exit_code == 0, resumed.stderr
    assert "already done" in resumed.stderr
    fresh = cli("run", config, "--out", tmp_path / "fresh", "--workers", 2, "--json", "-q")
    assert _without_dir(resumed.stdout) == _without_dir(fresh.stdout)

    def shards(d):
        return {p.name: p.read_bytes() for p in store.shard_files(d)}

    assert shards(killed) == shards(tmp_path / "fresh")
    assert not [p for p in (killed / "shards").iterdir() if not store.SHARD_RE.match(p.name)]

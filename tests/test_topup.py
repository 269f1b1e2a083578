"""Top-ups (issue 21, item 2): ``run --games N`` on a run with fewer games adds games (the
old shards are kept byte for byte, game i is always the same game), a changed config is
still refused, a killed top-up resumes, ``run_until_decided`` grows a run pass by pass,
and the report of a topped-up run says its verdicts are sequential."""

from __future__ import annotations

import json

import polars as pl
import pytest

from imhotep_stats.config import parse_config
from imhotep_stats.reporting.figures import compute
from imhotep_stats.sim import executors, runner, store
from imhotep_stats.sim.runner import run_study, run_until_decided
from imhotep_stats.sim.store import RunStoreError, load_manifest, load_results


def study(games=20, seed=4, **extra):
    return parse_config({
        "study": {"name": "top", "seed": seed, "games": games, "players": [2]},
        "sides": {"obelisk": ["A", "B"]}, "bots": {"lineup": ["random"]},
        "run": {"batch_size": 8}, **extra})


def rows(run_dir):
    return load_results(run_dir).sort("cell", "game", "seat").collect()


def shard_bytes(run_dir):
    return {p.name: p.read_bytes() for p in store.shard_files(run_dir)}


@pytest.fixture
def first(tmp_path):
    run_study(study(), tmp_path / "run", workers=1)
    return tmp_path / "run"


def test_top_up_keeps_the_old_games_and_equals_a_longer_run(first, tmp_path):
    before = shard_bytes(first)
    notes: list[str] = []
    out = run_study(study(games=30), first, resume=True, workers=1, log=notes.append)
    assert out.reused == 2 * 20 and out.simulated == 2 * 10
    after = shard_bytes(first)
    assert all(after[name] == data for name, data in before.items())  # untouched
    m = load_manifest(first)
    assert m["passes"] == [20, 30] and m["games_per_cell"] == 30 and m["status"] == "complete"
    # batches 0-2 hold games 0-19 (the last one 4 games), batches 3-4 games 20-29
    assert [e["games"] for e in m["shards"] if e["cell"] == 0] == [
        [0, 8], [8, 16], [16, 20], [20, 28], [28, 30]]
    assert any("topping up" in n and "20 -> 30" in n for n in notes)
    run_study(study(games=30), tmp_path / "long", workers=1)
    assert rows(first).equals(rows(tmp_path / "long"))
    # looking again changes nothing; the verdicts are now sequential
    assert run_study(study(games=30), first, resume=True, workers=1).simulated == 0
    data = compute(first)
    assert data.sequential and all(c.verdict.sequential for c in data.cells)
    assert any("Sequential verdicts" in n and "20, 30" in n for n in data.global_notes)


def test_plain_run_is_fixed_sample(first):
    data = compute(first)
    assert not data.sequential and not any(c.verdict.sequential for c in data.cells)


def test_a_changed_config_is_still_refused_and_a_run_never_shrinks(first):
    with pytest.raises(RunStoreError, match=r"study\.games, study\.seed"):
        run_study(study(games=30, seed=5), first, resume=True, workers=1)
    with pytest.raises(RunStoreError, match="never shrinks"):
        run_study(study(games=10), first, resume=True, workers=1)
    assert load_manifest(first)["games_per_cell"] == 20


def test_killed_top_up_resumes_to_the_same_run(first, tmp_path, monkeypatch):
    real = executors.execute

    def one_then_die(tasks, on_result, **kw):
        real(tasks[:1], on_result, **kw)
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "execute", one_then_die)
    with pytest.raises(KeyboardInterrupt):
        run_study(study(games=40), first, resume=True, workers=1)
    m = load_manifest(first)
    assert m["status"] == "running" and m["passes"] == [20, 40]
    monkeypatch.setattr(runner, "execute", real)
    out = run_study(study(games=40), first, resume=True, workers=1)
    assert out.reused == 2 * 20 + 8 and out.simulated == 2 * 20 - 8
    run_study(study(games=40), tmp_path / "long", workers=1)
    assert rows(first).equals(rows(tmp_path / "long"))
    store.shard_files(first)  # the sealed manifest checks every shard


def test_tampered_shard_of_a_topped_up_run_is_refused(first):
    run_study(study(games=30), first, resume=True, workers=1)
    victim = store.shard_files(first, verify=False)[-1]
    victim.write_bytes(store.shard_files(first, verify=False)[0].read_bytes())
    with pytest.raises(RunStoreError, match="checksum"):
        load_results(first)


def test_until_decided_grows_pass_by_pass_and_stops(tmp_path):
    looks: list[int] = []

    def look(games):  # "decided" once 50 games are in
        looks.append(games)
        return 0 if games >= 50 else 100

    out, why = run_until_decided(study(games=10), tmp_path / "u", look, max_games=1000,
                                 workers=1)
    assert why == "decided" and looks == [10, 20, 40, 80]  # each pass at most doubles
    m = load_manifest(tmp_path / "u")
    assert m["passes"] == [10, 20, 40, 80] and m["sequential"]
    assert out.simulated == 2 * 80
    looks.clear()
    out, why = run_until_decided(study(games=10), tmp_path / "b", lambda g: 5, max_games=30,
                                 workers=1)
    assert why == "budget" and load_manifest(tmp_path / "b")["passes"] == [10, 18, 26, 30]
    # asked again, it starts from the games it holds
    out, why = run_until_decided(study(games=10), tmp_path / "b", lambda g: 0, max_games=30,
                                 workers=1)
    assert why == "decided" and out.simulated == 0
    assert json.loads((tmp_path / "b" / "manifest.json").read_text())["sequential"]
    assert compute(tmp_path / "b").sequential


def test_long_run_rows_do_not_depend_on_the_passes(tmp_path):
    run_until_decided(study(games=10), tmp_path / "u", lambda g: 100, max_games=25, workers=1)
    run_study(study(games=25), tmp_path / "one", workers=1)
    assert rows(tmp_path / "u").equals(rows(tmp_path / "one"))
    assert pl.Series(rows(tmp_path / "u")["game"]).n_unique() == 25


# --- the command line ---------------------------------------------------------------------


def _run(*args):
    from tests.helpers import cli

    return cli("run", "--sides", "A-A-A-A-A", "--players", "2", "--bots", "random",
               "--workers", "1", *args)


def test_run_games_n_tops_up_and_a_plain_run_looks_again(tmp_path):
    out = str(tmp_path / "r")
    assert _run("--games", "40", "--out", out, "-q").exit_code == 0
    r = _run("--games", "60", "--out", out)
    assert r.exit_code == 0, r.output
    assert "topping up" in r.stderr and "(20 played now, 40 reused" in r.stderr
    assert load_manifest(out)["passes"] == [40, 60]
    assert "Sequential verdicts" in (tmp_path / "r" / "report.md").read_text()
    summary = json.loads((tmp_path / "r" / "summary.json").read_text())
    assert summary["verdicts"] == "sequential"
    again = _run("--out", out)  # no --games: the run's 60 games, nothing played
    assert again.exit_code == 0, again.output
    assert "(0 played now, 60 reused" in again.stderr
    shrink = _run("--games", "50", "--out", out)
    assert shrink.exit_code == 1 and "never shrinks" in shrink.stderr


def test_run_until_decided_prints_the_verdict_as_it_firms_up(tmp_path):
    out = str(tmp_path / "u")
    r = _run("--games", "20", "--until-decided", "--max-games", "60", "--out", out)
    assert r.exit_code == 0, r.output
    looks = [line for line in r.stderr.splitlines() if "games per cell:" in line]
    # at least one batch (500 for a --sides study) per pass: 20 -> 60 (the budget)
    assert [line.split(" games per cell")[0] for line in looks] == [
        "until decided: 20", "until decided: 60"]
    assert "A-A-A-A-A · 2 players: inconclusive" in r.stderr
    assert "the budget of 60 games per cell is spent" in r.stderr
    assert load_manifest(out)["sequential"]
    assert _run("--max-games", "60", "--out", out).exit_code == 2  # needs --until-decided


@pytest.mark.timeout(180)
def test_top_up_killed_with_sigkill_resumes_to_the_uninterrupted_result(tmp_path):
    import os
    import shutil
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    from tests.helpers import cli
    from tests.test_cli_run import SMOKE

    config, killed = tmp_path / "c.toml", tmp_path / "killed"
    exe = Path(sys.executable).with_name("imhotep-stats")
    for games in (120, 480, 1920):  # longer if a fast machine finished before the kill
        shutil.rmtree(killed, ignore_errors=True)
        config.write_text(SMOKE.format(games=8, batch=4))
        assert cli("run", config, "--out", killed, "--workers", 1, "-q").exit_code == 0
        before = shard_bytes(killed)
        config.write_text(SMOKE.format(games=games, batch=4))
        proc = subprocess.Popen([str(exe), "run", str(config), "--out", str(killed),
                                 "--workers", "2", "-q"], start_new_session=True,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while len(store.shard_files(killed, verify=False)) < len(before) + 3 \
                and proc.poll() is None:
            assert time.monotonic() < deadline, "the top-up wrote no shards"
            time.sleep(0.005)
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
        if proc.returncode == -signal.SIGKILL:
            break
    else:
        pytest.fail("the top-up always finished before it could be killed")
    m = load_manifest(killed)
    assert m["status"] == "running" and m["passes"] == [8, games]
    resumed = cli("run", config, "--out", killed, "--workers", 2, "-q")
    assert resumed.exit_code == 0, resumed.stderr
    assert all(shard_bytes(killed)[name] == data for name, data in before.items())
    fresh = tmp_path / "fresh"
    assert cli("run", config, "--out", fresh, "--workers", 2, "-q").exit_code == 0
    assert rows(killed).equals(rows(fresh))

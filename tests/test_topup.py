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

"""Seeding, batches, executors and the run store: results never depend on workers, batch
sizes or the executor; resumes end identical to uninterrupted runs; bad shards are found."""

from __future__ import annotations

import json
import os
from pathlib import Path

import polars as pl
import pytest

from imhotep_stats.config import parse_config
from imhotep_stats.engine.game import Game
from imhotep_stats.engine.play import chance_seed
from imhotep_stats.sim import store
from imhotep_stats.sim.batches import plan, run_batch, schema
from imhotep_stats.sim.runner import run_study
from imhotep_stats.sim.schema import COLUMNS
from imhotep_stats.sim.store import RunStoreError, load_manifest, load_results


def study(games=24, batch_size=10, players=(2, 3), **extra):
    raw = {
        "study": {"name": "t", "seed": 5, "games": games, "players": list(players)},
        "sides": {"obelisk": ["A", "B"]},
        "run": {"batch_size": batch_size},
    }
    raw.update(extra)
    return parse_config(raw)


def rows(run_dir) -> pl.DataFrame:
    return load_results(run_dir).collect()


def shard_bytes(run_dir) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in store.shard_files(run_dir)}


def test_batch_rows_follow_the_schema_sorted_by_game_and_seat():
    cfg = study()
    task = plan(cfg.cells, cfg.games, 10, cfg.seed, False, None, "{}")[1]
    df = run_batch(task)
    assert dict(df.schema) == schema() and list(df.columns) == list(COLUMNS)
    assert df.height == 10 * task.cell.players
    assert df["game"].to_list() == [g for g in range(10, 20) for _ in range(task.cell.players)]
    assert df["seat"].to_list() == list(range(task.cell.players)) * 10
    src = [c for c in df.columns if c.startswith("pts_")]
    assert (df.select(pl.sum_horizontal(src)).to_series() == df["score"]).all()
    rnd = [f"round_{r}" for r in range(1, 7)] + ["round_end"]
    assert (df.select(pl.sum_horizontal(rnd)).to_series() == df["score"]).all()
    per_game = df.group_by("game").agg(pl.col("win_share").sum())
    assert (per_game["win_share"] - 1).abs().max() < 1e-9
    assert df.equals(run_batch(task))  # same seed, same rows


def test_batch_size_does_not_change_rows():
    cfg = study(games=23)
    a = pl.concat([run_batch(t) for t in plan(cfg.cells, 23, 5, 5, False, None, "{}")])
    b = pl.concat([run_batch(t) for t in plan(cfg.cells, 23, 23, 5, False, None, "{}")])
    assert a.equals(b)


def test_every_cell_sees_the_same_deals_for_a_game_index():
    cfg = study(players=(3,))
    for i in range(5):
        deals = {(tuple(map(tuple, g.round_cards)), tuple(g.deck)) for g in
                 (Game(3, c.sides, seed=chance_seed(cfg.seed, i)) for c in cfg.cells)}
        assert len(deals) == 1
    assert Game(3, seed=chance_seed(5, 0)).deck != Game(3, seed=chance_seed(5, 1)).deck


def test_every_bot_sits_in_every_seat_equally_often(monkeypatch):
    from imhotep_stats import bots

    class Other:  # a bot written in Python: its lineup plays game by game
        name = "other"

        def choose(self, view, legal, rng):
            return legal[int(rng.random() * len(legal))]

    monkeypatch.setitem(bots.REGISTRY, "other", Other)
    cfg = study(games=12, players=(3,), bots={"lineup": ["random", "random", "other"]},
                sides={})
    df = pl.concat([run_batch(t) for t in plan(cfg.cells, 12, 12, 1, False, None, "{}")])
    counts = df.group_by("seat", "bot").len()
    assert counts.filter(pl.col("bot") == "other")["len"].to_list() == [4, 4, 4]
    assert sorted(counts.filter(pl.col("bot") == "random")["len"].to_list()) == [8, 8, 8]


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """A serial run: the rows every other executor must reproduce, byte for byte."""
    out = tmp_path_factory.mktemp("ref") / "run"
    run_study(study(), out, workers=1, progress=False)
    return out


def test_serial_run_writes_manifest_and_shards(reference):
    m = load_manifest(reference)
    cfg = study()
    assert m["status"] == "complete" and m["config_hash"] == cfg.hash
    assert m["config"] == cfg.to_json() and m["seeds"]["root"] == 5
    assert [c["id"] for c in m["cells"]] == [c.id for c in cfg.cells]
    assert m["board"]["sides"]["obelisk.B"]["provenance"] in ("rulebook", "provisional")
    assert m["board"]["overridden"] == {}
    assert len(store.shard_files(reference)) == len(cfg.cells) * 3  # 24 games in 10s
    df = rows(reference)
    assert df.height == sum(24 * c.players for c in cfg.cells)
    assert df.select("cell", "game", "seat").is_unique().all()
    assert not list((reference / "shards").glob("*.tmp"))


def test_two_workers_equal_one(reference, tmp_path):
    run_study(study(), tmp_path / "two", workers=2, progress=False)
    assert shard_bytes(tmp_path / "two") == shard_bytes(reference)
    assert rows(tmp_path / "two").equals(rows(reference))


@pytest.mark.timeout(120)
def test_dask_cluster_equals_local(reference, tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        run_study(study(), tmp_path / "dask", cluster=cluster.scheduler_address,
                  progress=False)
    assert shard_bytes(tmp_path / "dask") == shard_bytes(reference)


def test_overrides_change_rows_and_are_recorded(reference, tmp_path):
    pts = [2, 1, 3, 2, 4, 3, 2, 1, 3, 2, 3, 1, 3, 9]
    cfg = study(overrides={"pyramid": {"A": {"points": pts}}})
    run_study(cfg, tmp_path / "o", workers=1, progress=False)
    m = load_manifest(tmp_path / "o")
    assert m["board"]["sides"]["pyramid.A"]["overridden"] == ["points"]
    assert m["board"]["overridden"]["pyramid.A"]["points"] == pts
    assert not rows(tmp_path / "o").equals(rows(reference))


def _interrupt(run_dir: Path, keep: int) -> None:
    """Make a finished run look killed: status running, only ``keep`` shards, a temp file."""
    m = load_manifest(run_dir)
    m["status"], m["finished"] = "running", None
    (run_dir / store.MANIFEST).write_text(json.dumps(m))
    for p in store.shard_files(run_dir)[keep:]:
        p.unlink()
    (run_dir / "shards" / ".c00000-b000009.parquet.x1y2.tmp").write_bytes(b"PAR1 half a shard")


def test_resume_ends_identical_and_removes_temp_files(reference, tmp_path):
    out = tmp_path / "r"
    run_study(study(), out, workers=1, progress=False)
    _interrupt(out, keep=2)
    notes: list[str] = []
    res = run_study(study(), out, resume=True, workers=2, progress=False, log=notes.append)
    assert res.reused == 20 and res.simulated == res.games - 20
    assert shard_bytes(out) == shard_bytes(reference)
    assert not [p for p in (out / "shards").iterdir() if p.name.endswith(".tmp")]
    assert load_manifest(out)["status"] == "complete"
    assert any("removed 1 unfinished temporary file" in n for n in notes)


@pytest.mark.parametrize("damage", ["truncate", "garbage", "fewer_rows", "wrong_cell"])
def test_resume_detects_and_redoes_bad_shards(reference, tmp_path, damage):
    out = tmp_path / "r"
    run_study(study(), out, workers=1, progress=False)
    victim = store.shard_files(out)[1]
    data = victim.read_bytes()
    if damage == "truncate":
        victim.write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        victim.write_bytes(os.urandom(len(data)))
    elif damage == "fewer_rows":
        pl.read_parquet(victim).head(3).write_parquet(victim)
    else:
        other = store.shard_files(out)[4]
        victim.write_bytes(other.read_bytes())
    warnings: list[str] = []
    res = run_study(study(), out, resume=True, workers=1, progress=False,
                    warn=warnings.append)
    assert res.redone == [victim.name]
    assert any(victim.name in w and "playing it again" in w for w in warnings)
    assert shard_bytes(out) == shard_bytes(reference)


def test_existing_run_is_refused_without_resume_or_force(reference, tmp_path):
    out = tmp_path / "r"
    run_study(study(games=5), out, workers=1, progress=False)
    with pytest.raises(RunStoreError, match="Resume it.*--out DIR.*--force"):
        run_study(study(games=5), out, workers=1, progress=False)
    res = run_study(study(games=5), out, force=True, workers=1, progress=False)
    assert res.simulated == res.games


def test_resume_with_changed_config_is_refused(tmp_path):
    out = tmp_path / "r"
    run_study(study(games=5), out, workers=1, progress=False)
    with pytest.raises(RunStoreError, match=r"config changed.*study\.players"):
        run_study(study(games=5, players=(2,)), out, resume=True, workers=1, progress=False)
    # more games with anything else changed is no top-up either
    with pytest.raises(RunStoreError, match=r"config changed.*study\.games, study\.players"):
        run_study(study(games=6, players=(2,)), out, resume=True, workers=1, progress=False)
    # Report and run options are not part of the results: resuming with them changed is fine.
    changed = study(games=5, report={"margin": 0.04})
    assert run_study(changed, out, resume=True, workers=1, progress=False).simulated == 0


def test_resume_with_changed_board_data_is_refused(tmp_path):
    out = tmp_path / "r"
    run_study(study(games=5), out, workers=1, progress=False)
    m = load_manifest(out)
    m["data_hash"] = "0" * 64
    (out / store.MANIFEST).write_text(json.dumps(m))
    with pytest.raises(RunStoreError, match="board data"):
        run_study(study(games=5), out, resume=True, workers=1, progress=False)


def test_shards_without_manifest_are_refused(tmp_path):
    (tmp_path / "shards").mkdir()
    (tmp_path / "shards" / store.shard_name(0, 0)).write_bytes(b"x")
    with pytest.raises(RunStoreError, match="no manifest.json"):
        run_study(study(games=5), tmp_path, workers=1, progress=False)


def test_load_results_refuses_an_unfinished_run(tmp_path):
    out = tmp_path / "r"
    run_study(study(games=5), out, workers=1, progress=False)
    _interrupt(out, keep=1)
    with pytest.raises(RunStoreError, match="not finished"):
        load_results(out)
    assert load_results(out, allow_incomplete=True).collect().height > 0
    with pytest.raises(RunStoreError, match="not a run directory"):
        load_manifest(tmp_path / "nowhere")


def test_progress_bar_draws_games_rate_and_time_left_only_when_enabled():
    import io

    from imhotep_stats.sim.progress import Progress

    buf = io.StringIO()
    bar = Progress(1000, done=200, enabled=True, stream=buf, interval=0.0)
    bar.update(300)
    bar.close()
    text = buf.getvalue()
    assert "500/1,000 games" in text and "games/s" in text and "left" in text
    assert text.startswith("\r") and text.endswith("\n")
    quiet = io.StringIO()  # not a terminal: nothing drawn
    bar = Progress(10, stream=quiet)
    bar.update(10)
    bar.close()
    assert quiet.getvalue() == ""

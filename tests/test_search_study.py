"""Studies with mcts bots run like any other: by name (mcts6) and as a config table
({base = "mcts", ...}, and the reference bot's {base = "expert", ...}), with the same shards
from 1 or 2 workers, from Dask, and on resume, and report like any other."""

from __future__ import annotations

import pytest

from imhotep_stats.config import ConfigError, parse_config
from imhotep_stats.sim import store
from imhotep_stats.sim.runner import run_study
from tests.test_sim import _interrupt, rows, shard_bytes


def study(**bots):
    raw = {
        "study": {"name": "search", "seed": 3, "games": 8, "players": [2, 3]},
        "sides": {"market": ["A", "D"]},
        "bots": bots or {"lineup": ["mcts6", "shallow", "greedy", "small"],
                         "personas": {"shallow": {"base": "mcts", "iterations": 4,
                                                  "rollout": "random", "exploration": 1.0},
                                      # the reference bot's settings at a test's budget
                                      "small": {"base": "expert", "iterations": 4}}},
        "run": {"batch_size": 4},
    }
    return parse_config(raw)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("search") / "run"
    run_study(study(), out, workers=1, progress=False)
    return out


def test_an_mcts_lineup_runs_and_every_bot_plays(reference):
    df = rows(reference)
    assert set(df["bot"].unique()) == {"mcts6", "shallow", "greedy", "small"}
    assert df.height == 8 * 2 * (2 + 3)  # 8 games, 2 market sides, 2 and 3 players


def test_a_search_study_reports_and_the_expert_is_a_lineup_by_name(reference):
    from click.testing import CliRunner

    from imhotep_stats.cli import main

    r = CliRunner().invoke(main, ["report", str(reference), "--quiet"])
    assert r.exit_code in (0, 3), r.output  # 3: a gate failed, still reported
    assert (reference / "report.md").is_file()
    assert "small" in (reference / "report.md").read_text()
    cfg = study(lineup=["expert", "greedy"])
    assert cfg.cells[0].lineup == ("expert", "greedy")


def test_two_workers_and_resume_give_the_same_shards(reference, tmp_path):
    run_study(study(), tmp_path / "two", workers=2, progress=False)
    assert shard_bytes(tmp_path / "two") == shard_bytes(reference)
    out = tmp_path / "resumed"
    run_study(study(), out, workers=1, progress=False)
    _interrupt(out, keep=3)
    res = run_study(study(), out, resume=True, workers=2, progress=False)
    assert res.simulated > 0 and shard_bytes(out) == shard_bytes(reference)
    assert store.load_manifest(out)["status"] == "complete"


@pytest.mark.timeout(180)
def test_dask_gives_the_same_shards(reference, tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        run_study(study(), tmp_path / "dask", cluster=cluster.scheduler_address, progress=False)
    assert shard_bytes(tmp_path / "dask") == shard_bytes(reference)


@pytest.mark.parametrize("bots,where", [
    ({"lineup": ["mcts0"]}, "bots.lineup[0]"),
    ({"lineup": ["deep"], "personas": {"deep": {"base": "mcts", "depth": 3}}},
     "bots.personas.deep.depth"),
    ({"lineup": ["deep"], "personas": {"deep": {"base": "mcts", "rollout": "oracle"}}},
     "bots.personas.deep"),
])
def test_bad_mcts_bots_in_a_config_name_the_key(bots, where):
    with pytest.raises(ConfigError, match=where.replace("[", r"\[").replace("]", r"\]")):
        study(**bots)


def test_a_run_of_the_expert_is_not_resumed_once_its_settings_moved(tmp_path, monkeypatch):
    # `expert` keeps its name while its settings follow the evidence (400 iterations until
    # 2026-12-02, 800 since): a run's rows are the old bot's, so resuming it with the new one
    # would mix two bots under one name. Its settings are hashed, and a resume names them.
    from imhotep_stats.bots import search_spec as search_bot
    from imhotep_stats.sim.store import RunStoreError

    cfg = study()
    assert cfg.to_json()["bots"]["expert"] == dict(sorted(search_bot.EXPERT.items()))
    assert "expert" not in study(lineup=["mcts6", "greedy"]).to_json()["bots"]
    assert "expert" in study(lineup=["expert", "greedy"]).to_json()["bots"]
    out = tmp_path / "run"
    raw = {"study": {"name": "search", "seed": 3, "games": 2, "players": [2]},
           "bots": {"lineup": ["small", "greedy"],
                    "personas": {"small": {"base": "expert", "iterations": 4}}}}
    before = parse_config(raw).hash
    run_study(parse_config(raw), out, workers=1, progress=False)
    monkeypatch.setitem(search_bot.EXPERT, "margin", 0.5)
    moved = parse_config(raw)
    assert moved.hash != before
    with pytest.raises(RunStoreError, match=r"bots\.expert\.margin"):
        run_study(moved, out, resume=True, workers=1, progress=False)

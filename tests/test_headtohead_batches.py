"""Head-to-head games (``ladder play``, ``evaluate``) in tasks sized as a study's batches
(issue 45 item 5): by the pilot's cost a game, so a slow bot's few games spread over every
worker, and ``--batch-size`` caps them; the games never depend on it."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from imhotep_stats.cli import main
from imhotep_stats.config import DEFAULT_BATCH_SIZE
from imhotep_stats.sim import cost, headtohead


@pytest.fixture
def tasks(monkeypatch):
    """The games of every task the head-to-heads hand to the executors."""
    seen: list[int] = []
    real = headtohead.execute

    def spy(todo, on_result, **kw):
        seen.extend(t.stop - t.start for t in todo)
        return real(todo, on_result, **kw)

    monkeypatch.setattr(headtohead, "execute", spy)
    return seen


def _slow_pilot(monkeypatch, seconds):
    def fake(cfg, games=None, *_a, **_k):
        return [cost.CellCost(c.id, c.players, c.lineup, games or cfg.games, seconds, 1)
                for c in cfg.cells]
    monkeypatch.setattr(cost, "pilot_costs", fake)


def test_a_slow_bots_games_spread_over_every_worker(monkeypatch):
    # 12 games of 2 s of CPU each on 2 workers: tasks of 2 games (4 s), not one task of 10
    _slow_pilot(monkeypatch, 2.0)
    cfg = headtohead.one_cell(["random", "greedy"], "A-A-A-A-A", 2, 12, 0)
    assert headtohead.batch_games(cfg, 12, workers=2) == 2
    assert headtohead.batch_games(cfg, 12, workers=2, most=1) == 1
    _slow_pilot(monkeypatch, 0.001)  # a fast bot: large tasks, at most the study default
    assert headtohead.batch_games(cfg, 100_000, workers=2) == DEFAULT_BATCH_SIZE


def test_ladder_play_takes_batch_size_and_its_games_do_not_depend_on_it(tmp_path, tasks):
    files = []
    for size in ("1", "5"):
        out = tmp_path / f"l{size}.jsonl"
        r = CliRunner().invoke(main, ["ladder", "play", "--lineup", "random,greedy", "--games",
                                      "6", "--workers", "1", "--batch-size", size, "--out",
                                      str(out)])
        assert r.exit_code == 0, r.output
        files.append([json.loads(x) for x in out.read_text().splitlines()])
    assert tasks == [1] * 6 + [5, 1]
    assert files[0] == files[1] and [rec["game"] for rec in files[0]] == list(range(6))


def test_evaluate_takes_batch_size(tasks):
    r = CliRunner().invoke(main, ["evaluate", "--games", "200", "--workers", "1",
                                  "--batch-size", "50", "--only", "wins", "--personas",
                                  "pyramid"])
    assert r.exit_code == 0, r.output
    assert tasks and max(tasks) == 50

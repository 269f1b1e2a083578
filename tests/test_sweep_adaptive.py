"""Adaptive allocation: extra games take the next game indices (so they equal a longer
first pass), the loop stops on settled verdicts, on the budget and on the round limit,
resumes without replaying, and the `sweep` command reports it."""

from __future__ import annotations

import json
import shutil
from contextlib import contextmanager
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from imhotep_stats.cli import main
from imhotep_stats.config import parse_config
from imhotep_stats.reporting.figures import compute
from imhotep_stats.sim import adaptive
from imhotep_stats.sim.runner import run_study
from imhotep_stats.sim.store import RunStoreError, load_manifest, load_results
from imhotep_stats.stats.sweep import analyze_sweep, verdict_policy


def study(games=20, margin=0.05, **sweep):
    return parse_config({
        "study": {"name": "ad", "seed": 8, "games": games, "players": [2]},
        "sides": {"obelisk": ["A", "B"]}, "bots": {"lineup": ["random"]},
        "report": {"margin": margin}, "run": {"batch_size": 10}, "sweep": sweep,
    })


@pytest.fixture
def first_pass(tmp_path):
    cfg = study()
    run_study(cfg, tmp_path / "run", workers=1)
    return cfg, tmp_path / "run"


def greedy_policy(_lf, _games):
    return {0: 1000, 1: 1000}


def test_allocate_doubles_at_most_and_fills_small_demands_first():
    games = {0: 100, 1: 100, 2: 100, 3: 50}
    assert adaptive.allocate({0: 30, 1: 500, 3: 70}, games, 10_000) == {0: 30, 3: 50, 1: 100}
    assert adaptive.allocate({0: 30, 1: 500, 3: 70}, games, 60) == {0: 30, 3: 30}
    assert adaptive.allocate({2: 5}, games, 0) == {}


def test_round_limit_and_extra_games_equal_a_longer_run(first_pass, tmp_path):
    cfg, run = first_pass
    out = adaptive.run_adaptive(cfg, run, greedy_policy, budget=10_000, rounds=2, workers=1)
    assert out.stopped == "rounds" and out.extra_games == 2 * (20 + 40)
    # each cell doubled twice: 20 -> 40 -> 80 games, on the next game indices
    rows = adaptive.scan_all(run).sort("cell", "game", "seat").collect()
    assert rows.group_by("cell").agg(pl.col("game").n_unique())["game"].to_list() == [80, 80]
    run_study(cfg.replace(games=80), tmp_path / "long", workers=1)
    longer = load_results(tmp_path / "long").sort("cell", "game", "seat").collect()
    assert rows.equals(longer)
    # A second call resumes: nothing to play, same record
    again = adaptive.run_adaptive(cfg, run, greedy_policy, budget=10_000, rounds=2, workers=1)
    assert again.simulated == 0 and again.rounds == out.rounds and again.stopped == "rounds"


def test_budget_stops_allocation(first_pass):
    cfg, run = first_pass
    out = adaptive.run_adaptive(cfg, run, greedy_policy, budget=30, rounds=5, workers=1)
    assert out.stopped == "budget" and out.extra_games == 30
    assert [t[:4] for t in out.rounds[0]["tasks"]] == [[0, 0, 20, 30], [0, 1, 30, 40],
                                                        [1, 0, 20, 30]]
    # A changed budget discards the extra games and plans again
    more = adaptive.run_adaptive(cfg, run, greedy_policy, budget=50, rounds=5, workers=1)
    assert more.extra_games == 50 and more.simulated == 50


def test_settled_verdicts_stop_allocation(first_pass):
    cfg, run = first_pass

    def until_40(_lf, games):
        return {c: 40 - n for c, n in games.items() if n < 40}

    out = adaptive.run_adaptive(cfg, run, until_40, budget=10_000, rounds=5, workers=1)
    assert out.stopped == "settled" and len(out.rounds) == 1 and out.extra_games == 40


def test_verdict_policy_wants_games_only_for_inconclusive_cells(first_pass):
    cfg, run = first_pass
    manifest = load_manifest(run)
    wide = verdict_policy(manifest, margin=0.45)(adaptive.all_files(run), {})
    assert wide == {}  # +/-45 points: 20 games settle every cell
    narrow = verdict_policy(manifest, margin=0.03)(adaptive.all_files(run), {})
    assert set(narrow) == {0, 1} and all(n > 100 for n in narrow.values())
    out = adaptive.run_adaptive(cfg, run, verdict_policy(manifest, 0.45), budget=100,
                                rounds=3, workers=1)
    assert out.stopped == "settled" and out.extra_games == 0


SWEEP_TOML = """
[study]
name = "s"
seed = 8
games = 20
players = [2]
[sides]
obelisk = ["A", "B"]
[bots]
lineup = ["random"]
[report]
margin = 0.2
[run]
batch_size = 10
[sweep]
budget = 60
rounds = 2
"""


def swept(tmp_path):
    """`sweep --json` of SWEEP_TOML: (config path, run directory, its JSON)."""
    path = tmp_path / "s.toml"
    path.write_text(SWEEP_TOML)
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["sweep", str(path), "--out", str(out), "--workers", "1",
                                  "--json", "-q"])
    assert r.exit_code == 0, r.output
    return path, out, json.loads(r.stdout)


def test_sweep_command(tmp_path):
    path, out, res = swept(tmp_path)
    assert res["cells"] == 2 and res["adaptive"]["budget"] == 60
    assert res["games"] == 40 + res["extra_games"] and res["extra_games"] <= 60
    assert {e["site"] for e in res["main_effects"]} == {"Obelisks"}
    assert (out / "sweep.md").read_text().startswith("# Sweep s: 2 cells")
    assert (out / "sweep-cells.csv").read_text().startswith("rank,cell,sides")
    page = (out / "sweep.html").read_text()
    assert page.count("<svg") == 1 and page.count("<rect") == 2 * 2  # 2 cells x 2 seats
    r = CliRunner().invoke(main, ["sweep", str(path), "--out", str(out), "--workers", "1",
                                  "--fail-on-unbalanced"])
    assert r.exit_code in (0, 3) and "Most imbalanced combinations" in r.stdout
    assert (r.exit_code == 3) == (res["verdicts"]["unbalanced"] > 0)


# --- reports count the adaptive games -----------------------------------------------------


def test_report_counts_base_and_adaptive_games_once(first_pass):
    cfg, run = first_pass
    out = adaptive.run_adaptive(cfg, run, greedy_policy, budget=10_000, rounds=2, workers=1)
    data = compute(run)
    assert out.extra_games == 120 and data.adaptive_games == 120 and data.adaptive_rounds == 2
    assert [(c.games, c.adaptive_games) for c in data.cells] == [(80, 60), (80, 60)]
    # every (cell, game, seat) row once: 2 cells x 80 games x 2 seats
    lf, extra = adaptive.load_all(run)
    rows = lf.select("cell", "game", "seat").collect()
    assert rows.height == 320 and rows.unique().height == 320 and extra.games == 120
    text = document_text(data)
    assert "2 cells** × 20 games + 120 games from adaptive allocation (2 rounds" in text
    assert "= 160 games" in text and "80 games (60 of them from adaptive allocation)" in text


def test_report_leaves_out_an_interrupted_round(first_pass):
    cfg, run = first_pass
    adaptive.run_adaptive(cfg, run, greedy_policy, budget=10_000, rounds=2, workers=1)
    with edited_record(run) as record:  # killed while round 2 played: its shards exist
        record["rounds"][1]["complete"] = False
        record["status"] = "running"
    data = compute(run)
    assert data.adaptive_games == 40 and [c.games for c in data.cells] == [40, 40]
    assert any("adaptive round 2 was interrupted" in n for n in data.global_notes)
    # the sweep finishes the round on the next call, and then it counts
    adaptive.run_adaptive(cfg, run, greedy_policy, budget=10_000, rounds=2, workers=1)
    assert compute(run).adaptive_games == 120


def test_report_ignores_adaptive_games_of_another_first_pass(first_pass):
    cfg, run = first_pass
    adaptive.run_adaptive(cfg, run, greedy_policy, budget=10_000, rounds=1, workers=1)
    # A longer first pass now holds games 20-39 itself; the old extra games are other games
    # of the same indices and would be counted twice. --force removes them...
    saved = Path(run).parent / "adaptive-saved"
    shutil.copytree(adaptive.adaptive_dir(run), saved)
    run_study(cfg.replace(games=40), run, workers=1, force=True)
    assert not adaptive.adaptive_dir(run).exists()
    assert compute(run).adaptive_games == 0
    # ... and should they be back (copied from an older run), readers still skip them
    shutil.copytree(saved, adaptive.adaptive_dir(run))
    data = compute(run)
    assert data.adaptive_games == 0 and [c.games for c in data.cells] == [40, 40]
    assert any("another config" in n for n in data.global_notes)
    assert analyze_sweep(run)["games"] == 80  # the sweep's figures skip them too


def test_report_refuses_a_record_that_would_miscount(first_pass):
    cfg, run = first_pass
    adaptive.run_adaptive(cfg, run, greedy_policy, budget=30, rounds=1, workers=1)
    shard = adaptive.completed_extra(run, load_manifest(run)).files[0]
    shard.unlink()
    with pytest.raises(RunStoreError, match=f"{shard.name}: shard of completed adaptive"):
        compute(run)
    adaptive.run_adaptive(cfg, run, greedy_policy, budget=30, rounds=1, workers=1)  # replays
    with edited_record(run) as record:
        record["rounds"][0]["tasks"][0][2] = 10  # overlaps the first pass's games 10-19
    with pytest.raises(RunStoreError, match="expected them to start at game 20"):
        compute(run)


def test_report_command_after_a_sweep_uses_every_game(tmp_path):
    _, out, res = swept(tmp_path)
    assert res["extra_games"] > 0
    r = CliRunner().invoke(main, ["report", str(out), "--json"])
    assert r.exit_code in (0, 3), r.output
    summary = json.loads(r.stdout)
    assert summary["adaptive_games"] == res["extra_games"]
    assert sum(c["games"] for c in summary["cells"]) == 40 + res["extra_games"]
    assert {c["cell"]: c["games"] for c in summary["cells"]} == {
        c["cell"]: c["games"] for c in res["all_cells"]}
    assert "from adaptive allocation" in (out / "report.md").read_text()


@contextmanager
def edited_record(run):
    """adaptive.json of ``run``, to change in a with block (as a crash or a hand would)."""
    path = adaptive.adaptive_dir(run) / adaptive.RECORD
    record = json.loads(path.read_text())
    yield record
    path.write_text(json.dumps(record))


def document_text(data) -> str:
    from imhotep_stats.reporting import document, markdown

    return markdown.render(document.build(data, []))


def test_adaptive_sweep_verdicts_are_sequential_and_a_plain_one_is_not(first_pass):
    cfg, run = first_pass
    assert not analyze_sweep(run)["sequential"] and not compute(run).sequential
    manifest = load_manifest(run)
    adaptive.run_adaptive(cfg, run, verdict_policy(manifest, 0.03), budget=40, rounds=1,
                          workers=1)
    res = analyze_sweep(run, margin=0.03)
    assert res["sequential"] and all(c["sequential"] for c in res["all_cells"])
    data = compute(run)
    assert data.sequential and any("Sequential verdicts" in n for n in data.global_notes)


def test_allocate_gives_the_budget_to_the_smallest_need_not_the_lowest_index():
    # Issue 45's sweep (300 games a cell): every cell wants at least the games it has, so
    # a round can only double each one; the budget must go to the cells nearest a verdict
    # (the worst board, about 490 games from one) before the 200,000-game ones.
    games = {c: 300 for c in range(16)}
    demands = {0: 200_000, 1: 150_000, 2: 90_000, 3: 75, 9: 490, 14: 1_500}
    assert adaptive.allocate(demands, games, 900) == {3: 75, 9: 300, 14: 300, 2: 225}


def test_heatmap_marks_the_confirmed_cells():
    from imhotep_stats.reporting.sweep_html import confirmations, heatmap, with_confirmations

    cells = [{"sides": "D-A-D-A-D", "players": 3, "games": 600, "win_rates": [0.235, 0.41,
                                                                              0.355]},
             {"sides": "A-A-A-A-D", "players": 3, "games": 300, "win_rates": [0.3, 0.4, 0.3],
              "index": 1}]
    cells[0]["index"] = 0
    res = {"all_cells": cells, "confirm": [{"sides": "A-A-A-A-D", "players": 3,
                                            "lineup": "greedy", "bots": "expert",
                                            "verdict_text": "balanced within ±5.0 pp"}]}
    svg = heatmap(with_confirmations(res), 0.05)
    assert svg.count("<rect") == 6 and "-9.8</text>" in svg
    assert "◆ A-A-A-A-D" in svg and "◆ D-A-D-A-D" not in svg
    # how it was confirmed: under the chart, where text wraps on a phone
    assert confirmations(with_confirmations(res)) == [
        "◆ A-A-A-A-D: expert: balanced within ±5.0 pp"]


def test_sweep_confirms_its_top_cells_with_strong_play(tmp_path):
    """`sweep --confirm K --confirm-bot BOT`: the top K played again on fresh games with BOT
    in every seat (the reference bot for strong play; greedy here, for speed), marked in
    sweep.html."""
    path = tmp_path / "s.toml"
    path.write_text(SWEEP_TOML)
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["sweep", str(path), "--out", str(out), "--workers", "1",
                                  "--budget", "0", "--confirm", "1", "--confirm-bot", "greedy",
                                  "--json", "-q"])
    assert r.exit_code == 0, r.output
    (row,) = json.loads(r.stdout)["confirm"]
    assert row["bots"] == "greedy" and row["lineup"] == "random"
    manifest = load_manifest(row["run_dir"])
    assert [c["lineup"] for c in manifest["cells"]] == [["greedy"]]
    assert f"◆ {row['sides']}" in (out / "sweep.html").read_text()


@pytest.mark.slow
def test_the_readme_sweep_answers_something(tmp_path):
    """The README's first sweep (issue 45: its old example ended 96 of 96 inconclusive)."""
    import re
    import shlex

    readme = (Path(__file__).parents[1] / "README.md").read_text()
    line = re.search(r"^imhotep-stats (sweep --sides A-A-all-A-A[^#\n]*)", readme, re.M)
    args = shlex.split(line.group(1))
    r = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "s"), "--json", "-q"])
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    by = {c["sides"]: c["verdict"] for c in res["all_cells"]}
    assert by["A-A-C-A-A"] == "unbalanced"
    assert by["A-A-B-A-A"] == by["A-A-D-A-A"] == "balanced"

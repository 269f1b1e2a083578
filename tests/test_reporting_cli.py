"""`imhotep-stats run` writes the report and checks the gates; `imhotep-stats report`
re-renders it byte for byte from the stored run; exit codes 0, 1, 2 and 3."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from imhotep_stats.cli import EXIT_GATE_FAILED
from tests.helpers import cli

STUDY = """
[study]
name = "rep"
seed = 4
games = 24
players = [3]

[bots]
lineup = ["greedy", "random", "random"]

[report]
margin = 0.05

[run]
workers = 1
batch_size = 12
{gates}
"""
PASSING = '[gates]\nmax_seat_gap = 0.9\nno_unbalanced = true\n'
FAILING = ('[gates]\nmax_seat_gap = 0.9\nsource_share = { temple = [0.9, 1.0] }\n')
REPORT_FILES = ("report.md", "report.html", "summary.json")


def outputs(run_dir: Path) -> dict[str, bytes]:
    """Every report file of a run directory (not the manifest or the shards)."""
    files = [run_dir / n for n in REPORT_FILES] + sorted((run_dir / "tables").iterdir())
    return {p.relative_to(run_dir).as_posix(): p.read_bytes() for p in files}


@pytest.fixture(scope="module")
def passing_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli")
    cfg = d / "study.toml"
    cfg.write_text(STUDY.format(gates=PASSING))
    summary = d / "step-summary.md"
    r = cli("run", cfg, "--out", d / "run", "--json",
            env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert r.exit_code == 0, r.stderr
    return d, r


def test_run_writes_every_report_file_and_the_step_summary(passing_run):
    d, r = passing_run
    run_dir = d / "run"
    files = outputs(run_dir)
    assert {"tables/win_rates_seat.csv", "tables/win_rates_seat.parquet",
            "tables/gates.csv"} <= set(files)
    md = (run_dir / "report.md").read_text(encoding="utf-8")
    assert (d / "step-summary.md").read_text(encoding="utf-8") == md
    assert "## Balance gates" in md and "### Bot strength" in md
    assert "gate passed: max_seat_gap" in r.stderr and "gate passed: no_unbalanced" in r.stderr
    assert f"report: {run_dir / 'report.md'}" in r.stderr


def test_report_regenerates_the_run_time_files_byte_for_byte(passing_run, tmp_path):
    d, _ = passing_run
    copy = tmp_path / "run"
    shutil.copytree(d / "run", copy)
    at_run_time = outputs(copy)
    shutil.rmtree(copy / "tables")
    for name in REPORT_FILES:
        (copy / name).unlink()
    r = cli("report", copy, "-q")
    assert r.exit_code == 0, r.stderr
    assert r.stderr == "" and r.stdout  # -q quiets stderr, as in run
    assert outputs(copy) == at_run_time
    assert cli("report", copy, "--format", "none").stdout == r.stdout


def test_report_prints_the_terminal_summary_or_json(passing_run):
    d, run = passing_run
    r = cli("report", d / "run", "--format", "none")
    assert r.exit_code == 0, r.stderr
    # the answer first (verdict, seat rates, deciding source), then the summary tables
    assert r.stdout.startswith("A-A-A-A-A, 3 players, greedy,random,random (Market A · ")
    head = next(line for line in r.stdout.splitlines() if line.startswith("Balance report"))
    assert head.startswith("Balance report: rep: 1 cell, margin ±5.0 pp")
    assert "seat 1 = start player" in head
    assert "Bot ratings" in r.stdout and "greedy" in r.stdout
    r = cli("report", d / "run", "--format", "none", "--json")
    summary = json.loads(r.stdout)
    # summary.json keeps run --json's field names and values for win rates.
    (cell,) = [json.loads(line) for line in run.stdout.splitlines()]
    got = summary["cells"][0]
    assert got["cell"] == cell["cell"] and got["games"] == cell["games"] == 24
    for kind in ("seats", "bots"):
        for a, b in zip(got[kind], cell[kind], strict=True):
            for key in ("games", "wins", "win_rate", "ci_low", "ci_high"):
                assert a[key] == pytest.approx(b[key], abs=1e-9), (kind, key)
            assert a["points"]["total"] == pytest.approx(b["points"]["total"])
    # A strong bot against random ones: its rating interval lies above the mean bot.
    ratings = {r["bot"]: r for r in got["bot_ratings"]}
    assert ratings["greedy"]["ci_low"] > 0 > ratings["random"]["ci_high"]


def test_format_selects_the_files(passing_run, tmp_path):
    d, _ = passing_run
    copy = tmp_path / "run"
    shutil.copytree(d / "run", copy)
    shutil.rmtree(copy / "tables")
    for name in REPORT_FILES:
        (copy / name).unlink()
    assert cli("report", copy, "--format", "md,csv", "-q").exit_code == 0
    assert (copy / "report.md").exists() and not (copy / "report.html").exists()
    assert not (copy / "summary.json").exists()
    names = {p.suffix for p in (copy / "tables").iterdir()}
    assert names == {".csv"}


def test_failed_gate_exits_3_from_run_and_report(tmp_path):
    cfg = tmp_path / "study.toml"
    cfg.write_text(STUDY.format(gates=FAILING))
    r = cli("run", cfg, "--out", tmp_path / "run", "-q")
    assert r.exit_code == EXIT_GATE_FAILED == 3
    assert "gate failed: source_share.temple: temple share outside [0.9, 1]" in r.stderr
    assert "gate passed" not in r.stderr  # -q hides passes, never failures
    assert (tmp_path / "run" / "report.html").exists()  # written before exiting
    r = cli("report", tmp_path / "run")
    assert r.exit_code == 3
    assert "1 balance gate failed: source_share.temple" in r.stderr
    assert "gate FAILED: source_share.temple" in r.stdout  # the summary says it too
    md = (tmp_path / "run" / "report.md").read_text(encoding="utf-8")
    assert "**1 of 2 balance gates failed**: `source_share.temple`" in md


def test_bad_gates_in_a_config_are_input_errors(tmp_path):
    cfg = tmp_path / "study.toml"
    cfg.write_text(STUDY.format(gates='[gates]\nmax_seat_gap = "small"\nseat_gap = 1\n'
                                      'source_share = { gold = [0, 1] }\n'))
    r = cli("validate", cfg)
    assert r.exit_code == 1
    for key in ("gates.max_seat_gap", "gates.seat_gap", "gates.source_share.gold"):
        assert f"  {key}: " in r.stderr


def test_report_errors(tmp_path):
    r = cli("report", tmp_path)
    assert r.exit_code == 1 and "not a run directory" in r.stderr
    r = cli("report", tmp_path, "--format", "pdf")
    assert r.exit_code == 2 and "pdf" in r.stderr
    (tmp_path / "manifest.json").write_text(json.dumps({"format": 1, "status": "running"}))
    r = cli("report", tmp_path)
    assert r.exit_code == 1 and "not finished" in r.stderr

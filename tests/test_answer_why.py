"""Answers that say why (issue 47): under a seat verdict, the score sources that separate the
least fair seat from the other seats, with intervals, in the terminal answer, report.md and
report.html. D-A-C-A-A at 3 players (greedy bots): the start player's edge, which its
report's per-seat points show in the temple."""

from __future__ import annotations

import re

import polars as pl
import pytest
from click.testing import CliRunner

from imhotep_stats.cli import main
from imhotep_stats.stats import fmt as f


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("why") / "run"
    r = CliRunner().invoke(main, ["run", "--sides", "D-A-C-A-A", "--players", "3", "--bots",
                                  "greedy", "--games", "400", "--seed", "2026", "--workers",
                                  "1", "--out", str(out), "-q"],
                           env={"GITHUB_STEP_SUMMARY": None,
                                "IMHOTEP_STATS_LEDGER": str(out.parent / "looks.jsonl")})
    assert r.exit_code == 0, r.output
    return out, r.output


def test_the_answer_names_the_sources_behind_the_start_players_edge(run):
    out, printed = run
    edge = pl.read_parquet(out / "tables" / "seat_edge.parquet").filter(pl.col("seat") == 0)
    rows = {r["source"]: r for r in edge.iter_rows(named=True)}
    temple = rows["temple"]
    assert temple["ci_low"] > 0  # the temple separates seat 1 from the others here
    sources = [r for s, r in rows.items() if s != "total" and r["ci_low"] > 0]
    assert max(sources, key=lambda r: r["mean"])["source"] == "temple"
    said = (f"The start player's edge comes from the temple, {f.signed(temple['mean'], 1)} "
            f"points [{f.num(temple['ci_low'], 1)}, {f.num(temple['ci_high'], 1)}] a game over "
            "the other seats' mean")
    assert said in printed
    total = rows["total"]
    assert (f"(all sources: {f.signed(total['mean'], 1)} points [{f.num(total['ci_low'], 1)}, "
            f"{f.num(total['ci_high'], 1)}])") in printed
    md = (out / "report.md").read_text()
    html = (out / "report.html").read_text()
    assert said in md
    assert said.replace("'", "&#x27;") in html or said in html
    # the cell's section: every seat against the others, by source, and its chart
    assert "**Each seat against the others**" in md
    assert re.search(r"\| temple +\| +\+\d+\.\d\d \[", md)
    assert 'aria-label="Seat 1 against the other seats (95% CI)"' in html


def test_a_balanced_cell_names_no_edge(run):
    import dataclasses

    from imhotep_stats.reporting.figures import compute
    from imhotep_stats.reporting.headline import seat_edge_sentence

    out, _ = run
    data = compute(out)
    (cell,) = data.cells
    assert seat_edge_sentence(data, cell) is not None
    cell.verdict = dataclasses.replace(cell.verdict, verdict="balanced")
    assert seat_edge_sentence(data, cell) is None

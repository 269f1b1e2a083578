"""A run directory renders to the same bytes (issue 48): report.md, report.html and
summary.json do not depend on how often they are rendered, in which order the shards hold
their rows, or whether the run was interrupted and resumed (timestamps aside). Sums of
points and of win shares are whole numbers (points, twelfths of a win), so the order polars
adds them in cannot show; an interval or mean computed from them then is the same float."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from imhotep_stats.config import load_config
from imhotep_stats.reporting.build import build_report
from imhotep_stats.sim import runner, store
from imhotep_stats.stats import aggregate, breakdowns, playtest
from tests.test_reporting import FOUR, MIXED, TWO, synthetic_run

FILES = ("report.md", "report.html", "summary.json")
STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+\dZ:]*")


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    """Four- and three-player cells: a lone winner's three others (a mean over 3) and
    three-way shared wins (1/3 each) are not binary fractions."""
    d = tmp_path_factory.mktemp("det") / "run"
    synthetic_run(d, [dict(FOUR), dict(MIXED), dict(TWO)], 400, seed=11)
    return d


def _shuffled(run_dir: Path, out: Path, seed: int) -> Path:
    """A copy of ``run_dir`` whose shards hold the same rows in another order."""
    shutil.copytree(run_dir, out)
    for path in store.shard_files(out, verify=False):
        df = pl.read_parquet(path)
        store.write_shard(out, *map(int, store.SHARD_RE.match(path.name).groups()),
                          df.sample(fraction=1.0, shuffle=True, seed=seed))
    return out


def rendered(run_dir: Path) -> dict[str, str]:
    build_report(run_dir, ("md", "html", "json"), step_summary=False)
    return {name: STAMP.sub("<time>", (run_dir / name).read_text()) for name in FILES}


AGGREGATES = {
    "win_rates": lambda lf: aggregate.win_rates(lf),
    "win_rates_bot": lambda lf: aggregate.win_rates(lf, by=("cell", "bot")),
    "points_by_source": lambda lf: aggregate.points_by_source(lf, by="cell"),
    "winner_separation": lambda lf: aggregate.winner_separation(lf),
    "seat_edge": lambda lf: aggregate.seat_edge(lf),
    "game_shape": lambda lf: aggregate.game_shape(lf),
    "round_points": lambda lf: breakdowns.round_points(lf),
    "comebacks": lambda lf: pl.concat(playtest.comebacks(lf), how="diagonal_relaxed"),
    "card_strength": lambda lf: playtest.card_strength(lf),
}


@pytest.mark.parametrize("name", AGGREGATES)
def test_a_figure_does_not_depend_on_the_order_of_the_rows(synthetic, name):
    rows = pl.concat([pl.read_parquet(p) for p in store.shard_files(synthetic)])
    figure = AGGREGATES[name]
    first = figure(rows.lazy())
    for seed in range(4):
        again = figure(rows.sample(fraction=1.0, shuffle=True, seed=seed).lazy())
        assert_frame_equal(first, again, check_exact=True)


def test_a_report_does_not_depend_on_the_order_in_the_shards(synthetic, tmp_path):
    reference = rendered(synthetic)
    assert rendered(synthetic) == reference  # rendered twice
    for seed in range(3):
        assert rendered(_shuffled(synthetic, tmp_path / f"s{seed}", seed)) == reference


STUDY = """
[study]
name = "determinism"
seed = 5
games = 24
players = [3, 4]

[run]
batch_size = 4
workers = 1
"""


def test_a_resumed_run_reports_what_an_uninterrupted_one_does(tmp_path, monkeypatch):
    (tmp_path / "study.toml").write_text(STUDY)
    cfg = load_config(tmp_path / "study.toml")
    runner.run_study(cfg, tmp_path / "whole")
    write, written = store.write_shard, []

    def interrupted(run_dir, cell, batch, df):  # Ctrl-C after three shards
        if len(written) == 3:
            raise KeyboardInterrupt
        written.append(batch)
        return write(run_dir, cell, batch, df)

    monkeypatch.setattr(store, "write_shard", interrupted)
    with pytest.raises(KeyboardInterrupt):
        runner.run_study(cfg, tmp_path / "resumed")
    monkeypatch.setattr(store, "write_shard", write)
    assert store.load_manifest(tmp_path / "resumed")["status"] == "running"
    outcome = runner.run_study(cfg, tmp_path / "resumed", resume=True)
    assert outcome.reused > 0 and outcome.simulated > 0
    whole, resumed = rendered(tmp_path / "whole"), rendered(tmp_path / "resumed")
    for name in FILES:
        assert resumed[name] == whole[name], name
    assert rendered(tmp_path / "resumed") == resumed

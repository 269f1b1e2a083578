"""The notebook API: build a study from a dict, TOML or flags, run it, get polars frames and
the report's figures back. The CLI's commands, as functions (docs/notebook.md).

    from imhotep_stats import api
    s = api.quick("D-A-C-A-A", players=3, bots="greedy", games=500)
    r = api.run(s, out="reports/dac")
    r.verdicts()          # one row per cell: verdict, largest gap, chi-square p, ...
    r.table("win_rates_seat")

Runs are stored exactly as ``imhotep-stats run`` stores them (and resumed the same way), so
a notebook and the command line can share run directories.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import polars as pl

from imhotep_stats.config import StudyConfig, load_config, parse_config
from imhotep_stats.config.quick import QUICK_GAMES, QUICK_SEED, example_text, examples, quick_study

__all__ = ["Run", "compare", "example", "examples", "open_run", "play", "quick", "run", "study",
           "sweep", "tune"]


def study(spec: Mapping[str, Any] | str | Path, **changes: Any) -> StudyConfig:
    """A validated study from a dict (the TOML's tables), TOML text or a ``.toml`` path.

    ``changes`` replace fields of the result, e.g. ``games=200``, ``seed=7``. Problems raise
    ``ConfigError`` naming every dotted key at once, as ``validate`` prints them."""
    if isinstance(spec, Mapping):
        cfg = parse_config(spec, "dict")
    elif isinstance(spec, Path) or (isinstance(spec, str) and "\n" not in spec
                                    and spec.endswith(".toml")):
        cfg = load_config(spec)
    else:
        cfg = parse_config(tomllib.loads(spec), "TOML text")
    return cfg.replace(**changes) if changes else cfg


def quick(sides: str, players: int | tuple[int, ...] = 3, bots: str = "greedy",
          games: int = QUICK_GAMES, seed: int = QUICK_SEED, *, sweep: bool = False) -> StudyConfig:
    """The study of ``run --sides SIDES --players N --bots B``: one side combination;
    ``sweep=True``: "all" or several letters per site (``sweep --sides all-A-all-A-D``)."""
    counts = (players,) if isinstance(players, int) else tuple(players)
    return quick_study(sides, counts, bots, games, seed, sweep=sweep)


def example(name: str = "default", **changes: Any) -> StudyConfig:
    """One of the example studies shipped in the package (``examples()`` lists them)."""
    return study(example_text(name), **changes)


SEAT_COLUMNS = ("seat", "largest_gap_seat")  # 0-based in the data, 1-based for people


def _seats_from_1(df: pl.DataFrame) -> pl.DataFrame:
    return df.with_columns([pl.col(c) + 1 for c in SEAT_COLUMNS if c in df.columns])


@dataclass
class Run:
    """A stored run directory: its games as polars frames and its report's figures."""

    dir: Path

    @cached_property
    def figures(self):
        """Every figure of the report (``reporting.figures.ReportData``): ``.cells`` with
        their verdicts, ``.tables`` (what ``tables/*.csv`` hold), margin, confidence."""
        from imhotep_stats.reporting.figures import compute

        return compute(self.dir)

    def games(self) -> pl.DataFrame:
        """One row per game and seat (sim/schema.py lists the columns), every game stored;
        seats counted from 1 (1 = the start player), as in the reports."""
        from imhotep_stats.sim.adaptive import load_all

        return _seats_from_1(load_all(self.dir)[0].collect())

    def table(self, name: str) -> pl.DataFrame:
        """A report table by name (``tables()`` lists them), e.g. ``win_rates_seat``;
        seats counted from 1, as in the reports (``tables/*.csv`` keep the data's 0)."""
        return _seats_from_1(self.figures.tables[name])

    def tables(self) -> list[str]:
        return list(self.figures.tables)

    def verdicts(self) -> pl.DataFrame:
        """The seat verdict of every cell (the report's ``seat_fairness`` table)."""
        return self.table("seat_fairness")

    def summary(self) -> str:
        """The answer first, as ``run`` prints it: per cell the verdict, the seat win rates
        and the source that most separates winners."""
        from imhotep_stats.reporting.headline import headline_text

        return headline_text(self.figures)

    def write_report(self, formats: str = "all") -> list[Path]:
        """Write report.md, report.html, summary.json and tables/ (as ``report`` does)."""
        from imhotep_stats.reporting.build import build_report, parse_formats

        return build_report(self.dir, parse_formats(formats), step_summary=False).written


def run(cfg: StudyConfig, out: str | Path | None = None, *, workers: int | None = 1,
        force: bool = False, progress: bool = False, report: bool = True) -> Run:
    """Simulate ``cfg`` into ``out`` (default ``reports/<study name>``), resuming a run
    already there, as ``imhotep-stats run`` does; writes the report files unless
    ``report=False``. ``workers=1`` plays in this process (None: all cores)."""
    from imhotep_stats.sim.looks import ledger_path
    from imhotep_stats.sim.runner import run_study
    from imhotep_stats.sim.store import holds_run

    run_dir = Path(out) if out is not None else Path("reports") / cfg.name
    again = not force and holds_run(run_dir)
    run_study(cfg, run_dir, workers=workers, resume=again, force=force, progress=progress,
              ledger=ledger_path())  # every look counted (sim/looks.py), as the CLI does
    r = Run(run_dir)
    if report:
        r.write_report()
    return r


def open_run(run_dir: str | Path) -> Run:
    """A run directory written earlier (by ``run`` here or on the command line)."""
    from imhotep_stats.sim.store import load_manifest

    load_manifest(run_dir)  # RunStoreError if it is none
    return Run(Path(run_dir))


def tune(cfg: StudyConfig, params: list[str], target: str = "seat-gap", *,
         goal: float | None = None, margin: float = 0.03, out: str | Path | None = None,
         games: int | None = None, max_games: int | None = None, rounds: int = 3,
         workers: int | None = 1, confidence: float = 0.95) -> dict[str, Any]:
    """``imhotep-stats tune`` as a function: ``params`` as ``--param`` takes them
    (``"game.starting_sled[0]=1..4"``), ``target`` as ``--target``; returns tune.json's
    content (``candidates`` with value, interval, games and decision; ``answer``)."""
    from imhotep_stats.config.edits import parse_param
    from imhotep_stats.stats.tune import parse_target, run_tune

    out = Path(out) if out is not None else Path("reports") / f"tune-{cfg.name}"
    return run_tune(cfg, [parse_param(p) for p in params], parse_target(target, goal), out,
                    margin=margin, confidence=confidence, first_games=games,
                    max_games=max_games, rounds=rounds, workers=workers, progress=False)


def compare(base: StudyConfig, whatif: StudyConfig | None = None, *,
            params: list[str] | tuple[str, ...] = (), sides: str | None = None,
            out: str | Path | None = None, workers: int | None = 1,
            force: bool = False) -> dict[str, Any]:
    """``imhotep-stats compare`` as a function: ``base`` against ``whatif`` (another study,
    its cells paired by position), or against ``base`` with ``params`` set (``"PATH=VALUE"``
    as ``--param`` takes them) and/or another side combination ``sides``. Both runs play
    the same seeds; returns compare.json's content (``figures``: every figure's base,
    what-if, change, interval and q-value; ``summary``: the sentences ``compare`` prints)."""
    from imhotep_stats.config.edits import whatif_of
    from imhotep_stats.reporting.compare import comparison_json
    from imhotep_stats.stats.compare import compare_runs, pair_configs, summarize

    if whatif is None:
        whatif = whatif_of(base, list(params), sides) if params or sides else base.whatif_config()
    whatif, notes = pair_configs(base, whatif)
    out = Path(out) if out is not None else Path("reports") / whatif.name
    if not force:  # a base already played (by run, or another what-if) is not played again
        from imhotep_stats.sim.runner import adopt_stored_run, base_places

        adopt_stored_run(base, out / "base", base_places(base.name, out))
    run(base, out / "base", workers=workers, force=force, report=False)
    run(whatif, out / "whatif", workers=workers, force=force, report=False)
    comp = compare_runs(out / "base", out / "whatif", base.confidence)
    comp.notes += notes
    return {**comparison_json(comp), "summary": summarize(comp)}


def sweep(cfg: StudyConfig, out: str | Path | None = None, *, workers: int | None = 1,
          force: bool = False, top: int | None = None,
          rank_by: str | None = None) -> dict[str, Any]:
    """``imhotep-stats sweep`` as a function (without adaptive games): run ``cfg`` (many
    side combinations, e.g. ``quick("all-A-all-A-D")`` with ``sweep=True`` or a config
    with several sides per site) and return sweep.json's content: the ranking, verdict
    counts, main effects and interactions."""
    from imhotep_stats.stats.sweep import analyze_sweep

    r = run(cfg, out if out is not None else Path("reports") / cfg.name, workers=workers,
            force=force, report=False)
    opts = cfg.sweep
    return analyze_sweep(r.dir, cfg.margin, cfg.confidence, top or opts["top"],
                         rank_by or opts["rank_by"], alpha=1.0 - cfg.confidence)


def play(sides: str = "A-A-A-A-A", players: int = 3, bots: str = "greedy", seed: int = 0, *,
         trace: str | Path | None = None, prophecies: bool = False) -> dict[str, Any]:
    """``imhotep-stats play`` as a function: one game; returns its result (``seats``
    with each seat's points by source and total, ``winners``; seats from 0 as in
    transcripts). ``trace``: also write the transcript there (``show`` draws it)."""
    from imhotep_stats.sim.samples import bot_list, play_one

    result, lines = play_one(players, sides, bot_list(bots, players), seed, prophecies=prophecies)
    if trace is not None:
        Path(trace).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return result.to_json()

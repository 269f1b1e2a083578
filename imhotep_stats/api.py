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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
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
    """A stored run directory: its games as polars frames and its report's figures; after
    ``run``, also what the run did (``outcome``: games played and reused, seconds, seed;
    ``stopped``: "decided" or "budget" with ``until_decided``; ``kept``: the viewer pages
    of the kept games)."""

    dir: Path
    outcome: Any = None  # sim.runner.RunOutcome
    stopped: str | None = None
    kept: list[Path] = field(default_factory=list)

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
        cluster: str | None = None, force: bool = False, progress: bool | None = False,
        report: bool = True, until_decided: bool = False, max_games: int | None = None,
        keep_games: int = 0, keep_seed: bool = False, log: Callable[[str], None] | None = None,
        warn: Callable[[str], None] | None = None) -> Run:
    """Simulate ``cfg`` into ``out`` (default ``reports/<study name>``), as ``imhotep-stats
    run`` does (the command is this function with flags): a run already there is resumed,
    ``force`` plays it again; every look at the games is counted (sim/looks.py), and a
    re-look plays fresh games unless ``keep_seed``. Writes the report files unless
    ``report=False``.

    ``until_decided``: add passes (each at most doubling the games) until every cell has a
    sequential seat verdict or ``max_games`` per cell (default 16 x ``cfg.games``);
    ``Run.stopped`` says which. ``keep_games``: keep the first K games of every cell as
    transcripts and viewer pages (``Run.kept``). ``workers=1`` plays in this process
    (None: all cores), ``cluster`` on a Dask scheduler; ``log``/``warn`` take the messages
    (progress and notes; warnings)."""
    from imhotep_stats.sim.looks import ledger_path
    from imhotep_stats.sim.runner import run_study, run_until_decided
    from imhotep_stats.sim.store import holds_run

    run_dir = Path(out) if out is not None else Path("reports") / cfg.name
    options = dict(workers=workers, cluster=cluster, force=force, progress=progress, log=log,
                   warn=warn, ledger=ledger_path(), keep_seed=keep_seed)
    stopped = None
    if until_decided:
        from imhotep_stats.config import MAX_GAMES, ConfigError

        max_games = max_games or min(MAX_GAMES, 16 * cfg.games)
        if max_games < cfg.games:
            raise ConfigError([("max_games", f"expected at least the first pass's "
                                f"{cfg.games:,} games, got {max_games:,}")], "run")
        outcome, stopped = run_until_decided(cfg, run_dir, _until_look(run_dir, log),
                                             max_games=max_games, **options)
        (log or _quiet)("until decided: " + (
            "every cell has a verdict" if stopped == "decided" else
            f"the budget of {max_games:,} games per cell is spent"))
    else:
        outcome = run_study(cfg, run_dir, resume=not force and holds_run(run_dir), **options)
    kept: list[Path] = []
    if keep_games:
        from imhotep_stats.reporting.kept import keep_games as keep

        played = cfg.replace(seed=outcome.seed)  # fresh games: the seed actually played
        kept = keep(played, played.cells, run_dir, keep_games)
    r = Run(run_dir, outcome=outcome, stopped=stopped, kept=kept)
    if report:
        r.write_report()
    return r


def _quiet(_message: str) -> None:
    """Where messages go when nobody asked for them."""


def _until_look(run_dir: Path, say: Callable[[str], None] | None):
    """``until_decided``'s look after each pass: the sequential verdicts (as the report
    decides them) told to ``say``, and the extra games the undecided cells want."""
    from imhotep_stats.reporting.figures import seat_verdicts_of
    from imhotep_stats.stats.sweep import wanted

    say = say or _quiet

    def look(games: int) -> int:
        verdicts, manifest = seat_verdicts_of(run_dir)
        names = {c["id"]: f"{c['sides']} · {c['players']} players" for c in manifest["cells"]}
        # an inconclusive cell keeps asking until the budget ends, even where its estimate
        # has no practical number (an observed gap exactly at the margin is noise)
        want = {cid: wanted(v.verdict, v.more_games, v.games)
                or (v.games if v.verdict == "inconclusive" else 0)
                for cid, v in verdicts.items()}
        open_ = [cid for cid, v in verdicts.items() if v.verdict == "inconclusive"]
        say(f"until decided: {games:,} games per cell: {len(verdicts) - len(open_)} of "
            f"{len(verdicts)} cells decided (sequential verdicts)")
        for cid, v in list(verdicts.items())[:12]:
            say(f"  {names.get(cid, cid)}: {v.text}")
        if len(verdicts) > 12:
            say(f"  ... and {len(verdicts) - 12} more cells")
        return max(want.values(), default=0)

    return look


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
    # paired: both play the base's seed, never replaced by fresh games (as compare does)
    run(base, out / "base", workers=workers, force=force, report=False, keep_seed=True)
    run(whatif, out / "whatif", workers=workers, force=force, report=False, keep_seed=True)
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

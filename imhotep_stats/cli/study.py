"""A study from start to report: ``validate`` (check a config), ``run`` (simulate and report;
a CONFIG file or one built from --sides) and ``report`` (re-render a stored run, check gates)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from imhotep_stats import __version__
from imhotep_stats.cli.exits import (
    EXIT_BAD_INPUT,
    EXIT_GATE_FAILED,
    EXIT_INTERRUPTED,
    expected_errors,
)
from imhotep_stats.cli.options import (
    BOARD,
    FORCE,
    GAMES,
    MARGIN,
    OUT_RUN,
    QUIET,
    SEED,
    STRONG,
    bad_cluster,
    executor_options,
    flag_study_options,
    json_option,
    on_board,
)


def study_from(config, sides, players, bots, games, seed, sweep=False):
    """The study of ``run``/``tune``/``compare``/``sweep``: the CONFIG file, or one built
    from --sides (``sweep``: "all" or several letters per site allowed)."""
    from imhotep_stats.config import load_config
    from imhotep_stats.config.quick import QUICK_GAMES, QUICK_SEED, quick_study

    if config is not None:
        if sides or players or bots:
            raise click.UsageError("give a study CONFIG or --sides (with --players, --bots), "
                                   "not both")
        return load_config(config)
    if not sides:
        raise click.UsageError("give a study CONFIG (`imhotep-stats init` writes one) or "
                               "--sides, e.g. --sides D-A-C-A-A --players 3 --bots greedy")
    return quick_study(sides, tuple(players) or (3,), bots or "greedy",
                       QUICK_GAMES if games is None else games,
                       QUICK_SEED if seed is None else seed, sweep=sweep)


def with_flags(cfg, games=None, seed=None, margin=None, batch_size=None):
    """``cfg`` with the command line's --games, --seed, --margin and --batch-size put over
    it."""
    changes = {k: v for k, v in (("games", games), ("seed", seed), ("margin", margin),
                                 ("batch_size", batch_size)) if v is not None}
    return cfg.replace(**changes) if changes else cfg


@click.command(short_help="Check a study config and print its size.")
@click.argument("config", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@BOARD
@click.option("--no-estimate", is_flag=True,
              help="Do not play the few games that estimate the run's time.")
@expected_errors
def validate(config, board_file, no_estimate):
    """Check a study config; print its size, how far its answers can be trusted (bots,
    margin, the board values its cells rest on) and about how long it will take, or every
    problem with its dotted key."""
    from imhotep_stats.config import load_config
    from imhotep_stats.reporting.trust import study_trust

    cfg = on_board(load_config(config), board_file)
    n = len(cfg.cells)
    click.echo(f"ok: {n} cell{'s' if n != 1 else ''}, {cfg.total_games:,} games")
    for line in study_trust(cfg):
        click.echo(line)
    if not no_estimate:
        from imhotep_stats.sim.cost import estimate_line, pilot_costs

        click.echo(estimate_line(pilot_costs(cfg), cfg.workers))


@click.command(short_help="Simulate a study (a config, or --sides without one) and report.")
@click.argument("config", required=False,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@flag_study_options
@OUT_RUN
@executor_options
@click.option("--games", type=GAMES, help="Games per cell (overrides study.games; "
              "2,000 with --sides).")
@SEED
@FORCE
@MARGIN
@BOARD
@click.option("--keep-games", type=click.IntRange(0, 1000), default=0, metavar="K",
              help="Keep the first K games of every cell as transcripts and game viewer "
              "pages (games/cell-N/), linked from the report.")
@click.option("--until-decided", is_flag=True, help="Keep adding games (each pass at most "
              "doubles them) until every cell has a seat verdict or --max-games is reached; "
              "the verdicts are sequential (valid however often they are looked at).")
@click.option("--max-games", type=GAMES, help="With --until-decided: games per "
              "cell at most [default: 16 x the first pass].")
@STRONG
@json_option("Print one JSON object per cell.")
@QUIET
@expected_errors
def run(config, sides, players, bots, out, workers, cluster, batch_size, games, seed, force,
        margin, board_file, keep_games, until_decided, max_games, strong, strong_bot,
        strong_games, strong_minutes, as_json, quiet):
    """Simulate a study into a run directory; print the verdict per cell, then win rates
    and points.

    CONFIG is a study file (`imhotep-stats init` writes one). Without it, --sides asks about
    one side combination: `run --sides D-A-C-A-A --players 3 --bots greedy` builds the study
    from the flags, names it after them and stores it like any run. A run already in the
    run directory is resumed (same results as one uninterrupted run); a changed config is
    refused unless --force, except more games: `--games N` on a run with fewer adds games
    (games 0..k-1 are reused; game i is always the same game) and its verdicts become
    sequential ones, valid however often you look. --until-decided adds passes until every
    cell has a verdict."""
    import importlib
    import threading

    from imhotep_stats import api
    from imhotep_stats.reporting.strong import redundant, redundant_note
    from imhotep_stats.sim.adaptive import load_all
    from imhotep_stats.sim.store import RunStoreError, holds_run, load_manifest

    if max_games is not None and not until_decided:
        raise click.UsageError("--max-games goes with --until-decided")
    bad_cluster(cluster)

    cfg = on_board(with_flags(study_from(config, sides, players, bots, games, seed),
                              games, seed, margin, batch_size), board_file)
    if cluster is None and workers is None:
        cluster, workers = cfg.cluster, cfg.workers
    run_dir = out or Path("reports") / cfg.name
    if not force:  # a run that played fresh games is resumed with its seed (sim/looks.py)
        from imhotep_stats.sim.runner import adopt_seed

        cfg = adopt_seed(cfg, run_dir)
    if games is None and not force:  # a re-look at a stored run keeps all its games
        from imhotep_stats.sim.runner import held_games

        held = held_games(cfg, run_dir)  # (a CONFIG's own larger study.games tops it up)
        if held:
            cfg = cfg.replace(games=held if config is None else max(cfg.games, held))

    def say(msg: str) -> None:
        if not quiet:
            click.echo(msg, err=True)

    if until_decided:  # imported before the thread below imports the reports (a race)
        import imhotep_stats.reporting.figures  # noqa: F401
    from imhotep_stats.engine import core

    say(f"imhotep-stats {__version__}: {cfg.total_games:,} games into {run_dir} "
        f"(core: {core.describe()})")
    if not quiet and (force or not _finished(run_dir)):
        from imhotep_stats.sim.cost import describe, pilot_costs

        for line in describe(pilot_costs(cfg), None if cluster else workers or os.cpu_count()):
            say(line)
    checked = strong and not redundant(cfg, strong_bot)
    plan = None
    if checked:  # what the check plays and how long, said before any game
        from imhotep_stats.reporting.strong import plan_run_check

        plan = plan_run_check(cfg, run_dir, strong_bot, most=strong_games,
                              minutes=strong_minutes,
                              cores=None if cluster else workers or os.cpu_count())
        for line in plan.lines():
            say(line)
    # The summary's statistics import scipy (slow to load): do it while workers play.
    threading.Thread(target=importlib.import_module, args=("imhotep_stats.reporting.summary",),
                     daemon=True).start()
    try:
        # the library runs it (api.run: resumed by default, every look counted); an
        # explicit --seed is never replaced by fresh games
        done = api.run(cfg, run_dir, workers=workers, cluster=cluster, force=force,
                       progress=False if quiet else None, report=False,
                       until_decided=until_decided, max_games=max_games, keep_games=keep_games,
                       keep_seed=seed is not None, log=say,
                       warn=lambda m: click.echo(m, err=True))
        outcome = done.outcome
        from imhotep_stats.reporting.summary import cell_summaries, format_cell

        manifest = load_manifest(run_dir)
        summaries = cell_summaries(load_all(run_dir)[0], manifest)  # as the report counts
    except RunStoreError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except (KeyboardInterrupt, OSError) as exc:
        from imhotep_stats.errors import os_error

        what = "\ninterrupted" if isinstance(exc, KeyboardInterrupt) else f"error: {os_error(exc)}"
        click.echo(what + ("; run the same command again to resume" if holds_run(run_dir)
                           else ""), err=True)
        sys.exit(EXIT_INTERRUPTED if isinstance(exc, KeyboardInterrupt) else EXIT_BAD_INPUT)
    rate = outcome.simulated / outcome.seconds if outcome.seconds > 0 else 0.0
    say(f"{run_dir}: {outcome.games:,} games in {len(summaries)} cell"
        f"{'s' if len(summaries) != 1 else ''} ({outcome.simulated:,} played now, "
        f"{outcome.reused:,} reused; {outcome.seconds:.1f} s"
        + (f", {rate:,.0f} games/s" if outcome.simulated else "") + f"; {outcome.executor})")
    if keep_games:
        say(f"kept {len(done.kept)} sample games in {run_dir / 'games'} (game viewer pages)")
    rep = _report_files(run_dir, "all", say)  # issue 7: report files, balance gates
    if strong and redundant(cfg, strong_bot):
        say(redundant_note(strong_bot))
    check = _strong_check(cfg, run_dir, rep.data, strong_bot, plan, say,
                          workers=workers, cluster=cluster,
                          progress=False if quiet else None, log=say,
                          warn=lambda m: click.echo(m, err=True)) if checked else None
    if as_json:
        for s in summaries:
            click.echo(json.dumps(dict(s, run_dir=str(run_dir)), sort_keys=True))
        if check:
            click.echo(json.dumps({"strong_check": check[1]}, sort_keys=True))
    else:
        from imhotep_stats.reporting.headline import headline_text

        if check:  # the answer for strong play first
            click.echo("\n\n".join(check[0]) + "\n")
        click.echo(headline_text(rep.data))  # the answer first, then the tables
        click.echo("\n".join(format_cell(s) for s in summaries), nl=False)
    _gate_exit(rep)


def _strong_check(cfg, run_dir: Path, screen, bot, plan, say, **run_options):
    """The strong-play check beside a screen (``reporting.strong``), as ``plan`` says: its
    games, its report files, and (sentences, JSON) of the answer led by strong play."""
    from imhotep_stats.reporting.figures import compute
    from imhotep_stats.reporting.strong import check_json, check_sentences, run_check, stop_text

    check, out, outcome, why, plan = run_check(cfg, run_dir, bot, plan=plan, say=say,
                                               **run_options)
    say(f"{out}: strong-play check, {outcome.games:,} games ("
        f"{stop_text(why, outcome.games // max(1, len(check.cells)), plan)})")
    _report_files(out, "all", say)
    data = compute(out)
    return check_sentences(screen, data), check_json(screen, data)


def _finished(run_dir: Path) -> bool:
    """Whether ``run_dir`` holds a complete run (nothing left to play)."""
    try:
        return json.loads((run_dir / "manifest.json").read_text()).get("status") == "complete"
    except (OSError, ValueError, AttributeError):
        return False


# --- reports and balance gates (issue 7) ---------------------------------------------------


def _report_files(run_dir: Path, formats: str, say):
    """Write a stored run's report files and check its gates: the shared end of ``run`` and
    ``report``. Exits 1 for a directory that is no finished run; names every failed gate
    on stderr (even with -q). Returns the ``reporting.build.Report``."""
    from imhotep_stats.reporting.build import build_report, parse_formats
    from imhotep_stats.reporting.gates import GateConfigError
    from imhotep_stats.sim.store import RunStoreError

    try:
        fmts = parse_formats(formats)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--format") from None
    try:
        rep = build_report(run_dir, fmts)
    except (RunStoreError, GateConfigError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    for w in rep.warnings:
        click.echo(f"warning: {w}", err=True)
    if rep.written:
        top = [p.name for p in rep.written if p.parent == Path(run_dir)]
        tables = len(rep.written) - len(top)
        say(f"report: {', '.join(str(Path(run_dir) / n) for n in top)}"
            + (f" and {tables} tables in {Path(run_dir) / 'tables'}" if tables else ""))
    for g in rep.gates:
        if g.passed:
            say(f"gate passed: {g.gate}: {g.detail}")
        else:
            click.echo(f"gate failed: {g.gate}: {g.detail}", err=True)
    return rep


def _gate_exit(rep) -> None:
    """Exit code 3 (EXIT_GATE_FAILED) when any balance gate failed."""
    if rep.failed:
        n = len(rep.failed)
        click.echo(f"{n} balance gate{'s' if n > 1 else ''} failed: "
                   f"{', '.join(g.gate for g in rep.failed)}", err=True)
        sys.exit(EXIT_GATE_FAILED)


@click.command(short_help="Re-render a stored run's reports; check its gates.")
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--format", "formats", default="all", show_default=True, metavar="LIST",
              help="Files to write: comma-separated md, html, json, csv, parquet; all; or "
              "none (only check the gates).")
@click.option("--json", "as_json", is_flag=True,
              help="Print summary.json to stdout instead of the terminal summary.")
@QUIET
@expected_errors
def report(run_dir, formats, as_json, quiet):
    """Re-render the reports of a stored run (no simulation) and check its balance gates.

    Writes report.md (also appended to $GITHUB_STEP_SUMMARY when set), report.html,
    summary.json and tables/*.csv, *.parquet in RUN_DIR: byte-identical to what `run` wrote.
    Exit code 3 when a gate of the study's [gates] table fails, 1 when RUN_DIR holds no
    finished run. -q quiets stderr as in `run`; failed gates are still named there."""
    from imhotep_stats.reporting.export import summary_json

    def say(msg: str) -> None:
        if not quiet:
            click.echo(msg, err=True)

    rep = _report_files(run_dir, formats, say)
    if as_json:
        click.echo(summary_json(rep.data, rep.gates), nl=False)
    else:
        from imhotep_stats.reporting.headline import headline_text

        click.echo(headline_text(rep.data))  # the answer first
        click.echo(rep.terminal, nl=False)
    _gate_exit(rep)


COMMANDS = (validate, run, report)

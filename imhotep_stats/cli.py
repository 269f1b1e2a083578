"""The command line: a thin Click group. Parses, loads, calls the library, picks exit codes.

Exit codes: 0 ok, 1 bad input (config, transcript, data) or environment (disk full,
read-only, unreachable cluster), 2 usage, 3 a balance gate failed, 130 interrupted
(docs/studies.md lists the messages).
Data goes to stdout; progress and messages to stderr.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import click

from imhotep_stats import __version__
from imhotep_stats.cli_common import (
    EXIT_BAD_INPUT,
    EXIT_GATE_FAILED,
    EXIT_INTERRUPTED,
    expected_errors,
)
from imhotep_stats.completion import complete_bots, complete_sides, complete_site_side


def _print_version(ctx, _param, value) -> None:
    if not value or ctx.resilient_parsing:
        return
    from imhotep_stats import compiled

    click.echo(f"imhotep-stats, version {__version__}, engine: {compiled.describe()}")
    ctx.exit()


class _Group(click.Group):
    """Ctrl-C at any stage (simulating, reporting, loading) exits 130, as shells expect;
    click's default would say "Aborted!" and exit 1 (bad input)."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("\ninterrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Show the version and which engine runs (compiled or pure Python), and exit.")
def main() -> None:
    """Balance and analytics for Imhotep and A New Dynasty: simulate games with scripted bots
    and report win rates, seat fairness and where the points came from."""


def _bot_list(bots: str, players: int) -> list[str]:
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise click.BadParameter(f"expected 1 or {players} bot names, got {len(names)}", param_hint="--bots")
    return names


def _print_breakdown(result, bots: list[str]) -> None:
    from tabulate import tabulate

    from imhotep_stats.sim.schema import SOURCES

    used = [s for s in SOURCES if any(result.by_source[p][s] for p in range(result.players))]
    rows = []
    for p in range(result.players):
        rows.append(
            [p, bots[p] if p < len(bots) else "", *[result.by_source[p][s] for s in used],
             result.totals[p], result.sled[p], "win" if p in result.winners else ""]
        )
    # 0-based like transcripts and the data files (reports count from 1): say so.
    click.echo(tabulate(rows, headers=["seat (0 = start player)", "bot", *used, "total", "sled", ""],
                        tablefmt="simple"))
    if len(result.winners) > 1:
        click.echo(f"shared win: seats {', '.join(map(str, result.winners))} (0 = start player)")


def _table_options(fn):
    """The table one game is played at (``play`` and ``bench``): sides, players, bots."""
    for option in reversed((
        click.option("--sides", default="A-A-A-A-A", show_default=True,
                     shell_complete=complete_sides, help="Side per site, "
                     "market-pyramid-temple-burial_chamber-obelisk, e.g. D-A-C-B-D."),
        click.option("--players", type=click.IntRange(2, 4), default=3, show_default=True,
                     help="Player count."),
        click.option("--bots", default="random", show_default=True,
                     shell_complete=complete_bots,
                     help="Comma-separated, one per seat (or one for all)."),
    )):
        fn = option(fn)
    return fn


@main.command(short_help="Play one game and print the score breakdown.")
@_table_options
@click.option("--seed", type=int, default=0, show_default=True,
              help="Root seed: the same seed deals the same game.")
@click.option("--prophecies/--no-prophecies", default=False, help="The gods' prophecies module.")
@click.option("--trace", type=click.Path(dir_okay=False, path_type=Path), help="Write a JSON Lines transcript.")
@click.option("--json", "as_json", is_flag=True, help="Print the breakdown as one JSON object.")
@expected_errors
def play(sides, players, bots, seed, prophecies, trace, as_json):
    """Play one game and print each player's score by source and the winner."""
    from imhotep_stats.bots import make_bot
    from imhotep_stats.engine.game import Game
    from imhotep_stats.engine.play import bot_rng, chance_seed, play_game
    from imhotep_stats.engine.transcript import TraceWriter, setup_line

    names = _bot_list(bots, players)
    bot_objs = [make_bot(n) for n in names]
    g = Game(players, sides, seed=chance_seed(seed, 0), prophecies=prophecies)
    writer = TraceWriter() if trace else None
    if writer:
        writer.lines.append(setup_line(g, seed, 0, names, None))
    result = play_game(g, bot_objs, [bot_rng(seed, 0, p) for p in range(players)],
                       writer.on_decision if writer else None)
    if writer:
        writer.finish(g, result)
        tmp = trace.with_name(trace.name + ".tmp")
        try:
            with tmp.open("w") as fh:
                writer.write(fh)
            tmp.replace(trace)
        except OSError as exc:
            click.echo(f"error: --trace: cannot write {trace}: {exc.strerror or exc}", err=True)
            sys.exit(EXIT_BAD_INPUT)
    if as_json:
        click.echo(json.dumps(result.to_json(), sort_keys=True))
    else:
        _print_breakdown(result, names)


@main.command(short_help="Re-execute a transcript and print the breakdown.")
@click.argument("transcript", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the breakdown as one JSON object.")
@expected_errors
def replay(transcript, as_json):
    """Re-execute a JSON Lines transcript (played or hand-written) and print the breakdown."""
    from imhotep_stats.engine.transcript import read_lines
    from imhotep_stats.engine.transcript import replay as run_replay

    rep = run_replay(read_lines(transcript))
    for m in rep.mismatches:
        click.echo(f"warning: result differs: {m}", err=True)
    bots = rep.setup.get("bots", [])
    if as_json:
        click.echo(json.dumps(rep.result.to_json(), sort_keys=True))
    else:
        _print_breakdown(rep.result, bots)
    if rep.mismatches:
        sys.exit(EXIT_BAD_INPUT)


def _rate(x: float) -> str:
    """A rate for people: whole numbers, or 3 significant digits below 10 (search bots)."""
    return f"{x:.0f}" if x >= 10 else f"{x:.3g}"


def _searched(bots) -> int:
    """Search iterations run so far by the bots that search (0 for the scripted ones)."""
    return sum(getattr(b, "searched", 0) for b in bots)


@main.command(short_help="Games per second on one core (compiled or pure).")
@_table_options
@click.option("--games", type=click.IntRange(1), default=2000, show_default=True,
              help="Games per run.")
@click.option("--repeat", type=click.IntRange(1), default=1, show_default=True,
              help="Play the same GAMES games this many times; report the best and the median.")
@click.option("--seed", type=int, default=0, show_default=True, help="Root seed.")
@click.option("--prophecies/--no-prophecies", default=False, help="The gods' prophecies module.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object.")
@expected_errors
def bench(sides, players, bots, games, repeat, seed, prophecies, as_json):
    """Play GAMES games in this process (one core) and print games per second, and whether the
    engine ran, compiled or pure Python (IMHOTEP_PURE=1 forces pure Python).

    On a shared machine other processes slow some runs down by up to half: with --repeat N
    the best run is the closest to what one free core does (timeit's rule), the median what
    a busy machine gave. Figures are per CPU second too (time this process ran)."""
    from imhotep_stats import compiled
    from imhotep_stats.bots import make_bot
    from imhotep_stats.engine.game import Game
    from imhotep_stats.engine.play import bot_rng, chance_seed, play_game

    names = _bot_list(bots, players)
    bot_objs = [make_bot(n) for n in names]
    Game(players, sides, prophecies=prophecies)  # fail fast on bad sides, load data outside the timing

    def one_run() -> dict:
        decisions = 0
        searched = _searched(bot_objs)
        t0 = time.perf_counter()
        c0 = time.process_time()
        for i in range(games):
            g = Game(players, sides, seed=chance_seed(seed, i), prophecies=prophecies)
            decisions += play_game(g, bot_objs, [bot_rng(seed, i, p) for p in range(players)]).decisions
        seconds = time.perf_counter() - t0
        cpu = time.process_time() - c0
        searched = _searched(bot_objs) - searched
        return {
            # search bots (mcts): tree-search iterations, per second and per CPU second
            **({"iterations": searched,
                "iterations_per_second": round(searched / seconds, 1),
                "iterations_per_cpu_second": round(searched / cpu, 1) if cpu > 0 else None}
               if searched else {}),
            "seconds": round(seconds, 4),
            "games_per_second": round(games / seconds, 1),
            # CPU time is what one core spent: steadier than wall time on a busy machine
            "cpu_seconds": round(cpu, 4),
            "games_per_cpu_second": round(games / cpu, 1) if cpu > 0 else None,
            "decisions_per_game": round(decisions / games, 1),
        }

    runs = []
    for k in range(repeat):
        runs.append(one_run())
        if repeat > 1 and not as_json:
            r = runs[-1]
            click.echo(f"run {k + 1}/{repeat}: {_rate(r['games_per_second'])} games/s "
                       f"({_rate(r['games_per_cpu_second'])} per CPU second)", err=True)
    by_speed = sorted(runs, key=lambda r: r["games_per_second"])
    median = by_speed[(len(runs) - 1) // 2]  # the lower median: never flattering
    best = by_speed[-1]
    out = {
        "games": games,
        **median,  # the figures of the median run (the only run without --repeat)
        "best_games_per_second": best["games_per_second"],
        "best_games_per_cpu_second": max(r["games_per_cpu_second"] or 0 for r in runs),
        "repeat": repeat,
        "runs": runs,
        "sides": "-".join(Game(players, sides).sides),
        "players": players,
        "bots": names,
        # what ran: "compiled" (Cython), "pure" or "mixed" (imhotep_stats/compiled.py)
        "engine": compiled.engine(),
    }
    if as_json:
        click.echo(json.dumps(out))
        return
    if "iterations" in median:
        click.echo(f"search: {median['iterations']} iterations, "
                   f"{median['iterations_per_second']:.0f} per second "
                   f"({median['iterations_per_cpu_second']:.0f} per CPU second); "
                   f"{median['seconds'] / games:.2f} s per game")
    what = (f"({out['decisions_per_game']} decisions per game; {out['sides']}, {players} players, "
            f"bots {','.join(names)}) (engine: {compiled.describe()})")
    if repeat == 1:
        click.echo(f"{games} games in {out['seconds']:.2f} s: {_rate(out['games_per_second'])} games/s "
                   f"(CPU {out['cpu_seconds']:.2f} s: {_rate(out['games_per_cpu_second'])} games per "
                   f"CPU second) {what}")
    else:
        click.echo(f"{games} games x {repeat} runs: best {_rate(out['best_games_per_second'])} "
                   f"games/s ({_rate(out['best_games_per_cpu_second'])} per CPU second), median "
                   f"{_rate(out['games_per_second'])} games/s ({_rate(out['games_per_cpu_second'])} per "
                   f"CPU second) {what}")


@main.command(short_help="The board data and its provenance.")
@click.argument("name", required=False, metavar="[SITE.SIDE]", shell_complete=complete_site_side)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@expected_errors
def sides(name, as_json):
    """The board data: every side with its provenance, or one side's numbers (e.g. pyramid.D).

    Provisional values are placeholders no source gave us: correct them in
    imhotep_stats/data/board.toml or override them in a study config."""
    from tabulate import tabulate

    from imhotep_stats.engine.sites import MODULES
    from imhotep_stats.rules.board import SIDES, SITES, BoardDataError, default_board

    board = default_board()
    if name is None:
        rows = []
        for i, site in enumerate(SITES):
            for side in SIDES:
                sd = board.side(site, side)
                implemented = side in MODULES[i].SIDES
                rows.append({
                    "side": sd.name, "provenance": sd.provenance,
                    "provisional_keys": list(sd.provisional_keys), "implemented": implemented,
                })
        if as_json:
            click.echo(json.dumps(rows, indent=2))
        else:
            click.echo(tabulate(
                [[r["side"], r["provenance"], ", ".join(r["provisional_keys"]) or "-",
                  "yes" if r["implemented"] else "not yet"] for r in rows],
                headers=["side", "provenance", "provisional values", "implemented"]))
        return
    if name not in board.sides:
        raise BoardDataError([(name, f"unknown side (expected SITE.SIDE, e.g. pyramid.D; sites: {', '.join(SITES)})")])
    sd = board.sides[name]
    values = {k: _plain(v) for k, v in sd.values.items()}
    if as_json:
        click.echo(json.dumps({"side": sd.name, "provenance": sd.provenance,
                               "provisional_keys": list(sd.provisional_keys), "values": values,
                               "quotes": dict(sd.quotes)}, indent=2))
        return
    click.echo(f"{sd.name}  provenance: {sd.provenance}")
    rows = [[k, json.dumps(v), "provisional" if (k in sd.provisional_keys or
             (sd.provisional and not sd.provisional_keys)) else "rulebook", sd.quotes.get(k, "")]
            for k, v in values.items()]
    click.echo(tabulate(rows, headers=["key", "value", "provenance", "rule text"], maxcolwidths=[None, 40, None, 50]))
    click.echo("\nOverride in a study config as [overrides." + sd.name + "] with the same shape.")


def _plain(v):
    from collections.abc import Mapping

    if isinstance(v, Mapping):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return v


# --- studies: validate and run (issue 6) ---------------------------------------------------


@main.command(short_help="Check a study config and print its size.")
@click.argument("config", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@expected_errors
def validate(config):
    """Check a study config; print its size, or every problem with its dotted key."""
    from imhotep_stats.config import load_config

    cfg = load_config(config)
    n = len(cfg.cells)
    click.echo(f"ok: {n} cell{'s' if n != 1 else ''}, {cfg.total_games:,} games")


@main.command(short_help="Simulate a study (a config, or --sides without one) and report.")
@click.argument("config", required=False,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--sides", metavar="M-P-T-B-O", shell_complete=complete_sides, help="Without CONFIG: one side combination, "
              "market-pyramid-temple-burial_chamber-obelisk, e.g. D-A-C-A-A.")
@click.option("--players", type=click.IntRange(2, 4), multiple=True,
              help="With --sides: player count, repeat for several [default: 3].")
@click.option("--bots", shell_complete=complete_bots, help="With --sides: bot lineup, comma-separated, rotated through the "
              "seats [default: greedy].")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Run directory [default: reports/<study name>].")
@click.option("--workers", type=click.IntRange(1), help="Local processes; 1 runs in this "
              "process [default: run.workers, else all cores].")
@click.option("--cluster", metavar="ADDRESS", help="Dask scheduler, e.g. tcp://host:8786 "
              "[default: run.cluster].")
@click.option("--games", type=click.IntRange(1), help="Games per cell (overrides study.games; "
              "2,000 with --sides).")
@click.option("--seed", type=int, help="Root seed (overrides study.seed).")
@click.option("--resume", is_flag=True, help="Continue the run in the run directory (the "
              "default, as for compare and sweep; kept for scripts).")
@click.option("--force", is_flag=True, help="Discard a run already in the run directory and "
              "simulate again (by default it is resumed).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per cell.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar or messages on stderr.")
@expected_errors
def run(config, sides, players, bots, out, workers, cluster, games, seed, resume, force,
        as_json, quiet):
    """Simulate a study into a run directory; print the verdict per cell, then win rates
    and points.

    CONFIG is a study file (`imhotep-stats init` writes one). Without it, --sides asks about
    one side combination: `run --sides D-A-C-A-A --players 3 --bots greedy` builds the study
    from the flags, names it after them and stores it like any run. A run already in the
    run directory is resumed (same results as one uninterrupted run); a changed config is
    refused unless --force."""
    import importlib
    import threading

    from imhotep_stats.config import cluster_address_problem
    from imhotep_stats.sim.adaptive import load_all
    from imhotep_stats.sim.runner import run_study
    from imhotep_stats.sim.store import MANIFEST, RunStoreError, load_manifest

    if resume and force:
        raise click.UsageError("--resume and --force exclude each other")
    if cluster and cluster_address_problem(cluster):
        raise click.BadParameter(cluster_address_problem(cluster), param_hint="--cluster")
    from imhotep_stats.cli_workshop import study_from

    cfg = study_from(config, sides, players, bots, games, seed)
    if games is not None:
        cfg = cfg.replace(games=games)
    if seed is not None:
        cfg = cfg.replace(seed=seed)
    if cluster is None and workers is None:
        cluster, workers = cfg.cluster, cfg.workers
    run_dir = out or Path("reports") / cfg.name

    def say(msg: str) -> None:
        if not quiet:
            click.echo(msg, err=True)

    from imhotep_stats import compiled

    say(f"imhotep-stats {__version__}: {cfg.total_games:,} games into {run_dir} "
        f"(engine: {compiled.describe()})")
    if not quiet and (force or not _finished(run_dir)):
        from imhotep_stats.sim.cost import describe, pilot_costs

        for line in describe(pilot_costs(cfg), None if cluster else workers or os.cpu_count()):
            say(line)
    # The summary's statistics import scipy (about a second): do it while workers play.
    threading.Thread(target=importlib.import_module, args=("imhotep_stats.reporting.summary",),
                     daemon=True).start()
    try:
        # resumed by default, like compare and sweep; a new directory is simply a new run
        again = not force and (run_dir / MANIFEST).exists()
        outcome = run_study(cfg, run_dir, workers=workers, cluster=cluster, resume=again,
                            force=force, progress=False if quiet else None, log=say,
                            warn=lambda m: click.echo(m, err=True))
        from imhotep_stats.reporting.summary import cell_summaries, format_cell

        manifest = load_manifest(run_dir)
        summaries = cell_summaries(load_all(run_dir)[0], manifest)  # as the report counts
    except RunStoreError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except (KeyboardInterrupt, OSError) as exc:
        from imhotep_stats.errors import os_error

        what = "\ninterrupted" if isinstance(exc, KeyboardInterrupt) else f"error: {os_error(exc)}"
        click.echo(what + ("; run the same command again to resume" if _resumable(run_dir)
                           else ""), err=True)
        sys.exit(EXIT_INTERRUPTED if isinstance(exc, KeyboardInterrupt) else EXIT_BAD_INPUT)
    rate = outcome.simulated / outcome.seconds if outcome.seconds > 0 else 0.0
    say(f"{run_dir}: {outcome.games:,} games in {len(summaries)} cell"
        f"{'s' if len(summaries) != 1 else ''} ({outcome.simulated:,} played now, "
        f"{outcome.reused:,} reused; {outcome.seconds:.1f} s"
        + (f", {rate:,.0f} games/s" if outcome.simulated else "") + f"; {outcome.executor})")
    rep = _report_files(run_dir, "all", say)  # issue 7: report files, balance gates
    if as_json:
        for s in summaries:
            click.echo(json.dumps(dict(s, run_dir=str(run_dir)), sort_keys=True))
    else:
        from imhotep_stats.reporting.headline import headline_text

        click.echo(headline_text(rep.data))  # the answer first, then the tables
        click.echo("\n".join(format_cell(s) for s in summaries), nl=False)
    _gate_exit(rep)


def _finished(run_dir: Path) -> bool:
    """Whether ``run_dir`` holds a complete run (nothing left to play)."""
    try:
        return json.loads((run_dir / "manifest.json").read_text()).get("status") == "complete"
    except (OSError, ValueError, AttributeError):
        return False


def _resumable(run_dir: Path) -> bool:
    """Whether ``run_dir`` holds a run to resume (False where it cannot even be looked at)."""
    try:
        return (run_dir / "manifest.json").is_file()
    except OSError:
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


@main.command(short_help="Re-render a stored run's reports; check its gates.")
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--format", "formats", default="all", show_default=True, metavar="LIST",
              help="Files to write: comma-separated md, html, json, csv, parquet; all; or "
              "none (only check the gates).")
@click.option("--json", "as_json", is_flag=True,
              help="Print summary.json to stdout instead of the terminal summary.")
@click.option("-q", "--quiet", is_flag=True,
              help="Nothing on stdout, no messages; failed gates still go to stderr.")
@expected_errors
def report(run_dir, formats, as_json, quiet):
    """Re-render the reports of a stored run (no simulation) and check its balance gates.

    Writes report.md (also appended to $GITHUB_STEP_SUMMARY when set), report.html,
    summary.json and tables/*.csv, *.parquet in RUN_DIR: byte-identical to what `run` wrote.
    Exit code 3 when a gate of the study's [gates] table fails, 1 when RUN_DIR holds no
    finished run."""
    from imhotep_stats.reporting.export import summary_json

    def say(msg: str) -> None:
        if not quiet:
            click.echo(msg, err=True)

    rep = _report_files(run_dir, formats, say)
    if as_json:
        click.echo(summary_json(rep.data, rep.gates), nl=False)
    elif not quiet:
        from imhotep_stats.reporting.headline import headline_text

        click.echo(headline_text(rep.data))  # the answer first
        click.echo(rep.terminal, nl=False)
    _gate_exit(rep)

from imhotep_stats import cli_designer, cli_workshop  # noqa: E402  compare, sweep, plan; init, tune

for _command in (*cli_designer.COMMANDS, *cli_workshop.COMMANDS):
    main.add_command(_command)

if __name__ == "__main__":  # pragma: no cover
    main()

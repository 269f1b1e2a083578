"""The options several commands share, declared once with their help: a command takes them
with a decorator (``@WORKERS``, ``@study_options``), so their help cannot drift apart."""

from __future__ import annotations

import os
import re
from pathlib import Path

import click

from imhotep_stats.cli.completion import complete_bots, complete_sides

SIDES_HELP = ("one side combination, market-pyramid-temple-burial_chamber-obelisk, "
              "e.g. D-A-C-A-A")


class Count(click.IntRange):
    """A whole number of games as people write it: ``4000``, ``4,000`` or ``4_000`` (the
    CLI prints counts with thousands separators, so one copied back must work)."""

    name = "count"

    def convert(self, value, param, ctx):
        if isinstance(value, str):
            plain = value.strip().replace("_", "")
            if re.fullmatch(r"\d{1,3}(,\d{3})+", plain):
                plain = plain.replace(",", "")
            value = plain
        return super().convert(value, param, ctx)


GAMES = Count(1)


def workers_option(default: str = "run.workers, else all cores"):
    return click.option("--workers", type=click.IntRange(1), help="Local processes; 1 runs in "
                        f"this process [default: {default}].")


WORKERS = workers_option()
CLUSTER = click.option("--cluster", metavar="ADDRESS", help="Dask scheduler, e.g. "
                       "tcp://host:8786 [default: run.cluster].")
BATCH_SIZE = click.option("--batch-size", type=click.IntRange(1), help="Games a batch at "
                          "most; slow bots get smaller batches, sized by the pilot to a few "
                          "seconds each (results never depend on it) [default: "
                          "run.batch_size].")
STRONG_BY_DEFAULT = True  # off: --quick, or $IMHOTEP_STATS_STRONG=off
STRONG_ENV = "IMHOTEP_STATS_STRONG"  # on/off: the default for a shell of quick screens


def strong_wanted(flag: bool | None) -> bool:
    """Whether to play the strong-play check: --strong/--no-strong (--quick) when given,
    else ``$IMHOTEP_STATS_STRONG`` (on or off), else ``STRONG_BY_DEFAULT``."""
    if flag is not None:
        return flag
    value = os.environ.get(STRONG_ENV, "").strip().lower()
    if value not in ("", "on", "off"):
        raise click.BadParameter(f"{STRONG_ENV}={os.environ[STRONG_ENV]!r}: expected on or "
                                 "off (the strong-play check's default)", param_hint="--strong")
    return STRONG_BY_DEFAULT if not value else value == "on"


def STRONG(fn):  # noqa: N802 - a decorator, named like the other shared options
    """The strong-play check beside the screen (``reporting.strong``)."""
    from imhotep_stats.reporting.check_plan import BUDGET_MINUTES, MOST

    fn = click.option("--strong-minutes", type=click.FloatRange(0), default=BUDGET_MINUTES,
                      show_default=True, help="Strong-play check: its time budget on this "
                      "machine's cores by the pilot's estimate (said before it plays); it "
                      "stops at the last pass that fits, undecided cells say what they could "
                      "miss; 0: no time budget, only --strong-games.")(fn)
    fn = click.option("--strong-games", type=click.IntRange(1), default=MOST,
                      show_default=True, help="Strong-play check: games a cell at most (it "
                      "stops earlier when every verdict is decided or at --strong-minutes)."
                      )(fn)
    fn = click.option("--strong-bot", metavar="BOT", shell_complete=complete_bots,
                      help="Strong-play check: the bot in every seat [default: the "
                      "reference bot].")(fn)
    return click.option("--strong/--no-strong", " /--quick", default=None,
                        callback=lambda _ctx, _param, value: strong_wanted(value),
                        help="Beside the screen, check the verdict with strong play (the "
                        "reference bot in every seat, sequential: it stops when decided or "
                        "at its budget, --strong-minutes) and lead the answer with it; "
                        "--quick (= --no-strong) screens without it [default: "
                        f"${STRONG_ENV} (on/off), else "
                        f"{'on' if STRONG_BY_DEFAULT else 'off'}].")(fn)


SEED = click.option("--seed", type=int, help="Root seed (overrides study.seed).")
def _no_both(ctx, param, value):
    """--force and --resume contradict each other; --resume alone changes nothing."""
    if value:
        other = "resume" if param.name == "force" else "force"
        if ctx.meta.get(f"imhotep.{other}"):
            raise click.UsageError("--force discards what --resume would resume: give one")
        ctx.meta[f"imhotep.{param.name}"] = True
        if param.name == "resume":
            click.echo("note: --resume: resuming is the default (the option changes nothing)",
                       err=True)
    return value


def FORCE(fn):  # noqa: N802 - a decorator, named like the other shared options
    """--force, and --resume, which older scripts pass: resuming is what runs do anyway."""
    fn = click.option("--resume", is_flag=True, expose_value=False, callback=_no_both,
                      hidden=True, help="Accepted from older scripts: resuming is the "
                      "default.")(fn)
    return click.option("--force", is_flag=True, callback=_no_both, help="Discard earlier "
                        "results in the run directory and simulate again (by default they "
                        "are resumed).")(fn)
QUIET = click.option("-q", "--quiet", is_flag=True, help="No progress or messages on stderr.")
OUT_RUN = click.option("--out", type=click.Path(file_okay=False, path_type=Path),
                       help="Run directory [default: reports/<study name>].")
BOARD = click.option("--board", "board_file", type=click.Path(exists=True, dir_okay=False,
                                                             path_type=Path),
                     help="A designer's board file (`sides --export` writes one): its numbers "
                     "replace the package's, labelled designer [default: the config's "
                     "board.file].")
MARGIN = click.option("--margin", type=click.FloatRange(0, 0.5, min_open=True),
                      help="Seat-fairness margin, a win-rate difference: 0.05 = ±5 pp "
                      "(percentage points) [default: report.margin, else 0.05].")
PROPHECIES = click.option("--prophecies/--no-prophecies", default=False,
                          help="The gods' prophecies module.")


def json_option(help: str = "Print JSON."):  # noqa: A002 - click's own keyword
    return click.option("--json", "as_json", is_flag=True, help=help)


def _apply(fn, options):
    for option in reversed(options):
        fn = option(fn)
    return fn


def table_options(bots: str):
    """The table one game is played at (``play`` and ``bench``): sides, players, bots
    (``bots``: the default lineup; ``play``'s is ``run``'s, greedy)."""
    return lambda fn: _apply(fn, (
        click.option("--sides", default="A-A-A-A-A", show_default=True,
                     shell_complete=complete_sides, help="Side per site, "
                     "market-pyramid-temple-burial_chamber-obelisk, e.g. D-A-C-B-D."),
        click.option("--players", type=click.IntRange(2, 4), default=3, show_default=True,
                     help="Player count."),
        click.option("--bots", default=bots, show_default=True,
                     shell_complete=complete_bots,
                     help="Comma-separated, one per seat (or one for all)."),
    ))


def flag_study_options(fn):
    """A study built from flags instead of a CONFIG file (``run``, ``tune``)."""
    return _apply(fn, (
        click.option("--sides", metavar="M-P-T-B-O", shell_complete=complete_sides,
                     help=f"Without CONFIG: {SIDES_HELP}."),
        click.option("--players", type=click.IntRange(2, 4), multiple=True,
                     help="With --sides: player count, repeat for several [default: 3]."),
        click.option("--bots", shell_complete=complete_bots,
                     help="With --sides: bot lineup, comma-separated, rotated through the "
                     "seats [default: greedy]."),
    ))


def executor_options(fn):
    """Where the games are played: local processes or a Dask cluster."""
    return _apply(fn, (WORKERS, CLUSTER, BATCH_SIZE))


def study_options(fn):
    """Options ``compare`` and ``sweep`` share with ``run``."""
    return _apply(fn, (
        OUT_RUN,
        click.option("--games", type=GAMES, help="Games per cell."),
        SEED, WORKERS, CLUSTER, BATCH_SIZE, FORCE, json_option(),
        click.option("--markdown", is_flag=True, help="Print Markdown."),
        QUIET,
    ))


def on_board(cfg, board_file):
    """The study on ``--board FILE`` when given."""
    if board_file is None:
        return cfg
    from imhotep_stats.config import with_board_file

    return with_board_file(cfg, board_file)


def board_of(board_file):
    """The board for one game (``play``, ``replay``, ``show``): the package's, or a
    designer's board file, with the file's values as overrides (for a transcript)."""
    from imhotep_stats.rules.board import default_board

    if board_file is None:
        return default_board(), None
    from imhotep_stats.rules.board_file import read_board_file

    values = read_board_file(board_file)
    return (default_board().with_overrides(values) if values else default_board()), values or None


def say_unless(quiet: bool):
    """A message printer for stderr that says nothing under ``-q``."""
    return (lambda _m: None) if quiet else (lambda m: click.echo(m, err=True))


def bad_cluster(cluster: str | None) -> None:
    """Refuse a --cluster address that cannot be a scheduler's, naming the option."""
    from imhotep_stats.config import cluster_address_problem

    if cluster and cluster_address_problem(cluster):
        raise click.BadParameter(cluster_address_problem(cluster), param_hint="--cluster")

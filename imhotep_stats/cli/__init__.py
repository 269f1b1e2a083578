"""The command line: a thin Click group. Each command module parses its options, loads, calls
the library and picks the exit code; ``options`` declares the shared options once.

  game      play, replay, bench        one game at a time
  board     sides                      the board data
  study     validate, run, report      a study from config to report
  designer  compare, sweep, plan       what-ifs, side combinations, games needed
  workshop  init, tune                 a config to start from, board values to tune
  ladder    ladder play/report, evaluate   bot against bot: head-to-heads, ratings, evidence

Exit codes (``exits``): 0 ok, 1 bad input (config, transcript, data) or environment (disk
full, read-only, unreachable cluster), 2 usage, 3 a balance gate failed, 130 interrupted
(docs/studies.md lists the messages). Data goes to stdout; progress and messages to stderr.
"""

from __future__ import annotations

import sys

import click

from imhotep_stats import __version__
from imhotep_stats.cli import board, designer, game, ladder, study, workshop
from imhotep_stats.cli.exits import (
    EXIT_BAD_INPUT,
    EXIT_GATE_FAILED,
    EXIT_INTERRUPTED,
)

__all__ = ["EXIT_BAD_INPUT", "EXIT_GATE_FAILED", "EXIT_INTERRUPTED", "main"]


def _print_version(ctx, _param, value) -> None:
    if not value or ctx.resilient_parsing:
        return
    from imhotep_stats.engine import core

    click.echo(f"imhotep-stats, version {__version__}, core: {core.describe()}")
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
              help="Show the version and the Rust core's build, and exit.")
def main() -> None:
    """Balance and analytics for Imhotep and A New Dynasty: simulate games with scripted bots
    and report win rates, seat fairness and where the points came from."""


for _module in (game, study, board, designer, workshop, ladder):
    for _command in _module.COMMANDS:
        main.add_command(_command)

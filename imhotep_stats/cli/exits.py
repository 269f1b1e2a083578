"""The exit codes (0 ok, 1 bad input, 2 usage, 3 a gate failed, 130 interrupted) and the
guards that turn the library's expected failures into a one-line message and exit code 1."""

from __future__ import annotations

import contextlib
import functools
import sys

import click

EXIT_BAD_INPUT = 1
EXIT_GATE_FAILED = 3
EXIT_INTERRUPTED = 130


def expected_errors(fn):
    """Turn the library's expected failures into a clear message and exit code 1.
    Anything else is a bug and keeps its traceback."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from imhotep_stats.bots import BotSpecError
        from imhotep_stats.config import ConfigError
        from imhotep_stats.engine.errors import RulesError
        from imhotep_stats.engine.transcript import TranscriptError
        from imhotep_stats.rules.board import BoardDataError
        from imhotep_stats.rules.board_file import BoardFileError

        errors = (RulesError, BoardDataError, BoardFileError, TranscriptError, BotSpecError,
                  ConfigError)
        try:
            return fn(*args, **kwargs)
        except errors as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except OSError as exc:  # the environment: disk full, read-only, name too long
            from imhotep_stats.errors import os_error

            click.echo(f"error: {os_error(exc)}", err=True)
            sys.exit(EXIT_BAD_INPUT)

    return wrapper


@contextlib.contextmanager
def resumable_work(*errors: type[BaseException]):
    """Around a command's simulation (compare, sweep, tune): a run-store problem (or one of
    ``errors``) is bad input, exit 1; Ctrl-C exits 130 with the resume hint (their runs
    resume by default)."""
    from imhotep_stats.sim.store import RunStoreError

    try:
        yield
    except (RunStoreError, *errors) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except KeyboardInterrupt:
        click.echo("\ninterrupted; run the same command again to resume", err=True)
        sys.exit(EXIT_INTERRUPTED)

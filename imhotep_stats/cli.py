"""The command line: a thin Click group. Parses, loads, calls the library, picks exit codes.

Exit codes: 0 ok, 1 bad input (config, transcript, data), 2 usage, 3 a balance gate failed.
Data goes to stdout; progress and messages to stderr.
"""

from __future__ import annotations

import functools
import json
import sys
import time
from pathlib import Path

import click

from imhotep_stats import __version__

EXIT_BAD_INPUT = 1
EXIT_GATE_FAILED = 3


def expected_errors(fn):
    """Turn the library's expected failures into a clear message and exit code 1.
    Anything else is a bug and keeps its traceback."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from imhotep_stats.bots import UnknownBot
        from imhotep_stats.engine.game import RulesError
        from imhotep_stats.engine.transcript import TranscriptError
        from imhotep_stats.rules.board import BoardDataError

        errors: tuple[type[BaseException], ...] = (RulesError, BoardDataError, TranscriptError, UnknownBot)
        try:
            from imhotep_stats.config import ConfigError

            errors = (*errors, ConfigError)
        except ImportError:  # pragma: no cover - config module not present yet
            pass
        try:
            return fn(*args, **kwargs)
        except errors as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(EXIT_BAD_INPUT)

    return wrapper


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="imhotep-stats")
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
    click.echo(tabulate(rows, headers=["seat", "bot", *used, "total", "sled", ""], tablefmt="simple"))
    if len(result.winners) > 1:
        click.echo(f"shared win: seats {', '.join(map(str, result.winners))}")


@main.command()
@click.option("--sides", default="A-A-A-A-A", show_default=True,
              help="Side per site, market-pyramid-temple-burial_chamber-obelisk, e.g. D-A-C-B-D.")
@click.option("--players", type=click.IntRange(2, 4), default=3, show_default=True)
@click.option("--bots", default="random", show_default=True, help="Comma-separated, one per seat (or one for all).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--prophecies/--no-prophecies", default=False, help="The gods' prophecies module.")
@click.option("--trace", type=click.Path(dir_okay=False, path_type=Path), help="Write a JSON Lines transcript.")
@click.option("--json", "as_json", is_flag=True, help="Print the breakdown as one JSON object.")
@expected_errors
def play(sides, players, bots, seed, prophecies, trace, as_json):
    """Play one game and print each player's score by source and the winner."""
    from imhotep_stats.bots import make_bot
    from imhotep_stats.engine.game import Game
    from imhotep_stats.engine.play import bot_rng, chance_seed, play_game
    from imhotep_stats.engine.transcript import TraceWriter, result_line, setup_line

    names = _bot_list(bots, players)
    bot_objs = [make_bot(n) for n in names]
    g = Game(players, sides, seed=chance_seed(seed, 0), prophecies=prophecies)
    writer = TraceWriter() if trace else None
    if writer:
        writer.lines.append(setup_line(g, seed, 0, names, None))
    result = play_game(g, bot_objs, [bot_rng(seed, 0, p) for p in range(players)],
                       writer.on_decision if writer else None)
    if writer:
        writer.lines.append(result_line(result))
        tmp = trace.with_name(trace.name + ".tmp")
        with tmp.open("w") as fh:
            writer.write(fh)
        tmp.replace(trace)
    if as_json:
        click.echo(json.dumps(result.to_json(), sort_keys=True))
    else:
        _print_breakdown(result, names)


@main.command()
@click.argument("transcript", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the breakdown as one JSON object.")
@expected_errors
def replay(transcript, as_json):
    """Re-execute a JSON Lines transcript (played or hand-written) and print the breakdown."""
    from imhotep_stats.engine.transcript import replay as run_replay

    lines = transcript.read_text().splitlines()
    rep = run_replay(lines)
    for m in rep.mismatches:
        click.echo(f"warning: result differs: {m}", err=True)
    bots = []
    first = json.loads(lines[0])
    if isinstance(first.get("bots"), list):
        bots = first["bots"]
    if as_json:
        click.echo(json.dumps(rep.result.to_json(), sort_keys=True))
    else:
        _print_breakdown(rep.result, bots)
    if rep.mismatches:
        sys.exit(EXIT_BAD_INPUT)


@main.command()
@click.option("--sides", default="A-A-A-A-A", show_default=True)
@click.option("--players", type=click.IntRange(2, 4), default=3, show_default=True)
@click.option("--bots", default="random", show_default=True)
@click.option("--games", type=click.IntRange(1), default=2000, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--prophecies/--no-prophecies", default=False)
@click.option("--json", "as_json", is_flag=True)
@expected_errors
def bench(sides, players, bots, games, seed, prophecies, as_json):
    """Play GAMES games in this process (one core) and print games per second."""
    from imhotep_stats.bots import make_bot
    from imhotep_stats.engine.game import Game
    from imhotep_stats.engine.play import bot_rng, chance_seed, play_game

    names = _bot_list(bots, players)
    bot_objs = [make_bot(n) for n in names]
    Game(players, sides, prophecies=prophecies)  # fail fast on bad sides, load data outside the timing
    decisions = 0
    t0 = time.perf_counter()
    for i in range(games):
        g = Game(players, sides, seed=chance_seed(seed, i), prophecies=prophecies)
        decisions += play_game(g, bot_objs, [bot_rng(seed, i, p) for p in range(players)]).decisions
    seconds = time.perf_counter() - t0
    out = {
        "games": games,
        "seconds": round(seconds, 4),
        "games_per_second": round(games / seconds, 1),
        "decisions_per_game": round(decisions / games, 1),
        "sides": "-".join(Game(players, sides).sides),
        "players": players,
        "bots": names,
    }
    if as_json:
        click.echo(json.dumps(out))
    else:
        click.echo(f"{games} games in {seconds:.2f} s: {out['games_per_second']:.0f} games/s "
                   f"({out['decisions_per_game']} decisions per game; {out['sides']}, {players} players, "
                   f"bots {','.join(names)})")


if __name__ == "__main__":  # pragma: no cover
    main()

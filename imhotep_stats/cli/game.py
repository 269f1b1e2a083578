"""One game at a time: ``play`` (a game with its score breakdown), ``replay`` (a transcript
re-executed) and ``bench`` (games per second on one core)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from imhotep_stats.cli.exits import EXIT_BAD_INPUT, expected_errors
from imhotep_stats.cli.options import (
    BOARD,
    GAMES,
    PROPHECIES,
    board_of,
    json_option,
    table_options,
)


def _bot_list(bots: str, players: int) -> list[str]:
    from imhotep_stats.bots import BotSpecError
    from imhotep_stats.sim.samples import bot_list

    try:
        return bot_list(bots, players)
    except BotSpecError:
        raise  # bad input (exit 1), as a config's unknown bot
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--bots") from None


def _print_breakdown(result, bots: list[str]) -> None:
    from tabulate import tabulate

    from imhotep_stats.sim.schema import SOURCES

    used = [s for s in SOURCES if any(result.by_source[p][s] for p in range(result.players))]
    rows = []
    for p in range(result.players):
        rows.append(  # seats counted from 1, as in the reports (transcripts and --json: from 0)
            [p + 1, bots[p] if p < len(bots) else "", *[result.by_source[p][s] for s in used],
             result.totals[p], result.sled[p], "win" if p in result.winners else ""]
        )
    click.echo(tabulate(rows, headers=["seat (1 = start player)", "bot", *used, "total", "sled", ""],
                        tablefmt="simple"))
    if len(result.winners) > 1:
        click.echo(f"shared win: seats {', '.join(str(w + 1) for w in result.winners)} "
                   "(1 = start player)")


@click.command(short_help="Play one game and print the score breakdown.")
@table_options("greedy")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Root seed: the same seed deals the same game.")
@PROPHECIES
@click.option("--trace", type=click.Path(dir_okay=False, path_type=Path), help="Write a JSON Lines transcript.")
@BOARD
@json_option("Print the breakdown as one JSON object.")
@expected_errors
def play(sides, players, bots, seed, prophecies, trace, board_file, as_json):
    """Play one game and print each player's score by source and the winner."""
    from imhotep_stats.sim.samples import play_one

    names = _bot_list(bots, players)
    board, designer = board_of(board_file)
    # a board file's values go in the setup line: the transcript stands alone
    result, lines = play_one(players, sides, names, seed, board=board, overrides=designer,
                             prophecies=prophecies)
    if trace:
        tmp = trace.with_name(trace.name + ".tmp")
        try:
            tmp.write_text("\n".join(lines) + "\n")
            tmp.replace(trace)
        except OSError as exc:
            click.echo(f"error: --trace: cannot write {trace}: {exc.strerror or exc}", err=True)
            sys.exit(EXIT_BAD_INPUT)
    if as_json:
        click.echo(json.dumps(result.to_json(), sort_keys=True))
    else:
        _print_breakdown(result, names)


@click.command(short_help="Re-execute a transcript and print the breakdown.")
@click.argument("transcript", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@json_option("Print the breakdown as one JSON object.")
@click.option("--rounds", is_flag=True,
              help="Also print each seat's points round by round (seats from 1).")
@BOARD
@expected_errors
def replay(transcript, as_json, rounds, board_file):
    """Re-execute a JSON Lines transcript (played or hand-written) and print the breakdown."""
    from imhotep_stats.engine.transcript import read_lines
    from imhotep_stats.engine.transcript import replay as run_replay

    lines = read_lines(transcript)
    board, _ = board_of(board_file)
    rep = run_replay(lines, board)
    if rounds and not as_json:
        from imhotep_stats.reporting.viewer import game_steps, round_summary

        click.echo("Points by round (seat 1 = start player; gained + running total):")
        for line in round_summary(game_steps(lines, board)):
            click.echo(f"  {line}")
        click.echo("")
    for m in rep.mismatches:
        click.echo(f"warning: result differs: {m}", err=True)
    bots = rep.setup.get("bots", [])
    if as_json:
        click.echo(json.dumps(rep.result.to_json(), sort_keys=True))
    else:
        _print_breakdown(rep.result, bots)
    if rep.mismatches:
        sys.exit(EXIT_BAD_INPUT)


@click.command(short_help="Draw a transcript as the board: an HTML page to step through.")
@click.argument("transcript", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="The page to write (default: the transcript's path with .html).")
@click.option("--open", "open_page", is_flag=True,
              help="Open the page in the default browser, where there is one.")
@BOARD
@expected_errors
def show(transcript, out, open_page, board_file):
    """Replay a transcript (from `play --trace`, a study's kept game, or written by hand)
    through the engine and write one self-contained HTML page (no network) that draws the
    board at every decision: quarry, sleds, ships, each site in its side's layout with the
    values its spaces print, the market display, the hands and the score track, with
    buttons, arrow keys and a round slider, and a score-by-round chart. Each step is
    captioned in a player's words with the points it scored (seats, ships and slots from
    1); PAGE.html#step=N opens step N."""
    from imhotep_stats.reporting.viewer import write_viewer

    out = out or transcript.with_suffix(".html")
    steps = write_viewer(transcript, out, board_of(board_file)[0])
    for m in steps.mismatches:
        click.echo(f"warning: result differs: {m}", err=True)
    click.echo(f"wrote {out} ({len(steps.states) - 1} decisions, {len(steps.by_round) - 1} rounds)")
    if open_page:
        import webbrowser

        if not webbrowser.open(out.resolve().as_uri()):
            click.echo("no browser found here: open the file yourself", err=True)


def _rate(x: float) -> str:
    """A rate for people: whole numbers, or 3 significant digits below 10 (search bots)."""
    return f"{x:.0f}" if x >= 10 else f"{x:.3g}"


def _searched(bots) -> int:
    """Search iterations run so far by the bots that search (0 for the scripted ones)."""
    return sum(getattr(b, "searched", 0) for b in bots)


@click.command(short_help="Games per second on one core.")
@table_options("random")
@click.option("--games", type=GAMES, default=2000, show_default=True,
              help="Games per run.")
@click.option("--repeat", type=click.IntRange(1), default=1, show_default=True,
              help="Play the same GAMES games this many times; report the best and the median.")
@click.option("--seed", type=int, default=0, show_default=True, help="Root seed.")
@PROPHECIES
@json_option("Print the figures as one JSON object.")
@expected_errors
def bench(sides, players, bots, games, repeat, seed, prophecies, as_json):
    """Play GAMES games in this process (one core) and print games per second. Built-in bots
    are played by the Rust core as a study's batch; a lineup with a bot written in Python game
    by game. Search bots report their iterations per second too.

    On a shared machine other processes slow some runs down by up to half: with --repeat N
    the best run is the closest to what one free core does (timeit's rule), the median what
    a busy machine gave. Figures are per CPU second too (time this process ran)."""
    from imhotep_stats.bots import make_bot, seat_rng
    from imhotep_stats.engine import core
    from imhotep_stats.engine.game import Game
    from imhotep_stats.engine.play import chance_seed, play_game
    from imhotep_stats.sim import core_batch

    names = _bot_list(bots, players)
    bot_objs = [make_bot(n) for n in names]
    Game(players, sides, prophecies=prophecies)  # fail fast on bad sides, load data outside the timing
    # a batch of core bots is played by the Rust core, as a study plays it (sim/core_batch.py)
    in_core = core_batch.plays(names)
    core_rules = core.rules(sides) if in_core else None

    def one_run() -> dict:
        decisions = in_core_searched = 0
        searched = _searched(bot_objs)
        t0 = time.perf_counter()
        c0 = time.process_time()
        if in_core:
            cols = core_batch.play(core_rules, players, seed, 0, games, names, prophecies=prophecies)
            decisions = sum(cols["decisions"][::players])
            in_core_searched = sum(cols["searched"])  # the core's bots count their own
        for i in range(0 if in_core else games):
            g = Game(players, sides, seed=chance_seed(seed, i), prophecies=prophecies)
            rngs = [seat_rng(b, seed, i, p) for p, b in enumerate(bot_objs)]
            decisions += play_game(g, bot_objs, rngs).decisions
        seconds = time.perf_counter() - t0
        cpu = time.process_time() - c0
        searched = _searched(bot_objs) - searched + in_core_searched
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
        # who played the games: "core" (the Rust core, sim/core_batch.py) or "python"
        "played_by": "core" if in_core else "python",
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
            f"bots {','.join(names)})"
            + (f" (played by the core: {core.describe()})" if in_core else ""))
    if repeat == 1:
        click.echo(f"{games} games in {out['seconds']:.2f} s: {_rate(out['games_per_second'])} games/s "
                   f"(CPU {out['cpu_seconds']:.2f} s: {_rate(out['games_per_cpu_second'])} games per "
                   f"CPU second) {what}")
    else:
        click.echo(f"{games} games x {repeat} runs: best {_rate(out['best_games_per_second'])} "
                   f"games/s ({_rate(out['best_games_per_cpu_second'])} per CPU second), median "
                   f"{_rate(out['games_per_second'])} games/s ({_rate(out['games_per_cpu_second'])} per "
                   f"CPU second) {what}")



COMMANDS = (play, replay, show, bench)

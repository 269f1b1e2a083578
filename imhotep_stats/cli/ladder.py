"""Bot against bot: ``ladder play`` (head-to-head games into a JSON Lines file, resumable),
``ladder report`` (win rates and Bradley-Terry ratings from such files) and ``evaluate`` (the
bots' evidence tables). The games are a one-cell study's (``sim.headtohead``): its seeds, its
seat rotation, sim's executors.

The former programs map one to one, with the same options and files:
``python -m imhotep_stats.stats.ladder play|report ...`` is ``imhotep-stats ladder play|report
...`` and ``python -m imhotep_stats.bots.evaluate ...`` is ``imhotep-stats evaluate ...``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from imhotep_stats.cli.completion import complete_bots, complete_sides
from imhotep_stats.cli.exits import expected_errors
from imhotep_stats.cli.options import CLUSTER, GAMES, bad_cluster, workers_option

WORKERS = workers_option("all cores")
BATCH_SIZE = click.option("--batch-size", type=click.IntRange(1), help="Games a task at most; "
                          "slow bots get fewer, sized by a pilot to a few seconds each and "
                          "every worker busy (the games never depend on it) [default: 500].")


@click.group(short_help="Head-to-head games between bots, and ratings from them.")
def ladder() -> None:
    """The skill ladder: `ladder play` plays seeded head-to-head games into a JSON Lines file
    (one record per game; games already there are skipped, so a run resumes, and the file is
    the same whatever the number of workers); `ladder report` prints Markdown from files."""


@ladder.command(short_help="Play (or resume) head-to-head games into a JSON Lines file.")
@click.option("--lineup", required=True, shell_complete=complete_bots,
              help="Bot names, comma-separated, rotated through the seats.")
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True,
              help="Player count.")
@click.option("--sides", default="A-A-A-A-A", show_default=True, shell_complete=complete_sides,
              help="Side per site, market-pyramid-temple-burial_chamber-obelisk.")
@click.option("--games", type=GAMES, default=1000, show_default=True,
              help="Games in the file when done.")
@click.option("--seed", type=int, default=0, show_default=True, help="Root seed.")
@WORKERS
@CLUSTER
@BATCH_SIZE
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The JSON Lines file (appended to).")
@click.option("--timed", is_flag=True, help="Record each seat's CPU seconds in its bot "
              "(`cpu`: the CPU time of each seat's decisions; the same games).")
@expected_errors
def play(lineup, players, sides, games, seed, workers, cluster, batch_size, out, timed):
    """Play the games of `range(GAMES)` not yet in OUT and append them in game order, e.g.

      imhotep-stats ladder play --lineup mcts400,greedy --players 2 --sides A-A-A-A-A
      --games 1000 --out reports/ladder/mcts400-greedy-2p-A.jsonl
    """
    from imhotep_stats.sim.headtohead import one_cell, play_file

    bad_cluster(cluster)
    names = [n.strip() for n in lineup.split(",") if n.strip()]
    cfg = one_cell(names, sides, players, games, seed)
    n = play_file(cfg, out, workers=workers, cluster=cluster, timed=timed,
                  batch_size=batch_size)
    click.echo(f"{n} games played into {out}" + (" (timed)" if timed else ""), err=True)


@ladder.command(short_help="Win rates and Bradley-Terry ratings from ladder files.")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--prior", type=click.FloatRange(min=0), default=0.5, show_default=True,
              help="Pseudo-wins added both ways to every pair that met (0: the data alone).")
@expected_errors
def report(files, prior):
    """Markdown: per file, each bot's win rate (Wilson 95%) and mean points; then
    Bradley-Terry ratings (Elo scale, 95% intervals clustered by game, the prior stated),
    one table per side set and player count."""
    from imhotep_stats.stats.ladder import report as ladder_report

    sys.stdout.write(ladder_report(files, prior))


@ladder.command(short_help="An SVG of rating against CPU a game from ladder files.")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The SVG file to write.")
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True,
              help="Only the games of this many players.")
@expected_errors
def plot(files, out, players):
    """Each bot's Bradley-Terry rating (greedy = 0, bootstrap 95% over games) against its CPU
    seconds a seat-game (files with a `cpu` field per game), a series per side set."""
    from imhotep_stats.reporting.ladder_plot import plot as ladder_plot

    out.write_text(ladder_plot(files, players), encoding="utf-8")
    click.echo(f"wrote {out}", err=True)


@click.command(short_help="The bots' evidence tables (head-to-heads, points by source).")
@click.option("--games", type=GAMES, default=2000, show_default=True,
              help="Games per matchup (a quarter, at least 200, on C and D sides).")
@click.option("--seed", type=int, default=0, show_default=True, help="Root seed.")
@WORKERS
@CLUSTER
@BATCH_SIZE
@click.option("--personas", default=",".join(("pyramid", "temple", "burial", "obelisk",
                                              "market", "balanced")), show_default=True,
              shell_complete=complete_bots, help="The personas to show, comma-separated.")
@click.option("--only", default="wins,sources,sides", show_default=True,
              help="Tables to print: wins, sources, sides.")
@expected_errors
def evaluate(games, seed, workers, cluster, batch_size, personas, only):
    """Evidence that the scripted bots are real players, in Markdown: each persona against
    random and greedy, points by source, and each persona on the C and D side of its site.
    Seeded as a study, seats rotated; docs/evidence.md's bot tables are this output."""
    from imhotep_stats.reporting.evaluate import TABLES, tables
    from imhotep_stats.sim.headtohead import matchup

    bad_cluster(cluster)
    wanted = [t for t in only.split(",") if t]
    unknown = sorted(set(wanted) - set(TABLES))
    if unknown:
        raise click.BadParameter(f"unknown table {', '.join(unknown)} (expected "
                                 f"{', '.join(TABLES)})", param_hint="--only")

    def play(lineup, sides, players, n):
        return matchup(lineup, sides=sides, players=players, games=n, seed=seed,
                       workers=workers, cluster=cluster, batch_size=batch_size)

    t0 = time.perf_counter()
    click.echo(f"<!-- imhotep-stats evaluate --games {games} --seed {seed} -->")
    for line in tables(play, games, [p for p in personas.split(",") if p], wanted):
        click.echo(line)
    click.echo(f"\n<!-- {time.perf_counter() - t0:.0f} s -->")


COMMANDS = (ladder, evaluate)

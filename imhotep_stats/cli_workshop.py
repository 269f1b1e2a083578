"""The designer's workshop commands: ``init`` (a commented study config from the examples
shipped in the package) and ``tune`` (which values of one or two board numbers bring a
target within a margin). Also the study of ``run --sides`` (:func:`study_from`).

Like ``cli_designer``, this module does not import ``cli``: ``cli`` registers
:data:`COMMANDS` on its group, so there is no import cycle.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from imhotep_stats.cli_common import expected_errors, resumable_work
from imhotep_stats.completion import complete_bots, complete_param, complete_sides

SIDES_HELP = ("one side combination, market-pyramid-temple-burial_chamber-obelisk, "
              "e.g. D-A-C-A-A")


def study_from(config, sides, players, bots, games, seed):
    """The study of ``run``/``tune``: the CONFIG file, or one built from --sides."""
    from imhotep_stats.config import load_config
    from imhotep_stats.quickstudy import QUICK_GAMES, QUICK_SEED, quick_study

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
                       QUICK_SEED if seed is None else seed)


def _examples_help() -> str:
    from imhotep_stats.quickstudy import examples

    return "\n".join(f"  {name:18} {what}" for name, what in examples().items())


@click.command(short_help="Write a commented study config to start from.")
@click.argument("name", required=False, default="study")
@click.option("--example", default="default", show_default=True, metavar="EXAMPLE",
              help="The shipped example to start from (--list shows them).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="File to write [default: NAME.toml].")
@click.option("--force", is_flag=True, help="Overwrite the file if it exists.")
@click.option("--list", "list_", is_flag=True, help="List the shipped examples and exit.")
@expected_errors
def init(name, example, out, force, list_):
    """Write a commented study config NAME.toml (study named NAME), copied from an example
    that ships inside the package, ready to edit and `imhotep-stats run`."""
    from imhotep_stats.config import load_config
    from imhotep_stats.quickstudy import init_text

    if list_:
        click.echo(_examples_help())
        return
    path = out or Path(f"{name}.toml")
    if path.exists() and not force:
        raise click.UsageError(f"{path} exists: choose another NAME or --out, or --force")
    from imhotep_stats.config import _NAME

    if not _NAME.match(name):
        raise click.BadParameter("letters, digits, '.', '_' or '-' (it names the run "
                                 f"directory), got {name!r}", param_hint="NAME")
    path.write_text(init_text(name, example), encoding="utf-8")
    cfg = load_config(path)  # what we wrote must be a valid study
    click.echo(f"wrote {path}: study {cfg.name!r}, {len(cfg.cells)} cell"
               f"{'s' if len(cfg.cells) != 1 else ''}, {cfg.total_games:,} games; "
               f"edit it, then: imhotep-stats run {path}", err=True)


@click.command(short_help="Find board values that bring a target within a margin.")
@click.argument("config", required=False,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--sides", metavar="M-P-T-B-O", shell_complete=complete_sides,
              help=f"Without CONFIG: {SIDES_HELP}.")
@click.option("--players", type=click.IntRange(2, 4), multiple=True,
              help="With --sides: the player count [default: 3].")
@click.option("--bots", shell_complete=complete_bots,
              help="With --sides: bot lineup, comma-separated [default: greedy].")
@click.option("--param", "params", multiple=True, required=True, metavar="PATH=CANDIDATES",
              shell_complete=complete_param,
              help="A board value and its candidates, once or twice: a dotted override path "
              "(list positions as [i]) = a list or an integer range, e.g. "
              "game.starting_sled[0]=1..4 or pyramid.A.points[0]=1,2,3.")
@click.option("--target", default="seat-gap", show_default=True, metavar="TARGET",
              help="seat-gap (largest seat gap to the fair share), seat:N (seat N's win "
              "rate, 1 = start player) or share:SOURCE (SOURCE's share of all points).")
@click.option("--goal", type=float, help="The target's goal: a win rate for seat:N "
              "[default: the fair share 1/players]; a share for share:SOURCE (required).")
@click.option("--margin", type=click.FloatRange(0, 1, min_open=True, max_open=True),
              default=0.03, show_default=True,
              help="How far from the goal counts as on target (0.03 = 3 points).")
@click.option("--games", type=click.IntRange(1), help="Games per candidate in the first "
              "pass [default: the study's games].")
@click.option("--max-games", type=click.IntRange(1), help="Games per candidate at most, "
              "spent where the decision is close [default: games x 2^rounds].")
@click.option("--rounds", type=click.IntRange(0, 10), default=3, show_default=True,
              help="Adaptive rounds at most (each at most doubles a candidate's games).")
@click.option("--seed", type=int, help="Root seed (overrides study.seed).")
@click.option("--confidence", type=click.FloatRange(0.5, 1, max_open=True), default=0.95,
              show_default=True, help="Confidence of the intervals (over all looks).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Directory of the candidates' runs and tune.md/.html/.json "
              "[default: reports/tune-<study name>].")
@click.option("--workers", type=click.IntRange(1), help="Local processes; 1 runs in this "
              "process [default: all cores].")
@click.option("--cluster", metavar="ADDRESS", help="Dask scheduler, e.g. tcp://host:8786.")
@click.option("--force", is_flag=True, help="Discard earlier candidate runs in OUT and "
              "simulate again (by default they are resumed).")
@click.option("--json", "as_json", is_flag=True, help="Print tune.json instead of the text.")
@click.option("-q", "--quiet", is_flag=True, help="No progress or messages on stderr.")
@expected_errors
def tune(config, sides, players, bots, params, target, goal, margin, games, max_games, rounds,
         seed, confidence, out, workers, cluster, force, as_json, quiet):
    """Which values of one or two board numbers bring a target within a margin?

    Every candidate plays the same deals (common random numbers) as a stored run under OUT;
    candidates whose interval still straddles the margin get more games, round by round.
    Prints the answer (candidates within the margin, the closest, games spent) and a table;
    writes OUT/tune.md, tune.html (target against value) and tune.json. Example:

      imhotep-stats tune --sides A-A-A-A-A --players 3 --param game.starting_sled[0]=1..4
      --target seat:1 --games 500
    """
    from imhotep_stats.config import cluster_address_problem
    from imhotep_stats.reporting.tune import tune_html, tune_markdown, tune_text
    from imhotep_stats.sim.store import atomic_write
    from imhotep_stats.stats.tune import parse_param, parse_target, run_tune

    if cluster and cluster_address_problem(cluster):
        raise click.BadParameter(cluster_address_problem(cluster), param_hint="--cluster")
    if len(params) > 2:
        raise click.BadParameter("give one or two parameters", param_hint="--param")
    base = study_from(config, sides, players, bots, None, seed)
    if seed is not None:
        base = base.replace(seed=seed)
    parsed = [parse_param(p) for p in params]
    tgt = parse_target(target, goal)
    out = out or Path("reports") / f"tune-{base.name}"
    say = (lambda _m: None) if quiet else (lambda m: click.echo(m, err=True))
    with resumable_work():
        res = run_tune(base, parsed, tgt, out, margin=margin, confidence=confidence,
                       first_games=games, max_games=max_games, rounds=rounds,
                       workers=workers, cluster=cluster, force=force,
                       progress=False if quiet else None, log=say,
                       warn=lambda m: click.echo(m, err=True))
    text = json.dumps(res, indent=1, sort_keys=True) + "\n"
    atomic_write(out / "tune.json", lambda fh: fh.write(text.encode()))
    atomic_write(out / "tune.md", lambda fh: fh.write(tune_markdown(res).encode()))
    atomic_write(out / "tune.html", lambda fh: fh.write(tune_html(res).encode()))
    say(f"tune: {out / 'tune.md'}, {out / 'tune.html'}, {out / 'tune.json'}")
    click.echo(text if as_json else tune_text(res), nl=False)


COMMANDS = [init, tune]

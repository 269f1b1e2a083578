"""The designer's workshop commands: ``init`` (a commented study config from the examples
shipped in the package) and ``tune`` (which values of one or two board numbers bring a
target within a margin). ``COMMANDS`` is what ``cli`` adds to its ``main`` group.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from imhotep_stats.cli.completion import complete_param
from imhotep_stats.cli.exits import expected_errors, resumable_work
from imhotep_stats.cli.options import (
    BOARD,
    FORCE,
    GAMES,
    QUIET,
    SEED,
    STRONG,
    bad_cluster,
    executor_options,
    flag_study_options,
    json_option,
    on_board,
    say_unless,
)
from imhotep_stats.cli.study import study_from


def _examples_help() -> str:
    import textwrap

    from imhotep_stats.config.quick import examples, examples_folder

    return "\n".join([f"examples in {examples_folder()} (configs/ in the repository):",
                      *(textwrap.fill(what, 88, initial_indent=f"  {name:18} ",
                                      subsequent_indent=" " * 21)
                        for name, what in examples().items())])


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
    from imhotep_stats.config.quick import init_text

    if list_:
        click.echo(_examples_help())
        return
    path = out or Path(f"{name}.toml")
    if path.exists() and not force:
        raise click.UsageError(f"{path} exists: choose another NAME or --out, or --force")
    from imhotep_stats.config import valid_name

    if not valid_name(name):
        raise click.BadParameter("letters, digits, '.', '_' or '-' (it names the run "
                                 f"directory), got {name!r}", param_hint="NAME")
    path.write_text(init_text(name, example, str(path)), encoding="utf-8")
    cfg = load_config(path)  # what we wrote must be a valid study
    click.echo(f"wrote {path}: study {cfg.name!r}, {len(cfg.cells)} cell"
               f"{'s' if len(cfg.cells) != 1 else ''}, {cfg.total_games:,} games; "
               f"edit it, then: imhotep-stats run {path}", err=True)


@click.command(short_help="Find board values that bring a target within a margin.")
@click.argument("config", required=False,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@flag_study_options
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
              help="How far from the goal counts as on target, in win rate or share "
              "(0.03 = 3 pp; tighter than a study's seat-fairness margin, 0.05, because a "
              "tuned value should land near the goal).")
@click.option("--games", type=GAMES, help="Games per candidate in the first "
              "pass [default: the study's games].")
@click.option("--max-games", type=GAMES, help="Games per candidate at most, "
              "spent where the decision is close [default: games x 2^rounds].")
@click.option("--rounds", type=click.IntRange(0, 10), default=3, show_default=True,
              help="Adaptive rounds at most (each at most doubles a candidate's games).")
@SEED
@click.option("--confidence", type=click.FloatRange(0.5, 1, max_open=True), default=0.95,
              show_default=True, help="Confidence of the intervals (over all looks).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Directory of the candidates' runs and tune.md/.html/.json "
              "[default: reports/tune-<study name>].")
@executor_options
@FORCE
@json_option("Print tune.json instead of the text.")
@QUIET
@BOARD
@STRONG
@expected_errors
def tune(config, sides, players, bots, params, target, goal, margin, games, max_games, rounds,
         seed, confidence, out, workers, cluster, batch_size, force, as_json, quiet,
         board_file, strong, strong_bot, strong_games, strong_minutes):
    """Which values of one or two board numbers bring a target within a margin?

    Every candidate plays the same deals (common random numbers) as a stored run under OUT;
    candidates whose interval still straddles the margin get more games, round by round.
    Prints the answer (candidates within the margin, the closest, games spent) and a table;
    writes OUT/tune.md, tune.html (target against value) and tune.json. Example:

      imhotep-stats tune --sides A-A-A-A-A --players 3 --param game.starting_sled[0]=1..4
      --target seat:1 --games 500
    """
    from imhotep_stats.config.edits import parse_param
    from imhotep_stats.reporting.tune import tune_html, tune_markdown, tune_text
    from imhotep_stats.sim.store import atomic_write
    from imhotep_stats.stats.tune import parse_target, run_tune

    bad_cluster(cluster)
    if len(params) > 2:
        raise click.BadParameter("give one or two parameters", param_hint="--param")
    base = on_board(study_from(config, sides, players, bots, None, seed), board_file)
    if seed is not None:
        base = base.replace(seed=seed)
    if batch_size is not None:
        base = base.replace(batch_size=batch_size)
    if cluster is None and workers is None:  # as run, compare and sweep: the config's [run]
        cluster, workers = base.cluster, base.workers
    parsed = [parse_param(p) for p in params]
    tgt = parse_target(target, goal)
    out = out or Path("reports") / f"tune-{base.name}"
    say = say_unless(quiet)
    with resumable_work():
        res = run_tune(base, parsed, tgt, out, margin=margin, confidence=confidence,
                       first_games=games, max_games=max_games, rounds=rounds,
                       workers=workers, cluster=cluster, force=force,
                       progress=False if quiet else None, log=say,
                       warn=lambda m: click.echo(m, err=True))
    if strong and res["answer"]["best"] is not None:
        res["strong_check"] = _strong_best(base, parsed, res, games, strong_bot, strong_games,
                                           strong_minutes, say, workers=workers,
                                           cluster=cluster,
                                           progress=False if quiet else None, log=say,
                                           warn=lambda m: click.echo(m, err=True))
    text = json.dumps(res, indent=1, sort_keys=True) + "\n"
    atomic_write(out / "tune.json", lambda fh: fh.write(text.encode()))
    atomic_write(out / "tune.md", lambda fh: fh.write(tune_markdown(res).encode()))
    atomic_write(out / "tune.html", lambda fh: fh.write(tune_html(res).encode()))
    say(f"tune: {out / 'tune.md'}, {out / 'tune.html'}, {out / 'tune.json'}")
    if not as_json and res.get("strong_check"):  # the answer for strong play first
        click.echo("\n".join(res["strong_check"]["sentences"]) + "\n")
    click.echo(text if as_json else tune_text(res), nl=False)


def _strong_best(base, parsed, res, games, bot, most, minutes, say, **run_options):
    """``tune --strong``: the best candidate's value checked with strong play beside its
    screen (``reporting.strong.run_check``): its seat verdict for good players and whether
    the screen's holds."""
    from imhotep_stats.reporting.figures import compute
    from imhotep_stats.reporting.strong import (
        check_json,
        check_sentences,
        redundant,
        redundant_note,
        run_check,
    )
    from imhotep_stats.stats.tune import candidates

    if redundant(base, bot):
        say(redundant_note(bot))
        return None
    best = res["answer"]["best"]
    row = next(r for r in res["candidates"] if r["label"] == best)
    first = games or base.games
    cand = next(c for c in candidates(base.replace(games=first), parsed) if c.label == best)
    _cfg, out, _outcome, _why, _plan = run_check(cand.config, row["dir"], bot, most=most,
                                                 minutes=minutes, say=say, **run_options)
    screen, strong = compute(row["dir"]), compute(out)
    return {"candidate": best, "dir": str(out),
            "sentences": [f"Best value {best}: " + p.replace("\n", "\n  ")
                          for p in check_sentences(screen, strong)],
            "cells": check_json(screen, strong)}


COMMANDS = [init, tune]

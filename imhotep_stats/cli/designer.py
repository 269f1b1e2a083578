"""The designer's commands: ``compare`` (paired what-if), ``sweep`` (side combinations
ranked, main effects, adaptive games) and ``plan`` (games a verdict needs).

Thin, like every command module (parse, call the library, pick the exit code); ``COMMANDS``
is what ``cli`` adds to its ``main`` group. See docs/designers-guide.md.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from imhotep_stats.cli.completion import complete_bots
from imhotep_stats.cli.exits import EXIT_GATE_FAILED, expected_errors, resumable_work
from imhotep_stats.cli.options import (
    BOARD,
    MARGIN,
    STRONG,
    Count,
    bad_cluster,
    flag_study_options,
    json_option,
    on_board,
    say_unless,
    study_options,
)


def _dump_json(data, fh) -> None:
    """Stream JSON into a binary file: a sweep's result is large, no need for a copy."""
    import io

    text = io.TextIOWrapper(fh, encoding="utf-8", newline="\n")
    json.dump(data, text, indent=1)
    text.write("\n")
    text.flush()
    text.detach()


def _run_or_resume(cfg, run_dir, workers, cluster, force, quiet, kind, keep_seed=False):
    """Run a study for compare/sweep, resuming what the directory already holds (so
    asking again only recomputes the statistics), its looks counted in the ledger
    (``sim.looks``, as ``kind``); returns the executor options used and the config as
    played (fresh games: another seed)."""
    from imhotep_stats.sim.looks import ledger_path
    from imhotep_stats.sim.runner import run_study
    from imhotep_stats.sim.store import holds_run

    bad_cluster(cluster)
    say = say_unless(quiet)
    if cluster is None and workers is None:
        cluster, workers = cfg.cluster, cfg.workers
    again = not force and holds_run(run_dir)
    outcome = run_study(cfg, run_dir, workers=workers, cluster=cluster, resume=again,
                        force=force, progress=False if quiet else None, log=say,
                        warn=lambda m: click.echo(m, err=True), ledger=ledger_path(),
                        keep_seed=keep_seed, kind=kind)
    say(f"{run_dir}: {outcome.games:,} games ({outcome.simulated:,} played now, "
        f"{outcome.reused:,} reused; {outcome.seconds:.1f} s)")
    return workers, cluster, cfg.replace(seed=outcome.seed)


@click.command(short_help="A what-if against its base on the same seeds.")
@click.argument("base", required=False,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("whatif", required=False,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@flag_study_options
@click.option("--param", "params", multiple=True, metavar="PATH=VALUE",
              help="The what-if without a file: set a board value, e.g. "
              "game.starting_sled[0]=3 or pyramid.A.points=[...] (repeat for several).")
@click.option("--whatif-sides", metavar="M-P-T-B-O",
              help="The what-if plays this side combination instead of the base's.")
@study_options
@MARGIN
@BOARD
@click.option("--max-seat-shift", type=click.FloatRange(0, 1, min_open=True),
              help="CI gate: exit 3 when some seat's win rate moves by more than this "
              "(0.02 = 2 pp) with its whole interval beyond it.")
@STRONG
@expected_errors
def compare(base, whatif, sides, players, bots, params, whatif_sides, out, games, seed,
            workers, cluster, batch_size, force, as_json, markdown, quiet, margin, board_file,
            max_seat_shift, strong, strong_bot, strong_games, strong_minutes):
    """Run a what-if and its base on the same seeds; report the change in every figure.

    BASE WHATIF: two study configs whose cells pair by position (same player counts and
    lineups; the what-if plays the base's seed and games). Or BASE alone with a [whatif]
    table. Or no file at all: `compare --sides D-A-C-A-A --players 3 --param
    game.starting_sled[0]=3` (the base from --sides, the what-if the base with each
    --param set and/or --whatif-sides). Runs go to OUT/base and OUT/whatif (resumed when
    present); OUT/compare.json, OUT/compare.md and OUT/compare.html (charts of the changes)
    hold the comparison. Exit 3 when
    --max-seat-shift fails.
    """
    from imhotep_stats.cli.study import study_from, with_flags
    from imhotep_stats.config import ConfigError, load_config
    from imhotep_stats.config.edits import whatif_of
    from imhotep_stats.reporting.compare import (
        comparison_html,
        comparison_json,
        comparison_markdown,
        comparison_text,
    )
    from imhotep_stats.sim.store import atomic_write
    from imhotep_stats.stats.compare import CompareError, compare_runs, pair_configs

    if whatif is not None and (params or whatif_sides):
        raise click.UsageError("give a WHATIF config or --param/--whatif-sides, not both")
    base_cfg = on_board(study_from(base, sides, players, bots, games, seed), board_file)
    if margin is not None:
        base_cfg = base_cfg.replace(margin=margin)
    if params or whatif_sides:
        whatif_cfg = whatif_of(base_cfg, list(params), whatif_sides)
    elif whatif is None:
        if not base_cfg.whatif:
            raise ConfigError([("whatif", "missing: give a WHATIF config, --param PATH=VALUE or a [whatif] table "
                                "(sides and/or overrides to change)")], str(base))
        whatif_cfg = base_cfg.whatif_config()
    else:
        whatif_cfg = on_board(load_config(whatif), board_file)
    base_cfg = with_flags(base_cfg, games, seed, batch_size=batch_size)
    whatif_cfg = with_flags(whatif_cfg, games, seed, batch_size=batch_size)
    say = say_unless(quiet)
    with resumable_work(CompareError):
        whatif_cfg, notes = pair_configs(base_cfg, whatif_cfg)
        for note in notes:
            say(f"note: {note}")
        out = out or Path("reports") / whatif_cfg.name
        if not force:
            from imhotep_stats.sim.runner import adopt_stored_run, base_places

            stored = adopt_stored_run(base_cfg, out / "base", base_places(base_cfg.name, out))
            if stored:
                say(f"base: the finished run in {stored} (same study and seeds), not played "
                    "again")
        # paired: both play the base's seed (never replaced by fresh games)
        workers, cluster, _ = _run_or_resume(base_cfg, out / "base", workers, cluster, force,
                                             quiet, "compare", keep_seed=True)
        _run_or_resume(whatif_cfg, out / "whatif", workers, cluster, force, quiet, "compare",
                       keep_seed=True)
        comp = compare_runs(out / "base", out / "whatif", base_cfg.confidence)
        strong_said = _strong_compare(base_cfg, whatif_cfg, out, strong_bot, strong_games,
                                      strong_minutes, quiet, workers, cluster) if strong else []
    comp.notes += notes
    from imhotep_stats.reporting.figures import compute
    from imhotep_stats.reporting.trust import cell_trust

    runs = {"base": compute(out / "base"), "what-if": compute(out / "whatif")}
    trust = list(dict.fromkeys(f"{which} {c.sides}, {c.players} players: {cell_trust(rd, c)}"
                               for which, rd in runs.items() for c in rd.cells))
    data = comparison_json(comp)
    title, _, rest = comparison_markdown(comp).partition("\n")
    md = "\n".join([title, "", *[f"- {t}" for t in trust]]) + "\n" + rest  # trust at the top
    atomic_write(out / "compare.json", lambda fh: fh.write(
        (json.dumps(data, indent=1) + "\n").encode()))
    atomic_write(out / "compare.md", lambda fh: fh.write(md.encode()))
    from imhotep_stats.reporting.headline import compare_sentences

    verdicts = compare_sentences(comp, base_cfg.margin, 1.0 - base_cfg.confidence)
    page = comparison_html(comp, verdicts, trust)
    atomic_write(out / "compare.html", lambda fh: fh.write(page.encode()))
    if as_json:
        click.echo(json.dumps(data, sort_keys=True))
    else:
        click.echo("\n".join(("- " if markdown else "") + v
                              for v in [*strong_said, *verdicts, *trust]) + "\n")
        click.echo(md if markdown else comparison_text(comp), nl=False)
    if max_seat_shift is not None:
        bad = [f for f in comp.figures if f.group == "seat" and f.figure == "win_rate"
               and (f.ci_low > max_seat_shift or f.ci_high < -max_seat_shift)]
        for f in bad:
            click.echo(f"gate failed: {f.cell.split('|')[0]} {f.players} players, seat "
                       f"{f.who + 1} win rate moves {f.diff * 100:+.1f} pp (interval "
                       f"{f.ci_low * 100:.1f} to {f.ci_high * 100:.1f}), beyond "
                       f"±{max_seat_shift * 100:.1f}", err=True)
        if bad:
            sys.exit(EXIT_GATE_FAILED)
        say(f"gate passed: no seat's win rate moves by more than ±{max_seat_shift * 100:.1f} "
            "pp")


def _strong_compare(base_cfg, whatif_cfg, out, bot, most, minutes, quiet, workers, cluster):
    """``compare --strong``: the paired finding for strong play (``reporting.strong``), in
    the words of the screen's, to print first."""
    from imhotep_stats.reporting.headline import compare_sentences
    from imhotep_stats.reporting.strong import (
        compare_check,
        redundant,
        redundant_note,
        strong_bot,
    )

    say = say_unless(quiet)
    if redundant(base_cfg, bot) and redundant(whatif_cfg, bot):
        say(redundant_note(bot))
        return []
    if cluster is None and workers is None:
        cluster, workers = base_cfg.cluster, base_cfg.workers
    comp, games = compare_check(base_cfg, whatif_cfg, out, bot, most=most, minutes=minutes,
                                margin=base_cfg.margin, say=say, workers=workers,
                                cluster=cluster, progress=False if quiet else None, log=say,
                                warn=lambda m: click.echo(m, err=True))
    return [f"For strong play ({strong_bot(bot)}, {games:,} games a cell): {s}"
            for s in compare_sentences(comp, base_cfg.margin, 1.0 - base_cfg.confidence)]


@click.command(short_help="Rank many side combinations by imbalance.")
@click.argument("config", required=False,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--sides", metavar="M-P-T-B-O", help="Without CONFIG: per site 'all', a side "
              "letter or letters, e.g. all-A-all-A-D (16 combinations).")
@click.option("--players", type=click.IntRange(2, 4), multiple=True,
              help="With --sides: player count, repeat for several [default: 3].")
@click.option("--bots", help="With --sides: bot lineup, comma-separated [default: greedy].")
@study_options
@MARGIN
@BOARD
@click.option("--budget", type=Count(0), help="Extra games for adaptive allocation "
              "[default: sweep.budget, 0 = none].")
@click.option("--rounds", type=click.IntRange(1), help="Adaptive rounds at most "
              "[default: sweep.rounds].")
@click.option("--top", type=click.IntRange(1), help="Rows of each ranking [default: sweep.top].")
@click.option("--rank-by", type=click.Choice(["seat_gap", "bot_gap", "dominance"]),
              help="Imbalance to rank by [default: sweep.rank_by].")
@click.option("--fail-on-unbalanced", is_flag=True,
              help="CI gate: exit 3 when any combination's seat verdict is unbalanced.")
@click.option("--confirm", type=click.IntRange(1), metavar="K",
              help="Play the top K combinations of the ranking again, each on fresh games "
              "(the sweep's own games chose them), judged together (Holm over the K); runs "
              "in OUT/confirm/.")
@click.option("--confirm-bot", metavar="BOT", shell_complete=complete_bots,
              help="With --confirm: play the confirmations with BOT in every seat, e.g. "
              "expert (the reference bot: strong play) [default: the sweep's lineup].")
@expected_errors
def sweep(config, sides, players, bots, out, games, seed, workers, cluster, batch_size, force,
          as_json,
          markdown, quiet, margin, board_file, budget, rounds, top, rank_by,
          fail_on_unbalanced, confirm, confirm_bot):
    """Run a study over many side combinations and rank them by imbalance, with the main
    effect of every side, the strongest two-site interactions and adaptive extra games.

    CONFIG is a study file; without it, --sides all-A-all-A-D --players 3 builds the sweep
    from flags ("all": the site's four sides). Writes OUT/sweep.json, OUT/sweep.md,
    OUT/sweep-cells.csv and OUT/sweep.html (a sides x seat heatmap) beside the run.
    """
    from imhotep_stats.cli.study import study_from, with_flags
    from imhotep_stats.reporting.compare import sweep_markdown, sweep_text
    from imhotep_stats.sim.adaptive import run_adaptive
    from imhotep_stats.sim.store import atomic_write, load_manifest
    from imhotep_stats.stats.sweep import analyze_sweep, cells_csv, verdict_policy

    cfg = with_flags(on_board(study_from(config, sides, players, bots, games, seed, sweep=True),
                              board_file), games, seed, margin, batch_size)
    opts = cfg.sweep
    budget = opts["budget"] if budget is None else budget
    rounds = opts["rounds"] if rounds is None else rounds
    out = out or Path("reports") / cfg.name
    with resumable_work():
        workers, cluster, cfg = _run_or_resume(cfg, out, workers, cluster, force, quiet,
                                               "sweep", keep_seed=seed is not None)
        outcome = None
        if budget > 0:
            manifest = load_manifest(out)
            policy = verdict_policy(manifest, cfg.margin, 1.0 - cfg.confidence)
            outcome = run_adaptive(cfg, out, policy, budget=budget, rounds=rounds,
                                   settings={"margin": cfg.margin,
                                             "confidence": cfg.confidence},
                                   workers=workers, cluster=cluster,
                                   progress=False if quiet else None, log=say_unless(quiet))
            outcome = outcome.to_json()
            _record_adaptive(cfg, out)
        res = analyze_sweep(out, cfg.margin, cfg.confidence, top or opts["top"],
                            rank_by or opts["rank_by"], alpha=1.0 - cfg.confidence,
                            adaptive_outcome=outcome)
        if confirm:
            res["confirm"] = _confirm(cfg, res, confirm, out, workers, cluster, force, quiet,
                                      confirm_bot)
    from imhotep_stats.reporting.trust import sweep_trust

    trust = sweep_trust(cfg)
    title, _, rest = sweep_markdown(res).partition("\n")
    md = f"{title}\n\n- {trust}\n{rest}"  # the trust line at the top
    atomic_write(out / "sweep.json", lambda fh: _dump_json(res, fh))
    atomic_write(out / "sweep.md", lambda fh: fh.write(md.encode()))
    atomic_write(out / "sweep-cells.csv", lambda fh: fh.write(cells_csv(res).encode()))
    from imhotep_stats.reporting.sweep_html import sweep_html

    page = sweep_html(res, trust)
    atomic_write(out / "sweep.html", lambda fh: fh.write(page.encode()))
    if as_json:
        click.echo(json.dumps(res, sort_keys=True))
    else:
        click.echo(md if markdown else sweep_text(res), nl=False)
        if not markdown:
            click.echo(trust)
    if fail_on_unbalanced and res["verdicts"]["unbalanced"]:
        for c in res["all_cells"]:
            if c["verdict"] == "unbalanced":
                click.echo(f"gate failed: {c['sides']} {c['players']} players: "
                           f"{c['verdict_text']}", err=True)
        sys.exit(EXIT_GATE_FAILED)


def _confirm(cfg, res, k, out, workers, cluster, force, quiet, bot=None):
    """``sweep --confirm K``: each top-K cell run on fresh games (``stats.confirm``), by
    ``bot`` in every seat when given (strong play: ``--confirm-bot expert``)."""
    from imhotep_stats.stats.confirm import confirm_configs, confirm_verdicts

    pairs = confirm_configs(cfg, res["all_cells"], k)
    if bot:
        pairs = [(cell, one.replace(name=f"{one.name}-{bot}", lineups=tuple(
            (n, ((bot,),)) for n in one.players))) for cell, one in pairs]
    dirs = []
    for cell, one in pairs:
        d = out / "confirm" / f"{cell['rank']}-{cell['sides']}-{cell['players']}p"
        _run_or_resume(one, d, workers, cluster, force, quiet, "run")
        dirs.append(d)
    rows = confirm_verdicts([c for c, _ in pairs], dirs, cfg.margin, 1.0 - cfg.confidence)
    return [dict(r, bots=bot or r["lineup"]) for r in rows]


def _record_adaptive(cfg, out) -> None:
    """Count the games of a sweep's adaptive rounds as looked at (``sim.looks``)."""
    from imhotep_stats.sim.adaptive import games_per_cell, load_record
    from imhotep_stats.sim.looks import ledger_path, record
    from imhotep_stats.sim.store import load_manifest

    manifest = load_manifest(out)
    games = games_per_cell(manifest, load_record(out))
    record(ledger_path(), cfg, out, manifest.get("run_id", ""), "sweep",
           {i: (0, n) for i, n in games.items()})


@click.command(short_help="Games a seat-fairness verdict at a margin needs.")
@MARGIN
@click.option("--players", type=click.IntRange(2, 4), multiple=True, required=True,
              help="Player count (repeat for several).")
@click.option("--power", type=click.FloatRange(0, 1, min_open=True, max_open=True),
              default=0.8, show_default=True,
              help="Chance of a verdict if the assumed gap is the truth.")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True),
              default=0.05, show_default=True,
              help="Error rate, split over the cells (balanced) or their seats (unbalanced).")
@click.option("--gap", type=float, default=0.0, show_default=True,
              help="True seat gap assumed for 'balanced' (must be inside the margin).")
@click.option("--cells", type=click.IntRange(1), default=1, show_default=True,
              help="Cells corrected together (Holm over cells, and over their seats).")
@click.option("--beyond", type=float, default=None,
              help="True seat gap to call 'unbalanced beyond ±margin' (default: twice the "
                   "margin; must be beyond it).")
@click.option("--bots", help="Also time a cell of that many games with this lineup "
              "(comma-separated, rotated through the seats), from a short pilot here.")
@click.option("--sides", default="A-A-A-A-A", show_default=True, metavar="M-P-T-B-O",
              help="With --bots: the sides the pilot plays.")
@json_option()
def plan(margin, players, power, alpha, gap, cells, beyond, bots, sides, as_json):
    """How many games per cell a seat-fairness verdict at the margin needs (and, with
    --bots, how long such a cell takes on this machine)."""
    from imhotep_stats.config import DEFAULT_MARGIN
    from imhotep_stats.stats.intervals import min_detectable_difference
    from imhotep_stats.stats.planning import (
        cell_equivalence_power,
        games_needed,
        games_needed_every_seat,
        games_to_exceed,
        seat_family,
    )

    margin = DEFAULT_MARGIN if margin is None else margin
    if abs(gap) >= margin:
        raise click.BadParameter(f"the assumed gap {gap} must be inside ±{margin}",
                                 param_hint="--gap")
    beyond = 2 * margin if beyond is None else beyond
    if abs(beyond) <= margin:
        raise click.BadParameter(f"the gap {beyond} must be beyond ±{margin}",
                                 param_hint="--beyond")
    rows = []
    for n in dict.fromkeys(players):
        family = seat_family(n) * cells  # "beyond": a claim per seat
        try:  # "within": a claim per cell (intersection-union over its seats)
            need = games_needed(margin, n, alpha, power, true_gap=gap, family=cells)
            together = games_needed_every_seat(margin, n, alpha, power, gap, cells)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--margin") from None
        try:
            detect = games_to_exceed(beyond, margin, n, alpha, power, family)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--beyond") from None
        rows.append({"players": n, "margin": margin, "alpha": alpha, "power": power,
                     "assumed_gap": gap, "beyond_gap": beyond, "cells": cells,
                     "family": family,
                     "games_balanced": need, "games_balanced_every_seat": together,
                     "cell_power_at_seat_plan": cell_equivalence_power(
                         need, margin, n, alpha / cells, gap),
                     "games_unbalanced": detect,
                     "mdd_at_games": min_detectable_difference(need, 1.0 / n, alpha, power)})
    if bots:
        _time_cells(rows, bots, sides)
    if as_json:
        click.echo(json.dumps(rows if len(rows) > 1 else rows[0], sort_keys=True))
        return
    band = f"±{margin * 100:.1f} pp"
    for r in rows:
        click.echo(f"{r['players']} players, margin {band}, alpha {alpha}"
                   f"{_split(cells, 'cell')}, power {power:.0%}:")
        # the figure to plan with first: the cell's claim needs every seat to pass
        click.echo(f"  {r['games_balanced_every_seat']:,} games per cell show it balanced "
                   f"within {band}, every seat passing ({power:.0%})")
        if r["games_balanced"] != r["games_balanced_every_seat"]:
            click.echo(f"  ({r['games_balanced']:,} would give seat 1 at gap {gap * 100:+.1f} "
                       f"pp {power:.0%} alone, the cell {r['cell_power_at_seat_plan']:.0%})")
        click.echo(f"  {r['games_unbalanced']:,} games show a seat {beyond * 100:+.1f} pp off "
                   f"unbalanced (alpha{_split(r['family'], 'seat test')})")
        if "cpu_per_game" in r:
            from imhotep_stats.sim.progress import _clock as clock

            click.echo(f"  {bots} on {sides}: {r['cpu_per_game']:.3f} s of CPU a game here "
                       f"({r['pilot_games']}-game pilot);")
            click.echo(f"  {clock(r['cpu_per_game'] * r['games_balanced_every_seat'])} of one "
                       f"core for {r['games_balanced_every_seat']:,} games")


def _time_cells(rows: list[dict], bots: str, sides: str) -> None:
    """Add each row's measured CPU seconds a game (``sim.cost.pilot``) for ``bots``."""
    from imhotep_stats.config import Cell
    from imhotep_stats.config.bots import bot_name_problem
    from imhotep_stats.engine.setup_checks import parse_sides
    from imhotep_stats.sim.cost import pilot

    lineup = tuple(b.strip() for b in bots.split(",") if b.strip())
    for b in lineup:
        if bot_name_problem(b):
            raise click.BadParameter(bot_name_problem(b), param_hint="--bots")
    try:
        sides = "-".join(parse_sides(sides))
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--sides") from None
    for r in rows:
        per_game, n = pilot(Cell(0, sides, r["players"], lineup))
        r["cpu_per_game"], r["pilot_games"] = round(per_game, 4), n


def _split(n: int, what: str) -> str:
    return f" split over {n} {what}s" if n > 1 else ""


COMMANDS = (compare, sweep, plan)

"""``sides``: the board data, every side with its provenance or one side's numbers."""

from __future__ import annotations

import json
from pathlib import Path

import click

from imhotep_stats.cli.completion import complete_site_side
from imhotep_stats.cli.exits import expected_errors
from imhotep_stats.cli.options import BOARD, board_of, json_option


@click.command(short_help="The board data and its provenance.")
@click.argument("name", required=False, metavar="[SITE.SIDE|TABLE]",
                shell_complete=complete_site_side)
@click.option("--export", "export", type=click.Path(dir_okay=False, path_type=Path),
              help="Write every number, with its provenance, to a designer's board file "
              "(TOML) to correct and then use with --board or [board] file.")
@click.option("--force", is_flag=True, help="With --export: overwrite the file.")
@BOARD
@json_option()
@expected_errors
def sides(name, export, force, board_file, as_json):
    """The board data: every side with its provenance, one side's numbers (e.g. pyramid.D),
    or a game-level table with each value's range: game (rounds, starting_sled, ...),
    round_cards, cards, prophecies, statue_points, decoration, unused_blue_points.

    Provisional values are placeholders no source gave us: correct them in a board file
    (`sides --export board.toml`, then `--board board.toml` on any command, or
    `[board] file = "board.toml"` in a study config) or override them in a study config."""
    from tabulate import tabulate

    from imhotep_stats.engine.setup_checks import parse_site_side
    from imhotep_stats.rules.board import SIDES, SITES, plain
    from imhotep_stats.rules.board_file import designer_keys, export_text

    board, mine = board_of(board_file)
    designer = designer_keys(mine or {})
    if export is not None:
        if export.exists() and not force:
            raise click.UsageError(f"{export} exists: --force overwrites it")
        export.write_text(export_text(board, export.name), encoding="utf-8")
        click.echo(f"wrote {export}: every site side and game table with its provenance; "
                   f"use it with --board {export} or [board] file = \"{export.name}\"")
        return
    if name is not None and _tables(board, name):
        _print_tables(board, _tables(board, name), as_json)
        return
    if name is None:
        rows = []
        for site in SITES:
            for side in SIDES:
                sd = board.side(site, side)
                rows.append({"side": sd.name, "provenance": _provenance(sd, designer),
                             "provisional_keys": _still_provisional(sd, designer)})
        if as_json:
            click.echo(json.dumps(rows, indent=2))
        else:
            click.echo(tabulate(
                [[r["side"], r["provenance"], ", ".join(r["provisional_keys"]) or "-"]
                 for r in rows], headers=["side", "provenance", "provisional values"]))
            click.echo("\nGame-level values and their ranges: `imhotep-stats sides game` (also "
                       "round_cards, cards, prophecies, statue_points, decoration, "
                       "unused_blue_points).")
        return
    sd = board.side(*parse_site_side(name))
    values = {k: plain(v) for k, v in sd.values.items()}
    if as_json:
        click.echo(json.dumps({"side": sd.name, "provenance": sd.provenance,
                               "provisional_keys": list(sd.provisional_keys), "values": values,
                               "quotes": dict(sd.quotes), "quotes_en": dict(sd.quotes_en)},
                              indent=2))
        return
    still = _still_provisional(sd, designer)
    click.echo(f"{sd.name}  provenance: {_provenance(sd, designer)}"
               + (f" (provisional: {', '.join(still)})" if still and sd.name in designer else ""))
    rows = [[k, json.dumps(v), "designer" if k in designer.get(sd.name, ()) else
             "provisional" if (k in sd.provisional_keys or
             (sd.provisional and not sd.provisional_keys)) else "rulebook", sd.quotes_en.get(k, "")]
            for k, v in values.items()]
    click.echo(tabulate(rows, headers=["key", "value", "provenance", "rule text (English)"], maxcolwidths=[None, 40, None, 50]))
    click.echo("\nOverride in a study config as [overrides." + sd.name + "] with the same shape.")


def _still_provisional(sd, designer: dict[str, list[str]]) -> list[str]:
    """The side's placeholder keys a designer's board file has not set."""
    keys = sd.provisional_keys or (tuple(sd.values) if sd.provisional else ())
    return [k for k in keys if k not in designer.get(sd.name, ())]


def _provenance(sd, designer: dict[str, list[str]]) -> str:
    """"designer" once a board file set some of the side's values, else the data's."""
    return "designer" if sd.name in designer else sd.provenance


def _tables(board, name: str) -> list[str]:
    """The game-level tables ``name`` stands for (``round_cards``: all three)."""
    name = name.strip().lower()
    return [t for t in board.tables if t == name or t.startswith(name + ".")]


def _print_tables(board, names: list[str], as_json: bool) -> None:
    """Each value of game-level tables with its provenance and what an override may be."""
    from tabulate import tabulate

    from imhotep_stats.rules.board import META_KEYS, plain
    from imhotep_stats.rules.limits import allowed

    rows = []
    for table in names:
        values = board.tables[table]
        nested = table == "cards"  # one row per card property
        for key, v in values.items():
            if key in META_KEYS:
                continue
            for sub, x in (v.items() if nested else [(None, v)]):
                dotted = f"{table}.{key}" + (f".{sub}" if sub else "")
                rows.append({"key": dotted, "value": plain(x), "allowed": allowed(dotted),
                             "provenance": board.provenance_of(table)})
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    click.echo(tabulate([[r["key"], json.dumps(r["value"]), r["allowed"], r["provenance"]]
                         for r in rows], headers=["key", "value", "override may be", "provenance"],
                        maxcolwidths=[None, 40, 40, None]))
    click.echo("\nOverride in a study config as [overrides.TABLE] with the same shape, e.g. "
               "[overrides.game] rounds = 5.")


COMMANDS = (sides,)

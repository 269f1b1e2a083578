"""``sides``: the board data, every side with its provenance or one side's numbers."""

from __future__ import annotations

import json

import click

from imhotep_stats.cli.completion import complete_site_side
from imhotep_stats.cli.exits import expected_errors
from imhotep_stats.cli.options import json_option


@click.command(short_help="The board data and its provenance.")
@click.argument("name", required=False, metavar="[SITE.SIDE|TABLE]", shell_complete=complete_site_side)
@json_option()
@expected_errors
def sides(name, as_json):
    """The board data: every side with its provenance, one side's numbers (e.g. pyramid.D),
    or a game-level table with each value's range: game (rounds, starting_sled, ...),
    round_cards, cards, prophecies, statue_points, decoration, unused_blue_points.

    Provisional values are placeholders no source gave us: correct them in
    imhotep_stats/data/board.toml or override them in a study config."""
    from tabulate import tabulate

    from imhotep_stats.engine.game import parse_site_side
    from imhotep_stats.engine.sites import MODULES
    from imhotep_stats.rules.board import SIDES, SITES, default_board

    board = default_board()
    if name is not None and _tables(board, name):
        _print_tables(board, _tables(board, name), as_json)
        return
    if name is None:
        rows = []
        for i, site in enumerate(SITES):
            for side in SIDES:
                sd = board.side(site, side)
                implemented = side in MODULES[i].SIDES
                rows.append({
                    "side": sd.name, "provenance": sd.provenance,
                    "provisional_keys": list(sd.provisional_keys), "implemented": implemented,
                })
        if as_json:
            click.echo(json.dumps(rows, indent=2))
        else:
            click.echo(tabulate(
                [[r["side"], r["provenance"], ", ".join(r["provisional_keys"]) or "-",
                  "yes" if r["implemented"] else "not yet"] for r in rows],
                headers=["side", "provenance", "provisional values", "implemented"]))
            click.echo("\nGame-level values and their ranges: `imhotep-stats sides game` (also "
                       "round_cards, cards, prophecies, statue_points, decoration, "
                       "unused_blue_points).")
        return
    sd = board.side(*parse_site_side(name))
    values = {k: _plain(v) for k, v in sd.values.items()}
    if as_json:
        click.echo(json.dumps({"side": sd.name, "provenance": sd.provenance,
                               "provisional_keys": list(sd.provisional_keys), "values": values,
                               "quotes": dict(sd.quotes)}, indent=2))
        return
    click.echo(f"{sd.name}  provenance: {sd.provenance}")
    rows = [[k, json.dumps(v), "provisional" if (k in sd.provisional_keys or
             (sd.provisional and not sd.provisional_keys)) else "rulebook", sd.quotes.get(k, "")]
            for k, v in values.items()]
    click.echo(tabulate(rows, headers=["key", "value", "provenance", "rule text"], maxcolwidths=[None, 40, None, 50]))
    click.echo("\nOverride in a study config as [overrides." + sd.name + "] with the same shape.")


def _tables(board, name: str) -> list[str]:
    """The game-level tables ``name`` stands for (``round_cards``: all three)."""
    name = name.strip().lower()
    return [t for t in board.tables if t == name or t.startswith(name + ".")]


def _print_tables(board, names: list[str], as_json: bool) -> None:
    """Each value of game-level tables with its provenance and what an override may be."""
    from tabulate import tabulate

    from imhotep_stats.rules.board import META_KEYS
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
                rows.append({"key": dotted, "value": _plain(x), "allowed": allowed(dotted),
                             "provenance": board.provenance_of(table)})
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    click.echo(tabulate([[r["key"], json.dumps(r["value"]), r["allowed"], r["provenance"]]
                         for r in rows], headers=["key", "value", "override may be", "provenance"],
                        maxcolwidths=[None, 40, 40, None]))
    click.echo("\nOverride in a study config as [overrides.TABLE] with the same shape, e.g. "
               "[overrides.game] rounds = 5.")


def _plain(v):
    from collections.abc import Mapping

    if isinstance(v, Mapping):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return v



COMMANDS = (sides,)

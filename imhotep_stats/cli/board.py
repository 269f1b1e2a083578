"""``sides``: the board data, every side with its provenance or one side's numbers."""

from __future__ import annotations

import json

import click

from imhotep_stats.cli.completion import complete_site_side
from imhotep_stats.cli.exits import expected_errors
from imhotep_stats.cli.options import json_option


@click.command(short_help="The board data and its provenance.")
@click.argument("name", required=False, metavar="[SITE.SIDE]", shell_complete=complete_site_side)
@json_option()
@expected_errors
def sides(name, as_json):
    """The board data: every side with its provenance, or one side's numbers (e.g. pyramid.D).

    Provisional values are placeholders no source gave us: correct them in
    imhotep_stats/data/board.toml or override them in a study config."""
    from tabulate import tabulate

    from imhotep_stats.engine.sites import MODULES
    from imhotep_stats.rules.board import SIDES, SITES, BoardDataError, default_board

    board = default_board()
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
        return
    if name not in board.sides:
        raise BoardDataError([(name, f"unknown side (expected SITE.SIDE, e.g. pyramid.D; sites: {', '.join(SITES)})")])
    sd = board.sides[name]
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


def _plain(v):
    from collections.abc import Mapping

    if isinstance(v, Mapping):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return v



COMMANDS = (sides,)

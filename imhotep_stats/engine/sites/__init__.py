"""One module per site, each holding its four sides; ``make_site`` picks the class."""

from __future__ import annotations

from typing import TYPE_CHECKING

from imhotep_stats.engine.setup_checks import RulesError
from imhotep_stats.engine.sites import burial_chamber, market, obelisk, pyramid, temple
from imhotep_stats.engine.sites.base import Site
from imhotep_stats.rules.board import SITES

if TYPE_CHECKING:
    from imhotep_stats.engine.game import Game

MODULES = (market, pyramid, temple, burial_chamber, obelisk)


def side_class(index: int, side: str) -> type[Site]:
    module = MODULES[index]
    try:
        return module.SIDES[side]
    except KeyError:
        raise RulesError(f"{module.__name__.rsplit('.', 1)[-1]}: no side {side!r} (expected A, B, C or D)") from None


def make_site(g: Game, index: int, side: str) -> Site:
    return side_class(index, side)(g, index, g.board.sides[f"{SITES[index]}.{side}"])

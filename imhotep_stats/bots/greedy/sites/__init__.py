"""The greedy bot's site evaluators: one module per site, named like the engine's
(``engine/sites/temple.py`` plays Temple C, ``bots/greedy/sites/temple.py`` prices it), each
with its four sides in a ``SIDES`` table; ``make_eval`` picks the class. The contract they share
is ``base.SiteEval``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from imhotep_stats.bots.greedy.errors import UnsupportedSide
from imhotep_stats.bots.greedy.sites import burial_chamber, market, obelisk, pyramid, temple
from imhotep_stats.rules.board import SITES

if TYPE_CHECKING:
    from imhotep_stats.bots.greedy.context import Ctx
    from imhotep_stats.bots.greedy.sites.base import SiteEval

MODULES = (market, pyramid, temple, burial_chamber, obelisk)  # by site index


def eval_class(index: int, side: str) -> type[SiteEval]:
    module = MODULES[index]
    try:
        return module.SIDES[side]
    except KeyError:
        raise UnsupportedSide(
            f"the scripted bots have no evaluator for {SITES[index]} side {side}: "
            f"add one to {module.__name__.replace('.', '/')}.py"
        ) from None


def make_eval(ctx: Ctx, index: int, side: str) -> SiteEval:
    return eval_class(index, side)(ctx, index)


def site_kinds() -> dict[str, tuple[int, str]]:
    """Decision kinds the site evaluators handle -> (site index, side) that asks them."""
    out: dict[str, tuple[int, str]] = {}
    for index, module in enumerate(MODULES):
        for side, cls in module.SIDES.items():
            for k in cls.kinds:
                out.setdefault(k, (index, side))
    return out

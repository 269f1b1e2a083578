"""The Pyramid (RULES.md 5). Scored at once; a full side scores overflow per stone."""

from __future__ import annotations

from typing import TYPE_CHECKING

from imhotep_stats.engine.sites.base import Site

if TYPE_CHECKING:
    from imhotep_stats.engine.game import Game


class PyramidA(Site):
    """5.1: 14 spaces filled in a fixed order, points by fill order."""

    side = "A"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.points = data["points"]
        self.overflow = data["overflow_points"]
        self.owners: list[int] = []  # in fill order; beyond len(points) = overflow

    def deliver(self, g: Game, owner: int) -> None:
        i = len(self.owners)
        self.owners.append(owner)
        g.score(owner, "pyramid", self.points[i] if i < len(self.points) else self.overflow)

    def stones(self) -> int:
        return len(self.owners)

    def stones_of(self, p: int) -> int:
        return self.owners.count(p)


SIDES = {"A": PyramidA}

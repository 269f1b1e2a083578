"""The Obelisks (RULES.md 8)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from imhotep_stats.engine.sites.base import Site, rank_points

if TYPE_CHECKING:
    from imhotep_stats.engine.game import Game


class ObeliskA(Site):
    """8.1: each stone raises its owner's obelisk; game end points by height rank."""

    side = "A"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.heights = [0] * g.n
        self.table = data.by_players("points_by_players", g.n)

    def deliver(self, g: Game, owner: int) -> None:
        self.heights[owner] += 1

    def game_end(self, g: Game) -> None:
        for p, pts in enumerate(rank_points(self.heights, self.table)):
            g.score(p, "obelisk", pts)

    def stones(self) -> int:
        return sum(self.heights)

    def stones_of(self, p: int) -> int:
        return self.heights[p]


SIDES = {"A": ObeliskA}

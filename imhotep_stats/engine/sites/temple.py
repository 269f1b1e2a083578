"""The Temple (RULES.md 6). Stones fill a row of columns left to right; a full row starts
a new layer on top. The visible stones are the top stone of each column."""

from __future__ import annotations

from typing import TYPE_CHECKING

from imhotep_stats.engine.sites.base import Site

if TYPE_CHECKING:
    from imhotep_stats.engine.game import Game


class TempleLayers(Site):
    """The layered temple shared by sides A, B and C."""

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.width = data.by_players("width_by_players", g.n)
        self.owners: list[int] = []  # in delivery order; stone i sits in column i % width

    def deliver(self, g: Game, owner: int) -> None:
        self.owners.append(owner)

    def visible(self) -> list[tuple[int, int]]:
        """(column, owner) of the top stone of each column that holds one."""
        n, w, owners = len(self.owners), self.width, self.owners
        return [(c, owners[c + w * ((n - 1 - c) // w)]) for c in range(min(n, w))]

    def stones(self) -> int:
        return len(self.owners)

    def stones_of(self, p: int) -> int:
        return self.owners.count(p)


class TempleA(TempleLayers):
    """6.1: at the end of every round each visible stone scores 1 point for its owner."""

    side = "A"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.visible_points = data["visible_points"]

    def round_end(self, g: Game) -> None:
        for _, owner in self.visible():
            g.score(owner, "temple", self.visible_points)


SIDES = {"A": TempleA}

"""The Burial Chamber (RULES.md 7). Scored at game end."""

from __future__ import annotations

from typing import TYPE_CHECKING

from imhotep_stats.engine.sites.base import Site, connected_groups, group_points

if TYPE_CHECKING:
    from imhotep_stats.engine.game import Game


class BurialRows(Site):
    """3 rows filled column by column (top, middle, bottom, then the next column)."""

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.rows = data["rows"]
        self.owners: list[int] = []  # stone i: column i // rows, row i % rows

    def deliver(self, g: Game, owner: int) -> None:
        self.owners.append(owner)

    def cells(self) -> dict[tuple[int, int], int]:
        r = self.rows
        return {(i % r, i // r): o for i, o in enumerate(self.owners)}

    def stones(self) -> int:
        return len(self.owners)

    def stones_of(self, p: int) -> int:
        return self.owners.count(p)


class BurialChamberA(BurialRows):
    """7.1: each orthogonally connected group of one colour scores 1, 3, 6, 10, 15, +2..."""

    side = "A"

    def game_end(self, g: Game) -> None:
        table, extra = self.data["group_points"], self.data["group_extra"]
        for owner, size in connected_groups(self.cells()):
            g.score(owner, "burial_chamber", group_points(size, table, extra))


SIDES = {"A": BurialChamberA}

"""The Market (RULES.md 4). Unloaded stones go back to their owner's quarry, each one just
before its owner takes the card it pays for (so a red card taken can use that stone)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from imhotep_stats.engine import cards
from imhotep_stats.engine.actions import act
from imhotep_stats.engine.sites.base import Site

if TYPE_CHECKING:
    from imhotep_stats.engine.actions import Action
    from imhotep_stats.engine.game import Game

MARKET_PICK = "market_pick"


class MarketA(Site):
    """4.1: 4 cards face up each round; each unloaded stone's owner takes one of those left."""

    side = "A"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.size = data["display"]
        self.display: list[str] = []

    def round_start(self, g: Game) -> None:
        for _ in range(self.size):
            c = g.draw()
            if c is not None:
                self.display.append(c)

    def deliver(self, g: Game, owner: int) -> None:
        g.quarry[owner] += 1
        if self.display:
            # Identical cards are one choice: which copy is taken changes nothing.
            opts = [act("take", name) for name in dict.fromkeys(self.display)]
            g.ask(MARKET_PICK, owner, opts, self._take, owner)

    def _take(self, g: Game, a: Action, owner: int) -> None:
        name = a.args[0]
        self.display.remove(name)
        cards.gain(g, owner, name)

    def round_end(self, g: Game) -> None:
        g.discard.extend(self.display)
        self.display = []


SIDES = {"A": MarketA}

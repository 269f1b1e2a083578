"""The site protocol and the scoring helpers several sides share."""

from __future__ import annotations

from typing import TYPE_CHECKING

from imhotep_stats.engine.chance import redeal
from imhotep_stats.rules.board import SITES, SideData

if TYPE_CHECKING:
    from imhotep_stats.engine.actions import Action
    from imhotep_stats.engine.game import Game


class Site:
    """One site side. Subclasses read every number from ``self.data`` (the side's data).

    Attributes whose names start with ``_hidden`` are not public information: bots must
    not read them (the view hides them). Everything else on a site is on the table.
    Compiled, a cdef class (base.pxd; each side's module has its .pxd): every attribute is
    declared there.
    """

    side = "?"

    def __init__(self, g: Game, index: int, data: SideData):
        self.index = index
        self.name = SITES[index]
        self.data = data

    # The engine only calls round_start / round_end for sites that override them. (The base's
    # methods from its class dict: compiled, ``Site.round_end`` in a method names the C method.)
    @property
    def has_round_start(self) -> bool:
        return type(self).round_start is not _BASE["round_start"]

    @property
    def has_round_end(self) -> bool:
        return type(self).round_end is not _BASE["round_end"]

    def deliver(self, g: Game, owner: int) -> None:
        """A stone of ``owner`` arrives (from a ship, a red card or a bonus)."""
        raise NotImplementedError

    def answer(self, g: Game, kind: int, a: Action, ctx: tuple) -> None:
        """The answer ``a`` to a question of this site's ``kind`` (a code that engine/kinds.py
        says this site answers), with the context tuple it asked with (``Game.ask``'s ``ctx``)."""
        raise NotImplementedError(kind)

    # Hidden information (engine/hidden.py): each site names and deals its own.
    def hidden_cards(self, g: Game, seat: int) -> list[list[str]]:
        """The lists of market cards face down here that ``seat`` has not looked at
        (pooled with the draw pile when dealt anew)."""
        return []

    def hidden_tiles(self) -> list[list]:
        """The lists of this site's own face-down tiles or tokens (not market cards), in a
        fixed order: what ``redeal_hidden`` deals anew, pooled (engine/hidden.py pools
        them once for many deals)."""
        return []

    def redeal_hidden(self, rng, seat: int) -> None:
        """Deal this site's face-down tiles or tokens anew from ``rng`` (in place): its
        ``hidden_tiles`` pooled in canonical order, shuffled and dealt back in their sizes."""
        places = self.hidden_tiles()
        if places:
            redeal(rng, places)

    def hidden(self) -> dict[str, list]:
        """The hidden parts by name (tests and checks): never shown to a player."""
        return {}

    def copy(self) -> Site:
        """An independent copy (``engine.clone``): a new object of the side, filled by
        ``copy_into``."""
        cls = type(self)
        new = cls.__new__(cls)
        self.copy_into(new)
        return new

    def copy_into(self, new: Site) -> None:
        """Copy this site's attributes onto ``new``, one by one: every side adds its own
        (lists that change copied, one level deeper where they hold lists; tuples, side data,
        actions and lists that never change after setup shared). An attribute added to a
        side must be added to its ``copy_into`` (tests/test_clone.py checks every one)."""
        new.index = self.index
        new.name = self.name
        new.data = self.data

    def round_start(self, g: Game) -> None:
        pass

    def round_end(self, g: Game) -> None:
        pass

    def game_end(self, g: Game) -> None:
        pass

    def on_get(self, g: Game, p: int, a: Action) -> None:
        """A Get new stones action with a site-specific extra (Pyramid D's figure)."""
        raise NotImplementedError

    def stones(self) -> int:
        """Stones of all colours at this site, overflow included (decorations count these)."""
        return 0

    def stones_of(self, p: int) -> int:
        """Stones of player ``p`` at this site (conservation checks, prophecies)."""
        return 0


_BASE = dict(Site.__dict__)  # the protocol's own methods, to tell an override


def site_task(g: Game, site: int, method: str, *args) -> None:
    """A site's own task (its round end, Temple B/C's columns), by site index and method
    name, so that a task record holds no bound method (``engine.clone`` shares the records)."""
    getattr(g.sites[site], method)(g, *args)


def rank_points(values: list[int], table: tuple[int, ...] | list[int], minimum: int = 1) -> list[int]:
    """Points by rank of ``values`` (highest first). Players below ``minimum`` score nothing.

    Tied players add up the points of the ranks they occupy and share them, rounded down
    (docs/rules.md §7.2, 8.1). Ranks beyond the table are worth 0.
    """
    n = len(values)
    out = [0] * n
    # highest first, tied players in seat order (which only groups them): an insertion sort,
    # stable, of a handful of players (compiled, C compares: no key function called per player)
    order = []
    for p in range(n):
        v = values[p]
        if v >= minimum:
            at = len(order)
            while at > 0 and values[order[at - 1]] < v:
                at -= 1
            order.insert(at, p)
    rank = 0
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and values[order[j]] == values[order[i]]:
            j += 1
        pool = 0
        for r in range(rank, min(rank + j - i, len(table))):
            pool += table[r]
        for k in range(i, j):
            out[order[k]] = pool // (j - i)
        rank += j - i
        i = j
    return out


def group_points(size: int, table: tuple[int, ...], extra: int) -> int:
    """A connected group of ``size`` stones: the table, then ``extra`` per further stone
    (no stones, no points)."""
    if size <= 0:
        return 0
    if size <= len(table):
        return table[size - 1]
    return table[-1] + extra * (size - len(table))


def line_groups(owners: list[int], width: int) -> list[tuple[int, int]]:
    """Orthogonally connected groups of one owner in a grid stored line by line, by index:
    cell i is place ``i % width`` of line ``i // width`` (lines and places are rows and
    columns, or columns and rows: adjacency is the same), ``-1`` an empty cell. Returns
    ``(owner, size)`` per group, in the order of each group's first cell."""
    n = len(owners)
    cells = owners[:]  # a counted cell is marked -1 (empty): one list, read and written
    groups = []
    found = []  # the cells of the groups so far, each group's in the order found
    k = 0  # found[k:]: cells of this group not yet looked around
    for start in range(n):
        owner = cells[start]
        if owner < 0:
            continue
        cells[start] = -1
        first = len(found)
        found.append(start)
        while k < len(found):
            i = found[k]
            k += 1
            r = i % width
            # the four neighbours (compiled, c is a C long: a C compare with owner)
            if r + 1 < width and i + 1 < n:  # the next place on the line
                c = cells[i + 1]
                if c == owner:
                    cells[i + 1] = -1
                    found.append(i + 1)
            if r > 0:  # the place before
                c = cells[i - 1]
                if c == owner:
                    cells[i - 1] = -1
                    found.append(i - 1)
            if i + width < n:  # the next line
                c = cells[i + width]
                if c == owner:
                    cells[i + width] = -1
                    found.append(i + width)
            if i >= width:  # the line before
                c = cells[i - width]
                if c == owner:
                    cells[i - width] = -1
                    found.append(i - width)
        groups.append((owner, len(found) - first))
    return groups

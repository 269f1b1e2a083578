"""The Obelisks (docs/rules.md §8).

Decision kinds and their notation (every choice is the stone's owner's):

================  ==========================  ================================================
kind              action text                 meaning
================  ==========================  ================================================
obelisk_token     ``stack L 2 1 0``           Obelisk C: add the token (here ``L``) to your card
                                              with 2 squares on column 1, 1 on column 2 and 0 on
                                              column 3 (columns left to right; one count per
                                              column of the card). With the no-gap rule every
                                              column's new squares go straight on top of it, so
                                              the counts fix the placement (rotation, reflection,
                                              position) exactly, and two legal placements never
                                              share a text.
obelisk_claim     ``claim height 3 points 5`` Obelisk D: claim a free obelisk of that height and
                                              value and put the stone on it. Identical free
                                              obelisks are one choice (the first free one is
                                              taken: which copy changes nothing).
================  ==========================  ================================================

Obelisk B asks nothing (the slot is forced: the highest free one).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from imhotep_stats.engine.actions import act
from imhotep_stats.engine.kinds import CODE
from imhotep_stats.engine.rows import fixed, part, read, room
from imhotep_stats.engine.sites.base import Site, rank_points

if TYPE_CHECKING:
    from imhotep_stats.engine.actions import Action
    from imhotep_stats.engine.game import Game

OBELISK_TOKEN = CODE["obelisk_token"]
OBELISK_CLAIM = CODE["obelisk_claim"]

try:  # Cython's constant: True in the compiled module (its rows are C arrays), else False
    import cython

    COMPILED = cython.compiled
except ImportError:  # pure Python without Cython installed
    COMPILED = False

OBELISKS, SEATS = 16, 4  # the C rows' sizes (obelisk.pxd): obelisks (B's slots), seats


class ObeliskA(Site):
    """8.1: each stone raises its owner's obelisk; game end points by height rank. The board
    is a C row (engine/rows.py): ``heights`` per seat."""

    side = "A"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.seats = g.n
        self._heights = fixed([0] * g.n, SEATS)
        self.table = data.by_players("points_by_players", g.n)

    def copy_into(self, new: Site) -> None:
        Site.copy_into(self, new)
        n = new
        n.seats = self.seats
        if COMPILED:  # a C row: copied by value
            n._heights = self._heights
        else:
            n._heights = self._heights[:]
        n.table = self.table

    @property
    def heights(self) -> list[int]:
        return read(self, "heights", self._heights, self.seats)

    @heights.setter
    def heights(self, values) -> None:
        self._heights = fixed(values, SEATS)

    def deliver(self, g: Game, owner: int) -> None:
        self._heights[owner] += 1

    def game_end(self, g: Game) -> None:
        heights = [self._heights[p] for p in range(self.seats)]
        for p, pts in enumerate(rank_points(heights, self.table)):
            g.score(p, "obelisk", pts)

    def stones(self) -> int:
        return sum([self._heights[p] for p in range(self.seats)])

    def stones_of(self, p: int) -> int:
        return self._heights[p]


# ---------------------------------------------------------------------------- side B
class ObeliskB(Site):
    """8.2: stones collect on the owner's space; every ``stones_per_obelisk``-th stone
    completes an obelisk, which takes the highest-value free slot and scores it at once.
    Game end: each stone not in a finished obelisk scores ``leftover_points`` (also the
    stones that found no slot left). The board is C rows (engine/rows.py): per seat its
    ``pending`` stones and ``built`` obelisks; ``slot_owner`` the owners of the slots taken,
    in ``slot_order`` (``taken`` of them)."""

    side = "B"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.per = data["stones_per_obelisk"]
        self.leftover_points = data["leftover_points"]
        slots = data["slots"]
        if len(slots) > OBELISKS:
            raise ValueError(f"obelisk.B.slots: at most {OBELISKS} slots, got {len(slots)}")
        # Slot indexes from the highest value down (stable: equal values in printed order).
        self.slot_order = sorted(range(len(slots)), key=lambda i: -slots[i])
        self.slot_points = [slots[i] for i in self.slot_order]
        self.seats = g.n
        self.taken = 0
        self._slot_owner = room([], OBELISKS)
        self._pending = fixed([0] * g.n, SEATS)  # stones on the owner's space, not in an obelisk
        self._built = fixed([0] * g.n, SEATS)  # finished obelisks per player

    def copy_into(self, new: Site) -> None:
        Site.copy_into(self, new)
        n = new
        n.per = self.per
        n.leftover_points = self.leftover_points
        n.slot_order = self.slot_order  # never changed
        n.slot_points = self.slot_points
        n.seats = self.seats
        n.taken = self.taken
        if COMPILED:  # C rows: copied by value
            n._slot_owner = self._slot_owner
            n._pending = self._pending
            n._built = self._built
        else:
            n._slot_owner = self._slot_owner[:]
            n._pending = self._pending[:]
            n._built = self._built[:]

    @property
    def slot_owner(self) -> list[int]:
        return part(self, "slot_owner", self._slot_owner, self.taken)

    @slot_owner.setter
    def slot_owner(self, values) -> None:
        self._slot_owner = room(values, OBELISKS)
        self.taken = len(values)

    @property
    def pending(self) -> list[int]:
        return read(self, "pending", self._pending, self.seats)

    @pending.setter
    def pending(self, values) -> None:
        self._pending = fixed(values, SEATS)

    @property
    def built(self) -> list[int]:
        return read(self, "built", self._built, self.seats)

    @built.setter
    def built(self, values) -> None:
        self._built = fixed(values, SEATS)

    def deliver(self, g: Game, owner: int) -> None:
        k = self._pending[owner] + 1
        taken = self.taken
        if k >= self.per and taken < len(self.slot_points):
            self._pending[owner] = k - self.per
            self._built[owner] += 1
            self._slot_owner[taken] = owner
            self.taken = taken + 1
            g.score(owner, "obelisk", self.slot_points[taken])
        else:
            self._pending[owner] = k

    def game_end(self, g: Game) -> None:
        for p in range(self.seats):
            g.score(p, "obelisk", self._pending[p] * self.leftover_points)

    def stones(self) -> int:
        return sum([self._pending[p] for p in range(self.seats)]) + self.per * self.taken

    def stones_of(self, p: int) -> int:
        return self._pending[p] + self.per * self._built[p]


# ---------------------------------------------------------------------------- side C
# The token shapes (docs/rules.md §8.3) as cells (column, row); the letters are rules, not
# printed numbers: the path that deals them is data (obelisk.C.path).
TOKEN_SHAPES: dict[str, tuple[tuple[int, int], ...]] = {
    "M": ((0, 0),),
    "D": ((0, 0), (1, 0)),
    "I": ((0, 0), (1, 0), (2, 0)),
    "L": ((0, 0), (1, 0), (0, 1)),
    "T": ((0, 0), (1, 0), (2, 0), (1, 1)),
    "O": ((0, 0), (1, 0), (0, 1), (1, 1)),
}


def _orientations(cells: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """The distinct orientations (rotations and reflections) of a token, each as
    ``(bottoms, counts)`` per column of its width: the lowest row and the number of its
    squares in that column. Orientations with a column that is not one run could never be
    placed without a gap and are left out (none of the six tokens has one)."""
    seen: set[frozenset] = set()
    out = []
    for swap in (False, True):
        for sx in (1, -1):
            for sy in (1, -1):
                pts = [((y if swap else x) * sx, (x if swap else y) * sy) for x, y in cells]
                mx = min(x for x, _ in pts)
                my = min(y for _, y in pts)
                shape = frozenset((x - mx, y - my) for x, y in pts)
                if shape in seen:
                    continue
                seen.add(shape)
                width = 1 + max(x for x, _ in shape)
                bottoms, counts = [], []
                for c in range(width):
                    rows = sorted(y for x, y in shape if x == c)
                    if rows[-1] - rows[0] + 1 != len(rows):
                        break
                    bottoms.append(rows[0])
                    counts.append(len(rows))
                else:
                    out.append((tuple(bottoms), tuple(counts)))
    return tuple(sorted(out))


ORIENTATIONS = {name: _orientations(cells) for name, cells in TOKEN_SHAPES.items()}

# Placements by (columns, token, card profile relative to its lowest column): a list of
# (action, squares added per column). Legality only depends on the relative profile.
_PLACEMENTS: dict[tuple, list[tuple[Action, tuple[int, ...]]]] = {}


def placements(columns: int, token: str, heights: tuple[int, ...] | list[int]) -> list[tuple[Action, tuple[int, ...]]]:
    """The legal placements of ``token`` on a card of column ``heights`` (docs/rules.md §8.3):
    inside the columns, no overlap, and every column's squares one run from the bottom, so
    each column the token covers receives its squares straight on top of its stack."""
    low = min(heights)
    rel = tuple([h - low for h in heights])
    key = (columns, token, rel)
    found = _PLACEMENTS.get(key)
    if found is None:
        found = _PLACEMENTS[key] = _new_placements(columns, token, rel)
    return found


def _new_placements(columns: int, token: str, rel: tuple[int, ...]) -> list[tuple[Action, tuple[int, ...]]]:
    """:func:`placements` for a profile not met before (``rel``: the heights less the lowest)."""
    found = []
    seen = set()
    for bottoms, counts in ORIENTATIONS[token]:
        w = len(bottoms)
        for c0 in range(columns - w + 1):
            base = rel[c0] - bottoms[0]
            if all(rel[c0 + j] - bottoms[j] == base for j in range(1, w)):
                add = [0] * columns
                add[c0 : c0 + w] = counts
                add = tuple(add)
                if add not in seen:
                    seen.add(add)
                    found.append((act("stack", token, *add), add))
    found.sort(key=lambda x: x[1], reverse=True)  # deterministic: left-heavy first
    return found


# The same, actions only (the decision's options), by the card's own heights: a card's
# heights stay small, so this skips working out the relative profile on every stone.
_OPTIONS_BY_CARD: dict[tuple, list[Action]] = {}


def placement_options(columns: int, token: str, heights: list[int]) -> list[Action]:
    """The ``stack`` actions of :func:`placements` (a fresh list: the game may keep it)."""
    key = (columns, token, *heights)
    found = _OPTIONS_BY_CARD.get(key)
    if found is None:
        found = _OPTIONS_BY_CARD[key] = [a for a, _ in placements(columns, token, heights)]
    return list(found)


class ObeliskC(Site):
    """8.3, the Great Obelisk: a delivered stone takes the next path space and its owner
    adds that space's token to their card (or discards it when no placement is legal; no
    decision then). Path full: ``overflow_points`` per further stone, at once. Game end:
    ``row_points`` per complete row and a bonus by rank of complete rows.

    A card is kept as its column heights: with the no-gap rule each column is one run
    from the bottom, so the heights are the whole card. Complete rows = the lowest column,
    incomplete rows (rows with some square but not all) = highest minus lowest.
    """

    side = "C"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.columns = data["columns"]
        self.path = tuple(data["path"])
        unknown = sorted(set(self.path) - set(TOKEN_SHAPES))
        if unknown:
            raise ValueError(f"obelisk.C.path: unknown tokens {unknown} (known: {' '.join(TOKEN_SHAPES)})")
        self.row_points = data["row_points"]
        self.bonus = data.by_players("rank_bonus_by_players", g.n)
        self.overflow_points = data["overflow_points"]
        self.next = 0  # next path space
        self.cards = [[0] * self.columns for _ in range(g.n)]  # column heights per player
        self.on_path = [0] * g.n  # stones on the path per player
        self.overflow = [0] * g.n
        self.discarded = [0] * g.n  # tokens that could not be placed

    def copy_into(self, new: Site) -> None:
        Site.copy_into(self, new)
        n = new
        n.columns = self.columns
        n.path = self.path
        n.row_points = self.row_points
        n.bonus = self.bonus
        n.overflow_points = self.overflow_points
        n.next = self.next
        n.cards = [list(card) for card in self.cards]
        n.on_path = self.on_path[:]
        n.overflow = self.overflow[:]
        n.discarded = self.discarded[:]

    def deliver(self, g: Game, owner: int) -> None:
        i = self.next
        if i >= len(self.path):
            self.overflow[owner] += 1
            g.score(owner, "obelisk", self.overflow_points)
            return
        self.next = i + 1
        self.on_path[owner] += 1
        opts = placement_options(self.columns, self.path[i], self.cards[owner])
        if opts:
            g.ask(OBELISK_TOKEN, owner, opts, (owner,))
        else:
            self.discarded[owner] += 1

    def answer(self, g: Game, kind: int, a: Action, ctx: tuple) -> None:
        owner = ctx[0]
        card = self.cards[owner]
        for c, k in enumerate(a.args[1:]):
            card[c] += k

    def rows(self, p: int) -> tuple[int, int]:
        """(complete rows, incomplete rows) of ``p``'s card."""
        card = self.cards[p]
        low = min(card)
        return low, max(card) - low

    def game_end(self, g: Game) -> None:
        rows = [self.rows(p) for p in range(g.n)]
        for p, (full, _) in enumerate(rows):
            g.score(p, "obelisk", full * self.row_points)
        for p, pts in enumerate(rank_bonus(rows, self.bonus)):
            g.score(p, "obelisk", pts)

    def stones(self) -> int:
        return self.next + sum(self.overflow)

    def stones_of(self, p: int) -> int:
        return self.on_path[p] + self.overflow[p]


def rank_bonus(rows: list[tuple[int, int]], table: tuple[int, ...] | list[int]) -> list[int]:
    """Obelisk C's bonus by rank of complete rows (docs/rules.md §8.3).

    Players are ranked by complete rows, ties broken by more incomplete rows; players still
    tied add the points of the ranks they occupy and share them, rounded to the nearest
    integer (halves round up). Ruling for a gap in the rules: a player with no complete row
    takes no rank and no bonus (nobody has "the most complete rows" with none; the same
    minimum as the other rank tables, docs/rules.md §7.2 and 8.1), so with nobody on a complete
    row nobody scores a bonus.
    """
    n = len(rows)
    out = [0] * n
    order = sorted((p for p in range(n) if rows[p][0] >= 1), key=lambda p: rows[p], reverse=True)
    rank = i = 0
    while i < len(order):
        j = i
        while j < len(order) and rows[order[j]] == rows[order[i]]:
            j += 1
        k = j - i
        pool = sum(table[r] for r in range(rank, rank + k) if r < len(table))
        share = (2 * pool + k) // (2 * k)  # pool / k rounded to nearest, halves up
        for p in order[i:j]:
            out[p] = share
        rank += k
        i = j
    return out


# ---------------------------------------------------------------------------- side D
class ObeliskD(Site):
    """8.4, the Passage: a player's first stone claims a free obelisk of their choice;
    each further stone goes on it until it reaches its height; then the next stone claims a
    new one. No free obelisk to claim: ``overflow_points`` at once. Game end: a finished
    obelisk scores its points, an unfinished one ``unfinished_points`` per stone.

    The board is C rows (engine/rows.py): per obelisk its ``owner`` (-1: free) and
    ``height``; per seat the obelisk it builds (``working``, -1: none), its stones on
    obelisks (``placed``) and its ``overflow``. ``free`` is the unclaimed obelisks in printed
    order (read from ``owner``)."""

    side = "D"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        obelisks = data["obelisks"]
        if len(obelisks) > OBELISKS:
            raise ValueError(f"obelisk.D.obelisks: at most {OBELISKS} obelisks, got {len(obelisks)}")
        self.count = len(obelisks)
        self.seats = g.n
        self.target = [h for h, _ in obelisks]
        self.points = [pts for _, pts in obelisks]
        self.unfinished_points = data["unfinished_points"]
        self.overflow_points = data["overflow_points"]
        self.claim_action = [act("claim", "height", h, "points", pts) for h, pts in obelisks]
        self._owner = fixed([-1] * self.count, OBELISKS)
        self._height = fixed([0] * self.count, OBELISKS)
        self._working = fixed([-1] * g.n, SEATS)
        self._placed = fixed([0] * g.n, SEATS)
        self._overflow = fixed([0] * g.n, SEATS)

    def copy_into(self, new: Site) -> None:
        Site.copy_into(self, new)
        n = new
        n.count = self.count
        n.seats = self.seats
        n.target = self.target  # never changed
        n.points = self.points
        n.unfinished_points = self.unfinished_points
        n.overflow_points = self.overflow_points
        n.claim_action = self.claim_action
        if COMPILED:  # C rows: copied by value
            n._owner = self._owner
            n._height = self._height
            n._working = self._working
            n._placed = self._placed
            n._overflow = self._overflow
        else:
            n._owner = self._owner[:]
            n._height = self._height[:]
            n._working = self._working[:]
            n._placed = self._placed[:]
            n._overflow = self._overflow[:]

    @property
    def owner(self) -> list[int]:
        return read(self, "owner", self._owner, self.count)

    @owner.setter
    def owner(self, values) -> None:
        self._owner = fixed(values, OBELISKS)

    @property
    def height(self) -> list[int]:
        return read(self, "height", self._height, self.count)

    @height.setter
    def height(self, values) -> None:
        self._height = fixed(values, OBELISKS)

    @property
    def working(self) -> list[int]:
        return read(self, "working", self._working, self.seats)

    @working.setter
    def working(self, values) -> None:
        self._working = fixed(values, SEATS)

    @property
    def placed(self) -> list[int]:
        return read(self, "placed", self._placed, self.seats)

    @placed.setter
    def placed(self, values) -> None:
        self._placed = fixed(values, SEATS)

    @property
    def overflow(self) -> list[int]:
        return read(self, "overflow", self._overflow, self.seats)

    @overflow.setter
    def overflow(self, values) -> None:
        self._overflow = fixed(values, SEATS)

    @property
    def free(self) -> list[int]:
        """The unclaimed obelisks, in printed order (a new list)."""
        return [o for o in range(self.count) if self._owner[o] < 0]

    def deliver(self, g: Game, owner: int) -> None:
        o = self._working[owner]
        if o >= 0:
            self._placed[owner] += 1
            self._add(owner, o)
            return
        opts = []  # one claim per kind of free obelisk (height, points), in printed order
        claim = self.claim_action
        for o in range(self.count):
            if self._owner[o] < 0 and claim[o] not in opts:
                opts.append(claim[o])
        if opts:
            self._placed[owner] += 1  # counted at once: the stone is here while its owner chooses
            g.ask(OBELISK_CLAIM, owner, opts, (owner,))
        else:
            self._overflow[owner] += 1
            g.score(owner, "obelisk", self.overflow_points)

    def _add(self, owner: int, o: int) -> None:
        self._height[o] += 1
        self._working[owner] = o if self._height[o] < self.target[o] else -1

    def answer(self, g: Game, kind: int, a: Action, ctx: tuple) -> None:
        owner = ctx[0]
        claim = self.claim_action
        for o in range(self.count):  # the first free obelisk this action claims
            if self._owner[o] < 0 and claim[o] is a:
                break
        else:
            raise ValueError(f"obelisk: {a} claims no free obelisk")
        self._owner[o] = owner
        self._add(owner, o)

    def game_end(self, g: Game) -> None:
        for o in range(self.count):
            p = self._owner[o]
            if p >= 0:
                h = self._height[o]
                g.score(p, "obelisk", self.points[o] if h >= self.target[o] else h * self.unfinished_points)

    def stones(self) -> int:
        return sum([self._placed[p] + self._overflow[p] for p in range(self.seats)])

    def stones_of(self, p: int) -> int:
        return self._placed[p] + self._overflow[p]


SIDES = {"A": ObeliskA, "B": ObeliskB, "C": ObeliskC, "D": ObeliskD}

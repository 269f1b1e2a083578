"""The Temple (docs/rules.md §6). Stones fill a row of columns left to right; a full row starts
a new layer on top. The visible stones are the top stone of each column.

Sides: A (1 point per visible stone), B (column rewards), C (Temple of Ra: column bonuses,
some with a choice), D (Arena: chariots on a track). Every number is the side's data.

Decisions of this module (``g.kind``, who decides, the actions' notation):

==============  ==============================  ==============================================
kind            decided by                      actions
==============  ==============================  ==============================================
temple_bonus    owner of a visible stone in a   ``points 2`` / ``stones 4`` (Temple C's
                column whose bonus is a choice  ``p2|s4``: 2 points, or 4 stones from the
                (``p2|s4``), at round end       quarry to the sled); a ``|`` choice in the
                                                data offers one action per alternative
                                                (``points N``, ``stones N``, ``draw N``)
temple_keep     the same owner, after drawing   ``keep statue``: the card kept (one action per
                for a ``drawN`` bonus (Temple   distinct card name drawn); the others go to
                C's ``draw3``)                  the discard pile
==============  ==============================  ==============================================

Temple C's round end is column by column, left to right: each column's points, stones,
cards and choices are settled (and any red card gained acts) before the next column.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from imhotep_stats.engine.actions import Action, act, keep_card
from imhotep_stats.engine.cards import gain
from imhotep_stats.engine.kinds import CODE
from imhotep_stats.engine.rows import fixed, part, read, room
from imhotep_stats.engine.sites.base import Site

if TYPE_CHECKING:
    from imhotep_stats.engine.game import Game

TEMPLE_BONUS = CODE["temple_bonus"]
TEMPLE_KEEP = CODE["temple_keep"]

try:  # Cython's constant: True in the compiled module (its rows are C arrays), else False
    import cython

    COMPILED = cython.compiled
except ImportError:  # pure Python without Cython installed
    COMPILED = False

# The C rows' sizes (temple.pxd). A site takes one ship a round, of at most 4 stones, for at
# most 6 rounds (rules/limits.py), and a stone for each Barge card played there: 128 holds
# more than any game gives it (a stone past a row's end is refused by name, not written).
LAYERED = 128  # A, B, C: the stones in delivery order
SEATS = 4  # D: per seat
SPACES = 16  # D: the stone spaces (the board's 12 arrowheads: an override keeps their number)
OVERFLOW = 128  # D: the stones beyond them

# Reward kinds: points, stones (quarry -> sled, capacity caps), draw (N market cards,
# keep 1; "card" is draw 1).
POINTS, STONES, DRAW = "points", "stones", "draw"


def parse_reward(text: str, where: str) -> tuple[tuple[str, int], ...]:
    """``"p2|s4"`` -> (("points", 2), ("stones", 4)); ``"card"`` -> (("draw", 1),).

    ``pN`` N points, ``sN`` N stones from the quarry to the sled, ``card`` the top market
    card, ``drawN`` the top N market cards (keep 1, discard the rest), ``|`` a choice of the
    stone's owner; ``""`` or ``"none"`` nothing.
    """
    alts = []
    for alt in text.split("|"):
        alt = alt.strip()
        try:
            if alt in ("", "none"):
                continue
            if alt == "card":
                alts.append((DRAW, 1))
            elif alt.startswith("draw"):
                alts.append((DRAW, int(alt[4:])))
            elif alt[0] == "p":
                alts.append((POINTS, int(alt[1:])))
            elif alt[0] == "s":
                alts.append((STONES, int(alt[1:])))
            else:
                raise ValueError
        except ValueError:
            raise ValueError(
                f"{where}: unknown reward {alt!r} (expected pN, sN, card, drawN, joined by '|')"
            ) from None
        if alts[-1][1] < 0:
            raise ValueError(f"{where}: negative reward {alt!r}")
    return tuple(alts)


@lru_cache(maxsize=64)
def _reward_columns(
    table: tuple[str, ...], width: int, where: str
) -> tuple[tuple[tuple[tuple[str, int], ...], ...], tuple[list[Action], ...]]:
    """Per column of a reward table: the alternatives, and the actions offered when there
    is a choice. Parsed once per table (board data is immutable); the action lists are
    shared and never changed."""
    if len(table) < width:
        raise ValueError(f"{where}: {len(table)} columns, but the temple is {width} wide")
    columns = tuple(parse_reward(table[c], f"{where}[{c}]") for c in range(width))
    choices = tuple(list(dict.fromkeys(act(kind, k) for kind, k in alts)) for alts in columns)
    return columns, choices


class TempleLayers(Site):
    """The layered temple shared by sides A, B and C.

    The board is a C row (engine/rows.py): ``owners``, the owner of each stone in delivery
    order (stone i sits in column i % ``width``), ``filled`` of them."""

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.width = data.by_players("width_by_players", g.n)
        self.filled = 0
        if not COMPILED:  # compiled: the C row as it comes, zero-filled (engine/rows.py)
            self._owners = room([], LAYERED)

    def copy_into(self, new: Site) -> None:
        Site.copy_into(self, new)
        n = new
        n.width = self.width
        n.filled = self.filled
        if COMPILED:  # a C row: copied by value
            n._owners = self._owners
        else:
            n._owners = self._owners[:]

    @property
    def owners(self) -> list[int]:
        return part(self, "owners", self._owners, self.filled)

    @owners.setter
    def owners(self, values) -> None:
        values = list(values)
        if len(values) > LAYERED:
            raise ValueError(f"temple: at most {LAYERED} stones, got {len(values)}")
        self._owners = room(values, LAYERED)
        self.filled = len(values)

    def deliver(self, g: Game, owner: int) -> None:
        i = self.filled
        if i >= LAYERED:  # never in a game: a C row must not be written past
            raise ValueError(f"temple: at most {LAYERED} stones")
        self._owners[i] = owner
        self.filled = i + 1

    def visible(self) -> list[tuple[int, int]]:
        """(column, owner) of the top stone of each column that holds one."""
        k = min(self.filled, self.width)
        return [(c, self.top(c)) for c in range(k)]

    def top(self, c: int) -> int:
        """The owner of column c's top stone (c < the stones here, c < width)."""
        w = self.width
        return self._owners[c + w * ((self.filled - 1 - c) // w)]

    def stones(self) -> int:
        return self.filled

    def stones_of(self, p: int) -> int:
        k = 0
        for i in range(self.filled):
            if self._owners[i] == p:
                k += 1
        return k


class TempleA(TempleLayers):
    """6.1: at the end of every round each visible stone scores 1 point for its owner."""

    side = "A"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.visible_points = data["visible_points"]

    def copy_into(self, new: Site) -> None:
        TempleLayers.copy_into(self, new)
        n = new
        n.visible_points = self.visible_points

    def round_end(self, g: Game) -> None:
        k = min(self.filled, self.width)  # the visible stones, column by column
        for c in range(k):
            g.score(self.top(c), "temple", self.visible_points)


class TempleRewards(TempleLayers):
    """Sides B and C: at round end each visible stone gives its owner its column's reward
    instead of a point, columns left to right; a column with no reward gives
    ``visible_points`` (0 on B, Temple A's point on C)."""

    rewards_key = "rewards"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.visible_points = 0
        key = self.rewards_key
        self.columns, self.choices = _reward_columns(data[key], self.width, f"{data.name}.{key}")

    def copy_into(self, new: Site) -> None:
        TempleLayers.copy_into(self, new)
        n = new
        n.visible_points = self.visible_points
        n.columns = self.columns
        n.choices = self.choices

    def round_end(self, g: Game) -> None:
        vis = tuple(self.visible())
        if vis:
            self._columns(g, vis, 0)

    def _columns(self, g: Game, vis: tuple[tuple[int, int], ...], i: int) -> None:
        """Settle visible stones i, i+1, ... (left to right); stop at a decision or a draw,
        leaving the rest as a task under whatever that starts."""
        vp = self.visible_points
        columns = self.columns
        while i < len(vis):
            c, owner = vis[i]
            i += 1
            alts = columns[c]
            if not alts:
                if vp:
                    g.score(owner, "temple", vp)
                continue
            if len(alts) > 1:
                if i < len(vis):
                    g.push(_columns_task, self.index, vis, i)
                g.ask(TEMPLE_BONUS, owner, self.choices[c], (owner,))
                return
            kind, k = alts[0]
            if kind == DRAW:
                if i < len(vis):
                    g.push(_columns_task, self.index, vis, i)
                self._draw(g, owner, k)
                return
            self._reward(g, owner, kind, k)

    def _reward(self, g: Game, owner: int, kind: str, k: int) -> None:
        if kind == POINTS:
            g.score(owner, "temple", k)
        elif kind == STONES:
            g.sled_to_capacity(owner, k)
        else:
            # A draw may ask (keep 1 of N): run it as a task, never ask from a resolver.
            g.push(_draw_task, self.index, owner, k)

    def answer(self, g: Game, kind: int, a: Action, ctx: tuple) -> None:
        if kind == TEMPLE_KEEP:  # asked with (owner, the cards drawn)
            self._keep(g, a, ctx[0], ctx[1])
        else:
            self._reward(g, ctx[0], a.kind, a.args[0])

    def _draw(self, g: Game, owner: int, k: int) -> None:
        """Draw the top k market cards; the owner keeps one, the rest are discarded."""
        drawn = []
        for _ in range(k):
            c = g.draw()
            if c is None:
                break
            drawn.append(c)
        if not drawn:
            return
        names = list(dict.fromkeys(drawn))
        if len(names) == 1:  # identical cards: no choice to make
            g.discard.extend(drawn[1:])
            gain(g, owner, drawn[0])
            return
        opts = [keep_card(name) for name in names]
        g.ask(TEMPLE_KEEP, owner, opts, (owner, tuple(drawn)))

    def _keep(self, g: Game, a: Action, owner: int, drawn: tuple[str, ...]) -> None:
        name = a.args[0]
        rest = list(drawn)
        rest.remove(name)
        g.discard.extend(rest)
        gain(g, owner, name)


class TempleB(TempleRewards):
    """6.2: each visible stone gives its owner its column's reward instead of a point:
    ``pN`` points, ``sN`` stones from the quarry to the sled (capacity and quarry cap it),
    ``card`` the top market card (a red card acts at once)."""

    side = "B"
    rewards_key = "rewards"


class TempleC(TempleRewards):
    """6.3, Temple of Ra: as A, except that each visible stone gives its column's bonus
    *instead of* A's point ("funciona igual que el lado A, excepto por la siguiente
    diferencia: ... hay diferentes bonificaciones por cada piedra visible"): ``p2|s4`` the
    owner chooses 2 points or 4 stones to the sled, ``draw3`` draw the top 3 market cards,
    keep 1, discard the others. A column with no bonus gives A's point (``visible_points``).
    """

    side = "C"
    rewards_key = "bonuses"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.visible_points = data["visible_points"]


# Temple B/C's own tasks (engine/game.py's CALL records: module-level functions, immutable
# arguments), as base.site_task would run them but with no method looked up by name: the
# site's columns from visible stone i on, and a draw of k cards for ``owner``.
def _columns_task(g: Game, site: int, vis: tuple[tuple[int, int], ...], i: int) -> None:
    t = g.sites[site]
    t._columns(g, vis, i)


def _draw_task(g: Game, site: int, owner: int, k: int) -> None:
    t = g.sites[site]
    t._draw(g, owner, k)


class TempleD(Site):
    """6.4, Arena. Each stone takes the next stone space and moves its owner's chariot by
    the space's arrowheads (``overflow_move`` once the spaces are all taken). A chariot that
    lands on a space held by another chariot moves on to the next free one; the start and
    finish spaces hold any number. A stone of a player already on the finish scores
    ``finish_point`` (the chariot stays there).

    Round end: the leading chariot scores ``round_points[0]``, the second ``[1]``
    (``round_points_2p`` with 2 players). Several chariots on the finish all lead and no
    further place is paid; chariots still on the start space never place. Game end: each
    chariot scores ``track_points`` of its space (the track's last space is the finish).
    All points score under "temple".

    The board is C rows (engine/rows.py): per seat its chariot's track space (``chariots``,
    0: the start) and its stones here (``count``); the owners of the stone spaces taken, in
    fill order (``spaces``, ``filled`` of them), and of the stones beyond them
    (``overflow``, ``over`` of them).
    """

    side = "D"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.arrowheads = tuple(data["arrowheads"])
        if len(self.arrowheads) > SPACES:
            raise ValueError(f"temple.D.arrowheads: at most {SPACES} stone spaces, "
                             f"got {len(self.arrowheads)}")
        self.overflow_move = data["overflow_move"]
        self.track_points = tuple(data["track_points"])
        self.finish = len(self.track_points) - 1
        self.round_points = tuple(data["round_points_2p"] if g.n == 2 else data["round_points"])
        self.finish_point = data["finish_point"]
        self.seats = g.n
        self.filled = 0
        self.over = 0
        self._chariots = fixed([0] * g.n, SEATS)
        self._count = fixed([0] * g.n, SEATS)
        if not COMPILED:  # compiled: the C row as it comes, zero-filled (engine/rows.py)
            self._spaces = room([], SPACES)
            self._overflow = room([], OVERFLOW)

    def copy_into(self, new: Site) -> None:
        Site.copy_into(self, new)
        n = new
        n.arrowheads = self.arrowheads
        n.overflow_move = self.overflow_move
        n.track_points = self.track_points
        n.finish = self.finish
        n.round_points = self.round_points
        n.finish_point = self.finish_point
        n.seats = self.seats
        n.filled = self.filled
        n.over = self.over
        if COMPILED:  # C rows: copied by value
            n._chariots = self._chariots
            n._count = self._count
            n._spaces = self._spaces
            n._overflow = self._overflow
        else:
            n._chariots = self._chariots[:]
            n._count = self._count[:]
            n._spaces = self._spaces[:]
            n._overflow = self._overflow[:]

    @property
    def chariots(self) -> list[int]:
        return read(self, "chariots", self._chariots, self.seats)

    @chariots.setter
    def chariots(self, values) -> None:
        self._chariots = fixed(values, SEATS)

    @property
    def count(self) -> list[int]:
        return read(self, "count", self._count, self.seats)

    @count.setter
    def count(self, values) -> None:
        self._count = fixed(values, SEATS)

    @property
    def spaces(self) -> list[int]:
        return part(self, "spaces", self._spaces, self.filled)

    @spaces.setter
    def spaces(self, values) -> None:
        values = list(values)
        if len(values) > len(self.arrowheads):
            raise ValueError(f"temple.D: {len(self.arrowheads)} stone spaces, got {len(values)}")
        self._spaces = room(values, SPACES)
        self.filled = len(values)

    @property
    def overflow(self) -> list[int]:
        return part(self, "overflow", self._overflow, self.over)

    @overflow.setter
    def overflow(self, values) -> None:
        values = list(values)
        if len(values) > OVERFLOW:
            raise ValueError(f"temple.D: at most {OVERFLOW} stones beyond the stone spaces, "
                             f"got {len(values)}")
        self._overflow = room(values, OVERFLOW)
        self.over = len(values)

    def deliver(self, g: Game, owner: int) -> None:
        self._count[owner] += 1
        i = self.filled
        if i < len(self.arrowheads):
            self._spaces[i] = owner
            self.filled = i + 1
            move = self.arrowheads[i]
        else:
            i = self.over
            if i >= OVERFLOW:  # never in a game: a C row must not be written past
                raise ValueError(f"temple.D: at most {OVERFLOW} stones beyond the stone spaces")
            self._overflow[i] = owner
            self.over = i + 1
            move = self.overflow_move
        pos, finish = self._chariots[owner], self.finish
        if pos >= finish:
            g.score(owner, "temple", self.finish_point)
            return
        if move <= 0:
            return
        to = min(pos + move, finish)
        while to < finish:  # held by another chariot (ours is behind): the next space
            for p in range(self.seats):
                if self._chariots[p] == to:
                    break
            else:
                break
            to += 1
        self._chariots[owner] = to

    def round_end(self, g: Game) -> None:
        table, finish, n = self.round_points, self.finish, self.seats
        lead = 0  # chariots on the finish
        for p in range(n):
            if self._chariots[p] == finish:
                lead += 1
        if lead > 1:  # several chariots lead on the finish: no second place
            for p in range(n):
                if self._chariots[p] == finish:
                    g.score(p, "temple", table[0])
            return
        # Otherwise every chariot off the start is on a space of its own: the places paid go
        # to the chariots furthest on, one after the other (on a shared space, which cannot
        # happen, the higher seat first: the order of (space, seat) from the top)
        paid = 0  # bit p: seat p placed
        for rank in range(len(table)):
            best = -1
            top = 0
            for p in range(n):
                pos = self._chariots[p]
                if pos > 0 and not paid >> p & 1 and (pos > top or (pos == top and p > best)):
                    top = pos
                    best = p
            if best < 0:
                return
            paid |= 1 << best
            g.score(best, "temple", table[rank])

    def game_end(self, g: Game) -> None:
        for p in range(self.seats):
            g.score(p, "temple", self.track_points[self._chariots[p]])

    def stones(self) -> int:
        return self.filled + self.over

    def stones_of(self, p: int) -> int:
        return self._count[p]


SIDES = {"A": TempleA, "B": TempleB, "C": TempleC, "D": TempleD}

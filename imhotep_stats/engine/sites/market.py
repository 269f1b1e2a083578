"""The Market (docs/rules.md §4). Unloaded stones go back to their owner's quarry, each one just
before its owner takes the card it pays for (so a red card taken can use that stone).

Decision kinds (every one is made by the unloaded stone's owner; a choice with a single
option is not asked, it is carried out at once):

| kind          | side    | options (notation)                                                  |
|---------------|---------|---------------------------------------------------------------------|
| `market_pick` | A, B, D | `take statue`: a face-up card (identical cards are one option)       |
| `market_pick` | B       | `take pair`: the face-down pair (then `market_keep`)                 |
| `market_pick` | C       | `take statue`: one card; `take statue 2`: the copy in space 2, when  |
|               |         | several spaces hold that card and a coin may still be paid;          |
|               |         | `take 1 2`: pay a coin for the two adjacent cards in spaces 1 and 2  |
| `market_pick` | D       | `take stack 0`: look at face-down stack 0 (then `market_keep`)       |
| `market_keep` | B, D    | `keep chisel`: the card kept from the pair / stack looked at         |

Spaces and stacks are numbered from 0, left to right.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from imhotep_stats.engine import cards
from imhotep_stats.engine.actions import act, keep_card, take_card
from imhotep_stats.engine.cards import gain
from imhotep_stats.engine.kinds import CODE
from imhotep_stats.engine.rows import fixed, read
from imhotep_stats.engine.sites.base import Site

if TYPE_CHECKING:
    from imhotep_stats.engine.actions import Action
    from imhotep_stats.engine.game import Game

MARKET_PICK = CODE["market_pick"]
MARKET_KEEP = CODE["market_keep"]

try:  # Cython's constant: True in the compiled module (its rows are C arrays), else False
    import cython

    COMPILED = cython.compiled
except ImportError:  # pure Python without Cython installed
    COMPILED = False

SEATS = 4  # Market C's coins row's size (market.pxd)

TAKE_PAIR = act("take", "pair")


def _take_options(names: list[str]) -> list[Action]:
    """``take <card>`` for the cards ``names``, in order; identical cards are one choice
    (which copy is taken changes nothing)."""
    opts = []
    for name in names:
        a = take_card(name)
        for b in opts:  # by identity (actions are interned): ``in`` rich-compares the others
            if b is a:
                break
        else:
            opts.append(a)
    return opts


class MarketA(Site):
    """4.1: 4 cards face up each round; each unloaded stone's owner takes one of those left."""

    side = "A"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.size = data["display"]
        self.display: list[str] = []

    def copy_into(self, new: Site) -> None:
        Site.copy_into(self, new)
        n = new
        n.size = self.size
        n.display = self.display[:]

    def round_start(self, g: Game) -> None:
        size = self.size  # typed locals (market.pxd): a C loop
        for _i in range(size):
            c = g.draw()
            if c is not None:
                self.display.append(c)

    def deliver(self, g: Game, owner: int) -> None:
        g._quarry[owner] += 1
        if self.display:
            opts = _take_options(self.display)
            g.ask(MARKET_PICK, owner, opts, (owner,))

    def answer(self, g: Game, kind: int, a: Action, ctx: tuple) -> None:
        owner = ctx[0]
        name = a.args[0]
        self.display.remove(name)
        gain(g, owner, name)

    def round_end(self, g: Game) -> None:
        g.discard.extend(self.display)
        self.display = []


def _keep_one(g: Game, site: Site, owner: int, hand, looked) -> None:
    """The owner looks at ``hand`` (a face-down pair or stack) and keeps one card: the
    site's answer to ``market_keep`` with a ``keep <name>`` action (asked only if there is a
    choice; ``looked``, what the question's context holds, names what was looked at)."""
    opts = [keep_card(name) for name in dict.fromkeys(hand)]
    if len(opts) == 1:  # the question's only answer, given at once (the site's answer: a C call)
        site.answer(g, MARKET_KEEP, opts[0], (owner, looked))
    else:
        g.ask(MARKET_KEEP, owner, opts, (owner, looked))


class MarketB(Site):
    """4.2: ``display`` cards face up plus a face-down pair of ``hidden_pair`` cards. Each
    unloaded stone's owner takes one face-up card, or the pair (while it is there): keeps one
    of its cards and discards the others. What is left is discarded at round end."""

    side = "B"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.size = data["display"]
        self.pair_size = data["hidden_pair"]
        self.display: list[str] = []
        self._hidden_pair: list[str] = []
        self.pair_count = 0  # public: how many face-down cards the pair holds

    def copy_into(self, new: Site) -> None:
        Site.copy_into(self, new)
        n = new
        n.size = self.size
        n.pair_size = self.pair_size
        n.display = self.display[:]
        n._hidden_pair = self._hidden_pair[:]
        n.pair_count = self.pair_count

    def round_start(self, g: Game) -> None:
        for _ in range(self.size):
            c = g.draw()
            if c is not None:
                self.display.append(c)
        for _ in range(self.pair_size):
            c = g.draw()
            if c is not None:
                self._hidden_pair.append(c)
        self.pair_count = len(self._hidden_pair)

    def hidden_cards(self, g: Game, seat: int) -> list[list[str]]:
        return [self._hidden_pair]

    def hidden(self) -> dict[str, list]:
        return {"pair": self._hidden_pair}

    def deliver(self, g: Game, owner: int) -> None:
        g._quarry[owner] += 1
        opts = _take_options(self.display)
        if self._hidden_pair:
            opts.append(TAKE_PAIR)
        if len(opts) > 1:
            g.ask(MARKET_PICK, owner, opts, (owner,))
        elif opts:
            self._pick(g, opts[0], owner)

    def answer(self, g: Game, kind: int, a: Action, ctx: tuple) -> None:
        if kind == MARKET_KEEP:  # asked with (owner, the pair looked at)
            self.keep(g, a, ctx[0], ctx[1])
        else:  # asked with (owner,)
            self._pick(g, a, ctx[0])

    def _pick(self, g: Game, a: Action, owner: int) -> None:
        if a is TAKE_PAIR:
            pair = tuple(self._hidden_pair)  # the owner looks at it: in the question now
            self._hidden_pair = []
            self.pair_count = 0
            _keep_one(g, self, owner, pair, pair)
            return
        name = a.args[0]
        self.display.remove(name)
        gain(g, owner, name)

    def keep(self, g: Game, a: Action, owner: int, pair: tuple[str, ...]) -> None:
        name = a.args[0]
        rest = list(pair)
        rest.remove(name)
        g.discard.extend(rest)
        gain(g, owner, name)

    def round_end(self, g: Game) -> None:
        g.discard.extend(self.display)
        g.discard.extend(self._hidden_pair)
        self.display = []
        self._hidden_pair = []
        self.pair_count = 0


class MarketC(Site):
    """4.3, the Luxury Market: ``display`` cards face up in fixed spaces; each player starts
    with ``coins`` coins. Each unloaded stone's owner takes one card, or pays a coin to take
    the cards of two adjacent spaces (both holding a card: an emptied space between two
    cards breaks adjacency). A stone whose owner finds the display empty takes the top card
    of the draw pile. Coins are worthless at the end.

    ``display[i]`` is the card in space i, or None once taken (public); ``coins[p]`` public,
    a C row (engine/rows.py).
    """

    side = "C"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.size = data["display"]
        self.display: list[str | None] = [None] * self.size
        self.left = 0  # cards still in the display
        self.seats = g.n
        self._coins = fixed([data["coins"]] * g.n, SEATS)
        self.pair_actions = [act("take", i, i + 1) for i in range(self.size - 1)]

    def copy_into(self, new: Site) -> None:
        Site.copy_into(self, new)
        n = new
        n.size = self.size
        n.display = self.display[:]
        n.left = self.left
        n.seats = self.seats
        if COMPILED:  # a C row: copied by value
            n._coins = self._coins
        else:
            n._coins = self._coins[:]
        n.pair_actions = self.pair_actions  # never changed

    @property
    def coins(self) -> list[int]:
        return read(self, "coins", self._coins, self.seats)

    @coins.setter
    def coins(self, values) -> None:
        self._coins = fixed(values, SEATS)

    def round_start(self, g: Game) -> None:
        d = self.display
        for i in range(self.size):
            if d[i] is None:
                d[i] = g.draw()
        self.left = sum([c is not None for c in d])

    def options(self, owner: int) -> list[Action]:
        """The owner's choices while the display holds a card."""
        d = self.display
        coin_left = False
        for p in range(self.seats):
            if self._coins[p]:
                coin_left = True
        spaces: dict[str, list[int]] = {}
        for i, c in enumerate(d):
            if c is not None:
                spaces.setdefault(c, []).append(i)
        opts: list[Action] = []
        for name, where in spaces.items():
            # Which copy is taken only matters for the adjacency of later coin picks.
            if len(where) == 1 or not coin_left:
                opts.append(take_card(name))
            else:
                opts += [act("take", name, i) for i in where]
        if self._coins[owner] > 0:
            opts += [
                a
                for i, a in enumerate(self.pair_actions)
                if d[i] is not None and d[i + 1] is not None
            ]
        return opts

    def deliver(self, g: Game, owner: int) -> None:
        g._quarry[owner] += 1
        if not self.left:
            c = g.draw()  # the display is empty: the top card of the draw pile (4.3)
            if c is not None:
                gain(g, owner, c)
            return
        opts = self.options(owner)
        if len(opts) > 1:
            g.ask(MARKET_PICK, owner, opts, (owner,))
        else:
            self.answer(g, MARKET_PICK, opts[0], (owner,))

    def answer(self, g: Game, kind: int, a: Action, ctx: tuple) -> None:
        owner = ctx[0]
        d = self.display
        args = a.args
        if isinstance(args[0], int):  # a coin for two adjacent cards
            i, j = args
            left, right = d[i], d[j]
            d[i] = d[j] = None
            self.left -= 2
            self._coins[owner] -= 1
            # One after the other, left card first: a red card's delivery is done before
            # the right card is taken.
            g.push(cards.gain, owner, right)
            g.push(cards.gain, owner, left)
            return
        name = args[0]
        i = args[1] if len(args) > 1 else d.index(name)
        d[i] = None
        self.left -= 1
        gain(g, owner, name)

    def round_end(self, g: Game) -> None:
        d = self.display
        g.discard.extend([c for c in d if c is not None])
        self.display = [None] * self.size
        self.left = 0


class MarketD(Site):
    """4.4, the Black Market: ``display`` face-up single cards and ``stacks`` face-down
    stacks of ``stack_size``. Each unloaded stone's owner takes a face-up card, or takes a
    stack, looks at it, keeps one card and puts the rest back face down. At round end the
    face-up cards left are discarded and replaced; the stacks stay and are refilled.

    Public: ``display`` (face-up cards), ``stack_count[i]`` (cards in stack i, read off the
    stacks: a new list). The stacks' cards are ``_hidden_stacks`` (a player who looked at a stack may remember it; the
    engine keeps it simple and hides them from everyone)."""

    side = "D"

    def __init__(self, g: Game, index: int, data):
        super().__init__(g, index, data)
        self.size = data["display"]
        self.stack_size = data["stack_size"]
        stacks = data["stacks"]
        self.display: list[str] = []
        self._hidden_stacks: list[list[str]] = [[] for _ in range(stacks)]
        self.stack_actions = [act("take", "stack", i) for i in range(stacks)]

    def copy_into(self, new: Site) -> None:
        Site.copy_into(self, new)
        n = new
        n.size = self.size
        n.stack_size = self.stack_size
        n.display = self.display[:]
        n._hidden_stacks = [list(stack) for stack in self._hidden_stacks]
        n.stack_actions = self.stack_actions  # never changed

    @property
    def stack_count(self) -> list[int]:
        return [len(stack) for stack in self._hidden_stacks]

    @stack_count.setter
    def stack_count(self, values) -> None:
        # read off the stacks: a scenario sets the stacks (scenario.set_hidden); a count
        # that disagrees with them is refused, not kept
        if list(values) != self.stack_count:
            raise ValueError(f"market.D: stack_count {list(values)} is not the stacks' sizes "
                             f"{self.stack_count} (set the stacks: scenario.set_hidden)")

    def round_start(self, g: Game) -> None:
        for _ in range(self.size - len(self.display)):
            c = g.draw()
            if c is not None:
                self.display.append(c)
        for stack in self._hidden_stacks:
            while len(stack) < self.stack_size:
                c = g.draw()
                if c is None:
                    break
                stack.append(c)

    def hidden_cards(self, g: Game, seat: int) -> list[list[str]]:
        # not the stack ``seat`` is looking at (its ``market_keep``: the options show it)
        looking = g._context[-1] if g.kind_code == MARKET_KEEP and g.to_move == seat else -1
        return [s for i, s in enumerate(self._hidden_stacks) if i != looking]

    def hidden(self) -> dict[str, list]:
        return {"stacks": self._hidden_stacks}

    def deliver(self, g: Game, owner: int) -> None:
        g._quarry[owner] += 1
        opts = _take_options(self.display)
        stacks = self._hidden_stacks
        for i in range(len(stacks)):  # the stacks that hold cards
            if stacks[i]:
                opts.append(self.stack_actions[i])
        if len(opts) > 1:
            g.ask(MARKET_PICK, owner, opts, (owner,))
        elif opts:
            self._pick(g, opts[0], owner)

    def answer(self, g: Game, kind: int, a: Action, ctx: tuple) -> None:
        if kind == MARKET_KEEP:  # asked with (owner, the stack looked at)
            self.keep(g, a, ctx[0], ctx[1])
        else:  # asked with (owner,)
            self._pick(g, a, ctx[0])

    def _pick(self, g: Game, a: Action, owner: int) -> None:
        if a.args[0] == "stack" and len(a.args) == 2:
            i = a.args[1]
            _keep_one(g, self, owner, self._hidden_stacks[i], i)
            return
        name = a.args[0]
        self.display.remove(name)
        gain(g, owner, name)

    def keep(self, g: Game, a: Action, owner: int, i: int) -> None:
        name = a.args[0]
        stack = self._hidden_stacks[i]
        stack.remove(name)  # the rest go back face down
        gain(g, owner, name)

    def round_end(self, g: Game) -> None:
        g.discard.extend(self.display)
        self.display = []


SIDES = {"A": MarketA, "B": MarketB, "C": MarketC, "D": MarketD}

# cython: boundscheck=False, wraparound=False
"""The game: state, decision points, legal actions and the one transition function.

A game is a sequence of decision points (docs/rules.md §2.3). At each one the state knows who
decides (``to_move``, often not the player whose turn it is: market picks, pyramid
choices... are made by the stone's owner), what kind of decision it is (``kind``) and the
legal choices (``options``, in a deterministic order). :func:`apply` performs a choice and
runs the game on to the next decision: chance, unloading, round ends and game end.

Internally, work that may need a decision (unloading a ship stone by stone, a red card's
delivery, a temple bonus...) is a stack of tasks: plain records, tuples of immutable values
whose first item is the task's code. The engine's own tasks (a turn's end, a ship's unloading,
a delivery, a round's end...) are small ints only, run by :func:`_run_task` (compiled: C
calls); ``(CALL, fn, args)`` is a module-level function (never a bound method) of the cards
or a site, with immutable args (ints, names, actions, tuples). A task either finishes or asks
a question with :meth:`Game.ask`: the question is data too (its kind's code ``kind_code``,
engine/kinds.py, ``to_move``, ``options`` and a context tuple); the answer is
dispatched by that code (:func:`_answer`: to the site that answers that kind, or to the card
or module function registered for it), and the stack carries on. So a copy of a game is a flat
copy of its lists (``engine.clone``), and nested decisions (a market card that delivers a
stone to a site that offers a choice) stay simple and in one place.

The module is long because the state, the flow and the task functions are one typed layer
(game.pxd: C calls between them, which a split into modules would turn into imports), and
the small counters' public lists are properties here, one per C row, each reading its own
C field (a cdef class's property cannot be made by a shared helper). It is
compiled without bounds checks or indexes from the end (its first line: they cost in the
search's inner loop): every index here is a seat, ship, slot or dock from the
game's own state or a legal action, and it counts nothing from the end (no ``[-1]``);
``Game.score``, which every site's scoring calls, checks its seat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from imhotep_stats.engine import cards, kinds
from imhotep_stats.engine import chance as chance_module
from imhotep_stats.engine import prophecies as prophecy_module
from imhotep_stats.engine.actions import (  # noqa: F401 (PLACE, SAIL: the bots import them here)
    GET,
    GET_CODE,
    PASS,
    PASS_CODE,
    PLACE,
    PLACE_CODE,
    PLAY_CODE,
    SAIL,
    SAIL_CODE,
    SHIP_PLACES,
    UNLOAD,
    Action,
    open_places,
    sail_options,
)
from imhotep_stats.engine.chance import fast_shuffle, reshuffle
from imhotep_stats.engine.kinds import ANSWERED_BY, CODE, NAMES, by_code
from imhotep_stats.engine.result import best_seats
from imhotep_stats.engine.rows import fixed, make, read
from imhotep_stats.engine.setup_checks import (
    RulesError,
    check_deck,
    check_round_cards,
    is_whole,
    parse_sides,
)
from imhotep_stats.engine.sites import make_site
from imhotep_stats.rules.board import Board, default_board

MARKET, PYRAMID, TEMPLE, BURIAL_CHAMBER, OBELISK = range(5)

try:  # Cython's constant: True in the compiled module, False in pure Python
    import cython

    COMPILED = cython.compiled
except ImportError:  # pure Python without Cython installed
    COMPILED = False

# Task codes (the first item of a task record, see the module's docstring): the engine's own
# tasks, then CALL, a module function's.
END_TURN, AFTER_SAIL, UNLOAD_SHIP, UNLOAD_STONE, LEVER_NEXT, DELIVER, ROUND_END, NEXT_ROUND, CALL = range(9)

# No question pending, and the turn (engine/kinds.py): C longs compiled (game.pxd), so the
# checks at every decision are C compares, not compares with imported Python ints.
NONE = kinds.NONE
TURN = kinds.TURN

LEVER_UNLOAD = CODE["lever_unload"]  # the Lever's question (engine/kinds.py), answered here


# The small counters (per seat: sled, quarry, capacity, blue cards, points, blue kinds held,
# red cards kept, cards taken; per ship: its
# minimum, load and dock; per site: ships docked there) are fixed-size C arrays of the
# compiled Game (game.pxd ``_sled`` ...), read and written by the engine as ``g._sled[p]``:
# a C load or store, no int object. Everyone else reads them as lists by their public names
# (the properties below, engine/rows.py): in pure Python the row itself, compiled a copy (a ``Row``) whose
# item writes go back to the game, so ``g.sled[1] = 0`` and ``g.sled == [2, 3]`` work in both.
SEATS, SHIPS, DOCKS = 4, 4, 5  # the C rows' sizes (game.pxd): at most 4 players
# The ships' slots are one row too, in both builds (``_slots``: slot k of ship s at
# 4 s + k, -1 empty, -2 unloaded; ``_ship_size``: each ship's slots this round), and
# ``ship_slots`` their lists, ship by ship, each a Row in both builds.
SLOTS = 16  # 4 ships of at most 4 slots


def _list_rows(g: Game, players: int) -> None:
    """Pure Python, a new game's rows as lists (compiled, they are C arrays of the game,
    zero-filled with it): the seats' counters at 0 (the sled, quarry and capacity set after
    this), the ships' and the docks' in their sizes (each round's start sets them)."""
    for name in ("_sled", "_quarry", "_sled_cap", "_blue", "_blue_kinds", "_red_kept",
                 "_cards_taken", "_totals"):
        setattr(g, name, fixed([0] * players, SEATS))
    g._slots = fixed([-1] * SLOTS, SLOTS)
    for name in ("_ship_size", "_ship_min", "_ship_load", "_ship_dock"):
        setattr(g, name, fixed([0] * SHIPS, SHIPS))
    g._dock_used = fixed([0] * DOCKS, DOCKS)
    g._hand = [0] * (cards.HAND * players)  # each seat's row of card counts (cards.py)


def ship_minimum(size: int) -> int:
    """Stones a ship of ``size`` needs to sail: one less than its size, at least 1 (docs/rules.md §1.1)."""
    return max(size - 1, 1)


_SHIPS: dict[tuple[int, ...], tuple] = {}  # by round card (a dict: cheaper than lru_cache's call)


def _ships(sizes: tuple[int, ...]) -> tuple[tuple[int, ...], int, int]:
    """A round card's ship minimums (one stone less than the size, at least 1), open
    slots (an ``open_mask``: every slot) and slots, shared by every round dealt that card."""
    ships = _SHIPS.get(sizes)
    if ships is None:
        mins = tuple([ship_minimum(size) for size in sizes])
        mask = sum([((1 << sizes[s]) - 1) << 4 * s for s in range(4)])
        ships = _SHIPS[sizes] = (mins, mask, sum(sizes))
    return ships


@lru_cache(maxsize=64)
def _prepared(board: Board, players: int, expansion: bool) -> tuple:
    """What every game on this board shares: the round-card pool, the unshuffled deck and
    the card point tables (boards are immutable, so this is cached per board)."""
    pool = tuple(tuple(c) for c in board.round_cards(players))
    return pool, tuple(cards.build_deck(board, expansion)), cards.CardPoints(board)


class Game:
    """The full state of one game. Bots never see it: they get a :class:`View`."""

    def __init__(
        self,
        players: int,
        sides: str | Sequence[str] = "A-A-A-A-A",
        *,
        board: Board | None = None,
        seed: int | str = 0,
        expansion: bool | None = None,
        prophecies: bool = False,
        round_cards: Sequence[Sequence[int]] | None = None,
        deck: Sequence[str] | None = None,
        scenario: bool = False,
        chance: dict[str, list] | None = None,
        reshuffles: Sequence[Sequence[str]] | None = None,
    ):
        if not is_whole(players) or players not in (2, 3, 4):
            raise RulesError(f"players: expected 2, 3 or 4, got {players!r}")
        self.board = board = board or default_board()
        self.n = players
        self.sides = parse_sides(sides)
        self.seed = seed
        if expansion is None:
            expansion = prophecies or "C" in self.sides or "D" in self.sides
        self.expansion = expansion
        self.prophecies = prophecies
        rules = board.game
        self.rounds: int = rules["rounds"]
        # Chance (engine/chance.py): a stream per purpose, derived from the seed only, so that
        # no outcome depends on how another purpose (or a pinned one) consumed its draws.
        self.scenario = scenario
        self.pinned = chance_module.check_pins(chance)
        self.chance_setup: dict[str, list] = {}  # the set-up picks (chance.pick): then never changed
        self.pinned_reshuffles = list(reshuffles or ())
        self.reshuffles: list[list[str]] = []  # every reshuffle's new draw pile, top first
        self.rng_reshuffle = None  # the "reshuffle" stream, opened at the first reshuffle

        stones = rules["stones_two_colour"] if (expansion and players == 2) else rules["stones"]
        self.stones_total = stones
        start = rules["starting_sled"]
        # the rows set directly, not through their properties (a Python call each, every game)
        if not COMPILED:  # compiled, they are C arrays, zero-filled with the game
            _list_rows(self, players)
        cap = rules["sled_capacity"]
        for p in range(players):
            self._sled[p] = start[p]
            self._quarry[p] = stones - start[p]
            self._sled_cap[p] = cap
        self.get_stones = rules["get_stones"]

        # Round cards (docs/rules.md §1.1): remove 1 of the 7 unseen, shuffle the other 6.
        # The "deal" stream shuffles the round cards, then the deck, both always (a few
        # draws), so that a given one never shifts the other's outcome.
        pool, base_deck, self.card_points = _prepared(board, players, expansion)
        deal = chance_module.stream(seed, "deal")
        dealt = list(pool)
        fast_shuffle(deal, dealt)
        if round_cards is None:
            if not 1 <= self.rounds <= len(pool) - 1:
                raise RulesError(
                    f"game.rounds: expected 1 to {len(pool) - 1} (one of the {len(pool)} round "
                    f"cards is removed at setup), got {self.rounds}"
                )
            self.round_cards = dealt[1 : 1 + self.rounds]
        else:
            self.round_cards = check_round_cards(round_cards, pool, self.rounds, players, scenario)

        # Market deck (docs/rules.md §3): the draw pile's top is the END of self.deck.
        shuffled = list(base_deck)
        fast_shuffle(deal, shuffled)
        if deck is None:
            deck = shuffled
        else:
            deck = check_deck(deck, base_deck, scenario)[::-1]  # given top first
        self.deck: list[str] = list(deck)
        self.deck_initial = list(reversed(self.deck))  # top first, for transcripts
        self.discard: list[str] = []
        # (the hands' row _hand, _blue, _blue_kinds, _red_kept, _cards_taken: 0 for every
        # seat, _list_rows)
        self.took: list[dict[str, int]] = [{} for _ in range(players)]  # taken, by card name

        # Scoring: events (seat, source, points, round) and running totals (_totals: 0).
        self.events: list[tuple[int, str, int, int]] = []

        # Flow.
        self.round = 0
        self.current = 0  # whose turn it is
        self.start_player = 0
        self.passes = 0
        self.last_sailer = -1
        self.round_over = False
        self.skip_advance = False  # the round ended during this turn: no clockwise step
        self.over = False
        self.decisions = 0
        self.stack: list[tuple] = []  # task records (code, ...): _run_task
        self.to_move = -1
        self.kind_code = NONE  # the pending question's kind (engine/kinds.py), NONE: none
        self._options: list[Action] | None = []  # None: the turn's, built when read (options)
        self._context: tuple = ()  # the pending question's context (immutable values)
        self.get_actions: tuple[Action, ...] = (GET,)  # Pyramid D adds "get move"
        # prophecies' functions; a tuple (``+= (hook,)``), so a copy shares it
        self.turn_start_hooks: tuple[Callable[[Game, int], bool], ...] = ()
        self.prophecy = None  # the prophecies module's state, when it plays

        self.sites = [make_site(self, i, self.sides[i]) for i in range(5)]
        # the sites with round rules, as indexes (tuples: a copy shares them)
        self._round_start_sites = tuple(s.index for s in self.sites if s.has_round_start)
        # Round end (docs/rules.md §2.4): the temple scores before the market's leftovers are
        # discarded (a temple draw must not find them), then the other sites.
        self._round_end_sites = tuple(sorted(
            (s.index for s in self.sites if s.has_round_end), key=lambda i: i != TEMPLE
        ))
        if prophecies:
            prophecy_module.setup(self)
        chance_module.check_used(self)
        self._start_round(0)  # the ships' rows and the docks' (_list_rows), set each round
        self._advance()

    # ------------------------------------------------------------------ helpers for rules
    def score(self, seat: int, source: str, points: int) -> None:
        """Record a score event (docs/rules.md §2.6): every point has a source and a round
        (a search's copy keeps no events: ``engine.clone``'s ``report``)."""
        if points:
            if seat < 0 or seat >= self.n:  # the module indexes unchecked (its first line)
                raise IndexError(f"score: no seat {seat} in a {self.n}-player game ({source})")
            if self.events is not None:
                self.events.append((seat, source, points, self.round))
            self._totals[seat] += points

    # the small counters by their public names (engine/rows.py)
    @property
    def sled(self) -> list[int]:
        return read(self, "sled", self._sled, self.n)

    @sled.setter
    def sled(self, values) -> None:
        self._sled = fixed(values, SEATS)

    @property
    def quarry(self) -> list[int]:
        return read(self, "quarry", self._quarry, self.n)

    @quarry.setter
    def quarry(self, values) -> None:
        self._quarry = fixed(values, SEATS)

    @property
    def sled_cap(self) -> list[int]:
        return read(self, "sled_cap", self._sled_cap, self.n)

    @sled_cap.setter
    def sled_cap(self, values) -> None:
        self._sled_cap = fixed(values, SEATS)

    @property
    def blue(self) -> list[int]:
        return read(self, "blue", self._blue, self.n)

    @blue.setter
    def blue(self, values) -> None:
        self._blue = fixed(values, SEATS)

    @property
    def totals(self) -> list[int]:
        return read(self, "totals", self._totals, self.n)

    @totals.setter
    def totals(self, values) -> None:
        self._totals = fixed(values, SEATS)

    @property
    def blue_kinds(self) -> list[int]:
        return read(self, "blue_kinds", self._blue_kinds, self.n)

    @blue_kinds.setter
    def blue_kinds(self, values) -> None:
        self._blue_kinds = fixed(values, SEATS)

    @property
    def red_kept(self) -> list[int]:
        return read(self, "red_kept", self._red_kept, self.n)

    @red_kept.setter
    def red_kept(self, values) -> None:
        self._red_kept = fixed(values, SEATS)

    @property
    def cards_taken(self) -> list[int]:
        return read(self, "cards_taken", self._cards_taken, self.n)

    @cards_taken.setter
    def cards_taken(self, values) -> None:
        self._cards_taken = fixed(values, SEATS)

    @property
    def ship_min(self) -> list[int]:
        return read(self, "ship_min", self._ship_min, SHIPS)

    @ship_min.setter
    def ship_min(self, values) -> None:
        self._ship_min = fixed(values, SHIPS)

    @property
    def ship_load(self) -> list[int]:
        return read(self, "ship_load", self._ship_load, SHIPS)

    @ship_load.setter
    def ship_load(self, values) -> None:
        self._ship_load = fixed(values, SHIPS)

    @property
    def ship_dock(self) -> list[int]:
        return read(self, "ship_dock", self._ship_dock, SHIPS)

    @ship_dock.setter
    def ship_dock(self, values) -> None:
        self._ship_dock = fixed(values, SHIPS)

    @property
    def dock_used(self) -> list[int]:
        return read(self, "dock_used", self._dock_used, DOCKS)

    @dock_used.setter
    def dock_used(self, values) -> None:
        self._dock_used = fixed(values, DOCKS)

    @property
    def hand(self) -> list[dict[str, int]]:
        """Each seat's held cards by name (a copy: a count written, a card deleted or a
        seat's hand set whole goes back to the game, cards.Hands)."""
        return cards.hands(self)

    @hand.setter
    def hand(self, hands) -> None:
        for p in range(self.n):
            cards.set_hand(self, p, hands[p])

    @property
    def ship_slots(self) -> list[list[int]]:
        """Each ship's slots (owner, -1 empty, -2 unloaded), ship by ship: Rows whose item
        writes go back to the game."""
        ships = []
        for s in range(4):
            ships.append(make([self._slots[4 * s + k] for k in range(self._ship_size[s])],
                              self, "ship_slots", s))
        return ships

    def set_ship_slots(self, s: int, slots: Sequence[int]) -> None:
        """Ship s's slots become ``slots`` (a scenario's, or a Row's write)."""
        if len(slots) > 4:
            raise ValueError(f"ship {s}: at most 4 slots, got {len(slots)}")
        self._ship_size[s] = len(slots)
        for k in range(len(slots)):
            self._slots[4 * s + k] = slots[k]

    @property
    def kind(self) -> str | None:
        """The pending question's kind by name (``"turn"``, ``"market_pick"``...), None
        when none: ``kind_code`` as people and files see it."""
        return NAMES[self.kind_code]

    def ask(self, kind: int, player: int, options: list[Action], ctx: tuple = ()) -> None:
        """Stop at a decision point: ``player`` chooses one of ``options``; the answer goes,
        with the values of ``ctx`` (a tuple of immutable values) as its last arguments, to
        whoever answers ``kind``, a code of engine/kinds.py (:func:`_answer`)."""
        self.kind_code = kind
        self.to_move = player
        self._options = options
        self._context = ctx

    @property
    def options(self) -> list[Action]:
        """The legal choices at this decision point, in a fixed order (a turn's are built at
        the first read: a random rollout draws its choice by index without them)."""
        return options_of(self)

    @options.setter
    def options(self, options: list[Action]) -> None:
        self._options = options

    def push(self, fn: Callable, *args: Any) -> None:
        """Schedule ``fn(game, *args)`` (a module-level function, immutable args); the last
        pushed runs first."""
        self.stack.append((CALL, fn, args))

    def draw(self) -> str | None:
        """Top card of the market draw pile; an empty pile is the shuffled discard pile."""
        if not self.deck:
            if not self.discard:
                return None
            reshuffle(self)
        return self.deck.pop()

    def chance_pick(self, purpose: str, population: Sequence, k: int) -> list:
        """``k`` distinct items of ``population`` in order, for a site or module's setup
        (scaffold tiles, tomb tokens...): pinned by the caller or drawn (engine/chance.py)."""
        return chance_module.pick(self, purpose, population, k)

    def sled_to_capacity(self, p: int, stones: int) -> int:
        """Move up to ``stones`` from the quarry to the sled, within capacity."""
        room = self._sled_cap[p] - self._sled[p]  # room, quarry, k: typed locals (game.pxd)
        quarry = self._quarry[p]
        k = min(stones, room, quarry)
        if k > 0:
            self._quarry[p] -= k
            self._sled[p] += k
            return k
        return 0

    def schedule_from_quarry(self, p: int, site: int) -> None:
        """A red card or bonus sends a stone from the quarry to a site (if any): a task."""
        if self._quarry[p] > 0:
            self._quarry[p] -= 1
            self.stack.append((DELIVER, site, p))

    def schedule_delivery(self, p: int, site: int) -> None:
        """A stone of p, already taken from where it was (the Barge: the sled), is sent to a
        site: a task, like every delivery (the site's ``deliver`` performs it)."""
        self.stack.append((DELIVER, site, p))

    def empty_slots(self, ships: Sequence[int] | None = None) -> list[Action]:
        """Place actions for every empty slot of every unsailed ship (or of ``ships``)."""
        mask = self.open_mask
        if ships is not None:
            keep = 0
            for s in set(ships):
                keep |= 15 << 4 * s
            mask &= keep
        return open_places(mask)

    def put_on_ship(self, p: int, s: int, k: int) -> None:
        """A stone of ``p`` goes onto slot k of ship s (its origin already debited)."""
        self._slots[4 * s + k] = p
        load = self._ship_load[s] + 1  # load, need: typed locals (game.pxd), a C compare
        need = self._ship_min[s]
        self._ship_load[s] = load
        self.ship_free -= 1
        self.open_mask &= ~(1 << (4 * s + k))  # ship_free is its count of bits
        if load == need:
            self.ships_ready |= 1 << s  # this ship can now sail

    # ------------------------------------------------------------------ the flow of play
    def _start_round(self, start: int) -> None:
        self.round += 1
        sizes = self.round_cards[self.round - 1]
        mins, self.open_mask, self.ship_free = _ships(sizes)
        self.ship_sizes = sizes
        for k in range(SLOTS):  # compiled, C stores
            self._slots[k] = -1
        for s in range(4):
            self._ship_size[s] = sizes[s]
            self._ship_min[s] = mins[s]
            self._ship_load[s] = 0
            self._ship_dock[s] = -1
        # Bitmasks kept up to date for the sail actions: unsailed ships holding their
        # minimum, and docks with no ship yet.
        self.ships_ready = 0
        self.docks_free = 0b11111
        for s in range(5):
            self._dock_used[s] = 0
        self.sailed = 0
        self.passes = 0
        self.start_player = self.current = start
        for i in self._round_start_sites:
            site = self.sites[i]
            site.round_start(self)

    def _advance(self) -> None:
        """Run tasks until a decision is needed or the game is over."""
        if self.kind_code != NONE:  # the last answer already asked the next question
            return
        stack = self.stack
        while True:
            if stack:
                _run_task(self, stack.pop())
                if self.kind_code != NONE:
                    return
                continue
            if self.over:
                self.to_move = -1
                self._options = []
                return
            p = self.current
            if self.turn_start_hooks:
                for hook in self.turn_start_hooks:
                    hook(self, p)
                if self.kind_code != NONE:
                    return
            self.kind_code = TURN
            self.to_move = p
            self._options = None  # built when read (options_of)
            return

    def _turn_options(self, p: int) -> list[Action]:
        """The legal turn actions (docs/rules.md §2.2), in a fixed order: get, place, sail, cards."""
        opts: list[Action] = []
        sled = self._sled[p]
        if sled < self._sled_cap[p] and self._quarry[p] > 0:
            opts.extend(self.get_actions)
        if sled > 0:
            mask = self.open_mask  # open_places, inline: no list of its own
            for s in range(4):
                opts.extend(SHIP_PLACES[16 * s + (mask >> 4 * s & 15)])
        opts.extend(sail_options(self.ships_ready, self.docks_free))
        if self._blue[p]:
            cards.blue_options(self, p, opts)
        if not opts:
            opts.append(PASS)
        return opts

    def sail_actions(self, ships: Sequence[int] | None = None) -> list[Action]:
        """Sail actions: ships holding their minimum (of ``ships``: all by default), ship by
        ship, to each free dock."""
        ready = self.ships_ready
        if ships is not None:
            ready &= sum(1 << s for s in set(ships))
        return list(sail_options(ready, self.docks_free))

    def sail(self, p: int, s: int, site: int, *, lever: bool = False) -> None:
        """Ship s docks at ``site`` and is unloaded at once, bow to stern (docs/rules.md §2.3)."""
        self._sail(p, s, site, lever)

    def _sail(self, p: int, s: int, site: int, lever: bool) -> None:
        # `sail` with positional arguments only: compiled, a direct C call (game.pxd)
        self._ship_dock[s] = site
        self._dock_used[site] += 1
        self.ships_ready &= ~(1 << s)
        self.docks_free &= ~(1 << site)
        self.sailed += 1
        self.last_sailer = p
        size = self.ship_sizes[s]  # size, load: typed locals (game.pxd), a C subtraction
        load = self._ship_load[s]
        self.ship_free -= size - load
        self.open_mask &= ~(15 << 4 * s)  # the other ships' places
        stack = self.stack
        if lever:
            stack.append(_AFTER_SAIL)
            stack.append((LEVER_NEXT, s, site, p))
            return
        depth = len(stack)
        _unload_ship(self, s, site, 0)
        _then(self, depth, _AFTER_SAIL)

    def _end_round(self, next_start: int) -> None:
        """Round end (docs/rules.md §2.4): site round-end rules, then the next round or game end."""
        self.round_over = True
        stack = self.stack
        stack.append((NEXT_ROUND, next_start))
        for i in reversed(self._round_end_sites):
            stack.append((ROUND_END, i))

    def _game_end(self) -> None:
        """Final scoring, in the rulebook's order (docs/rules.md §2.5)."""
        self.round = self.rounds + 1  # game-end events carry round = rounds + 1
        for i in (BURIAL_CHAMBER, OBELISK, TEMPLE):
            at = self.sites[i]
            at.game_end(self)
        cards.score_game_end(self)
        if self.prophecies:
            prophecy_module.score(self)
        self.over = True

    def score_game_end_now(self) -> None:
        """Run the game-end scoring on this game as it stands (a search's estimate of an
        unfinished copy: the copy is spent, it cannot be played on)."""
        self._game_end()

    # ------------------------------------------------------------------ queries
    def ship_stones_of(self, p: int) -> int:
        """Stones of ``p`` still on a ship (unsailed, or sailed and not yet unloaded)."""
        return sum(slots.count(p) for slots in self.ship_slots)

    def winners(self) -> list[int]:
        """Seats sharing the win: highest total, then most stones on the sled (docs/rules.md §2.5)."""
        n = self.n
        return best_seats([self._totals[p] for p in range(n)], [self._sled[p] for p in range(n)])


# ---------------------------------------------------------------------- tasks
def _deliver(g: Game, site: int, owner: int) -> None:
    at = g.sites[site]  # compiled, a Site: its deliver is a C call (game.pxd)
    at.deliver(g, owner)


def _after_sail(g: Game) -> None:
    if g.sailed == 4 and not g.round_over:
        g._end_round((g.last_sailer + 1) % g.n)
        g.skip_advance = True


def _unload_ship(g: Game, s: int, site: int, start: int) -> None:
    """Unload ship s from slot ``start`` on, bow to stern: each stone is handed to the
    site. A delivery that asks a question or starts tasks is finished before the next
    stone: the rest of the unloading waits under it as a task."""
    size = g._ship_size[s]
    at = g.sites[site]
    stack = g.stack
    depth = len(stack)
    for k in range(start, size):
        owner = g._slots[4 * s + k]
        if owner < 0:
            continue
        g._slots[4 * s + k] = -2  # unloaded: neither a stone nor an empty slot
        at.deliver(g, owner)
        if g.kind_code != NONE or len(stack) > depth:
            if k + 1 < size:
                stack.insert(depth, (UNLOAD_SHIP, s, site, k + 1))
            return


def _unload(g: Game, s: int, k: int, site: int) -> None:
    """The stone in slot k of ship s leaves the ship and is handed to the site."""
    owner = g._slots[4 * s + k]
    g._slots[4 * s + k] = -2  # unloaded: neither a stone nor an empty slot
    at = g.sites[site]
    at.deliver(g, owner)


def _lever_next(g: Game, s: int, site: int, p: int) -> None:
    """Lever: the sailing player picks which remaining stone is unloaded next."""
    opts = [UNLOAD[k] for k in range(g._ship_size[s]) if g._slots[4 * s + k] >= 0]
    if opts:
        g.ask(LEVER_UNLOAD, p, opts, (s, site, p))


def _lever_unload(g: Game, a: Action, s: int, site: int, p: int) -> None:
    g.stack.append((LEVER_NEXT, s, site, p))
    g.stack.append((UNLOAD_STONE, s, a.args[0], site))


def _next_round(g: Game, next_start: int) -> None:
    g.round_over = False
    # Stones left on ships that never sailed (a full cycle of passes) leave with them;
    # they go back to their owners' quarries (docs/rules.md §2.2 leaves them unused). A ship
    # that sailed was unloaded to the last stone.
    for s in range(4):
        if g._ship_dock[s] >= 0:
            continue
        for k in range(g._ship_size[s]):
            o = g._slots[4 * s + k]
            if o >= 0:
                g._quarry[o] += 1
                g._slots[4 * s + k] = -2
    if g.round >= g.rounds:
        g._game_end()
    else:
        g._start_round(next_start)


def _end_turn(g: Game) -> None:
    if g.skip_advance:  # the 4th ship sailed: the next round's start player is already set
        g.skip_advance = False
        return
    n = g.n
    if g.passes >= n:  # a full cycle of passes ends the round at once (docs/rules.md §2.2)
        g._end_round((g.current + 1) % n)
        return
    g.current = (g.current + 1) % n


# ---------------------------------------------------------------------- the interface
def legal_actions(g: Game) -> list[Action]:
    """The legal choices at the current decision point, in a deterministic order."""
    return options_of(g)


def options_of(g: Game) -> list[Action]:
    """``g.options``: a turn's built at the first read (the same list eager building gave:
    nothing changes the state between a decision point and its first read)."""
    opts = g._options
    if opts is None:
        opts = g._options = g._turn_options(g.to_move)
    return opts


class IllegalAction(ValueError):
    pass


def is_option(options: list, a: Action) -> bool:
    """``a in options``, by identity (actions are interned)."""
    if COMPILED:  # a C loop of pointer compares (``in`` rich-compares every other action)
        for x in options:
            if x is a:
                return True
        return False
    return a in options  # pure Python: the built-in is faster


def apply(g: Game, a: Action) -> None:
    """Perform ``a`` for ``g.to_move`` and advance to the next decision point."""
    opts = g._options
    if opts is None:  # inline: a call to options_of at every apply costs more
        opts = options_of(g)
    # a C loop compiled; pure Python, the built-in ``in`` (a call would cost more)
    legal = is_option(opts, a) if COMPILED else a in opts
    if not legal:
        raise IllegalAction(
            f"{a} is not legal for seat {g.to_move} at a {g.kind} decision; legal: "
            + ", ".join(map(str, opts))
        )
    _perform(g, a)


def _perform(g: Game, a: Action) -> None:
    """Perform the legal action ``a`` (apply's work once it is checked)."""
    g.decisions += 1
    if g.decisions > 100_000:  # MAX_DECISIONS (a literal: one C comparison when compiled)
        _endless(g)
    if g.kind_code == TURN:
        g.kind_code = NONE
        _turn(g, g.to_move, a)
        if not g.stack:  # the common case: a simple action, straight to the next turn
            g.kind_code = TURN
            g.to_move = g.current
            if g.turn_start_hooks:
                g.kind_code = NONE
                g._advance()
            else:
                g._options = None  # built when read (options_of)
            return
    else:
        kind = g.kind_code
        g.kind_code = NONE
        _answer(g, kind, a)
    # A card played as the turn or a resolver may already have asked the next question;
    # _advance then returns at once (it checks, so the check is not repeated here).
    g._advance()


def _answer(g: Game, kind: int, a: Action) -> None:
    """The answer to a question goes, by its kind's code, to the site that answers it
    (engine/kinds.py ``ANSWERED_BY``: ``Site.answer``, given the context tuple), else to the
    function registered for it (``ANSWERS``), with the question's context as its arguments."""
    site = ANSWERED_BY[kind]
    if site >= 0:
        at = g.sites[site]  # compiled, a Site: its answer is a C call (game.pxd)
        at.answer(g, kind, a, g._context)
    else:
        ANSWERS[kind](g, a, *g._context)


MAX_DECISIONS = 100_000  # far above any game the board limits allow (rules/limits.py)


def _endless(g: Game) -> None:
    """A game past MAX_DECISIONS has a round that cannot end: stop, naming what changed."""
    changed = [f"{sd.name}.{k}" for sd in g.board.sides.values() for k in sd.overridden]
    changed += [t for t in g.board.overridden if t not in g.board.sides]
    raise RulesError(
        f"round {g.round} did not end after {g.decisions - 1:,} decisions: the board data "
        "lets a round go on forever"
        + (f" (overridden: {', '.join(changed)})" if changed else ""))


def play_seats(g: Game, seats: list, on_decision: Callable[[Game, Action], None] | None) -> None:
    """Play ``g`` to the end (``play.play_game``): ``seats[p]`` is seat p's (its bot's
    ``choose``, its view, its random stream); ``on_decision(g, action)`` before each apply.
    A bot gets the legal actions as a tuple (the game's own list stays out of its reach)."""
    while not g.over:
        choose, view, rng = seats[g.to_move]
        a = choose(view, tuple(options_of(g)), rng)
        if on_decision is not None:
            on_decision(g, a)
        apply(g, a)


def _turn(g: Game, p: int, a: Action) -> None:
    """A turn action (docs/rules.md §2.2). Simple actions end the turn at once; the others
    schedule the end of the turn under the tasks they start."""
    c = a.code  # the kind's code (engine/actions.py): compiled, C fields and C compares
    if c == PLACE_CODE:
        g.passes = 0
        g._sled[p] -= 1
        g.put_on_ship(p, a.n0, a.n1)
        _end_turn(g)
    elif c == GET_CODE:
        g.passes = 0
        g.sled_to_capacity(p, g.get_stones)
        if a.args:
            at = g.sites[PYRAMID]  # compiled, a Site: its on_get is a C call (game.pxd)
            at.on_get(g, p, a)
        _end_turn(g)
    elif c == PASS_CODE:
        g.passes += 1
        _end_turn(g)
    else:
        g.passes = 0
        depth = len(g.stack)
        if c == SAIL_CODE:
            g._sail(p, a.n0, a.n1, False)
        elif c == PLAY_CODE:
            cards.play_blue(g, p, a.args[0])
        else:
            raise IllegalAction(f"unknown turn action {a}")
        _then(g, depth, _END_TURN)


def _then(g: Game, depth: int, task: tuple) -> None:
    """Run ``task`` after the work done since the stack was ``depth`` deep: now, or, if that
    work asked a question or left tasks, under them (as if pushed before it: the same order,
    without a push and a pop, each a realloc of a stack this small)."""
    if g.kind_code != NONE or len(g.stack) > depth:
        g.stack.insert(depth, task)
    else:
        _run_task(g, task)


def _run_task(g: Game, t: tuple) -> None:
    """Run one task record (the task codes above): the engine's own by code, CALL's function
    with its arguments."""
    code = t[0]
    if code == END_TURN:
        _end_turn(g)
    elif code == AFTER_SAIL:
        _after_sail(g)
    elif code == UNLOAD_SHIP:
        _unload_ship(g, t[1], t[2], t[3])
    elif code == DELIVER:
        _deliver(g, t[1], t[2])
    elif code == ROUND_END:
        at = g.sites[t[1]]
        at.round_end(g)
    elif code == NEXT_ROUND:
        _next_round(g, t[1])
    elif code == UNLOAD_STONE:
        _unload(g, t[1], t[2], t[3])
    elif code == LEVER_NEXT:
        _lever_next(g, t[1], t[2], t[3])
    else:
        t[1](g, *t[2])


_END_TURN = (END_TURN,)
_AFTER_SAIL = (AFTER_SAIL,)

# Who answers the questions that no site asks, by kind code: the blue cards, the Lever, the
# prophecies (None for the others).
ANSWERS: tuple = by_code({**cards.ANSWERS, LEVER_UNLOAD: _lever_unload,
                          prophecy_module.PROPHECY: prophecy_module.answer})

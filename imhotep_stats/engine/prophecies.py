"""The gods' prophecies, an optional module of the expansion (docs/rules.md §9).

Setup: ``cards_in_play`` of the gods are drawn at random (the game's own ``prophecies``
chance stream); each player has ``scarabs`` scarabs. At the start of each of their turns a
player may place one scarab on a god card, as a free addition before the turn's action:
at most one scarab per window (``windows``: rounds 1-2, 3-4, 5-6) and at most one per card
per player. Game end: a fulfilled prophecy gains ``fulfilled[w]``, a failed one loses
``failed[w]`` (negative numbers in the data), ``w`` the window the scarab was placed in;
source ``prophecy``. All numbers: ``[prophecies]`` in data/game.toml.

Decision kinds and their notation:

==========  ================  =====================================================
kind        action text       meaning
==========  ================  =====================================================
prophecy    ``scarab amun``   place a scarab on the Amun card now (window of the
                              current round); then the turn goes on as usual
prophecy    ``no scarab``     place nothing this turn
==========  ================  =====================================================

The question is only asked when a placement is possible (a scarab left, none placed in the
current window yet, a card without the player's scarab); it is asked once per turn, then
the same player's normal turn decision follows.

Tasks (all "most" tasks are fulfilled by a shared majority):

=======  ==========================================================================
god      the player must have, at game end, the most (ties included) ...
=======  ==========================================================================
amun     red market cards kept face up (``g.red_kept``)
ra       stones in the Temple
horus    stones at the Pyramid
osiris   stones in the Burial Chamber
thoth    stones at the Obelisks
hathor   market cards in front of them: every card held (blue not yet played, green,
         purple, kept cards) plus the used red cards kept face up
anubis   stones on their sled
=======  ==========================================================================

Ruling for a gap in the rules: a "most" task needs at least 1 (of the cards or stones it
counts); a shared majority of nothing fulfils nobody's prophecy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from imhotep_stats.engine.actions import act
from imhotep_stats.engine.cards import held_total
from imhotep_stats.engine.kinds import CODE

if TYPE_CHECKING:
    from imhotep_stats.engine.actions import Action
    from imhotep_stats.engine.game import Game

PROPHECY = CODE["prophecy"]
NO_SCARAB = act("no", "scarab")

# The site each stone-majority god counts (site indexes: rules.SITES).
GOD_SITE = {"ra": 2, "horus": 1, "osiris": 3, "thoth": 4}


def _counts(g: Game, god: str) -> list[int]:
    """What the god's task counts, per player, at game end."""
    n = g.n
    if god == "amun":
        return list(g.red_kept)
    if god == "hathor":
        return [held_total(g, p) + g.red_kept[p] for p in range(n)]
    if god == "anubis":
        return list(g.sled)
    site = g.sites[GOD_SITE[god]]
    return [site.stones_of(p) for p in range(n)]


class Prophecies:
    """The module's state: public information (cards and scarabs are on the table)."""

    def __init__(self, g: Game):
        table = g.board.tables["prophecies"]
        gods = list(table["gods"])
        unknown = [x for x in gods if x not in GOD_SITE and x not in ("amun", "hathor", "anubis")]
        if unknown:
            raise ValueError(f"prophecies.gods: unknown gods {unknown}")
        self.gods: tuple[str, ...] = tuple(g.chance_pick("prophecies", gods, table["cards_in_play"]))
        self.scarab_action = {god: act("scarab", god) for god in self.gods}
        self.fulfilled = tuple(table["fulfilled"])
        self.failed = tuple(table["failed"])
        self.window_of: dict[int, int] = {r: w for w, rounds in enumerate(table["windows"]) for r in rounds}
        windows = len(table["windows"])
        self.left = [table["scarabs"]] * g.n  # scarabs not yet placed
        self.window_used = [[False] * windows for _ in range(g.n)]
        self.placed: list[list[tuple[str, int]]] = [[] for _ in range(g.n)]  # (god, window)
        self.answered = False  # the current turn's question was answered: do not ask again

    def copy(self) -> Prophecies:
        """An independent copy (``engine.clone``): the tables shared, the scarabs copied."""
        new = object.__new__(Prophecies)
        new.__dict__.update(self.__dict__)
        new.left = list(self.left)
        new.window_used = [list(w) for w in self.window_used]
        new.placed = [list(x) for x in self.placed]  # of (god, window) tuples
        return new

    def outcome(self, g: Game) -> list[list[tuple[str, int, bool, int]]]:
        """Per player: (god, window, fulfilled, points) for each scarab placed."""
        counts: dict[str, list[int]] = {}
        out = []
        for p in range(g.n):
            mine = []
            for god, w in self.placed[p]:
                c = counts.get(god)
                if c is None:
                    c = counts[god] = _counts(g, god)
                ok = c[p] >= 1 and c[p] == max(c)
                mine.append((god, w, ok, self.fulfilled[w] if ok else self.failed[w]))
            out.append(mine)
        return out


def hook(g: Game, p: int) -> None:
    """At the start of each turn (``Game.turn_start_hooks``)."""
    state = g.prophecy
    if state.answered:
        # The question of this very turn was just answered: the turn decision follows
        # (the engine calls the hooks again right after a hook's decision).
        state.answered = False
        return
    if not state.left[p]:
        return
    w = state.window_of.get(g.round, -1)
    if w < 0 or state.window_used[p][w]:
        return
    mine = [god for god, _ in state.placed[p]]
    opts = [state.scarab_action[god] for god in state.gods if god not in mine]
    if opts:
        opts.append(NO_SCARAB)
        g.ask(PROPHECY, p, opts, (p, w))


def answer(g: Game, a: Action, p: int, w: int) -> None:
    """The answer to a ``prophecy`` question (engine/game.py's ``ANSWERS``)."""
    state = g.prophecy
    state.answered = True
    if a is not NO_SCARAB:
        state.left[p] -= 1
        state.window_used[p][w] = True
        state.placed[p].append((a.args[0], w))


def setup(g: Game) -> None:
    """Draw the god cards, hand out the scarabs, register the turn-start question."""
    g.prophecy = Prophecies(g)
    g.turn_start_hooks += (hook,)  # a tuple: a game's copies share it


def score(g: Game) -> None:
    """Game end (docs/rules.md §2.5: last): each scarab gains or loses by its window."""
    for p, results in enumerate(g.prophecy.outcome(g)):
        for _, _, _, pts in results:
            g.score(p, "prophecy", pts)

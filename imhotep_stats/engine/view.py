"""What a bot may see: the table, its own hand, the score track. Never the deck order,
never face-down cards it has not looked at (docs/engine.md, Architecture: hidden information)."""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from imhotep_stats.engine import hidden
from imhotep_stats.engine.game import ViewCore
from imhotep_stats.engine.public import frozen, reader


class View(ViewCore):
    """A read-only window on a game for seat ``me``. One per seat per game, cheap to keep.

    The read model (docs/engine.md, "The read model"): every public attribute of the game
    (``PUBLIC``) by name or as a property, frozen (lists as tuples: snapshots, read them
    again after a move), each site's read model (``site(i)``: engine/public.py), the hands,
    and samples of what it cannot see (``sample``). Nothing it hands out is the game's own
    list but the options, and nothing leads to a hidden part. The attributes bots read at
    every decision (``round``, ``sailed``, ``discard``, ``kind``, ``options``,
    ``hand_of``, ``site``) come from :class:`ViewCore` (engine/game.py: compiled, it reads
    the game's typed attributes directly)."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        # Reached only for names that are not public (those are properties, below).
        raise AttributeError(f"{name!r} is not visible to a player")

    def get(self, name: str) -> Any:
        """A public attribute by name (``view.get("sled")`` is ``view.sled``), frozen: a
        list as a tuple (a snapshot), the prophecies' state as its read model."""
        if name in PUBLIC:
            v = getattr(self._g, name)
            if name == "prophecy" and v is not None:
                return reader(v)
            return frozen(v)
        raise AttributeError(f"{name!r} is not visible to a player")

    @property
    def hand(self) -> dict[str, int]:
        """My held cards (blue, green, purple, kept). Others' hands are face up in the
        real game too, so :meth:`hand_of` gives them."""
        return dict(self._g.hand[self.me])

    @property
    def deck_size(self) -> int:
        return len(self._g.deck)

    def sample(self, rng) -> Any:
        """A game this seat cannot tell from the real one: a copy with everything it cannot
        see dealt anew from ``rng`` (engine/hidden.py), for search bots to play on."""
        return hidden.sample(self._g, self.me, rng)


PUBLIC = frozenset(
    {
        "n", "sides", "expansion", "prophecies", "rounds", "round", "current", "start_player",
        "to_move", "kind", "sled", "quarry", "sled_cap", "ship_sizes", "ship_slots", "ship_min",
        "ship_load", "ship_dock", "dock_used", "sailed", "totals", "red_kept", "cards_taken",
        "discard", "board", "events", "passes", "get_stones", "get_actions", "prophecy",
        "options",
    }
)

# Each public attribute is a property: ``view.sled`` is ``view.get("sled")`` (frozen). The
# options are the exception, handed out as the engine's own list (bots receive it as
# ``legal`` anyway; they never change it). Compiled, ViewCore's own getters (C) for the
# hottest ones stay; in pure Python its properties give way to these.
_LIVE = {"options": "options"}


def _frozen_property(name: str) -> property:
    return property(lambda self: self.get(name))


for _name in (*PUBLIC, *_LIVE):
    _core = ViewCore.__dict__.get(_name)
    if _core is None or isinstance(_core, property):
        if _name in _LIVE:
            setattr(View, _name, property(attrgetter(f"_g.{_LIVE[_name]}")))
        else:
            setattr(View, _name, _frozen_property(_name))

"""What a bot may see: the table, its own hand, the score track. Never the deck order,
never face-down cards it has not looked at (docs/engine.md, Architecture: hidden information)."""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from imhotep_stats.engine import hidden
from imhotep_stats.engine.game import ViewCore


class View(ViewCore):
    """A read-only window on a game for seat ``me``. One per seat per game, cheap to keep.

    The attributes bots read at every decision (``round``, ``sailed``, ``discard``,
    ``kind``, ``options``, ``legal``, ``hand_of``, ``site``) come from :class:`ViewCore`
    (engine/game.py: compiled, it reads the game's typed attributes directly)."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        # Reached only for names that are not public (those are properties, below).
        raise AttributeError(f"{name!r} is not visible to a player")

    def get(self, name: str) -> Any:
        """A public attribute by name (``view.get("sled")`` is ``view.sled``)."""
        if name in PUBLIC:
            return getattr(self._g, name)
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

# Each public attribute is a property reading through to the game at C speed
# (``attrgetter("_g.name")``): bots read the view on every decision. Compiled, ViewCore's own
# getters (C) for the hottest ones stay; in pure Python its properties give way to these.
_ALIASES = {"legal": "options"}
for _name in (*PUBLIC, *_ALIASES):
    _core = ViewCore.__dict__.get(_name)
    if _core is None or isinstance(_core, property):
        setattr(View, _name, property(attrgetter(f"_g.{_ALIASES.get(_name, _name)}")))

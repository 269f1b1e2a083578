"""Actions: small frozen values with a readable notation.

Every action a player can take is an :class:`Action`; its ``str()`` is the transcript
notation (README "Transcript notation"). Actions are interned: ``act("place", 1, 0)``
always returns the same object, so an action can be compared by identity or equality alike.
"""

from __future__ import annotations

from typing import Any

_CACHE: dict[tuple, Action] = {}


class Action:
    """A choice at a decision point: ``kind`` plus arguments (ints or names)."""

    __slots__ = ("kind", "args", "_text")

    def __init__(self, kind: str, args: tuple[Any, ...]):
        self.kind = kind
        self.args = args
        self._text = " ".join((kind, *map(str, args)))

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Action({self._text!r})"

    # Equality is identity: actions are interned (see ``act``).

    def __reduce__(self):  # keep interning across pickling (process pools, Dask)
        return (act, (self.kind, *self.args))


def act(kind: str, *args: Any) -> Action:
    """The interned action ``kind args...``."""
    key = (kind, *args)
    a = _CACHE.get(key)
    if a is None:
        a = _CACHE[key] = Action(kind, tuple(args))
    return a


# The turn actions that take no argument.
GET = act("get")
PASS = act("pass")

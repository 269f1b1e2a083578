"""The read model: what a seat may see of a site or a module's state, read-only.

``reader(obj)`` wraps a site (or the prophecies' state) in a view made for its class: one
property per public attribute (every attribute whose name does not start with ``_``; hidden
information lives in ``_hidden_*`` attributes, and the site deals it anew itself,
``Site.redeal_hidden``) and the site's public queries (``Site.queries``: ``stones``,
``stones_of``...). Values are handed out frozen: a list as a tuple (lists of lists as tuples
of tuples), a dict as a read-only mapping; numbers, names, tuples and the side's data as
they are. So a bot can read everything on the table at any time, but cannot change the game
through what it reads, and nothing it can reach by a public name leads to a hidden part.
The views are made once per game (``Game.public_sites``) and shared by its seats' views:
the public information is the same for every seat."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any


def frozen(v: Any) -> Any:
    """``v`` as a reader hands it out: lists as tuples (one level down too), dicts read-only."""
    t = type(v)
    if t is list:
        if v and type(v[0]) is list:
            return tuple([tuple(x) if type(x) is list else x for x in v])
        return tuple(v)
    if t is dict:
        return MappingProxyType(v)
    return v


class Reader:
    """A read-only view of one site or module state (made by :func:`reader`)."""

    __slots__ = ("_obj", "__weakref__")

    def __init__(self, obj: Any):
        self._obj = obj

    def __getattr__(self, name: str) -> Any:
        # reached only for names that are not public (those are properties)
        raise AttributeError(f"{name!r} is not visible to a player")

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "_obj":
            object.__setattr__(self, name, value)
            return
        raise AttributeError("a player's view is read-only")

    def __repr__(self) -> str:
        return f"<public view of {type(self._obj).__name__}>"


def _attribute(name: str) -> property:
    def get(self: Reader) -> Any:
        return frozen(getattr(self._obj, name))

    get.__name__ = name
    return property(get)


def _query(name: str):
    def call(self: Reader, *args: Any) -> Any:
        return frozen(getattr(self._obj, name)(*args))

    call.__name__ = name
    return call


_CLASSES: dict[tuple, type] = {}


def reader(obj: Any) -> Reader:
    """The read-only view of ``obj`` (a site or the prophecies' state)."""
    names = tuple(k for k in vars(obj) if not k.startswith("_"))
    key = (type(obj), names)
    cls = _CLASSES.get(key)
    if cls is None:
        ns: dict[str, Any] = {"__slots__": ()}
        for name in names:
            ns[name] = _attribute(name)
        for name in getattr(obj, "queries", ()):
            ns[name] = _query(name)
        for name in ("index", "name", "side"):  # class-level facts of a site
            if name not in ns and hasattr(type(obj), name):
                ns[name] = _attribute(name)
        cls = _CLASSES[key] = type(f"{type(obj).__name__}View", (Reader,), ns)
    return cls(obj)

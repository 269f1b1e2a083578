"""Rows of small ints in fixed-size C storage, for the game and the sites (docs/engine.md,
"The small counters are C arrays" and "The sites' boards are C arrays").

Compiled, a row is a ``long`` array field of a cdef class (its .pxd), read and written by the
engine as ``g._sled[p]`` or ``site._height[o]``: a C load or store, no int object, and a copy
of its holder copies it by value. In pure Python it is a list of the same items. The public
name of a row is a property that returns ``read(holder, name, row, n)``: pure Python, the row
itself; compiled, a ``Row``, a list copy whose item writes go back to the holder, so
``g.sled[1] = 0`` and ``site.height == [1, 0]`` work in both builds.

A row whose length changes in play (a site's stones in fill order) is ``room(values, size)``,
padded in both builds so that the engine writes ``row[n]`` and counts ``n`` itself; its
public name returns ``part(holder, name, row, n)``, a ``Row`` in both builds.
"""

from __future__ import annotations

from typing import Any

try:  # Cython's constant: True in the compiled module, False in pure Python
    import cython

    COMPILED = cython.compiled
except ImportError:  # pure Python without Cython installed
    COMPILED = False


class Row(list):
    """A copy of a compiled C row as a list; writing an item writes the holder's row (by its
    public name, or ``ship`` >= 0: that ship's slots, ``Game.ship_slots``)."""

    __slots__ = ("holder", "name", "ship")

    def __setitem__(self, i, value):
        list.__setitem__(self, i, value)
        if self.ship >= 0:
            self.holder.set_ship_slots(self.ship, self)
        else:
            setattr(self.holder, self.name, self)

    def _in_place(self, *args, **kwargs):
        raise TypeError(f"{self.name}: a row is written item by item (row[i] = v) or whole "
                        f"(x.{self.name} = [...]); this change of the copy would not reach "
                        "its holder")

    # the list's other changes would change the copy only: refused, not silently lost
    append = extend = insert = pop = remove = clear = sort = reverse = _in_place
    __delitem__ = __iadd__ = __imul__ = _in_place


def make(items, holder: Any, name: str, ship: int = -1) -> Row:
    """``items`` as a ``Row`` of ``holder`` by its public ``name`` (``ship`` >= 0: that ship's
    slots)."""
    out = Row(items)
    out.holder = holder
    out.name = name
    out.ship = ship
    return out


def read(holder: Any, name: str, row, n: int) -> list[int]:
    """The public list of a row: pure Python, the row itself; compiled, its first ``n`` items
    (``row`` is the C array as a list) as a ``Row`` of ``holder``."""
    return make(row[:n], holder, name) if COMPILED else row


def part(holder: Any, name: str, row, n: int) -> list[int]:
    """The public list of a ``room`` row: its first ``n`` items as a ``Row`` of ``holder``
    (both builds: in pure Python too the row is longer than what it holds)."""
    return make(row[:n], holder, name)


def _sized(values, size: int) -> list[int]:
    row = list(values)
    if len(row) > size:
        raise ValueError(f"a row of at most {size} values, got {len(row)}")
    return row


def room(values, size: int) -> list[int]:
    """``values`` as a row that grows in play: padded with zeros to ``size`` in both builds."""
    row = _sized(values, size)
    return row + [0] * (size - len(row))


def fixed(values, size: int) -> list[int]:
    """``values`` as a row: compiled, padded with zeros to the C array's ``size``."""
    return room(values, size) if COMPILED else _sized(values, size)


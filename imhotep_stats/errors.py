"""Wording for bad values in error messages, shared by every validator (study configs,
``[gates]`` tables, board overrides), so "got ..." reads the same wherever it appears.

Imports nothing from the package: ``config`` and ``reporting.gates`` load it at config
validation time, before anything heavy.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def kind_of(value: Any) -> str:
    """What sort of value this is, without the value: "an integer", "a list of 3 items"."""
    if isinstance(value, bool):  # before int: True is an int to Python, not to TOML
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return f"a list of {len(value)} items"
    if isinstance(value, Mapping):
        return "a table"
    return type(value).__name__


def describe(value: Any) -> str:
    """A bad value for "expected ..., got <this>": its kind, and the value itself where it
    is short (a scalar), so the user sees what was read: "a string ('five')"."""
    kind = kind_of(value)
    if isinstance(value, bool):
        return f"{kind} ({str(value).lower()})"  # TOML spelling: true, not True
    if isinstance(value, str):
        return f"{kind} ({value!r})"
    if isinstance(value, int | float):
        return f"{kind} ({value})"
    return kind

"""Wording for bad values in error messages, shared by every validator (study configs,
``[gates]`` tables, board overrides), so "got ..." reads the same wherever it appears.

Imports nothing from the package: ``config`` and ``reporting.gates`` load it at config
validation time, before anything heavy.
"""

from __future__ import annotations

import errno
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


def unknown_key(key: Any, known: list[str] | tuple[str, ...], lead: str = "one of ") -> str:
    """ "unknown key (did you mean 'game'? expected one of ...)" for a key not in ``known``:
    the nearest known key by spelling (difflib), when one is near enough."""
    return f"unknown key ({did_you_mean(key, known)}expected {lead}{', '.join(map(str, known))})"


def did_you_mean(word: Any, known: list[str] | tuple[str, ...]) -> str:
    """ "did you mean 'greedy'? " when a known word is near ``word`` by spelling (difflib),
    else "". """
    import difflib

    near = difflib.get_close_matches(str(word).lower(), [str(k) for k in known], n=1,
                                     cutoff=0.7)
    return f"did you mean {near[0]!r}? " if near else ""


_OS_ERRORS = {  # the environment failures a user can fix, in their words
    errno.ENOSPC: "no space left on the device (disk full)",
    errno.EDQUOT: "disk quota exceeded",
    errno.EROFS: "read-only file system",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
    errno.ENAMETOOLONG: "file name too long",
    errno.ENOENT: "no such file or directory",
    errno.ENOTDIR: "not a directory",
    errno.EISDIR: "is a directory",
}


def os_error(exc: OSError) -> str:
    """One line for a failed file operation: the file, then what went wrong."""
    what = _OS_ERRORS.get(exc.errno or 0) or exc.strerror or str(exc) or type(exc).__name__
    return f"{exc.filename}: {what}" if exc.filename else what

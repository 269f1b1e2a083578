"""Wording for bad values in error messages, shared by every validator (study configs,
``[gates]`` tables, board overrides), so "got ..." reads the same wherever it appears.

Imports nothing from the package: ``config`` and ``reporting.gates`` load it at config
validation time, before anything heavy.
"""

from __future__ import annotations

import errno
import re
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


def toml_problem(exc: Exception, text: str) -> tuple[str, str]:
    """A TOML syntax error (``tomllib.TOMLDecodeError``) as (where, what): ``("line 3,
    column 7", "not valid TOML: ...")``. An array or inline table left open is reported at
    the line that opened it: tomllib notices only at the next line, or the file's end."""
    m = re.search(r"\s*\(at line (\d+), column (\d+)\)$", str(exc))
    end = re.search(r"\s*\(at end of document\)$", str(exc))
    what = f"not valid TOML: {str(exc)[:(m or end).start()] if m or end else exc}"
    lines = text.split("\n")
    at = (int(m.group(1)), int(m.group(2))) if m else (len(lines), len(lines[-1]) + 1)
    opened = _open_bracket(lines, *at)
    if opened:
        kind = "array" if opened[2] == "[" else "inline table"
        return (f"line {opened[0]}, column {opened[1]}",
                f"not valid TOML: the {kind} opened here is not closed (the parser "
                f"stopped {f'at line {at[0]}' if m else 'at the end of the file'})")
    if m:
        return (f"line {at[0]}, column {at[1]}", what)
    if end:
        last = len(text.rstrip("\n").split("\n"))
        return (f"line {last} (the end of the file)", what)
    return ("TOML", what)


def _open_bracket(lines: list[str], line: int, column: int) -> tuple[int, int, str] | None:
    """(line, column, "[" or "{") of the innermost value bracket still open at ``line``,
    ``column`` (1-based), skipping strings, comments and table headers."""
    stack: list[tuple[int, int, str]] = []
    for n, text in enumerate(lines[:line], 1):
        stop = column - 1 if n == line else len(text)
        if not stack and text.lstrip().startswith("["):
            continue  # a table header, [t] or [[t]]
        i, quote = 0, ""
        while i < stop:
            c = text[i]
            if quote:
                if c == "\\" and quote == '"':
                    i += 1
                elif c == quote:
                    quote = ""
            elif c in "\"'":
                quote = c
            elif c == "#":
                break
            elif c in "[{":
                stack.append((n, i + 1, c))
            elif c in "]}" and stack:
                stack.pop()
            i += 1
    return stack[-1] if stack else None

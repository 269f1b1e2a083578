"""What a run manifest holds, field by field: checked whenever a manifest is read, so that a
damaged or hand-edited manifest is refused with the field it got wrong, never a traceback
in whichever command reads it next (``run``'s resume, ``report``, ``compare``, ``sweep``).

Only the fields every reader needs are required (``REQUIRED``; a finished run also its
cells and config); the others are checked when present (runs written before a field existed
lack it). A resume needs more, ``RESUME``, which ``runner`` asks for with :func:`missing`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

FORMAT = 1  # the manifest layout this package writes and reads

Check = tuple[Callable[[Any], bool], str]


def _int(low: int = 0, high: int | None = None) -> Check:
    def ok(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and v >= low and (
            high is None or v <= high)

    return ok, (f"a whole number from {low} to {high}" if high is not None
                else f"a whole number of at least {low}")


def _number(low: float, high: float) -> Check:
    def ok(v: Any) -> bool:
        return isinstance(v, int | float) and not isinstance(v, bool) and low < v < high

    return ok, f"a number between {low:g} and {high:g}"


def _type(kind: type | tuple[type, ...], what: str, none: bool = False) -> Check:
    return (lambda v: (none and v is None) or isinstance(v, kind)), what + (
        " or null" if none else "")


def _strings(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


TEXT, MAPPING = _type(str, "a string"), _type(dict, "an object")
CELL: dict[str, Check] = {
    "index": _int(), "id": TEXT, "sides": TEXT, "players": _int(2, 4),
    "lineup": (lambda v: _strings(v) and bool(v), "a non-empty list of bot names"),
    "games": _int(), "batches": _int(),
}
SHARD: dict[str, Check] = {
    "file": TEXT, "cell": _int(), "batch": _int(),
    "games": (lambda v: isinstance(v, list) and len(v) == 2 and all(_int()[0](x) for x in v),
              "a pair of game indices [start, stop]"),
    "rows": _int(), "sha256": _type(str, "a string", none=True),
}
SIDE: dict[str, Check] = {
    "provenance": TEXT, **{k: (_strings, "a list of strings")
                           for k in ("provisional_keys", "overridden", "designer")},
}
FIELDS: dict[str, Check] = {
    "status": (lambda v: v in ("running", "complete"), '"running" or "complete"'),
    "tool": TEXT, "version": TEXT, "study": TEXT,
    "config_source": _type(str, "a string", none=True),
    "config_hash": TEXT, "data_hash": TEXT, "config": MAPPING, "seeds": MAPPING,
    "games_per_cell": _int(), "batch_size": _int(1),
    "cells": _type(list, "a list of cells"), "board": MAPPING, "schema": MAPPING,
    "environment": MAPPING, "started": _type(str, "a string", none=True),
    "finished": _type(str, "a string", none=True),
    "passes": (lambda v: isinstance(v, list) and bool(v) and all(_int(1)[0](x) for x in v),
               "a non-empty list of game counts"),
    "sequential": _type(bool, "true or false"), "shards": _type(list, "a list of shards"),
}
NESTED: dict[tuple[str, ...], Check] = {  # values inside ``config`` and ``board`` readers use
    ("config", "report"): MAPPING,
    ("config", "report", "confidence"): _number(0, 1),
    ("config", "report", "margin"): _number(0, 1),
    ("config", "gates"): MAPPING,
    ("board", "sides"): MAPPING,
    ("board", "overridden"): MAPPING,
}
REQUIRED = ("status",)
REQUIRED_COMPLETE = ("cells", "config", "games_per_cell")
RESUME = ("config", "config_hash", "data_hash", "games_per_cell", "batch_size", "cells")
"""What a resume reads besides the fields every reader needs."""


def _shown(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _wrong(name: str, check: Check, value: Any) -> str | None:
    ok, what = check
    return None if ok(value) else f"{name}: expected {what}, found {_shown(value)}"


def _entries(name: str, items: list, fields: dict[str, Check]) -> str | None:
    for i, item in enumerate(items):
        where = f"{name}[{i}]"
        if not isinstance(item, dict):
            return f"{where}: expected an object, found {_shown(item)}"
        for key, check in fields.items():
            if key not in item:
                if name == "shards" and key != "file":
                    continue  # a shard entry needs its file; the rest is checked when there
                return f"{where}.{key}: missing"
            bad = _wrong(f"{where}.{key}", check, item[key])
            if bad:
                return bad
    return None


def problem(data: Any) -> str | None:
    """Why ``data`` (a parsed manifest.json) is not a manifest this package can read, naming
    the field (dotted, with list indices); None when it is."""
    if not isinstance(data, dict):
        return f"expected a JSON object, found {type(data).__name__}"
    if data.get("format") != FORMAT:
        if "format" not in data:
            return "format: missing (not an imhotep-stats run manifest)"
        return (f"format: {_shown(data['format'])} is not a manifest format this version "
                f"reads ({FORMAT}): written by another version of imhotep-stats?")
    required = REQUIRED + (REQUIRED_COMPLETE if data.get("status") == "complete" else ())
    miss = missing(data, required)
    if miss:
        return miss
    for key, check in FIELDS.items():
        if key in data:
            bad = _wrong(key, check, data[key])
            if bad:
                return bad
    bad = (_entries("cells", data.get("cells", []), CELL)
           or _entries("shards", data.get("shards", []), SHARD))
    if bad:
        return bad
    for path, check in NESTED.items():
        node: Any = data
        for key in path:
            if not isinstance(node, Mapping) or key not in node:
                break
            node = node[key]
        else:
            bad = _wrong(".".join(path), check, node)
            if bad:
                return bad
    sides = (data.get("board") or {}).get("sides") or {}
    for name, rec in sides.items():
        if not isinstance(rec, dict):
            return f"board.sides.{name}: expected an object, found {_shown(rec)}"
        for key, check in SIDE.items():
            bad = key in rec and _wrong(f"board.sides.{name}.{key}", check, rec[key])
            if bad:
                return bad
    return None


def missing(data: Mapping[str, Any], fields: tuple[str, ...]) -> str | None:
    """The first of ``fields`` the manifest lacks, as a problem; None when it has them all."""
    gone = [k for k in fields if k not in data]
    return f"{gone[0]}: missing" if gone else None

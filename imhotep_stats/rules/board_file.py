"""A designer's board file: every number the engine plays with, in one TOML file a designer
holding the printed boards corrects once (``imhotep-stats sides --export board.toml``), then
uses everywhere (``[board] file = "board.toml"`` in a study config, ``--board FILE``).

The file has the shape of a config's ``[overrides]`` (``[pyramid.A] points = [...]``,
``[game]``, ``[round_cards.3]``, ``[cards.NAME]``...), each value commented with its provenance.
Values that differ from the package's are the designer's: reports label them "designer"
(not "overridden": they are the printed board, not a what-if); a provisional value a designer
has entered is no longer provisional. Errors name the file and the key (or the line).
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from imhotep_stats.errors import toml_problem
from imhotep_stats.rules.board import META_KEYS, SITES, Board, BoardDataError, default_board, plain

HEADER = """\
# A designer's board file (imhotep-stats sides --export): every number imhotep-stats plays
# with, one table per site side and per game table. Correct a number to the one printed on
# your board and keep the rest; a study uses this file with `[board] file = "{name}"` in
# its config, and any command with `--board {name}`. Reports label the values you changed
# "designer". Each key's comment says where its value comes from: "rulebook" (stated by a
# rule text), "provisional" (a placeholder: the mechanic is known, the printed number is
# not). Keys must keep their shape (same type, same list length).
"""


DATA_FILES = ("board.toml", "game.toml", "cards.toml")  # the package's, in imhotep_stats/data


class BoardFileError(ValueError):
    """A board file that cannot be used: ``problems`` lists (key or line, what is wrong),
    one a line in the message under the file's name, as a config's problems are."""

    def __init__(self, path: str | Path, problems: list[tuple[str, str]]):
        self.path, self.problems = str(path), problems
        n = len(problems)
        super().__init__(f"board file {path}: {n} problem{'s' if n != 1 else ''}" + "".join(
            f"\n  {where}: {what}" if where else f"\n  {what}" for where, what in problems))


def _value(v: Any) -> str:
    """A TOML value: numbers, strings, booleans, lists and inline tables."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v) if math.isfinite(v) else str(v)  # TOML spells inf and nan as Python
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def _key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isalnum() else json.dumps(k)


def _comment(line: str) -> str:
    """The comment of a TOML line ("" when none): from the first # outside a string."""
    quote = ""
    for i, c in enumerate(line):
        if quote:
            quote = "" if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c == "#":
            return line[i + 1:].strip()
    return ""


def data_comments() -> dict[tuple[str, str], tuple[list[str], str]]:
    """Per (table, key) of the package's data files, the comment lines just above the key and
    the comment after its value: what a code such as "p2|s4" means goes into the export."""
    out: dict[tuple[str, str], tuple[list[str], str]] = {}
    for name in DATA_FILES:
        text = resources.files("imhotep_stats.data").joinpath(name).read_text(encoding="utf-8")
        table, above, depth = "", [], 0
        for line in text.splitlines():
            s = line.strip()
            if depth:  # inside a value spread over lines
                depth += _depth(s)
            elif not s:
                above = []
            elif s.startswith("#"):
                above.append(s)
            elif s.startswith("["):
                table, above = s[1:s.index("]")].replace('"', ""), []
            elif "=" in s:
                key = s.partition("=")[0].strip().strip('"')
                out[(table, key)] = (above, _comment(s))
                above, depth = [], _depth(s.partition("=")[2])
    return out


def _depth(text: str) -> int:
    """Brackets opened minus closed in a line (outside strings and its comment)."""
    body = text[:len(text) - len(_comment(text))].rstrip("#") if _comment(text) else text
    quote, n = "", 0
    for c in body:
        if quote:
            quote = "" if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c in "[{":
            n += 1
        elif c in "]}":
            n -= 1
    return n


def _table(lines: list[str], name: str, values: Mapping[str, Any], note: str,
           provisional: set[str] | None = None,
           comments: Mapping[tuple[str, str], tuple[list[str], str]] | None = None) -> None:
    comments = comments or {}
    lines.append("")
    why = comments.get((name, "provenance"), ([], ""))[1]
    lines.append(f"[{'.'.join(_key(p) for p in name.split('.'))}]  # {note}"
                 + (f"; {why}" if why else ""))
    for k, v in values.items():
        if k in META_KEYS:
            continue
        prov = "provisional" if provisional is not None and (not provisional or k in provisional) \
            and note.startswith("provisional") else "rulebook"
        above, inline = comments.get((name, k), ([], ""))
        lines.extend(above)
        lines.append(f"{_key(k)} = {_value(plain(v))}  # {prov}" + (f"; {inline}" if inline else ""))


def export_text(board: Board | None = None, name: str = "board.toml") -> str:
    """The board file of ``board`` (default: the package's board)."""
    board = board or default_board()
    comments = data_comments()
    lines = [HEADER.format(name=name).rstrip("\n")]
    for site in SITES:
        for side in ("A", "B", "C", "D"):
            sd = board.side(site, side)
            keys = set(sd.provisional_keys)
            note = ("provisional: " + (", ".join(sorted(keys)) if keys else "every value")
                    if sd.provisional else "rulebook")
            _table(lines, sd.name, sd.values, note, keys if sd.provisional else None, comments)
    for tname, values in board.tables.items():
        prov = values.get("provenance", "rulebook") if isinstance(values, Mapping) else "rulebook"
        if tname == "cards":  # one table per card: [cards.NAME]
            for card, spec in values.items():
                _table(lines, f"cards.{card}", spec, str(prov), comments=comments)
            continue
        _table(lines, tname, values, str(prov), comments=comments)
    return "\n".join(lines) + "\n"


def _strip(table: Any) -> Any:
    """A file's table without provenance notes (META_KEYS), as an override takes it."""
    if not isinstance(table, Mapping):
        return table
    return {k: _strip(v) for k, v in table.items() if k not in META_KEYS}


def _changed(new: Any, old: Any) -> Any:
    """The part of ``new`` that differs from ``old`` (None when nothing does)."""
    if isinstance(new, Mapping) and isinstance(old, Mapping):
        out = {}
        for k, v in new.items():
            d = _changed(v, old.get(k)) if k in old else v
            if d is not None:
                out[k] = d
        return out or None
    return None if new == old else new


def _defaults(board: Board) -> dict[str, Any]:
    """The package board in the overrides' shape, to diff a file against."""
    out: dict[str, Any] = {}
    for name, sd in board.sides.items():
        site, side = name.split(".")
        out.setdefault(site, {})[side] = plain(sd.values)
    for name, values in board.tables.items():
        if name.startswith("round_cards."):
            out.setdefault("round_cards", {})[name.split(".")[1]] = _strip(plain(values))
        else:
            out[name] = _strip(plain(values))
    return out


def read_board_file(path: str | Path) -> dict[str, Any]:
    """The designer's values of a board file: those that differ from the package's, in the
    overrides' shape. Raises :class:`BoardFileError` naming the file and the key or line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BoardFileError(path, [("", f"cannot read it ({exc.strerror or exc})")]) from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BoardFileError(path, [toml_problem(exc, text)]) from None
    base = default_board()
    designer = _changed(_strip(raw), _defaults(base)) or {}
    try:
        base.with_overrides(designer, prefix="@")
    except BoardDataError as exc:
        raise BoardFileError(path, [(key.removeprefix("@."), msg)
                                    for key, msg in exc.problems]) from None
    return designer


def designer_keys(designer: Mapping[str, Any]) -> dict[str, list[str]]:
    """Per side or table name ("pyramid.A", "game", "round_cards.3"), the keys a designer set."""
    out: dict[str, list[str]] = {}
    for top, sub in designer.items():
        if top in SITES or top == "round_cards":
            for k, kv in sub.items():
                out[f"{top}.{k}"] = sorted(kv)
        else:
            out[top] = sorted(sub)
    return out

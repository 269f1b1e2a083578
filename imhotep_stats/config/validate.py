"""The hand validator's primitives: a config table read key by key, every problem collected
with its dotted key and what was expected, so a designer fixes a config in one pass. The
sections that know a layer's vocabulary live with their callers (``config/__init__``: the
study, sides, modules, report, run, whatif and sweep tables; ``config/bots.py``: bot lineups
and personas; ``config/gates.py``: the gates; ``rules.board``: the board overrides).

Kept over pydantic v2 models: the same dotted keys and every problem at once either way, but
pydantic's messages are generic ("Input should be a valid integer", no value shown, "Extra
inputs are not permitted" without the keys expected) unless each field gets a custom message,
and importing pydantic and its models would add to every command's start-up, for a large
dependency (pydantic and pydantic-core)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from imhotep_stats.errors import describe, unknown_key
from imhotep_stats.rules.board import SIDES, SITES

PLAYER_COUNTS = (2, 3, 4)
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")  # study and persona names: a run directory

_TYPE_WORDS = {str: "a string", bool: "true or false", int: "an integer"}


class Validator:
    """Collects problems instead of stopping at the first one."""

    def __init__(self) -> None:
        self.problems: list[tuple[str, str]] = []

    def problem(self, key: str, message: str) -> None:
        self.problems.append((key, message))

    def table(self, raw: Mapping[str, Any], key: str, required: bool = False) -> Mapping[str, Any]:
        if key not in raw:
            if required:
                self.problem(key, f"missing (a [{key}] table is required)")
            return {}
        value = raw[key]
        if not isinstance(value, Mapping):
            self.problem(key, f"expected a table, got {describe(value)}")
            return {}
        return value

    def known(self, table: Mapping[str, Any], prefix: str, keys: tuple[str, ...]) -> None:
        for k in table:
            if k not in keys:
                self.problem(f"{prefix}.{k}", unknown_key(k, keys))

    def get(self, table: Mapping[str, Any], key: str, typ: type, *, required: bool = False,
            default: Any = None) -> Any:
        name = key.rsplit(".", 1)[-1]
        if name not in table:
            if required:
                self.problem(key, f"missing (expected {_TYPE_WORDS[typ]})")
            return default
        value = table[name]
        if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
            self.problem(key, f"expected {_TYPE_WORDS[typ]}, got {describe(value)}")
            return default
        return value

    def integer(self, table: Mapping[str, Any], key: str, *, required: bool = False,
                minimum: int | None = None, default: Any = None,
                maximum: int | None = None) -> Any:
        value = self.get(table, key, int, required=required, default=None)
        if value is None:
            return default
        if minimum is not None and value < minimum:
            self.problem(key, f"expected an integer >= {minimum}, got {value}")
            return default
        if maximum is not None and value > maximum:
            self.problem(key, f"expected at most {maximum:,}, got {value:,}")
            return default
        return value

    def number(self, table: Mapping[str, Any], key: str, default: float, low: float,
               high: float, expected: str) -> float:
        name = key.rsplit(".", 1)[-1]
        if name not in table:
            return default
        value = table[name]
        if isinstance(value, bool) or not isinstance(value, int | float) or not low < value <= high:
            self.problem(key, f"expected {expected}, got {describe(value)}")
            return default
        return float(value)

    def players(self, study: Mapping[str, Any]) -> list[int]:
        if "players" not in study:
            self.problem("study.players", "missing (expected a player count 2-4 or a list of them)")
            return [3]
        value = study["players"]
        items = value if isinstance(value, list) else [value]
        good: list[int] = []
        if not items:
            self.problem("study.players", "expected at least one player count (2, 3 or 4)")
        for i, n in enumerate(items):
            key = f"study.players[{i}]" if isinstance(value, list) else "study.players"
            if isinstance(n, bool) or not isinstance(n, int) or n not in PLAYER_COUNTS:
                self.problem(key, f"expected a player count 2, 3 or 4, got {describe(n)}")
            elif n in good:
                self.problem(key, f"player count {n} is listed twice")
            else:
                good.append(n)
        return good

    def sides(self, table: Mapping[str, Any], prefix: str = "sides",
              keep_missing: bool = False) -> tuple[tuple[str, ...], ...]:
        """Side letters per site; ``keep_missing`` gives None for sites not in ``table``
        (a [whatif] changes only the sites it names)."""
        from imhotep_stats.engine.setup_checks import side_letter  # the engine reads letters

        table = site_keys(table)
        self.known(table, prefix, SITES)
        out: list = []
        for site in SITES:
            key = f"{prefix}.{site}"
            if keep_missing and site not in table:
                out.append(None)
                continue
            value = table.get(site, ["A"])
            if isinstance(value, str) and value.strip().lower() == "all":
                letters = list(SIDES)
            elif side_letter(value):
                letters = [side_letter(value)]
            elif isinstance(value, list) and value:
                letters = []
                for i, raw in enumerate(value):
                    s = side_letter(raw)
                    if s is None:
                        self.problem(f"{key}[{i}]", f"expected a side letter A, B, C or D, "
                                     f"got {describe(raw)}")
                    elif s in letters:
                        self.problem(f"{key}[{i}]", f"side {s} is listed twice")
                    else:
                        letters.append(s)
            else:
                self.problem(key, 'expected a list of side letters (e.g. ["A", "C"]) or "all", '
                             f"got {describe(value)}")
                letters = []
            out.append(tuple(letters) or ("A",))
        return tuple(out)

    def json_safe(self, value: Any, key: str) -> bool:
        """TOML dates and times have no JSON form; nothing in a study needs them."""
        if isinstance(value, Mapping):
            return all([self.json_safe(v, f"{key}.{k}") for k, v in value.items()])
        if isinstance(value, list):
            return all([self.json_safe(v, f"{key}[{i}]") for i, v in enumerate(value)])
        if isinstance(value, str | int | float | bool):
            return True
        self.problem(key, f"expected a number, string, boolean, list or table, got {describe(value)}")
        return False


def site_keys(table: Any) -> Any:
    """A [sides] table with its site names in lower case (``Pyramid`` is ``pyramid``)."""
    if not isinstance(table, Mapping):
        return table
    return {k.lower() if isinstance(k, str) and k.lower() in SITES else k: v
            for k, v in table.items()}

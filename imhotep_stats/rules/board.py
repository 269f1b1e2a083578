"""Board data: the printed numbers of every site side, round cards and market cards.

The data lives in TOML files in ``imhotep_stats/data``; this module loads it into an
immutable :class:`Board`, validates it, and derives boards with designer overrides
(docs/rules.md §10). The engine reads every number from here, never from code.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType
from typing import Any

from imhotep_stats.errors import describe, kind_of, unknown_key
from imhotep_stats.rules.limits import fixed_problems, value_problems

SITES: tuple[str, ...] = ("market", "pyramid", "temple", "burial_chamber", "obelisk")
SITE_INDEX: dict[str, int] = {name: i for i, name in enumerate(SITES)}  # site name -> index
# the sites as the rulebook names them, for people (reports, verdicts)
SITE_TITLES: dict[str, str] = {"market": "Market", "pyramid": "Pyramid", "temple": "Temple",
                               "burial_chamber": "Burial Chamber", "obelisk": "Obelisks"}
SIDES: tuple[str, ...] = ("A", "B", "C", "D")
PROVENANCES = ("rulebook", "provisional")
META_KEYS = ("provenance", "provisional_keys", "quotes", "quotes_en")


class BoardDataError(ValueError):
    """Bad board data or a bad override. ``problems`` lists (dotted key, message)."""

    def __init__(self, problems: list[tuple[str, str]]):
        self.problems = problems
        super().__init__("\n".join(f"{key}: {msg}" for key, msg in problems))


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType({str(k): _freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


def plain(value: Any) -> Any:
    """Frozen board values (mapping proxies, tuples) as plain dicts and lists."""
    return _thaw(value)


@dataclass(frozen=True)
class SideData:
    """One side of one site: its values, provenance and whether a config changed it."""

    site: str
    side: str
    provenance: str
    provisional_keys: tuple[str, ...]
    values: Mapping[str, Any]
    overridden: tuple[str, ...] = ()
    # key -> the rule text's words for a rulebook value (docs/rules.md cites them too)
    quotes: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    quotes_en: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # in English

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    @property
    def name(self) -> str:
        return f"{self.site}.{self.side}"

    @property
    def provisional(self) -> bool:
        return self.provenance == "provisional"

    def by_players(self, key: str, players: int) -> Any:
        """Values printed per player count, e.g. obelisk points or temple width."""
        return self.values[key][str(players)]


@dataclass(frozen=True, eq=False)  # compared by identity: engines cache per board
class Board:
    """All board data. Immutable; derive changed copies with :meth:`with_overrides`."""

    sides: Mapping[str, SideData]  # "pyramid.A" -> SideData
    tables: Mapping[str, Mapping[str, Any]]  # "game", "round_cards.3", "cards", ...
    overridden: tuple[str, ...] = field(default=())  # dotted table names changed by overrides

    def side(self, site: str, side: str) -> SideData:
        return self.sides[f"{site}.{side}"]

    @property
    def game(self) -> Mapping[str, Any]:
        return self.tables["game"]

    def round_cards(self, players: int) -> tuple[tuple[int, ...], ...]:
        return self.tables[f"round_cards.{players}"]["cards"]

    @property
    def cards(self) -> Mapping[str, Mapping[str, Any]]:
        return self.tables["cards"]

    def provenance_of(self, table: str) -> str:
        if table in self.sides:
            return self.sides[table].provenance
        return self.tables[table].get("provenance", "rulebook")

    def with_overrides(self, overrides: Mapping[str, Any], prefix: str = "overrides") -> Board:
        """A new board with ``overrides`` applied (``{"pyramid": {"A": {"points": [...]}}}``).

        Every override must name an existing key and keep its shape (type, list length,
        table keys). All problems are collected and raised together, each with its dotted key.
        """
        problems: list[tuple[str, str]] = []
        raw = {name: _thaw(sd.values) for name, sd in self.sides.items()}
        tables = {name: _thaw(t) for name, t in self.tables.items()}
        changed: dict[str, list[str]] = {}
        if not isinstance(overrides, Mapping):
            raise BoardDataError([(prefix, "expected a table")])
        problems += fixed_problems(overrides, f"{prefix}.")
        for top, sub in overrides.items():
            path = f"{prefix}.{top}"
            if not isinstance(sub, Mapping):
                problems.append((path, "expected a table"))
                continue
            if str(top).lower() in SITES:  # site names and side letters in either case
                for side, kv in sub.items():
                    name = f"{str(top).lower()}.{str(side).strip().upper()}"
                    if name not in raw:
                        problems.append((f"{path}.{side}", f"unknown side (expected one of {', '.join(SIDES)})"))
                        continue
                    _merge(raw[name], kv, f"{path}.{side}", problems, changed.setdefault(name, []))
            elif top in ("game", "prophecies", "statue_points", "unused_blue_points", "decoration"):
                _merge(tables[top], sub, path, problems, changed.setdefault(top, []))
            elif top == "round_cards":
                for players, kv in sub.items():
                    name = f"round_cards.{players}"
                    if name not in tables:
                        problems.append((f"{path}.{players}", "unknown player count (expected 2, 3 or 4)"))
                        continue
                    _merge(tables[name], kv, f"{path}.{players}", problems, changed.setdefault(name, []))
            elif top == "cards":
                _merge(tables["cards"], sub, path, problems, changed.setdefault("cards", []))
            else:
                known = (*SITES, "game", "round_cards", "cards", "prophecies", "statue_points",
                         "unused_blue_points", "decoration")
                problems.append((path, unknown_key(top, known)))
        if not problems:  # shapes fine: now the ranges, before any game is played
            changed_names = {n for n, keys in changed.items() if keys}
            problems = value_problems({**raw, **tables}, f"{prefix}.", changed_names, META_KEYS)
        if problems:
            raise BoardDataError(problems)
        new_sides = {}
        for name, sd in self.sides.items():
            keys = tuple(changed.get(name, ()))
            new_sides[name] = SideData(
                sd.site, sd.side, sd.provenance, sd.provisional_keys, _freeze(raw[name]),
                tuple(sorted(set(sd.overridden) | set(keys))), sd.quotes, sd.quotes_en,
            )
        overridden = set(self.overridden) | {n for n, keys in changed.items() if keys}
        return Board(
            MappingProxyType(new_sides),
            MappingProxyType({k: _freeze(v) for k, v in tables.items()}),
            tuple(sorted(overridden)),
        )


def _shape_error(default: Any, value: Any) -> str | None:
    """Why ``value`` cannot replace ``default`` (None when it can)."""
    if isinstance(default, bool) or isinstance(value, bool):
        if type(default) is not type(value):
            return f"expected {kind_of(default)}, got {describe(value)}"
        return None
    if isinstance(default, int):
        return None if isinstance(value, int) else f"expected an integer, got {describe(value)}"
    if isinstance(default, float):
        return None if isinstance(value, int | float) else f"expected a number, got {describe(value)}"
    if isinstance(default, str):
        return None if isinstance(value, str) else f"expected a string, got {describe(value)}"
    if isinstance(default, list):
        if not isinstance(value, list):
            return f"expected {kind_of(default)}, got {describe(value)}"
        if len(value) != len(default):
            return f"expected a list of {len(default)} items, got {len(value)}"
        for i, (d, v) in enumerate(zip(default, value, strict=True)):
            err = _shape_error(d, v)
            if err:
                return f"item {i}: {err}"
        return None
    if isinstance(default, dict):
        if not isinstance(value, dict):
            return f"expected a table, got {describe(value)}"
        for k, v in value.items():
            if k not in default:
                return f"unknown key {k!r}"
            err = _shape_error(default[k], v)
            if err:
                return f"{k}: {err}"
        return None
    return None


def _merge(target: dict, override: Any, path: str, problems: list, changed: list) -> None:
    if not isinstance(override, Mapping):
        problems.append((path, f"expected a table, got {describe(override)}"))
        return
    for key, value in override.items():
        kpath = f"{path}.{key}"
        if key in META_KEYS:
            problems.append((kpath, "provenance cannot be overridden (an override marks the side as modified)"))
            continue
        if key not in target:
            problems.append((kpath, unknown_key(key, [k for k in target if k not in META_KEYS])))
            continue
        if isinstance(target[key], dict) and isinstance(value, Mapping) and key != "points_by_players":
            _merge(target[key], value, kpath, problems, changed)
            continue
        err = _shape_error(target[key], _thaw(value) if isinstance(value, Mapping) else value)
        if err:
            problems.append((kpath, err))
            continue
        if isinstance(target[key], dict):
            target[key].update(value)
        else:
            target[key] = value
        changed.append(key)


def _read(name: str) -> dict:
    with resources.files("imhotep_stats.data").joinpath(name).open("rb") as fh:
        try:
            return tomllib.load(fh)
        except tomllib.TOMLDecodeError as exc:  # a designer edited the file by hand
            raise BoardDataError([(f"data/{name}", str(exc))]) from exc


def load_board() -> Board:
    """Load and validate the package's board data files."""
    problems: list[tuple[str, str]] = []
    board_raw = _read("board.toml")
    sides: dict[str, SideData] = {}
    for site in SITES:
        site_tables = board_raw.get(site, {})
        for side in SIDES:
            name = f"{site}.{side}"
            table = site_tables.get(side)
            if not isinstance(table, dict):
                problems.append((name, "missing from data/board.toml"))
                continue
            prov = table.get("provenance")
            if prov not in PROVENANCES:
                problems.append((f"{name}.provenance", f"expected one of {PROVENANCES}, got {prov!r}"))
            pkeys = tuple(table.get("provisional_keys", ()))
            for k in pkeys:
                if k not in table:
                    problems.append((f"{name}.provisional_keys", f"names unknown key {k!r}"))
            quotes, english = table.get("quotes", {}), table.get("quotes_en", {})
            problems.extend(_quote_problems(name, quotes, table))
            values = {k: v for k, v in table.items() if k not in META_KEYS}
            sides[name] = SideData(site, side, prov or "rulebook", pkeys, _freeze(values),
                                   quotes=_freeze(quotes) if isinstance(quotes, dict) else MappingProxyType({}),
                                   quotes_en=_freeze(english) if isinstance(english, dict) else MappingProxyType({}))
    game_raw = _read("game.toml")
    for name, table in game_raw.items():
        if isinstance(table, dict) and "quotes" in table:
            problems.extend(_quote_problems(name, table["quotes"], table))
    cards_raw = _read("cards.toml")
    tables: dict[str, Any] = {"game": game_raw.get("game", {}), "prophecies": game_raw.get("prophecies", {})}
    for players in (2, 3, 4):
        rc = game_raw.get("round_cards", {}).get(str(players))
        if not rc or len(rc.get("cards", [])) != 7:
            problems.append((f"round_cards.{players}", "expected 7 round cards"))
            continue
        for i, card in enumerate(rc["cards"]):
            if len(card) != 4 or not all(isinstance(s, int) and 1 <= s <= 4 for s in card):
                problems.append((f"round_cards.{players}.cards[{i}]", "expected 4 ship sizes from 1 to 4"))
        tables[f"round_cards.{players}"] = rc
    tables["cards"] = cards_raw.get("cards", {})
    for key in ("statue_points", "unused_blue_points", "decoration"):
        tables[key] = cards_raw.get(key, {})
    for name, card in tables["cards"].items():
        for k in ("colour", "count", "deck"):
            if k not in card:
                problems.append((f"cards.{name}.{k}", "missing"))
    problems += value_problems({**{n: sd.values for n, sd in sides.items()}, **tables},
                               meta=META_KEYS)
    if problems:
        raise BoardDataError(problems)
    return Board(MappingProxyType(sides), MappingProxyType({k: _freeze(v) for k, v in tables.items()}))


def _quote_problems(name: str, quotes: Any, table: dict) -> list[tuple[str, str]]:
    """A table's ``quotes``: the rule text's words for a value (all of it, or the part a key
    still listed as provisional takes from the text); ``quotes_en`` (a side's, which `sides`
    shows): the same keys, in English."""
    english = table.get("quotes_en", {})
    for key, q in (("quotes", quotes), ("quotes_en", english)):
        if not isinstance(q, dict) or not all(isinstance(x, str) and x for x in q.values()):
            return [(f"{name}.{key}", "expected a table of key = \"the rule text's words\"")]
    if english and set(english) != set(quotes):
        return [(f"{name}.quotes_en", f"expected the keys of quotes: {', '.join(quotes)}")]
    return [(f"{name}.quotes", f"names unknown key {k!r}") for k in quotes if k not in table or k in META_KEYS]


_DEFAULT: Board | None = None


def default_board() -> Board:
    """The package's board data, loaded once per process."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_board()
    return _DEFAULT

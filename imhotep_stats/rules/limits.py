"""The allowed range and type of every board-data value (data/*.toml and study overrides).

One table, :data:`RULES`: a dotted-key pattern (``*`` for any one key; list positions
dropped, so ``pyramid.*.points`` covers every item of every pyramid side's points) and what
the values there may be. :func:`value_problems` checks a whole board against it, plus the few limits
that tie two keys together (no more stones on a starting sled than the player has). :data:`FIXED`
lists the keys no override may change, each with the reason (what a card is: its colour, site,
deck); :func:`fixed_problems` refuses them. The
bounds are wide enough for any designer's what-if and tight enough that a game always ends,
no site indexes past its board and no score overflows the results' Int16 columns
(``sim/schema.py``).

``tests/test_hardening.py`` checks that every value of the package's data matches a rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any

from imhotep_stats.errors import describe

SITES = ("market", "pyramid", "temple", "burial_chamber", "obelisk")  # as rules.board


class Int:
    def __init__(self, low: int, high: int):
        self.low, self.high = low, high

    @property
    def allowed(self) -> str:
        return f"{self.low} to {self.high}"

    def problem(self, value: Any) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int) or not self.low <= value <= self.high:
            return f"expected an integer from {self.low} to {self.high}, got {describe(value)}"
        return None


class OneOf:
    def __init__(self, values: tuple[str, ...]):
        self.values = values

    @property
    def allowed(self) -> str:
        return "one of " + ", ".join(self.values)

    def problem(self, value: Any) -> str | None:
        if value not in self.values or not isinstance(value, str):
            return f"expected one of {', '.join(map(repr, self.values))}, got {describe(value)}"
        return None


class Text:
    def __init__(self, pattern: str, what: str):
        self.pattern, self.what = pattern, what

    @property
    def allowed(self) -> str:
        return self.what

    def problem(self, value: Any) -> str | None:
        if not isinstance(value, str) or not re.fullmatch(self.pattern, value):
            return f"expected {self.what}, got {describe(value)}"
        return None


ROUNDS = 6  # at most: 7 round cards, one removed; the results table has a column per round
POINTS = Int(-100, 100)  # points printed anywhere: wide, and no Int16 score can overflow
COUNT = Int(1, 10)  # a small size: rows, columns, stacks, heights
_PYRAMID_REWARD = r"|card|ship|[ps]\d{1,2}|stones\d{1,2}"
_TEMPLE_REWARD = r"(|none|card|draw[1-9]|[ps]\d{1,2})"
TEMPLE_REWARDS = Text(f"{_TEMPLE_REWARD}(\\|{_TEMPLE_REWARD})*",
                      "a reward: pN, sN, card, drawN, none or \"\", choices joined by '|'")

RULES: tuple[tuple[str, Int | OneOf | Text], ...] = (
    # game.toml
    ("game.rounds", Int(1, ROUNDS)),
    ("game.stones", Int(1, 100)),
    ("game.stones_two_colour", Int(1, 200)),
    ("game.sled_capacity", Int(1, 20)),
    ("game.starting_sled", Int(0, 20)),
    ("game.get_stones", Int(1, 20)),  # 0 would let "get stones" repeat forever
    ("round_cards.*.cards", Int(1, 4)),  # ship sizes: the ships have 1 to 4 spaces
    ("prophecies.cards_in_play", Int(1, 7)),
    ("prophecies.scarabs", Int(0, 10)),
    ("prophecies.windows", Int(1, 6)),
    ("prophecies.fulfilled", POINTS),
    ("prophecies.failed", POINTS),
    ("prophecies.gods", OneOf(("amun", "ra", "horus", "osiris", "thoth", "hathor", "anubis"))),
    # cards.toml
    ("statue_points.table", Int(0, 100)),
    ("statue_points.extra", Int(0, 100)),
    ("unused_blue_points.points", POINTS),
    ("decoration.stones_per_point", Int(1, 30)),  # a divisor
    ("cards.*.colour", OneOf(("red", "green", "purple", "blue", "kept"))),
    ("cards.*.count", Int(0, 20)),
    ("cards.*.deck", OneOf(("base", "expansion"))),
    ("cards.*.site", OneOf(SITES)),
    ("cards.*.capacity", Int(0, 10)),
    ("cards.*.points", POINTS),
    ("cards.*.stones", Int(0, 20)),
    ("cards.*.same_as", Text(r"[a-z_]+", "a card name")),
    # board.toml: market
    ("market.*.display", Int(1, 8)),
    ("market.*.hidden_pair", Int(1, 4)),
    ("market.*.coins", Int(0, 20)),
    ("market.*.stacks", Int(1, 4)),
    ("market.*.stack_size", COUNT),
    # pyramid
    ("pyramid.*.points", POINTS),
    ("pyramid.*.overflow_points", POINTS),
    ("pyramid.*.bonus", Text(_PYRAMID_REWARD, 'a reward: "", card, ship, pN, sN or stonesN')),
    ("pyramid.*.tiles", Text(_PYRAMID_REWARD, "a reward: card, ship, pN, sN or stonesN")),
    ("pyramid.*.tiles_in_play", Int(1, 5)),
    ("pyramid.*.majority_points", POINTS),
    ("pyramid.*.majority_tie_points", POINTS),
    # temple
    ("temple.*.width_by_players.*", COUNT),
    ("temple.*.visible_points", POINTS),
    ("temple.*.rewards", TEMPLE_REWARDS),
    ("temple.*.bonuses", TEMPLE_REWARDS),
    ("temple.*.arrowheads", Int(0, 5)),
    ("temple.*.overflow_move", Int(0, 5)),
    ("temple.*.track_points", POINTS),
    ("temple.*.round_points", POINTS),
    ("temple.*.round_points_2p", POINTS),
    ("temple.*.finish_point", POINTS),
    # burial chamber
    ("burial_chamber.*.rows", COUNT),
    ("burial_chamber.*.columns", COUNT),
    ("burial_chamber.*.group_points", POINTS),
    ("burial_chamber.*.group_extra", POINTS),
    ("burial_chamber.*.row_points", POINTS),
    ("burial_chamber.*.levels", COUNT),
    ("burial_chamber.*.level_cap", COUNT),
    ("burial_chamber.*.overflow_points", POINTS),
    ("burial_chamber.*.tokens_per_round", Int(0, 100)),
    ("burial_chamber.*.no_token_points", POINTS),
    ("burial_chamber.*.absent_penalty", POINTS),
    # obelisks
    ("obelisk.*.points_by_players.*", POINTS),
    ("obelisk.*.stones_per_obelisk", COUNT),
    ("obelisk.*.slots", POINTS),
    ("obelisk.*.leftover_points", POINTS),
    ("obelisk.*.columns", COUNT),
    ("obelisk.*.path", OneOf(("M", "D", "I", "L", "T", "O"))),
    ("obelisk.*.row_points", POINTS),
    ("obelisk.*.rank_bonus_by_players.*", POINTS),
    ("obelisk.*.obelisks", Int(1, 50)),  # (height, points) pairs
    ("obelisk.*.overflow_points", POINTS),
    ("obelisk.*.unfinished_points", POINTS),
)

# Values that say what a thing *is*, not how much: an override may not change them, because
# the changed game would need a rule the rulebook does not have (the reason is the message).
# Every other key of RULES stays overridable within its range: a number, a size, a reward or
# a path whose every value the engine plays by the rules (docs/rules.md §10).
FIXED: tuple[tuple[str, str], ...] = (
    ("cards.*.colour", "a card's colour decides when and how it is played (red at once, green "
     "decorations at game end, purple statues, blue once on a turn, kept cards held); a "
     "statue played as a decoration is no rule of the game: change its count instead"),
    ("cards.*.site", "a red or green card acts on the site it is printed for (an Entrance of "
     "the Temple is no card of the game)"),
    ("cards.*.deck", "the base deck and the expansion deck come with their own rules (a "
     "card of A New Dynasty needs them): set count = 0 to leave a card out"),
    ("cards.*.same_as", "which card a card is shuffled in as is its identity, not a number"),
)


_SPLIT = tuple((tuple(pattern.split(".")), rule) for pattern, rule in RULES)
_FIXED_SPLIT = tuple((tuple(pattern.split(".")), why) for pattern, why in FIXED)


def rule_for(key: str) -> Int | OneOf | Text | None:
    """The rule of a dotted key (list positions like ``[3]`` are ignored)."""
    return _rule_for(_POSITION.sub("", key))


_POSITION = re.compile(r"\[\d+\]")


@lru_cache(maxsize=1024)  # a board has a few hundred values but only ~150 distinct keys
def _rule_for(plain: str) -> Int | OneOf | Text | None:
    parts = plain.split(".")
    for pattern, rule in _SPLIT:  # segment by segment: fnmatch's regexes cost more to build
        if _matches(pattern, parts):
            return rule
    return None


def _matches(pattern: tuple[str, ...], parts: list[str]) -> bool:
    return len(pattern) == len(parts) and all(p in ("*", k) for p, k in zip(pattern, parts, strict=True))


def fixed_problems(overrides: Mapping[str, Any], prefix: str = "overrides."
                   ) -> list[tuple[str, str]]:
    """(dotted key, message) for every override of a FIXED key, whatever its value (the
    value it already has too: such a key is no what-if at all)."""
    out = []
    for top, sub in overrides.items():
        for key, _ in leaves(sub, str(top)):
            parts = _POSITION.sub("", key).split(".")
            why = next((w for pattern, w in _FIXED_SPLIT if _matches(pattern, parts)), None)
            if why:
                out.append((f"{prefix}{key}", f"cannot be overridden: this is a rule of the "
                            f"game, not a number ({why})"))
    return out


def allowed(key: str) -> str:
    """What an override of ``key`` may be, in words ("1 to 6"; "fixed" for FIXED keys)."""
    parts = _POSITION.sub("", key).split(".")
    if any(_matches(pattern, parts) for pattern, _ in _FIXED_SPLIT):
        return "fixed (a rule of the game)"
    rule = rule_for(key)
    return rule.allowed if rule else "-"


def leaves(value: Any, key: str, meta: tuple[str, ...] = ()) -> Iterator[tuple[str, Any]]:
    """Every scalar under ``value`` with its dotted key (``points[3]``, ``width.3``),
    leaving out the tables' ``meta`` keys (provenance, quotes: not numbers of the game)."""
    if isinstance(value, Mapping):
        for k, v in value.items():
            if k not in meta:
                yield from leaves(v, f"{key}.{k}", meta)
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            yield from leaves(v, f"{key}[{i}]", meta)
    else:
        yield key, value


def value_problems(tables: Mapping[str, Mapping[str, Any]], prefix: str = "",
                   only: set[str] | None = None, meta: tuple[str, ...] = ()
                   ) -> list[tuple[str, str]]:
    """(dotted key, message) for every value of ``tables`` (name -> values, e.g.
    ``"pyramid.A"`` or ``"game"``) outside its rule; ``only``: the table names to check."""
    out = []
    for name, values in tables.items():
        if only is not None and name not in only:
            continue
        for key, value in leaves(values, name, meta):
            rule = rule_for(key)
            problem = rule.problem(value) if rule else None
            if problem:
                out.append((f"{prefix}{key}", problem))
    out += _cross_problems(tables, prefix, only)
    return out


def _cross_problems(tables: Mapping[str, Mapping[str, Any]], prefix: str,
                    only: set[str] | None) -> list[tuple[str, str]]:
    """Limits that tie two values together."""
    out = []

    def wanted(name: str) -> bool:
        return name in tables and (only is None or name in only)

    game = tables.get("game", {})
    if wanted("game"):  # (a sled may start above its capacity: no get until it is below)
        stones = game.get("stones")
        for i, s in enumerate(game.get("starting_sled", ())):
            if isinstance(s, int) and isinstance(stones, int) and s > stones:
                out.append((f"{prefix}game.starting_sled[{i}]",
                            f"expected at most the stones per colour ({stones}), got {s}"))
    if wanted("prophecies"):
        pro = tables["prophecies"]
        n, gods = pro.get("cards_in_play"), pro.get("gods", ())
        if isinstance(n, int) and n > len(gods):
            out.append((f"{prefix}prophecies.cards_in_play",
                        f"expected at most the {len(gods)} gods listed, got {n}"))
        # one card per god, and a round in one placement window: the rules have no other
        for i, god in enumerate(gods):
            if god in gods[:i]:
                out.append((f"{prefix}prophecies.gods[{i}]", f"{god!r} is listed twice "
                            "(there is one prophecy card per god)"))
        seen: dict[int, int] = {}
        for w, rounds in enumerate(pro.get("windows", ())):
            for j, r in enumerate(rounds if isinstance(rounds, list | tuple) else ()):
                if r in seen and seen[r] != w:
                    out.append((f"{prefix}prophecies.windows[{w}][{j}]", f"round {r} is "
                                f"already in window {seen[r] + 1} (a round belongs to one "
                                "placement window)"))
                seen.setdefault(r, w)
    for name, values in tables.items():
        if not wanted(name):
            continue
        if "tiles_in_play" in values and isinstance(values["tiles_in_play"], int) \
                and values["tiles_in_play"] > len(values.get("tiles", ())):
            out.append((f"{prefix}{name}.tiles_in_play",
                        f"expected at most the {len(values.get('tiles', ()))} tiles, "
                        f"got {values['tiles_in_play']}"))
        for table in ("rewards", "bonuses"):  # a temple's columns each need their reward
            widths = values.get("width_by_players", {})
            if table in values and isinstance(widths, Mapping):
                for players, width in widths.items():
                    if isinstance(width, int) and width > len(values[table]):
                        out.append((f"{prefix}{name}.width_by_players.{players}",
                                    f"expected at most the {len(values[table])} columns of "
                                    f"{table}, got {width}"))
        rows, cols = values.get("rows"), values.get("columns")
        tokens = values.get("tokens_per_round")
        if all(isinstance(x, int) for x in (rows, cols, tokens)) and tokens > rows * cols:
            out.append((f"{prefix}{name}.tokens_per_round",
                        f"expected at most rows x columns ({rows * cols}), got {tokens}"))
    return out

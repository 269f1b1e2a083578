"""The ``[bots]`` table of a study config: lineups (names, or lists of them, per player count)
and personas defined in the config. What a name or a spec may be is the bots layer's
(``imhotep_stats.bots``); this module only walks the table and names the dotted keys."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from imhotep_stats.config.validate import NAME, Validator
from imhotep_stats.errors import describe, did_you_mean, unknown_key


def lineups(v: Validator, bots: Mapping[str, Any], players: list[int], personas: set[str]
            ) -> tuple[tuple[int, tuple[tuple[str, ...], ...]], ...]:
    """``bots.lineup``: a list of names, a list of such lists (several lineups, one cell
    each), or a table per player count ("2", "3", "4") of either."""
    v.known(bots, "bots", ("lineup", "personas"))
    value = bots.get("lineup", ["random"])
    if isinstance(value, Mapping):
        for k in value:
            if k not in {str(n) for n in players}:
                v.problem(f"bots.lineup.{k}", "unknown player count (the study plays "
                             f"{', '.join(map(str, players)) or 'none'})")
        out = []
        for n in players:
            if str(n) not in value:
                v.problem(f"bots.lineup.{n}", f"missing: the study plays {n} players "
                             "(expected a list of bot names)")
                continue
            out.append((n, _lineup_list(v, value[str(n)], f"bots.lineup.{n}", personas)))
        return tuple(out)
    lineups = _lineup_list(v, value, "bots.lineup", personas)
    return tuple((n, lineups) for n in players)


def personas(v: Validator, bots: Mapping[str, Any]) -> dict[str, Any]:
    """``[bots.personas.NAME]``: a bot defined by weights, without code
    (``base = "greedy"``, ``weights = {pyramid = 1.6, deny = 0.5}``), or a search bot's
    settings; lineups may name it. Returns name -> spec of the valid ones."""
    from imhotep_stats.bots import REGISTRY, BotSpecError, make_bot, spec_keys

    table = bots.get("personas", {})
    if not isinstance(table, Mapping):
        v.problem("bots.personas", f"expected a table, got {describe(table)}")
        return {}
    out: dict[str, Any] = {}
    for name, spec in table.items():
        key = f"bots.personas.{name}"
        if name in REGISTRY:
            v.problem(key, f"{name!r} is a built-in bot: give the persona another name")
            continue
        if not NAME.match(name):  # lineups are joined with commas in the results
            v.problem(key, "expected a persona name of letters, digits, '.', '_' or "
                         f"'-', got {name!r}")
            continue
        if not isinstance(spec, Mapping):
            v.problem(key, f"expected a table with base and weights, got {describe(spec)}")
            continue
        allowed = tuple(k for k in spec_keys(spec) if k != "name")  # the name is the key
        unknown = sorted(set(spec) - set(allowed))
        if unknown:
            v.problem(f"{key}.{unknown[0]}", unknown_key(unknown[0], allowed, ""))
            continue
        try:
            make_bot({**spec, "name": name})
        except BotSpecError as exc:
            # an error about one key of the table is reported at its dotted key
            v.problem(f"{key}.{exc.field}" if exc.field in spec else key, str(exc))
            continue
        if not v.json_safe(spec, key):
            continue
        out[name] = {**spec, "name": name}
    return out


def _lineup_list(v: Validator, value: Any, key: str, personas: set[str]
                 ) -> tuple[tuple[str, ...], ...]:
    if isinstance(value, list) and value and all(isinstance(x, list) for x in value):
        out: list[tuple[str, ...]] = []
        for i, x in enumerate(value):
            lineup = _lineup(v, x, f"{key}[{i}]", personas)
            if lineup in out:  # two cells with one name would pool their rows
                v.problem(f"{key}[{i}]", "this lineup is listed twice")
            else:
                out.append(lineup)
        return tuple(out)
    return (_lineup(v, value, key, personas),)


def _lineup(v: Validator, value: Any, key: str, personas: set[str]) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value:
        v.problem(key, f"expected a non-empty list of bot names, got {describe(value)}")
        return ("random",)
    for i, name in enumerate(value):
        problem = bot_name_problem(name, personas)
        if problem:
            v.problem(f"{key}[{i}]", problem)
    return tuple(str(x) for x in value)


def bot_name_problem(name: Any, personas: set[str] | frozenset[str] = frozenset()) -> str | None:
    """What is wrong with a bot name in a lineup (None: a built-in bot, ``mctsN`` or one of
    ``personas``), with the nearest name for a misspelling."""
    from imhotep_stats.bots import REGISTRY, is_bot_name

    if isinstance(name, str) and (name in personas or is_bot_name(name)):
        return None
    known = sorted(set(REGISTRY) | set(personas))
    return (f"{did_you_mean(name, known) if isinstance(name, str) else ''}expected a bot "
            f"name ({', '.join(known)}, or mctsN such as mcts400), got {describe(name)}")

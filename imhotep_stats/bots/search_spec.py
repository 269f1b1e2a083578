"""The ``mcts`` bot's specs: information-set MCTS with a budget in iterations, played by the
core (src/search/). This module checks a spec and resolves it to the core's table.

Specs: ``mcts400`` on the command line (400 iterations, random rollouts; ``mcts400-greedy``
greedy rollouts; ``mcts400-t40``, ``mcts400-greedy-t40`` rollouts truncated after 40
decisions and scored by an estimate, ``mcts400-t40-v`` by the learned value; ``-bB`` the greedy bot's ranking of the root's actions
as a prior of weight B, ``-mM`` the score margin's weight M in the reward, ``-s`` stop a
decision's search once its choice cannot change, ``-cC`` UCB1's exploration C); in a config
a table ``{base = "mcts", iterations = 400, rollout = "random", exploration = 0.7,
truncate = 40, value = false, bias = 1, margin = 0, stop = true, name = "..."}`` (every key
but ``base`` optional; no ``truncate``: rollouts play to the game's end; ``value`` needs it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from imhotep_stats.bots.weights import BotSpecError

DEFAULT_ITERATIONS = 400
DEFAULT_EXPLORATION = 0.7  # UCB1's c for rewards in [0, 1]
ROLLOUTS = ("random", "greedy")
NAME = re.compile(r"mcts(\d+)(?:-(random|greedy))?(?:-t(\d+))?(-v)?(?:-b(\d+(?:\.\d+)?))?"
                  r"(?:-m(\d+(?:\.\d+)?))?(-s)?(?:-c(\d+(?:\.\d+)?))?")
PLAIN: dict = {}  # base = "mcts": the defaults below
# The reference bot, ``expert``: the search settings that won at equal CPU, at the iterations
# that fit 2 s of CPU a 2-player seat-game (docs/search.md "The reference bot" has the evidence).
EXPERT: dict = {"iterations": 1900, "bias": 1.0, "stop": True}
SPEC_KEYS = ("base", "bias", "exploration", "iterations", "margin", "name", "rollout", "stop",
             "truncate", "value")


def search_spec(name: str | None = None, iterations: int = DEFAULT_ITERATIONS,
                rollout: str = "random", exploration: float = DEFAULT_EXPLORATION,
                truncate: int | None = None, bias: float = 0.0, margin: float = 0.0,
                stop: bool = False, value: bool = False) -> dict:
    """The core's table for a search bot; its name by default says its settings
    (``mcts400-greedy-t40-v-b1-s``)."""
    suffix = "" if rollout == "random" else f"-{rollout}"
    if truncate is not None:
        suffix += f"-t{truncate}"
    if value:
        suffix += "-v"
    if bias:
        suffix += f"-b{bias:g}"
    if margin:
        suffix += f"-m{margin:g}"
    if stop:
        suffix += "-s"
    if exploration != DEFAULT_EXPLORATION:
        suffix += f"-c{exploration:g}"
    spec = {"base": "mcts", "name": name or f"mcts{iterations}{suffix}",
            "iterations": iterations, "rollout": rollout, "exploration": exploration,
            "truncate": truncate, "bias": bias, "margin": margin, "stop": stop}
    if value:  # only then: the tables (and config hashes) of bots without it stay as they were
        spec["value"] = True
    return spec


def is_search_name(name: str) -> bool:
    """Whether ``name`` names an mcts bot by its budget (``mcts400``, ``mcts50-greedy``,
    ``mcts400-t40``, ``mcts400-t40-v``)."""
    m = NAME.fullmatch(name)
    return (m is not None and int(m.group(1)) >= 1 and (m.group(3) is None or int(m.group(3)) >= 1)
            and (m.group(4) is None or m.group(3) is not None))


def spec_from_name(name: str) -> dict | None:
    """``mcts400`` / ``mcts400-greedy`` / ``mcts400-t40`` -> the core's table; None if
    ``name`` is not of that form."""
    m = NAME.fullmatch(name)
    if m is None:
        return None
    iterations = int(m.group(1))
    if iterations < 1:
        raise BotSpecError(f"bot {name!r}: the iteration budget must be at least 1")
    truncate = None if m.group(3) is None else int(m.group(3))
    if truncate is not None and truncate < 1:
        raise BotSpecError(f"bot {name!r}: a truncated rollout plays at least 1 decision (-t1)")
    value = m.group(4) is not None
    if value and truncate is None:
        raise BotSpecError(f"bot {name!r}: the learned value (-v) scores truncated rollouts: "
                           f"give -tN before it")
    bias, margin, explore = (float(x) if x else 0.0 for x in (m.group(5), m.group(6), m.group(8)))
    if margin > 1:
        raise BotSpecError(f"bot {name!r}: the margin weight (-m) is at most 1")
    return search_spec(name, iterations, m.group(2) or "random", explore or DEFAULT_EXPLORATION,
                       truncate, bias, margin, m.group(7) is not None, value)


def expert_spec(name: str = "expert") -> dict:
    """The reference bot: the search with the settings that won at equal CPU time (``EXPERT``;
    docs/search.md "The reference bot")."""
    return search_spec(name, **EXPERT)


def spec_from_table(spec: Mapping[str, object]) -> dict:
    """The core's table for a config table with ``base = "mcts"`` (plain search's defaults)
    or ``base = "expert"`` (the reference bot's); errors name the key."""
    base = spec.get("base", "mcts")
    unknown = sorted(set(spec) - set(SPEC_KEYS))
    if unknown:
        raise BotSpecError(f"bot spec: unknown key {unknown[0]!r} for base {base!r} "
                           f"(known: {', '.join(SPEC_KEYS)})")
    defaults = EXPERT if base == "expert" else PLAIN
    spec = {**defaults, **spec}
    iterations = spec.get("iterations", DEFAULT_ITERATIONS)
    if type(iterations) is not int or iterations < 1:
        raise BotSpecError(f"bot spec iterations: expected an integer >= 1, got {iterations!r}", field="iterations")
    rollout = spec.get("rollout", "random")
    if rollout not in ROLLOUTS:
        raise BotSpecError(f"bot spec rollout: expected one of {', '.join(ROLLOUTS)}, "
                           f"got {rollout!r}", field="rollout")
    exploration = spec.get("exploration", DEFAULT_EXPLORATION)
    if type(exploration) not in (int, float) or not exploration >= 0:
        raise BotSpecError(f"bot spec exploration: expected a number >= 0, got {exploration!r}", field="exploration")
    truncate = spec.get("truncate")
    if truncate is not None and (type(truncate) is not int or truncate < 1):
        raise BotSpecError(f"bot spec truncate: expected an integer >= 1 (decisions a rollout "
                           f"plays before it is scored), got {truncate!r}", field="truncate")
    value = spec.get("value", False)
    if type(value) is not bool:
        raise BotSpecError(f"bot spec value: expected true or false, got {value!r}", field="value")
    if value and truncate is None:
        raise BotSpecError("bot spec value: the learned value scores truncated rollouts: "
                           "give truncate too", field="value")
    name = spec.get("name", "expert" if base == "expert" else None)
    if name is not None and (not isinstance(name, str) or not name):
        raise BotSpecError(f"bot spec name: expected a non-empty string, got {name!r}", field="name")
    bias = spec.get("bias", 0.0)
    if type(bias) not in (int, float) or not bias >= 0:
        raise BotSpecError(f"bot spec bias: expected a number >= 0, got {bias!r}", field="bias")
    margin = spec.get("margin", 0.0)
    if type(margin) not in (int, float) or not 0 <= margin <= 1:
        raise BotSpecError(f"bot spec margin: expected a number from 0 to 1, got {margin!r}", field="margin")
    stop = spec.get("stop", False)
    if type(stop) is not bool:
        raise BotSpecError(f"bot spec stop: expected true or false, got {stop!r}", field="stop")
    return search_spec(name, iterations, str(rollout), float(exploration), truncate,  # type: ignore[arg-type]
                       float(bias), float(margin), stop, value)

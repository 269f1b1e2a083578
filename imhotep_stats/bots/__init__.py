"""Bots and the bot registry (``--bots random,greedy,pyramid`` and config lineups).

A bot spec is either a registered name (``"greedy"``, ``"random"``, a persona such as
``"pyramid"``) or a table that defines a persona by weights, without code::

    {"base": "greedy", "weights": {"pyramid": 1.6, "deny": 0.8}, "name": "builder"}

``base`` is a registered greedy-family bot (default ``"greedy"``) whose weights are the
starting point; ``weights`` overrides some of them (keys: ``weights.WEIGHT_DOCS``; an
unknown key is an error naming it); ``name`` labels the bot in reports (default: the base
name plus ``+``). ``register_persona(name, weights)`` adds a named persona.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from imhotep_stats.bots.base import Bot
from imhotep_stats.bots.core_bot import CoreBot, seat_rng
from imhotep_stats.bots.search_spec import (
    SPEC_KEYS,
    expert_spec,
    is_search_name,
    spec_from_name,
    spec_from_table,
)
from imhotep_stats.bots.weights import DEFAULT_WEIGHTS, WEIGHT_DOCS, BotSpecError, check_weights

# name -> factory of a fresh bot for one seat and game. The core plays the built-in bots
# (CoreBot); a bot written in Python registered here plays through the same protocol.
REGISTRY: dict[str, Callable[[], Bot]] = {
    "random": lambda: CoreBot("random"),
    "expert": lambda: CoreBot(expert_spec()),
}
# greedy-family names -> their full weights (the base a spec table may start from)
PERSONAS: dict[str, dict[str, float]] = {}

# The built-in personas: the greedy evaluator with one source (or style) emphasised.
BUILTIN_PERSONAS: dict[str, dict[str, float]] = {
    "greedy": {},
    "balanced": {"deny": 0.35},
    "pyramid": {"pyramid": 1.8, "temple": 0.8, "burial_chamber": 0.8, "obelisk": 0.8},
    "temple": {"temple": 1.8, "pyramid": 0.8, "burial_chamber": 0.8, "obelisk": 0.8},
    "burial": {"burial_chamber": 1.8, "pyramid": 0.8, "temple": 0.8, "obelisk": 0.8},
    "obelisk": {"obelisk": 1.8, "pyramid": 0.8, "temple": 0.8, "burial_chamber": 0.8},
    "market": {"market": 1.5, "card_statue": 1.4, "card_decoration": 1.2,
               "pyramid": 0.8, "temple": 0.8, "burial_chamber": 0.8, "obelisk": 0.8},
}


def register_persona(name: str, weights: Mapping[str, float], base: str = "greedy") -> None:
    """Register a greedy-family bot ``name`` with ``weights`` over ``base``'s weights."""
    if not isinstance(name, str) or not name or "," in name:
        raise BotSpecError(f"persona name: expected a non-empty name without commas, got {name!r}")
    if name == "random":
        raise BotSpecError("persona name: 'random' is the random bot")
    start = _base_weights(base, f"persona {name!r}")
    full = {**start, **check_weights(weights, f"persona {name!r} weights")}
    PERSONAS[name] = full
    REGISTRY[name] = lambda: CoreBot(greedy_spec(name, full))


def greedy_spec(name: str, weights: Mapping[str, float]) -> dict:
    """The core's table for a greedy-family bot with these full weights."""
    return {"base": "greedy", "weights": dict(weights), "name": name}


def _base_weights(base: object, where: str) -> dict[str, float]:
    if base not in PERSONAS:
        raise BotSpecError(
            f"{where}: base {base!r} is not a greedy-family bot "
            f"(known: {', '.join(sorted(PERSONAS))})"
        )
    return PERSONAS[base]  # type: ignore[index]


def make_bot(spec: str | Mapping[str, object]) -> Bot:
    """A fresh bot for one seat from a spec: a registered name (``greedy``, ``mcts400``), or a
    table ``{base, weights, name}`` (a search bot's: ``base = "mcts"`` and its settings).
    Every bad name or spec raises :class:`BotSpecError`, naming what is wrong."""
    if isinstance(spec, str):
        try:
            return REGISTRY[spec]()
        except KeyError:
            searcher = spec_from_name(spec)  # mcts400, mcts100-greedy: any budget
            if searcher is not None:
                return CoreBot(searcher)
            raise BotSpecError(
                f"unknown bot {spec!r} (known: {', '.join(sorted(REGISTRY))}, mctsN such as mcts400)"
            ) from None
    if not isinstance(spec, Mapping):
        raise BotSpecError(f"bot spec: expected a name or a table, got {type(spec).__name__}")
    if spec.get("base") in ("mcts", "expert"):
        return CoreBot(spec_from_table(spec))
    unknown = sorted(set(spec) - {"base", "weights", "name"})
    if unknown:
        raise BotSpecError(f"bot spec: unknown key {unknown[0]!r} (known: base, name, weights)")
    base = spec.get("base", "greedy")
    start = _base_weights(base, "bot spec")
    weights = spec.get("weights", {})
    full = {**start, **check_weights(weights, "bot spec weights")}  # type: ignore[arg-type]
    name = spec.get("name", f"{base}+")
    if not isinstance(name, str) or not name:
        raise BotSpecError(f"bot spec name: expected a non-empty string, got {name!r}", field="name")
    return CoreBot(greedy_spec(name, full))


def is_bot_name(name: str) -> bool:
    """Whether ``name`` names a bot without a spec table: registered, or ``mctsN...``."""
    return name in REGISTRY or is_search_name(name)


def spec_keys(spec: Mapping[str, object]) -> tuple[str, ...]:
    """The keys a spec table may hold: a search bot's settings, or a persona's."""
    return SPEC_KEYS if spec.get("base") in ("mcts", "expert") else ("base", "name", "weights")


def bot_names() -> list[str]:
    return sorted(REGISTRY)


def persona_weights(name: str) -> dict[str, float]:
    """The full weights of a greedy-family bot (reports, docs)."""
    return dict(_base_weights(name, "persona_weights"))


PERSONAS["greedy"] = dict(DEFAULT_WEIGHTS)
for _name, _w in BUILTIN_PERSONAS.items():
    register_persona(_name, _w, base="greedy")

__all__ = [
    "BUILTIN_PERSONAS", "REGISTRY", "WEIGHT_DOCS", "Bot", "BotSpecError", "CoreBot", "bot_names",
    "greedy_spec", "is_bot_name", "make_bot", "persona_weights", "register_persona", "seat_rng",
    "spec_keys",
]

"""Bots and the bot registry (``--bots random,greedy`` and config lineups)."""

from __future__ import annotations

from collections.abc import Callable

from imhotep_stats.bots.base import Bot, RandomBot

# name -> factory; the scripted bots register themselves here.
REGISTRY: dict[str, Callable[[], Bot]] = {"random": RandomBot}


class UnknownBot(ValueError):
    pass


def make_bot(name: str) -> Bot:
    try:
        return REGISTRY[name]()
    except KeyError:
        raise UnknownBot(f"unknown bot {name!r} (known: {', '.join(sorted(REGISTRY))})") from None


def bot_names() -> list[str]:
    return sorted(REGISTRY)


__all__ = ["REGISTRY", "Bot", "RandomBot", "UnknownBot", "bot_names", "make_bot"]

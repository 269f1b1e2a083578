"""The ``mcts`` bot: information-set MCTS with a budget in iterations (``tree.search``).

Specs: ``mcts400`` on the command line (400 iterations, random rollouts; ``mcts400-greedy``
greedy rollouts; ``mcts400-t40``, ``mcts400-greedy-t40`` rollouts truncated after 40
decisions and scored by ``evaluate``); in a config a table ``{base = "mcts", iterations =
400, rollout = "random", exploration = 0.7, truncate = 40, name = "..."}`` (every key but
``base`` optional; no ``truncate``: rollouts play to the game's end).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from imhotep_stats.bots.search.rollout import ROLLOUTS, make_rollout
from imhotep_stats.bots.search.tree import NO_LIMIT, best_action, search
from imhotep_stats.bots.weights import BotSpecError

if TYPE_CHECKING:
    from imhotep_stats.engine.actions import Action
    from imhotep_stats.engine.view import View

DEFAULT_ITERATIONS = 400
DEFAULT_EXPLORATION = 0.7  # UCB1's c for rewards in [0, 1]
NAME = re.compile(r"mcts(\d+)(?:-(random|greedy))?(?:-t(\d+))?")
SPEC_KEYS = ("base", "exploration", "iterations", "name", "rollout", "truncate")


class MctsBot:
    """IS-MCTS over determinized copies of the game; ``iterations`` per decision."""

    def __init__(self, name: str | None = None, iterations: int = DEFAULT_ITERATIONS,
                 rollout: str = "random", exploration: float = DEFAULT_EXPLORATION,
                 truncate: int | None = None):
        self.iterations = iterations
        self.truncate = truncate  # None: rollouts to the game's end
        self.depth = NO_LIMIT if truncate is None else truncate
        self.rollout_name = rollout
        self.rollout = make_rollout(rollout)
        self.exploration = exploration
        suffix = "" if rollout == "random" else f"-{rollout}"
        if truncate is not None:
            suffix += f"-t{truncate}"
        self.name = name or f"mcts{iterations}{suffix}"
        self.searched = 0  # iterations run so far (benchmarks)

    def __repr__(self) -> str:
        return f"MctsBot({self.name!r})"

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        # the search sees only samples of the game the view allows (View.sample)
        root = search(view, view.me, rng, self.iterations, self.exploration,
                      self.rollout, self.depth)
        self.searched += self.iterations
        return best_action(root, legal)


def is_search_name(name: str) -> bool:
    """Whether ``name`` names an mcts bot by its budget (``mcts400``, ``mcts50-greedy``,
    ``mcts400-t40``)."""
    m = NAME.fullmatch(name)
    return m is not None and int(m.group(1)) >= 1 and (m.group(3) is None or int(m.group(3)) >= 1)


def mcts_from_name(name: str) -> MctsBot | None:
    """``mcts400`` / ``mcts400-greedy`` / ``mcts400-t40`` -> a bot; None if ``name`` is not
    of that form."""
    m = NAME.fullmatch(name)
    if m is None:
        return None
    iterations = int(m.group(1))
    if iterations < 1:
        raise BotSpecError(f"bot {name!r}: the iteration budget must be at least 1")
    truncate = None if m.group(3) is None else int(m.group(3))
    if truncate is not None and truncate < 1:
        raise BotSpecError(f"bot {name!r}: a truncated rollout plays at least 1 decision (-t1)")
    return MctsBot(name, iterations, m.group(2) or "random", truncate=truncate)


def mcts_from_spec(spec: Mapping[str, object]) -> MctsBot:
    """A bot from a config table with ``base = "mcts"``; errors name the key."""
    unknown = sorted(set(spec) - set(SPEC_KEYS))
    if unknown:
        raise BotSpecError(f"bot spec: unknown key {unknown[0]!r} for base 'mcts' "
                           f"(known: {', '.join(SPEC_KEYS)})")
    iterations = spec.get("iterations", DEFAULT_ITERATIONS)
    if type(iterations) is not int or iterations < 1:
        raise BotSpecError(f"bot spec iterations: expected an integer >= 1, got {iterations!r}")
    rollout = spec.get("rollout", "random")
    if rollout not in ROLLOUTS:
        raise BotSpecError(f"bot spec rollout: expected one of {', '.join(ROLLOUTS)}, "
                           f"got {rollout!r}")
    exploration = spec.get("exploration", DEFAULT_EXPLORATION)
    if type(exploration) not in (int, float) or not exploration >= 0:
        raise BotSpecError(f"bot spec exploration: expected a number >= 0, got {exploration!r}")
    truncate = spec.get("truncate")
    if truncate is not None and (type(truncate) is not int or truncate < 1):
        raise BotSpecError(f"bot spec truncate: expected an integer >= 1 (decisions a rollout "
                           f"plays before it is scored), got {truncate!r}")
    name = spec.get("name")
    if name is not None and (not isinstance(name, str) or not name):
        raise BotSpecError(f"bot spec name: expected a non-empty string, got {name!r}")
    return MctsBot(name, iterations, str(rollout), float(exploration), truncate)

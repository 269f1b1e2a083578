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
from math import exp
from typing import TYPE_CHECKING

from imhotep_stats.bots.greedy import GreedyBot
from imhotep_stats.bots.search.rollout import ROLLOUTS, make_rollout
from imhotep_stats.bots.search.tree import NO_LIMIT, best_action, search
from imhotep_stats.bots.weights import BotSpecError

if TYPE_CHECKING:
    from imhotep_stats.engine.actions import Action
    from imhotep_stats.engine.view import View

DEFAULT_ITERATIONS = 400
DEFAULT_EXPLORATION = 0.7  # UCB1's c for rewards in [0, 1]
PRIOR_TEMPERATURE = 1.0  # points: greedy's prices -> root priors, softmax at this scale
NAME = re.compile(r"mcts(\d+)(?:-(random|greedy))?(?:-t(\d+))?(?:-b(\d+(?:\.\d+)?))?"
                  r"(?:-m(\d+(?:\.\d+)?))?(-s)?(?:-c(\d+(?:\.\d+)?))?")
PLAIN: dict = {}  # base = "mcts": the defaults of MctsBot
# The reference bot, ``expert``: the search settings that won at equal CPU, at the iterations
# that fit 2 s of CPU a 2-player seat-game (docs/search.md "The reference bot" has the evidence).
EXPERT: dict = {"iterations": 1900, "bias": 1.0, "stop": True}
SPEC_KEYS = ("base", "bias", "exploration", "iterations", "margin", "name", "rollout", "stop",
             "truncate")


class MctsBot:
    """IS-MCTS over determinized copies of the game; ``iterations`` per decision.

    ``bias``: weight of the greedy bot's ranking of the root's actions (progressive bias;
    0: none). ``margin``: weight of the score margin in the reward (0: the win alone).
    ``stop``: stop a decision's search once its choice cannot change."""

    def __init__(self, name: str | None = None, iterations: int = DEFAULT_ITERATIONS,
                 rollout: str = "random", exploration: float = DEFAULT_EXPLORATION,
                 truncate: int | None = None, bias: float = 0.0, margin: float = 0.0,
                 stop: bool = False):
        self.iterations = iterations
        self.truncate = truncate  # None: rollouts to the game's end
        self.depth = NO_LIMIT if truncate is None else truncate
        self.rollout_name = rollout
        self.rollout = make_rollout(rollout)
        self.exploration = exploration
        self.bias = bias
        self.margin = margin
        self.stop = stop
        self.pricer = GreedyBot() if bias else None
        suffix = "" if rollout == "random" else f"-{rollout}"
        if truncate is not None:
            suffix += f"-t{truncate}"
        if bias:
            suffix += f"-b{bias:g}"
        if margin:
            suffix += f"-m{margin:g}"
        if stop:
            suffix += "-s"
        if exploration != DEFAULT_EXPLORATION:
            suffix += f"-c{exploration:g}"
        self.name = name or f"mcts{iterations}{suffix}"
        self.searched = 0  # iterations run so far (benchmarks)

    def __repr__(self) -> str:
        return f"MctsBot({self.name!r})"

    def priors(self, view: View, legal: list[Action]) -> dict | None:
        """The greedy bot's prices of ``legal`` as shares (softmax), or None without bias."""
        if self.pricer is None:
            return None
        prices = self.pricer.scores(view, legal)
        top = max(prices)
        weights = [exp((v - top) / PRIOR_TEMPERATURE) for v in prices]
        total = sum(weights)
        return {a: w / total for a, w in zip(legal, weights, strict=True)}

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        # the search sees only samples of the game the view allows (View.sample)
        root = search(view, view.me, rng, self.iterations, self.exploration,
                      self.rollout, self.depth, self.priors(view, legal), self.bias,
                      self.margin, self.stop)
        self.searched += sum(child.n for child in root.children.values())
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
    bias, margin, explore = (float(x) if x else 0.0 for x in (m.group(4), m.group(5), m.group(7)))
    if margin > 1:
        raise BotSpecError(f"bot {name!r}: the margin weight (-m) is at most 1")
    return MctsBot(name, iterations, m.group(2) or "random", explore or DEFAULT_EXPLORATION,
                   truncate, bias, margin, m.group(6) is not None)


def expert(name: str = "expert", **changes) -> MctsBot:
    """The reference bot: the search with the settings that won at equal CPU time
    (``EXPERT``; docs/engine.md "The reference bot"), ``changes`` over them."""
    return MctsBot(name, **{**EXPERT, **changes})


def mcts_from_spec(spec: Mapping[str, object]) -> MctsBot:
    """A bot from a config table with ``base = "mcts"`` (plain search's defaults) or
    ``base = "expert"`` (the reference bot's); errors name the key."""
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
    return MctsBot(name, iterations, str(rollout), float(exploration), truncate, float(bias),
                   float(margin), stop)

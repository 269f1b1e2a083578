"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012), UCT selection.

One tree per decision, rooted at the searching seat's information set. Each iteration
samples a determinization (``determinize``: the hidden state dealt anew from the bot's
stream), walks the tree with UCB1 over the actions legal in that sample (availability counts
instead of parent visits, as IS-MCTS requires: an action is not offered in every sample),
adds one node, plays the rest of the game with the rollout policy (or, truncated, at most
``depth`` decisions of it, the position then scored by ``evaluate.estimate_shares``) and
credits each node with the win share of the seat that chose its action. Decisions with a single legal action
take no node. Every random choice comes from the bot's stream: deterministic from the seeds,
whatever the machine's speed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from math import log, sqrt

from imhotep_stats.bots.search.determinize import determinize
from imhotep_stats.bots.search.evaluate import estimate_shares
from imhotep_stats.engine.game import Game, apply
from imhotep_stats.engine.result import win_shares

NO_LIMIT = -1  # rollouts play to the game's end


class Node:
    """The statistics of one action from one information set: ``n`` visits, ``w`` summed
    reward of the seat that chose it, ``avail`` times it was legal when its parent was
    visited; ``children`` by action."""

    __slots__ = ("avail", "children", "n", "w")

    def __init__(self) -> None:
        self.children: dict = {}
        self.n = 0
        self.w = 0.0
        self.avail = 1


def shares(g: Game) -> list[float]:
    """Each seat's share of the win (shared wins split), the reward of a finished game."""
    return win_shares(g.winners(), g.n)


def search(g: Game, me: int, rng: random.Random, iterations: int, exploration: float,
           rollout: Callable[[Game, random.Random, int], None], depth: int = NO_LIMIT) -> Node:
    """Run ``iterations`` iterations from ``g`` (seat ``me`` to move); the root node.
    ``depth``: the rollout's most decisions (forced ones included) before the position is
    scored by its estimate; ``NO_LIMIT``, to the game's end."""
    root = Node()
    draw = rng.random
    for _ in range(iterations):
        d = determinize(g, me, rng)
        node = root
        path = []
        while not d.over:
            opts = d.options
            if len(opts) == 1:
                apply(d, opts[0])
                continue
            p = d.to_move
            children = node.children
            best = None
            best_a = None
            score = -1.0
            untried = None
            for a in opts:
                child = children.get(a)
                if child is None:
                    if untried is None:
                        untried = [a]
                    else:
                        untried.append(a)
                    continue
                child.avail += 1
                if untried is None:
                    value = child.w / child.n + exploration * sqrt(log(child.avail) / child.n)
                    if value > score:
                        score = value
                        best = child
                        best_a = a
            if untried is not None:
                a = untried[int(draw() * len(untried))]
                child = children[a] = Node()
                apply(d, a)
                path.append((child, p))
                break
            apply(d, best_a)
            path.append((best, p))
            node = best
        if not d.over:
            rollout(d, rng, depth)
        reward = shares(d) if d.over else estimate_shares(d)
        for child, p in path:
            child.n += 1
            child.w += reward[p]
    return root


def best_action(root: Node, legal: list):
    """The most visited legal action (ties: the first in the legal order)."""
    best = legal[0]
    most = -1
    for a in legal:
        child = root.children.get(a)
        if child is not None and child.n > most:
            most = child.n
            best = a
    return best

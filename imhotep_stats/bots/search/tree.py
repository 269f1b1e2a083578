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
from math import tanh

try:
    import cython
except ImportError:  # pure Python without Cython installed
    from math import log, sqrt
else:
    if cython.compiled:  # C's log and sqrt (tree.pxd): the same doubles as math's, no call
        from cython.cimports.libc.math import log, sqrt
    else:
        from math import log, sqrt

from imhotep_stats.bots.search.determinize import determinizer
from imhotep_stats.bots.search.evaluate import estimate_points, estimate_shares, winner_shares
from imhotep_stats.engine.game import Game, apply, options_of
from imhotep_stats.engine.result import win_shares
from imhotep_stats.engine.stream import draw, fast, handback

NO_LIMIT = -1  # rollouts play to the game's end
MARGIN_SCALE = 10.0  # points: a 10-point lead earns about 0.88 of the margin reward


class Node:
    """The statistics of one action from one information set: ``n`` visits, ``w`` summed
    reward of the seat that chose it, ``avail`` times it was legal when its parent was
    visited; ``children`` by action. Compiled, a cdef class (tree.pxd): the UCB loop reads
    its fields as C longs and doubles."""

    __slots__ = ("avail", "children", "n", "w")

    def __init__(self) -> None:
        self.children: dict = {}
        self.n = 0
        self.w = 0.0
        self.avail = 1


def shares(g: Game) -> list[float]:
    """Each seat's share of the win (shared wins split), the reward of a finished game."""
    return win_shares(g.winners(), g.n)


def margin_reward(points: list[float], scale: float) -> list[float]:
    """Each seat's margin over its best opponent, squashed into [0, 1] (0.5: level)."""
    n = len(points)
    out = [0.0] * n
    for p in range(n):
        rival = max(points[q] for q in range(n) if q != p)
        out[p] = 0.5 + 0.5 * tanh((points[p] - rival) / scale)
    return out


def reward(d: Game, margin: float) -> list[float]:
    """What each seat is credited with at a rollout's end: the win share, mixed (weight
    ``margin``) with the squashed score margin (lower variance than the win alone)."""
    if not margin:
        return shares(d) if d.over else estimate_shares(d)
    if d.over:
        win = shares(d)
        pts = [float(t) for t in d.totals]
    else:
        sled = list(d.sled)
        pts = estimate_points(d)
        win = winner_shares(pts, sled)
    squash = margin_reward(pts, MARGIN_SCALE)
    keep = 1.0 - margin
    return [keep * w + margin * m for w, m in zip(win, squash, strict=True)]


def search(g: Game, me: int, rng: random.Random, iterations: int, exploration: float,
           rollout: Callable[[Game, random.Random, int], None], depth: int = NO_LIMIT,
           priors: dict | None = None, bias: float = 0.0, margin: float = 0.0,
           stop: bool = False) -> Node:
    """Run ``iterations`` iterations from ``g`` (seat ``me`` to move); the root node.
    ``depth``: the rollout's most decisions (forced ones included) before the position is
    scored by its estimate; ``NO_LIMIT``, to the game's end. ``priors`` (action -> share,
    at the root): untried root actions are tried best first and each root action's value
    gets ``bias`` x prior / (visits + 1) (progressive bias). ``margin``: see ``reward``.
    ``stop``: end early once the most visited root action cannot be overtaken in the
    iterations left (the choice is then the one the full budget would make)."""
    root = Node()
    stream = fast(rng)  # compiled: the same draws by C calls, handed back below (engine/stream.py)
    # hidden parts pooled once; no score events (totals); each sample made in the storage of
    # the one before (played and dropped by then)
    deal = determinizer(g, me, False, True)
    try:
        for it in range(iterations):
            d = deal(stream)
            node = root
            path = []
            while not d.over:
                opts = options_of(d)
                if len(opts) == 1:
                    apply(d, opts[0])
                    continue
                p = d.to_move
                children = node.children
                best = None
                best_a = None
                score = -1.0
                untried = None
                boost = priors if node is root else None
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
                        if boost is not None:
                            value += bias * boost.get(a, 0.0) / (child.n + 1)
                        if value > score:
                            score = value
                            best = child
                            best_a = a
                if untried is not None:
                    if boost is not None:
                        a = _best_prior(untried, boost)
                    else:
                        a = untried[int(draw(stream) * len(untried))]
                    child = children[a] = Node()
                    apply(d, a)
                    path.append((child, p))
                    break
                apply(d, best_a)
                path.append((best, p))
                node = best
            if not d.over:
                rollout(d, stream, depth)
            credit = reward(d, margin)
            for child, p in path:
                child.n += 1
                child.w += credit[p]
            if stop and it % 16 == 15 and _decided(root, iterations - it - 1):
                break
    finally:
        handback(stream, rng)
    return root


def _best_prior(untried: list, boost: dict):
    """The first of ``untried`` with the highest prior (``max`` by prior: no closure, which a
    compiled cpdef function cannot hold)."""
    best = untried[0]
    top = boost.get(best, 0.0)
    for a in untried:
        v = boost.get(a, 0.0)
        if v > top:
            top = v
            best = a
    return best


def _decided(root: Node, left: int) -> bool:
    """Whether the most visited root action leads the runner-up by more than ``left``."""
    first = second = 0
    for child in root.children.values():
        n = child.n
        if n > first:
            first, second = n, first
        elif n > second:
            second = n
    return first - second > left


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

"""Where a search iteration's CPU goes: CPU
microseconds of each part of an iteration, and of whole iterations of the named bots, from
18 seeded 2-player A positions (after 10, 40 and 80 random decisions of 6 games).

    python tools/search_parts.py mcts400 mcts400-t10 mcts400-b1-m0.3-s
"""

from __future__ import annotations

import random
import sys
import time

from imhotep_stats.bots import GreedyBot, make_bot
from imhotep_stats.bots.search.rollout import random_rollout
from imhotep_stats.bots.search.tree import reward
from imhotep_stats.engine.game import Game, apply
from imhotep_stats.engine.play import chance_seed
from imhotep_stats.engine.view import View

REPS = 60


def positions(games: int = 6, at: tuple[int, ...] = (10, 40, 80)) -> list[Game]:
    out = []
    for s in range(games):
        for k in at:
            g = Game(2, "A-A-A-A-A", seed=chance_seed(s, 0))
            rng = random.Random(s)
            while g.decisions < k and not g.over:
                apply(g, g.options[int(rng.random() * len(g.options))])
            while not g.over and len(g.options) == 1:
                apply(g, g.options[0])
            out.append(g)
    return out


def per_call(fn, views: list[View]) -> float:
    """Mean CPU microseconds of ``fn(view)`` over every position, ``REPS`` times."""
    t = time.process_time()
    for _ in range(REPS):
        for v in views:
            fn(v)
    return (time.process_time() - t) / (REPS * len(views)) * 1e6


def main(bots: list[str]) -> None:
    games = positions()
    views = [View(g, g.to_move) for g in games]
    rng = random.Random(1)

    def sample(v):
        return v.sample(rng)

    def to_end(v):
        d = v.sample(rng)
        random_rollout(d, rng, -1)
        reward(d, 0.0)

    def estimate(v):
        reward(v.sample(rng), 0.0)

    pricer = GreedyBot()

    def price(v):
        pricer.scores(v, v.options)

    base = per_call(sample, views)
    print(f"determinize (View.sample): {base:.0f} us")
    print(f"+ random rollout to the end + reward: {per_call(to_end, views) - base:.0f} us")
    print(f"+ the estimate of the position (no rollout): {per_call(estimate, views) - base:.0f} us")
    print(f"the greedy bot's prices of a decision's actions (the -b prior): "
          f"{per_call(price, views):.0f} us")
    for k in (5, 10, 20, 40):
        def cut(v, k=k):
            d = v.sample(rng)
            random_rollout(d, rng, k)
            reward(d, 0.0)
        print(f"+ rollout truncated at {k} + estimate: {per_call(cut, views) - base:.0f} us")
    for name in bots:
        bot = make_bot(name)
        t = time.process_time()
        for g in games[:12]:
            bot.choose(View(g, g.to_move), g.options, random.Random(0))
        spent = time.process_time() - t
        print(f"{name}: {spent / bot.searched * 1e6:.0f} us an iteration "
              f"({bot.searched} iterations, 12 decisions)")


if __name__ == "__main__":
    main(sys.argv[1:])

"""The search bot's games, hashed, to compare builds (run it from each checkout):

    .venv/bin/python tools/search_hash.py

Five seeded mcts games (2-4 players; A, C, D and mixed sides, so every hidden part is dealt
anew): per game the number of choices, the sha256 of every choice in order and the totals.
A change that keeps the search's games prints the same lines.

    .venv/bin/python tools/search_hash.py --expert > tests/expert_games.txt

prints the expert's games (greedy priors at the root, the early stop) and greedy rollouts
instead, which tests/search_games.rs has the core play."""

from __future__ import annotations

import hashlib
import sys

from imhotep_stats.bots import make_bot
from imhotep_stats.engine.game import Game
from imhotep_stats.engine.play import bot_rng, chance_seed, play_game

CASES = [("A-A-A-A-A", 2, "mcts40"), ("D-D-D-D-D", 3, "mcts30"), ("B-D-A-C-B", 2, "mcts30"),
         ("C-C-C-C-C", 4, "mcts20"), ("D-C-B-A-D", 2, "mcts30")]
EXPERT_CASES = [("A-A-A-A-A", 2, "expert"), ("D-D-D-D-D", 3, "mcts300-b1-s"),
                ("C-B-D-A-C", 2, "mcts40-greedy-t5-b1-s")]


class Recorded:
    """A bot whose choices are written down."""

    def __init__(self, bot, log: list):
        self.bot, self.log = bot, log

    def choose(self, view, options, rng):
        a = self.bot.choose(view, options, rng)
        self.log.append(str(a))
        return a

    def __getattr__(self, name):
        return getattr(self.bot, name)


def main() -> None:
    for sides, n, bot in EXPERT_CASES if "--expert" in sys.argv[1:] else CASES:
        log: list[str] = []
        g = Game(n, sides, seed=chance_seed(7, n))
        play_game(g, [Recorded(make_bot(bot), log) for _ in range(n)],
                  [bot_rng(7, 0, p) for p in range(n)])
        digest = hashlib.sha256("\n".join(log).encode()).hexdigest()[:16]
        print(sides, n, bot, len(log), digest, list(g.totals))


if __name__ == "__main__":
    main()

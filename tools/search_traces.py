"""Search games of the Python engine as traces the Rust core replays (examples/replay_bots.rs,
the format of tools/greedy_traces.py): each game seeded as a study's (root 0, engine/play.py),
every seat the same search bot (a name or a spec table), and at every decision (to_move,
kind, the options' texts, the index the Python search chose). The core must offer the same
options and its search, drawing from the same seat streams, must choose the same index.

    PYTHONPATH=$PWD python tools/search_traces.py --games 20 > /tmp/search.jsonl
    PYTHONPATH=$PWD python tools/search_traces.py --games 4 --bot expert --sides "?-?-?-?-?" >> /tmp/search.jsonl
    cargo run --release --example replay_bots /tmp/search.jsonl
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys

from greedy_traces import trace

from imhotep_stats.rules.board import default_board

# search settings the games cycle through: every switch of a spec name and table, the expert's
# (greedy priors at the root, the early stop) at small budgets, greedy rollouts truncated
BOTS = ("mcts30", "mcts40-t20", "mcts30-m0.5", "mcts64-s", "mcts30-c1.2", "mcts40-t10-m0.3-s",
        "mcts48-b1-s", {"base": "expert", "iterations": 40}, "mcts24-greedy-t6",
        {"base": "mcts", "iterations": 32, "rollout": "greedy", "truncate": 4, "bias": 0.5},
        "mcts40-b2.5-m0.2", {"base": "expert", "iterations": 64, "exploration": 1.0, "name": "x"})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bot", default=None, help="one bot spec for every game (default: cycle BOTS)")
    ap.add_argument("--sides", default="?-?-?-?-?",
                    help="a side combination; '?' for any side of a site")
    args = ap.parse_args()
    board = default_board()
    pattern = args.sides.upper().split("-")
    combos = ["-".join(c) for c in itertools.product(*[("ABCD" if x == "?" else x) for x in pattern])]
    for k in range(args.games):
        game = args.seed + k
        sides = random.Random(game).choice(combos)
        bot = args.bot or BOTS[k % len(BOTS)]
        players = 2 + k % 3
        json.dump(trace(sides, [bot] * players, 0, game, k % 2 == 1, None, board), sys.stdout)
        sys.stdout.write("\n")


if __name__ == "__main__":
    main()

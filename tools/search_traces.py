"""Search games of the Python engine as traces the Rust core's search replays
(examples/replay_search.rs): each game seeded as a study's (root 0, engine/play.py), every
seat the same ``mcts`` bot, and at every decision (to_move, kind, the options' texts, the
index the Python search chose). The core must offer the same options and its search, drawing
from the same seat streams, must choose the same index.

    PYTHONPATH=$PWD python tools/search_traces.py --games 20 > /tmp/search.jsonl
    cargo run --release --example replay_search /tmp/search.jsonl
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys

from core_traces import board_json

from imhotep_stats.bots import make_bot
from imhotep_stats.engine.game import Game
from imhotep_stats.engine.play import bot_rng, chance_seed, play_game
from imhotep_stats.rules.board import default_board

# search settings the games cycle through: every switch of a spec name
BOTS = ("mcts30", "mcts40-t20", "mcts30-m0.5", "mcts64-s", "mcts30-c1.2", "mcts40-t10-m0.3-s")


def trace(sides: str, players: int, game: int, prophecies: bool, bot: str, board) -> dict:
    g = Game(players, sides, board=board, seed=chance_seed(0, game), prophecies=prophecies)
    decisions: list = []

    def record(g: Game, a) -> None:
        opts = g.options
        decisions.append([g.to_move, g.kind, [str(x) for x in opts], opts.index(a)])

    play_game(g, [make_bot(bot) for _ in range(players)], [bot_rng(0, game, p) for p in range(players)],
              record)
    return {"board": board_json(board, g.sides), "players": players, "seed": str(g.seed),
            "prophecies": prophecies, "bot": bot, "root": "0", "game": game,
            "decisions": decisions, "totals": list(g.totals)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bot", default=None, help="one bot spec for every game (default: cycle BOTS)")
    args = ap.parse_args()
    board = default_board()
    combos = ["-".join(c) for c in itertools.product("ABCD", repeat=5)]
    for k in range(args.games):
        game = args.seed + k
        sides = random.Random(game).choice(combos)
        bot = args.bot or BOTS[k % len(BOTS)]
        json.dump(trace(sides, 2 + k % 3, game, k % 2 == 1, bot, board), sys.stdout)
        sys.stdout.write("\n")


if __name__ == "__main__":
    main()

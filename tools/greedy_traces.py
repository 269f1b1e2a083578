"""Greedy and persona games of the Python engine as traces the Rust core replays with its own
bots (examples/replay_bots.rs): every decision's seat, kind, options and the option the
Python bot took, then the totals.

Each game is seeded as a study's (engine/play.py: chance ``"{root}:{game}"``, seat p's stream
``"{root}:{game}:bot{p}"``), so the core's bots draw from the same streams.

    PYTHONPATH=$PWD python tools/greedy_traces.py --games 200 > /tmp/greedy.jsonl
    cargo run --release --example replay_bots /tmp/greedy.jsonl

``--weights`` gives every fourth game's first seat a persona defined by a weights table
(``{"base": ..., "weights": {...}}``), as a config may.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys

from imhotep_stats.bots import make_bot
from imhotep_stats.engine.core import board_data
from imhotep_stats.engine.game import Game
from imhotep_stats.engine.play import bot_rng, chance_seed, play_game
from imhotep_stats.rules.board import default_board

BOTS = ("greedy", "greedy", "greedy", "balanced", "pyramid", "temple", "burial", "obelisk", "market",
        "random")
# personas defined by tables (bots.make_bot): every fourth game's seat 0 plays one
TABLES = ({"base": "greedy", "weights": {"pyramid": 1.6, "deny": 0.2}, "name": "builder"},
          {"base": "market", "weights": {"optimism": 0.3, "stones": 1.7}},
          {"weights": {"card_blue": 2.5, "prophecy": 0.1, "temple": 3.0}, "name": "blue"})


def trace(sides: str, bots: list, root: int, game: int, prophecies: bool, expansion, board) -> dict:
    """One game with ``bots`` (each seat's spec: a name or a table) as a trace."""
    g = Game(len(bots), sides, board=board, seed=chance_seed(root, game), prophecies=prophecies,
             expansion=expansion)
    decisions = []

    def record(g, a) -> None:
        opts = g.options
        i = next(k for k, x in enumerate(opts) if x is a)
        decisions.append([g.to_move, g.kind, [str(x) for x in opts], i])

    error = None
    try:
        r = play_game(g, [make_bot(b) for b in bots], [bot_rng(root, game, p) for p in range(len(bots))],
                      on_decision=record)
        totals = list(r.totals)
    except Exception as exc:  # noqa: BLE001 (the core must raise the same)
        error = f"{type(exc).__name__}: {exc}"
        totals = []
    return {
        "board": board_data(board, g.sides), "players": len(bots), "bots": bots,
        "root": str(root), "game": game, "prophecies": prophecies, "expansion": g.expansion,
        "decisions": decisions, "totals": totals, "error": error,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--sides", default="?-?-?-?-?",
                    help="a side combination; '?' for any side of a site (?-?-?-?-? all 1,024)")
    ap.add_argument("--seed", type=int, default=0, help="the first game index (root 7)")
    ap.add_argument("--bots", default="", help="comma-separated bots for every game (default: drawn)")
    ap.add_argument("--weights", action="store_true", help="seat 0 of every fourth game: a weights table")
    args = ap.parse_args()
    board = default_board()
    pattern = args.sides.upper().split("-")
    combos = ["-".join(c) for c in itertools.product(*[("ABCD" if x == "?" else x) for x in pattern])]
    for k in range(args.games):
        game = args.seed + k
        pick = random.Random(f"greedy-traces:{game}")
        sides = pick.choice(combos)
        players = 2 + k % 3
        bots = args.bots.split(",") if args.bots else [pick.choice(BOTS) for _ in range(players)]
        if not args.bots and all(b == "random" for b in bots):
            bots[0] = "greedy"
        if args.weights and k % 4 == 0:
            bots[0] = TABLES[(k // 4) % len(TABLES)]
        prophecies = k % 2 == 1
        expansion = None if k % 5 else True
        json.dump(trace(sides, bots, 7, game, prophecies, expansion, board), sys.stdout)
        sys.stdout.write("\n")


if __name__ == "__main__":
    main()

"""Random games of the Python engine as traces the Rust core replays (examples/replay_traces.rs).

One JSON line a game: the board JSON the core reads (src/rules.rs), the setup, and at every
decision (to_move, kind, the options' texts, the index chosen), then the score events and the
winners. The choices are uniform (``int(rng.random() * len(options))``, rng seeded by the
game's seed), so the core needs no random stream of its own to follow the game.

    PYTHONPATH=$PWD python tools/core_traces.py --games 200 --sides A-A-A-A-A > /tmp/traces.jsonl
    cargo run --release --example replay_traces /tmp/traces.jsonl
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys

from imhotep_stats.bots.base import uniform
from imhotep_stats.engine.core import board_data
from imhotep_stats.engine.game import Game, apply
from imhotep_stats.engine.play import bot_rng, chance_seed
from imhotep_stats.engine.result import result_of
from imhotep_stats.rules.board import default_board


def trace(sides: str, players: int, seed: int, prophecies: bool, board, bots: bool = False) -> dict:
    """One game; ``bots``: seeded as a study's game ``seed`` of root 0 played by random bots
    (engine/play.py), else chance from ``seed`` and one stream for every choice."""
    game_seed = chance_seed(0, seed) if bots else seed
    g = Game(players, sides, board=board, seed=game_seed, prophecies=prophecies)
    rngs = [bot_rng(0, seed, p) for p in range(players)] if bots else [random.Random(seed)] * players
    decisions = []
    error = None
    try:
        while not g.over:
            opts = g.options
            chosen = uniform(opts, rngs[g.to_move])
            i = next(k for k, a in enumerate(opts) if a is chosen)
            decisions.append([g.to_move, g.kind, [str(a) for a in opts], i])
            apply(g, opts[i])
    except Exception as exc:  # noqa: BLE001 (the core must raise the same)
        error = f"{type(exc).__name__}: {exc}"
    res = result_of(g) if g.over else None
    return {
        "board": board_data(board, g.sides),
        "players": players, "seed": str(game_seed), "prophecies": prophecies,
        "bots": {"root": "0", "game": seed} if bots else None,
        "decisions": decisions,
        "events": [list(e) for e in g.events],
        "totals": list(g.totals),
        "winners": g.winners() if g.over else [],
        "error": error,
        "result": None if res is None else {
            "by_round": res.by_round, "ranks": res.ranks, "lead_changes": res.lead_changes,
            "margin": res.margin, "decisions": res.decisions, "took": res.took,
        },
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--sides", default="A-A-A-A-A",
                    help="a side combination; '?' for any side of a site (?-?-?-?-? all 1,024)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--random-bots", action="store_true",
                    help="seed each game as a study's (root 0) played by random bots")
    args = ap.parse_args()
    board = default_board()
    pattern = args.sides.upper().split("-")
    combos = ["-".join(c) for c in itertools.product(*[("ABCD" if x == "?" else x) for x in pattern])]
    for k in range(args.games):
        seed = args.seed + k
        sides = random.Random(seed).choice(combos)
        players = 2 + k % 3
        prophecies = k % 2 == 1
        json.dump(trace(sides, players, seed, prophecies, board, args.random_bots), sys.stdout)
        sys.stdout.write("\n")


if __name__ == "__main__":
    main()

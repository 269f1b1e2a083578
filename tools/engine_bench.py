"""Engine speed probes, counted with callgrind (docs/engine.md, "Measuring speed").

    python tools/engine_bench.py games random A 20      # play 20 seeded 3-player games
    python tools/engine_bench.py clone A 100            # 100 determinizations at decision 30
    python tools/engine_bench.py resample A 100         # the same as a search makes them
    python tools/engine_bench.py mcts A 400 3           # 3 mcts400 decisions (iterations/s)

`tools/callgrind.sh` runs each probe twice under callgrind (N and 3N units) and prints the
instructions per unit with the start-up cost cancelled: (I(3N) - I(N)) / 2N. Seeded, gc off,
PYTHONHASHSEED=0 (the script sets nothing itself: the shell script does)."""

from __future__ import annotations

import gc
import random
import sys
import time

from imhotep_stats.bots import make_bot
from imhotep_stats.engine.game import Game, apply
from imhotep_stats.engine.play import bot_rng, chance_seed, play_game

SIDES = {"A": "A-A-A-A-A", "B": "B-B-B-B-B", "C": "C-C-C-C-C", "D": "D-D-D-D-D"}


def games(bot: str, sides: str, n: int, players: int = 3) -> float:
    bots = [make_bot(bot) for _ in range(players)]
    t = time.process_time()
    for i in range(n):
        g = Game(players, SIDES[sides], seed=chance_seed(0, i))
        play_game(g, bots, [bot_rng(0, i, p) for p in range(players)])
    return time.process_time() - t


def position(sides: str, seed: int = 0, players: int = 2, at: int = 30) -> Game:
    """A 2-player game after ``at`` random decisions (a mid-game position)."""
    g = Game(players, SIDES[sides], seed=chance_seed(seed, 0))
    rng = random.Random(seed)
    while g.decisions < at and not g.over:
        opts = g.options
        apply(g, opts[int(rng.random() * len(opts))])
    return g


def clones(sides: str, n: int, search: bool = False) -> float:
    """``n`` determinizations of one position, one an iteration: full copies (the probe's
    measure since issue 22 was filed), or with ``search`` as the search makes them (no score
    events, each in the storage of the one before: bots/search/tree.py)."""
    from imhotep_stats.bots.search.determinize import determinizer
    from imhotep_stats.engine.stream import fast

    g = position(sides)
    rng = fast(random.Random(1))  # the search's stream (compiled: a C Stream, engine/stream.py)
    t = time.process_time()
    deal = determinizer(g, g.to_move, not search, search)
    for _ in range(n):
        deal(rng)
    return time.process_time() - t


def mcts(sides: str, iterations: int, n: int) -> float:
    """``n`` decisions of an mctsN bot from n mid-game positions; prints iterations/s."""
    bot = make_bot(f"mcts{iterations}")
    from imhotep_stats.engine.view import View

    spent = 0.0
    for k in range(n):
        g = position(sides, seed=k)
        while len(g.options) == 1:
            apply(g, g.options[0])
        t = time.process_time()
        bot.choose(View(g, g.to_move), g.options, random.Random(k))
        spent += time.process_time() - t
    print(f"mcts{iterations} {sides}: {iterations * n / spent:.1f} iterations per CPU second")
    return spent


def main(argv: list[str]) -> None:
    gc.disable()
    what = argv[0]
    if what == "games":
        seconds = games(argv[1], argv[2], int(argv[3]))
        print(f"{argv[1]} {argv[2]} 3p: {int(argv[3]) / seconds:.1f} games per CPU second")
    elif what in ("clone", "resample"):
        seconds = clones(argv[1], int(argv[2]), what == "resample")
        print(f"{what} {argv[1]}: {int(argv[2]) / seconds:.1f} per CPU second")
    elif what == "mcts":
        mcts(argv[1], int(argv[2]), int(argv[3]))
    else:
        raise SystemExit(f"unknown probe {what!r}: games, clone, resample or mcts")


if __name__ == "__main__":
    main(sys.argv[1:])

"""The search bot's games, recorded: a change that should not change any game (a speed-up of
the core's game, copy or determinization) must leave the search's choices as recorded.
`tests/fingerprints.json` holds greedy, persona and random games only; these seeded games
(2-4 players; A, C, D and mixed sides, so every hidden part is dealt anew each iteration) are
one line each: sides, players, bot, the number of choices, the sha256 of every choice in
order, the totals. `search_games.txt` holds plain mcts games, `expert_games.txt` the expert's
(greedy priors at the root, the early stop) and greedy rollouts; tests/search_games.rs has
the core play them without Python.

A change that does alter the search's games (its random draws, a rule) records them again in
one commit that says why: `python tests/test_search_games.py --record`.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

from imhotep_stats.bots import make_bot, seat_rng
from imhotep_stats.engine.game import Game
from imhotep_stats.engine.play import chance_seed, play_game

HERE = Path(__file__).parent
CASES = {
    "search_games.txt": [("A-A-A-A-A", 2, "mcts40"), ("D-D-D-D-D", 3, "mcts30"),
                         ("B-D-A-C-B", 2, "mcts30"), ("C-C-C-C-C", 4, "mcts20"),
                         ("D-C-B-A-D", 2, "mcts30")],
    "expert_games.txt": [("A-A-A-A-A", 2, "expert"), ("D-D-D-D-D", 3, "mcts300-b1-s"),
                         ("C-B-D-A-C", 2, "mcts40-greedy-t5-b1-s")],
}


def played(cases: list) -> list[str]:
    out = []
    for sides, n, name in cases:
        log: list[str] = []
        g = Game(n, sides, seed=chance_seed(7, n))
        bots = [make_bot(name) for _ in range(n)]
        play_game(g, bots, [seat_rng(b, 7, 0, p) for p, b in enumerate(bots)],
                  lambda g, a, log=log: log.append(str(a)))
        digest = hashlib.sha256("\n".join(log).encode()).hexdigest()[:16]
        out.append(f"{sides} {n} {name} {len(log)} {digest} {list(g.totals)}")
    return out


@pytest.mark.parametrize("recorded", sorted(CASES))
def test_the_search_plays_the_recorded_games(recorded):
    lines = (HERE / recorded).read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(CASES[recorded])
    assert played(CASES[recorded]) == lines


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python tests/test_search_games.py --record")
    for name, cases in CASES.items():
        (HERE / name).write_text("\n".join(played(cases)) + "\n", encoding="utf-8")
        print(f"recorded {len(cases)} games in {HERE / name}")

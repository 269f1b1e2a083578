"""The search bot's games, recorded: a change that should not change any game (a speed-up of
the engine, the clone or the determinization) must leave the search's choices as recorded. `tests/fingerprints.json` holds greedy, persona and random games only; these
five seeded mcts games (2-4 players; A, C, D and mixed sides, so every hidden part is dealt
anew each iteration) are `tools/search_hash.py`'s, one line each: sides, players, bot, the
number of choices, the sha256 of every choice in order, the totals.

A change that does alter the search's games (its random draws, a rule) records them again in
one commit that says why: `python tools/search_hash.py > tests/search_games.txt`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECORDED = Path(__file__).with_name("search_games.txt")


def played() -> list[str]:
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "search_hash.py")],
                         cwd=ROOT, capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


def test_the_search_plays_the_recorded_games():
    recorded = RECORDED.read_text(encoding="utf-8").splitlines()
    assert len(recorded) == 5
    assert played() == recorded

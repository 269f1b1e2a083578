"""The decisions of seeded games, fingerprinted: a change that should not change any game (a move
of code, a speed-up) must leave every fingerprint as recorded.

Each case plays a few seeded games to the end and hashes, per game, every decision (the deciding
seat, its kind, the action taken and how many were legal) and the final scores; a case's
fingerprint is the SHA-256 of its games' lines. The cases cover every side of every site (the
four all-A..all-D tables and mixes), 2-4 players, the greedy bot, its personas and the random
bot, with and without prophecies, and the expansion's cards on base sides.

A change that does alter games (a rule fixed, a bot improved) records them again, in one commit
that says why: ``python tests/test_fingerprint.py --record``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

FINGERPRINTS = Path(__file__).with_name("fingerprints.json")

# (sides, bots one per seat, prophecies, expansion (None: the game's default), games)
CASES = [
    ("A-A-A-A-A", ["greedy", "random"], False, None, 3),
    ("A-A-A-A-A", ["greedy", "market", "greedy"], False, True, 2),
    ("B-B-B-B-B", ["pyramid", "temple", "burial"], False, None, 2),
    ("B-B-B-B-B", ["greedy", "obelisk", "random", "balanced"], True, None, 1),
    ("C-C-C-C-C", ["greedy", "greedy", "market", "obelisk"], False, None, 1),
    ("C-C-C-C-C", ["greedy", "random"], True, None, 2),
    ("D-D-D-D-D", ["greedy", "balanced", "random"], True, None, 2),
    ("D-D-D-D-D", ["market", "greedy"], False, None, 2),
    ("A-B-C-D-A", ["greedy", "temple", "random"], False, None, 2),
    ("D-C-B-A-D", ["burial", "greedy", "pyramid", "greedy"], True, None, 1),
    ("B-D-A-C-B", ["greedy", "greedy"], False, None, 2),
    ("C-A-D-B-C", ["balanced", "random", "greedy"], False, None, 2),
]

PLAY = r"""
import hashlib, json, sys
from imhotep_stats.bots import make_bot
from imhotep_stats.engine.game import Game
from imhotep_stats.engine.play import bot_rng, chance_seed, play_game

out = {}
for sides, bots, prophecies, expansion, games in json.loads(sys.argv[1]):
    h = hashlib.sha256()
    for i in range(games):
        g = Game(len(bots), sides, seed=chance_seed(97, i), prophecies=prophecies,
                 expansion=expansion)
        lines = []
        r = play_game(g, [make_bot(b) for b in bots], [bot_rng(97, i, p) for p in range(len(bots))],
                      on_decision=lambda g, a: lines.append(
                          f"{g.to_move} {g.kind}: {a} of {len(g.options)}"))
        lines.append(f"totals {list(r.totals)}")
        h.update(("\n".join(lines) + "\n").encode())
    out[f"{sides} {','.join(bots)} prophecies={prophecies} expansion={expansion}"] = h.hexdigest()
print(json.dumps({"fingerprints": out}))
"""


def _in_process(cases: list = CASES) -> dict:
    """The script's fingerprints of ``cases``, played in this process."""
    saved = sys.argv
    from contextlib import redirect_stdout
    from io import StringIO

    buf = StringIO()
    try:
        sys.argv = ["-c", json.dumps(cases)]
        with redirect_stdout(buf):
            exec(compile(PLAY, "<fingerprint>", "exec"), {"__name__": "fingerprint"})
    finally:
        sys.argv = saved
    return json.loads(buf.getvalue())


def _check(got: dict, where: str) -> None:
    recorded = json.loads(FINGERPRINTS.read_text())
    assert sorted(got) == sorted(recorded), f"{where}: the cases differ from {FINGERPRINTS.name}"
    changed = [case for case in recorded if got[case] != recorded[case]]
    assert not changed, f"{where}: games changed in {changed} (if meant: --record, see the doc)"


def test_seeded_games_keep_their_fingerprint():
    _check(_in_process()["fingerprints"], "the core's bots and game")


def test_the_fingerprint_sees_a_changed_decision():
    """The hash covers every game's decisions: a case with one game more, or with other bots,
    has another fingerprint."""
    sides, bots, prophecies, expansion, games = CASES[0]
    recorded = json.loads(FINGERPRINTS.read_text())
    key = f"{sides} {','.join(bots)} prophecies={prophecies} expansion={expansion}"
    more = _in_process([(sides, bots, prophecies, expansion, games + 1)])["fingerprints"]
    assert more[key] != recorded[key]
    swapped = _in_process([(sides, bots[::-1], prophecies, expansion, games)])["fingerprints"]
    assert list(swapped.values())[0] != recorded[key]


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python tests/test_fingerprint.py --record")
    got = _in_process()["fingerprints"]
    FINGERPRINTS.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
    print(f"recorded {len(got)} fingerprints in {FINGERPRINTS}")

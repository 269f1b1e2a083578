"""Play then replay over the whole side space (issue 13): a transcript alone determines its
game. Every one of the 1,024 side combinations is played by random bots with 2, 3 and 4
players, prophecies on and off, and a quarter of them by greedy bots; each game is written as a
transcript (JSON text, as ``play --trace`` writes it), replayed, and must give the same
decisions, score events and winners. The slow run plays every combination at every player
count, with and without prophecies, for random and for greedy bots.
"""

from __future__ import annotations

import itertools
import json

import pytest

from imhotep_stats.bots import make_bot
from imhotep_stats.engine.game import Game
from imhotep_stats.engine.play import bot_rng, chance_seed, play_game
from imhotep_stats.engine.transcript import TraceWriter, replay, setup_line

SIDES = ["-".join(c) for c in itertools.product("ABCD", repeat=5)]
CHUNKS = 8
CHUNK = len(SIDES) // CHUNKS


def roundtrip(sides: str, players: int, bot: str, seed: int, prophecies: bool) -> None:
    g = Game(players, sides, seed=chance_seed(seed, 0), prophecies=prophecies)
    writer = TraceWriter()
    bots = [bot] * players
    writer.lines.append(setup_line(g, seed, 0, bots, None))
    played = play_game(g, [make_bot(b) for b in bots], [bot_rng(seed, 0, p) for p in range(players)],
                       writer.on_decision)
    writer.finish(g, played)
    text = [json.dumps(line, separators=(",", ":")) for line in writer.lines]
    rep = replay(text)
    where = f"{players}p {sides} {bot} seed {seed}{' prophecies' if prophecies else ''}"
    assert rep.mismatches == [], where
    assert rep.game.decisions == g.decisions, where
    assert rep.game.events == g.events, where  # every point: seat, source, amount, round
    assert rep.game.reshuffles == g.reshuffles, where
    assert rep.result.to_json() == played.to_json(), where


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_every_side_combination_replays(chunk):
    """2 x 128 random games per chunk (every combination twice: player counts and the
    prophecies vary), and greedy on every 4th combination: 2,304 games in all."""
    for i, sides in enumerate(SIDES[chunk * CHUNK : (chunk + 1) * CHUNK]):
        k = chunk * CHUNK + i
        roundtrip(sides, 2 + k % 3, "random", k, k % 2 == 0)
        roundtrip(sides, 2 + (k + 1) % 3, "random", 5000 + k, k % 2 == 1)
        if k % 4 == 0:
            roundtrip(sides, 2 + (k // 4) % 3, "greedy", 9000 + k, (k // 4) % 2 == 0)


@pytest.mark.slow
@pytest.mark.parametrize("bot", ["random", "greedy"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_combination_every_player_count_replays(bot, players):
    """Slow: 1,024 combinations x prophecies on and off, per player count and bot (12,288
    games in all)."""
    for k, sides in enumerate(SIDES):
        for prophecies in (False, True):
            roundtrip(sides, players, bot, 20000 + k, prophecies)

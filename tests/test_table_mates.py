"""A bot's choice depends only on its own view and its own random stream, never on who else
sits at the table: the greedy bot, asked at every one of its decisions of the same scripted
game (the same positions), chooses the same whether its table-mates are random bots,
personas, other greedy bots or a search bot. The mates are asked too (so whatever they
compute or cache happens), but the game follows the script."""

from __future__ import annotations

import pytest

from imhotep_stats.bots import make_bot
from imhotep_stats.engine.game import Game, apply
from imhotep_stats.engine.play import bot_rng, chance_seed
from imhotep_stats.engine.view import View

MATES = ["random", "pyramid", "market", "greedy", "balanced", "mcts4-greedy"]
# games where greedy's choices depended on its mates while a game's greedy bots shared their
# card prices and site tables (found by playing 30 random setups), and two plain ones
CASES = [("B-D-C-A-D", 4, 106), ("A-B-D-C-D", 4, 111), ("C-D-D-A-A", 3, 123),
         ("A-A-A-A-A", 2, 0), ("D-D-D-D-D", 2, 1)]


def _script(sides: str, players: int, seed: int) -> list[str]:
    """The actions of one game: greedy at seat 0, random elsewhere."""
    g = Game(players, sides, seed=chance_seed(seed, 0))
    bots = [make_bot("greedy")] + [make_bot("random") for _ in range(players - 1)]
    rngs = [bot_rng(seed, 0, p) for p in range(players)]
    views = [View(g, p) for p in range(players)]
    out = []
    while not g.over:
        p = g.to_move
        a = bots[p].choose(views[p], g.options, rngs[p])
        out.append(str(a))
        apply(g, a)
    return out


def _greedy_choices(sides: str, players: int, seed: int, script: list[str],
                    mate: str) -> list[str]:
    """Greedy's choice at each of seat 0's decisions of the scripted game, with ``mate``
    in every other seat (asked at its decisions; the script is played either way)."""
    g = Game(players, sides, seed=chance_seed(seed, 0))
    bots = [make_bot("greedy")] + [make_bot(mate) for _ in range(players - 1)]
    rngs = [bot_rng(seed, 0, p) for p in range(players)]
    views = [View(g, p) for p in range(players)]
    mine = []
    for text in script:
        p = g.to_move
        legal = g.options
        choice = bots[p].choose(views[p], legal, rngs[p])
        if p == 0:
            mine.append(str(choice))
        action = next(a for a in legal if str(a) == text)
        apply(g, action)
    assert g.over
    return mine


@pytest.mark.parametrize("sides,players,seed", CASES, ids=[f"{s}-{n}p" for s, n, _ in CASES])
def test_greedy_chooses_the_same_whoever_sits_beside_it(sides, players, seed):
    script = _script(sides, players, seed)
    alone = _greedy_choices(sides, players, seed, script, "random")
    assert len(alone) > 30  # greedy decides often: the comparison means something
    for mate in MATES[1:]:
        got = _greedy_choices(sides, players, seed, script, mate)
        diff = [i for i, (a, b) in enumerate(zip(alone, got, strict=True)) if a != b]
        assert not diff, (f"beside {mate}, greedy chose differently at {len(diff)} of its "
                          f"{len(alone)} decisions, first at its decision {diff[0]}: "
                          f"{got[diff[0]]!r} instead of {alone[diff[0]]!r}")

"""The score of a truncated rollout: each seat's estimated final points, and the win share
the tree is credited with (``estimate_shares``).

What it counts, per seat, and why:

* **points scored so far** (``g.totals``): exact.
* **the game-end scoring of the position as it stands**: the engine's own final scoring
  (``Game._game_end``: Burial Chamber groups or rows, Obelisk ranks, Temple game end, green
  cards in hand: decorations by the stones at their site now, statues, unused blue cards,
  stone ornaments; prophecies when played), run on the rollout's copy, which the search
  throws away. It is exact for what is on the board and in hand now, and it is what the
  greedy bot prices cards in hand and sites' end-of-game tables from (``bots/greedy``: the
  same rules, estimated); it does not guess stones yet to come.
* **stones still to deliver**: each stone of the seat on a ship (it will reach a site) is
  worth ``greedy.context.STONE`` point; each stone on its sled is worth the greedy bot's sled
  value (``STONE`` x ``DECAY`` per stone before it: the first ones are the ones that get
  played) times the share of the game still to play (``Ctx.left_fraction``'s formula): a
  stone on the sled at the last sail is worth nothing.

The greedy bot's full evaluator (its ``Ctx``: site tables, ship mixes, card pricing) needs a
view and builds per-game caches; at every rollout's end that would cost more than the
rollout saves. These few terms are a handful of list reads plus the game-end scoring.

The reward is the win share of the estimated leader(s), ties broken as the rules do (more
stones on the sled), a shared lead split: the same reward as a finished game's
(``tree.shares``), so truncated and full rollouts credit the tree on one scale, and at a
finished game the estimate is the final score and the reward is exactly ``shares``. (A smooth
function of the margin would lower the variance, but would change what the tree maximises:
expected margin rather than the chance to win.)
"""

from __future__ import annotations

from imhotep_stats.bots.greedy.context import DECAY, STONE
from imhotep_stats.engine.game import Game
from imhotep_stats.engine.result import best_seats, win_shares


def estimate_points(g: Game) -> list[float]:
    """Each seat's estimated final points. A finished game: its final totals. Otherwise the
    game is spent (its game-end scoring is run on it): pass a copy you throw away."""
    if g.over:
        return [float(t) for t in g.totals]
    n = g.n
    left = max(0.0, (g.rounds - g.round + 1 - g.sailed / 4) / g.rounds)
    stones = [0.0] * n
    for slots in g.ship_slots:
        for o in slots:
            if o >= 0:
                stones[o] += STONE
    sled = g.sled
    for p in range(n):
        v = 0.0
        w = STONE * left
        for _ in range(sled[p]):
            v += w
            w *= DECAY
        stones[p] += v
    g.score_game_end_now()
    totals = g.totals
    return [totals[p] + stones[p] for p in range(n)]


def estimate_shares(g: Game) -> list[float]:
    """Each seat's win share by ``estimate_points`` (ties: more stones on the sled, then a
    split). Spends an unfinished ``g`` like ``estimate_points``."""
    sled = list(g.sled)
    return winner_shares(estimate_points(g), sled)


def winner_shares(pts: list[float], sled: list[int]) -> list[float]:
    """The win share of the leader(s) by points, then stones on the sled."""
    return win_shares(best_seats(pts, sled), len(pts))

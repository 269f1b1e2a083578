"""Fit the search's learned value (``value = "fit"``, bots/search/evaluate.py) and write
imhotep_stats/data/value.toml.

    python tools/fit_value.py --games 3000 --seed 0      # about 2 minutes of one core

The data are made here: seeded games, 2-4 players, sides drawn from A-D per site, each
decision the greedy bot's with probability 0.8 and uniformly random otherwise (so the
positions vary like a search's). At a quarter of the decisions a copy of the game gives each
seat's features (``value_features``), labelled with that seat's final win share. The model is
a conditional logit over the seats of a game (who wins), fitted by Newton's method with a
small ridge; a held-out fifth of the games (by game) gives its log loss and accuracy, printed
and written into the file beside the plain estimate's (the leader by ``estimate_points``).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import numpy as np

from imhotep_stats.bots.greedy import GreedyBot
from imhotep_stats.bots.search.evaluate import FEATURES, estimate_points, value_features
from imhotep_stats.engine.clone import clone
from imhotep_stats.engine.game import Game, apply
from imhotep_stats.engine.result import win_shares
from imhotep_stats.engine.view import View

OUT = Path(__file__).resolve().parents[1] / "imhotep_stats" / "data" / "value.toml"
GREEDY_SHARE = 0.8
SAMPLE_SHARE = 0.25
RIDGE = 1e-3


def positions(games: int, seed: int):
    """(game index, per-seat features, per-seat estimated points, per-seat final win share)."""
    out = []
    for i in range(games):
        rng = random.Random(f"value:{seed}:{i}")
        n = rng.choice((2, 2, 3, 4))
        sides = "-".join(rng.choice("ABCD") for _ in range(5))
        g = Game(n, sides, seed=f"value:{seed}:{i}")
        bot = GreedyBot()
        views = [View(g, p) for p in range(n)]
        taken = []
        while not g.over:
            opts = g.options
            if len(opts) > 1 and rng.random() < SAMPLE_SHARE:
                taken.append((value_features(clone(g)), estimate_points(clone(g))))
            if len(opts) == 1:
                a = opts[0]
            elif rng.random() < GREEDY_SHARE:
                a = bot.choose(views[g.to_move], opts, rng)
            else:
                a = opts[int(rng.random() * len(opts))]
            apply(g, a)
        won = win_shares(g.winners(), n)
        out += [(i, f, e, won) for f, e in taken]
    return out


def _arrays(data):
    """Features (positions, 4 seats, k) padded, win shares (positions, 4), seat mask."""
    k = len(FEATURES)
    x = np.zeros((len(data), 4, k))
    y = np.zeros((len(data), 4))
    mask = np.zeros((len(data), 4), dtype=bool)
    for i, (_, f, _, won) in enumerate(data):
        n = len(f)
        x[i, :n] = f
        y[i, :n] = won
        mask[i, :n] = True
    return x, y, mask


def _softmax(x, w, mask):
    s = np.where(mask, x @ w, -np.inf)
    p = np.exp(s - s.max(axis=1, keepdims=True))
    return p / p.sum(axis=1, keepdims=True)


def fit(data, ridge: float = RIDGE, steps: int = 50) -> np.ndarray:
    """Conditional-logit weights: maximise sum over positions of sum_p won_p log softmax_p."""
    x, y, mask = _arrays(data)
    k = x.shape[2]
    w = np.zeros(k)
    for _ in range(steps):
        p = _softmax(x, w, mask)
        mean = np.einsum("ns,nsk->nk", p, x)
        grad = np.einsum("ns,nsk->k", y, x) - y.sum(axis=1) @ mean - ridge * w
        c = x - mean[:, None, :]
        hess = -np.einsum("n,ns,nsk,nsl->kl", y.sum(axis=1), p, c, c) - ridge * np.eye(k)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return w


def scores(data, w: np.ndarray) -> tuple[float, float, float]:
    """(log loss of the value, its accuracy, the plain estimate's accuracy): accuracy is the
    winner's share on the seat each picks as the most likely winner."""
    x, y, mask = _arrays(data)
    p = _softmax(x, w, mask)
    loss = -float((y * np.log(np.maximum(p, 1e-12))).sum()) / len(data)
    rows = np.arange(len(data))
    acc = float(y[rows, p.argmax(axis=1)].mean())
    plain = float(np.mean([won[int(np.argmax(e))] for _, _, e, won in data]))
    return loss, acc, plain


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    data = positions(args.games, args.seed)
    train = [d for d in data if d[0] % 5]
    held = [d for d in data if d[0] % 5 == 0]
    w = fit(train)
    loss, acc, plain = scores(held, w)
    print(f"{len(data)} positions from {args.games} games; held out {len(held)}: log loss "
          f"{loss:.4f}, value picks the winner {acc:.3f}, plain estimate {plain:.3f}")
    lines = ["# The search's learned value (bots/search/evaluate.py, value = \"fit\"): a "
             "conditional logit", "# over the seats, P(p wins) = softmax_p(weights . "
             "features(p)). Made by", f"#   python tools/fit_value.py --games {args.games} "
             f"--seed {args.seed}", f"# {len(data)} positions of {args.games} games (2-4 "
             "players, sides A-D drawn per site, greedy", f"# {GREEDY_SHARE:g} / random "
             f"otherwise); on the held-out fifth: log loss {loss:.4f}, the value picks",
             f"# the winner {acc:.3f} of the time, the plain estimate (estimate_points) "
             f"{plain:.3f}.", "", "[weights]"]
    lines += [f"{name} = {v:.6f}" for name, v in zip(FEATURES, w, strict=True)]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

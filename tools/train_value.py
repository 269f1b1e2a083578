"""Fit the learned value of truncated rollouts (src/search/value.rs, the `-v` switch): a
conditional logit over the seats, P(seat p wins) = softmax_p(w . x_p), to positions of the
core's own games and the win shares of those games finished by the greedy bot.

    cargo run --release --example headtohead -- data --games 6000 --seed 1 --out positions.csv
    python tools/train_value.py positions.csv imhotep_stats/data/search_value.json

Games are split into a fitting and a held-out part (every fifth game held out); it prints the
held-out log loss and how often the most likely seat won, beside the plain estimate's
(evaluate.rs: a win for the seat with the most estimated points).
"""

from __future__ import annotations

import json
import sys

import numpy as np
import polars as pl
from scipy.optimize import minimize

FEATURES = ["estimate", "estimate_progress", "points", "sled_left", "quarry_left",
            "ship_stones", "hand", "cards_taken"]


def positions(path: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Features (positions x 4 seats x K, zero-padded), win shares (positions x 4), the
    seat mask and each position's game."""
    floats = {name: pl.Float64 for name in [*FEATURES, "share"]}
    df = pl.read_csv(path, schema_overrides=floats).sort(["game", "decision", "seat"])
    keys = df.select(["game", "decision"]).unique(maintain_order=True)
    index = {(g, d): i for i, (g, d) in enumerate(keys.iter_rows())}
    n = len(index)
    x = np.zeros((n, 4, len(FEATURES)))
    y = np.zeros((n, 4))
    mask = np.zeros((n, 4), dtype=bool)
    rows = np.array([index[(g, d)] for g, d in df.select(["game", "decision"]).iter_rows()])
    seats = df["seat"].to_numpy()
    x[rows, seats] = df.select(FEATURES).to_numpy()
    y[rows, seats] = df["share"].to_numpy()
    mask[rows, seats] = True
    game = keys["game"].to_numpy()
    return x, y, mask, game


def shares(w: np.ndarray, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask, x @ w, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def loss(w: np.ndarray, x: np.ndarray, y: np.ndarray, mask: np.ndarray) -> tuple[float, np.ndarray]:
    """Mean cross-entropy of the win shares and its gradient."""
    p = shares(w, x, mask)
    ll = -(y * np.log(np.where(mask, p, 1.0) + 1e-12)).sum() / len(x)
    grad = -np.einsum("nsk,ns->k", x, y - p * y.sum(axis=1, keepdims=True)) / len(x)
    return ll, grad


def report(name: str, p: np.ndarray, y: np.ndarray, mask: np.ndarray, loss: bool = True) -> None:
    """How often the most likely seat won, and (for a probability, not a 0/1 pick) the log loss."""
    picked = y[np.arange(len(y)), np.argmax(np.where(mask, p, -1), axis=1)].mean()
    ll = -(y * np.log(np.where(mask, p, 1.0) + 1e-12)).sum() / len(y)
    print(f"{name}: the most likely seat's held-out win share {picked:.3f}"
          + (f", log loss {ll:.4f}" if loss else ""))


def main(src: str, dst: str) -> None:
    x, y, mask, game = positions(src)
    held = game % 5 == 0
    scale = x[mask].std(axis=0) + 1e-9  # fit on standardized features, write raw weights
    xs = x / scale
    fit = minimize(loss, np.zeros(len(FEATURES)), args=(xs[~held], y[~held], mask[~held]),
                   jac=True, method="L-BFGS-B")
    w = fit.x / scale
    print(f"{(~held).sum()} positions fitted, {held.sum()} held out ({fit.message})")
    for name, v in zip(FEATURES, w, strict=True):
        print(f"  {name:18s} {v:+.4f}")
    xh, yh, mh = x[held], y[held], mask[held]
    report("learned value", shares(w, xh, mh), yh, mh)
    est = np.where(mh, xh[:, :, 0], -np.inf)
    lead = (est == est.max(axis=1, keepdims=True)) & mh
    report("the estimate's leader", lead / lead.sum(axis=1, keepdims=True), yh, mh, loss=False)
    with open(dst, "w") as f:
        json.dump({"features": FEATURES, "weights": [round(float(v), 6) for v in w]}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main(*sys.argv[1:3])

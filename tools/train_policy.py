"""Fit the learned policy of the root priors (src/search/policy.rs, the `-p` switch): a
softmax over a decision's options, P(option) = softmax(w . x_option), to the root visit
shares of the core's own searches (`--target visits`) or to the option each search chose,
its most visited (`--target choice`, the default: the visit shares of a UCT search are flat,
spread by its exploration, and a prior fitted to them is nearly uniform).

    cargo run --release --example policy_data -- --bot mcts2400-b1 --games 120 --seed 5 --out decisions.csv
    python tools/train_policy.py decisions.csv imhotep_stats/data/search_policy.json [--target visits]

Games are split into a fitting and a held-out part (every fifth game held out); it prints the
held-out cross-entropy to the visit shares and how often the prior's top option is the most
visited, beside the same for the priors the expert uses today (a softmax of greedy's prices at
1 point: the weights 1 on `price` and `price_sub`, 0 elsewhere).
"""

from __future__ import annotations

import json
import sys

import numpy as np
import polars as pl
from scipy.optimize import minimize

FEATURES = ["price", "price_progress", "price_sub", "top", "place", "get", "sail", "play", "pass",
            "place_progress", "get_progress", "sail_progress", "play_progress", "sail_market",
            "sail_pyramid", "sail_temple", "sail_burial", "sail_obelisk"]
L2 = 1e-3  # on standardized weights: keeps rare features (a site's sail) from running off


def decisions(path: str, target: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Features (decisions x options x K, zero-padded), visit shares, the option mask and
    each decision's game."""
    floats = {name: pl.Float64 for name in FEATURES}
    df = pl.read_csv(path, schema_overrides=floats).sort(["game", "decision", "option"])
    keys = df.select(["game", "decision"]).unique(maintain_order=True)
    index = {(g, d): i for i, (g, d) in enumerate(keys.iter_rows())}
    width = int(df["option"].max()) + 1
    n = len(index)
    x = np.zeros((n, width, len(FEATURES)))
    y = np.zeros((n, width))
    mask = np.zeros((n, width), dtype=bool)
    rows = np.array([index[(g, d)] for g, d in df.select(["game", "decision"]).iter_rows()])
    opts = df["option"].to_numpy()
    x[rows, opts] = df.select(FEATURES).to_numpy()
    y[rows, opts] = df["visits"].to_numpy()
    mask[rows, opts] = True
    if target == "choice":  # the first of the most visited, as the search picks
        y = (np.arange(width) == np.argmax(y, axis=1)[:, None]).astype(float)
    y = y / y.sum(axis=1, keepdims=True)
    return x, y, mask, keys["game"].to_numpy()


def softmax(w: np.ndarray, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask, x @ w, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def loss(w: np.ndarray, x: np.ndarray, y: np.ndarray, mask: np.ndarray) -> tuple[float, np.ndarray]:
    """Mean cross-entropy to the visit shares (plus the L2 term) and its gradient."""
    p = softmax(w, x, mask)
    ce = -(y * np.log(np.where(mask, p, 1.0) + 1e-12)).sum() / len(x)
    grad = -np.einsum("nok,no->k", x, y - p) / len(x)
    return ce + L2 * (w @ w), grad + 2 * L2 * w


def report(name: str, p: np.ndarray, y: np.ndarray, mask: np.ndarray) -> None:
    top = (np.argmax(np.where(mask, p, -1), axis=1) == np.argmax(y, axis=1)).mean()
    ce = -(y * np.log(np.where(mask, p, 1.0) + 1e-12)).sum() / len(y)
    print(f"{name}: held-out cross-entropy {ce:.4f}, top option the most visited {top:.3f}")


def main(src: str, dst: str, target: str = "choice") -> None:
    x, y, mask, game = decisions(src, target)
    held = game % 5 == 0
    scale = x[mask].std(axis=0) + 1e-9  # fit on standardized features, write raw weights
    xs = x / scale
    start = np.array([1.0 if f in ("price", "price_sub") else 0.0 for f in FEATURES])
    fit = minimize(loss, start * scale, args=(xs[~held], y[~held], mask[~held]),
                   jac=True, method="L-BFGS-B")
    w = fit.x / scale
    print(f"{(~held).sum()} decisions fitted, {held.sum()} held out ({fit.message})")
    for name, v in zip(FEATURES, w, strict=True):
        print(f"  {name:15s} {v:+.4f}")
    xh, yh, mh = x[held], y[held], mask[held]
    report("learned policy", softmax(w, xh, mh), yh, mh)
    report("greedy softmax", softmax(start, xh, mh), yh, mh)
    with open(dst, "w") as f:
        json.dump({"features": FEATURES, "weights": [round(float(v), 6) for v in w]}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    args = sys.argv[1:]
    target = "choice"
    if "--target" in args:
        i = args.index("--target")
        target = args[i + 1]
        del args[i:i + 2]
    if target not in ("choice", "visits"):
        sys.exit(f"--target: expected choice or visits, got {target!r}")
    main(args[0], args[1], target)

"""``tune``: which values of one or two board numbers bring a target within a margin.

A *parameter* is a dotted override path with candidates (``game.starting_sled[0]=1..4``,
``obelisk.A.points[0]=8,10,12``); a *target* is a figure of a candidate's games with a goal:

- ``seat-gap``: the largest |seat win rate - 1/players|; goal: at most the margin;
- ``seat:N``: seat N's win rate (1 = start player); goal: 1/players (or ``goal``) ± margin;
- ``share:SOURCE``: SOURCE's share of all points (``pyramid``, ``card_statue``, ...); goal:
  ``goal`` ± margin.

Every candidate plays the same games (the base study's seed and game indices: common random
numbers), so differences between candidates are the parameter's, not the deals'. Intervals
are confidence sequences (``stats.sequential``): they hold at every look at a candidate,
however many rounds it gets, so stopping when an interval clears the margin keeps the
stated confidence. This module is the statistics: measuring, deciding, and the adaptive
policy that asks for more games only where the decision is still open; ``config.edits``
parses the parameters and builds the candidates, ``sim.tune`` plays the games.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from imhotep_stats.config import ConfigError, StudyConfig
from imhotep_stats.config.edits import SOURCE, Param, candidates, printed_value
from imhotep_stats.sim.schema import SOURCES
from imhotep_stats.stats.aggregate import win_rates
from imhotep_stats.stats.sequential import PRIOR_SD, confidence_sequence, mean_radius

# -- targets -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    kind: str  # "seat-gap", "seat", "share"
    seat: int = 0  # schema seat (0 = start player) for "seat"
    source: str = ""  # for "share"
    goal: float | None = None  # None: the fair share (seat) or 0 (seat-gap)

    @property
    def name(self) -> str:
        if self.kind == "seat":
            return f"seat {self.seat + 1} win rate"
        if self.kind == "share":
            return f"{self.source} share of all points"
        return "largest seat gap"


def parse_target(text: str, goal: float | None = None) -> Target:
    where = f"--target {text}"
    if text == "seat-gap":
        if goal is not None:
            raise ConfigError([("--goal", "seat-gap has no goal: the margin bounds it")], SOURCE)
        return Target("seat-gap")
    kind, _, arg = text.partition(":")
    if kind == "seat" and arg.isdigit() and 1 <= int(arg) <= 4:
        return Target("seat", seat=int(arg) - 1, goal=goal)
    if kind == "share" and arg in SOURCES:
        if goal is None:
            raise ConfigError([("--goal", f"share:{arg} needs a goal share, e.g. --goal 0.25")],
                              SOURCE)
        return Target("share", source=arg, goal=goal)
    raise ConfigError([(where, "expected seat-gap, seat:N (1 = start player) or share:SOURCE "
                        f"(sources: {', '.join(SOURCES)})")], SOURCE)


@dataclass(frozen=True)
class Estimate:
    value: float
    low: float
    high: float
    games: int
    goal_low: float  # the band the target must lie in
    goal_high: float

    @property
    def decision(self) -> str:
        """``within`` (the interval lies inside the band), ``outside`` (it misses the band)
        or ``open`` (it straddles an edge: more games would tell)."""
        if self.goal_low <= self.low and self.high <= self.goal_high:
            return "within"
        if self.high < self.goal_low or self.low > self.goal_high:
            return "outside"
        return "open"


def _share_interval(lf: pl.LazyFrame, source: str, confidence: float, planned: int
                    ) -> tuple[float, float, float, int]:
    """Ratio of sums over games (delta method): source points / all points, with the
    normal-mixture confidence sequence of the per-game linearised values
    (``sequential.mean_radius``, asymptotic: the points are not bounded shares)."""
    per = (lf.group_by("game").agg(pl.col(f"pts_{source}").cast(pl.Float64).sum().alias("x"),
                                   pl.col("score").cast(pl.Float64).sum().alias("y"))
           .collect())
    x, y = per["x"].to_numpy(), per["y"].to_numpy()
    n = len(x)
    if n == 0 or y.sum() <= 0:
        return math.nan, math.nan, math.nan, n
    r = float(x.sum() / y.sum())
    sd = float(np.std(x - r * y, ddof=1) / np.mean(y)) if n > 1 else math.inf
    half = mean_radius(sd, n, 1.0 - confidence, planned)
    return r, r - half, r + half, n


def _seat_sequence(wins: float, games: int, alpha: float, centre: float, margin: float
                   ) -> tuple[float, float]:
    """A seat's win-rate confidence sequence, its prior centred on the goal."""
    return confidence_sequence(wins, games, alpha, centre, PRIOR_SD * margin)


def measure(lf: pl.LazyFrame, players: int, target: Target, margin: float,
            confidence: float, planned: int = 1000) -> Estimate:
    """The target over a candidate's games, with a confidence sequence at ``confidence``
    (``stats.sequential``: it holds at every look, however many there are; for the seat
    gap, Bonferroni over the seats, so it bounds the largest gap of all). ``planned``:
    the games the share's sequence is tuned to (the first pass)."""
    p0 = 1.0 / players
    if target.kind == "share":
        value, low, high, n = _share_interval(lf, target.source, confidence, planned)
        goal = float(target.goal)
        return Estimate(value, low, high, n, goal - margin, goal + margin)
    alpha = (1.0 - confidence) / (players if target.kind == "seat-gap" else 1)
    df = win_rates(lf, by=("seat",), confidence=confidence).sort("seat")
    games = int(df["games"][0]) if df.height else 0
    if target.kind == "seat":
        if target.seat >= players:
            raise ConfigError([("--target", f"seat {target.seat + 1} of a {players}-player "
                                "study")], SOURCE)
        row = df.filter(pl.col("seat") == target.seat).row(0, named=True)
        goal = p0 if target.goal is None else float(target.goal)
        low, high = _seat_sequence(row["wins"], games, alpha, goal, margin)
        return Estimate(row["win_rate"], low, high, games, goal - margin, goal + margin)
    gaps = (df["win_rate"] - p0).abs().to_numpy()
    bounds = np.array([_seat_sequence(w, games, alpha, p0, margin) for w in df["wins"]])
    lo, hi = bounds[:, 0], bounds[:, 1]
    # Each seat's gap lies between the distance from p0 to its interval and the farther end.
    near = np.where((lo <= p0) & (p0 <= hi), 0.0, np.minimum(np.abs(lo - p0), np.abs(hi - p0)))
    far = np.maximum(np.abs(lo - p0), np.abs(hi - p0))
    return Estimate(float(gaps.max()), float(near.max()), float(far.max()), games, 0.0, margin)


def open_policy(players: int, target: Target, margin: float, confidence: float,
                planned: int = 1000):
    """The adaptive policy (``sim.adaptive.Policy``) of one candidate's run: while its
    decision is open, double its games (the allocator caps a round at the games held)."""

    def policy(files: list[str], games: dict[int, int]) -> dict[int, int]:
        est = measure(pl.scan_parquet(files), players, target, margin, confidence, planned)
        return {0: games[0]} if est.decision == "open" else {}

    return policy


def crossing(rows: list[dict[str, Any]], target: Target) -> float | None:
    """With one numeric parameter and a goal (seat win rate, share): where the estimates
    cross the goal, interpolated linearly between the first neighbouring candidates on
    either side of it (None if they never cross). A rough pointer between candidates, not
    a candidate measured."""
    if target.kind == "seat-gap" or any(len(r["values"]) != 1 for r in rows):
        return None
    goal = (rows[0]["goal_low"] + rows[0]["goal_high"]) / 2
    pts = sorted((r["values"][0], r["value"] - goal) for r in rows if not math.isnan(r["value"]))
    for (x0, d0), (x1, d1) in zip(pts, pts[1:], strict=False):
        if d0 == 0:
            return float(x0)
        if d0 * d1 < 0:
            return float(x0 + (x1 - x0) * d0 / (d0 - d1))
    return float(pts[-1][0]) if pts and pts[-1][1] == 0 else None


def answer(rows: list[dict[str, Any]], target: Target) -> dict[str, Any]:
    """Which candidates are within the margin, and the best (estimate closest to the goal's
    centre; for the seat gap the smallest gap)."""
    within = [r for r in rows if r["decision"] == "within"]
    centre = (lambda r: r["value"]) if target.kind == "seat-gap" else (
        lambda r: abs(r["value"] - (r["goal_low"] + r["goal_high"]) / 2))
    best = min(rows, key=lambda r: (math.inf if math.isnan(r["value"]) else centre(r),
                                    r["index"])) if rows else None
    return {"within": [r["label"] for r in within], "crossing": crossing(rows, target),
            "open": [r["label"] for r in rows if r["decision"] == "open"],
            "outside": [r["label"] for r in rows if r["decision"] == "outside"],
            "best": best["label"] if best else None,
            "games": sum(r["games"] for r in rows)}


def run_tune(base: StudyConfig, params: list[Param], target: Target, out, *,
             margin: float, confidence: float = 0.95, first_games: int | None = None,
             max_games: int | None = None, rounds: int = 4, workers: int | None = None,
             cluster: str | None = None, force: bool = False, progress: bool | None = None,
             log=None, warn=None) -> dict[str, Any]:
    """Play every candidate (``sim.tune``; resumed when ``out`` holds them) and return the
    JSON-ready answer: per candidate the target, its interval, games and decision."""
    from pathlib import Path

    from imhotep_stats.sim.adaptive import load_all
    from imhotep_stats.sim.tune import candidate_dir, play_candidate

    log = log or (lambda _m: None)
    if not 0.0 < margin < 1.0:
        raise ConfigError([("--margin", f"expected a margin between 0 and 1, got {margin}")],
                          SOURCE)
    first = first_games or base.games
    if max_games is None:
        max_games = first * 2 ** rounds
    if max_games < first:
        raise ConfigError([("--max-games", f"expected at least the first pass's {first:,} "
                            f"games, got {max_games:,}")], SOURCE)
    # batches small enough to keep every worker busy on one candidate's games
    base = base.replace(games=first, batch_size=min(base.batch_size, max(25, first // 8)))
    cands = candidates(base, params)
    players = base.cells[0].players
    settings = {"tune_target": [target.kind, target.seat, target.source, target.goal],
                "margin": margin, "confidence": confidence, "sequential": 1}
    out = Path(out)
    rows = []
    for i, c in enumerate(cands):
        run_dir = candidate_dir(out, c.label)
        log(f"candidate {i + 1}/{len(cands)}: {c.label}")
        policy = open_policy(players, target, margin, confidence, first)
        play_candidate(c.config, run_dir, policy, max_games=max_games, rounds=rounds,
                       settings=settings, workers=workers, cluster=cluster, force=force,
                       progress=progress, log=log, warn=warn or log)
        est = measure(load_all(run_dir)[0], players, target, margin, confidence, first)
        rows.append({"index": i, "label": c.label, "values": list(c.values),
                     "dir": str(run_dir), "value": est.value, "low": est.low,
                     "high": est.high, "games": est.games, "decision": est.decision,
                     "goal_low": est.goal_low, "goal_high": est.goal_high})
    cell = base.cells[0]
    goal_low, goal_high = rows[0]["goal_low"], rows[0]["goal_high"]
    return {
        "study": base.name, "sides": cell.sides, "players": players,
        "lineup": list(cell.lineup), "seed": base.seed, "out": str(out),
        "params": [{"path": p.path, "values": list(p.values),
                    "printed": printed_value(base, p)} for p in params],
        "target": {"kind": target.kind, "name": target.name, "seat": target.seat + 1,
                   "source": target.source, "goal": target.goal, "margin": margin,
                   "goal_low": goal_low, "goal_high": goal_high,
                   "percent": True},
        "confidence": confidence, "sequential": True, "rounds": rounds,
        "first_games": first, "max_games": max_games,
        "candidates": rows, "answer": answer(rows, target),
    }

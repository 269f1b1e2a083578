"""``sweep --confirm K``: the sweep's top K combinations played again on fresh games.

A sweep's top cell is the extreme of many: judged again on the games that ranked it, its
verdict would carry the selection (far more often "unbalanced" than alpha when every cell
sits exactly at the margin: tests/test_look_calibration.py). Each confirmation is a study of that one cell whose games
the ledger (``sim.looks``) knows were looked at in the sweep, so it plays fresh ones under a
derived seed; independent of the games that chose the cells, the K verdicts are a valid
look at them, judged together (Holm over the K: the claim is about all of them).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from imhotep_stats.config import StudyConfig
from imhotep_stats.sim import adaptive
from imhotep_stats.sim.store import load_manifest
from imhotep_stats.stats.aggregate import UNIT, win_units
from imhotep_stats.stats.significance import seat_verdicts


def confirm_configs(cfg: StudyConfig, ranked: list[dict[str, Any]], k: int
                    ) -> list[tuple[dict[str, Any], StudyConfig]]:
    """One single-cell study per top-``k`` cell of the ranking: its sides, player count
    and lineup, the sweep's games per cell, seed and settings (the seed is replaced by
    the ledger when the run starts), named ``<sweep>-confirm-<sides>-<n>p``."""
    out = []
    for cell in ranked[:k]:
        n = int(cell["players"])
        lineup = tuple(cell["lineup"].split(","))
        one = cfg.replace(name=f"{cfg.name}-confirm-{cell['sides']}-{n}p",
                          sides=tuple((s,) for s in cell["sides"].split("-")),
                          players=(n,), lineups=((n, (lineup,)),))
        out.append((cell, one))
    return out


def seat_wins(run_dir: Path) -> tuple[list[float], int]:
    """One cell's wins per seat and games, over every game the run holds."""
    df = (adaptive.scan_all(run_dir).group_by("seat").agg(win_units().sum().alias("wins"),
                                                          pl.len().alias("games"))
          .sort("seat").collect())
    wins = [w / UNIT for w in df["wins"]]
    return wins, int(df["games"][0])


def confirm_verdicts(cells: list[dict[str, Any]], run_dirs: list[Path], margin: float,
                     alpha: float) -> list[dict[str, Any]]:
    """The confirmations' verdicts, Holm over the K, each beside the sweep's: rows of
    rank, sides, players, sweep verdict, games, seed, verdict and text. Sequential when
    a confirmation's games were looked at before (``sim.looks``: a later look)."""
    counts, seq, seeds = [], False, []
    for d in run_dirs:
        counts.append(seat_wins(d))
        m = load_manifest(d)
        seq = seq or adaptive.sequential(d, m)
        seeds.append(int((m.get("looks") or {}).get("seed", m["config"]["study"]["seed"])))
    verdicts = seat_verdicts(counts, margin, alpha, correction="holm", sequential=seq)
    return [{"rank": c["rank"], "sides": c["sides"], "players": c["players"],
             "lineup": c["lineup"], "sweep_verdict": c["verdict_text"], "games": g,
             "seed": s, "run_dir": str(d), "verdict": v.verdict, "verdict_text": v.text,
             "sequential": seq}
            for c, (_, g), s, d, v in zip(cells, counts, seeds, run_dirs, verdicts,
                                          strict=True)]

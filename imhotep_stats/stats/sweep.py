"""Sweeps over side combinations: ranking by imbalance, main effects, two-site interactions.

A study's cells are the cartesian product of the sides it lists per site, so within a
player count and lineup (a *stratum*) the cells form a complete, balanced factorial
design. That makes the linear model with sum-to-zero coding easy to state and to fit:

    y(cell) = mu + a_market[s1] + a_pyramid[s2] + ... + g_pyramid,temple[s2, s3] + ... + e

with every effect summing to zero over its side(s). In a balanced factorial the
least-squares estimates are differences of marginal means (Montgomery, *Design and
Analysis of Experiments*, ch. 5):

    main effect of side s of site k    = mean of the cells with s on k  -  mean of all cells
    interaction of (s on j, t on k)    = mean(s, t) - mean(s on j) - mean(t on k) + mean(all)

"Pyramid D raises the start player's win rate by 2 points" then means: averaged over every
combination of the other sites, cells with Pyramid D give the start player 2 points more
than the average cell.

Responses are per-game values (seat win shares, mean points per player by source, score,
game length), so an effect is a linear contrast of per-game values. Cells share game
indices (the same deals: docs/engine.md, Architecture), so the contrast is computed game by
game and its interval comes from the spread of those per-game contrasts (a paired t interval): the
common random numbers cancel out as they do in ``compare``. To bound memory the games
are grouped into at most ``max_blocks`` consecutive blocks (batch means), and only the
first pass is used, whose games every cell shares. Adaptive extra games feed the
per-cell figures (ranking and verdicts).

Multiple testing: seat verdicts are Benjamini-Hochberg corrected across the sweep
(``tests.seat_verdicts(correction="bh")``): "balanced within" claims over the cells (each
cell's intersection-union p-value, the largest of its seats'), "unbalanced beyond" claims
over every seat of every cell. BH over seats let a cell's comfortable seats lower the
threshold for its boundary seat: with every cell at gap m, 51-66% of sweeps called some
cell "within" (issue 21; tests/test_stats_cells.py holds the new rule to alpha). Once
adaptive rounds look more than once the p-values are the anytime-valid ones of
``stats.sequential`` (BH over reciprocal e-values is e-BH: valid under any dependence);
every main-effect and interaction test
of the sweep forms one more BH family (q-values). Intervals are per-effect 95% intervals.

The seat gap itself (the largest |win rate - 1/players|) is not linear in the games, so
it ranks combinations but is not decomposed; the seats' win rates are.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from scipy import stats as _st

from imhotep_stats.config import DEFAULT_CONFIDENCE, DEFAULT_MARGIN
from imhotep_stats.rules.board import SIDES, SITES
from imhotep_stats.sim import adaptive, store
from imhotep_stats.sim.schema import SOURCES
from imhotep_stats.stats.aggregate import UNIT, win_units
from imhotep_stats.stats.compare import SITE_NAMES
from imhotep_stats.stats.intervals import min_detectable_difference, wilson_arrays
from imhotep_stats.stats.significance import VERDICTS, benjamini_hochberg, seat_verdicts

MAX_BLOCKS = 200
CELLS_PER_PASS = 16  # cells read per query when accumulating effects: bounds memory
WIN_UNIT = "pp of win rate"


# --- per-cell figures ---------------------------------------------------------------------


FILES_PER_PASS = 256  # shards per query of the per-cell figures: bounds memory and time


def _cell_sums(lf: pl.LazyFrame) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    srcs = [f"pts_{s}" for s in SOURCES]
    wins = (win_units().sum() / UNIT).alias("wins")  # exact: the same in any row order
    seats = lf.group_by("cell", "seat").agg(pl.len().alias("games"), wins)
    bots = lf.group_by("cell", "bot").agg(pl.len().alias("rows"), wins)
    pts = lf.group_by("cell").agg(*[pl.col(c).cast(pl.Int64).sum() for c in srcs])
    return tuple(q.collect(engine="streaming") for q in (seats, bots, pts))


def gap_bounds(wins: Sequence[float], games: int, confidence: float = 0.95
               ) -> tuple[float | None, float | None]:
    """Confidence bounds of a cell's seat gap (largest |win rate - 1/players|): the gap
    the seats' Wilson intervals (Bonferroni over the seats) show at least and allow at
    most. A sweep ranks by the lower bound: with a few hundred games a cell, the largest
    raw gaps are mostly the luckiest cells."""
    if not games:
        return None, None
    k = len(wins)
    p0 = 1.0 / k
    low, high = wilson_arrays(wins, [games] * k, 1.0 - (1.0 - confidence) / k)
    least = max(max(lo - p0, p0 - hi, 0.0) for lo, hi in zip(low, high, strict=True))
    most = max(max(hi - p0, p0 - lo) for lo, hi in zip(low, high, strict=True))
    return float(least), float(most)


def cell_table(source: pl.LazyFrame | Sequence[str], manifest: dict[str, Any],
               confidence: float = 0.95) -> list[dict[str, Any]]:
    """Per cell, in manifest order: games, seat wins and rates, bot rates, source shares,
    the seat gap and its confidence bounds (``gap_bounds``).

    ``source``: a lazy frame of results, or shard files, read ``FILES_PER_PASS`` at a time
    (a query over thousands of files at once costs memory for every file). Streaming
    group-bys: memory grows with the number of cells, not games.
    """
    if isinstance(source, pl.LazyFrame):
        seats, bots, pts = _cell_sums(source)
    else:
        files = list(source)
        parts = [_cell_sums(pl.scan_parquet(files[i: i + FILES_PER_PASS]))
                 for i in range(0, len(files), FILES_PER_PASS)]
        if parts:  # a cell's first-pass and adaptive shards may fall in different passes
            seats, bots, pts = (pl.concat([p[k] for p in parts]) for k in range(3))
            seats = seats.group_by("cell", "seat").agg(pl.all().sum())
            bots = bots.group_by("cell", "bot").agg(pl.all().sum())
            pts = pts.group_by("cell").agg(pl.all().sum())
        else:
            seats = bots = pts = pl.DataFrame()
    by_seat: dict[str, dict[int, tuple[int, float]]] = {}
    for cell, seat, games, wins in seats.iter_rows():
        by_seat.setdefault(cell, {})[seat] = (games, wins)
    by_bot: dict[str, dict[str, float]] = {}
    for cell, bot, rows, wins in bots.iter_rows():
        by_bot.setdefault(cell, {})[bot] = wins / rows
    by_src = {r["cell"]: r for r in pts.iter_rows(named=True)}
    out = []
    for c in manifest["cells"]:
        n = c["players"]
        s = by_seat.get(c["id"], {})
        games = s.get(0, (0, 0.0))[0]
        wins = [s.get(i, (0, 0.0))[1] for i in range(n)]
        rates = [w / games if games else math.nan for w in wins]
        gaps = [abs(r - 1.0 / n) for r in rates]
        brates = by_bot.get(c["id"], {})
        src = {k.removeprefix("pts_"): v for k, v in by_src.get(c["id"], {}).items()
               if k != "cell"}
        total = sum(v for v in src.values() if v > 0)
        top = max(src, key=lambda k: src[k]) if src else None
        gap_low, gap_high = gap_bounds(wins, games, confidence)
        out.append({
            "index": c["index"], "cell": c["id"], "sides": c["sides"], "players": n,
            "lineup": ",".join(c["lineup"]), "games": games, "wins": wins,
            "win_rates": rates, "start_player": rates[0] if games else None,
            "seat_gap": max(gaps) if games else None,
            "gap_low": gap_low, "gap_high": gap_high,
            "seat_spread": max(rates) - min(rates) if games else None,
            "bot_rates": dict(sorted(brates.items())),
            "bot_gap": (max(brates.values()) - min(brates.values())) if len(brates) > 1
            else None,
            "top_source": top, "dominance": (src[top] / total) if top and total > 0 else None,
            "mdd": min_detectable_difference(games, 1.0 / n) if games else None,
        })
    return out


def add_verdicts(cells: list[dict[str, Any]], margin: float, alpha: float = 0.05,
                 power: float = 0.8, sequential: bool = False) -> None:
    """Seat verdicts for every cell, Benjamini-Hochberg corrected across the sweep (over
    cells for "within", over seats for "beyond": ``significance.combine``); ``sequential``:
    anytime-valid ones (``stats.sequential``: a sweep with adaptive rounds looks at its
    verdicts after every round)."""
    live = [c for c in cells if c["games"] > 0]
    verdicts = seat_verdicts([(c["wins"], c["games"]) for c in live], margin, alpha, power,
                             correction="bh", sequential=sequential)
    for c, v in zip(live, verdicts, strict=True):
        c["verdict"], c["verdict_text"] = v.verdict, v.text
        c["sequential"] = sequential
        c["games_needed"] = v.games_needed
        c["more_games"] = (v.games_needed - v.games) if v.games_needed else None
        c["more_games_range"] = list(v.more_games_range) if v.more_games_range else None
    for c in cells:
        c.setdefault("verdict", "inconclusive")
        c.setdefault("verdict_text", "no games")
        c.setdefault("games_needed", None)
        c.setdefault("more_games", None)
        c.setdefault("more_games_range", None)


def wanted(verdict: str, more_games: int | None, games: int, min_step: float = 0.25) -> int:
    """Extra games an inconclusive cell asks for: the games its verdict estimates, and at
    least ``min_step`` times the games it has (the estimate plans at the per-cell level,
    which Benjamini-Hochberg over a whole sweep makes optimistic, and rounds of a handful
    of games would waste passes); none once decided, or if no practical number of games
    would settle it. The one rule of the sweep's rounds and ``run --until-decided``."""
    if verdict != "inconclusive" or not more_games:
        return 0
    return max(more_games, math.ceil(min_step * games))


def verdict_policy(manifest: dict[str, Any], margin: float, alpha: float = 0.05,
                   power: float = 0.8, min_step: float = 0.25):
    """The adaptive policy (``sim.adaptive.Policy``): cells whose BH-corrected sequential
    seat verdict is inconclusive want ``wanted`` games. Sequential at every look, the first
    pass's included, so however many rounds run the verdicts keep their error rates."""

    def policy(files: list[str], _games: dict[int, int]) -> dict[int, int]:
        cells = cell_table(files, manifest)
        add_verdicts(cells, margin, alpha, power, sequential=True)
        out = {c["index"]: wanted(c["verdict"], c["more_games"], c["games"], min_step)
               for c in cells}
        return {i: n for i, n in out.items() if n}

    return policy


RANK_KEYS = {"seat_gap": ("gap_low", "seat_gap")}
"""What a ranking sorts by: the seat gap by its lower confidence bound first (the gap the
games show at least), then the estimate."""


def imbalance_order(cell: Mapping[str, Any], by: str = "seat_gap") -> tuple:
    """The sort key from most to least imbalanced by ``by`` (``RANK_KEYS``); cells without
    that figure last, ties by cell index. ``sweep`` and ``report`` both rank by it, so they
    name the same least balanced cell of one directory."""
    return (cell.get(by) is None, *(-(cell.get(k) or 0.0) for k in RANK_KEYS.get(by, (by,))),
            cell["index"])


def rank(cells: list[dict[str, Any]], by: str = "seat_gap") -> list[dict[str, Any]]:
    """Cells from most to least imbalanced by ``by`` (seat_gap, bot_gap, dominance):
    ``seat_gap`` by the gap shown at least (``RANK_KEYS``); cells without that figure
    (one bot: no bot gap) last, ties by cell index."""
    ordered = sorted(cells, key=lambda c: imbalance_order(c, by))
    return [dict(c, rank=i + 1) for i, c in enumerate(ordered)]


# --- effects ------------------------------------------------------------------------------


def responses(players: int) -> list[tuple[str, str, str]]:
    """(name, label, unit) of the per-game responses; seat win rates come first (with two
    players only seat 1's: seat 2's is its mirror image)."""
    out = [(f"seat{s + 1}", f"seat {s + 1} win rate" + (" (start player)" if s == 0 else ""),
            WIN_UNIT) for s in range(1 if players == 2 else players)]
    out += [("score", "mean score", "points"), ("decisions", "game length", "decisions")]
    out += [(f"pts_{s}", f"{s} points", "points") for s in SOURCES]
    return out


def _response_exprs(players: int) -> list[pl.Expr]:
    """Per row, each response's contribution to its game's value (summed over the game's
    rows: a seat's win share, the mean over players, the game's length once)."""
    ws = pl.col("win_share").cast(pl.Float64)
    exprs = [pl.when(pl.col("seat") == s).then(ws).otherwise(0.0).alias(f"seat{s + 1}")
             for s in range(1 if players == 2 else players)]
    exprs.append((pl.col("score").cast(pl.Float64) / players).alias("score"))
    exprs.append(pl.when(pl.col("seat") == 0).then(pl.col("decisions").cast(pl.Float64))
                 .otherwise(0.0).alias("decisions"))
    exprs += [(pl.col(f"pts_{s}").cast(pl.Float64) / players).alias(f"pts_{s}")
              for s in SOURCES]
    return exprs


def _contrast(L: np.ndarray, m: np.ndarray, games: int, confidence: float):
    """Estimate, interval and p of a contrast given per-block totals L (R x B) over block
    sizes m (B): the ratio estimator with df = B - 1 (module docstring)."""
    est = L.sum(axis=1) / games
    B = m.size
    if B < 2:
        nan = np.full(est.shape, np.nan)
        return est, nan, nan, nan, nan
    resid = L - est[:, None] * m[None, :]
    se = np.sqrt(B / (B - 1) * (resid ** 2).sum(axis=1)) / games
    t = float(_st.t.ppf(0.5 + confidence / 2.0, B - 1))
    with np.errstate(divide="ignore", invalid="ignore"):
        tstat = np.where(se > 0, np.abs(est) / np.where(se > 0, se, 1.0), np.inf)
    p = np.where(se > 0, 2.0 * _st.t.sf(tstat, B - 1), np.where(est == 0, 1.0, 0.0))
    tiny = se <= 1e-12 * np.maximum(np.abs(est), 1e-300)
    se = np.where(tiny, 0.0, se)
    p = np.where(tiny, np.where(est == 0, 1.0, 0.0), p)
    return est, est - t * se, est + t * se, p, se


def stratum_effects(
    cell_files: dict[int, list[str]], cells: Sequence[dict[str, Any]], games: int,
    confidence: float = 0.95, max_blocks: int = MAX_BLOCKS,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[str]]:
    """Main effects and two-site interactions within one stratum (players and lineup).

    ``cells``: the stratum's manifest cells, a full factorial over the sides they use;
    ``games``: the first pass's games per cell (game indices 0 .. games - 1 are used).
    Returns (main effects, interactions, notes). Interactions are for the seat win rates.
    """
    players = cells[0]["players"]
    resp = responses(players)
    names = [r[0] for r in resp]
    R, Rw = len(resp), sum(r[2] == WIN_UNIT for r in resp)
    letters = [[c["sides"].split("-")[k] for c in cells] for k in range(len(SITES))]
    levels = [sorted(set(col)) for col in letters]
    varied = [k for k in range(len(SITES)) if len(levels[k]) > 1]
    notes: list[str] = []
    if math.prod(len(lv) for lv in levels) != len(cells) or len(
            {c["sides"] for c in cells}) != len(cells):
        notes.append(f"{players} players: the cells are not a full factorial; no effects")
        return [], [], notes
    if not varied or games < 2:
        return [], [], notes
    size = -(-games // max_blocks)
    B = -(-games // size)
    m = np.array([min(size, games - b * size) for b in range(B)], dtype=float)
    sidx = {s: i for i, s in enumerate(SIDES)}
    T = np.zeros((R, B))
    M = np.zeros((len(SITES), len(SIDES), R, B))
    pairs = list(itertools.combinations(varied, 2))
    P = np.zeros((len(pairs), len(SIDES), len(SIDES), Rw, B))
    exprs = _response_exprs(players)
    by_id = {c["id"]: i for i, c in enumerate(cells)}
    for lo in range(0, len(cells), CELLS_PER_PASS):
        chunk = cells[lo: lo + CELLS_PER_PASS]
        files = [f for c in chunk for f in cell_files.get(c["index"], [])]
        if not files:
            continue
        sums = (pl.scan_parquet(files).filter(pl.col("game") < games)
                .select("cell", (pl.col("game") // size).alias("block"), *exprs)
                .group_by("cell", "block").agg(pl.all().sum())
                .collect(engine="streaming"))
        for part in sums.partition_by("cell"):
            i = by_id[part["cell"][0]]
            S = np.zeros((R, B))
            blocks = part["block"].to_numpy()
            S[:, blocks] = part.select(names).to_numpy().T
            T += S
            for k in varied:
                M[k, sidx[letters[k][i]]] += S
            for p, (j, k) in enumerate(pairs):
                P[p, sidx[letters[j][i]], sidx[letters[k][i]]] += S[:Rw]
    N = len(cells)
    main = []
    for k in varied:
        na = N / len(levels[k])
        for a in levels[k]:
            L = M[k, sidx[a]] / na - T / N
            est, low, high, p, se = _contrast(L, m, games, confidence)
            for r, (name, label, unit) in enumerate(resp):
                if name.startswith("pts_") and not (M[k, :, r].any()):
                    continue  # a source nobody scores in this stratum
                main.append(_effect(cells[0], name, label, unit, SITES[k], a, None, None,
                                    est[r], low[r], high[r], p[r], se[r], games))
    inter = []
    for p_i, (j, k) in enumerate(pairs):
        nj, nk = N / len(levels[j]), N / len(levels[k])
        nab = N / (len(levels[j]) * len(levels[k]))
        # A two-sided site's second side is the mirror image of its first (sum to zero):
        # list only the first.
        for a in levels[j][:1] if len(levels[j]) == 2 else levels[j]:
            for b in levels[k][:1] if len(levels[k]) == 2 else levels[k]:
                L = (P[p_i, sidx[a], sidx[b]] / nab - M[j, sidx[a], :Rw] / nj
                     - M[k, sidx[b], :Rw] / nk + T[:Rw] / N)
                est, low, high, p, se = _contrast(L, m, games, confidence)
                for r in range(Rw):
                    name, label, unit = resp[r]
                    inter.append(_effect(cells[0], name, label, unit, SITES[j], a, SITES[k],
                                         b, est[r], low[r], high[r], p[r], se[r], games))
    return main, inter, notes


def _f(x: float) -> float | None:
    x = float(x)
    return None if math.isnan(x) else x


def _effect(cell: dict, name: str, label: str, unit: str, site: str, side: str,
            site2: str | None, side2: str | None, est, low, high, p, se, games: int) -> dict:
    return {
        "players": cell["players"], "lineup": ",".join(cell["lineup"]), "response": label,
        "response_key": name, "unit": unit, "site": SITE_NAMES[site], "side": side,
        "site2": SITE_NAMES[site2] if site2 else None, "side2": side2,
        "effect": _f(est), "ci_low": _f(low), "ci_high": _f(high), "se": _f(se),
        "p_value": _f(p), "q_value": None, "games_per_cell": games,
    }


def add_q_values(effects: list[dict[str, Any]]) -> None:
    """Benjamini-Hochberg q-values over every effect with a p-value (one family)."""
    have = [e for e in effects if e["p_value"] is not None]
    for e, q in zip(have, benjamini_hochberg([e["p_value"] for e in have]), strict=True):
        e["q_value"] = q


def _strength(e: dict[str, Any]) -> tuple:
    """Strongest first: smallest q, then the largest |effect| / se."""
    se = e["se"] or 0.0
    t = abs(e["effect"] or 0.0) / se if se > 0 else (math.inf if e["effect"] else 0.0)
    return (e["q_value"] if e["q_value"] is not None else 2.0, -t)


# --- the whole sweep ----------------------------------------------------------------------


def analyze_sweep(
    run_dir: str | Path, margin: float | None = None, confidence: float | None = None,
    top: int = 10, rank_by: str = "seat_gap", alpha: float = 0.05,
    max_blocks: int = MAX_BLOCKS, adaptive_outcome: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Everything ``imhotep-stats sweep`` reports, as one JSON-ready dict.

    ``cells`` (every cell's figures and BH verdict, ranked), ``ranking`` (the ``top``
    most imbalanced), ``main_effects`` and ``interactions`` (all, with BH q-values),
    their strongest ``top`` on the seat win rates, verdict counts and notes.
    """
    run_dir = Path(run_dir)
    manifest = store.load_manifest(run_dir)
    if manifest.get("status") != "complete":
        raise store.RunStoreError(f"{run_dir}: the run is not finished")
    report = manifest["config"].get("report", {})
    margin = float(margin if margin is not None else report.get("margin", DEFAULT_MARGIN))
    confidence = float(confidence if confidence is not None
                       else report.get("confidence", DEFAULT_CONFIDENCE))
    cells = cell_table(adaptive.all_files(run_dir), manifest, confidence)
    seq = adaptive.sequential(run_dir, manifest)
    add_verdicts(cells, margin, alpha, sequential=seq)
    ranked = rank(cells, rank_by)

    files: dict[int, list[str]] = {}
    for path in store.shard_files(run_dir):
        files.setdefault(int(store.SHARD_RE.match(path.name).group(1)), []).append(str(path))
    strata: dict[tuple, list[dict]] = {}
    for c in manifest["cells"]:
        strata.setdefault((c["players"], tuple(c["lineup"])), []).append(c)
    main: list[dict] = []
    inter: list[dict] = []
    notes: list[str] = []
    for group in strata.values():
        mn, it, nt = stratum_effects(files, group, int(manifest["games_per_cell"]),
                                     confidence, max_blocks)
        main += mn
        inter += it
        notes += nt
    add_q_values(main + inter)
    sides_of: dict[tuple, set[str]] = {}
    for e in main:
        sides_of.setdefault((e["players"], e["lineup"], e["site"]), set()).add(e["side"])

    def mirror(e: dict) -> bool:  # the second side of a two-sided site: -(the first)
        sides = sides_of[(e["players"], e["lineup"], e["site"])]
        return len(sides) == 2 and e["side"] != min(sides)

    seat_main = sorted((e for e in main if e["unit"] == WIN_UNIT and not mirror(e)),
                       key=_strength)
    top_inter = sorted(inter, key=_strength)
    # Which site moves the seats most: per stratum and site, its largest seat effect.
    by_site: dict[tuple, dict] = {}
    for e in main:
        if e["unit"] == WIN_UNIT and e["effect"] is not None:
            k = (e["players"], e["lineup"], e["site"])
            if k not in by_site or abs(e["effect"]) > abs(by_site[k]["effect"]):
                by_site[k] = e
    sites = sorted(by_site.values(), key=lambda e: (e["players"], e["lineup"],
                                                    -abs(e["effect"])))
    counts = {v: sum(c["verdict"] == v for c in cells)
              for v in VERDICTS}
    extra = sum(c["games"] for c in cells) - int(manifest["games_per_cell"]) * len(cells)
    notes.append("Effects: sum-to-zero coding (cells with the side minus the mean of all "
                 "cells of the same player count and lineup), paired over game indices, "
                 f"from the first pass ({manifest['games_per_cell']:,} games per cell). "
                 "q: Benjamini-Hochberg over every effect and interaction of the sweep.")
    return {
        "run_dir": str(run_dir), "study": manifest.get("study", "study"), "cells": len(cells),
        "games": sum(c["games"] for c in cells), "extra_games": extra,
        "margin": margin, "confidence": confidence, "rank_by": rank_by,
        "verdicts": counts, "ranking": ranked[:top], "all_cells": ranked,
        "main_effects": main, "main_effects_top": seat_main[:top],
        "interactions": inter, "interactions_top": top_inter[:top], "sites": sites,
        "adaptive": adaptive_outcome, "sequential": seq, "notes": notes,
    }


def cells_csv(res: dict[str, Any]) -> str:
    """Every cell of the sweep, ranked, as CSV (win rates as fractions)."""
    import csv
    import io

    cols = ["rank", "cell", "sides", "players", "lineup", "games", "seat_gap", "gap_low",
            "gap_high", "seat_spread",
            "start_player", "bot_gap", "top_source", "dominance", "mdd", "verdict",
            "verdict_text", "more_games"]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([*cols, "win_rates"])
    for c in res["all_cells"]:
        w.writerow([c[k] if c[k] is not None else "" for k in cols]
                   + [" ".join(f"{r:.6f}" for r in c["win_rates"])])
    return buf.getvalue()

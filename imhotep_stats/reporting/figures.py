"""Everything a report says about a stored run, computed once: the renderers (Markdown,
HTML, terminal, JSON, tables) only format what :func:`compute` returns.

The figures are polars aggregations over a lazy scan of the run's shards
(``stats.aggregate`` and ``stats.breakdowns``), so a report of a million games needs no
more memory than one of a thousand. Tables are sorted in the manifest's cell order, then by
their keys, so every output is byte-for-byte reproducible from the stored run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from imhotep_stats.config import DEFAULT_MARGIN
from imhotep_stats.reporting.robustness import Group, groups
from imhotep_stats.rules.board import SITES
from imhotep_stats.sim.adaptive import load_all, sequential
from imhotep_stats.sim.store import load_manifest
from imhotep_stats.stats.aggregate import (
    RATING_BLOCKS,
    bot_matrix,
    collapse_blocks,
    game_shape,
    points_by_source,
    score_distribution,
    seat_edge,
    win_rates,
    winner_separation,
)
from imhotep_stats.stats.breakdowns import (
    cell_bot_ratings,
    fairness,
    game_histogram,
    round_points,
)
from imhotep_stats.stats.playtest import card_strength, comebacks, has_card_columns
from imhotep_stats.stats.significance import SeatVerdict
from imhotep_stats.stats.sweep import gap_bounds, imbalance_order

MAX_DETAIL_CELLS = 24
"""Cells with a full section in report.md / report.html. A sweep of hundreds of cells would
make files nobody reads (and GitHub caps a step summary at 1 MiB); the worst cells get a
section, every cell stays in the overview, summary.json and tables/."""

POWER = 0.8
SIG = 10  # significant digits kept in exported floats (more than any figure can claim)

def clean(x: Any) -> Any:
    """A float rounded to SIG significant digits, None for nan/inf; others unchanged.

    The figures are already the same floats on every render (``stats.aggregate`` sums whole
    numbers); this keeps the exported files short and free of -0.0."""
    if isinstance(x, float | np.floating):
        x = float(x)
        if not math.isfinite(x):
            return None
        return float(f"{x:.{SIG}g}") + 0.0  # + 0.0 turns -0.0 into 0.0
    return x


@dataclass
class CellInfo:
    """One cell of the study, with its seat verdict and data notes."""

    index: int
    id: str
    sides: str
    players: int
    lineup: tuple[str, ...]
    games: int
    adaptive_games: int = 0  # of ``games``, those adaptive allocation added (sweep)
    notes: list[str] = field(default_factory=list)
    verdict: SeatVerdict | None = None
    mdd: float = math.nan  # smallest seat win-rate deviation the sample resolves

    @property
    def mixed(self) -> bool:
        return len(set(self.lineup)) > 1

    @property
    def label(self) -> str:
        return f"{self.sides} · {self.players} players · {', '.join(self.lineup)}"

    @property
    def anchor(self) -> str:
        return f"cell-{self.index + 1}"


@dataclass
class ReportData:
    """The figures of one run; ``tables`` are what tables/NAME.csv and .parquet hold."""

    manifest: dict[str, Any]
    study: str
    confidence: float
    margin: float
    alpha: float
    family: int  # seat hypotheses in the Holm family
    cells: list[CellInfo]
    tables: dict[str, pl.DataFrame]
    global_notes: list[str]
    detail: list[str]  # ids of the cells with a full section
    gates: dict[str, Any]
    adaptive_games: int = 0  # games beyond the first pass, from a sweep's adaptive rounds
    adaptive_rounds: int = 0
    sequential: bool = False  # verdicts from anytime-valid p-values (looked at more than once)
    robustness: list[Group] = field(default_factory=list)  # sides x players, several lineups
    cards_recorded: bool = True  # False: a run written before the cards taken were stored

    def cell(self, cell_id: str) -> CellInfo:
        return next(c for c in self.cells if c.id == cell_id)

    def rows(self, table: str, cell_id: str) -> list[dict[str, Any]]:
        """Rows of one table for one cell, in table order."""
        df = self.tables[table]
        return df.filter(pl.col("cell") == cell_id).to_dicts()


def _cell_order(df: pl.DataFrame, order: dict[str, int]) -> pl.DataFrame:
    """Stable sort by the manifest's cell order (aggregate sorts cell ids as text)."""
    if df.height == 0 or "cell" not in df.columns:
        return df
    idx = pl.col("cell").replace_strict(order, default=len(order), return_dtype=pl.Int64)
    return df.with_columns(_o=idx).sort("_o", maintain_order=True).drop("_o")


def _notes(sides: str, board: dict[str, Any]) -> list[str]:
    """Why a cell's numbers may not describe the printed game: provisional or changed data."""
    recs = board.get("sides", {})
    out = []
    for site, letter in zip(SITES, sides.split("-"), strict=False):
        name = f"{site}.{letter}"
        rec = recs.get(name) or {}
        if rec.get("provenance") == "provisional":
            keys = ", ".join(rec.get("provisional_keys") or []) or "all values"
            out.append(f"{name} uses provisional board data ({keys}): placeholders, not "
                       "checked against the printed board")
        if rec.get("designer"):
            out.append(f"{name} uses designer values from the board file "
                       f"({', '.join(rec['designer'])}): the designer's printed board")
        if rec.get("overridden"):
            out.append(f"{name} is overridden by the study config "
                       f"({', '.join(rec['overridden'])}): a what-if, not the printed board")
    return out


def sequential_note(manifest: dict[str, Any], rounds: int, alpha: float = 0.05) -> str:
    """What a sequential run's verdicts are, for the report's notes: how it was looked at
    more than once, and the error bound that holds over all the looks (2 alpha when the
    first look was a fixed-sample one: a plain run topped up, or games an earlier run
    judged; alpha when every look was sequential)."""
    passes = [int(n) for n in manifest.get("passes", ())]
    seen = manifest.get("looks") or {}
    prior = seen.get("prior") or []
    how = []
    if len(passes) > 1:
        how.append("played in passes to " + ", ".join(f"{n:,}" for n in passes) + " games")
    if manifest.get("sequential"):
        how.append("run until decided")
    if rounds:
        how.append(f"{rounds} adaptive round{'s' if rounds != 1 else ''}")
    for p in prior[:3]:
        g = p.get("games") or [0, 0]
        how.append(f"games {g[0]:,}-{g[1] - 1:,} judged before by {p.get('kind', 'run')} "
                   f"{p.get('run')} ({p.get('time')})")
    if len(prior) > 3:
        how.append(f"{len(prior) - 3} more earlier looks")
    text = ("Sequential verdicts: this run was looked at more than once ("
            + ("; ".join(how) or "a sweep's adaptive allocation") + "), so its seat verdicts "
            "use anytime-valid p-values (stats.sequential), valid at every later look. ")
    if prior or (len(passes) > 1 and manifest.get("first_look") != "sequential"):
        text += (f"Its first look was a fixed-sample one, so the chance that some look gave a "
                 f"false verdict is at most 2 x {alpha:.0%} = {2 * alpha:.0%} (the first look "
                 f"at most {alpha:.0%}, all later ones together at most {alpha:.0%}).")
    else:
        text += (f"Every look was sequential: their error rates ({alpha:.0%}) hold however "
                 "often and whenever it was looked at.")
    if seen.get("chosen_from"):
        text += (f" These are games on which an earlier look judged {seen['chosen_from']} "
                 "cells, so a cell here may have been chosen as their extreme: this is no "
                 "confirmation (without --seed, a run plays fresh games).")
    return text


def fresh_note(manifest: dict[str, Any]) -> str | None:
    """The note of a run that played fresh games instead of its study's seed."""
    seen = manifest.get("looks") or {}
    if seen.get("seed_from") is None:
        return None
    return (f"Fresh games: an earlier look (a sweep or a run of more cells) judged these "
            f"cells' games of seed {seen['seed_from']}, so this run played seed "
            f"{seen['seed']} instead: its verdicts are an independent look at cells that "
            f"may have been chosen there (--seed {seen['seed_from']} replays those games).")


def _global_notes(board: dict[str, Any]) -> list[str]:
    sides = set(board.get("sides", {}))
    return [f"board table {name} is overridden by the study config (every cell): a what-if"
            for name in sorted(board.get("overridden", {})) if name not in sides]


def _fairness_table(cells: list[CellInfo]) -> pl.DataFrame:
    rows = []
    for c in cells:
        v = c.verdict
        rows.append({
            "cell": c.id, "sides": c.sides, "players": c.players, "lineup": ",".join(c.lineup),
            "games": c.games, "verdict": v.verdict if v else None,
            "label": v.label if v else None, "text": verdict_text(v) if v else None,
            "seat": v.seat if v else None, "direction": v.direction if v else None,
            "margin": v.margin if v else None, "largest_gap": v.largest_gap if v else None,
            "largest_gap_seat": v.largest_gap_seat if v else None,
            "spread": v.spread if v else None, "chi2": v.chi2 if v else None,
            "chi2_df": v.chi2_df if v else None, "chi2_p": v.chi2_p if v else None,
            "p_within": v.p_within if v else None,
            "mdd": c.mdd, "games_needed": v.games_needed if v else None,
            "more_games": v.more_games if v else None, "notes": "; ".join(c.notes),
        })
    schema = {"cell": pl.String, "sides": pl.String, "players": pl.Int64, "lineup": pl.String,
              "games": pl.Int64, "verdict": pl.String, "label": pl.String,
              "text": pl.String, "seat": pl.Int64, "direction": pl.Int64,
              "margin": pl.Float64, "largest_gap": pl.Float64, "largest_gap_seat": pl.Int64,
              "spread": pl.Float64, "chi2": pl.Float64, "chi2_df": pl.Int64,
              "chi2_p": pl.Float64, "p_within": pl.Float64, "mdd": pl.Float64,
              "games_needed": pl.Int64,
              "more_games": pl.Int64, "notes": pl.String}
    return pl.DataFrame(rows, schema=schema)


def verdict_text(v: SeatVerdict) -> str:
    """The verdict in the designer's words (``SeatVerdict.text``, made by
    ``stats.significance.seat_verdicts``); gaps in percentage points (pp), not score points."""
    return v.text


def _seat_tests(seat: pl.DataFrame, cells: list[CellInfo]) -> pl.DataFrame:
    """Per seat: gap to the fair share and the Holm-adjusted p-values of both tests."""
    gap, p_dev, p_eq, p_out = [], [], [], []
    by_id = {c.id: c for c in cells}
    for cell, s, rate in seat.select("cell", "seat", "win_rate").iter_rows():
        v = by_id[cell].verdict
        if v is None:
            gap.append(None)
            p_dev.append(None)
            p_eq.append(None)
            p_out.append(None)
            continue
        gap.append(rate - v.expected)
        p_dev.append(v.p_deviation[s])
        p_eq.append(v.p_equivalence[s])
        p_out.append(v.p_beyond[s])
    return seat.with_columns(pl.Series("gap", gap, dtype=pl.Float64),
                             pl.Series("p_deviation", p_dev, dtype=pl.Float64),
                             pl.Series("p_equivalence", p_eq, dtype=pl.Float64),
                             pl.Series("p_beyond", p_out, dtype=pl.Float64))


def seat_verdicts_of(run_dir: str | Path) -> tuple[dict[str, SeatVerdict], dict[str, Any]]:
    """The seat verdict per cell id of a finished run, as its report decides them (and
    the manifest), without the other figures: what ``run --until-decided`` looks at
    after every pass."""
    manifest = load_manifest(run_dir)
    lf, _extra = load_all(run_dir)
    report = manifest.get("config", {}).get("report", {})
    conf = float(report.get("confidence", 0.95))
    seat = win_rates(lf, by=("cell", "seat"), confidence=conf)
    verdicts, _family = fairness(seat, [c["id"] for c in manifest["cells"]],
                                 float(report.get("margin", 0.02)), round(1.0 - conf, 12),
                                 POWER, sequential=sequential(run_dir, manifest))
    return verdicts, manifest


def compute(run_dir: str | Path) -> ReportData:
    """All figures of a finished run (RunStoreError if it is not one), over every game it
    holds: the first pass and the completed rounds of a sweep's adaptive allocation."""
    manifest = load_manifest(run_dir)
    lf, extra = load_all(run_dir)
    config = manifest.get("config", {})
    report = config.get("report", {})
    conf = float(report.get("confidence", 0.95))
    margin = float(report.get("margin", DEFAULT_MARGIN))
    alpha = round(1.0 - conf, 12)
    board = manifest.get("board", {})
    order = {c["id"]: i for i, c in enumerate(manifest["cells"])}

    seat = win_rates(lf, by=("cell", "seat"), confidence=conf)
    bot = win_rates(lf, by=("cell", "bot"), confidence=conf)
    games = {c: int(g) for c, g in seat.filter(pl.col("seat") == 0)
             .select("cell", "games").iter_rows()}
    cells = [CellInfo(index=i, id=c["id"], sides=c["sides"], players=int(c["players"]),
                      lineup=tuple(c["lineup"]), games=games.get(c["id"], 0),
                      adaptive_games=extra.per_cell.get(c["index"], 0),
                      notes=_notes(c["sides"], board))
             for i, c in enumerate(manifest["cells"])]
    seq = sequential(run_dir, manifest)
    verdicts, family = fairness(seat, [c.id for c in cells], margin, alpha, POWER,
                                sequential=seq)
    mdd = dict(seat.filter(pl.col("seat") == 0).select("cell", "mdd").iter_rows())
    for c in cells:
        c.verdict = verdicts.get(c.id)
        c.mdd = float(mdd.get(c.id, math.nan))

    blocked = bot_matrix(lf, by="cell", confidence=conf, blocks=RATING_BLOCKS)
    matrix = collapse_blocks(blocked, conf)
    tables = {
        "seat_fairness": _fairness_table(cells),
        "win_rates_seat": _seat_tests(seat, cells),
        "win_rates_bot": bot,
        "points_seat": points_by_source(lf, by=("cell", "seat"), confidence=conf),
        "points_bot": points_by_source(lf, by=("cell", "bot"), confidence=conf),
        "points_cell": points_by_source(lf, by="cell", confidence=conf),
        "winner_separation": winner_separation(lf, by="cell", confidence=conf),
        "seat_edge": seat_edge(lf, by=("cell", "seat"), confidence=conf),
        "bot_matrix": matrix,
        "bot_ratings": cell_bot_ratings(blocked, conf),
        "game_shape": game_shape(lf, by="cell", confidence=conf),
        "round_points": round_points(lf, by=("cell", "seat"), confidence=conf),
        "score_distribution": score_distribution(lf, by=("cell", "seat")),
        "margin_distribution": game_histogram(lf, "margin", by="cell"),
    }
    tables |= _playtest_tables(lf, manifest, conf)
    tables = {name: _cell_order(df, order) for name, df in tables.items()}

    cards_recorded = has_card_columns(manifest.get("schema"))
    wins: dict[str, list[float]] = {}
    for cid, w in seat.sort("cell", "seat").select("cell", "wins").iter_rows():
        wins.setdefault(cid, []).append(w)

    def least_balanced(c: CellInfo) -> tuple:  # as sweep ranks: stats.sweep.imbalance_order
        low = gap_bounds(wins.get(c.id, []), c.games, conf)[0]
        return imbalance_order({"index": c.index, "seat_gap": c.verdict.largest_gap,
                                "gap_low": low})

    ranked = sorted((c for c in cells if c.verdict is not None), key=least_balanced)
    detail = [c.id for c in ranked[:MAX_DETAIL_CELLS]]  # the least balanced first
    return ReportData(
        manifest=manifest, study=str(manifest.get("study", "study")), confidence=conf,
        margin=margin, alpha=alpha, family=family, cells=cells, tables=tables,
        global_notes=_global_notes(board) + ([extra.note] if extra.note else [])
        + ([sequential_note(manifest, extra.rounds, alpha)] if seq else [])
        + [n for n in [fresh_note(manifest)] if n]
        + ([] if cards_recorded else [CARDS_NOT_RECORDED]),
        detail=detail, gates=dict(config.get("gates") or {}),
        adaptive_games=extra.games, adaptive_rounds=extra.rounds, sequential=seq,
        robustness=groups(cells), cards_recorded=cards_recorded,
    )


CARDS_NOT_RECORDED = (
    "Card strength needs a re-run: this run was written before imhotep-stats recorded the "
    "market cards each seat took, so its shards cannot say; run the study again "
    "(`imhotep-stats run CONFIG --force`) for that table. Everything else is complete.")


def _playtest_tables(lf: pl.LazyFrame, manifest: dict[str, Any], conf: float
                     ) -> dict[str, pl.DataFrame]:
    """Comebacks by rank and deficit after each round, and card strength (stats.playtest);
    card strength is empty for a run that did not record the cards taken."""
    by_rank, by_deficit = comebacks(lf, conf)
    cards = card_strength(lf if has_card_columns(manifest.get("schema")) else lf.head(0), conf)
    return {"comebacks_rank": by_rank, "comebacks_deficit": by_deficit, "card_strength": cards}

"""Machine-readable outputs: summary.json and tables/NAME.csv / NAME.parquet.

summary.json keeps the per-seat and per-bot field names of ``run --json`` (``games``,
``wins``, ``win_rate``, ``ci_low``, ``ci_high``, ``points``) and adds the rest. Floats are
rounded to 10 significant digits (``figures.clean``) and NaN becomes null, so the file is
valid JSON and identical whenever it is regenerated from the same run.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import polars as pl

from imhotep_stats.reporting.figures import SIG, ReportData, clean, verdict_text
from imhotep_stats.reporting.gates import GateResult
from imhotep_stats.sim.schema import SOURCES

NOT_IN_JSON = ("seat_fairness", "win_rates_seat", "win_rates_bot", "score_distribution",
               "margin_distribution")
"""Tables summary.json does not repeat per cell: the first three are its ``seats``,
``bots`` and ``fairness``; histograms are long and stay in tables/."""


def write_text(path: Path, text: str | bytes) -> None:
    """Replace ``path`` in one step, so a reader never sees half a report."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    except OSError as exc:  # disk full: no half file left, and the message names the file
        tmp.unlink(missing_ok=True)
        exc.filename = exc.filename or str(path)
        raise
    os.replace(tmp, path)


def _row(r: dict[str, Any], drop: tuple[str, ...] = ("cell",)) -> dict[str, Any]:
    return {k: clean(v) for k, v in r.items() if k not in drop}


def _points(rows: list[dict[str, Any]], key: str, value: Any) -> dict[str, Any]:
    pts = {s: 0.0 for s in SOURCES}
    for r in rows:
        if r[key] == value:
            pts[r["source"]] = r["mean"]
    pts["total"] = sum(pts.values())
    return {k: clean(v) for k, v in pts.items()}


def gates_table(results: list[GateResult]) -> pl.DataFrame:
    return pl.DataFrame({"gate": [r.gate for r in results],
                         "passed": [r.passed for r in results],
                         "detail": [r.detail for r in results]},
                        schema={"gate": pl.String, "passed": pl.Boolean, "detail": pl.String})


def summary(data: ReportData, gates: list[GateResult]) -> dict[str, Any]:
    """The JSON-ready summary of the whole report."""
    m = data.manifest
    per_cell = {name: {} for name in data.tables if name not in NOT_IN_JSON}
    for name in per_cell:
        for r in data.tables[name].iter_rows(named=True):
            per_cell[name].setdefault(r["cell"], []).append(r)
    seat_tab = {}
    for r in data.tables["win_rates_seat"].iter_rows(named=True):
        seat_tab.setdefault(r["cell"], []).append(r)
    bot_tab = {}
    for r in data.tables["win_rates_bot"].iter_rows(named=True):
        bot_tab.setdefault(r["cell"], []).append(r)
    cells = []
    for c in data.cells:
        pts_seat = per_cell["points_seat"].get(c.id, [])
        pts_bot = per_cell["points_bot"].get(c.id, [])
        v = c.verdict
        obj: dict[str, Any] = {
            "cell": c.id, "sides": c.sides, "players": c.players, "lineup": list(c.lineup),
            "games": c.games, "adaptive_games": c.adaptive_games,
            "confidence": clean(data.confidence), "notes": c.notes,
            "seats": [dict(_row(r), points=_points(pts_seat, "seat", r["seat"]))
                      for r in seat_tab.get(c.id, [])],
            "bots": [dict(_row(r), points=_points(pts_bot, "bot", r["bot"]))
                     for r in bot_tab.get(c.id, [])],
            "fairness": None if v is None else {
                "verdict": v.verdict, "label": v.label, "text": verdict_text(v),
                "seat": v.seat, "direction": v.direction, "margin": clean(v.margin),
                "alpha": clean(v.alpha), "expected": clean(v.expected),
                "largest_gap": clean(v.largest_gap), "largest_gap_seat": v.largest_gap_seat,
                "spread": clean(v.spread), "chi2": clean(v.chi2), "chi2_df": v.chi2_df,
                "chi2_p": clean(v.chi2_p), "mdd": clean(c.mdd),
                "games_needed": v.games_needed, "more_games": v.more_games,
            },
        }
        for name, rows in per_cell.items():
            got = [_row(r) for r in rows.get(c.id, [])]
            if name == "game_shape":  # one row per cell: an object
                obj[name] = got[0] if got else None
            else:
                obj[name] = got
        cells.append(obj)
    return {
        "tool": "imhotep-stats", "study": data.study, "version": m.get("version"),
        "finished": m.get("finished"), "config_source": m.get("config_source"),
        "config_hash": m.get("config_hash"), "seed": (m.get("seeds") or {}).get("root"),
        "games_per_cell": m.get("games_per_cell"), "adaptive_games": data.adaptive_games,
        "confidence": clean(data.confidence),
        "margin": clean(data.margin), "alpha": clean(data.alpha), "correction": "holm",
        "verdicts": "sequential" if data.sequential else "fixed-sample",
        "seat_tests": data.family, "detail_cells": data.detail,
        "gates": {"passed": all(r.passed for r in gates) if gates else None,
                  "results": [{"gate": r.gate, "passed": r.passed, "detail": r.detail}
                              for r in gates]},
        "notes": data.global_notes,
        "tables": sorted([*data.tables, "gates"]),
        "robustness": [_cleaned(g.to_json()) for g in data.robustness],
        "cells": cells,
    }


def _cleaned(x: Any) -> Any:
    """``clean`` every float of a nested JSON-ready value."""
    if isinstance(x, dict):
        return {k: _cleaned(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_cleaned(v) for v in x]
    return clean(x)


def summary_json(data: ReportData, gates: list[GateResult]) -> str:
    return json.dumps(summary(data, gates), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def _rounded(df: pl.DataFrame) -> pl.DataFrame:
    floats = [c for c, t in df.schema.items() if t in (pl.Float32, pl.Float64)]
    return df.with_columns([(pl.col(c).round_sig_figs(SIG) + 0.0).alias(c) for c in floats])


def write_tables(data: ReportData, gates: list[GateResult], out: Path,
                 formats: tuple[str, ...]) -> list[Path]:
    """tables/NAME.csv and/or tables/NAME.parquet for every table (and the gates)."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, df in [*data.tables.items(), ("gates", gates_table(gates))]:
        df = _rounded(df)
        if "csv" in formats:
            path = out / f"{name}.csv"
            write_text(path, df.write_csv())
            written.append(path)
        if "parquet" in formats:
            path = out / f"{name}.parquet"
            buf = io.BytesIO()  # polars would wrap a full disk's OSError in a ComputeError
            df.write_parquet(buf, compression="zstd", statistics=True)
            write_text(path, buf.getvalue())
            written.append(path)
    return written

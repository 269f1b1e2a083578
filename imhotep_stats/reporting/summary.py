"""The short summary ``imhotep-stats run`` prints: per cell, win rates per seat and per bot
with Wilson intervals, and mean points per source. Full reports are ``report``'s job.

Everything is computed by ``stats.aggregate`` over a lazy scan of the shards, so the
summary of a million games needs no more memory than that of a thousand.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from imhotep_stats.stats.aggregate import points_by_source, win_rates
from imhotep_stats.stats.fmt import pct


def _rate_rows(df: pl.DataFrame, key: str) -> dict[str, dict[Any, dict[str, Any]]]:
    out: dict[str, dict[Any, dict[str, Any]]] = {}
    for r in df.iter_rows(named=True):
        out.setdefault(r["cell"], {})[r[key]] = {
            key: r[key], "games": int(r["games"]), "wins": float(r["wins"]),
            "win_rate": float(r["win_rate"]), "ci_low": float(r["ci_low"]),
            "ci_high": float(r["ci_high"]),
        }
    return out


def _points(df: pl.DataFrame, key: str) -> dict[str, dict[Any, dict[str, float]]]:
    out: dict[str, dict[Any, dict[str, float]]] = {}
    for r in df.iter_rows(named=True):
        pts = out.setdefault(r["cell"], {}).setdefault(r[key], {})
        pts[r["source"]] = float(r["mean"])
    for by_key in out.values():
        for pts in by_key.values():
            pts["total"] = sum(pts.values())
    return out


def cell_summaries(lf: pl.LazyFrame, manifest: dict[str, Any]) -> list[dict[str, Any]]:
    """One JSON-ready object per cell, in the manifest's cell order.

    Per seat and per bot: ``games`` (seat-games), ``wins`` (shared wins as fractions),
    ``win_rate``, ``ci_low``, ``ci_high`` (Wilson, the report's confidence level) and
    ``points``: mean points per source and ``total``.
    """
    conf = float(manifest.get("config", {}).get("report", {}).get("confidence", 0.95))
    seat_rates = _rate_rows(win_rates(lf, by=("cell", "seat"), confidence=conf), "seat")
    bot_rates = _rate_rows(win_rates(lf, by=("cell", "bot"), confidence=conf), "bot")
    seat_pts = _points(points_by_source(lf, by=("cell", "seat"), confidence=conf), "seat")
    bot_pts = _points(points_by_source(lf, by=("cell", "bot"), confidence=conf), "bot")
    out = []
    for cell in manifest["cells"]:
        cid = cell["id"]
        seats = [dict(v, points=seat_pts.get(cid, {}).get(k, {}))
                 for k, v in sorted(seat_rates.get(cid, {}).items())]
        bots = [dict(v, points=bot_pts.get(cid, {}).get(k, {}))
                for k, v in sorted(bot_rates.get(cid, {}).items())]
        games = sum(s["games"] for s in seats) // cell["players"] if seats else 0
        out.append({"cell": cid, "sides": cell["sides"], "players": cell["players"],
                    "lineup": cell["lineup"], "games": games, "confidence": conf,
                    "seats": seats, "bots": bots})
    return out


def format_cell(summary: dict[str, Any]) -> str:
    """A short terminal block for one cell: win rates, then mean points per source."""
    from tabulate import tabulate

    conf = round(100 * summary.get("confidence", 0.95))
    head = (f"{summary['sides']}, {summary['players']} players, lineup "
            f"{','.join(summary['lineup'])}: {summary['games']:,} games "
            "(seat 1 = start player)")
    who = [(f"seat {s['seat'] + 1}", s) for s in summary["seats"]]
    who += [(f"bot {b['bot']}", b) for b in summary["bots"]]
    rows = [[name, f"{r['games']:,}", f"{r['wins']:,.1f}", pct(r["win_rate"]),
             f"[{pct(r['ci_low'])}, {pct(r['ci_high'])}]"] for name, r in who]
    rates = tabulate(rows, headers=["", "games", "wins", "win rate", f"{conf}% CI"],
                     tablefmt="simple", disable_numparse=True,
                     colalign=("left", "right", "right", "right", "left"))
    sources = [k for k in (who[0][1]["points"] if who else {}) if k != "total"
               and any(abs(r["points"].get(k, 0.0)) > 0 for _, r in who)]
    prow = [[src, *[f"{r['points'].get(src, 0.0):.2f}" for _, r in who]]
            for src in [*sources, "total"]]
    points = tabulate(prow, headers=["mean points", *[n for n, _ in who]], tablefmt="simple",
                      disable_numparse=True, colalign=("left", *["right"] * len(who)))
    return f"{head}\n\n{rates}\n\n{points}\n"

"""Reports of a stored run: terminal, Markdown, HTML with charts, JSON, CSV/Parquet tables,
and the balance gates. Entry point: :func:`build_report` (loaded lazily: it imports polars
and scipy, which ``config`` must not pay for when it validates a ``[gates]`` table)."""

from __future__ import annotations


def __getattr__(name: str):
    if name in ("build_report", "Report", "FORMATS"):
        from imhotep_stats.reporting import build

        return getattr(build, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["FORMATS", "Report", "build_report"]

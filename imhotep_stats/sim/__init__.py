"""Simulation at scale: seeding, batches, executors, the run store and resume.

Kept light on import (``config`` imports ``sim.schema``); the public functions load lazily.
"""

from __future__ import annotations

_LAZY = {
    "load_results": "imhotep_stats.sim.store",
    "load_manifest": "imhotep_stats.sim.store",
    "RunStoreError": "imhotep_stats.sim.store",
    "run_study": "imhotep_stats.sim.runner",
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = sorted(_LAZY)

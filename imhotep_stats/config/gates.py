"""The ``[gates]`` table of a study config: its keys and their checks.

``config`` checks a ``[gates]`` table at load time (a typo fails before any game is played) and
``reporting/gates.py`` evaluates the gates after a run; the keys live here, below both, so the
config does not import the reporting layer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from imhotep_stats.errors import describe

GATE_KEYS: dict[str, str] = {
    "max_seat_gap": "a win-rate difference in (0, 1], e.g. 0.05",
    "no_unbalanced": "true or false",
    "require_balanced": "true or false",
    "source_share": "a table of source = [low, high] shares, e.g. { pyramid = [0.1, 0.4] }",
}


def _is_number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def gate_problems(gates: Mapping[str, Any], prefix: str = "gates") -> list[tuple[str, str]]:
    """Every problem of a ``[gates]`` table as (dotted key, what was expected)."""
    from imhotep_stats.rules.sources import SOURCES

    problems: list[tuple[str, str]] = []
    for key, value in gates.items():
        path = f"{prefix}.{key}"
        if key not in GATE_KEYS:
            problems.append((path, f"unknown gate (expected one of {', '.join(GATE_KEYS)})"))
        elif key == "max_seat_gap":
            if not _is_number(value) or not 0.0 < value <= 1.0:
                problems.append((path, f"expected {GATE_KEYS[key]}, got {describe(value)}"))
        elif key in ("no_unbalanced", "require_balanced"):
            if not isinstance(value, bool):
                problems.append((path, f"expected true or false, got {describe(value)}"))
        elif key == "source_share":
            if not isinstance(value, Mapping) or not value:
                problems.append((path, f"expected {GATE_KEYS[key]}, got {describe(value)}"))
                continue
            for src, rng in value.items():
                spath = f"{path}.{src}"
                if src not in SOURCES:
                    problems.append((spath, f"unknown score source (expected one of "
                                            f"{', '.join(SOURCES)})"))
                elif (not isinstance(rng, list) or len(rng) != 2
                      or not all(_is_number(x) for x in rng)
                      or not 0.0 <= rng[0] <= rng[1] <= 1.0):
                    problems.append((spath, "expected [low, high] with 0 <= low <= high <= 1, "
                                            f"got {describe(rng) if not isinstance(rng, list) else rng}"))
    return problems

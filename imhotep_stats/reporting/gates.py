"""Balance gates: conditions a study config's ``[gates]`` table sets for CI.

``run`` and ``report`` exit with code 3 (``cli.EXIT_GATE_FAILED``) when one fails and
name it on stderr. Every gate applies to every cell of the report::

    [gates]
    max_seat_gap = 0.05                     # |seat win rate - 1/players| <= 0.05 (point estimate)
    no_unbalanced = true                    # no cell is "unbalanced beyond +/-margin"
    require_balanced = true                 # every cell is shown within +/-margin
                                            # (balanced, or within it but tilted)
    source_share = { pyramid = [0.1, 0.4] } # a source's share of all points in [low, high]

The keys and their checks (``gate_problems``, which ``config`` runs at load time, so a typo
fails before any game is played) live in ``imhotep_stats/config/gates.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from imhotep_stats.config.gates import GATE_KEYS, gate_problems
from imhotep_stats.stats.fmt import pct

if TYPE_CHECKING:  # pragma: no cover
    from imhotep_stats.reporting.figures import ReportData

MAX_LISTED = 5  # failing cells named per gate


class GateConfigError(ValueError):
    """A run's manifest holds a [gates] table with unknown keys or bad values."""


@dataclass(frozen=True)
class GateResult:
    """One gate's outcome; ``detail`` says what was measured and, on failure, where."""

    gate: str
    passed: bool
    detail: str


def _listing(items: list[str]) -> str:
    shown = "; ".join(items[:MAX_LISTED])
    more = len(items) - MAX_LISTED
    return shown + (f"; and {more} more" if more > 0 else "")


def _pp(x: float) -> str:
    return f"{100 * x:.1f} pp"


def evaluate(data: ReportData) -> list[GateResult]:
    """Check the run's gates (from its manifest) against the report's figures.

    Raises GateConfigError when the gates table itself is invalid (a manifest written before the
    gate keys were validated, or edited by hand).
    """
    gates = data.gates
    problems = gate_problems(gates)
    if problems:
        raise GateConfigError("invalid [gates] in the run's manifest: " + "; ".join(
            f"{k}: {m}" for k, m in problems))
    cells = [c for c in data.cells if c.verdict is not None]
    out: list[GateResult] = []
    for key in GATE_KEYS:  # a fixed order, whatever the config's
        if key not in gates or gates[key] is False:
            continue
        value = gates[key]
        if key == "max_seat_gap":
            bad = [c for c in cells if c.verdict.largest_gap > value + 1e-12]
            worst = max(cells, key=lambda c: c.verdict.largest_gap, default=None)
            if bad:
                detail = (f"{len(bad)} cell{'s' if len(bad) > 1 else ''} above "
                          f"{_pp(value)}: " + _listing([
                              f"{c.label}: seat {c.verdict.largest_gap_seat + 1} off by "
                              f"{_pp(c.verdict.largest_gap)}" for c in bad]))
            elif worst is not None:
                detail = (f"largest seat gap {_pp(worst.verdict.largest_gap)} "
                          f"({worst.label}) ≤ {_pp(value)}")
            else:
                detail = "no games"
            out.append(GateResult(key, not bad, detail))
        elif key in ("no_unbalanced", "require_balanced"):
            if key == "no_unbalanced":
                bad = [c for c in cells if c.verdict.verdict == "unbalanced"]
                ok = f"no cell is unbalanced beyond ±{_pp(data.margin)}"
            else:  # a tilt inside the margin is what the designer allowed
                bad = [c for c in cells if c.verdict.verdict not in ("balanced", "tilted")]
                ok = f"every cell is shown within ±{_pp(data.margin)}"
            from imhotep_stats.reporting.figures import verdict_text

            detail = (f"{len(bad)} cell{'s' if len(bad) > 1 else ''}: " + _listing(
                [f"{c.label}: {verdict_text(c.verdict)}" for c in bad])) if bad else ok
            out.append(GateResult(key, not bad, detail))
        elif key == "source_share":
            shares = {(r["cell"], r["source"]): r["share"]
                      for r in data.tables["points_cell"].iter_rows(named=True)}
            for src, (low, high) in value.items():
                got = [(c, shares.get((c.id, src)) or 0.0) for c in cells]
                bad = [(c, s) for c, s in got if not low - 1e-12 <= s <= high + 1e-12]
                name = f"source_share.{src}"
                if bad:
                    detail = (f"{src} share outside [{low:g}, {high:g}] in {len(bad)} cell"
                              f"{'s' if len(bad) > 1 else ''}: " + _listing(
                                  [f"{c.label}: {pct(s)}" for c, s in bad]))
                elif got:
                    lo = min(s for _, s in got)
                    hi = max(s for _, s in got)
                    detail = (f"{src} share {pct(lo)}" + (
                        f" to {pct(hi)}" if hi != lo else "")
                        + f" within [{low:g}, {high:g}]")
                else:
                    detail = "no games"
                out.append(GateResult(name, not bad, detail))
    return out

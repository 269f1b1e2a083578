"""Number formatting shared by every report format and the verdicts' sentences: fixed
decimals, one dash for a missing value and no "-0.0", so the same figures always print the
same text (545 wins of 2,000 reads 27.3% in the answer and in the table)."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

DASH = "–"


def _ok(x: Any) -> bool:
    return x is not None and not (isinstance(x, float) and not math.isfinite(x))


def _fixed(x: float, digits: int) -> str:
    # Round at 10 significant digits first: float noise must not flip the last decimal; then
    # half away from zero, as people round (27.25 -> 27.3; Python's format rounds half to
    # even on the binary value, so 27.25 would print 27.2).
    d = Decimal(f"{float(x):.10g}").quantize(Decimal(1).scaleb(-digits), ROUND_HALF_UP)
    s = f"{d:f}"
    return s[1:] if s.startswith("-") and d == 0 else s


def num(x: Any, digits: int = 2) -> str:
    return _fixed(x, digits) if _ok(x) else DASH


def signed(x: Any, digits: int = 2) -> str:
    if not _ok(x):
        return DASH
    s = _fixed(x, digits)
    return s if s.startswith("-") or float(s) == 0 else "+" + s


def pct(x: Any, digits: int = 1) -> str:
    return _fixed(100 * x, digits) + "%" if _ok(x) else DASH


def pp(x: Any, digits: int = 1, sign: bool = False) -> str:
    """A win-rate difference in percentage points."""
    if not _ok(x):
        return DASH
    return (signed(100 * x, digits) if sign else _fixed(100 * x, digits)) + " pp"


def ci_pct(low: Any, high: Any, digits: int = 1) -> str:
    if not (_ok(low) and _ok(high)):
        return DASH
    return f"[{_fixed(100 * low, digits)}, {_fixed(100 * high, digits)}]%"


def ci_num(low: Any, high: Any, digits: int = 2) -> str:
    if not (_ok(low) and _ok(high)):
        return DASH
    return f"[{_fixed(low, digits)}, {_fixed(high, digits)}]"


def mean_ci(mean: Any, low: Any, high: Any, digits: int = 2) -> str:
    """``7.68 [7.12, 8.24]``, or just the mean when the interval is missing."""
    if not _ok(mean):
        return DASH
    if not (_ok(low) and _ok(high)):
        return _fixed(mean, digits)
    return f"{_fixed(mean, digits)} [{_fixed(low, digits)}, {_fixed(high, digits)}]"


def pval(p: Any) -> str:
    if not _ok(p):
        return DASH
    return "< 0.001" if p < 0.001 else _fixed(p, 3)


def p_is(p: Any) -> str:
    """A p-value in a sentence: "p < 0.001", "p = 0.042"."""
    text = pval(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def count(x: Any) -> str:
    if not _ok(x):
        return DASH
    if isinstance(x, float) and not x.is_integer():
        return f"{float(f'{x:.10g}'):,.2f}".rstrip("0").rstrip(".")
    return f"{int(x):,}"

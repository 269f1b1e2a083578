"""The report's SVG charts draw any values (issue 48): negative, all zero, one value, NaN,
infinite, huge and tiny ranges, one row or a thousand, in a time and size that depend on
the number of rows only. An all-negative axis once drew 10^8 grid lines (a report that ate
the machine's memory); every call here runs under an alarm, so such a chart fails, not hangs.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import resource
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from imhotep_stats.reporting import charts

SECONDS = 1  # CPU seconds for one chart of at most a thousand rows (it takes milliseconds)
NUMERIC = ("x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "width", "height", "r")

# The values a report can meet and a few it should never meet.
any_float = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(-1.0, 1.0),
    st.floats(-1e-12, 1e-12),
    st.sampled_from([0.0, -0.0, 1e300, -1e300, 5e-324, -0.31, 1e12 + 0.25]),
)
rows = st.integers(0, 60).flatmap(
    lambda n: st.tuples(*[st.lists(any_float, min_size=n, max_size=n) for _ in range(3)]))


@contextlib.contextmanager
def alarm(seconds: float = SECONDS):
    """Fail a call that takes more than ``seconds`` of this process's CPU time (SIGPROF, so a
    busy loop is stopped, and other processes on a loaded machine do not count)."""
    def stop(_sig, _frame):
        raise TimeoutError(f"chart not drawn within {seconds} CPU s")

    old = signal.signal(signal.SIGPROF, stop)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


def drawn(svg: str, n: int) -> ET.Element:
    """``svg`` parses, places every shape at finite coordinates and has at most a fixed
    number of elements plus a few per row (``n`` rows or bins)."""
    root = ET.fromstring(svg)
    elements = list(root.iter())
    assert len(elements) <= 60 + 6 * n, len(elements)
    for el in elements:
        for name in NUMERIC:
            if name in el.attrib:
                assert math.isfinite(float(el.attrib[name])), (el.tag, name, el.attrib[name])
        for number in re.findall(r"[-+]?[\d.]+(?:e[-+]?\d+)?|nan|inf", el.attrib.get("d", "")):
            assert math.isfinite(float(number)), el.attrib["d"]
    return root


def grid_lines(root: ET.Element, stroke: str) -> int:
    return sum(1 for el in root.iter() if el.tag.endswith("line") and el.get("stroke") == stroke)


def _labels(n: int) -> list[str]:
    return [f"row {i}" for i in range(n)]


# No shrinking: a chart that runs into the alarm would be rerun for minutes to shrink it.
FAST = settings(max_examples=150, deadline=None,
                phases=(Phase.explicit, Phase.reuse, Phase.generate),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
BELOW = ([-0.031, -0.022], [-0.046, -0.037], [-0.016, -0.007])  # issue 48: all below fair


@FAST
@given(rows, any_float)
@example(BELOW, 0.0)
def test_interval_rows_draws_any_values(cols, reference):
    values, lows, highs = cols
    n = len(values)
    with alarm():
        svg = charts.interval_rows(_labels(n), values, lows, highs, title="t", x_label="x",
                                   reference=reference, percent=True)
    root = drawn(svg, n)
    assert grid_lines(root, "#e5e5e5") <= charts.MAX_TICKS + 1


@FAST
@given(rows, st.one_of(st.none(), any_float))
@example(BELOW, None)
def test_interval_bars_draws_any_values(cols, reference):
    values, lows, highs = cols
    n = len(values)
    with alarm():
        svg = charts.interval_bars(_labels(n), values, lows, highs, title="t",
                                   reference=reference)
    assert grid_lines(drawn(svg, n), "#ddd") <= charts.MAX_TICKS + 1


@FAST
@given(st.lists(st.tuples(any_float, any_float, any_float), max_size=40),
       st.tuples(any_float, any_float))
def test_band_points_draws_any_values(points, band):
    with alarm():
        svg = charts.band_points(_labels(len(points)), {"a": points, "b": points[::-1]},
                                 band=band, title="t", mark=0 if points else None)
    assert grid_lines(drawn(svg, 2 * len(points)), "#ddd") <= charts.MAX_TICKS + 1


@FAST
@given(st.lists(st.tuples(any_float, any_float), max_size=60),
       st.one_of(st.none(), any_float))
def test_histogram_draws_any_values(points, bin_width):
    with alarm():
        svg = charts.histogram({"a": points, "b": points[:3]}, title="t", bin_width=bin_width)
    root = drawn(svg, 0)  # a histogram is one path per series, however many bins
    assert grid_lines(root, "#eee") + grid_lines(root, "#999") <= 2 * (charts.MAX_TICKS + 1)


@FAST
@given(st.integers(0, 30).flatmap(lambda n: st.lists(
    st.lists(any_float, min_size=n, max_size=n), min_size=1, max_size=4)))
def test_stacked_bars_draw_any_values(columns):
    n = len(columns[0])
    series = {f"s{j}": col for j, col in enumerate(columns)}
    with alarm():
        svg = charts.stacked_bars(_labels(n), series, title="t")
    drawn(svg, n * len(columns))


@settings(max_examples=300, deadline=None)
@given(st.lists(any_float, max_size=30), st.integers(1, 50), st.booleans())
def test_an_axis_has_a_few_round_ticks_covering_the_values(values, most, zero):
    step, first, last = charts.axis(values, most, zero)
    assert 0 < last - first <= min(most, charts.MAX_TICKS)
    assert math.isfinite(step) and step > 0
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert any(math.isclose(mantissa, b) for b in (1, 2, 2.5, 5, 10)), step
    xs = charts.finite(values) + ([0.0] if zero else [])
    if xs and most >= 3:  # the axis holds every finite value (within float resolution)
        slack = 1e-6 * max(abs(x) for x in xs) + 1e-200
        assert first * step <= min(xs) + slack and last * step >= max(xs) - slack


# Each pair: values that once made an axis of millions of lines or a NaN coordinate.
EDGES = {
    "all below the reference": [-0.031, -0.022, -0.040],  # issue 48's two-cell study
    "all zero": [0.0, 0.0, 0.0],
    "one value": [3.0],
    "NaN and infinities": [math.nan, math.inf, -math.inf, 0.5],
    "huge range": [-1e300, 1e300, 1.0],
    "tiny range": [1e-300, 2e-300, 3e-300],
    "tiny range far from zero": [1e12, 1e12 + 1e-3],
}


@pytest.mark.parametrize("values", EDGES.values(), ids=EDGES.keys())
@pytest.mark.parametrize("n", [1, 1000])
def test_one_row_or_a_thousand_in_time_that_does_not_depend_on_the_values(values, n):
    vals = [values[i % len(values)] for i in range(n)]
    t0 = time.process_time()
    with alarm():
        svg = charts.interval_rows(_labels(n), vals, [v - 0.01 for v in vals],
                                   [v + 0.01 for v in vals], title="t", x_label="x")
        bars = charts.interval_bars(_labels(n), vals, vals, vals, title="t", reference=0.0)
    assert time.process_time() - t0 < SECONDS
    drawn(svg, n)
    drawn(bars, n)
    plain = charts.interval_rows(_labels(n), [0.1] * n, [0.0] * n, [0.2] * n, title="t",
                                 x_label="x")
    # the same number of rows draws about the same amount, whatever the values
    assert len(svg) < 2 * len(plain) + 2000


# --- the two-cell study of issue 48 --------------------------------------------------------

TWO_CELLS = """
[study]
name = "two-cells"
seed = 1
games = 2000
players = 3

[sides]
market = ["A", "B"]

[run]
batch_size = 100
workers = 1
"""
MEMORY = 3 << 30  # bytes of address space the run may use; the endless axis took 24 GB


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def test_a_study_whose_seat_1_is_below_fair_share_in_every_cell_reports_in_seconds(tmp_path):
    """Random bots put seat 1 below its fair share; with these games both cells' intervals
    lie wholly below it, so the cross-cell chart's values are all negative."""
    (tmp_path / "two.toml").write_text(TWO_CELLS)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-m", "imhotep_stats", "run", str(tmp_path / "two.toml"),
                           "--out", str(tmp_path / "run"), "-q"], capture_output=True, text=True,
                          timeout=600, preexec_fn=_limited, env={**os.environ,
                                                                 "GITHUB_STEP_SUMMARY": ""})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert proc.returncode == 0, proc.stderr[-2000:]
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    assert cpu < 60, cpu  # games and report; the endless axis never finished
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    seat1 = [c["seats"][0] for c in summary["cells"]]
    assert len(seat1) == 2 and all(r["ci_high"] < r["expected"] for r in seat1), seat1
    html = (tmp_path / "run" / "report.html").read_text()
    assert "Seat 1 against its fair share, by cell" in html

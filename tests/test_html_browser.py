"""report.html, tune.html, compare.html and sweep.html for people: rendered in headless Chromium at a
desktop (1280 px) and a phone (390 px) width, every chart must fit the viewport (its box, as
the browser lays it out), the page must not scroll sideways, every text (chart text included)
must draw at 11 px or more, and every chart must title its axes. Skips, saying why, where
Chromium is not installed (`make test` installs Debian's `chromium` when it runs as root
with apt-get)."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from imhotep_stats.cli import main
from tests import browser

STUDY = """
[study]
name = "browser"
seed = 3
games = 30
players = [2, 3]

[sides]
market = ["A", "D"]

[bots]
lineup = ["greedy", "random", "random"]

[run]
workers = 1
"""


@pytest.fixture(scope="module")
def report_html(tmp_path_factory):
    if browser.chromium() is None:
        pytest.skip("headless Chromium not found (Debian package `chromium`, installed by "
                    "`make test` when run as root; or set $CHROMIUM): browser test skipped")
    d = tmp_path_factory.mktemp("browser")
    (d / "study.toml").write_text(STUDY)
    r = CliRunner().invoke(main, ["run", str(d / "study.toml"), "--out", str(d / "run"), "-q"],
                           env={"GITHUB_STEP_SUMMARY": None,
                                "IMHOTEP_STATS_LEDGER": str(d / "looks.jsonl")})
    assert r.exit_code == 0, r.output
    return d / "run" / "report.html"


@pytest.fixture(scope="module")
def tune_html(report_html):
    d = report_html.parent.parent
    r = CliRunner().invoke(main, [
        "tune", "--sides", "A-A-A-A-A", "--players", "2", "--bots", "random", "--param",
        "game.starting_sled[0]=1..4", "--param", "game.starting_sled[1]=2,4", "--target",
        "seat:1", "--games", "40", "--rounds", "0", "--out", str(d / "tune"), "--workers", "1",
        "-q"], env={"IMHOTEP_STATS_LEDGER": str(d / "looks.jsonl")})
    assert r.exit_code == 0, r.output
    return d / "tune" / "tune.html"


@pytest.fixture(scope="module")
def compare_html(report_html):
    d = report_html.parent.parent
    r = CliRunner().invoke(main, [
        "compare", "--sides", "A-A-A-A-A", "--players", "3", "--bots", "random", "--param",
        "game.starting_sled[0]=5", "--games", "40", "--out", str(d / "cmp"), "--workers", "1",
        "-q"], env={"IMHOTEP_STATS_LEDGER": str(d / "looks.jsonl")})
    assert r.exit_code == 0, r.output
    return d / "cmp" / "compare.html"


@pytest.fixture(scope="module")
def sweep_html(report_html):
    d = report_html.parent.parent
    r = CliRunner().invoke(main, [
        "sweep", "--sides", "all-A-A-A-A", "--players", "3", "--bots", "random", "--games",
        "30", "--out", str(d / "sweep"), "--workers", "1", "-q"],
        env={"IMHOTEP_STATS_LEDGER": str(d / "looks.jsonl")})
    assert r.exit_code == 0, r.output
    return d / "sweep" / "sweep.html"


SMALLEST = 11  # px: no text smaller, on a phone as on a laptop
# A scale up the side: a horizontal grid line with its value right-aligned at its left end
Y_SCALE = re.compile(r'<line x1="[\d.]+" x2="[\d.]+" y1="([\d.]+)" y2="\1"[^>]*/><text[^>]*'
                     r'text-anchor="end"')


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("page", ["report_html", "tune_html", "compare_html", "sweep_html"])
def test_every_text_is_readable_and_every_axis_titled(page, width, request):
    """Chart text shrinks with its chart (a 720 px tune chart drew 6-7 px text on a phone):
    charts are drawn at a width whose text stays at 11 px or more at 390 px. Every chart
    names what its x axis measures, and a chart with a scale up its side names that too."""
    path = request.getfixturevalue(page)
    got = browser.measure(path, width)
    assert got["viewport"] == width
    smallest = got["smallest"][0]
    assert smallest["size"] >= SMALLEST, (page, width, got["smallest"])
    assert got["scroll"] <= width, f"{page} scrolls sideways at {width} px: {got['scroll']}"
    for c in got["charts"]:
        assert c["left"] >= 0 and c["right"] <= width + 0.5, (page, width, c)
    svgs = re.findall(r"<svg.*?</svg>", path.read_text(), re.S)
    assert svgs
    for svg in svgs:
        label = re.search(r'aria-label="([^"]*)"', svg).group(1)
        assert 'class="x-title"' in svg, f"{page}: no x axis title on {label!r}"
        if Y_SCALE.search(svg):
            assert 'class="y-title"' in svg, f"{page}: no y axis title on {label!r}"


def test_compare_html_charts_the_changes(compare_html):
    html = compare_html.read_text()
    assert html.startswith("<!DOCTYPE html>")
    assert 'aria-label="Change in seat win rate (95% CI)"' in html
    assert 'aria-label="Change in points by source (95% CI)"' in html
    assert "What-if: " in html and 'ul class="trust"' in html


@pytest.mark.parametrize("width", [1280, 390])
def test_every_chart_fits_the_viewport(report_html, width):
    page = browser.measure(report_html, width)
    assert page["viewport"] == width  # the page was laid out at the asked width
    charts = page["charts"]
    # 4 cells x (seat and bot win rates, points by source, game shape): many charts
    assert len(charts) >= 8, charts
    for c in charts:
        assert c["width"] > 0 and c["height"] > 0, c
        assert c["left"] >= 0 and c["right"] <= width + 0.5, (width, c)
    if width < 560:  # narrower than a chart's natural width: it must have scaled down
        assert max(c["width"] for c in charts) <= width
        assert all(c["height"] < 260 for c in charts if c["label"].startswith("Win rate by"))
    assert page["scroll"] <= width, f"the page scrolls sideways at {width} px: {page['scroll']}"


@pytest.mark.parametrize("width", [1280, 390])
def test_text_is_readable_and_no_table_overflows(report_html, width):
    """No text drawn below 11 px (chart text shrinks with its chart: legends were ~5 px on a
    phone), and every table fits the page (on a phone rows stack into cards, so the verdict
    column is never off-screen)."""
    page = browser.measure(report_html, width)
    smallest = page["smallest"][0]
    assert smallest["size"] >= SMALLEST, (width, page["smallest"])
    for t in page["tables"]:
        assert t["left"] >= 0 and t["right"] <= width + 0.5, (width, t)
    html = report_html.read_text()
    answer, method = html.index('id="answer"'), html.index("<details><summary>How these numbers")
    assert answer < method, "the answer comes before the method"
    assert 'ul class="trust"><li>' in html[answer:method] and "margin ±" in html[answer:method]


def test_a_multi_cell_report_has_a_cross_cell_chart(report_html):
    assert 'aria-label="Seat 1 against its fair share, by cell' in report_html.read_text()


@pytest.mark.parametrize("width", [1280, 390])
def test_the_tune_chart_fits_the_viewport(tune_html, width):
    page = browser.measure(tune_html, width)
    assert page["viewport"] == width
    (chart,) = page["charts"]  # the target against the value
    assert chart["width"] > 0 and chart["left"] >= 0 and chart["right"] <= width + 0.5, chart
    assert page["scroll"] <= width, f"the page scrolls sideways at {width} px: {page['scroll']}"


def test_tune_html_marks_the_printed_value(tune_html):
    html = tune_html.read_text()
    assert 'class="printed"' in html and "printed value" in html
    assert "Printed value: game.starting_sled[0] = 2 (among the candidates)." in html

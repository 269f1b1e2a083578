"""The game viewer in headless Chromium at a desktop (1280 px) and a phone (390 px) width:
step forward (button and arrow key) and back, and at every step the stones drawn, by place and
seat, are the stones of the state the engine replayed (Python's count, not the page's). The
page must not scroll sideways and its text must be readable. Skips where Chromium is missing."""

from __future__ import annotations

import re

import pytest

from imhotep_stats.reporting.board_state import stones_drawn
from imhotep_stats.reporting.viewer import game_steps, page
from imhotep_stats.rules.board import default_board
from tests import browser
from tests.test_viewer import transcript

# Clicks "next" 25 times, presses ArrowRight 25 times, jumps to the end, presses ArrowLeft
# 10 times and clicks "back" 5 times; after each step it counts the drawn stones.
WALK = """<script>
(function () {
  function counts() {
    var out = {};
    document.querySelectorAll("circle.stone").forEach(function (c) {
      var place = c.getAttribute("data-place"), seat = +c.getAttribute("data-seat");
      out[place] = out[place] || [0, 0, 0, 0];
      out[place][seat] += 1;
    });
    return out;
  }
  var seen = [];
  function look() { seen.push({step: window.viewer.step(), stones: counts(),
                               caption: document.getElementById("caption").textContent}); }
  function key(k) { document.dispatchEvent(new KeyboardEvent("keydown", {key: k, bubbles: true})); }
  look();
  for (var i = 0; i < 25; i++) { document.getElementById("next").click(); look(); }
  for (i = 0; i < 25; i++) { key("ArrowRight"); look(); }
  document.getElementById("last").click(); look();
  for (i = 0; i < 10; i++) { key("ArrowLeft"); look(); }
  for (i = 0; i < 5; i++) { document.getElementById("prev").click(); look(); }
  var small = 1e9;
  document.querySelectorAll("body *").forEach(function (e) {
    if (!e.childNodes.length || e.closest("script,style")) return;
    var own = Array.prototype.some.call(e.childNodes, function (n) { return n.nodeType === 3 && n.textContent.trim(); });
    if (!own) return;
    var r = e.getBoundingClientRect();
    if (r.width === 0) return;
    var size = e instanceof SVGElement ? r.height : parseFloat(getComputedStyle(e).fontSize);
    small = Math.min(small, size);
  });
  parent.postMessage(JSON.stringify({seen: seen, count: window.viewer.count, smallest: small,
                                     scroll: document.documentElement.scrollWidth,
                                     viewport: document.documentElement.clientWidth}), "*");
})();
</script>"""


@pytest.fixture(scope="module")
def viewer(tmp_path_factory):
    if browser.chromium() is None:
        pytest.skip("headless Chromium not found (Debian package `chromium`, installed by "
                    "`make test` when run as root; or set $CHROMIUM): browser test skipped")
    steps = game_steps(transcript(3, "D-A-C-B-D", seed=2, bots="greedy"))
    out = tmp_path_factory.mktemp("viewer") / "game.html"
    out.write_text(page(steps), encoding="utf-8")
    return steps, out


@pytest.mark.parametrize("width", [1280, 390])
def test_the_drawn_stones_follow_the_replayed_state(viewer, width):
    steps, html = viewer
    got = browser.run_script(html, WALK, width)
    assert got["viewport"] == width
    assert got["count"] == len(steps.states)
    walked = [s["step"] for s in got["seen"]]
    last = len(steps.states) - 1
    assert walked[:51] == list(range(51))  # forward, one step per click or key
    assert walked[51:] == list(range(last, last - 16, -1))  # the end, then back
    n = 3
    for seen in got["seen"]:
        want = stones_drawn(steps.states[seen["step"]], n)
        drawn = {place: counts[:n] for place, counts in seen["stones"].items()}
        for place, counts in want.items():
            assert drawn.get(place, [0] * n) == counts, (width, seen["step"], place)
        assert set(drawn) <= set(want)
        assert seen["caption"].startswith(f"Step {seen['step']} of {last}")
    assert got["scroll"] <= width, f"the viewer scrolls sideways at {width} px"
    assert got["smallest"] >= 11, f"text of {got['smallest']:.1f} px at {width} px"


# Opens the page at #step=N, reads the caption and the space values, scrolls to the bottom
# and measures the sticky controls, then clicks "next" and reads the address's fragment.
DEEP = """<script>
(function () {
  var caption = document.getElementById("caption").textContent;
  var step = window.viewer.step();
  var values = Array.prototype.map.call(document.querySelectorAll("text.value[data-key]"),
    function (t) { return [t.getAttribute("data-key"), t.textContent]; });
  window.scrollTo(0, document.documentElement.scrollHeight);
  var bar = document.getElementById("next").getBoundingClientRect();
  var scrolled = window.scrollY;
  document.getElementById("next").click();
  parent.postMessage(JSON.stringify({caption: caption, step: step, values: values,
    scrolled: scrolled, bar: [bar.top, bar.bottom], inner: window.innerHeight,
    hash: location.hash, after: document.getElementById("caption").textContent}), "*");
})();
</script>"""


@pytest.mark.parametrize("width", [1280, 390])
def test_a_deep_link_opens_its_step_in_words_with_the_controls_in_view(viewer, width):
    """``#step=N`` opens step N, whose caption is in a player's words (seats and ships from
    1, the points scored); the controls stay on screen at the bottom of the page; stepping
    updates the link; the pyramid's spaces show their board values by data key."""
    steps, html = viewer
    last = len(steps.states) - 1
    sail = next(k for k, c in enumerate(steps.captions) if " sails ship " in c and ": seat " in c)
    got = browser.run_script(html, DEEP, width, fragment=f"#step={sail}")
    assert got["step"] == sail
    assert got["caption"] == f"Step {sail} of {last}: {steps.captions[sail]}"
    assert re.match(r"Step \d+ of \d+: Seat [1-3] sails ship [1-4] to the [a-z ]+: seat [1-3] [+-]\d",
                    got["caption"]), got["caption"]
    assert got["scrolled"] > 0, "the page is short enough not to scroll: nothing to check"
    top, bottom = got["bar"]
    assert 0 <= top and bottom <= got["inner"], f"the controls scrolled away at {width} px"
    assert got["hash"] == f"#step={sail + 1}"
    assert got["after"].startswith(f"Step {sail + 1} of {last}: ")
    values = dict(got["values"])
    printed = default_board().side("pyramid", "A")["points"]
    assert values["pyramid.A.points[0]"] == str(printed[0])
    assert values["pyramid.A.points[13]"] == str(printed[13])

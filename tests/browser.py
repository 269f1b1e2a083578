"""Measure a page in headless Chromium (Debian's ``chromium`` package): the size of every
chart at a given viewport width, read back from the DOM the browser dumps.

No browser download and no driver library: ``chromium --headless --dump-dom`` runs a copy of
the page with a small script appended that writes its measurements into the DOM.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

CANDIDATES = ("chromium", "chromium-browser", "google-chrome")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--force-device-scale-factor=1"]
MEASURE = """<script>
(function () {
  var vw = document.documentElement.clientWidth;
  var charts = Array.prototype.map.call(document.querySelectorAll("svg"), function (s) {
    var r = s.getBoundingClientRect();
    return {label: s.getAttribute("aria-label"), left: r.left, right: r.right,
            width: r.width, height: r.height};
  });
  // Text as drawn: SVG text by its box height (a scaled chart shrinks it), HTML by its
  // computed font size; the smallest few, with their text.
  var texts = [];
  document.querySelectorAll("body *").forEach(function (e) {
    if (e.closest("script,style,title")) return;
    var own = Array.prototype.some.call(e.childNodes, function (n) {
      return n.nodeType === 3 && n.textContent.trim(); });
    if (!own) return;
    var r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return;
    var size = e instanceof SVGElement ? r.height / 1.15 : parseFloat(getComputedStyle(e).fontSize);
    texts.push({size: size, text: e.textContent.trim().slice(0, 40)});
  });
  texts.sort(function (a, b) { return a.size - b.size; });
  var tables = Array.prototype.map.call(document.querySelectorAll("table"), function (t) {
    var r = t.getBoundingClientRect();
    return {left: r.left, right: r.right, width: r.width};
  });
  parent.postMessage(JSON.stringify({viewport: vw, inner: window.innerWidth,
                                     scroll: document.documentElement.scrollWidth,
                                     charts: charts, smallest: texts.slice(0, 5),
                                     tables: tables}), "*");
})();
</script>"""
# Chromium's headless window is at least 500 px wide: the page is measured inside an iframe
# of the asked width (its own viewport: media queries and percentages follow it), which
# posts its measurements to this frame, which writes them into the DOM chromium dumps.
FRAME = """<!DOCTYPE html><html><body style="margin:0">
<iframe src="page.html{fragment}" style="border:0;width:{width}px;height:{height}px"></iframe>
<pre id="fit-result" style="display:none"></pre>
<script>
window.addEventListener("message", function (e) {{
  document.getElementById("fit-result").textContent = e.data;
}});
</script></body></html>"""


def chromium() -> str | None:
    """The browser executable, or None: ``$CHROMIUM`` first, then the usual names."""
    env = os.environ.get("CHROMIUM")
    if env:
        return env if Path(env).exists() or shutil.which(env) else None
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


def measure(html_path: Path, width: int, height: int = 900, timeout: float = 90) -> dict:
    """Viewport width and every chart's box (CSS pixels) of ``html_path`` at ``width``."""
    return run_script(html_path, MEASURE, width, height, timeout)


def run_script(html_path: Path, script: str, width: int, height: int = 900,
               timeout: float = 90, fragment: str = "") -> dict:
    """Load ``html_path`` at ``width`` with ``script`` (a ``<script>`` element that posts a
    JSON string to its parent) appended, and return what it posted. ``fragment``: the
    address's ``#...`` part the page opens with (a deep link)."""
    exe = chromium()
    if exe is None:
        raise FileNotFoundError("chromium not found")
    text = Path(html_path).read_text(encoding="utf-8")
    page = text.replace("</body>", script + "\n</body>", 1)
    with tempfile.TemporaryDirectory(prefix="imhotep-browser-") as tmp:
        copy = Path(tmp) / "page.html"
        copy.write_text(page, encoding="utf-8")
        frame = Path(tmp) / "frame.html"
        frame.write_text(FRAME.format(width=width, height=height, fragment=fragment),
                         encoding="utf-8")
        profile = Path(tmp) / "profile"
        proc = subprocess.run(
            [exe, *FLAGS, f"--user-data-dir={profile}",
             f"--window-size={max(width, 800) + 40},{height + 40}",
             "--virtual-time-budget=5000", "--dump-dom", frame.as_uri()],
            capture_output=True, text=True, timeout=timeout, check=False)
    m = re.search(r'<pre id="fit-result"[^>]*>(.+?)</pre>', proc.stdout, re.S)
    if not m:
        raise RuntimeError(f"chromium gave no measurements (exit {proc.returncode}): "
                           f"{proc.stderr[-2000:]}")
    return json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&")
                      .replace("&lt;", "<").replace("&gt;", ">"))

"""The game viewer: a transcript as one self-contained HTML page (``imhotep-stats show``).

The states are computed here, in Python, by replaying the transcript through the engine
(:mod:`imhotep_stats.reporting.board_state`); the page embeds them as compact JSON and its
script only draws them as SVG and steps through them (buttons, arrow keys, a round slider).
No network, no rule in JavaScript. A static SVG chart shows each seat's score by round.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from imhotep_stats.engine.game import Game
from imhotep_stats.engine.transcript import read_lines, replay
from imhotep_stats.engine.view import View
from imhotep_stats.reporting.board_state import round_totals, state
from imhotep_stats.reporting.captions import action_words, step_caption
from imhotep_stats.reporting.charts import axis, scale, tick
from imhotep_stats.reporting.palette import SEATS, seat_colour
from imhotep_stats.rules.board import Board


@dataclass
class Steps:
    """Every step of a game: ``states[0]`` the setup, ``states[k]`` after decision k;
    ``captions[k]`` says in words what decision k did and ``scored[k]`` the points each seat
    scored in it (the last step's include the game-end scoring)."""

    setup: dict
    states: list[dict]
    captions: list[str]
    by_round: list[list[int]]  # running totals at the end of each round, game end last
    winners: list[int]
    mismatches: list[str]
    scored: list[list[int]] = field(default_factory=list)


# The site a decision kind belongs to: its points need no source named in the caption
_KIND_SITE = {"market_pick": "market", "market_keep": "market", "pyramid_choice": "pyramid",
              "pyramid_ship_slot": "pyramid", "temple_bonus": "temple", "temple_keep": "temple",
              "mound_space": "burial_chamber", "tomb_token": "burial_chamber",
              "obelisk_token": "obelisk", "obelisk_claim": "obelisk"}


def _site_of(kind: str, action: str) -> str | None:
    """The site a decision sends stones to (a sail's dock, a barge's site), else its kind's."""
    w = action.split()
    if w and w[0] in ("sail", "platform") and len(w) == 3:
        return w[2]
    if w and w[0] == "deliver" and len(w) == 2:
        return w[1]
    return _KIND_SITE.get(kind)


def game_steps(lines: list[str], board: Board | None = None) -> Steps:
    """Replay ``lines`` (a transcript) and record the public state before every decision,
    and the score events each decision added (``View.events``)."""
    states: list[dict] = []
    decided: list[tuple[int, str, str, int]] = []  # seat, kind, action, events before it

    def record(g: Game, line: dict) -> None:
        states.append(state(g))
        decided.append((g.to_move, g.kind, line["action"].strip(), len(View(g, 0).events)))

    rep = replay(lines, board, on_decision=record)
    states.append(state(rep.game))
    events = View(rep.game, 0).events
    n, rounds = rep.game.n, rep.game.rounds
    captions, scored = ["the setup: round 1 about to start"], [[0] * n]
    # decision k (from 1) turned states[k-1] into states[k]; its events run to the next one's
    for k, (seat, kind, action, start) in enumerate(decided, start=1):
        end = decided[k][3] if k < len(decided) else len(events)
        mine = events[start:end]
        last = k == len(decided)
        play = [e for e in mine if not (last and e[3] > rounds)]
        game_end = [e for e in mine if last and e[3] > rounds]
        before, after = states[k - 1], states[k]
        ended = before["round"] if last or after["round"] > before["round"] else 0
        words = action_words(seat, kind, action, after["sled"][seat] - before["sled"][seat])
        captions.append(step_caption(words, play, _site_of(kind, action), ended, game_end))
        row = [0] * n
        for p, _, pts, _ in mine:
            row[p] += pts
        scored.append(row)
    return Steps(rep.setup, states, captions, round_totals(rep.game),
                 list(rep.result.winners), rep.mismatches, scored)


def steps_of_file(path: Path, board: Board | None = None) -> Steps:
    return game_steps(read_lines(Path(path)), board)


CHART_WIDTH, CHART_LEFT = 420, 48  # the score chart's viewBox width and its y axis


def round_x(points: int) -> list[float]:
    """The score chart's x of each round (the page's script moves its marker there)."""
    span = CHART_WIDTH - CHART_LEFT - 16
    return [round(CHART_LEFT + span * (i / max(points - 1, 1)), 1) for i in range(points)]


def score_chart(by_round: list[list[int]], rounds: int) -> str:
    """Each seat's running total by round (the last point: after game-end scoring)."""
    width, height, left, bottom, top = CHART_WIDTH, 240, CHART_LEFT, 44, 30
    n = len(by_round[0]) if by_round else 0
    step, first, last = axis([v for r in by_round for v in r] + [5], 6)
    y = scale(first, last, step, height - bottom, top)
    xs = len(by_round)
    x = round_x(xs).__getitem__

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" id="score-chart" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" style="max-width:100%;height:auto" role="img" '
           f'aria-label="Score by round" font-family="system-ui, sans-serif" font-size="15">']
    for k in range(first, last + 1):
        v = k * step
        out.append(f'<line x1="{left}" x2="{width - 16}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#ddd"/>'
                   f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{tick(v, step, False)}</text>')
    for i in range(xs):
        label = str(i + 1) if i < rounds else "end"
        out.append(f'<text x="{x(i):.1f}" y="{height - bottom + 18}" text-anchor="middle">{label}</text>')
    out.append(f'<text x="{(left + width) / 2:.0f}" y="{height - 6}" text-anchor="middle">round '
               '(end: after game-end scoring)</text>')
    out.append(f'<text transform="translate(14 {(top + height - bottom) / 2:.0f}) rotate(-90)" '
               'text-anchor="middle">points</text>')
    for p in range(n):
        pts = " ".join(f"{x(i):.1f},{y(r[p]):.1f}" for i, r in enumerate(by_round))
        out.append(f'<polyline points="{pts}" fill="none" stroke="{seat_colour(p)}" stroke-width="2.5"/>')
        out.append(f'<text x="{left + 8 + 70 * p}" y="18" fill="{seat_colour(p)}" font-weight="bold">'
                   f'seat {p + 1}</text>')
    out.append(f'<line id="round-marker" x1="{x(0):.1f}" x2="{x(0):.1f}" y1="{top}" '
               f'y2="{height - bottom}" stroke="#555" stroke-dasharray="4 3"/>')
    out.append("</svg>")
    return "".join(out)


CSS = """
body{font-family:system-ui,sans-serif;font-size:16px;margin:0 auto;max-width:1100px;padding:12px;color:#222}
h1{font-size:1.3em;margin:.2em 0}
#bar{position:sticky;top:0;z-index:5;background:#fff;padding:4px 0 2px;border-bottom:1px solid #ddd}
#controls{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:4px 0}
#controls button{font-size:1em;padding:6px 12px}
#round{flex:1 1 160px;min-width:120px}
#caption{font-weight:600;min-height:1.4em;margin:4px 0}
#step-link{font-size:.9em}
.value{font-size:11px;paint-order:stroke;stroke:#fff;stroke-width:3px;fill:#222;pointer-events:none}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:10px}
.panel{border:1px solid #ccc;border-radius:6px;padding:6px 8px;min-width:0}
.panel h2{font-size:1em;margin:0 0 4px}
.note{font-size:.9em;color:#444;overflow-wrap:anywhere}
.seat{display:inline-block;width:.9em;height:.9em;border-radius:50%;vertical-align:-.1em}
svg.stones{display:block;max-width:100%;height:auto}
table{border-collapse:collapse;width:100%}
td,th{padding:2px 6px;text-align:left;font-size:.95em}
@media (max-width:500px){.grid{grid-template-columns:1fr}
  #controls button{padding:6px 8px}#round{flex-basis:100%}
  #caption{max-height:6.2em;overflow-y:auto}}
"""

# The script draws states[k] and steps; it knows the layout, never a rule.
SCRIPT = r"""
(function () {
  var data = JSON.parse(document.getElementById("game-data").textContent);
  var S = data.states, C = data.captions, P = data.scored, seats = data.seats, k = 0;
  var R = 12, GAP = 4, NS = "http://www.w3.org/2000/svg";
  function el(tag, attrs, parent) {
    var e = document.createElementNS(NS, tag);
    for (var a in attrs) e.setAttribute(a, attrs[a]);
    if (parent) parent.appendChild(e);
    return e;
  }
  // a space, empty (dashed) or holding owner's stone; "label": [the value printed on the
  // space, what it is (its board-data key)], drawn on it with that as its tooltip
  function stone(svg, x, y, owner, place, label) {
    var c = owner < 0 ? el("circle", {cx: x, cy: y, r: R - 1, "class": "space", fill: "none",
                                      stroke: "#bbb", "stroke-dasharray": "3 2"}, svg)
                      : el("circle", {cx: x, cy: y, r: R - 1, "class": "stone", "data-seat": owner,
                                      "data-place": place, fill: seats[owner], stroke: "#333"}, svg);
    if (!label) return;
    el("title", {}, c).textContent = label[1];
    var t = el("text", {x: x, y: y + 4, "text-anchor": "middle", "class": "value",
                        "data-key": label[1].split(" ")[0]}, svg);
    t.textContent = label[0];
  }
  // rows of owners (-1 empty) as centred rows of circles; "beside": stones off the spaces
  function stonesSvg(rows, place, beside, labels) {
    var cols = 1;
    rows.forEach(function (r) { cols = Math.max(cols, r.length); });
    var extra = beside ? beside.reduce(function (a, b) { return a + b; }, 0) : 0;
    var w = Math.max(cols, Math.min(extra, 12)) * (2 * R + GAP) + GAP;
    var lines = rows.length + (extra ? Math.ceil(extra / 12) : 0);
    var svg = el("svg", {"class": "stones", viewBox: "0 0 " + w + " " + Math.max(lines * (2 * R + GAP) + GAP, 8),
                         width: w, height: Math.max(lines * (2 * R + GAP) + GAP, 8),
                         role: "img", "aria-label": place});
    rows.forEach(function (r, i) {
      var off = (w - r.length * (2 * R + GAP)) / 2;
      r.forEach(function (o, j) {
        stone(svg, off + j * (2 * R + GAP) + R + GAP / 2, GAP + i * (2 * R + GAP) + R, o, place,
              labels && labels[i] ? labels[i][j] : null);
      });
    });
    if (extra) {
      var i = 0;
      beside.forEach(function (cnt, p) {
        for (var m = 0; m < cnt; m++, i++) {
          var c = el("circle", {cx: GAP + (i % 12) * (2 * R + GAP) + R, cy: GAP + (rows.length + Math.floor(i / 12)) * (2 * R + GAP) + R,
                                r: R - 4, "class": "stone beside", "data-seat": p, "data-place": place,
                                fill: seats[p], stroke: "#333", "stroke-dasharray": "2 2"}, svg);
          el("title", {}, c).textContent = "beside the spaces (overflow, finished, off the layout)";
        }
      });
    }
    return svg;
  }
  function panel(title, svg, note) {
    var d = document.createElement("div"); d.className = "panel";
    var h = document.createElement("h2"); h.textContent = title; d.appendChild(h);
    if (svg) d.appendChild(svg);
    if (note) { var p = document.createElement("div"); p.className = "note"; p.textContent = note; d.appendChild(p); }
    return d;
  }
  function hand(h) {
    var names = Object.keys(h).sort();
    return names.length ? names.map(function (c) { var w = c.replace(/_/g, " "); return h[c] > 1 ? w + " x" + h[c] : w; }).join(", ") : "no cards";
  }
  // The score track: each seat's marker at its points so far (the end score sets the scale)
  function track(totals) {
    var top = data.trackMax, w = 400, h = 26 + 14 * totals.length;
    var svg = el("svg", {"class": "stones", viewBox: "0 0 " + w + " " + h, width: w, height: h,
                         role: "img", "aria-label": "score track"});
    el("line", {x1: 10, x2: w - 10, y1: 12, y2: 12, stroke: "#999", "stroke-width": 3}, svg);
    for (var v = 0; v <= top; v += 10) {
      var x = 10 + (w - 20) * v / top;
      el("line", {x1: x, x2: x, y1: 6, y2: 18, stroke: "#999"}, svg);
      var t = el("text", {x: x, y: h - 2, "text-anchor": "middle", "font-size": 14}, svg);
      t.textContent = v;
    }
    totals.forEach(function (pts, p) {
      var c = el("circle", {cx: 10 + (w - 20) * Math.min(pts, top) / top, cy: 20 + 12 * p, r: 6,
                            "class": "marker", fill: seats[p], stroke: "#333"}, svg);
      el("title", {}, c).textContent = "seat " + (p + 1) + ": " + pts + " points";
    });
    var d = panel("Score track", svg, null);
    d.style.marginBottom = "10px";
    return d;
  }
  function draw() {
    var st = S[k], board = document.getElementById("board");
    board.textContent = "";
    document.getElementById("caption").textContent = "Step " + k + " of " + (S.length - 1) + ": " + C[k];
    var link = document.getElementById("step-link");
    link.href = "#step=" + k;
    link.textContent = "link to step " + k;
    document.getElementById("round").value = st.round;
    document.getElementById("round-label").textContent = "round " + st.round;
    var rows = document.getElementById("seats-body"); rows.textContent = "";
    st.totals.forEach(function (t, p) {
      var tr = document.createElement("tr");
      tr.innerHTML = '<td><span class="seat" style="background:' + seats[p] + '"></span> seat ' + (p + 1) +
        (data.bots[p] ? " (" + data.bots[p] + ")" : "") + (st.to_move === p ? " &#9664;" : "") + '</td><td class="total">' + t +
        '</td><td class="scored">' + (P[k][p] ? (P[k][p] > 0 ? "+" : "") + P[k][p] : "") +
        "</td><td>" + st.quarry[p] + "</td><td></td>";
      var sled = tr.lastChild;
      var row = []; for (var m = 0; m < st.sled[p]; m++) row.push(p);
      sled.appendChild(stonesSvg([row], "sled", null));
      var cards = document.createElement("div"); cards.className = "note"; cards.textContent = hand(st.hands[p]);
      sled.appendChild(cards);
      rows.appendChild(tr);
    });
    board.appendChild(track(st.totals));
    var ships = document.createElement("div"); ships.className = "grid";
    st.ships.forEach(function (s, i) {
      var where = !s.dock ? "in the harbour" : (s.slots.some(function (o) { return o >= 0; }) ?
        "sailed to the " : "unloaded at the ") + (s.dock || "").replace("_", " ");
      var slots = s.slots.map(function (o, j) {
        return [String(j + 1), "slot " + (j + 1) + (j === 0 ? " (bow)" : j === s.slots.length - 1 ? " (stern)" : "")];
      });
      ships.appendChild(panel("Ship " + (i + 1) + " (" + s.slots.length + " places)",
                              stonesSvg([s.slots], "ship" + i, null, [slots]), where));
    });
    board.appendChild(ships);
    var sites = document.createElement("div"); sites.className = "grid"; sites.style.marginTop = "10px";
    st.sites.forEach(function (s) {
      var name = s.name.replace("_", " ");
      sites.appendChild(panel(name.charAt(0).toUpperCase() + name.slice(1) + " (side " + s.side + ")",
                              s.rows.length || s.beside.some(Boolean) ? stonesSvg(s.rows, s.name, s.beside, s.labels) : null, s.note));
    });
    board.appendChild(sites);
    var m = document.getElementById("round-marker"), xs = data.roundX;
    if (m) { var x = xs[Math.min(st.round, xs.length) - 1] || xs[0]; m.setAttribute("x1", x); m.setAttribute("x2", x); }
  }
  // #step=N: a link to one step (kept up to date while stepping, so the address bar can be sent)
  function fromHash() {
    var m = /^#step=(\d+)$/.exec(location.hash);
    return m ? +m[1] : null;
  }
  function go(to) {
    k = Math.max(0, Math.min(S.length - 1, to));
    draw();
    if (fromHash() !== k) {
      try { history.replaceState(null, "", "#step=" + k); } catch (e) { /* a page without history */ }
    }
  }
  window.addEventListener("hashchange", function () { var h = fromHash(); if (h !== null && h !== k) go(h); });
  window.viewer = {go: go, step: function () { return k; }, count: S.length};
  document.getElementById("first").onclick = function () { go(0); };
  document.getElementById("prev").onclick = function () { go(k - 1); };
  document.getElementById("next").onclick = function () { go(k + 1); };
  document.getElementById("last").onclick = function () { go(S.length - 1); };
  document.getElementById("round").oninput = function (e) {
    var r = +e.target.value, i = 0;
    while (i < S.length - 1 && S[i].round < r) i++;
    go(i);
  };
  document.addEventListener("keydown", function (e) {
    if (e.key === "ArrowRight") { go(k + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { go(k - 1); e.preventDefault(); }
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(S.length - 1);
  });
  var start = fromHash();
  if (start !== null) go(start); else draw();
})();
"""


def page(steps: Steps, title: str = "Imhotep game") -> str:
    setup = steps.setup
    n = setup["players"]
    rounds = len(steps.by_round) - 1
    bots = setup.get("bots") or []
    top = max([max(st["totals"]) for st in steps.states] + [10])
    data = {"states": steps.states, "captions": steps.captions, "scored": steps.scored,
            "seats": SEATS[:n],
            "bots": bots, "roundX": round_x(len(steps.by_round)),
            "trackMax": 10 * -(-top // 10)}
    # "</" never appears inside the script element: JSON escapes it
    blob = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    final = steps.states[-1]["totals"]
    winners = ", ".join(f"seat {w + 1}" for w in steps.winners)
    scores = ", ".join(f"seat {p + 1} {t}" for p, t in enumerate(final))
    expansion = " with A New Dynasty" if setup.get("expansion") else ""
    head = (f"{n} players, sides {escape(str(setup['sides']))}{expansion}, seed {setup.get('seed', 0)}, "
            f"game {setup.get('game', 0)}")
    warn = "".join(f"<p><strong>Does not match the transcript's result:</strong> {escape(m)}</p>"
                   for m in steps.mismatches)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title><style>{CSS}</style></head>
<body>
<h1>{escape(title)}</h1>
<p><strong>Won by {winners}</strong> ({scores}). {head}. Stones show each seat's colour;
dashed circles are empty spaces, small dashed stones sit beside the spaces (overflow). Numbers on
the spaces are the values the board prints there (points; s3: 3 stones to the sled; C: a card;
d3: draw 3 cards, keep 1), with their board-data key as a tooltip. Seats, ships, slots and spaces
count from 1; the address <code>#step=N</code> opens step N.</p>
{warn}
<div id="bar">
<div id="controls">
<button id="first" aria-label="first step">&laquo; start</button>
<button id="prev" aria-label="previous step">&#9664; back</button>
<button id="next" aria-label="next step">next &#9654;</button>
<button id="last" aria-label="last step">end &raquo;</button>
<input type="range" id="round" min="1" max="{rounds}" step="1" value="1" aria-label="round">
<span id="round-label"></span>
</div>
<p id="caption"></p>
<a id="step-link" href="#step=0">link to step 0</a>
</div>
<table><thead><tr><th>seat (&#9664; decides next)</th><th>points</th><th>this step</th><th>quarry</th><th>sled and cards</th></tr></thead>
<tbody id="seats-body"></tbody></table>
<div id="board"></div>
<h2 style="font-size:1.1em">Score by round</h2>
{score_chart(steps.by_round, rounds)}
<p class="note">Arrow keys step through the decisions; the slider jumps to a round; the
link under the caption points to the step shown.</p>
<script type="application/json" id="game-data">{blob}</script>
<script>{SCRIPT}</script>
</body></html>
"""


def write_viewer(transcript: Path, out: Path, board: Board | None = None) -> Steps:
    steps = steps_of_file(transcript, board)
    out.write_text(page(steps, f"Imhotep game: {Path(transcript).name}"), encoding="utf-8")
    return steps


def round_summary(steps: Steps) -> list[str]:
    """``replay --rounds``: one line per round (seats from 1): points gained and running
    totals, then the game-end scoring."""
    out = []
    prev = [0] * len(steps.by_round[0])
    for i, totals in enumerate(steps.by_round):
        gained = ", ".join(f"seat {p + 1} +{t - a} = {t}" for p, (a, t) in enumerate(zip(prev, totals, strict=True)))
        label = f"round {i + 1}" if i < len(steps.by_round) - 1 else "game end"
        out.append(f"{label}: {gained}")
        prev = totals
    return out

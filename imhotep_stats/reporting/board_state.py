"""The public state of a game at one moment, as plain JSON for the game viewer (``show``).

Everything here is read through a seat's :class:`~imhotep_stats.engine.view.View` (the public
read model): the table, the hands (face up in the real game), the score track. Nothing
hidden: no deck order, no face-down tiles or cards. Each site is drawn in its side's layout
as rows of stones (``-1`` an empty space, else the owner's seat from 0); stones a layout has
no printed space for (overflow, finished obelisks...) are counted in ``beside`` so that every
stone a site holds is drawn once. Spaces that print a value (points, a reward) carry it in
``labels``, rows parallel to ``rows``: the value's short text and the board-data key it comes
from (``pyramid.A.points[0]``), so a designer finds on the board the number a config
changes. The states are computed by replaying the transcript through the engine: the
viewer's JavaScript only draws them, it knows no rule.
"""

from __future__ import annotations

import re
from typing import Any

from imhotep_stats.engine.game import Game
from imhotep_stats.engine.view import View
from imhotep_stats.rules.board import SITES, SideData


def _chunks(owners: list[int], sizes: list[int]) -> list[list[int]]:
    """``owners`` in fill order laid into rows of ``sizes``, padded with -1."""
    rows, i = [], 0
    for size in sizes:
        rows.append([owners[j] if j < len(owners) else -1 for j in range(i, i + size)])
        i += size
    return rows


def _per_seat(counts: list[int]) -> list[list[int]]:
    """One row per seat holding ``counts[p]`` stones (towers, chariot tracks, piles)."""
    return [[p] * k for p, k in enumerate(counts) if k]


def _layers(owners: list[int], width: int) -> list[list[int]]:
    """A layered temple: layer L holds stones L*width..; the top layer first."""
    layers = [owners[i : i + width] for i in range(0, len(owners), width)] or [[]]
    return [list(layer) + [-1] * (width - len(layer)) for layer in reversed(layers)]


def _grid(cells: dict[tuple[int, int], int], rows: int, columns: int) -> list[list[int]]:
    return [[cells.get((r, c), -1) for c in range(columns)] for r in range(rows)]


def _market(site: Any) -> tuple[list[list[int]], str]:
    display = [c.replace("_", " ") for c in getattr(site, "display", []) if c is not None]
    notes = [f"display: {', '.join(display) if display else 'empty'}"]
    if getattr(site, "pair_count", 0):
        notes.append(f"{site.pair_count} face down")
    if hasattr(site, "coins"):
        notes.append("coins " + "/".join(map(str, site.coins)))
    if hasattr(site, "stack_count"):
        notes.append("stacks " + "/".join(map(str, site.stack_count)))
    return [], "; ".join(notes)


def _tile_size(site: Any) -> int:
    """Pyramid C: the spaces of the face-up tile (0 once all are used)."""
    return len(site.data["tiles"][site.tile]) if site.tile >= 0 else 0


def _pyramid(site: Any) -> tuple[list[list[int]], str]:
    side = site.side
    if side == "A":  # 9 + 4 + 1 spaces, filled bottom level first
        return _chunks(site.owners, [3, 3, 3, 2, 2, 1])[::-1], f"{len(site.owners)} of 14 spaces"
    if side == "B":
        return [_chunks(p, [len(s)])[0] for p, s in zip(site.pyramids, site.data["points"], strict=True)], \
            f"{len(site.open)} pyramids open"
    if side == "C":
        rows = [owners for _, owners in site.done]
        size = _tile_size(site)
        if size:
            rows.append(_chunks(site.on_tile, [size])[0])
        return rows, f"{site.tiles_left} tiles face down"
    if side == "D":
        return [list(site.spaces)], f"figure on space {site.figure + 1}"
    return [], ""


def _temple(site: Any) -> tuple[list[list[int]], str]:
    if site.side == "D":
        track = ", ".join(f"seat {p + 1} on {pos}" for p, pos in enumerate(site.chariots))
        spaces = list(site.spaces)  # the stone spaces taken, in fill order; then the free ones
        spaces += [-1] * (len(site.arrowheads) - len(spaces))
        return [spaces], f"chariots: {track} (finish {site.finish})"
    return _layers(site.owners, site.width), f"{site.width} columns"


def _burial(site: Any) -> tuple[list[list[int]], str]:
    if site.side == "C":  # the mound: levels of spaces, the top level first
        levels: dict[int, list[int]] = {}
        for s, (level, _) in enumerate(site.space):
            levels.setdefault(level, []).append(site.owner[s])
        return [levels[lv] for lv in sorted(levels, reverse=True)], "the mound, top level first"
    cells = site.cells()
    if site.side == "D":
        rows = site.rows
        note = f"tokens face up: {', '.join(map(str, site.face_up)) or 'none'}"
        return _grid(cells, rows, site.columns), note
    columns = max([c for _, c in cells] + [-1]) + 1
    return _grid(cells, site.rows, max(columns, 1)), f"{site.rows} rows, filled column by column"


def _obelisk(site: Any) -> tuple[list[list[int]], str]:
    side = site.side
    if side == "A":
        return _per_seat(site.heights), "heights " + "/".join(map(str, site.heights))
    if side == "B":
        return _per_seat(site.pending), "obelisks built " + "/".join(map(str, site.built))
    if side == "C":
        cards = "; ".join(f"seat {p + 1} " + "/".join(map(str, c)) for p, c in enumerate(site.cards))
        return _per_seat(site.on_path), f"column heights: {cards}"
    if side == "D":
        rows = [[o] * h + [-1] * (t - h) for o, h, t in zip(site.owner, site.height, site.target, strict=True)]
        return rows, "obelisks " + ", ".join(
            f"{h}/{t}" for h, t in zip(site.height, site.target, strict=True))
    return [], ""


_LAYOUTS = (_market, _pyramid, _temple, _burial, _obelisk)

# -- the values printed on the spaces ---------------------------------------------------------

_REWARD = re.compile(r"^(p|s|stones|draw)(\d+)$")
_REWARD_WORDS = {"p": "{} point(s)", "s": "{} stone(s) to the sled", "stones": "{} stone(s) to the sled",
                 "draw": "draw {} market cards, keep 1"}
_REWARD_SHORT = {"p": "{}", "s": "s{}", "stones": "s{}", "draw": "d{}"}
_FIXED = {"card": ("C", "the top market card"), "ship": ("sh", "a stone onto a ship"),
          "": ("", "nothing")}
Label = list[str] | None  # [short text, what it is: "pyramid.A.points[0] = 2 points"]


def reward_text(raw: str) -> tuple[str, str]:
    """A reward of the board data (``p2``, ``s3``, ``card``, ``p2|s4``, ``draw3``) as a
    short label and in words."""
    short, words = [], []
    for alt in str(raw).split("|"):
        m = _REWARD.match(alt)
        if m:
            short.append(_REWARD_SHORT[m.group(1)].format(m.group(2)))
            words.append(_REWARD_WORDS[m.group(1)].format(m.group(2))
                         .replace("(s)", "" if m.group(2) == "1" else "s"))
        else:
            a, b = _FIXED.get(alt, (alt, alt))
            short.append(a)
            words.append(b)
    return "|".join(short), " or ".join(words)


def _points(key: str, value: Any) -> Label:
    return [str(value), f"{key} = {_pts(value)}"]


def _pts(k: Any) -> str:
    return f"{k} point" + ("" if k == 1 else "s")


def _reward(key: str, raw: str) -> Label:
    short, words = reward_text(raw)
    return [short, f"{key} = {raw!r}: {words}"] if short else None


def _pyramid_labels(site: Any, data: SideData, rows: list[list[int]]) -> list[list[Label]]:
    side = site.side
    if side == "A":
        pts = data["points"]
        order = _chunks(list(range(14)), [3, 3, 3, 2, 2, 1])[::-1]
        return [[_points(f"pyramid.A.points[{i}]", pts[i]) if 0 <= i < len(pts) else None
                 for i in row] for row in order]
    if side == "B":
        out = []
        for p, row in enumerate(rows):
            labels = []
            for k in range(len(row)):
                pts, bonus = data["points"][p][k], data["bonus"][p][k]
                extra = reward_text(bonus)[0] if bonus else ""
                labels.append([f"{pts}+{extra}" if extra else str(pts),
                               f"pyramid.B.points[{p}][{k}] = {_pts(pts)}"
                               + (f"; pyramid.B.bonus[{p}][{k}] = {bonus!r}: "
                                  f"{reward_text(bonus)[1]}" if bonus else "")])
            out.append(labels)
        return out
    if side == "C":
        tiles = [t for t, _ in site.done] + ([site.tile] if _tile_size(site) else [])
        return [[_reward(f"pyramid.C.tiles[{t}][{k}]", data["tiles"][t][k])
                 for k in range(len(row))] for t, row in zip(tiles, rows, strict=True)]
    if side == "D":
        pts = data["points"]
        return [[_points(f"pyramid.D.points[{i}]", pts[i]) for i in range(len(rows[0]))]]
    return []


def _temple_labels(site: Any, data: SideData, rows: list[list[int]]) -> list[list[Label]]:
    side = site.side
    if side in ("B", "C"):  # a stone in column c, when visible, gives the column's reward
        key = "rewards" if side == "B" else "bonuses"
        table = data[key]
        return [[_reward(f"temple.{side}.{key}[{c}]", table[c]) if c < len(table) else None
                 for c in range(len(row))] for row in rows]
    if side == "D":
        arrows = data["arrowheads"]
        return [[[str(arrows[i]), f"temple.D.arrowheads[{i}] = {arrows[i]}: the chariot "
                  f"moves {arrows[i]}"] if i < len(arrows) else None
                 for i in range(len(rows[0]))]]
    return []


def _obelisk_labels(site: Any, data: SideData, rows: list[list[int]]) -> list[list[Label]]:
    if site.side != "D":
        return []
    out = []
    for o, row in enumerate(rows):  # the finishing (top) space shows the obelisk's points
        height, pts = data["obelisks"][o]
        out.append([None] * (len(row) - 1) + [[str(pts), f"obelisk.D.obelisks[{o}] = "
                                                f"[{height}, {pts}]: {_pts(pts)} when "
                                                f"finished ({height} stones)"]])
    return out


_LABELS = {1: _pyramid_labels, 2: _temple_labels, 4: _obelisk_labels}

# Scoring values printed beside a site rather than on one space: named in its note with
# their board-data keys (``_by_players`` keys: the row of this player count)
_SCORING = {
    "pyramid": ("overflow_points",),
    "temple.A": ("visible_points",), "temple.D": ("track_points", "round_points"),
    "burial_chamber.A": ("group_points",), "burial_chamber.B": ("row_points",),
    "burial_chamber.C": ("level_cap", "overflow_points"),
    "burial_chamber.D": ("group_points", "no_token_points", "absent_penalty"),
    "obelisk.A": ("points_by_players",), "obelisk.B": ("slots", "leftover_points"),
    "obelisk.C": ("row_points", "rank_bonus_by_players"),
    "obelisk.D": ("unfinished_points", "overflow_points"),
}


def scoring_note(data: SideData, n: int) -> str:
    """The side's scoring values that sit on no one space, as ``key = value``."""
    name = data.name
    keys = _SCORING.get(name) or _SCORING.get(name.split(".")[0], ())
    out = []
    for key in keys:
        if n == 2 and f"{key}_2p" in data.values:  # a two-player row of its own
            key = f"{key}_2p"
        try:
            value = data.by_players(key, n) if key.endswith("_by_players") else data[key]
        except (KeyError, ValueError):
            continue
        shown = list(value) if isinstance(value, tuple | list) else value
        out.append(f"{name}.{key}{f'.{n}' if key.endswith('_by_players') else ''} = {shown}")
    return "; ".join(out)


def site_state(view: View, i: int, n: int, data: SideData | None = None) -> dict[str, Any]:
    """Site ``i`` as drawn; ``data``: its side's board data, for the values on its spaces."""
    site = view.site(i)
    rows, note = _LAYOUTS[i](site)
    drawn = [sum(row.count(p) for row in rows) for p in range(n)]
    total = [site.stones_of(p) for p in range(n)]
    beside = [t - d for t, d in zip(total, drawn, strict=True)]
    if any(b < 0 for b in beside):  # a layout that draws a stone twice is a bug: say so
        raise AssertionError(f"{SITES[i]} {site.side}: drew {drawn}, the site holds {total}")
    out = {"name": SITES[i], "side": site.side, "rows": rows, "beside": beside, "note": note}
    labels = _LABELS.get(i)
    if data is not None and labels is not None and rows:
        found = labels(site, data, rows)
        if found:
            out["labels"] = found
    if data is not None:
        values = scoring_note(data, n)
        if values:
            out["note"] = f"{note}; scores: {values}" if note else f"scores: {values}"
    return out


def state(g: Game) -> dict[str, Any]:
    """The public state of ``g`` now, for the viewer (seats from 0, as the engine counts)."""
    v = View(g, 0)
    n = v.n
    ships = [
        {"slots": list(slots), "dock": SITES[dock] if dock >= 0 else None}
        for slots, dock in zip(v.ship_slots, v.ship_dock, strict=True)
    ]
    return {
        "round": min(v.round, v.rounds),
        "to_move": v.to_move,
        "kind": v.kind,
        "sled": list(v.sled),
        "quarry": list(v.quarry),
        "totals": list(v.totals),
        "ships": ships,
        "sites": [site_state(v, i, n, g.board.side(SITES[i], v.site(i).side)) for i in range(5)],
        "hands": [v.hand_of(p) for p in range(n)],
    }


def stones_drawn(st: dict[str, Any], n: int) -> dict[str, list[int]]:
    """Stones per seat the viewer draws, by place (the sled, each ship, each site)."""
    out = {"sled": list(st["sled"])}
    for k, ship in enumerate(st["ships"]):
        out[f"ship{k}"] = [ship["slots"].count(p) for p in range(n)]
    for site in st["sites"]:
        out[site["name"]] = [sum(r.count(p) for r in site["rows"]) + site["beside"][p] for p in range(n)]
    return out


def round_totals(g: Game) -> list[list[int]]:
    """Each seat's running total at the end of each round (game-end scoring as the last
    column), from the score events the score track shows."""
    n, rounds = g.n, g.rounds
    by_round = [[0] * n for _ in range(rounds + 1)]
    for seat, _, points, rnd in View(g, 0).events:
        by_round[min(max(rnd, 1), rounds + 1) - 1][seat] += points
    out, running = [], [0] * n
    for row in by_round:
        running = [a + b for a, b in zip(running, row, strict=True)]
        out.append(running)
    return out

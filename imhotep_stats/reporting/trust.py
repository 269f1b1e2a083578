"""How far to trust an answer, in one short line printed under every verdict (terminal) and at
the top of every report: the bots (with their measured rating against the reference bot), the
margin, and the board values the cell rests on that are not the printed rulebook's
(provisional placeholders, a config's overrides, a designer's board file).

Ratings come from ``data/bot_ratings.toml`` (Elo scale, greedy = 0). Its optional top-level
``reference = "NAME"`` names the reference bot (the strongest measured one); without it, the
highest rated bot listed is the reference.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from imhotep_stats.rules.board import SITES


@cache
def _ratings_file() -> dict[str, Any]:
    text = resources.files("imhotep_stats.data").joinpath("bot_ratings.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def reference_bot() -> str | None:
    data = _ratings_file()
    ratings = data.get("ratings", {})
    ref = data.get("reference")
    if isinstance(ref, str) and ref in ratings:
        return ref
    return max(ratings, key=ratings.get) if ratings else None


def bot_words(lineup: Sequence[str]) -> str:
    """``greedy (-97 Elo against mcts400)``, one entry per distinct bot, in seat order."""
    ratings = _ratings_file().get("ratings", {})
    ref = reference_bot()
    out = []
    for bot in dict.fromkeys(lineup):
        if bot not in ratings:
            out.append(f"{bot} (not rated)")
        elif ref is None or bot == ref:
            out.append(f"{bot} (the reference bot)")
        else:
            out.append(f"{bot} ({ratings[bot] - ratings[ref]:+.0f} Elo against {ref})")
    return ", ".join(out)


def board_words(sides: str, board: Mapping[str, Any]) -> str:
    """The cell's site sides whose values are not all printed rulebook values.

    ``board`` is a run's board record (manifest ``board``: per used side its provenance,
    provisional keys and overridden keys; ``designer`` keys from a board file)."""
    recs = board.get("sides", {})
    words = []
    for site, letter in zip(SITES, sides.split("-"), strict=False):
        name = f"{site}.{letter}"
        rec = recs.get(name) or {}
        if rec.get("designer"):
            words.append(f"designer {name} ({', '.join(rec['designer'])})")
        if rec.get("provenance") == "provisional":
            keys = ", ".join(rec.get("provisional_keys") or []) or "all values"
            words.append(f"provisional {name} ({keys})")
        if rec.get("overridden"):
            words.append(f"overridden {name} ({', '.join(rec['overridden'])})")
    for name in sorted(board.get("overridden", {})):
        if name not in recs:
            words.append(f"overridden {name}")
    return "; ".join(words)


def trust_line(lineup: Sequence[str], margin: float, sides: str | None = None,
               board: Mapping[str, Any] | None = None) -> str:
    """One line: bots, margin, and the board values it rests on."""
    parts = [f"bots {bot_words(lineup)}", f"margin ±{100 * margin:.1f} pp"]
    if sides is not None:
        rests = board_words(sides, board or {})
        parts.append(f"rests on {rests}" if rests else "printed rulebook values only")
    return "Trust: " + "; ".join(parts) + "."


def cell_trust(data: Any, c: Any) -> str:
    """The trust line of one cell of a run (``ReportData``, ``CellInfo``)."""
    board = data.manifest.get("board", {}) if isinstance(data.manifest, Mapping) else {}
    return trust_line(c.lineup, data.margin, c.sides, board)


def report_trust(data: Any) -> list[str]:
    """A report's trust lines: one per distinct (lineup, sides) of its cells, at most a few,
    with the run's margin and board record (``ReportData``)."""
    seen: dict[str, None] = {}
    for c in data.cells:
        seen.setdefault(f"{c.sides}, {c.players} players: {cell_trust(data, c)}", None)
    lines = list(seen)
    if len(lines) > 6:  # a sweep: the bots and margin once, the board notes per cell stay below
        lineups = sorted({",".join(c.lineup) for c in data.cells})
        return [trust_line(sorted({b for lu in lineups for b in lu.split(",")}), data.margin)
                + f" ({len(data.cells)} cells; each cell's board values are in its section)"]
    return lines


def study_trust(cfg: Any, limit: int = 6) -> list[str]:
    """``validate``: the trust line of each cell a study will run (before any game), the
    same words the reports will print; a large study lists the first few and a count."""
    from imhotep_stats.sim.runner import board_record

    board = board_record(cfg, cfg.board())
    lines = list(dict.fromkeys(
        f"{c.sides}, {c.players} players: {trust_line(c.lineup, cfg.margin, c.sides, board)}"
        for c in cfg.cells))
    if len(lines) > limit:
        return lines[:limit] + [f"... and {len(lines) - limit} more cells"]
    return lines


def sweep_trust(cfg: Any) -> str:
    """One line for a sweep: the bots and margin once, and how many combinations rest on
    values that are not the printed rulebook's (and which sides those are)."""
    from imhotep_stats.sim.runner import board_record

    board = board_record(cfg, cfg.board())
    cells = cfg.cells
    lineup = list(dict.fromkeys(b for c in cells for b in c.lineup))
    resting = [c for c in cells if board_words(c.sides, board)]
    line = trust_line(lineup, cfg.margin)[:-1]
    if not resting:
        return line + "; printed rulebook values only."
    names = sorted({w.split(" (")[0] for c in resting for w in board_words(c.sides, board).split("; ")})
    return (line + f"; {len(resting)} of {len(cells)} cells rest on values that are not the "
            f"printed rulebook's ({', '.join(names)}).")

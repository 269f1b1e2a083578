"""How far to trust an answer, in one short line printed under every verdict (terminal) and at
the top of every report: the bots (what kind of player each is and how often it beats the
reference bot, from its measured rating), the
margin, and the board values the cell rests on that are not the printed rulebook's
(provisional placeholders, a config's overrides, a designer's board file).

Ratings come from ``data/bot_ratings.toml`` (Elo scale, greedy = 0). Its optional top-level
``reference = "NAME"`` names the reference bot (the strongest measured one); without it, the
highest rated bot listed is the reference.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from imhotep_stats.bots import BUILTIN_PERSONAS
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


def win_chance(bot: str) -> float | None:
    """The chance ``bot`` beats the reference bot in a two-player game, from the rating
    difference (the Elo curve the ratings were fitted on); None if either is unrated."""
    ratings = _ratings_file().get("ratings", {})
    ref = reference_bot()
    if ref is None or bot not in ratings:
        return None
    return 1.0 / (1.0 + 10.0 ** ((ratings[ref] - ratings[bot]) / 400.0))


def kind_words(bot: str) -> str:
    """What kind of player a bot is, in a designer's words."""
    if bot == "random":
        return "plays at random"
    if bot == "greedy":
        return "a simple player (the move worth most now)"
    if bot in BUILTIN_PERSONAS or bot.endswith("+"):
        return f"a simple player that favours {bot}" if bot != "balanced" else \
            "a simple player that also blocks its opponents"
    iterations = re.match(r"mcts(\d+)", bot)
    if iterations:
        return f"a search player ({int(iterations.group(1)):,} simulations a move)"
    return "a player defined in the config"


def _pct(p: float) -> str:
    if p < 0.01:
        return "under 1%"
    if p > 0.99:
        return "over 99%"
    return f"about {p * 100:.0f}%"


def bot_words(lineup: Sequence[str]) -> str:
    """Each distinct bot, in seat order, in words a designer reads: "greedy: a simple
    player (the move worth most now), wins about 3% of games against the reference bot
    (expert)"; the reference bot says it is; a bot without a rating says so."""
    ref = reference_bot()
    out = []
    for bot in dict.fromkeys(lineup):
        if bot == ref:
            out.append(f"{bot}: the reference bot (strong play, the one answers are checked "
                       "with)")
            continue
        p = win_chance(bot)
        if p is None:
            out.append(f"{bot}: {kind_words(bot)}, not rated (its strength against the "
                       "reference bot is unmeasured)")
        else:
            out.append(f"{bot}: {kind_words(bot)}, wins {_pct(p)} of games against the "
                       f"reference bot ({ref})")
    return "; ".join(out)


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
    parts = [bot_words(lineup), f"margin ±{100 * margin:.1f} pp"]
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

"""How far to trust an answer, in one short line printed under every verdict (terminal) and at
the top of every report: the bots (what kind of player each is and how often it beats the
reference bot, from its measured rating on the run's own table), the margin, and the board
values the cell rests on that are not the printed rulebook's (provisional placeholders, a
config's overrides, a designer's board file).

Ratings and the table they come from: ``bots.ratings`` (a 3-player D run reads the 3-player
D table; a mixed board the range over its player count's tables; the line says which).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from imhotep_stats.bots import BUILTIN_PERSONAS
from imhotep_stats.bots.ratings import Basis, Chance, across, basis, rated_name, reference_bot
from imhotep_stats.rules.board import SITES


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


def _share(c: Chance) -> str:
    """"about 8%", "8% to 15%" (a range over tables), "up to about 3%" (a bound, or a range
    from under 1%)."""
    low, high = _pct(c.low), _pct(c.high)
    if high == "under 1%" or (low == high and not c.bound):
        return high
    if c.bound or low == "under 1%":
        return f"up to {high}"
    return f"{low.removeprefix('about ')} to {high.removeprefix('about ')}"


def _unrated(bot: str, where: Basis) -> str:
    elsewhere = where.rated_elsewhere(bot)
    if where.rating(bot) is not None:  # rated, but the reference bot is not: no chance
        return "its strength against the reference bot is not measured on this table"
    if not elsewhere:
        return "not rated (its strength against the reference bot is unmeasured)"
    here = "this table" if len(where.tables) == 1 else "every one of these tables"
    return f"not rated on {here} (only on {', '.join(elsewhere)})"


def bot_words(lineup: Sequence[str], where: Basis) -> str:
    """Each distinct bot, in seat order, in words a designer reads: "greedy: a simple
    player (the move worth most now), wins under 1% of games against the reference bot
    (expert)", from the ratings of ``where`` (at 3 players: "finishes ahead of the
    reference bot (expert) in about 8% of games", the pairwise chance the ratings are
    fitted on); the reference bot says it is; a bot unrated there says so."""
    ref = reference_bot()
    two = all(t.players == 2 for t in where.tables)
    out = []
    for bot in dict.fromkeys(lineup):
        if rated_name(bot) == ref:
            alias = "" if bot == ref else f", {ref}, by its settings"
            out.append(f"{bot}: the reference bot{alias} (strong play, the one answers are "
                       "checked with)")
            continue
        c = where.chance(bot)
        if c is None:
            out.append(f"{bot}: {kind_words(bot)}, {_unrated(bot, where)}")
        elif two:
            out.append(f"{bot}: {kind_words(bot)}, wins {_share(c)} of games against the "
                       f"reference bot ({ref})")
        else:
            out.append(f"{bot}: {kind_words(bot)}, finishes ahead of the reference bot "
                       f"({ref}) in {_share(c)} of games")
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


def trust_line(lineup: Sequence[str], margin: float, where: Basis, sides: str | None = None,
               board: Mapping[str, Any] | None = None) -> str:
    """One line: bots (their strength from the ratings of ``where``, ``bots.ratings.basis``,
    and which tables those are), margin, and the board values it rests on."""
    parts = [bot_words(lineup, where)]
    if any(where.rated_elsewhere(b) or where.rating(b) for b in lineup):
        parts.append(where.words)
    parts.append(f"margin ±{100 * margin:.1f} pp")
    if sides is not None:
        rests = board_words(sides, board or {})
        parts.append(f"rests on {rests}" if rests else "printed rulebook values only")
    return "Trust: " + "; ".join(parts) + "."


def cell_trust(data: Any, c: Any) -> str:
    """The trust line of one cell of a run (``ReportData``, ``CellInfo``)."""
    board = data.manifest.get("board", {}) if isinstance(data.manifest, Mapping) else {}
    return trust_line(c.lineup, data.margin, basis(c.players, c.sides), c.sides, board)


def report_trust(data: Any) -> list[str]:
    """A report's trust lines: one per distinct (lineup, sides) of its cells, at most a few,
    with the run's margin and board record (``ReportData``)."""
    seen: dict[str, None] = {}
    for c in data.cells:
        seen.setdefault(f"{c.sides}, {c.players} players: {cell_trust(data, c)}", None)
    lines = list(seen)
    if len(lines) > 6:  # a sweep: the bots and margin once, the board notes per cell stay below
        lineups = sorted({",".join(c.lineup) for c in data.cells})
        return [trust_line(sorted({b for lu in lineups for b in lu.split(",")}), data.margin,
                           across((c.players, c.sides) for c in data.cells))
                + f" ({len(data.cells)} cells; each cell's board values are in its section)"]
    return lines


def study_trust(cfg: Any, limit: int = 6) -> list[str]:
    """``validate``: the trust line of each cell a study will run (before any game), the
    same words the reports will print; a large study lists the first few and a count."""
    from imhotep_stats.sim.runner import board_record

    board = board_record(cfg, cfg.board())
    lines = list(dict.fromkeys(
        f"{c.sides}, {c.players} players: "
        f"{trust_line(c.lineup, cfg.margin, basis(c.players, c.sides), c.sides, board)}"
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
    line = trust_line(lineup, cfg.margin, across((c.players, c.sides) for c in cells))[:-1]
    if not resting:
        return line + "; printed rulebook values only."
    names = sorted({w.split(" (")[0] for c in resting for w in board_words(c.sides, board).split("; ")})
    return (line + f"; {len(resting)} of {len(cells)} cells rest on values that are not the "
            f"printed rulebook's ({', '.join(names)}).")

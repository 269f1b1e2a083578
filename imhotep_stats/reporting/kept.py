"""``run --keep-games K``: the first K games of every cell kept as transcripts and game viewer
pages (``games/cell-N/game-I.jsonl`` and ``.html``), which the report links. The games are
replayed by ``sim.samples``; this module draws them."""

from __future__ import annotations

from pathlib import Path

from imhotep_stats.config import Cell, StudyConfig
from imhotep_stats.reporting.viewer import game_steps, page
from imhotep_stats.sim.samples import cell_dir, sample_transcript


def keep_games(config: StudyConfig, cells: list[Cell], out: Path, k: int) -> list[Path]:
    """Write the first ``k`` games of every cell (transcript and viewer page); the pages."""
    pages = []
    for cell in cells:
        d = cell_dir(out, cell.index)
        d.mkdir(parents=True, exist_ok=True)
        for game in range(min(k, config.games)):
            lines, _ = sample_transcript(config, cell, game)
            (d / f"game-{game + 1}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
            html = d / f"game-{game + 1}.html"
            title = f"{cell.sides}, {cell.players} players, {','.join(cell.lineup)}: game {game + 1}"
            html.write_text(page(game_steps(lines), title),  # the setup line carries the overrides
                            encoding="utf-8")
            pages.append(html)
    return pages

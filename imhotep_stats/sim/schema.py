"""The results table: one row per game and seat (docs/engine.md, Architecture: runs and data).

This is the contract between the simulator (which writes Parquet shards) and the
statistics (which scan them lazily). Keep it tidy and declared: every column is
listed here with its polars dtype, and shards are written with exactly this schema.
"""

from imhotep_stats.rules.limits import ROUNDS  # a column round_<r> per round
from imhotep_stats.rules.sources import SOURCES  # (a rule: the columns pts_<source>)

# Market cards by the name a player takes them under (data/cards.toml; the expansion's extra
# statues are statues). tests/test_sim.py holds this list to the card data.
CARDS: tuple[str, ...] = (
    "entrance",
    "sarcophagus",
    "paved_path",
    "pyramid_decoration",
    "temple_decoration",
    "burial_chamber_decoration",
    "obelisk_decoration",
    "statue",
    "chisel",
    "lever",
    "hammer",
    "sail",
    "cargo_sled",
    "private_quarry",
    "stone_ornament",
    "barge",
    "loading_platform",
)

# Column name -> polars dtype name (strings so this module needs no polars import).
COLUMNS: dict[str, str] = {
    "cell": "String",  # "A-A-A-A-A|3p|random,random,random"
    "sides": "String",  # market-pyramid-temple-burial-obelisk, e.g. "D-A-C-B-D"
    "players": "Int8",
    "lineup": "String",  # bots in lineup order, comma separated
    "game": "Int64",  # game index within the cell (seeds derive from it)
    "seat": "Int8",  # 0 = start player of round 1
    "bot": "String",
    "score": "Int16",  # final total = sum of points by source
    "rank": "Int8",  # 1 = winner (after the sled tie-break); tied players share the rank
    "win_share": "Float64",  # 1, 1/k for a k-way shared win, 0
    "sled": "Int8",  # stones on the sled at the end (the tie-break)
    "decisions": "Int32",  # decision points in the game (game length)
    "lead_changes": "Int16",  # times the leader on the score track changed (per game)
    "margin": "Int16",  # winner's score minus the best other score (per game)
    **{f"pts_{s}": "Int16" for s in SOURCES},
    **{f"round_{r}": "Int16" for r in range(1, ROUNDS + 1)},  # points scored during round r
    "round_end": "Int16",  # points from game-end scoring
    **{f"took_{c}": "Int8" for c in CARDS},  # copies of the card the seat took from the market
}
TOOK = tuple(f"took_{c}" for c in CARDS)
"""Columns added by issue 16 (card strength); a run written before holds none of them."""

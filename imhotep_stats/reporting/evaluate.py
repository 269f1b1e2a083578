"""The bots' evidence tables (``imhotep-stats evaluate``): head-to-heads against random and
greedy, points by source, and each persona on the C and D side of its site, in Markdown.

The games come from ``play(lineup, sides, players, games)`` (the command passes
``sim.headtohead.matchup``: study seeds, seats rotated); this module only lays the tables out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from imhotep_stats.stats.fmt import pct
from imhotep_stats.stats.ladder import BotSummary, bot_summaries

if TYPE_CHECKING:
    import polars as pl

Play = Callable[[list[str], str, int, int], "pl.DataFrame"]
TABLES = ("wins", "sources", "sides")
PERSONAS = ("pyramid", "temple", "burial", "obelisk", "market", "balanced")
SOURCE_COLUMNS = ("pyramid", "temple", "burial_chamber", "obelisk", "card_statue",
                  "card_decoration")
# persona -> (the source it aims at, the site's index in a sides string)
FOCUS = {"pyramid": ("pyramid", 1), "temple": ("temple", 2), "burial": ("burial_chamber", 3),
         "obelisk": ("obelisk", 4), "market": ("market", 0)}
# the market persona's points: what it buys there
CARD_SOURCES = ("market", "card_statue", "card_decoration", "card_unused_blue", "card_ornament")
A_SIDES = "A-A-A-A-A"


def win_row(label: str, st: BotSummary, games: int) -> str:
    p, lo, hi = st.win_rate()
    m, h = st.mean()
    return f"| {label} | {games} | {pct(p)} | {pct(lo)} - {pct(hi)} | {m:.1f} ± {h:.1f} |"


def source_row(st: BotSummary, sources: Sequence[str]) -> str:
    m, _ = st.mean()
    cells = []
    for src in sources:
        sm, sh = st.mean(src)
        cells.append(f"{sm:.1f} ± {sh:.1f} ({100 * (sm / m if m else 0.0):.0f}%)")
    return f"| {st.name} | {st.seats} | {m:.1f} | " + " | ".join(cells) + " |"


def tables(play: Play, games: int, personas: Sequence[str] = PERSONAS,
           only: Sequence[str] = TABLES) -> Iterator[str]:
    """The Markdown, line by line as the games finish."""
    if "wins" in only:
        yield "\n### Head-to-head, 2 players, A sides, seats rotated\n"
        yield ("| matchup (first bot's share of wins) | games | win rate | Wilson 95% | "
               "mean points ± 95% |\n|---|---|---|---|---|")
        for first, second in [("greedy", "random"), *((p, "random") for p in personas),
                              *(("greedy", p) for p in personas)]:
            res = bot_summaries(play([first, second], A_SIDES, 2, games))
            yield win_row(f"{first} vs {second}", res[first], games)
    if "sources" in only:
        yield "\n### Points by source, 3 players, A sides, each persona with two greedy\n"
        yield "| bot | seat-games | total | " + " | ".join(SOURCE_COLUMNS) + " |"
        yield "|---|---|---|" + "---|" * len(SOURCE_COLUMNS)
        for p in ["greedy", *personas]:
            lineup = [p, "greedy", "greedy"] if p != "greedy" else ["greedy"] * 3
            yield source_row(bot_summaries(play(lineup, A_SIDES, 3, games))[p], SOURCE_COLUMNS)
    if "sides" in only:
        yield "\n### C and D sides: the persona focused on a site vs random there, 2 players\n"
        yield ("| side | persona: points there ± 95% | random: points there ± 95% | "
               "persona win rate |\n|---|---|---|---|")
        for letter in "CD":
            for persona, (source, index) in FOCUS.items():
                if persona not in personas:
                    continue
                sides = ["A"] * 5
                sides[index] = letter
                side = "-".join(sides)
                res = bot_summaries(play([persona, "random"], side, 2, max(games // 4, 200)))
                there = CARD_SOURCES if source == "market" else (source,)
                pm, ph = res[persona].mean(*there)
                rm, rh = res["random"].mean(*there)
                p, lo, hi = res[persona].win_rate()
                yield (f"| {source}.{letter} ({side}) | {persona}: {pm:.1f} ± {ph:.1f} | "
                       f"{rm:.1f} ± {rh:.1f} | {pct(p)} ({pct(lo)} - {pct(hi)}) |")

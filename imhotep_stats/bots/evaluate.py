"""Evidence that the scripted bots are real players: reproducible head-to-head tables.

Every game is seeded as a study would seed it (``chance_seed``, ``bot_rng``) and seats are
rotated (game i: seat s plays ``lineup[(s + i) % n]``), so each bot sits in every seat
equally often. Run ``python -m imhotep_stats.bots.evaluate --help``; the README's bot table
is this module's Markdown output.

Win rates count shared wins as fractions and carry Wilson 95% intervals; points by source
carry normal 95% intervals of the mean (sample sizes here are in the thousands).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from imhotep_stats.rules.sources import SOURCES

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (fractional successes allowed)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class BotStats:
    """One bot's results over a matchup (summed over all the seats it played)."""

    seats: int = 0  # bot-seat-games played
    wins: float = 0.0
    points: float = 0.0
    points_sq: float = 0.0
    by_source: dict[str, float] = field(default_factory=lambda: dict.fromkeys(SOURCES, 0.0))
    by_source_sq: dict[str, float] = field(default_factory=lambda: dict.fromkeys(SOURCES, 0.0))

    def add(self, other: BotStats) -> None:
        self.seats += other.seats
        self.wins += other.wins
        self.points += other.points
        self.points_sq += other.points_sq
        for k in SOURCES:
            self.by_source[k] += other.by_source[k]
            self.by_source_sq[k] += other.by_source_sq[k]

    def win_rate(self) -> tuple[float, float, float]:
        lo, hi = wilson(self.wins, self.seats)
        return self.wins / max(self.seats, 1), lo, hi

    def mean(self, source: str | None = None) -> tuple[float, float]:
        """(mean, half-width of its 95% interval) of total points or one source's."""
        if source is None:
            s, sq = self.points, self.points_sq
        else:
            s, sq = self.by_source[source], self.by_source_sq[source]
        n = max(self.seats, 1)
        m = s / n
        var = max(sq / n - m * m, 0.0) * n / max(n - 1, 1)
        return m, Z95 * math.sqrt(var / n)


def _play_chunk(args: tuple) -> dict[str, BotStats]:
    """Games [start, stop) of a matchup, in one process."""
    from imhotep_stats.bots import make_bot
    from imhotep_stats.engine.game import Game
    from imhotep_stats.engine.play import bot_rng, chance_seed, play_game

    lineup, sides, players, prophecies, seed, start, stop = args
    bots = {name: [make_bot(name) for _ in range(players)] for name in dict.fromkeys(lineup)}
    out = {name: BotStats() for name in dict.fromkeys(lineup)}
    k = len(lineup)
    for i in range(start, stop):
        names = [lineup[(s + i) % k] for s in range(players)]
        seat_bots = [bots[name][s] for s, name in enumerate(names)]
        g = Game(players, sides, seed=chance_seed(seed, i), prophecies=prophecies)
        r = play_game(g, seat_bots, [bot_rng(seed, i, s) for s in range(players)])
        for s, name in enumerate(names):
            st = out[name]
            st.seats += 1
            st.wins += r.win_share[s]
            st.points += r.totals[s]
            st.points_sq += r.totals[s] ** 2
            for src, v in r.by_source[s].items():
                st.by_source[src] += v
                st.by_source_sq[src] += v * v
    return out


def matchup(
    lineup: Sequence[str],
    *,
    sides: str = "A-A-A-A-A",
    players: int = 2,
    games: int = 2000,
    seed: int = 0,
    prophecies: bool = False,
    workers: int = 1,
) -> dict[str, BotStats]:
    """Play ``games`` seeded games with the lineup rotated through the seats."""
    lineup = list(lineup)
    chunk = max(50, games // max(workers * 4, 1))
    jobs = [(lineup, sides, players, prophecies, seed, a, min(a + chunk, games))
            for a in range(0, games, chunk)]
    total = {name: BotStats() for name in dict.fromkeys(lineup)}
    if workers > 1:
        with ProcessPoolExecutor(workers) as ex:
            parts = list(ex.map(_play_chunk, jobs))
    else:
        parts = [_play_chunk(j) for j in jobs]
    for part in parts:
        for name, st in part.items():
            total[name].add(st)
    return total


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def win_row(label: str, st: BotStats, games: int) -> str:
    p, lo, hi = st.win_rate()
    m, h = st.mean()
    return f"| {label} | {games} | {_pct(p)} | {_pct(lo)} - {_pct(hi)} | {m:.1f} ± {h:.1f} |"


WIN_HEADER = ("| matchup (first bot's share of wins) | games | win rate | Wilson 95% | "
              "mean points ± 95% |\n|---|---|---|---|---|")


def source_rows(results: dict[str, BotStats], sources: Sequence[str]) -> list[str]:
    rows = []
    for name, st in results.items():
        m, _ = st.mean()
        cells = []
        for src in sources:
            sm, sh = st.mean(src)
            share = sm / m if m else 0.0
            cells.append(f"{sm:.1f} ± {sh:.1f} ({100 * share:.0f}%)")
        rows.append(f"| {name} | {st.seats} | {m:.1f} | " + " | ".join(cells) + " |")
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--personas", default="pyramid,temple,burial,obelisk,market,balanced")
    ap.add_argument("--only", default="wins,sources,sides",
                    help="tables to print: wins, sources, sides")
    a = ap.parse_args(argv)
    personas = [p for p in a.personas.split(",") if p]
    only = set(a.only.split(","))
    kw = {"games": a.games, "seed": a.seed, "workers": a.workers}
    t0 = time.perf_counter()
    print(f"<!-- python -m imhotep_stats.bots.evaluate --games {a.games} --seed {a.seed} -->")
    if "wins" in only:
        print("\n### Head-to-head, 2 players, A sides, seats rotated\n")
        print(WIN_HEADER)
        for first, second in [("greedy", "random")] + [(p, "random") for p in personas] + \
                [("greedy", p) for p in personas]:
            res = matchup([first, second], players=2, **kw)
            print(win_row(f"{first} vs {second}", res[first], a.games))
            sys.stdout.flush()
    if "sources" in only:
        srcs = ["pyramid", "temple", "burial_chamber", "obelisk", "card_statue",
                "card_decoration"]
        print("\n### Points by source, 3 players, A sides, each persona with two greedy\n")
        print("| bot | seat-games | total | " + " | ".join(srcs) + " |")
        print("|---|---|---|" + "---|" * len(srcs))
        for p in ["greedy", *personas]:
            lineup = [p, "greedy", "greedy"] if p != "greedy" else ["greedy"] * 3
            res = matchup(lineup, players=3, **kw)
            print(source_rows({p: res[p]}, srcs)[0])
            sys.stdout.flush()
    if "sides" in only:
        print("\n### C and D sides: the persona focused on a site vs random there, 2 players\n")
        print("| side | persona: points there ± 95% | random: points there ± 95% | "
              "persona win rate |\n|---|---|---|---|")
        focus = [("pyramid", "pyramid", 1), ("temple", "temple", 2),
                 ("burial", "burial_chamber", 3), ("obelisk", "obelisk", 4),
                 ("market", "market", 0)]
        for letter in "CD":
            for persona, source, index in focus:
                sides = ["A"] * 5
                sides[index] = letter
                side = "-".join(sides)
                res = matchup([persona, "random"], sides=side, players=2,
                              **{**kw, "games": max(a.games // 4, 200)})
                src = source if source != "market" else None
                pm, ph = res[persona].mean(src) if src else _card_points(res[persona])
                rm, rh = res["random"].mean(src) if src else _card_points(res["random"])
                p, lo, hi = res[persona].win_rate()
                label = f"{source}.{letter} ({side})"
                print(f"| {label} | {persona}: {pm:.1f} ± {ph:.1f} | {rm:.1f} ± {rh:.1f} | "
                      f"{_pct(p)} ({_pct(lo)} - {_pct(hi)}) |")
                sys.stdout.flush()
    print(f"\n<!-- {time.perf_counter() - t0:.0f} s -->")
    return 0


def _card_points(st: BotStats) -> tuple[float, float]:
    """Market focus: points from cards (statues, decorations, unused blue, ornaments, market)."""
    keys = ("market", "card_statue", "card_decoration", "card_unused_blue", "card_ornament")
    m = sum(st.mean(k)[0] for k in keys)
    h = math.sqrt(sum(st.mean(k)[1] ** 2 for k in keys))  # conservative-ish (ignores covariance)
    return m, h


if __name__ == "__main__":
    raise SystemExit(main())

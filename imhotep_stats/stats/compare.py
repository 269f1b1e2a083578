"""Paired what-if comparisons: every figure of two runs played on the same seeds.

Two runs of a study that differ only in board data or sides deal the same cards for the
same game index and seat the same bots (docs/engine.md, Architecture: randomness), so
their rows pair up by (cell position, game index, seat). A figure's change is estimated
from per-game differences, not from two independent samples: common random numbers
cancel most of the game-to-game noise, and identical runs give exactly zero.

Method. For a group (a seat, a bot, all players, or the game) and a value v, game g gives
totals x_g (base) and y_g (what-if) over the group's n_g rows (n_g = 1 for a seat or the
game, the number of the bot's seats for a bot, the player count for all players). With
d_g = y_g - x_g over C games and N = sum n_g:

    diff = sum d_g / N,   Var = C / (C - 1) * sum (d_g - diff n_g)^2 / N^2,   df = C - 1

the ratio estimator of cluster sampling (Cochran, *Sampling Techniques*, 3rd ed., 6.2),
which is the paired t interval (``intervals.paired_difference``) when n_g = 1. Every
figure gets a two-sided t test of "no change", and Benjamini-Hochberg q-values over all
figures of the comparison decide which changes the plain-language summary calls real.

Asked again (the runs topped up with more games, or their games looked at before:
``sim.adaptive.sequential``), a fixed-sample interval would be a test repeated at every
look. Then every interval is a confidence sequence instead (``sequential.mean_radius``:
the normal mixture with the per-game spread, tuned to the first look's games) and every
p-value the smallest level whose sequence excludes 0: they hold at every look, however
often the comparison (or a CI gate on it, ``--max-seat-shift``) is asked.

Memory: cells are read one at a time, in chunks of game indices, and reduced to additive
moments, so a comparison needs no more memory than one chunk of one cell.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from scipy import stats as _st

from imhotep_stats.config import StudyConfig
from imhotep_stats.config.edits import describe_change
from imhotep_stats.rules.board import SITE_TITLES
from imhotep_stats.sim.schema import SOURCES
from imhotep_stats.sim.store import SHARD_RE, load_manifest, shard_files
from imhotep_stats.stats.sequential import mean_radius
from imhotep_stats.stats.significance import benjamini_hochberg, holm

CHUNK_GAMES = 20_000
"""Game indices per pass over a cell: bounds memory by the chunk, not the cell."""

GAME_VALUES = ("decisions", "margin", "lead_changes")  # one value per game
PLAYER_VALUES = ("win_share", "score", *(f"pts_{s}" for s in SOURCES))
_MOMENTS = ("C", "N", "N2", "Sx", "Sy", "Sd", "Qd", "Xd")


class CompareError(ValueError):
    """Two runs that cannot be paired (different cells, games or seeds)."""


@dataclass
class Figure:
    """One compared figure of one cell; ``base``/``whatif`` are means, ``diff`` their change."""

    cell: str
    whatif_cell: str
    players: int
    group: str  # "seat", "bot", "all" (every player) or "game"
    who: int | str | None  # seat index (0 = start player) or bot name
    figure: str  # win_rate, score, points, decisions, margin, lead_changes
    source: str | None  # for figure == "points"
    games: int
    base: float
    whatif: float
    diff: float
    ci_low: float
    ci_high: float
    p_value: float
    q_value: float = math.nan

    def to_json(self) -> dict[str, Any]:
        d = {k: getattr(self, k) for k in (
            "cell", "whatif_cell", "players", "group", "figure", "source", "games", "base",
            "whatif", "diff", "ci_low", "ci_high", "p_value", "q_value")}
        d["seat"] = self.who if self.group == "seat" else None
        d["bot"] = self.who if self.group == "bot" else None
        return {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in d.items()}


@dataclass
class Comparison:
    """All figures of a paired comparison and what the two runs were."""

    base_dir: str
    whatif_dir: str
    confidence: float
    change: str  # the change in words, e.g. "Pyramid A with these points"
    figures: list[Figure] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    sequential: bool = False  # intervals are confidence sequences (asked more than once)

    @property
    def identical(self) -> bool:
        return all(f.diff == 0.0 and f.ci_low == 0.0 and f.ci_high == 0.0 for f in self.figures)


# --- pairing ------------------------------------------------------------------------------


def _cell_files(run_dir: Path) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for path in shard_files(run_dir):
        m = SHARD_RE.match(path.name)
        out.setdefault(int(m.group(1)), []).append(str(path))
    return out


def check_pairing(base: dict[str, Any], whatif: dict[str, Any]) -> None:
    """Refuse runs whose games do not pair: other seed, game count, players or lineups."""
    problems = []
    roots = [(m.get("seeds") or {}).get("root") for m in (base, whatif)]
    if roots[0] != roots[1]:
        problems.append(f"root seeds differ ({roots[0]} vs {roots[1]})")
    bc, wc = base["cells"], whatif["cells"]
    if len(bc) != len(wc):
        problems.append(f"the base has {len(bc)} cells, the what-if {len(wc)} (cells pair by "
                        "position: change the sides of a site, not how many)")
    for b, w in zip(bc, wc, strict=False):
        if (b["players"], b["lineup"], b["games"]) != (w["players"], w["lineup"], w["games"]):
            problems.append(f"cell {b['index']}: {b['players']} players {b['lineup']} "
                            f"{b['games']} games vs {w['players']} players {w['lineup']} "
                            f"{w['games']} games")
            break
    if problems:
        raise CompareError("the runs cannot be paired: " + "; ".join(problems))


# --- moments ------------------------------------------------------------------------------


def _add(acc: dict, key: tuple, x: np.ndarray, y: np.ndarray, n: np.ndarray) -> None:
    """Add the moments of per-game totals x (base), y (what-if) over n rows."""
    d = y - x
    m = np.array([x.size, n.sum(), (n * n).sum(), x.sum(), y.sum(), d.sum(), (d * d).sum(),
                  (d * n).sum()], dtype=float)
    if key in acc:
        acc[key] += m
    else:
        acc[key] = m


def _chunk_moments(acc: dict, base: pl.DataFrame, whatif: pl.DataFrame, players: int) -> None:
    """Moments of one chunk of paired games (both sorted by game, seat). The lineups are
    the same (``check_pairing``), so a seat holds the same bot in both runs."""
    if base.height != whatif.height or not (
            base["game"].equals(whatif["game"]) and base["seat"].equals(whatif["seat"])):
        raise CompareError("the runs hold different games (an unfinished or changed run?)")
    g = base.height // players
    if g * players != base.height:
        raise CompareError("a game is missing seats in the results")
    cols = [c for c in PLAYER_VALUES if c in base.columns]
    X = {c: base[c].cast(pl.Float64).to_numpy().reshape(g, players) for c in cols}
    Y = {c: whatif[c].cast(pl.Float64).to_numpy().reshape(g, players) for c in cols}
    one = np.ones(g)
    for s in range(players):
        for c in cols:
            _add(acc, ("seat", s, c), X[c][:, s], Y[c][:, s], one)
    full = np.full(g, float(players))
    for c in cols:
        if c != "win_share":  # every game hands out one win: all players' rate is 1/n
            _add(acc, ("all", None, c), X[c].sum(1), Y[c].sum(1), full)
    names = base["bot"].to_numpy().reshape(g, players)
    for b in sorted(set(names.ravel().tolist())):
        mask = (names == b).astype(float)
        n = mask.sum(1)
        for c in cols:
            _add(acc, ("bot", b, c), (X[c] * mask).sum(1), (Y[c] * mask).sum(1), n)
    for c in GAME_VALUES:
        _add(acc, ("game", None, c), base[c].cast(pl.Float64).to_numpy()[::players],
             whatif[c].cast(pl.Float64).to_numpy()[::players], one)


def _finish(m: np.ndarray, confidence: float, planned: int = 0) -> tuple[float, ...]:
    """(games, base, whatif, diff, ci_low, ci_high, p) from the moments (module docstring);
    ``planned`` > 0: a confidence sequence tuned to that many games, and its p-value."""
    c, n, n2, sx, sy, sd, qd, xd = m
    if n <= 0:
        return (int(c), math.nan, math.nan, math.nan, math.nan, math.nan, math.nan)
    diff = sd / n
    base, whatif = sx / n, sy / n
    if c < 2:
        return (int(c), base, whatif, diff, math.nan, math.nan, math.nan)
    ss = qd - 2.0 * diff * xd + diff * diff * n2
    var = c / (c - 1) * max(ss, 0.0) / (n * n)
    se = math.sqrt(var)
    # Rounding leaves a tiny positive spread for a constant difference: treat spread below
    # 1e-12 of the difference's scale as none, so constant shifts give [c, c] exactly.
    if se <= 1e-12 * max(abs(diff), 1e-300) or se == 0.0:
        return (int(c), base, whatif, diff, diff, diff, 1.0 if diff == 0.0 else 0.0)
    if planned:
        sd = se * math.sqrt(c)  # per game
        r = mean_radius(sd, int(c), 1.0 - confidence, planned)
        return (int(c), base, whatif, diff, diff - r, diff + r,
                _sequential_p(abs(diff), sd, int(c), planned))
    t = float(_st.t.ppf(0.5 + confidence / 2.0, c - 1))
    p = float(2.0 * _st.t.sf(abs(diff) / se, c - 1))
    return (int(c), base, whatif, diff, diff - t * se, diff + t * se, min(1.0, p))


def _sequential_p(gap: float, sd: float, games: int, planned: int) -> float:
    """The smallest level whose confidence sequence excludes 0 (1 when even the 50%
    sequence holds it): a p-value valid at every look."""
    from scipy.optimize import brentq

    def f(log_a: float) -> float:
        return mean_radius(sd, games, math.exp(log_a), planned) - gap

    if f(math.log(0.5)) > 0.0:
        return 1.0
    if f(-700.0) <= 0.0:
        return 0.0
    return math.exp(brentq(f, -700.0, math.log(0.5), xtol=1e-6))


def looked_again(base_dir: Path, base: dict[str, Any], whatif_dir: Path,
                 whatif: dict[str, Any]) -> int:
    """The first look's games when either run was looked at more than once (topped up,
    or its games judged before: ``sim.adaptive.sequential``), else 0."""
    from imhotep_stats.sim.adaptive import sequential

    if not (sequential(base_dir, base) or sequential(whatif_dir, whatif)):
        return 0
    first = [int(n) for n in (base.get("passes") or [base["games_per_cell"]])][:1]
    first += [int(p["games"][1]) for p in (base.get("looks") or {}).get("prior", ())]
    return max(min(first), 2)


# --- the comparison -----------------------------------------------------------------------


def pair_configs(base: StudyConfig, whatif: StudyConfig) -> tuple[StudyConfig, list[str]]:
    """The what-if config made to pair with the base: the base's seed, games and batch
    size (so game i deals the same cards in both); raises CompareError when cells cannot
    pair (another number of cells, other players or lineups). Returns notes on what was
    aligned, for stderr."""
    notes = []
    for name, attr in (("seed", "seed"), ("games per cell", "games")):
        if getattr(whatif, attr) != getattr(base, attr):
            notes.append(f"the what-if's {name} ({getattr(whatif, attr)}) is replaced by the "
                         f"base's ({getattr(base, attr)}) so the games pair")
    whatif = whatif.replace(seed=base.seed, games=base.games, batch_size=base.batch_size)
    bc, wc = base.cells, whatif.cells
    if len(bc) != len(wc):
        raise CompareError(f"the base has {len(bc)} cells and the what-if {len(wc)}: cells "
                           "pair by position, so a what-if may change which side a site "
                           "plays, not how many sides, player counts or lineups")
    for b, w in zip(bc, wc, strict=True):
        if (b.players, b.lineup) != (w.players, w.lineup):
            raise CompareError(f"cell {b.index} plays {b.players} players {list(b.lineup)} in "
                               f"the base and {w.players} players {list(w.lineup)} in the "
                               "what-if: cells pair by position")
    return whatif, notes


def compare_runs(base_dir: str | Path, whatif_dir: str | Path, confidence: float = 0.95,
                 change: str | None = None, chunk_games: int = CHUNK_GAMES) -> Comparison:
    """Compare two finished runs game by game; see the module docstring for the method."""
    base_dir, whatif_dir = Path(base_dir), Path(whatif_dir)
    bm, wm = load_manifest(base_dir), load_manifest(whatif_dir)
    for d, m in ((base_dir, bm), (whatif_dir, wm)):
        if m.get("status") != "complete":
            raise CompareError(f"{d}: the run is not finished (resume it first)")
    check_pairing(bm, wm)
    planned = looked_again(base_dir, bm, whatif_dir, wm)
    comp = Comparison(str(base_dir), str(whatif_dir), confidence,
                      change or describe_change(bm["config"], wm["config"]),
                      sequential=bool(planned))
    bfiles, wfiles = _cell_files(base_dir), _cell_files(whatif_dir)
    for bcell, wcell in zip(bm["cells"], wm["cells"], strict=True):
        i = bcell["index"]
        if i not in bfiles or wcell["index"] not in wfiles:
            raise CompareError(f"cell {bcell['id']}: no results in one of the runs")
        comp.figures.extend(_compare_cell(bcell, wcell, bfiles[i], wfiles[wcell["index"]],
                                          confidence, chunk_games, planned))
    ps = [f.p_value for f in comp.figures if not math.isnan(f.p_value)]
    qs = iter(benjamini_hochberg(ps))
    for f in comp.figures:
        if not math.isnan(f.p_value):
            f.q_value = next(qs)
    return comp


def _compare_cell(bcell: dict, wcell: dict, bfiles: list[str], wfiles: list[str],
                  confidence: float, chunk_games: int, planned: int = 0) -> list[Figure]:
    players = bcell["players"]
    cols = ["game", "seat", "bot", *PLAYER_VALUES, *GAME_VALUES]
    blf = pl.scan_parquet(bfiles).select(cols)
    wlf = pl.scan_parquet(wfiles).select(cols)
    top = int(blf.select(pl.col("game").max()).collect().item() or -1)
    acc: dict[tuple, np.ndarray] = {}
    for start in range(0, top + 1, chunk_games):
        window = pl.col("game").is_between(start, start + chunk_games - 1)
        _chunk_moments(acc, blf.filter(window).sort("game", "seat").collect(),
                       wlf.filter(window).sort("game", "seat").collect(), players)
    out = []
    for (group, who, col), m in acc.items():
        games, base, whatif, diff, low, high, p = _finish(m, confidence, planned)
        if col == "win_share":
            fig, src = "win_rate", None
        elif col.startswith("pts_"):
            fig, src = "points", col.removeprefix("pts_")
            if base == 0.0 and whatif == 0.0:
                continue  # a source nobody scores in either run
        else:
            fig, src = col, None
        out.append(Figure(bcell["id"], wcell["id"], players, group, who, fig, src, games,
                          base, whatif, diff, low, high, p))
    order = {"seat": 0, "bot": 1, "all": 2, "game": 3}
    figs = {"win_rate": 0, "score": 1, "points": 2, "decisions": 3, "margin": 4,
            "lead_changes": 5}
    srcs = {s: i for i, s in enumerate(SOURCES)}
    out.sort(key=lambda f: (order[f.group], figs[f.figure], str(f.who),
                            srcs.get(f.source or "", -1)))
    return out


# --- words --------------------------------------------------------------------------------

SITE_NAMES = SITE_TITLES  # rules.board's

def seat_name(seat: int) -> str:
    return "the start player" if seat == 0 else f"seat {seat + 1}"


@dataclass(frozen=True)
class SeatFinding:
    """What the paired test says about one cell's seats: ``moved`` the seats whose win rate
    the what-if changes (Holm over the cell's seats at alpha), ``beyond`` those whose whole
    interval lies beyond the margin, ``within`` whether every seat's interval lies inside
    it, and ``largest`` the seat figure with the largest change."""

    cell: str
    moved: tuple[Figure, ...]
    beyond: tuple[Figure, ...]
    within: bool
    largest: Figure


def seat_findings(comp: Comparison, margin: float, alpha: float = 0.05) -> list[SeatFinding]:
    """Per cell, whether the what-if moves any seat and whether a seat's change crosses the
    margin: read off the paired differences of the seat win rates (their intervals, or
    confidence sequences when asked again), never off two verdicts side by side."""
    out = []
    for cell in dict.fromkeys(f.cell for f in comp.figures):
        seats = [f for f in comp.figures if f.cell == cell and f.group == "seat"
                 and f.figure == "win_rate" and not math.isnan(f.p_value)]
        if not seats:
            continue
        if seats[0].players == 2:
            seats = seats[:1]  # two seats: one hypothesis (the changes sum to 0)
        adj = holm([f.p_value for f in seats])
        moved = tuple(f for f, q in zip(seats, adj, strict=True) if q <= alpha)
        beyond = tuple(f for f in seats if f.ci_low > margin or f.ci_high < -margin)
        within = all(-margin < f.ci_low and f.ci_high < margin for f in seats)
        out.append(SeatFinding(cell, moved, beyond, within,
                               max(seats, key=lambda f: abs(f.diff))))
    return out


def summarize(comp: Comparison, alpha: float = 0.05, limit: int = 6) -> list[str]:
    """Plain-language sentences: per cell the seat win rates (always the largest change),
    then other figures whose change survives Benjamini-Hochberg at ``alpha``."""
    pct = round(comp.confidence * 100)
    if comp.identical:
        return [f"{comp.change[0].upper()}{comp.change[1:]} changes nothing: both runs play "
                "the same games with the same scores (every difference is exactly 0)."]
    change = comp.change[0].upper() + comp.change[1:]
    cells = list(dict.fromkeys(f.cell for f in comp.figures))
    out = []

    def where(f: Figure) -> str:
        return f" ({f.players} players, {f.whatif_cell.split('|')[0]})" if len(cells) > 1 else ""

    def verb(f: Figure) -> str:
        return "raises" if f.diff > 0 else "lowers"

    def interval(f: Figure, scale: float, unit: str, digits: int = 1) -> str:
        return (f"by {abs(f.diff) * scale:.{digits}f}{unit}, {pct}% interval "
                f"{f.ci_low * scale:.{digits}f} to {f.ci_high * scale:.{digits}f}")

    for cell in cells:
        figs = [f for f in comp.figures if f.cell == cell]
        seats = [f for f in figs if f.group == "seat" and f.figure == "win_rate"]
        real = [f for f in seats if f.q_value <= alpha]
        for f in sorted(real, key=lambda f: -abs(f.diff))[:limit]:
            out.append(f"{change} {verb(f)} {seat_name(f.who)}'s win rate "
                       f"{interval(f, 100, ' pp')}{where(f)}.")
        if not real and seats:
            f = max(seats, key=lambda f: abs(f.diff))
            out.append(f"{change} changes no seat's win rate detectably{where(f)}: the largest "
                       f"change is {seat_name(f.who)}'s, {f.diff * 100:+.1f} pp, {pct}% "
                       f"interval {f.ci_low * 100:.1f} to {f.ci_high * 100:.1f}.")
        bots = [f for f in figs if f.group == "bot" and f.figure == "win_rate"
                and f.q_value <= alpha and len({g.who for g in figs if g.group == "bot"}) > 1]
        for f in sorted(bots, key=lambda f: -abs(f.diff))[:limit]:
            out.append(f"It {verb(f)} bot {f.who}'s win rate {interval(f, 100, ' pp')}"
                       f"{where(f)}.")
        pts = [f for f in figs if f.group == "all" and f.figure in ("points", "score")
               and f.q_value <= alpha]
        for f in sorted(pts, key=lambda f: -abs(f.diff))[:limit]:
            what = "mean score" if f.figure == "score" else f"mean {f.source} points"
            out.append(f"It {verb(f)} the {what} per player {interval(f, 1, ' points', 2)}{where(f)}.")
        game = [f for f in figs if f.group == "game" and f.q_value <= alpha]
        names = {"decisions": "game length (decisions)", "margin": "winning margin",
                 "lead_changes": "number of lead changes"}
        for f in game:
            out.append(f"It {verb(f)} the {names[f.figure]} {interval(f, 1, '', 2)}{where(f)}.")
    return out

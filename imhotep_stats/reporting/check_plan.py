"""What the strong-play check (``reporting.strong``) will play, decided before it plays:
``FIRST`` games a cell, then passes that double until every cell is decided, at most ``MOST``
a cell or fewer: the last pass whose games fit in ``BUDGET_MINUTES`` on this machine's cores,
by the pilot's CPU cost a game (``sim.cost``) and how much slower than its CPU time the pilot
ran (a busy machine). The first look fits the budget too: fewer than ``FIRST`` games a cell
when those would not fit, but never fewer than the fewest that can decide a cell
(``fewest_deciding``); a first look that still exceeds the budget says by how much. The plan
is said with its estimate before the games start, and kept in the check's directory
(``PLAN_FILE``) so that a finished check asked again the same way is re-reported, not played
further on a new pilot's figures.

Light to import (the CLI's options read its defaults); the pilot is imported when used.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

FIRST = 50  # games a cell at the first look
MOST = 400  # games a cell at most: "a few hundred"
BUDGET_MINUTES = 5.0  # the check's time by default, on this machine's cores by the pilot
PLAN_FILE = "check.json"  # in the check's directory: the cap it was planned with
BUSY_SAID = 1.2  # a pilot this many times slower on the clock than in CPU is said
BUSY_PILOT_CPU = 0.5  # CPU seconds of pilot below which its clock time is not read as load


def passes(first: int, most: int) -> list[int]:
    """Games a cell after each pass of an undecided check: ``first``, then doubling, up to
    ``most``."""
    out = [min(first, most)]
    while out[-1] < most:
        out.append(min(most, 2 * out[-1]))
    return out


def minutes_text(seconds: float) -> str:
    """Seconds as a designer reads a wait: "under a minute", "about 4 min"."""
    return "under a minute" if seconds < 60 else f"about {round(seconds / 60):,} min"


def fewest_deciding(players: int, margin: float, alpha: float, most: int) -> int:
    """The fewest games a cell of ``players`` with which its seat verdict can be decided at
    all (one seat winning every game), ``most`` if none up to it: a first look of fewer
    decides nothing."""
    from imhotep_stats.stats.significance import seat_verdict

    return next((n for n in range(1, most) if seat_verdict(
        [n] + [0] * (players - 1), n, margin, alpha).verdict != "inconclusive"), most)


@dataclass(frozen=True)
class Plan:
    """What the check will play, decided before it starts: ``first`` games a cell (``asked``,
    or fewer to fit ``minutes``), passes that double up to ``cap`` (``most``, or fewer to fit
    ``minutes``; 0: no time budget)."""

    bot: str
    cells: int
    first: int
    cap: int
    most: int
    minutes: float
    cpu_per_pass_game: float  # CPU seconds of one game in every cell, by the pilot
    cores: int | None  # local cores; None: a cluster (its cores are not counted here)
    held: bool = False  # the plan of a finished check, asked again the same way
    asked: int = 0  # the first look asked for (FIRST, or the screen's games); 0: ``first``
    busy: float = 1.0  # how many times its CPU time the pilot took on the clock (>= 1)

    def seconds(self, games: int) -> float:
        """Wall seconds of ``games`` a cell on ``cores``: the pilot's CPU time, slowed as the
        pilot was by a busy machine."""
        return games * self.cpu_per_pass_game * self.busy / (self.cores or 1)

    @property
    def budget(self) -> float | None:
        """The time budget in seconds; None: none (``minutes`` 0, or a cluster)."""
        return 60 * self.minutes if self.minutes > 0 and self.cores else None

    @property
    def over(self) -> float:
        """Seconds by which the first look alone exceeds the budget (0: it fits)."""
        return max(0.0, self.seconds(self.first) - self.budget) if self.budget else 0.0

    @property
    def capped(self) -> bool:
        return self.cap < self.most

    def to_json(self) -> dict[str, Any]:
        return {"bot": self.bot, "first": self.asked or self.first, "cap": self.cap,
                "most": self.most, "minutes": self.minutes}

    def lines(self) -> list[str]:
        if self.held:
            return [f"strong-play check: finished before, {self.cap:,} games a cell at most as "
                    "planned then: re-reported (another --strong-minutes or --strong-games "
                    "plans it again)"]
        n = f"{self.cells} cell{'s' if self.cells != 1 else ''}"
        more = f"--strong-minutes M plays more, up to --strong-games {self.most:,}"
        head = f"strong-play check: {self.bot} in every seat of the same {n}, "
        if self.over:
            head += (f"{self.first:,} games a cell and no more (fewer cannot decide a cell): "
                     f"{minutes_text(self.seconds(self.first))}, past the {self.minutes:g}-"
                     f"minute budget by {minutes_text(self.over)} ({more})")
        elif self.first < (self.asked or self.first):
            head += (f"{self.first:,} games a cell and no more, fewer than the usual first "
                     f"look of {self.asked:,} (what fits in {self.minutes:g} min; {more})")
        else:
            head += (f"{self.first:,} games a cell, then passes that double until every cell "
                     f"is decided, at most {self.cap:,} a cell")
            if self.capped:
                head += f" (what fits in {self.minutes:g} min; {more})"
        if self.cores is None:
            return [head + "; on a cluster (no estimate); --quick skips it"]
        per = self.cpu_per_pass_game / self.cells
        busy = (f", {self.busy:.1f}x that on the clock: a busy machine"
                if self.busy >= BUSY_SAID else "")
        return [head + "; --quick skips it",
                f"  estimate: {minutes_text(self.seconds(self.first))} for the first "
                f"{self.first:,} games a cell, {minutes_text(self.seconds(self.cap))} at most on "
                f"{self.cores} core{'s' if self.cores != 1 else ''} ({per:.2f} s of CPU a "
                f"game by the pilot{busy})"]


def _held_plan(out: Path, first: int, most: int, minutes: float) -> int | None:
    """The cap a finished check in ``out`` was planned with, if asked the same way: asked
    again, it is re-reported, not played further on a new pilot's say."""
    try:
        held = json.loads((out / PLAN_FILE).read_text())
        done = json.loads((out / "manifest.json").read_text()).get("status") == "complete"
    except (OSError, ValueError):
        return None
    same = (held.get("first"), held.get("most"), held.get("minutes")) == (first, most, minutes)
    return int(held["cap"]) if done and same and isinstance(held.get("cap"), int) else None


def plan_check(checks: list[tuple[Any, Path]], first: int = FIRST, most: int = MOST,
               minutes: float = BUDGET_MINUTES, cores: int | None = 1) -> Plan:
    """The plan of a check playing ``checks`` (the check's configs, from ``strong_config``,
    with their directories): the pilot's CPU a game (``sim.cost``) and how busy the machine
    made it; the first look: ``first`` games a cell, or as many as fit in ``minutes`` on
    ``cores`` when those do not, at least ``fewest_deciding``; and the cap: the largest pass
    (``passes``) from that first look that fits. A cluster (``cores`` None) or ``minutes`` 0
    has no time budget. A finished check asked the same way keeps its cap (no pilot)."""
    from imhotep_stats.sim.cost import pilot_costs

    first = min([first, *(cfg.games for cfg, _ in checks)])  # a screen of fewer games
    bot = ",".join(dict.fromkeys(b for cfg, _ in checks for c in cfg.cells for b in c.lineup))
    cells = sum(len(cfg.cells) for cfg, _ in checks)
    held = [_held_plan(d, first, most, minutes) for _, d in checks]
    if held and all(h is not None for h in held):
        cap = max(held)
        return Plan(bot, cells, min(first, cap), cap, most, minutes, 0.0, None, held=True)
    clock, spent = time.monotonic(), time.process_time()
    cpu = sum(c.per_game for cfg, _ in checks for c in pilot_costs(cfg, 1))
    clock, spent = time.monotonic() - clock, time.process_time() - spent
    busy = max(1.0, clock / spent) if spent >= BUSY_PILOT_CPU else 1.0  # else: too short to tell
    plan = Plan(bot, cells, first, most, most, minutes, cpu, cores, asked=first, busy=busy)
    if plan.budget is None:
        return plan
    fewest = max(fewest_deciding(c.players, cfg.margin, 1 - cfg.confidence, first)
                 for cfg, _ in checks for c in cfg.cells)
    fit = int(plan.budget / plan.seconds(1)) if plan.seconds(1) > 0 else first
    look = min(first, max(fit, fewest))
    fits = [g for g in passes(look, most) if plan.seconds(g) <= plan.budget]
    return replace(plan, first=look, cap=fits[-1] if fits else look)


def save_plan(out: Path, plan: Plan) -> None:
    from imhotep_stats.sim.store import atomic_write

    text = json.dumps(plan.to_json(), sort_keys=True) + "\n"
    atomic_write(out / PLAN_FILE, lambda fh: fh.write(text.encode()))

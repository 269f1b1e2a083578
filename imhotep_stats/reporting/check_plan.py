"""What the strong-play check (``reporting.strong``) will play, decided before it plays:
``FIRST`` games a cell, then passes that double until every cell is decided, at most ``MOST``
a cell or fewer: the last pass whose games fit in ``BUDGET_MINUTES`` on this machine's cores,
by the pilot's CPU cost a game (``sim.cost``). The plan is said with its estimate before the
games start, and kept in the check's directory (``PLAN_FILE``) so that a finished check
asked again the same way is re-reported, not played further on a new pilot's figures.

Light to import (the CLI's options read its defaults); the pilot is imported when used.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FIRST = 50  # games a cell at the first look
MOST = 400  # games a cell at most: "a few hundred"
BUDGET_MINUTES = 5.0  # the check's time by default, on this machine's cores by the pilot
PLAN_FILE = "check.json"  # in the check's directory: the cap it was planned with


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


@dataclass(frozen=True)
class Plan:
    """What the check will play, decided before it starts: ``first`` games a cell, passes
    that double up to ``cap`` (``most``, or fewer to fit ``minutes``; 0: no time budget)."""

    bot: str
    cells: int
    first: int
    cap: int
    most: int
    minutes: float
    cpu_per_pass_game: float  # CPU seconds of one game in every cell, by the pilot
    cores: int | None  # local cores; None: a cluster (its cores are not counted here)
    held: bool = False  # the plan of a finished check, asked again the same way

    def seconds(self, games: int) -> float:
        """Wall seconds of ``games`` a cell on ``cores`` (the pilot's CPU time: a busy
        machine takes longer)."""
        return games * self.cpu_per_pass_game / (self.cores or 1)

    @property
    def capped(self) -> bool:
        return self.cap < self.most

    def to_json(self) -> dict[str, Any]:
        return {"bot": self.bot, "first": self.first, "cap": self.cap, "most": self.most,
                "minutes": self.minutes}

    def lines(self) -> list[str]:
        if self.held:
            return [f"strong-play check: finished before, {self.cap:,} games a cell at most as "
                    "planned then: re-reported (another --strong-minutes or --strong-games "
                    "plans it again)"]
        n = f"{self.cells} cell{'s' if self.cells != 1 else ''}"
        head = (f"strong-play check: {self.bot} in every seat of the same {n}, "
                f"{self.first:,} games a cell, then passes that double until every cell is "
                f"decided, at most {self.cap:,} a cell")
        if self.capped:
            head += (f" (what fits in {self.minutes:g} min; --strong-minutes M plays more, "
                     f"up to --strong-games {self.most:,})")
        if self.cores is None:
            return [head + "; on a cluster (no estimate); --quick skips it"]
        per = self.cpu_per_pass_game / self.cells
        return [head + "; --quick skips it",
                f"  estimate: {minutes_text(self.seconds(self.first))} for the first "
                f"{self.first:,} games a cell, {minutes_text(self.seconds(self.cap))} at most on "
                f"{self.cores} core{'s' if self.cores != 1 else ''} ({per:.2f} s of CPU a "
                "game by the pilot)"]


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
    with their directories): the pilot's CPU a game (``sim.cost``), and the cap: the largest
    pass (``passes``) whose games take at most ``minutes`` on ``cores``, at least the first.
    A cluster (``cores`` None) or ``minutes`` 0 has no time budget. A finished check asked
    the same way keeps its cap (no pilot)."""
    from imhotep_stats.sim.cost import pilot_costs

    first = min([first, *(cfg.games for cfg, _ in checks)])  # a screen of fewer games
    bot = ",".join(dict.fromkeys(b for cfg, _ in checks for c in cfg.cells for b in c.lineup))
    cells = sum(len(cfg.cells) for cfg, _ in checks)
    held = [_held_plan(d, first, most, minutes) for _, d in checks]
    if held and all(h is not None for h in held):
        return Plan(bot, cells, first, max(held), most, minutes, 0.0, None, held=True)
    cpu = sum(c.per_game for cfg, _ in checks for c in pilot_costs(cfg, 1))
    plan = Plan(bot, cells, first, most, most, minutes, cpu, cores)
    if cores is None or minutes <= 0:
        return plan
    fits = [g for g in passes(first, most) if plan.seconds(g) <= 60 * minutes]
    cap = fits[-1] if fits else passes(first, most)[0]
    return Plan(bot, cells, first, cap, most, minutes, cpu, cores)


def save_plan(out: Path, plan: Plan) -> None:
    from imhotep_stats.sim.store import atomic_write

    text = json.dumps(plan.to_json(), sort_keys=True) + "\n"
    atomic_write(out / PLAN_FILE, lambda fh: fh.write(text.encode()))

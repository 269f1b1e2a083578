"""The strong-play check: beside a fast screen (``greedy``), the same cells played by the
reference bot, sequentially (a first look of ``FIRST`` games a cell, then passes that at most
double, stopping when every cell's verdict is decided or at its cap), and the answer led by
the strong-play verdict.

The cap is ``MOST`` games a cell, or fewer to fit a time budget (``check_plan``), decided
before the check plays and said with its estimate. Its verdicts are sequential
(valid at any stopping point), so a check stopped at its cap is still a valid test there: an
undecided cell says so with how far its seats could be from their fair share
(``undecided_sentence``), never "balanced".

Whether the screen's verdict holds for strong play is the seat x lineup test
(``stats.lineups``) of the screen's cell against the strong one: "bot-dependent" when it
rejects, else "no difference detected" with the difference it could miss. The check's games
go to a run directory of their own beside the screen's (``strong_dir``), resumed like any run.

Whether a command plays the check is the CLI's choice (``cli.options.strong_wanted``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from imhotep_stats.bots.ratings import basis, reference_bot
from imhotep_stats.reporting.check_plan import (
    BUDGET_MINUTES,
    FIRST,
    MOST,
    Plan,
    minutes_text,
    plan_check,
    save_plan,
)
from imhotep_stats.reporting.figures import CellInfo, ReportData, seat_verdicts_of, verdict_text
from imhotep_stats.reporting.robustness import could_miss
from imhotep_stats.reporting.trust import trust_line
from imhotep_stats.stats import fmt as f
from imhotep_stats.stats.lineups import LineupTest, lineup_test
from imhotep_stats.stats.sweep import wanted


def strong_bot(bot: str | None = None) -> str:
    """The bot of the check: ``bot``, else the reference bot (data/bot_ratings.toml)."""
    return bot or reference_bot() or "expert"


def redundant(cfg: Any, bot: str | None = None) -> bool:
    """Whether the screen already is the check: every cell plays only the check's bot."""
    return all(set(c.lineup) == {strong_bot(bot)} for c in cfg.cells)


def redundant_note(bot: str | None = None) -> str:
    return (f"strong-play check: not played, the screen already plays {strong_bot(bot)} in "
            "every seat")


def strong_config(cfg: Any, bot: str | None = None, first: int = FIRST) -> Any:
    """The check's study: the screen's sides and player counts, ``bot`` in every seat,
    ``first`` games a cell (the same seed: game i deals the same cards as the screen's)."""
    bot = strong_bot(bot)
    first = min(first, cfg.games)
    # batches of at most ``first`` games: a pass adds at least one batch (run_until_decided),
    # so the passes double from the first look instead of jumping to the cap
    return cfg.replace(name=f"{cfg.name}-strong-{bot}", games=first,
                       lineups=tuple((n, ((bot,),)) for n in cfg.players),
                       batch_size=min(cfg.batch_size, first))


def strong_dir(run_dir: str | Path, bot: str | None = None) -> Path:
    """Where the check's games go: beside the screen's run directory."""
    run_dir = Path(run_dir)
    return run_dir.with_name(f"{run_dir.name}-strong-{strong_bot(bot)}")


def _cores(run_options: Mapping[str, Any]) -> int | None:
    """The local cores the check's games run on (None: a cluster's)."""
    import os

    if run_options.get("cluster"):
        return None
    return run_options.get("workers") or os.cpu_count() or 1


def plan_run_check(cfg: Any, run_dir: str | Path, bot: str | None = None, first: int = FIRST,
                   most: int = MOST, minutes: float = BUDGET_MINUTES,
                   cores: int | None = 1) -> Plan:
    """``run_check``'s plan (``check_plan.plan_check``), for a command to say before any
    game is played."""
    return plan_check([(strong_config(cfg, bot, first), strong_dir(run_dir, bot))], first,
                      most, minutes, cores)


class Pace:
    """Before each pass after the first, whether it fits what is left of ``plan``'s time
    budget at the check's own pace since it started (a busy machine is slower than the
    pilot's CPU time); says the pass it plays, or why it stops. ``held`` games a cell were
    in the check's directories before it started (a resumed check)."""

    def __init__(self, plan: Plan, say: Callable[[str], None], held: int = 0):
        self.plan, self.say, self.held_before = plan, say, held
        self.start = time.monotonic()

    def next_pass(self, held: int, games: int) -> bool:
        plan, name = self.plan, self.plan.bot
        spent = time.monotonic() - self.start
        played = held - self.held_before
        need = (games - held) * spent / played if played > 0 else plan.seconds(games - held)
        if plan.budget is not None and spent + need > plan.budget:
            self.say(f"strong-play check ({name}): {held:,} -> {games:,} games a cell would "
                     f"take {minutes_text(need)} more at this pace, beyond the "
                     f"{plan.minutes:g}-minute budget: stopping here")
            return False
        left = f", {minutes_text(need)}" if plan.cores else ""
        self.say(f"strong-play check ({name}): playing {held:,} -> {games:,} games a cell{left}")
        return True


def run_check(cfg: Any, run_dir: str | Path, bot: str | None = None, first: int = FIRST,
              most: int = MOST, say: Callable[[str], None] | None = None,
              minutes: float = BUDGET_MINUTES, plan: Plan | None = None,
              **run_options: Any):
    """Play the check into ``strong_dir(run_dir, bot)`` until every cell's sequential
    verdict is decided or its cap (``plan``, else ``plan_run_check`` with ``most`` and
    ``minutes``, said first), each pass after the first only when it fits the budget at the
    check's pace (``Pace``); returns (config, directory, outcome, why, plan)
    (``sim.runner.run_until_decided``: why is "decided" or "budget")."""
    from imhotep_stats.sim.runner import held_games, run_until_decided

    say = say or (lambda _m: None)
    out = strong_dir(run_dir, bot)
    if plan is None:
        plan = plan_run_check(cfg, run_dir, bot, first, most, minutes,
                              _cores(run_options))
        for line in plan.lines():
            say(line)
    check = strong_config(cfg, bot, plan.first)  # the first look the budget allows

    def look(games: int) -> int:
        played.append(games)
        verdicts, _manifest = seat_verdicts_of(out)
        open_ = sum(v.verdict == "inconclusive" for v in verdicts.values())
        say(f"strong-play check ({strong_bot(bot)}): {games:,} games a cell, "
            f"{len(verdicts) - open_} of {len(verdicts)} cells decided")
        # an undecided cell asks for more until the budget ends: few games, few looks
        return max((wanted(v.verdict, v.more_games, v.games)
                    or (v.games if v.verdict == "inconclusive" else 0)
                    for v in verdicts.values()), default=0)

    played: list[int] = []
    pace = Pace(plan, say, held_games(check, out))
    outcome, why = run_until_decided(check, out, look, max_games=max(plan.cap, check.games),
                                     before_pass=pace.next_pass, **run_options)
    plan = replace(plan, cap=min(plan.cap, played[-1])) if why == "budget" else plan
    save_plan(out, plan)  # what the check reached: asked again the same way, re-reported
    return check, out, outcome, why, plan


def stop_text(why: str, games: int, plan: Plan) -> str:
    """Why the check stopped, in words."""
    if why == "decided":
        return "every cell decided"
    budget = f" (the {plan.minutes:g}-minute budget)" if games < plan.most else ""
    return f"undecided after {games:,} games a cell{budget}"


def undecided_sentence(c: CellInfo) -> str | None:
    """For a cell the check left undecided: how far any seat could be from its fair share,
    by each seat's confidence sequence at the verdict's level (Bonferroni over the seats;
    valid at this stopping point however the passes went); None for a decided cell."""
    from imhotep_stats.stats.sequential import PRIOR_SD, confidence_sequence

    v = c.verdict
    if v is None or v.verdict != "inconclusive" or not v.games:
        return None
    k = len(v.win_rates)
    far = 0.0
    for rate in v.win_rates:
        lo, hi = confidence_sequence(rate * v.games, v.games, v.alpha / k, v.expected,
                                     PRIOR_SD * v.margin)
        far = max(far, v.expected - lo, hi - v.expected)
    return (f"Undecided after {v.games:,} games: no verdict for strong play yet; a seat "
            f"could be up to ±{far * 100:.1f} pp from its fair share "
            f"({1 - v.alpha:.0%} confidence sequences).")


@dataclass(frozen=True)
class Holds:
    """One screen cell against the strong cell of the same sides and players."""

    screen: CellInfo
    strong: CellInfo
    test: LineupTest | None  # seat x lineup, screen against strong (None: a side has no games)

    @property
    def bot_dependent(self) -> bool:
        return self.test is not None and self.test.p <= self.test.alpha


def pairs(screen: ReportData, strong: ReportData) -> list[Holds]:
    """Each screen cell with the strong cell of its sides and player count."""
    by = {(c.sides, c.players): c for c in strong.cells}
    out = []
    for c in screen.cells:
        s = by.get((c.sides, c.players))
        if s is None:
            continue
        test = None
        if c.verdict and s.verdict and c.games and s.games:
            test = lineup_test([[r * c.games for r in c.verdict.win_rates],
                                [r * s.games for r in s.verdict.win_rates]],
                               [c.games, s.games], alpha=c.verdict.alpha)
        out.append(Holds(c, s, test))
    return out


def _seat_words(h: Holds) -> str:
    t = h.test
    s = t.seat
    return (f"seat {s + 1} wins {f.pct(t.rates[0][s])} with {','.join(h.screen.lineup)} but "
            f"{f.pct(t.rates[1][s])} with {','.join(h.strong.lineup)} (fair share "
            f"{f.pct(1 / h.screen.players)})")


def holds_sentence(h: Holds) -> str:
    """Whether the screen's verdict holds for strong play, in words."""
    screen = ",".join(h.screen.lineup)
    if h.test is None:
        return f"Whether the {screen} screen holds for strong play: not tested (no games)."
    p = "p < 0.001" if h.test.p < 0.001 else f"p = {h.test.p:.3f}"
    if h.bot_dependent:
        return (f"Bot-dependent: the seat effect differs between {screen} and strong play "
                f"(seat x lineup test {p}): {_seat_words(h)}; the {screen} screen's verdict "
                "does not carry over to good players.")
    return (f"The {screen} screen and strong play agree as far as the check can tell: no "
            f"difference detected (seat x lineup test {p}); {could_miss(h.test.missable)}.")


def check_sentences(screen: ReportData, strong: ReportData) -> list[str]:
    """The answer led by strong play: per cell, the strong-play verdict, then the screen's,
    then whether they agree, then the trust line naming both lineups' bots."""
    board = screen.manifest.get("board", {}) if isinstance(screen.manifest, Mapping) else {}
    paras = []
    for h in pairs(screen, strong):
        s, c = h.strong, h.screen
        head = f"{c.sides}, {c.players} players"
        lines = [f"{head}, for strong play ({','.join(s.lineup)}, {s.games:,} games): "
                 + (verdict_text(s.verdict) if s.verdict else "no games") + ".",
                 *filter(None, [undecided_sentence(s)]),
                 f"With {','.join(c.lineup)} ({c.games:,} games): "
                 + (verdict_text(c.verdict) if c.verdict else "no games") + ".",
                 holds_sentence(h),
                 trust_line((*s.lineup, *c.lineup), screen.margin, basis(c.players, c.sides),
                            c.sides, board)]
        paras.append("\n".join(lines))
    return paras


def check_json(screen: ReportData, strong: ReportData) -> list[dict[str, Any]]:
    """The check per cell, for --json and summary files."""
    return [{"sides": h.screen.sides, "players": h.screen.players,
             "screen": {"lineup": list(h.screen.lineup), "games": h.screen.games,
                        "verdict": h.screen.verdict.verdict if h.screen.verdict else None},
             "strong": {"lineup": list(h.strong.lineup), "games": h.strong.games,
                        "verdict": h.strong.verdict.verdict if h.strong.verdict else None,
                        "text": h.strong.verdict.text if h.strong.verdict else None,
                        "undecided": undecided_sentence(h.strong)},
             "bot_dependent": h.bot_dependent,
             "p": None if h.test is None else h.test.p,
             "missable": None if h.test is None else h.test.missable,
             "sentence": holds_sentence(h)} for h in pairs(screen, strong)]


def compare_check(base_cfg: Any, whatif_cfg: Any, out: str | Path, bot: str | None = None,
                  first: int = FIRST, most: int = MOST, margin: float = 0.05,
                  say: Callable[[str], None] | None = None, minutes: float = BUDGET_MINUTES,
                  **run_options: Any):
    """``compare --strong``: the base and the what-if played by ``bot`` in every seat on the
    same seeds (paired, as the screen), in lockstep passes that at most double, until every
    cell's paired seat finding is settled (a seat shown to move by more than the margin,
    or every change shown within it) or the cap (``plan_check`` with ``most`` and
    ``minutes``, said first), each pass after the first only when it fits the budget at the
    check's pace (``Pace``, as ``run_check``). Asked again, the paired intervals are confidence sequences
    (``stats.compare``). Returns (comparison, games)."""
    from imhotep_stats.sim.runner import held_games, run_study
    from imhotep_stats.stats.compare import compare_runs, seat_findings

    say = say or (lambda _m: None)
    out = Path(out)
    dirs = (out / f"strong-{strong_bot(bot)}-base", out / f"strong-{strong_bot(bot)}-whatif")
    plan = plan_check([(strong_config(base_cfg, bot, first), dirs[0]),
                       (strong_config(whatif_cfg, bot, first), dirs[1])],
                      first, most, minutes, _cores(run_options))
    for line in plan.lines():
        say(line)
    pairs = [(strong_config(base_cfg, bot, plan.first), dirs[0]),
             (strong_config(whatif_cfg, bot, plan.first), dirs[1])]
    alpha = 1.0 - base_cfg.confidence
    games = plan.first  # the first look the budget allows
    pace = Pace(plan, say, min(held_games(cfg, d) for cfg, d in pairs))
    while True:
        for cfg, d in pairs:
            run_study(cfg.replace(games=games), d, resume=(d / "manifest.json").exists(),
                      keep_seed=True, sequential=games > plan.first, **run_options)
        comp = compare_runs(pairs[0][1], pairs[1][1], base_cfg.confidence)
        open_ = [fd for fd in seat_findings(comp, margin, alpha) if not (fd.beyond or fd.within)]
        say(f"strong-play check ({strong_bot(bot)}): {games:,} games a cell, "
            f"{'every cell settled' if not open_ else f'{len(open_)} cell(s) open'}")
        if not open_ or games >= plan.cap:
            break
        if not pace.next_pass(games, min(plan.cap, 2 * games)):
            plan = replace(plan, cap=games)  # what it reached: asked again, re-reported
            break
        games = min(plan.cap, 2 * games)
    for _cfg, d in pairs:
        save_plan(d, plan)
    return comp, games

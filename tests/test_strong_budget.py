"""The strong-play check's budget (issue 45 item 5, `make run` with the check on): before
any game it says what it will play and about how long on this machine's cores; it stops at
the last pass that fits its time budget, and a cell it leaves undecided says so with how far
its seats could be from their fair share, never "balanced"; off a terminal a slow run still
shows its progress."""

from __future__ import annotations

import io
import json

import pytest
from click.testing import CliRunner

from imhotep_stats.cli import main
from imhotep_stats.config.quick import quick_study
from imhotep_stats.reporting.check_plan import fewest_deciding, passes, plan_check
from imhotep_stats.reporting.figures import CellInfo
from imhotep_stats.reporting.strong import strong_config, strong_dir, undecided_sentence
from imhotep_stats.sim import cost
from imhotep_stats.sim.progress import Progress
from imhotep_stats.stats.sequential import PRIOR_SD, confidence_sequence
from imhotep_stats.stats.significance import seat_verdict


def test_passes_double_from_the_first_look_to_the_most():
    assert passes(50, 400) == [50, 100, 200, 400]
    assert passes(50, 300) == [50, 100, 200, 300]
    assert passes(50, 30) == [30]


@pytest.fixture
def two_seconds_a_game(monkeypatch):
    """A pilot that measures 2 s of CPU a game in every cell (an expert-like bot)."""
    def fake(cfg, games=None, *_a, **_k):
        return [cost.CellCost(c.id, c.players, c.lineup, games or cfg.games, 2.0, 1)
                for c in cfg.cells]
    monkeypatch.setattr(cost, "pilot_costs", fake)


def _default_study_check(tmp_path):
    cfg = quick_study("A-A-A-A-A", (2, 3, 4), "greedy", 2000, 2026)
    return [(strong_config(cfg), strong_dir(tmp_path / "default"))]


def test_the_cap_is_the_last_pass_that_fits_the_budget(tmp_path, two_seconds_a_game):
    # 3 cells x 2 s a game on 2 cores: 3 s a game a cell; 5 minutes hold 100 games a cell
    plan = plan_check(_default_study_check(tmp_path), 50, 400, 5.0, cores=2)
    assert (plan.cap, plan.capped, plan.seconds(100)) == (100, True, 300.0)
    head, estimate = plan.lines()
    assert "expert in every seat of the same 3 cells, 50 games a cell, then passes that " \
        "double until every cell is decided, at most 100 a cell (what fits in 5 min; " \
        "--strong-minutes M plays more, up to --strong-games 400); --quick skips it" in head
    assert estimate == ("  estimate: about 2 min for the first 50 games a cell, about 5 min "
                        "at most on 2 cores (2.00 s of CPU a game by the pilot)")
    # no time budget, or a budget that holds every pass: the most
    assert plan_check(_default_study_check(tmp_path), 50, 400, 0, cores=2).cap == 400
    assert plan_check(_default_study_check(tmp_path), 50, 400, 60, cores=2).cap == 400
    # a cluster's cores are not counted here: no estimate, no time budget
    on_cluster = plan_check(_default_study_check(tmp_path), 50, 400, 5.0, cores=None)
    assert on_cluster.cap == 400 and "on a cluster (no estimate)" in on_cluster.lines()[0]


def test_the_first_look_fits_the_budget_too(tmp_path, two_seconds_a_game):
    # 3 s a game a cell (as above): 1 minute holds 20 games a cell, not the usual 50
    plan = plan_check(_default_study_check(tmp_path), 50, 400, 1.0, cores=2)
    assert (plan.first, plan.cap, plan.over) == (20, 20, 0.0)
    head, estimate = plan.lines()
    assert "expert in every seat of the same 3 cells, 20 games a cell and no more, fewer than " \
        "the usual first look of 50 (what fits in 1 min; --strong-minutes M plays more, up " \
        "to --strong-games 400); --quick skips it" in head
    assert estimate.startswith("  estimate: about 1 min for the first 20 games a cell")
    # 6 s hold 2 games a cell, but a 2-player cell needs 4 to decide anything: 4, said as
    # past the budget and by how much
    assert fewest_deciding(2, 0.05, 0.05, 50) == 4
    plan = plan_check(_default_study_check(tmp_path), 50, 400, 0.1, cores=2)
    assert (plan.first, plan.cap, plan.seconds(4), plan.over) == (4, 4, 12.0, 6.0)
    assert "4 games a cell and no more (fewer cannot decide a cell): under a minute, past " \
        "the 0.1-minute budget by under a minute (--strong-minutes M" in plan.lines()[0]
    # asked again the same way after it finished: the same first look and cap, no pilot
    assert plan.to_json()["first"] == 50


def test_a_busy_machine_shrinks_the_plan(tmp_path, monkeypatch, two_seconds_a_game):
    """A pilot that took 4x its CPU time on the clock (a machine shared with other work):
    every estimate is 4x, so 5 minutes hold 25 games a cell, not 100."""
    from imhotep_stats.reporting import check_plan

    class Busy:  # the pilot's CPU: 1 s on each reading; the clock: 4 s
        cpu = clock = 0.0

        def process_time(self):
            self.cpu += 1.0
            return self.cpu

        def monotonic(self):
            self.clock += 4.0
            return self.clock

    monkeypatch.setattr(check_plan, "time", Busy())
    plan = plan_check(_default_study_check(tmp_path), 50, 400, 5.0, cores=2)
    assert (plan.busy, plan.first, plan.cap) == (4.0, 25, 25)
    assert plan.lines()[1].endswith("(2.00 s of CPU a game by the pilot, 4.0x that on the "
                                    "clock: a busy machine)")


def test_run_plays_a_first_look_that_fits_the_budget(tmp_path, two_seconds_a_game):
    # 2 s a game, one cell, one worker: 30 s hold 15 games a cell, not the usual 50
    out = tmp_path / "r"
    r = _run(out, "--strong-minutes", "0.5")
    assert r.exit_code == 0, r.output
    assert "15 games a cell and no more, fewer than the usual first look of 50" in r.stderr
    check = out.with_name("r-strong-random")
    assert json.loads((check / "manifest.json").read_text())["games_per_cell"] == 15


def _cell(wins, games):
    return CellInfo(0, "x", "A-A-A-A-A", len(wins), ("expert",), games,
                    verdict=seat_verdict(wins, games, 0.05))


def test_an_undecided_cell_says_how_far_its_seats_could_be_never_balanced():
    c = _cell([52, 48], 100)
    assert c.verdict.verdict == "inconclusive"
    text = undecided_sentence(c)
    assert text.startswith("Undecided after 100 games: no verdict for strong play yet; a "
                           "seat could be up to ±")
    assert "balanced" not in text and "95% confidence sequences" in text
    # the bound is the widest seat's confidence sequence (Bonferroni over the 2 seats)
    far = max(max(0.5 - lo, hi - 0.5) for lo, hi in (
        confidence_sequence(w, 100, 0.025, 0.5, PRIOR_SD * 0.05) for w in (52, 48)))
    assert f"±{far * 100:.1f} pp" in text
    assert far > 0.1  # 100 games cannot place a seat within the ±5 pp margin
    # a decided cell needs no such sentence
    assert undecided_sentence(_cell([1400, 600], 2000)) is None


def _run(out, *flags, games=60):
    return CliRunner().invoke(main, ["run", "--sides", "A-A-A-A-A", "--players", "2",
                                     "--bots", "greedy", "--games", str(games), "--strong",
                                     "--strong-bot", "random", "--workers", "1", "--out",
                                     str(out), *flags])


def test_run_says_the_plan_first_and_stops_at_the_budget_undecided(tmp_path,
                                                                  two_seconds_a_game):
    out = tmp_path / "r"
    r = _run(out, "--strong-minutes", "2")  # 2 s a game: the first look only (60 fit)
    assert r.exit_code == 0, r.output
    err = r.stderr.splitlines()
    plan = next(i for i, line in enumerate(err) if line.startswith("strong-play check: "))
    screen = next(i for i, line in enumerate(err) if line.startswith(f"{out}: 60 games"))
    assert plan < screen  # said before any game
    assert "at most 50 a cell (what fits in 2 min;" in err[plan]
    assert err[plan + 1].startswith("  estimate: about 2 min for the first 50 games a cell")
    assert f"{out}-strong-random: strong-play check, 50 games (undecided after 50 games a " \
        "cell (the 2-minute budget))" in r.stderr
    assert "Undecided after 50 games: no verdict for strong play yet; a seat could be up " \
        "to ±" in r.stdout
    check = out.with_name("r-strong-random")
    assert json.loads((check / "manifest.json").read_text())["games_per_cell"] == 50
    # asked again the same way: re-reported, not played further on a new pilot's figures
    r = _run(out, "--strong-minutes", "2")
    assert r.exit_code == 0, r.output
    assert "strong-play check: finished before, 50 games a cell at most as planned then: " \
        "re-reported" in r.stderr
    assert json.loads((check / "manifest.json").read_text())["games_per_cell"] == 50


def test_the_passes_are_said_as_they_start_and_double(tmp_path):
    # a screen of 20 games: a first look of 20, then passes that double, the last capped
    r = _run(tmp_path / "r", "--strong-minutes", "0", "--strong-games", "70", games=20)
    assert r.exit_code == 0, r.output
    assert "strong-play check (random): playing 20 -> 40 games a cell, under a minute" in r.stderr
    assert "strong-play check (random): playing 40 -> 70 games a cell, under a minute" \
        in r.stderr


def test_off_a_terminal_a_slow_run_writes_plain_progress_lines():
    buf = io.StringIO()  # not a terminal
    bar = Progress(12, stream=buf, log_every=0.0)
    bar.set_estimate(5 * 60.0)
    assert buf.getvalue() == ""  # no bar drawn
    bar.update(1)
    line = buf.getvalue()
    assert line.startswith("[") and line.endswith("\n") and "\r" not in line
    assert "1/12 games" in line and "left" in line
    quiet = io.StringIO()
    bar = Progress(12, enabled=False, stream=quiet, log_every=0.0)  # -q: nothing at all
    bar.update(1)
    assert quiet.getvalue() == ""
    slow = io.StringIO()
    bar = Progress(12, stream=slow)  # the default: a line every LOG_EVERY seconds at most
    bar.update(1)
    assert slow.getvalue() == ""


def test_the_docs_quote_the_checks_defaults():
    from pathlib import Path

    from imhotep_stats.reporting.check_plan import BUDGET_MINUTES, FIRST, MOST
    from imhotep_stats.sim.progress import LOG_EVERY

    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text(encoding="utf-8")
    guide = " ".join((root / "docs" / "designers-guide.md").read_text(encoding="utf-8").split())
    assert f"for at most about {BUDGET_MINUTES:g} minutes on this machine's cores" in " ".join(
        readme.split())
    assert "`make run RUN_ARGS=--quick` plays the screen alone" in readme
    assert (f"the reference bot in every seat, {FIRST} games a cell, then passes that at most "
            f"double until every verdict is decided or the check's cap") in guide
    assert f"`--strong-games` ({MOST}) a cell" in guide
    assert f"`--strong-minutes` ({BUDGET_MINUTES:g})" in guide
    assert f"a plain line every {LOG_EVERY:g} s when stderr is no terminal" in guide


@pytest.fixture
def ten_minutes_a_look(monkeypatch):
    """The check's clock: every reading 10 minutes after the last."""
    from imhotep_stats.reporting import strong

    class Slow:
        now = 0.0

        def monotonic(self):
            self.now += 600.0
            return self.now

    monkeypatch.setattr(strong, "time", Slow())


def test_a_pass_beyond_the_budget_at_this_runs_pace_is_not_played(tmp_path, monkeypatch,
                                                                  ten_minutes_a_look):
    """A busy machine is slower than the pilot's CPU time: before each pass the check
    measures its own pace and stops when the pass would end past its budget."""
    out = tmp_path / "r"
    r = _run(out, "--strong-minutes", "15", "--strong-games", "70", games=20)
    assert r.exit_code == 0, r.output
    assert "at most 70 a cell" in r.stderr  # the pilot's plan: every pass fits
    assert "strong-play check (random): 20 -> 40 games a cell would take about 10 min more " \
        "at this pace, beyond the 15-minute budget: stopping here" in r.stderr
    assert "strong-play check, 20 games (undecided after 20 games a cell (the 15-minute " \
        "budget))" in r.stderr
    assert "Undecided after 20 games: " in r.stdout
    check = out.with_name("r-strong-random")
    assert json.loads((check / "manifest.json").read_text())["games_per_cell"] == 20
    monkeypatch.undo()
    r = _run(out, "--strong-minutes", "15", "--strong-games", "70", games=20)
    assert "finished before, 20 games a cell at most as planned then: re-reported" in r.stderr
    assert json.loads((check / "manifest.json").read_text())["games_per_cell"] == 20


def test_compare_stops_a_pass_beyond_the_budget_at_its_pace(tmp_path, monkeypatch,
                                                            ten_minutes_a_look):
    """compare's paired check measures its pace before each pass as run's does (``Pace``)."""
    out = tmp_path / "c"
    args = ["compare", "--sides", "A-A-A-A-A", "--players", "2", "--bots", "greedy",
            "--param", "game.starting_sled[0]=3", "--games", "20", "--strong", "--strong-bot",
            "random", "--strong-games", "70", "--strong-minutes", "15", "--workers", "1",
            "--out", str(out)]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    assert "at most 70 a cell" in r.stderr  # the pilot's plan: every pass fits
    assert "strong-play check (random): 20 -> 40 games a cell would take about 10 min more " \
        "at this pace, beyond the 15-minute budget: stopping here" in r.stderr
    assert r.stdout.startswith("For strong play (random, 20 games a cell): ")
    for side in ("base", "whatif"):
        check = out / f"strong-random-{side}"
        assert json.loads((check / "manifest.json").read_text())["games_per_cell"] == 20
        assert json.loads((check / "check.json").read_text())["cap"] == 20
    monkeypatch.undo()  # asked again the same way: re-reported, not played further
    r = CliRunner().invoke(main, args)
    assert "finished before, 20 games a cell at most as planned then: re-reported" in r.stderr
    assert json.loads((out / "strong-random-base" / "manifest.json").read_text()
                      )["games_per_cell"] == 20

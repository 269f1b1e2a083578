"""Every look counted (issue 46, items 1 and 2): the ledger of looks (``sim/looks.py``) knows
which games of which cell were judged, across run directories, ``--force`` and renamed
studies; a re-look is judged sequentially and says so, a confirmation of a cell chosen among
others plays fresh games and says so."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from imhotep_stats.config import parse_config
from imhotep_stats.reporting.figures import compute
from imhotep_stats.sim import looks
from imhotep_stats.sim.runner import run_study
from imhotep_stats.sim.store import load_manifest, load_results
from tests.helpers import cli

ROOT = Path(__file__).resolve().parents[1]


def study(name="looks", games=20, seed=4, obelisk=("A", "B")):
    return parse_config({
        "study": {"name": name, "seed": seed, "games": games, "players": [2]},
        "sides": {"obelisk": list(obelisk)}, "bots": {"lineup": ["random"]},
        "run": {"batch_size": 10}})


def wins(run_dir, sides):
    df = load_results(run_dir).collect()
    return df.filter((df["sides"] == sides) & (df["seat"] == 0))["win_share"].to_list()


def test_plan_replays_a_relook_and_gives_a_chosen_cell_fresh_games():
    two, one = study(), study(obelisk=("B",))
    ledger = []
    assert looks.plan(two, ledger).prior == []
    entry = {"seed": 4, "run": "a", "run_id": "x", "kind": "sweep", "time": "t",
             "cells": {looks.cell_key(two, c): [0, 20] for c in two.cells}}
    relook = looks.plan(two, [entry])  # the same cells again: same games, a later look
    assert relook.seed == 4 and relook.seed_from is None and relook.prior[0]["games"] == [0, 20]
    chosen = looks.plan(one, [entry])  # one cell of the two: chosen, so fresh games
    assert chosen.seed_from == 4 and chosen.seed == looks.fresh_seed(4, 1) and not chosen.prior
    # an explicit seed is kept, and its note will say the cell was chosen on these games
    kept = looks.plan(one, [entry], keep_seed=True)
    assert kept.seed == 4 and kept.chosen_from == 2
    # the first derived seed used too: the next one
    used = dict(entry, seed=looks.fresh_seed(4, 1))
    assert looks.plan(one, [entry, used]).seed == looks.fresh_seed(4, 2)
    # games beyond those looked at, or this run's own passes, are no earlier look
    assert looks.plan(two.replace(games=20), [dict(entry, cells={
        k: [20, 40] for k in entry["cells"]})]).prior == []
    assert looks.plan(two, [entry], run_id="x").prior == []


def test_the_cell_key_tells_what_makes_a_game_the_same():
    a = study()
    c = a.cells[0]
    assert looks.cell_key(a, c) == looks.cell_key(a.replace(name="other", games=5), c)
    assert looks.cell_key(a, c) != looks.cell_key(
        a.replace(overrides_json='{"game": {"starting_sled": [2, 3, 4, 5]}}'), c)


def test_a_cut_short_ledger_line_is_skipped(tmp_path):
    path = tmp_path / "l.jsonl"
    looks.record(path, study(), tmp_path / "r", "id1", "run")
    with path.open("a") as fh:
        fh.write('{"seed": 4, "cel')  # a write cut short
    assert [e["run_id"] for e in looks.read(path)] == ["id1"]


def test_force_with_more_games_is_a_later_look_judged_sequentially(tmp_path):
    ledger = tmp_path / "l.jsonl"
    run_study(study(), tmp_path / "r", workers=1, ledger=ledger)
    assert not compute(tmp_path / "r").sequential  # one look: fixed-sample
    run_study(study(games=40), tmp_path / "r", workers=1, force=True, ledger=ledger)
    data = compute(tmp_path / "r")
    note = next(n for n in data.global_notes if n.startswith("Sequential verdicts"))
    assert data.sequential and "games 0-19 judged before by run" in note
    assert "at most 2 x 5% = 10%" in note
    # another directory, another name: the same games, counted too
    run_study(study(name="renamed", games=40), tmp_path / "s", workers=1, ledger=ledger)
    prior = load_manifest(tmp_path / "s")["looks"]["prior"]
    assert [p["games"] for p in prior] == [[0, 20], [0, 40]]
    assert wins(tmp_path / "s", "A-A-A-A-A") == wins(tmp_path / "r", "A-A-A-A-A")


def test_without_a_ledger_nothing_is_counted(tmp_path):
    run_study(study(), tmp_path / "r", workers=1)
    run_study(study(), tmp_path / "s", workers=1)
    assert "looks" not in load_manifest(tmp_path / "s")
    assert not compute(tmp_path / "s").sequential


def test_a_confirmation_after_a_sweep_plays_fresh_games_and_resumes_them(tmp_path):
    ledger = Path(os.environ[looks.LEDGER_ENV])
    res = cli("sweep", "--sides", "A-A-A-A-all", "--players", "2", "--bots", "random",
              "--games", "30", "--out", tmp_path / "sw", "-q")
    assert res.exit_code == 0, res.output
    assert "Confirm a combination on fresh games" in res.output
    top = "A-A-A-A-B"
    res = cli("run", "--sides", top, "--players", "2", "--bots", "random", "--games", "30",
              "--out", tmp_path / "c")
    assert res.exit_code == 0, res.output
    assert "fresh games" in res.stderr
    seen = load_manifest(tmp_path / "c")["looks"]
    assert seen["seed_from"] == 2026 and seen["seed"] == looks.fresh_seed(2026, 1)
    assert wins(tmp_path / "c", top) != wins(tmp_path / "sw", top)  # not the sweep's games
    report = (tmp_path / "c" / "report.md").read_text()
    assert "Fresh games" in report and "seed 2026" in report
    # asked again: the same run, resumed (nothing played), not yet another seed
    again = cli("run", "--sides", top, "--players", "2", "--bots", "random", "--out",
                tmp_path / "c")
    assert again.exit_code == 0, again.output
    assert "0 played now" in again.stderr
    assert load_manifest(tmp_path / "c")["looks"]["seed"] == seen["seed"]
    # --seed 2026 replays the sweep's games: a later look, and no confirmation
    res = cli("run", "--sides", top, "--players", "2", "--bots", "random", "--games", "30",
              "--seed", "2026", "--out", tmp_path / "replay")
    assert res.exit_code == 0, res.output
    assert wins(tmp_path / "replay", top) == wins(tmp_path / "sw", top)
    text = (tmp_path / "replay" / "report.md").read_text()
    assert "no confirmation" in text and "judged 4 cells" in text
    kinds = [e["kind"] for e in looks.read(ledger)]
    assert kinds.count("sweep") >= 1 and kinds.count("run") == 2


def test_make_run_resumes_instead_of_forcing():
    text = (ROOT / "Makefile").read_text()
    line = next(x for x in text.splitlines() if x.startswith("RUN_ARGS"))
    assert "--force" not in line


@pytest.mark.parametrize("kind", ["run", "sweep"])
def test_the_ledger_line_names_run_seed_and_games(tmp_path, kind):
    path = tmp_path / "l.jsonl"
    looks.record(path, study(), tmp_path / "r", "id", kind, {0: (0, 35)})
    entry = json.loads(path.read_text())
    assert entry["kind"] == kind and entry["seed"] == 4 and entry["study"] == "looks"
    assert sorted(entry["cells"].values()) == [[0, 20], [0, 35]]


def test_sweep_confirm_k_plays_the_top_cells_on_fresh_games(tmp_path):
    res = cli("sweep", "--sides", "A-A-A-A-all", "--players", "2", "--bots", "random",
              "--games", "30", "--out", tmp_path / "sw", "--confirm", "2", "--workers", "1")
    assert res.exit_code == 0, res.output
    assert "Confirmation on fresh games (Holm over the confirmed cells)" in res.stdout
    data = json.loads((tmp_path / "sw" / "sweep.json").read_text())
    rows = data["confirm"]
    assert [r["rank"] for r in rows] == [1, 2]
    assert [(r["sides"], r["players"]) for r in rows] == [
        (c["sides"], c["players"]) for c in data["all_cells"][:2]]
    for r in rows:
        assert r["seed"] == looks.fresh_seed(2026, 1) and r["games"] == 30
        seen = load_manifest(r["run_dir"])["looks"]
        assert seen["seed_from"] == 2026 and not seen["prior"]
        assert wins(r["run_dir"], r["sides"]) != wins(tmp_path / "sw", r["sides"])
    # asked again: the confirmations are resumed, not played on yet other games
    again = cli("sweep", "--sides", "A-A-A-A-all", "--players", "2", "--bots", "random",
                "--games", "30", "--out", tmp_path / "sw", "--confirm", "2", "--json", "-q")
    assert again.exit_code == 0, again.output
    assert [r["seed"] for r in json.loads(again.stdout)["confirm"]] == [r["seed"] for r in rows]

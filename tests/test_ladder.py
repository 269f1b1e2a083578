"""The skill ladder and the bots' evidence tables as commands: games into JSON Lines
(resumable, the same with 1 or 2 workers, seats rotated as a study rotates them), the Markdown
report with head-to-head win rates and Bradley-Terry ratings, and `evaluate`'s tables."""

from __future__ import annotations

import json

from imhotep_stats.config import Cell
from imhotep_stats.sim.headtohead import read_records
from imhotep_stats.stats import ladder
from tests.helpers import cli


def play(out, lineup, players, games, workers=1, *flags):
    return cli("ladder", "play", "--lineup", lineup, "--players", players, "--games", games,
               "--workers", workers, "--out", out, *flags)


def test_play_resumes_and_does_not_depend_on_workers(tmp_path):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert "12 games played" in play(one, "greedy,random", 2, 12, 1, "--timed").stderr
    assert "0 games played" in play(one, "greedy,random", 2, 12).stderr  # all there
    play(two, "greedy,random", 2, 5, 2)
    assert "7 games played" in play(two, "greedy,random", 2, 12, 2).stderr  # resumed
    records = read_records(one)
    # --timed: each seat's CPU seconds in its bot; they are the one field timing changes
    assert all(len(r["cpu"]) == 2 and min(r["cpu"]) >= 0 for r in records)
    assert sum(r["cpu"][r["bots"].index("greedy")] for r in records) > 0
    def untimed(path):
        return [{k: v for k, v in r.items() if k != "cpu"} for r in read_records(path)]
    assert untimed(one) == untimed(two)
    assert [r["game"] for r in records] == list(range(12))
    # seats rotate as in a study (Cell.seat_bots): greedy first in even games, second in odd
    assert [r["bots"] for r in records[:2]] == [["greedy", "random"], ["random", "greedy"]]


def test_untimed_games_are_played_by_the_core_and_are_the_timed_games(tmp_path):
    core, timed = tmp_path / "core.jsonl", tmp_path / "timed.jsonl"
    assert "(timed)" not in play(core, "random", 3, 9).stderr
    assert "9 games played into" in play(timed, "random", 3, 9, 1, "--timed").stderr
    assert all("cpu" not in r for r in read_records(core))  # the core times no seat
    assert all(len(r["cpu"]) == 3 for r in read_records(timed))
    assert read_records(core) == [{k: v for k, v in r.items() if k != "cpu"}
                                  for r in read_records(timed)]


def test_three_bots_at_four_players_sit_in_every_seat_equally(tmp_path):
    """The study's rotation, not (s + i) % k: over 4 games each lineup entry of the table
    (the lineup repeated to 4) takes every seat once."""
    out = tmp_path / "l.jsonl"
    play(out, "greedy,random,pyramid", 4, 4)
    seats = [r["bots"] for r in read_records(out)]
    cell = Cell(0, "A-A-A-A-A", 4, ("greedy", "random", "pyramid"))
    assert seats == [cell.seat_bots(i) for i in range(4)]
    old = [["greedy", "random", "pyramid"][(s + 1) % 3] for s in range(4)]
    assert seats[1] != old  # (s + i) % 3 would put random on seats 1 and 4 in game 1


def test_report_has_win_rates_and_ratings(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    play(a, "greedy,random", 2, 10)
    play(b, "pyramid,random,greedy", 3, 6)
    r = cli("ladder", "report", a, b)
    assert r.exit_code == 0
    text = r.stdout
    assert "| a.jsonl | 2 | A-A-A-A-A | greedy | 10 | 100.0% (72.2-100.0) |" in text
    assert "Bradley-Terry ratings, sides A-A-A-A-A" in text
    rating = {line.split("|")[1].strip(): int(line.split("|")[2]) for line in text.splitlines()
              if line.startswith("| ") and line.count("|") == 5 and "to" in line}
    assert rating["random"] < 0 < rating["greedy"]  # random lost every game to greedy


def test_old_files_are_read_and_bad_lineups_refused(tmp_path):
    old = tmp_path / "old.jsonl"  # a record as the former `python -m ...stats.ladder` wrote
    old.write_text(json.dumps({"game": 0, "sides": "A-A-A-A-A", "players": 2, "seed": 0,
                               "bots": ["greedy", "random"], "totals": [40, 20],
                               "ranks": [1, 2], "win_share": [1.0, 0.0]}) + "\n")
    assert "| old.jsonl | 2 | A-A-A-A-A | greedy | 1 | 100.0%" in cli("ladder", "report", old).stdout
    r = play(tmp_path / "x.jsonl", "greedy,nosuchbot", 2, 2)
    assert r.exit_code == 1 and "nosuchbot" in r.stderr


def test_evaluate_prints_the_tables(tmp_path):
    r = cli("evaluate", "--games", 20, "--personas", "pyramid", "--only", "wins,sides")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert any(line.startswith("| greedy vs random | 20 |") for line in lines)
    assert any(line.startswith("| pyramid.C (A-C-A-A-A) | pyramid:") for line in lines)
    assert not any("Points by source" in line for line in lines)
    assert cli("evaluate", "--only", "nope").exit_code == 2


def test_bootstrap_intervals_count_games_and_the_plot_draws_every_timed_bot(tmp_path):
    a = tmp_path / "a.jsonl"
    play(a, "greedy,random,pyramid", 2, 12)
    records = read_records(a)
    cpu = {"greedy": 0.01, "random": 0.001, "pyramid": 0.02}  # a file with seat timings
    a.write_text("".join(json.dumps(dict(r, cpu=[cpu[b] for b in r["bots"]])) + "\n"
                         for r in records))
    boot = ladder.bootstrap_ratings(ladder.read(a), reps=200)
    assert boot["greedy"][0] == 0.0  # the anchor
    for name, (r, lo, hi, t) in boot.items():
        assert lo <= r <= hi and t == cpu[name], name
    assert boot["random"][2] < boot["pyramid"][0]  # random is far below
    r = cli("ladder", "plot", a, "--out", tmp_path / "l.svg")
    assert r.exit_code == 0, r.output
    svg = (tmp_path / "l.svg").read_text()
    assert svg.startswith("<svg") and all(n in svg for n in cpu)
    text = cli("ladder", "report", a).stdout
    assert "bootstrap 95%" in text and "| 0.01 |" in text  # greedy's CPU a game


def _records(players: int, n: int, seed: int) -> list[dict]:
    import numpy as np

    rng = np.random.default_rng(seed)
    names = ["greedy", "pyramid", "random", "temple"][:players]
    out = []
    for i in range(n):
        bots = [names[(s + i) % players] for s in range(players)]
        ranks = (rng.permutation(players) + 1).tolist()
        if "random" in bots:  # random never wins
            r = bots.index("random")
            worst = ranks.index(players)
            ranks[r], ranks[worst] = ranks[worst], ranks[r]
        out.append({"game": i, "sides": "A-A-A-A-A", "players": players, "seed": 0,
                    "bots": bots, "ranks": ranks, "totals": [40 - 5 * r for r in ranks],
                    "win_share": [float(r == 1) for r in ranks]})
    return out


def test_ratings_per_player_count_with_the_prior_stated(tmp_path):
    """Files with different player counts get one fit each, the prior (an option, default
    0.5) is printed with the ratings, and the intervals are clustered by game."""
    files = {tmp_path / "three.jsonl": _records(3, 60, 1),
             tmp_path / "four.jsonl": _records(4, 60, 2)}
    for path, records in files.items():
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
    text = ladder.report(list(files))
    assert "sides A-A-A-A-A, 3 players" in text and "sides A-A-A-A-A, 4 players" in text
    assert "prior 0.5 pseudo-wins both ways per pair" in text
    assert "intervals clustered by game" in text
    assert "prior 2 pseudo-wins" in ladder.report(list(files), prior=2.0)
    # Random never won: without a prior its rating is infinite, and the report says so.
    assert "not identified" in ladder.report(list(files), prior=0.0)
    r = ladder.ratings(files[tmp_path / "four.jsonl"])
    assert r.variance == "cluster sandwich" and r.prior == 0.5
    assert r.rating[r.names.index("random")] < min(
        r.rating[i] for i, n in enumerate(r.names) if n != "random")
    r = cli("ladder", "report", "--prior", 1, *files)  # the option, through the CLI
    assert r.exit_code == 0 and "prior 1 pseudo-wins" in r.stdout
    assert cli("ladder", "report", "--prior", -1, *files).exit_code == 2

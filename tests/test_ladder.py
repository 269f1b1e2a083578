"""The skill ladder: games into JSON Lines (resumable, the same with 1 or 2 workers), and
the Markdown report with head-to-head win rates and Bradley-Terry ratings."""

from __future__ import annotations

from imhotep_stats.stats import ladder


def test_play_resumes_and_does_not_depend_on_workers(tmp_path):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert ladder.play(["greedy", "random"], "A-A-A-A-A", 2, 12, 0, 1, one) == 12
    assert ladder.play(["greedy", "random"], "A-A-A-A-A", 2, 12, 0, 1, one) == 0  # all there
    ladder.play(["greedy", "random"], "A-A-A-A-A", 2, 5, 0, 2, two)
    assert ladder.play(["greedy", "random"], "A-A-A-A-A", 2, 12, 0, 2, two) == 7  # resumed
    records = ladder.read(one)
    # the same games whatever the workers; only the measured CPU seconds differ
    assert [dict(r, cpu=None) for r in records] == [dict(r, cpu=None) for r in ladder.read(two)]
    assert all(len(r["cpu"]) == 2 and min(r["cpu"]) >= 0 for r in records)
    assert [r["game"] for r in records] == list(range(12))
    # seats rotate: greedy sits first in even games, second in odd ones
    assert [r["bots"][0] for r in records[:2]] == ["greedy", "random"]


def test_report_has_win_rates_and_ratings(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    ladder.play(["greedy", "random"], "A-A-A-A-A", 2, 10, 0, 1, a)
    ladder.play(["pyramid", "random", "greedy"], "A-A-A-A-A", 3, 6, 0, 1, b)
    text = ladder.report([a, b])
    assert "| a.jsonl | 2 | A-A-A-A-A | greedy | 10 | 100.0% (72.2-100.0) |" in text
    assert "Bradley-Terry ratings, sides A-A-A-A-A" in text
    rows = [line for line in text.splitlines() if line.startswith("| random | -")]
    assert rows  # random is rated below the mean: it lost every comparison to greedy


def test_bootstrap_intervals_count_games_and_the_plot_draws_every_timed_bot(tmp_path):
    a = tmp_path / "a.jsonl"
    ladder.play(["greedy", "random", "pyramid"], "A-A-A-A-A", 2, 12, 0, 1, a)
    boot = ladder.bootstrap_ratings(ladder.read(a), reps=200)
    assert boot["greedy"][0] == 0.0  # the anchor
    for name, (r, lo, hi, cpu) in boot.items():
        assert lo <= r <= hi and cpu >= 0, name
    assert boot["random"][2] < boot["pyramid"][0]  # random is far below
    svg = ladder.plot([a])
    assert svg.startswith("<svg") and all(n in svg for n in ("greedy", "random", "pyramid"))
    assert "bootstrap 95%" in ladder.report([a])

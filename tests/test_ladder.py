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

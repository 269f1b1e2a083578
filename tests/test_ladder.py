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
    assert one.read_text() == two.read_text()
    records = ladder.read(one)
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
                    "bots": bots, "ranks": ranks})
    return out


def test_ratings_per_player_count_with_the_prior_stated(tmp_path, monkeypatch):
    """Files with different player counts get one fit each, the prior (an option, default
    0.5) is printed with the ratings, and the intervals are clustered by game."""
    files = {tmp_path / "three.jsonl": _records(3, 60, 1),
             tmp_path / "four.jsonl": _records(4, 60, 2)}
    monkeypatch.setattr(ladder, "read", lambda p: files[p])
    monkeypatch.setattr(ladder, "head_to_head", lambda records: [])
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

"""``api.run`` offers what ``imhotep-stats run`` offers (issue 47, item 6): passes until
decided and kept games, and the command is a thin adapter over it (the same run either way)."""

from __future__ import annotations

from imhotep_stats import api
from imhotep_stats.sim.store import load_manifest, shard_files
from tests.helpers import cli


def test_api_run_until_decided_with_kept_games_is_the_commands_run(tmp_path):
    cfg = api.quick("A-A-A-A-A", players=2, bots="random", games=20)
    messages: list[str] = []
    r = api.run(cfg, tmp_path / "api", until_decided=True, max_games=60, keep_games=2,
                log=messages.append)
    assert r.stopped in ("decided", "budget") and r.outcome.games >= 20
    assert any(m.startswith("until decided: 20 games per cell") for m in messages)
    assert [p.name for p in r.kept] == ["game-1.html", "game-2.html"]
    assert (r.dir / "report.md").is_file()
    c = cli("run", "--sides", "A-A-A-A-A", "--players", "2", "--bots", "random", "--games",
            "20", "--until-decided", "--max-games", "60", "--keep-games", "2", "--workers",
            "1", "--out", tmp_path / "cli")
    assert c.exit_code == 0, c.output
    mine, theirs = load_manifest(r.dir), load_manifest(tmp_path / "cli")
    assert mine["passes"] == theirs["passes"] and mine["sequential"] == theirs["sequential"]
    assert [p.read_bytes() for p in shard_files(r.dir)] == \
        [p.read_bytes() for p in shard_files(tmp_path / "cli")]
    assert sorted(p.name for p in (tmp_path / "cli" / "games" / "cell-1").iterdir()) == \
        sorted(p.name for p in (r.dir / "games" / "cell-1").iterdir())

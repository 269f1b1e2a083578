"""``show`` and ``replay --rounds`` on the command line: a played game's transcript becomes a
page, its round summary adds up to the final scores, and a bad transcript exits 1 naming
its line."""

from __future__ import annotations

import json

from click.testing import CliRunner

from imhotep_stats.cli import main


def test_show_and_replay_rounds(tmp_path):
    run = CliRunner()
    trace = tmp_path / "game.jsonl"
    r = run.invoke(main, ["play", "--sides", "D-A-C-B-D", "--players", "3", "--bots", "greedy",
                          "--seed", "4", "--trace", str(trace), "--json"])
    assert r.exit_code == 0, r.output
    totals = [s["total"] for s in json.loads(r.output)["seats"]]
    r = run.invoke(main, ["show", str(trace), "--out", str(tmp_path / "g.html")])
    assert r.exit_code == 0, r.output
    assert "decisions, 6 rounds" in r.output
    html = (tmp_path / "g.html").read_text()
    assert html.startswith("<!DOCTYPE html>") and 'id="game-data"' in html
    r = run.invoke(main, ["show", str(trace)])  # default: beside the transcript
    assert r.exit_code == 0 and (tmp_path / "game.html").exists()
    r = run.invoke(main, ["replay", str(trace), "--rounds"])
    assert r.exit_code == 0, r.output
    end = next(line for line in r.output.splitlines() if line.strip().startswith("game end:"))
    assert [int(x.split("= ")[1]) for x in end.split(":", 1)[1].split(",")] == totals


def test_show_a_bad_transcript_exits_1(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type":"setup","players":2,"sides":"A-A-A-A-A"}\n{"type":"decision","action":"fly"}\n')
    r = CliRunner().invoke(main, ["show", str(bad)])
    assert r.exit_code == 1
    assert "line 2: illegal action 'fly'" in r.output

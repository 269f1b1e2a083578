"""The game viewer's states (reporting/board_state.py, reporting/viewer.py): every stone of
every seat is drawn once (the stones on the sled, ships and sites plus the quarry are all of a
seat's stones), the layouts put stones on printed spaces, and a transcript replays into one
state per decision."""

from __future__ import annotations

import json

import pytest

from imhotep_stats.engine.transcript import TranscriptError
from imhotep_stats.reporting.board_state import stones_drawn
from imhotep_stats.reporting.viewer import game_steps, page, round_summary
from imhotep_stats.sim.samples import play_one


def transcript(players: int, sides: str, seed: int = 0, bots: str = "random") -> list[str]:
    """A played game's transcript lines (as ``play --trace`` writes them)."""
    return play_one(players, sides, [bots] * players, seed)[1]


# Every side of every site at least once, 2 to 4 players.
TABLES = [(2 + i % 3, sides) for i, sides in enumerate(
    ["A-A-A-A-A", "B-B-B-B-B", "C-C-C-C-C", "D-D-D-D-D", "D-C-B-A-D", "B-D-A-C-C"])]


@pytest.mark.parametrize(("players", "sides"), TABLES)
def test_every_stone_is_drawn_once(players, sides):
    lines = transcript(players, sides, seed=players)
    steps = game_steps(lines)
    decisions = sum(1 for line in lines if json.loads(line)["type"] == "decision")
    assert len(steps.states) == decisions + 1 == len(steps.captions)
    first = steps.states[0]
    stones = [first["quarry"][p] + first["sled"][p] for p in range(players)]
    for k, st in enumerate(steps.states):
        drawn = stones_drawn(st, players)
        for p in range(players):
            held = st["quarry"][p] + sum(v[p] for v in drawn.values())
            assert held == stones[p], (sides, k, p, drawn)


def test_printed_layouts_hold_the_stones_until_overflow():
    """Sides A have a space for every stone until they overflow: nothing is drawn beside."""
    steps = game_steps(transcript(4, "A-A-A-A-A", seed=1))
    seen = 0
    for st in steps.states:
        for site in st["sites"]:
            if site["name"] in ("temple", "burial_chamber", "obelisk"):
                assert not any(site["beside"]), (site["name"], site)
            if site["name"] == "pyramid":
                on = sum(cell >= 0 for row in site["rows"] for cell in row)
                assert on == min(on + sum(site["beside"]), 14)
                seen = max(seen, on)
    assert seen > 0


def test_the_final_state_and_the_round_chart_agree():
    steps = game_steps(transcript(3, "D-A-C-B-D", seed=5, bots="greedy"))
    final = steps.states[-1]["totals"]
    assert steps.by_round[-1] == final
    assert len(steps.by_round) == 7  # 6 rounds and the game-end scoring
    lines = round_summary(steps)
    assert lines[0].startswith("round 1: seat 1 +") and lines[-1].startswith("game end:")
    assert all(f"= {t}" in lines[-1] for t in final)


def test_the_page_is_self_contained():
    html = page(game_steps(transcript(2, "A-B-C-D-A")))
    assert "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in html and "<script src" not in html
    blob = html.split('id="game-data">')[1].split("</script>")[0]
    data = json.loads(blob.replace("<\\/", "</"))
    assert data["states"][0]["round"] == 1 and len(data["seats"]) == 2


def test_a_bad_transcript_names_its_line():
    lines = transcript(2, "A-A-A-A-A")
    lines[3] = lines[3].replace('"action":"', '"action":"nonsense ')
    with pytest.raises(TranscriptError, match="line 4"):
        game_steps(lines)


def test_a_kept_sample_is_the_studys_own_game(tmp_path):
    """``run --keep-games``: the sample of game i scores what the study stored for game i."""
    from imhotep_stats import api
    from imhotep_stats.reporting.kept import keep_games
    from imhotep_stats.sim.samples import kept_pages, sample_transcript

    cfg = api.quick("D-A-C-B-D", players=3, bots="greedy,random", games=6, seed=11)
    r = api.run(cfg, out=tmp_path / "run", report=False)
    games = r.games()
    cells = cfg.cells
    for game in range(3):
        _, totals = sample_transcript(cfg, cells[0], game)
        stored = games.filter(games["game"] == game).sort("seat")["score"].to_list()
        assert totals == stored, game
    pages = keep_games(cfg, cells, tmp_path / "run", 2)
    assert [p.name for p in kept_pages(tmp_path / "run", 0)] == ["game-1.html", "game-2.html"]
    assert all(p.with_suffix(".jsonl").exists() for p in pages)
    r.write_report("html")
    html = (tmp_path / "run" / "report.html").read_text()
    assert '<a href="games/cell-1/game-2.html">game 2</a>' in html


def test_the_spaces_show_the_values_the_board_prints():
    """Pyramid A's spaces carry ``pyramid.A.points[i]`` in fill order: the i-th stone
    delivered sits on the space labelled with points[i]; other sides' values sit beside
    the site with their keys (the two-player row where there is one)."""
    from imhotep_stats.engine.game import Game
    from imhotep_stats.engine.transcript import replay
    from imhotep_stats.engine.view import View
    from imhotep_stats.reporting.board_state import state
    from imhotep_stats.rules.board import default_board

    lines = transcript(3, "A-A-A-A-A", seed=3, bots="greedy")
    g: Game = replay(lines).game
    owners = View(g, 0).site(1).owners
    pyramid = state(g)["sites"][1]
    points = default_board().side("pyramid", "A")["points"]
    seen = 0
    for row, labels in zip(pyramid["rows"], pyramid["labels"], strict=True):
        for owner, (text, tip) in zip(row, labels, strict=True):
            i = int(tip.split("[")[1].split("]")[0])
            assert tip.startswith(f"pyramid.A.points[{i}] = ") and text == str(points[i])
            assert owner == (owners[i] if i < len(owners) else -1)
            seen += 1
    assert seen == 14 and len(owners) > 0
    steps = game_steps(transcript(2, "D-B-D-B-A", seed=1))
    sites = {s["name"]: s for s in steps.states[-1]["sites"]}
    assert "temple.D.round_points_2p = [2, 0]" in sites["temple"]["note"]
    assert "burial_chamber.B.row_points = [8, 4, 2, 0]" in sites["burial_chamber"]["note"]
    assert "obelisk.A.points_by_players.2 = [10, 1]" in sites["obelisk"]["note"]
    arrows = default_board().side("temple", "D")["arrowheads"]
    assert [lab[0] for lab in sites["temple"]["labels"][0]] == [str(a) for a in arrows]


def test_captions_speak_a_players_words():
    """Seats, ships and slots from 1; each step's points, and the game-end scoring last."""
    lines = transcript(3, "D-A-C-A-A", seed=2, bots="greedy")
    steps = game_steps(lines)
    decisions = [json.loads(x) for x in lines if json.loads(x)["type"] == "decision"]
    for k, d in enumerate(decisions, start=1):
        words = d["action"].split()
        caption = steps.captions[k]
        assert caption.startswith(f"Seat {d['seat'] + 1} "), caption
        if words[0] == "place" and d["kind"] == "turn":
            assert caption == (f"Seat {d['seat'] + 1} places a stone on ship "
                               f"{int(words[1]) + 1}, slot {int(words[2]) + 1}")
        if words[0] == "sail":
            assert caption.startswith(f"Seat {d['seat'] + 1} sails ship {int(words[1]) + 1} to the ")
    for k, scored in enumerate(steps.scored[:-1]):  # the last: its play, then the game end
        for p, pts in enumerate(scored):
            if pts:
                assert f"seat {p + 1} {pts:+d}" in steps.captions[k], (k, steps.captions[k])
    assert "Game-end scoring: seat 1 " in steps.captions[-1]
    totals = [sum(col) for col in zip(*steps.scored, strict=True)]
    assert totals == steps.states[-1]["totals"]

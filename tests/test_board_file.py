"""A designer's board file (rules/board_file.py): exported whole, read back unchanged, a
changed number becomes the designer's (labelled "designer" in the run's board record and
the report, not "overridden"), and a bad value names the file and its key."""

from __future__ import annotations

import pytest

from imhotep_stats import api
from imhotep_stats.config import ConfigError
from imhotep_stats.rules.board import default_board
from imhotep_stats.rules.board_file import BoardFileError, export_text, read_board_file

PRINTED = "points = [2, 1, 3, 2, 4, 3, 2, 1, 3, 2, 3, 1, 3, 4]  # rulebook"
MINE = "points = [2, 1, 3, 2, 4, 3, 2, 1, 3, 2, 3, 1, 3, 6]  # rulebook"


def test_the_export_holds_every_side_and_reads_back_as_no_change(tmp_path):
    text = export_text()
    for name in default_board().sides:
        assert f"[{name}]" in text
    for table in ("[game]", "[round_cards.3]", "[cards.sarcophagus]"):
        assert table in text
    assert "# provisional" in text and "# rulebook" in text
    path = tmp_path / "board.toml"
    path.write_text(text)
    assert read_board_file(path) == {}


def test_a_changed_number_is_the_designers(tmp_path):
    path = tmp_path / "board.toml"
    path.write_text(export_text().replace(PRINTED, MINE))
    assert read_board_file(path) == {"pyramid": {"A": {"points": [2, 1, 3, 2, 4, 3, 2, 1, 3, 2, 3, 1, 3, 6]}}}


def test_errors_name_the_file_and_the_key(tmp_path):
    path = tmp_path / "board.toml"
    path.write_text(export_text().replace("overflow_points = 1  # rulebook", 'overflow_points = "one"', 1))
    with pytest.raises(BoardFileError, match=r"board\.toml: 1 problem\n  pyramid\.A\."
                       r"overflow_points: expected an integer"):
        read_board_file(path)
    path.write_text("[pyramid.A\n")
    with pytest.raises(BoardFileError, match=r"line 1"):
        read_board_file(path)


def test_a_study_with_a_board_file_labels_designer_values(tmp_path):
    (tmp_path / "board.toml").write_text(export_text().replace(PRINTED, MINE))
    cfg_text = """
[study]
name = "mine"
games = 4
players = [2]
[board]
file = "board.toml"
[bots]
lineup = ["random"]
"""
    (tmp_path / "study.toml").write_text(cfg_text)
    cfg = api.study(tmp_path / "study.toml")
    assert cfg.designer == {"pyramid.A": ["points"]}
    assert cfg.board().side("pyramid", "A")["points"][-1] == 6
    r = api.run(cfg, out=tmp_path / "run")
    rec = r.figures.manifest["board"]["sides"]["pyramid.A"]
    assert rec["designer"] == ["points"] and rec["overridden"] == []
    assert "designer pyramid.A (points)" in r.summary()
    md = (tmp_path / "run" / "report.md").read_text()
    assert "designer values from the board file" in md and "overridden by the study config" not in md
    # the canonical form keeps the label (tune re-reads it)
    raw = cfg.to_json()
    raw["run"] = {k: v for k, v in raw["run"].items() if v is not None}
    again = api.study(raw)
    assert again.designer == cfg.designer


def test_a_missing_board_file_names_the_key(tmp_path):
    (tmp_path / "study.toml").write_text('[study]\nname = "x"\ngames = 1\n[board]\nfile = "nope.toml"\n')
    with pytest.raises(ConfigError, match="board.file"):
        api.study(tmp_path / "study.toml")

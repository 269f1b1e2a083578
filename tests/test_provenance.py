"""Honest provenance (issue 13): values a rule text states are labelled rulebook with the
text's words; the rules reference carries every section the code cites; nothing points
outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from imhotep_stats.rules.board import default_board

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "side, key, words",
    [
        ("market.B", "display", "trois cartes face visible"),
        ("market.B", "hidden_pair", "deux cartes face cachée"),
        ("burial_chamber.B", "row_points", "huit, quatre, deux ou zéro"),
        ("burial_chamber.D", "tokens_per_round", "cuatro fichas"),
        ("burial_chamber.D", "no_token_points", "un punto en su lugar"),
        ("burial_chamber.D", "absent_penalty", "pierdes cuatro puntos"),
        ("temple.D", "round_points", "gana dos puntos"),
        ("temple.D", "round_points_2p", "ningún punto en un juego de dos"),
        ("temple.D", "finish_point", "obtienes un punto"),
    ],
)
def test_values_a_text_states_are_rulebook_with_its_words(side, key, words):
    sd = default_board().sides[side]
    assert key not in sd.provisional_keys and (not sd.provisional or sd.provisional_keys)
    assert words in sd.quotes[key]


def test_obelisk_c_quotes_its_3_and_4_player_bonus_and_prophecies_their_setup():
    board = default_board()
    ob = board.sides["obelisk.C"]
    assert dict(ob["rank_bonus_by_players"])["4"] == (9, 6, 2, 0)
    assert dict(ob["rank_bonus_by_players"])["3"] == (6, 3, 0)
    assert "6 2 9 0 6 3 0" in ob.quotes["rank_bonus_by_players"]
    pro = board.tables["prophecies"]
    assert pro["cards_in_play"] == 3 and pro["scarabs"] == 2
    assert pro["windows"] == ((1, 2), (3, 4), (5, 6))
    assert set(pro["quotes"]) == {"cards_in_play", "scarabs", "windows"}
    assert not set(pro["quotes"]) & set(pro["provisional_keys"])


def test_every_rules_section_the_code_cites_exists():
    text = (ROOT / "docs" / "rules.md").read_text()
    headings = set(re.findall(r"^#+ (\d+(?:\.\d+)?)\.? ", text, re.M))
    cited = set()
    for path in [*ROOT.joinpath("imhotep_stats").rglob("*.py"), *ROOT.joinpath("imhotep_stats").rglob("*.toml")]:
        for ref in re.findall(r"docs/rules\.md §(\d+(?:\.\d+)?)", path.read_text()):
            cited.add(ref)
    assert cited, "no citation found"
    assert cited <= headings, sorted(cited - headings)


def test_nothing_points_outside_the_repository():
    for path in [ROOT / "README.md", *ROOT.joinpath("docs").rglob("*.md"), *ROOT.joinpath("imhotep_stats").rglob("*.py"),
                 *ROOT.joinpath("imhotep_stats").rglob("*.toml")]:
        assert "shared/" not in path.read_text(), path

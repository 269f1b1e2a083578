"""The trust line and the robustness order read a bot's rating from the run's own table
(``bots.ratings``): a 3-player D run the 3-player D table, a mixed board the range over its
player count's tables, a bot missing from a table "not rated" there. The expected numbers are
read from data/bot_ratings.toml here, not copied: the file's values may be remeasured."""

from __future__ import annotations

import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from imhotep_stats.cli import main
from imhotep_stats.reporting.robustness import groups
from imhotep_stats.reporting.trust import cell_trust
from imhotep_stats.stats.significance import seat_verdict

FILE = Path(__file__).resolve().parent.parent / "imhotep_stats" / "data" / "bot_ratings.toml"
GREEDY = "greedy: a simple player (the move worth most now)"


def _data() -> dict:
    return tomllib.loads(FILE.read_text(encoding="utf-8"))


def _table(name: str) -> dict[str, float]:
    """A table's ratings as the file states them (greedy = 0)."""
    data = _data()
    if name == "2p-A":
        return {b: float(r) for b, r in data["ratings"].items()}
    return {"greedy": 0.0, **{b: float(v[0]) for b, v in data["tables"][name].items()}}


def _beats(bot: float, ref: float) -> float:
    return 1.0 / (1.0 + 10.0 ** ((ref - bot) / 400.0))


def _pct(p: float) -> str:
    return "under 1%" if p < 0.01 else "over 99%" if p > 0.99 else f"about {p * 100:.0f}%"


def _line(sides: str, players: int, lineup: tuple[str, ...]) -> str:
    """The trust line a run's cell prints (``cell_trust``, as ``run`` and reports call it)."""
    return cell_trust(SimpleNamespace(manifest={}, margin=0.05),
                      SimpleNamespace(lineup=lineup, sides=sides, players=players))


def test_a_3_player_d_runs_trust_line_uses_the_3_player_d_table(tmp_path):
    ref = _data()["reference"]
    d = _table("3p-D")
    want = (f"{GREEDY}, finishes ahead of the reference bot ({ref}) in "
            f"{_pct(_beats(0.0, d[ref]))} of games")
    line = _line("D-D-D-D-D", 3, (ref, "greedy"))
    assert want in line and "; ratings of the 3-player table on D sides;" in line, line
    # as `run` prints it
    r = CliRunner().invoke(main, ["run", "--sides", "D-D-D-D-D", "--players", "3", "--games",
                                  "20", "--quick", "--workers", "1", "--out",
                                  str(tmp_path / "r"), "-q"])
    assert r.exit_code in (0, 3), r.output
    (trust,) = [x for x in r.stdout.splitlines() if x.startswith("Trust: ")]
    assert trust.startswith(f"Trust: {want}; ratings of the 3-player table on D sides;"), trust
    # 4 players has no table of its own: the 3-player D table, and the line says so
    assert "ratings of the 3-player table on D sides (no 4-player table)" in _line(
        "D-D-D-D-D", 4, ("greedy",))


def test_a_mixed_sides_run_says_which_tables_its_range_comes_from():
    ref = _data()["reference"]
    names = [n for n in ("3p-A", "3p-C", "3p-D") if n in _data()["tables"]]
    ps = [_beats(0.0, _table(n)[ref]) for n in names]
    low, high = _pct(min(ps)), _pct(max(ps))
    share = low if low == high else \
        f"{low.removeprefix('about ')} to {high.removeprefix('about ')}"
    assert "under 1%" not in (low, high)  # else the words read "up to"
    line = _line("D-A-C-A-A", 3, ("greedy",))
    letters = [n[-1] for n in names]
    said = ", ".join(letters[:-1]) + " and " + letters[-1]
    assert line.startswith(f"Trust: {GREEDY}, finishes ahead of the reference bot ({ref}) in "
                           f"{share} of games; ratings: the range over the 3-player tables "
                           f"on {said} sides (no table for mixed sides);"), line


def _missing(data: dict) -> int:
    """Every bot rated on some table but missing from another is "not rated" on that one,
    and the line names the tables that do rate it; how many such gaps there are."""
    tables = {"2p-A": {b: float(r) for b, r in data["ratings"].items()},
              **{n: {"greedy": 0.0, **t} for n, t in data["tables"].items()}}
    gaps = [(n, b) for n in tables for b in sorted({b for t in tables.values() for b in t})
            if b not in tables[n] and b != data.get("reference")]
    for name, bot in gaps:
        players, letter = name.split("p-")
        line = _line("-".join([letter] * 5), int(players), (bot,))
        rated = [n for n in tables if bot in tables[n]]
        assert f"{bot}: " in line and \
            f", not rated on this table (only on {', '.join(rated)})" in line, line
    return len(gaps)


def test_a_bot_missing_from_the_runs_table_is_unrated_there(monkeypatch):
    from imhotep_stats.bots import ratings

    _missing(_data())  # the file's own gaps, if it has any
    # and a file where a search rung has only its 2-player A rating
    fake = {"reference": "expert", "ratings": {"greedy": 0, "expert": 800, "mcts800": 700},
            "intervals": {}, "tables": {"3p-D": {"expert": [400, 350, 450]}}}
    monkeypatch.setattr(ratings, "_file", lambda: fake)
    ratings.tables.cache_clear()
    ratings.reference_bot.cache_clear()
    try:
        assert _missing(fake) == 1  # mcts800 on 3p-D
    finally:
        ratings.tables.cache_clear()
        ratings.reference_bot.cache_clear()


def test_the_robustness_order_and_the_trust_line_read_the_same_table():
    ref = _data()["reference"]
    c = _table("3p-C")
    bots = sorted(c)  # every bot of the table, by name: the order must come from the ratings
    cells = [SimpleNamespace(id=f"C-C-C-C-C|3p|{b}", sides="C-C-C-C-C", players=3,
                             lineup=(b,), games=300, verdict=seat_verdict([100, 100, 100], 300,
                                                                          0.05))
             for b in bots]
    (g,) = groups(cells)
    assert [x.lineup[0] for x in g.cells] == sorted(bots, key=lambda b: -c[b])
    assert g.to_json()["ratings"]["tables"] == ["3p-C"]
    line = _line("C-C-C-C-C", 3, tuple(b for b in bots if b != ref))
    bounds = {b for b, v in _data()["tables"]["3p-C"].items() if v[1] == float("-inf")}
    for b in bots:
        if b != ref and b not in bounds:  # a bound reads "up to"
            assert f"finishes ahead of the reference bot ({ref}) in " \
                f"{_pct(_beats(c[b], c[ref]))} of games" in line.split(f"{b}: ", 1)[1].split(
                    ";")[0], (b, line)


def test_a_rating_that_is_only_a_bound_reads_as_one():
    from imhotep_stats.bots.ratings import basis

    bounds = [(n, b) for n, t in _data()["tables"].items() for b, v in t.items()
              if v[1] == float("-inf")]
    if not bounds:
        pytest.skip("no rating of bot_ratings.toml is a bound")
    name, bot = bounds[0]
    players, letter = name.split("p-")
    where = basis(int(players), "-".join([letter] * 5))
    assert where.rating(bot).bound and where.rating(bot).tables == (name,)
    ref = _data()["reference"]
    p = _beats(_table(name)[bot], _table(name)[ref])
    line = _line("-".join([letter] * 5), int(players), (bot,))
    assert (" under 1% of games" if p < 0.01 else f" up to {_pct(p)} of games") in line, line


def test_one_module_reads_the_ratings_file():
    pkg = FILE.parent.parent
    readers = sorted(p.relative_to(pkg).as_posix() for p in pkg.rglob("*.py")
                     if '"bot_ratings.toml"' in p.read_text(encoding="utf-8"))
    assert readers == ["bots/ratings.py"]


def test_the_reference_bots_settings_by_their_spec_name_are_the_reference_bot():
    # `mcts1900-b1-s` is `expert` (bots/search_spec.py EXPERT): the same games, so the same
    # rating; a search one setting away is a different bot, unrated on these tables.
    from imhotep_stats.bots.ratings import basis, rated_name
    from imhotep_stats.bots.search_spec import EXPERT

    ref = _data()["reference"]
    spelled = f"mcts{EXPERT['iterations']}-b1-s"
    assert rated_name(spelled) == ref
    assert rated_name(f"mcts{EXPERT['iterations']}-b1") == f"mcts{EXPERT['iterations']}-b1"
    assert rated_name("greedy") == "greedy" and rated_name("mcts0") == "mcts0"
    where = basis(3, "D-D-D-D-D")
    assert where.rating(spelled) == where.rating(ref)
    assert where.chance("greedy", against=spelled) == where.chance("greedy")
    line = _line("D-A-C-A-A", 2, (spelled,))
    assert line.startswith(f"Trust: {spelled}: the reference bot, {ref}, by its settings (strong "
                           "play"), line
    assert "not rated" not in line, line

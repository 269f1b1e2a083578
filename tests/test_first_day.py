"""The rough edges a first day finds (issue 47, item 5), each as a new user met it: an
error's suggestion that the option refuses, two roundings of one figure, defaults that
differ between commands, messages that repeat or contradict each other."""

from __future__ import annotations

import pytest

from tests.helpers import cli


def _run(*args):
    return cli("run", "--sides", "A-A-A-A-A", "--players", "2", "--bots", "random",
               "--workers", "1", *args)


def test_counts_take_thousands_separators_as_the_cli_prints_them():
    from imhotep_stats.cli.options import GAMES

    assert GAMES.convert("4,000", None, None) == GAMES.convert("4_000", None, None) == 4000
    for bad in ("4,00", "4.000", "1,2345"):
        with pytest.raises(Exception, match="not a valid"):
            GAMES.convert(bad, None, None)
    r = _run("--games", "4,000", "--max-games", "8,000")  # parsed, then refused for usage
    assert r.exit_code == 2 and "--max-games goes with --until-decided" in r.output


def test_a_shrinking_run_suggests_a_games_value_the_option_takes(tmp_path):
    out = str(tmp_path / "r")
    assert _run("--games", "1200", "--out", out, "-q").exit_code == 0
    shrink = _run("--games", "1100", "--out", out)
    assert shrink.exit_code == 1 and "--games 1200 or more" in shrink.stderr


def test_a_top_up_says_once_which_games_it_reuses(tmp_path):
    out = str(tmp_path / "r")
    assert _run("--games", "20", "--out", out, "-q").exit_code == 0
    r = _run("--games", "40", "--out", out)
    assert r.exit_code == 0, r.output
    assert "topping up" in r.stderr and "resuming" not in r.stderr


def test_one_rounding_for_a_win_rate_in_the_answer_and_the_table():
    from imhotep_stats.reporting.summary import format_cell
    from imhotep_stats.stats import fmt

    assert fmt.pct(545 / 2000) == "27.3%" and fmt.num(2.675, 2) == "2.68"
    row = {"games": 2000, "wins": 545.0, "win_rate": 545 / 2000, "ci_low": 0.25,
           "ci_high": 0.3, "points": {"total": 30.0}}
    text = format_cell({"sides": "A-A-A-A-A", "players": 2, "lineup": ["greedy"],
                        "games": 2000, "confidence": 0.95, "bots": [],
                        "seats": [dict(row, seat=0), dict(row, seat=1)]})
    assert "27.3%" in text and "27.2%" not in text


def test_plan_takes_the_default_margin_and_prints_short_lines():
    r = cli("plan", "--players", "3")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("3 players, margin ±5.0 pp")
    assert r.stdout == cli("plan", "--players", "3", "--margin", "0.05").stdout
    assert all(len(line) <= 90 for line in r.stdout.splitlines())


def test_play_seats_the_bots_run_seats():
    from imhotep_stats.config.quick import quick_study

    r = cli("play")
    assert r.exit_code == 0, r.output
    assert quick_study("A-A-A-A-A").cells[0].lineup == ("greedy",)
    seats = [line.split()[1] for line in r.stdout.splitlines() if line.strip()[:1].isdigit()]
    assert seats == ["greedy"] * 3


def test_a_misspelled_bot_gets_the_nearest_name():
    for args in (("play", "--bots", "gredy"), ("run", "--sides", "A-A-A-A-A", "--bots", "gredy"),
                 ("plan", "--players", "3", "--bots", "gredy")):
        r = cli(*args)
        assert r.exit_code in (1, 2) and "did you mean 'greedy'?" in r.output, (args, r.output)


def test_quiet_means_the_same_in_run_and_report(tmp_path):
    out = str(tmp_path / "r")
    ran = _run("--games", "20", "--out", out, "-q")
    again = cli("report", out, "-q")
    assert ran.exit_code == again.exit_code == 0
    assert ran.stderr == again.stderr == ""  # no messages on stderr ...
    assert ran.stdout.startswith(again.stdout.split("\n")[0]) and again.stdout  # ... the answer


def test_resume_is_accepted_and_says_it_is_the_default(tmp_path):
    out = str(tmp_path / "r")
    r = _run("--games", "20", "--out", out, "--resume")
    assert r.exit_code == 0, r.output
    assert "--resume: resuming is the default" in r.stderr
    assert _run("--games", "20", "--out", out, "--resume", "--force").exit_code == 2


def test_board_file_errors_come_one_a_line_as_config_errors_do(tmp_path):
    from imhotep_stats.rules.board_file import export_text

    path = tmp_path / "board.toml"
    path.write_text(export_text().replace("overflow_points = 1  # rulebook",
                                          'overflow_points = "one"', 1)
                    .replace("rounds = 6", 'rounds = "six"', 1))
    r = cli("sides", "pyramid.A", "--board", path)
    assert r.exit_code == 1
    lines = r.stderr.splitlines()
    assert lines[0] == f"error: board file {path}: 2 problems"
    assert lines[1].startswith("  pyramid.A.overflow_points: expected an integer")
    assert lines[2].startswith("  game.rounds: expected an integer")


def test_an_unclosed_array_is_reported_at_the_line_that_opened_it(tmp_path):
    path = tmp_path / "study.toml"
    path.write_text('[study]\nname = "x"\nplayers = [2, 3\ngames = 10\n')
    r = cli("validate", path)
    assert r.exit_code == 1 and "line 3, column 11: not valid TOML: the array opened here" \
        in r.stderr, r.stderr
    board = tmp_path / "board.toml"
    board.write_text('[pyramid.A]\npoints = [2, 1, 3\nrows = 3\n')
    r = cli("sides", "--board", board)
    assert r.exit_code == 1 and "line 2, column 10" in r.stderr, r.stderr


def test_the_rule_text_column_is_in_english():
    r = cli("sides", "burial_chamber.D")
    assert r.exit_code == 0, r.output
    assert "turn over four tomb tokens" in r.stdout and "fichas" not in r.stdout
    r = cli("sides", "temple.D")
    assert "The player in second place gets one point" in " ".join(r.stdout.split())


def test_the_export_keeps_the_data_files_explanations(tmp_path):
    from imhotep_stats.rules.board_file import read_board_file

    path = tmp_path / "board.toml"
    assert cli("sides", "--export", path).exit_code == 0
    text = path.read_text()
    temple_c = text[text.index("[temple.C]"):].split("\n\n")[0]
    assert '# "p2|s4": owner chooses 2 points or 4 stones to the sled; "draw3": draw 3' \
        in temple_c
    assert "Temple of Ra" in temple_c.splitlines()[0]
    assert "stones = 29  # rulebook; playable stones per colour" in text
    assert read_board_file(path) == {}  # the comments change no value


def test_a_side_the_designer_set_is_no_longer_called_provisional(tmp_path):
    path = tmp_path / "board.toml"
    assert cli("sides", "--export", path).exit_code == 0
    printed = 'bonuses = ["p2|s4", "draw3", "p2|s4", "draw3", "p2|s4"]'
    path.write_text(path.read_text().replace(printed, printed.replace("draw3", "p2|s4")))
    r = cli("sides", "temple.C", "--board", path)
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[0] == "temple.C  provenance: designer"
    assert "provisional" not in r.stdout


def test_a_whatif_is_named_and_labelled_after_its_change_and_reuses_the_stored_base(
        tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    flags = ("--sides", "A-A-A-A-A", "--players", "2", "--bots", "random", "--games", "20",
             "--workers", "1")
    assert cli("run", *flags, "-q").exit_code == 0  # reports/<study>: the base, played once
    r = cli("compare", *flags, "--param", "pyramid.A.points[0]=5")
    assert r.exit_code == 0, r.output
    assert "Pyramid A with points[0] = 5 (was 2)" in r.stdout
    out = next((tmp_path / "reports").glob("*points0-to-5-*"))
    assert "not played again" in r.stderr and "(0 played now, 20 reused" in r.stderr
    second = cli("compare", *flags, "--param", "pyramid.A.points[1]=4")
    assert second.exit_code == 0 and "(0 played now, 20 reused" in second.stderr
    assert "Pyramid A with points[1] = 4 (was 1)" in second.stdout
    assert (out / "base" / "manifest.json").is_file()


def test_sweep_and_report_name_the_same_least_balanced_cell(tmp_path):
    out = tmp_path / "sw"
    r = cli("sweep", "--sides", "all-A-all-A-A", "--players", "2", "--bots", "random",
            "--games", "30", "--workers", "1", "--out", out, "-q")
    assert r.exit_code == 0, r.output
    least = next(line for line in r.stdout.splitlines() if line.startswith("Least balanced:"))
    sides = least.removeprefix("Least balanced: ").split()[0]
    report = cli("report", out, "--format", "none")
    assert report.exit_code == 0, report.output
    assert report.stdout.startswith(f"{sides}, 2 players"), (least, report.stdout[:200])


def _fake_venv(root):
    """A virtualenv whose python and imhotep-stats are stubs: make's build rules run
    without pip."""
    import stat

    (root / "bin").mkdir(parents=True)
    for name, body in (("python", "exit 0"),
                       ("imhotep-stats", "echo 'imhotep-stats, version 0, core: imhotep-core 0 (Rust, release)'")):
        f = root / "bin" / name
        f.write_text(f"#!/bin/sh\n{body}\n")
        f.chmod(f.stat().st_mode | stat.S_IEXEC)
    (root / ".installed-stamp").touch()


@pytest.mark.skipif(__import__("shutil").which("make") is None, reason="no make here")
def test_make_keeps_a_redirected_stderr_and_ignores_directory_times(tmp_path):
    import os
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    venv = tmp_path / "venv"
    _fake_venv(venv)
    log = tmp_path / "make.log"
    with log.open("w") as err:
        subprocess.run(["make", "-s", f"VENV={venv}", "install"], cwd=root, check=True,
                       stderr=err, stdout=subprocess.DEVNULL)
    text = log.read_text()
    assert "make: [2/2]" in text and "(Rust, release)" in text  # no line truncated away
    os.utime(root / "src")  # a directory's time moves (an editor's backup file)
    up_to_date = subprocess.run(["make", "-q", f"VENV={venv}", "install"], cwd=root)
    assert up_to_date.returncode == 0


@pytest.mark.skipif(__import__("shutil").which("make") is None, reason="no make here")
def test_make_rebuilds_the_core_when_the_crate_changed_and_only_then(tmp_path):
    """The build stamp follows the crate's files, a nested src/**/*.rs too; the venv's stamp
    follows pyproject.toml. The Makefile runs on a stand-in tree, whose file times the test
    sets."""
    import os
    import subprocess
    from pathlib import Path

    makefile = Path(__file__).resolve().parent.parent / "Makefile"
    tree = tmp_path / "tree"
    for name in ("Cargo.toml", "Cargo.lock", "pyproject.toml", "src/lib.rs", "src/a/deep.rs"):
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_text("")
    venv = tmp_path / "venv"
    _fake_venv(venv)
    (venv / ".built-stamp").touch()  # as the venv's creation leaves it: the core built with it
    t = (tree / "src" / "lib.rs").stat().st_mtime_ns
    for f in tree.rglob("*"):
        os.utime(f, ns=(t - 10**9,) * 2)

    def make(*flags: str) -> subprocess.CompletedProcess:
        return subprocess.run(["make", "-f", str(makefile), *flags, f"VENV={venv}", "install"],
                              cwd=tree, capture_output=True, text=True)

    assert make("-q").returncode == 0
    os.utime(tree / "src" / "a" / "deep.rs")  # changed now
    assert make("-q").returncode == 1
    assert "make: [2/2] rebuilding the Rust core" in make("-s").stderr
    assert make("-q").returncode == 0
    os.utime(tree / "pyproject.toml")  # the venv is refreshed
    assert make("-q").returncode == 1

"""Issue 17's command line: a verdict in one command without a file (`run --sides`), `init`
writing a commented config from the examples shipped in the package, the answer printed
before the tables, help on every option, short summaries in the command list and value
completion for --bots, --sides and SITE.SIDE."""

from __future__ import annotations

import os
import subprocess
import sys

import click
import pytest

from imhotep_stats.cli import main
from imhotep_stats.config import load_config
from imhotep_stats.config.quick import examples
from tests.helpers import cli


def test_run_sides_without_a_config(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = cli("run", "--sides", "D-A-C-A-A", "--players", 3, "--bots", "random", "--games", 30,
            "--workers", 1)
    assert r.exit_code == 0, r.output
    run_dir = tmp_path / "reports" / "D-A-C-A-A-3p-random"  # named after the flags
    assert (run_dir / "manifest.json").is_file() and (run_dir / "report.html").is_file()
    # the answer first: verdict, seat rates and the deciding source, then the tables
    first = r.stdout.splitlines()[0]
    assert first.startswith("D-A-C-A-A, 3 players, random (Market D · Pyramid A · Temple C · "
                            "Burial Chamber A · Obelisks A): ")
    assert any(w in first for w in ("balanced", "unbalanced", "inconclusive"))
    assert r.stdout.index("Seat win rates") < r.stdout.index("win rate ")
    # stored like any run: asking again resumes it and plays nothing
    again = cli("run", "--sides", "D-A-C-A-A", "--players", 3, "--bots", "random", "--games",
                30, "--workers", 1)
    assert again.exit_code == 0 and "0 played now, 30 reused" in again.stderr and again.stdout == r.stdout
    # --json output is as before: one object per cell, no sentences
    js = cli("run", "--sides", "D-A-C-A-A", "--players", 3, "--bots", "random", "--games", 30,
             "--json", "-q")
    assert js.stdout.startswith("{") and "Seat win rates" not in js.stdout


@pytest.mark.parametrize("args,code,words", [
    (["--sides", "D-A-C"], 1, "--sides: expected five side letters"),
    (["--sides", "A-A-A-A-A", "--bots", "grumpy"], 1, "bots.lineup[0]"),
    ([], 2, "give a study CONFIG"),
    (["x.toml", "--sides", "A-A-A-A-A"], 2, "not both"),
])
def test_run_flag_errors(tmp_path, monkeypatch, args, code, words):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.toml").write_text("[study]\nname='x'\ngames=1\nplayers=2\n")
    r = cli("run", *args)
    assert r.exit_code == code and words in r.output, r.output


def test_init_writes_a_commented_valid_config(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = cli("init", "mine")
    assert r.exit_code == 0, r.output
    text = (tmp_path / "mine.toml").read_text()
    assert text.startswith("#") and 'name = "mine"' in text
    assert load_config(tmp_path / "mine.toml").name == "mine"
    assert cli("init", "mine").exit_code == 2  # never overwrites silently
    r = cli("init", "w", "--example", "whatif-pyramid-d")
    assert r.exit_code == 0 and "[whatif]" in (tmp_path / "w.toml").read_text()
    assert cli("init", "z", "--example", "nope").exit_code == 1
    listing = cli("init", "--list").stdout
    assert all(name in listing for name in examples())
    assert listing.startswith("examples in ") and "configs" in listing.splitlines()[0]


def test_examples_ship_inside_the_package():
    from importlib import resources

    assert {"default", "ci-smoke", "whatif-pyramid-d", "sweep-expansion"} <= set(examples())
    folder = resources.files("imhotep_stats.configs")
    for name in examples():
        assert load_config(folder / f"{name}.toml")


def _commands():
    return sorted(main.commands.items())


@pytest.mark.parametrize("name,cmd", _commands(), ids=[n for n, _ in _commands()])
def test_every_option_has_help_and_the_command_a_short_summary(name, cmd):
    missing = [p.name for p in cmd.params
               if isinstance(p, click.Option) and not p.help and p.name != "help"]
    assert not missing, f"{name}: options without help: {missing}"
    short = cmd.get_short_help_str(limit=60)
    assert short and not short.endswith("..."), f"{name}: {short!r}"


def _complete(*words):
    env = dict(os.environ, COMP_WORDS=" ".join(["imhotep-stats", *words]),
               COMP_CWORD=str(len(words)), _IMHOTEP_STATS_COMPLETE="bash_complete")
    out = subprocess.run([sys.executable, "-c", "from imhotep_stats.cli import main; main(prog_name='imhotep-stats')"],
                         env=env, capture_output=True, text=True, check=False).stdout
    return [line.split(",", 1)[1] for line in out.splitlines()]


def test_value_completion():
    assert _complete("run", "--bots", "greedy,ra") == ["greedy,random"]
    assert _complete("play", "--sides", "D-A-") == ["D-A-A-", "D-A-B-", "D-A-C-", "D-A-D-"]
    assert _complete("sides", "obelisk.") == [f"obelisk.{x}" for x in "ABCD"]
    assert "game.starting_sled=" in _complete("tune", "--param", "game.st")

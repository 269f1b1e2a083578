"""Every `$ imhotep-stats ...` line of docs/designers-guide.md runs as written (with the
repository's example configs, game counts made small), and shown output matches."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from imhotep_stats.cli import main

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "designers-guide.md"
SMALL = {"--games": "4", "--budget": "100"}


def examples() -> list[tuple[str, list[str]]]:
    """(command, expected output lines) of every console block, in order."""
    out: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", GUIDE.read_text(), re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                out.append((line[2:], []))
            elif out and line.strip():
                out[-1][1].append(line)
    return out


def test_the_guide_has_the_three_worked_examples():
    cmds = [c for c, _ in examples()]
    assert any(c.startswith("imhotep-stats compare configs/whatif-pyramid-d.toml") for c in cmds)
    assert any(c.startswith("imhotep-stats sweep configs/sweep-expansion.toml") for c in cmds)
    assert any("--max-seat-shift" in c for c in cmds)
    assert any("--fail-on-unbalanced" in c for c in cmds)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """One directory for the whole page, as a reader's shell: a command may use the file an
    earlier one wrote (``play --trace game.jsonl``, then ``show game.jsonl``)."""
    d = tmp_path_factory.mktemp("guide")
    # the guide's paths are the repository's: configs/... (a copy of that
    # folder alone would shadow the package for worker processes)
    (d / "imhotep_stats").symlink_to(ROOT / "imhotep_stats", target_is_directory=True)
    (d / "configs").symlink_to(ROOT / "configs", target_is_directory=True)
    return d


@pytest.mark.parametrize("command,expected", examples(), ids=lambda x: x if isinstance(x, str) else "")
def test_guide_command_runs(command, expected, workdir, monkeypatch):
    monkeypatch.chdir(workdir)
    args = shlex.split(command)
    assert args[0] == "imhotep-stats"
    args = [SMALL.get(args[i - 1], a) if i else a for i, a in enumerate(args)][1:]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, (r.output, r.exception)
    if expected:
        assert r.stdout.splitlines() == expected

"""Every `$ imhotep-stats ...` line of docs/designers-guide.md runs as written (from a copy
of the repository's configs, with game counts made small), and shown output matches."""

from __future__ import annotations

import re
import shlex
import shutil
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
    assert any(c.startswith("imhotep-stats compare imhotep_stats/configs/whatif-pyramid-d.toml") for c in cmds)
    assert any(c.startswith("imhotep-stats sweep imhotep_stats/configs/sweep-expansion.toml") for c in cmds)
    assert any("--max-seat-shift" in c for c in cmds)
    assert any("--fail-on-unbalanced" in c for c in cmds)


@pytest.mark.parametrize("command,expected", examples(), ids=lambda x: x if isinstance(x, str) else "")
def test_guide_command_runs(command, expected, tmp_path, monkeypatch):
    shutil.copytree(ROOT / "imhotep_stats" / "configs", tmp_path / "imhotep_stats" / "configs")
    monkeypatch.chdir(tmp_path)
    args = shlex.split(command)
    assert args[0] == "imhotep-stats"
    args = [SMALL.get(args[i - 1], a) if i else a for i, a in enumerate(args)][1:]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, (r.output, r.exception)
    if expected:
        assert r.stdout.splitlines() == expected

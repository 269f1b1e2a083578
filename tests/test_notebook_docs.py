"""Every ```python block of docs/notebook.md runs, in order, in one namespace (as a notebook
would), in a scratch directory; then what the blocks built is checked."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl

DOC = Path(__file__).resolve().parent.parent / "docs" / "notebook.md"


def blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_notebook_page_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    assert len(blocks()) >= 5
    ns: dict = {}
    for i, code in enumerate(blocks()):
        exec(compile(code, f"{DOC.name} block {i + 1}", "exec"), ns)  # noqa: S102
    out = capsys.readouterr().out
    # the quick study: one cell, stored and reported like a `run`
    assert ns["r"].verdicts().height == 1
    assert (tmp_path / "reports" / "dac" / "report.html").is_file()
    assert "D-A-C-A-A, 3 players, greedy (Market D · Pyramid A · Temple C" in out
    assert isinstance(ns["games"], pl.DataFrame) and ns["games"].height == 60 * 3
    # the dict study: 2 temple sides x 2 player counts
    assert ns["r2"].verdicts().height == 4
    assert "study.games" in out and "study.players" in out
    assert "default" in ns["api"].examples() and len(ns["base"].cells) == 1
    assert [c["values"][0] for c in ns["res"]["candidates"]] == [1, 2, 3]
    assert ns["again"].figures.cells[0].verdict is not None

"""Every `$ imhotep-stats ...` line of a ```console block in the pages a reader uses
(README.md, docs/designers-guide.md, docs/reports.md, docs/studies.md, docs/search.md) runs
as written, from a folder holding the repository's configs/ and docs/ (a glob such as
``docs/ladder/*-2p-A.jsonl`` expands there, as a shell would), and the output the page shows
is what it prints: a page that drifts from the code fails here.

A block's lines after a command are its stdout; a line "..." stands for any lines (a page
may show the answer and leave out the tables). A command shown without output runs with its
game counts made small (``SMALL``), in a folder of its own: the page promises only that it
runs. A command whose
shown output needs more than ``FAST_GAMES`` games a cell, or is a ``tune``'s, is marked slow
(``pytest -m slow``)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from imhotep_stats.cli import main
from imhotep_stats.cli.options import STRONG_BY_DEFAULT, STRONG_ENV

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("README.md", "docs/designers-guide.md", "docs/reports.md", "docs/studies.md",
         "docs/search.md")
SMALL = {"--games": "4", "--budget": "100", "--max-games": "8"}
FAST_GAMES = 2000  # games per cell a shown output may play in the default run


def examples(page: str) -> list[tuple[str, list[str]]]:
    """(command, expected stdout lines) of every console block of ``page``, in order."""
    out: list[tuple[str, list[str]]] = []
    text = (ROOT / page).read_text(encoding="utf-8")
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                out.append((line[2:], []))
            elif out:
                out[-1][1].append(line)
    return [(c, _trim(lines)) for c, lines in out]


def _trim(lines: list[str]) -> list[str]:
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether ``printed`` is ``shown`` line for line, "..." standing for any lines."""
    if not shown:
        return not printed
    if shown[0] == "...":
        return any(matches(shown[1:], printed[i:]) for i in range(len(printed) + 1))
    return bool(printed) and printed[0].rstrip() == shown[0].rstrip() and \
        matches(shown[1:], printed[1:])


def checks(args: list[str]) -> bool:
    """Whether a command (without "imhotep-stats") plays the strong-play check as a reader
    runs it: run, compare and tune do unless told --quick (or by default, when it is off)."""
    if args[0] not in ("run", "compare", "tune") or {"--quick", "--no-strong"} & set(args):
        return False
    return STRONG_BY_DEFAULT or "--strong" in args


def _cases() -> list:
    out = []
    for page in PAGES:
        for i, (command, shown) in enumerate(examples(page)):
            args = shlex.split(command)
            games = [int(args[k + 1].replace(",", "")) for k in range(len(args) - 1)
                     if args[k] == "--games"]
            # a tune plays every candidate, round after round, and the strong-play check
            # plays the reference bot: their shown output is slow
            slow = bool(shown) and (any(g > FAST_GAMES for g in games) or args[1] == "tune"
                                    or checks(args[1:]))
            out.append(pytest.param(page, command, shown, id=f"{page}:{i + 1}",
                                    marks=[pytest.mark.slow] if slow else []))
    return out


def _folder(d: Path) -> Path:
    """A reader's folder: the repository's configs/ and docs/ (and the package beside them: a
    copy of configs/ alone would shadow the package for worker processes)."""
    d.mkdir(parents=True, exist_ok=True)
    for name in ("imhotep_stats", "configs", "docs"):
        if not (d / name).exists():
            (d / name).symlink_to(ROOT / name, target_is_directory=True)
    return d


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """One folder for all pages, as a reader's shell: a command may use a file an earlier
    one wrote (``play --trace game.jsonl``, then ``show game.jsonl``)."""
    return _folder(tmp_path_factory.mktemp("docs"))


@pytest.mark.parametrize("page,command,shown", _cases())
def test_a_pages_example_runs_and_prints_what_it_shows(page, command, shown, workdir,
                                                        monkeypatch):
    args = shlex.split(command)
    assert args[0] == "imhotep-stats", f"{page}: a console block runs imhotep-stats only"
    args = args[1:]
    if not shown and "--games" in args:  # made small: in a folder of its own, where no
        args = [SMALL.get(args[i - 1], a) if i else a for i, a in enumerate(args)]
        args += ["--strong-games", SMALL["--games"]] if checks(args) else []
        workdir = _folder(workdir / f"small-{abs(hash(command))}")  # larger run is stored
    monkeypatch.chdir(workdir)
    args = [e for a in args for e in expand(a, workdir)]
    # as a reader runs it: the strong-play check at its default (conftest turns it off)
    r = CliRunner().invoke(main, args, env={"GITHUB_STEP_SUMMARY": None, STRONG_ENV: None})
    assert r.exit_code in (0, 3), (page, command, r.output, r.exception)
    assert not shown or matches(shown, r.stdout.splitlines()), (
        f"{page}: `{command}` printed:\n{r.stdout}")


def expand(arg: str, where: Path) -> list[str]:
    """``arg`` as a shell expands it in ``where``: a glob's matches in order, else itself."""
    if not any(c in arg for c in "*?["):
        return [arg]
    return sorted(p.relative_to(where).as_posix() for p in where.glob(arg)) or [arg]


def test_a_glob_expands_as_a_shell_would(tmp_path):
    (tmp_path / "b.jsonl").touch()
    (tmp_path / "a.jsonl").touch()
    assert expand("*.jsonl", tmp_path) == ["a.jsonl", "b.jsonl"]
    assert expand("none-*.txt", tmp_path) == ["none-*.txt"] and expand("x", tmp_path) == ["x"]


def test_the_ellipsis_stands_for_any_lines():
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "..."], ["a"]) and not matches(["a", "d"], ["a", "b", "d"])
    assert not matches(["a", "...", "e"], ["a", "b", "d"])


def test_the_guide_has_its_worked_examples():
    cmds = [c for c, _ in examples("docs/designers-guide.md")]
    assert any(c.startswith("imhotep-stats compare configs/whatif-pyramid-d.toml") for c in cmds)
    assert any(c.startswith("imhotep-stats sweep configs/sweep-expansion.toml") for c in cmds)
    assert any("--max-seat-shift" in c for c in cmds)
    assert any("--fail-on-unbalanced" in c for c in cmds)


VERDICT_EXAMPLES = (  # docs/reports.md, "Seat verdicts, with worked examples"
    ((10_100, 9_950, 9_980, 9_970), 40_000, 0.02),
    ((25_800, 24_700, 24_800, 24_700), 100_000, 0.02),
    ((920, 960, 1_180, 940), 4_000, 0.02),
    ((970, 970, 968, 1_092), 4_000, 0.02),
    ((520, 520, 542, 418), 2_000, 0.05),
)


def test_the_reports_verdict_examples_are_what_the_verdict_says():
    from imhotep_stats.stats.significance import seat_verdict

    text = " ".join((ROOT / "docs" / "reports.md").read_text(encoding="utf-8").split())
    for wins, games, margin in VERDICT_EXAMPLES:
        assert f"{games:,} games" in text and " / ".join(f"{w:,}" for w in wins) in text
        verdict = seat_verdict(list(wins), games, margin).text
        assert verdict in text, verdict
